#include "hitgrid/draw/svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>

#include "hitgrid/core/aabb.hpp"
#include "hitgrid/core/error.hpp"

namespace hitgrid {
namespace {

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  std::string s = buf;
  // Trim trailing zeros: smaller files, same picture.
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  if (s == "-0") s = "0";
  return s;
}

std::string escape(std::string_view text) {
  std::string out;
  for (char ch : text) {
    switch (ch) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default: out += ch;
    }
  }
  return out;
}

bool finite_box(const Box& b) {
  return std::isfinite(b.min.x) && std::isfinite(b.min.y) && std::isfinite(b.max.x) && std::isfinite(b.max.y);
}

}  // namespace

DensityRaster::DensityRaster(Box a, std::uint32_t c, std::uint32_t r)
    : area(a), cols(std::max(c, 1u)), rows(std::max(r, 1u)), count(std::size_t{cols} * rows, 0) {}

void DensityRaster::add(Vec2 p, bool mark) {
  if (!(p.x >= area.min.x && p.x <= area.max.x && p.y >= area.min.y && p.y <= area.max.y)) return;
  const double w = static_cast<double>(area.max.x) - area.min.x;
  const double h = static_cast<double>(area.max.y) - area.min.y;
  const auto cell = [](double t, double extent, std::uint32_t n) {
    if (!(extent > 0)) return 0u;
    const auto i = static_cast<std::uint32_t>(std::floor(t / extent * n));
    return std::min(i, n - 1);
  };
  const std::size_t k = std::size_t{cell(p.y - area.min.y, h, rows)} * cols + cell(p.x - area.min.x, w, cols);
  ++count[k];
  if (mark) {
    if (marked.empty()) marked.assign(count.size(), 0);
    ++marked[k];
  }
}

SvgCanvas::SvgCanvas(Box window, double width_px) : window_(window), width_(width_px) {
  if (!finite_box(window) || window.min.x > window.max.x || window.min.y > window.max.y)
    throw Error("picture window must be a finite box with min <= max");
  if (!(width_px >= 16 && width_px <= 100000)) throw Error("picture width must be between 16 and 100000 pixels");
  double w = static_cast<double>(window_.max.x) - window_.min.x;
  double h = static_cast<double>(window_.max.y) - window_.min.y;
  if (!(w > 0) && !(h > 0)) {
    window_.min = {window_.min.x - 0.5f, window_.min.y - 0.5f};
    window_.max = {window_.max.x + 0.5f, window_.max.y + 0.5f};
  } else if (!(w > 0)) {
    window_.min.x = static_cast<float>(window_.min.x - h / 2);
    window_.max.x = static_cast<float>(window_.max.x + h / 2);
  } else if (!(h > 0)) {
    window_.min.y = static_cast<float>(window_.min.y - w / 2);
    window_.max.y = static_cast<float>(window_.max.y + w / 2);
  }
  w = static_cast<double>(window_.max.x) - window_.min.x;
  h = static_cast<double>(window_.max.y) - window_.min.y;
  scale_ = width_ / w;
  height_ = std::max(1.0, std::round(h * scale_));
}

double SvgCanvas::px(float x) const { return (static_cast<double>(x) - window_.min.x) * scale_; }
double SvgCanvas::py(float y) const { return (static_cast<double>(window_.max.y) - y) * scale_; }

std::string SvgCanvas::attributes(const SvgStyle& style, std::string_view id) const {
  std::string a;
  if (!id.empty()) a += " data-id=\"" + escape(id) + "\"";
  if (!style.css_class.empty()) a += " class=\"" + escape(style.css_class) + "\"";
  a += " stroke=\"" + escape(style.stroke) + "\" fill=\"" + escape(style.fill) + "\" stroke-width=\"" + num(style.width_px) + "\"";
  if (style.opacity != 1.0) a += " opacity=\"" + num(style.opacity) + "\"";
  if (style.dashed) a += " stroke-dasharray=\"" + num(4 * style.width_px) + " " + num(3 * style.width_px) + "\"";
  return a;
}

void SvgCanvas::title(std::string_view text) { title_ = text; }

void SvgCanvas::comment(std::string_view text) {
  std::string t(text);
  for (std::size_t i; (i = t.find("--")) != std::string::npos;) t.replace(i, 2, "- -");
  body_ += "<!-- " + t + " -->\n";
}

void SvgCanvas::label(Vec2 at, std::string_view text, double size_px, std::string_view colour) {
  body_ += "<text x=\"" + num(px(at.x)) + "\" y=\"" + num(py(at.y)) + "\" font-family=\"sans-serif\" font-size=\"" +
           num(size_px) + "\" fill=\"" + escape(colour) + "\">" + escape(text) + "</text>\n";
}

void SvgCanvas::segment(const Segment& s, const SvgStyle& style, std::string_view id) {
  body_ += "<line x1=\"" + num(px(s.a.x)) + "\" y1=\"" + num(py(s.a.y)) + "\" x2=\"" + num(px(s.b.x)) + "\" y2=\"" +
           num(py(s.b.y)) + "\" stroke-linecap=\"round\"" + attributes(style, id) + "/>\n";
}

void SvgCanvas::circle(const Circle& c, const SvgStyle& style, std::string_view id) {
  if (c.r == 0.0f) {
    segment({c.c, c.c}, style, id);
    return;
  }
  body_ += "<circle cx=\"" + num(px(c.c.x)) + "\" cy=\"" + num(py(c.c.y)) + "\" r=\"" + num(c.r * scale_) + "\"" +
           attributes(style, id) + "/>\n";
}

void SvgCanvas::box(const Box& b, const SvgStyle& style, std::string_view id) {
  if (b.min.x == b.max.x || b.min.y == b.max.y) {  // a segment or a point: a rect would vanish
    segment({b.min, b.max}, style, id);
    return;
  }
  body_ += "<rect x=\"" + num(px(b.min.x)) + "\" y=\"" + num(py(b.max.y)) + "\" width=\"" +
           num((static_cast<double>(b.max.x) - b.min.x) * scale_) + "\" height=\"" +
           num((static_cast<double>(b.max.y) - b.min.y) * scale_) + "\"" + attributes(style, id) + "/>\n";
}

void SvgCanvas::shape(const Scene& scene, ShapeId id, const SvgStyle& style) {
  const std::string tag = std::string(1, kind_letter(id.kind())) + std::to_string(id.index());
  switch (id.kind()) {
    case ShapeKind::segment: segment(scene.segment(id.index()), style, tag); break;
    case ShapeKind::circle: circle(scene.circle(id.index()), style, tag); break;
    case ShapeKind::box: box(scene.box(id.index()), style, tag); break;
  }
}

void SvgCanvas::polyline(std::span<const Vec2> points, const SvgStyle& style) {
  if (points.empty()) return;
  body_ += "<polyline points=\"";
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (i) body_ += ' ';
    body_ += num(px(points[i].x)) + "," + num(py(points[i].y));
  }
  body_ += "\" stroke-linejoin=\"round\" stroke-linecap=\"round\"" + attributes(style, {}) + "/>\n";
}

void SvgCanvas::dot(Vec2 p, double radius_px, const SvgStyle& style, std::string_view id) {
  body_ += "<circle cx=\"" + num(px(p.x)) + "\" cy=\"" + num(py(p.y)) + "\" r=\"" + num(radius_px) + "\"" +
           attributes(style, id) + "/>\n";
}

bool SvgCanvas::grid_lines(double cell, const SvgStyle& style, std::uint32_t max_lines) {
  if (!(cell > 0) || !std::isfinite(cell)) return false;
  const double x0 = std::ceil(window_.min.x / cell), x1 = std::floor(window_.max.x / cell);
  const double y0 = std::ceil(window_.min.y / cell), y1 = std::floor(window_.max.y / cell);
  if (x1 - x0 + 1 > max_lines || y1 - y0 + 1 > max_lines) return false;
  std::string d;
  for (double i = x0; i <= x1; ++i) {
    const double x = (i * cell - window_.min.x) * scale_;
    d += "M" + num(x) + " 0V" + num(height_);
  }
  for (double j = y0; j <= y1; ++j) {
    const double y = (window_.max.y - j * cell) * scale_;
    d += "M0 " + num(y) + "H" + num(width_);
  }
  body_ += "<path d=\"" + d + "\"" + attributes(style, {}) + "/>\n";
  return true;
}

void SvgCanvas::density(const DensityRaster& raster, std::string_view colour, std::string_view marked_colour) {
  std::uint32_t most = 0;
  for (std::uint32_t c : raster.count) most = std::max(most, c);
  if (most == 0) return;
  const double cw = (static_cast<double>(raster.area.max.x) - raster.area.min.x) / raster.cols;
  const double ch = (static_cast<double>(raster.area.max.y) - raster.area.min.y) / raster.rows;
  body_ += "<g class=\"density\" stroke=\"none\">\n";
  for (std::uint32_t r = 0; r < raster.rows; ++r)
    for (std::uint32_t c = 0; c < raster.cols; ++c) {
      const std::size_t k = std::size_t{r} * raster.cols + c;
      if (raster.count[k] == 0) continue;
      const bool marked = !raster.marked.empty() && raster.marked[k] != 0;
      // log scale: one shape is faint, the densest cell opaque.
      const double opacity = 0.15 + 0.85 * std::log1p(raster.count[k]) / std::log1p(most);
      const double x = (raster.area.min.x + c * cw - window_.min.x) * scale_;
      const double y = (window_.max.y - (raster.area.min.y + (r + 1) * ch)) * scale_;
      body_ += "<rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" + num(cw * scale_) + "\" height=\"" +
               num(ch * scale_) + "\" fill=\"" + escape(marked ? marked_colour : colour) + "\" fill-opacity=\"" +
               num(opacity) + "\" data-count=\"" + std::to_string(raster.count[k]) + "\"/>\n";
    }
  body_ += "</g>\n";
}

void SvgCanvas::begin_group(std::string_view css_class) {
  body_ += css_class.empty() ? "<g>\n" : "<g class=\"" + escape(css_class) + "\">\n";
  ++depth_;
}

void SvgCanvas::begin_clip(const Box& clip) {
  const std::string id = "clip" + std::to_string(clips_++);
  body_ += "<clipPath id=\"" + id + "\"><rect x=\"" + num(px(clip.min.x)) + "\" y=\"" + num(py(clip.max.y)) +
           "\" width=\"" + num((static_cast<double>(clip.max.x) - clip.min.x) * scale_) + "\" height=\"" +
           num((static_cast<double>(clip.max.y) - clip.min.y) * scale_) + "\"/></clipPath>\n";
  body_ += "<g clip-path=\"url(#" + id + ")\">\n";
  ++depth_;
}

void SvgCanvas::begin_frame(std::size_t frame, std::size_t frames, double seconds) {
  const double n = static_cast<double>(std::max<std::size_t>(frames, 1));
  const double a = static_cast<double>(frame) / n, b = static_cast<double>(frame + 1) / n;
  std::string values, times;
  if (frames <= 1) {
    values = "visible", times = "0";
  } else if (frame == 0) {
    values = "visible;hidden", times = "0;" + num(b);
  } else if (frame + 1 >= frames) {
    values = "hidden;visible", times = "0;" + num(a);
  } else {
    values = "hidden;visible;hidden", times = "0;" + num(a) + ";" + num(b);
  }
  body_ += "<g class=\"frame\" data-frame=\"" + std::to_string(frame) + "\" visibility=\"" +
           (frame == 0 ? "visible" : "hidden") + "\">\n<animate attributeName=\"visibility\" calcMode=\"discrete\" values=\"" +
           values + "\" keyTimes=\"" + times + "\" dur=\"" + num(seconds) + "s\" repeatCount=\"indefinite\"/>\n";
  ++depth_;
}

void SvgCanvas::end_group() {
  if (depth_ == 0) return;
  body_ += "</g>\n";
  --depth_;
}

std::string SvgCanvas::finish() const {
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
                    num(width_) + "\" height=\"" + num(height_) + "\" viewBox=\"0 0 " + num(width_) + " " + num(height_) +
                    "\">\n";
  if (!title_.empty()) out += "<title>" + escape(title_) + "</title>\n";
  out += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  out += body_;
  for (int i = 0; i < depth_; ++i) out += "</g>\n";
  out += "</svg>\n";
  return out;
}

void SvgCanvas::write(std::ostream& out) const { out << finish(); }

}  // namespace hitgrid
