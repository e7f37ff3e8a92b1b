#include "hitgrid/core/scene_text_io.hpp"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <ostream>

#include "hitgrid/core/error.hpp"
#include "block_writer.hpp"
#include "invalid_field.hpp"
#include "parse_float32.hpp"
#include "text_scan.hpp"

namespace hitgrid {
namespace {

using detail::NumberStatus;
using detail::parse_float32;
using detail::quote;
using detail::Token;

struct KindInfo {
  ShapeKind kind;
  int arity;
};

bool kind_of(std::string_view t, KindInfo& info) {
  if (t.size() != 1) return false;
  switch (t[0]) {
    case 's': info = {ShapeKind::segment, 4}; return true;
    case 'c': info = {ShapeKind::circle, 3}; return true;
    case 'b': info = {ShapeKind::box, 4}; return true;
    default: return false;
  }
}

// Counts the lines that start with a kind letter, to size the columns once. Only a hint:
// the parse proper decides.
void reserve_for(std::string_view text, Scene& scene) {
  std::size_t n[3] = {0, 0, 0};
  std::size_t pos = 0;
  while (pos < text.size()) {
    while (pos < text.size() && detail::Tokenizer::is_blank(text[pos])) ++pos;
    if (pos + 1 < text.size() && detail::Tokenizer::is_blank(text[pos + 1])) {
      switch (text[pos]) {
        case 's': ++n[0]; break;
        case 'c': ++n[1]; break;
        case 'b': ++n[2]; break;
        default: break;
      }
    }
    const void* nl = std::memchr(text.data() + pos, '\n', text.size() - pos);
    if (nl == nullptr) break;
    pos = static_cast<std::size_t>(static_cast<const char*>(nl) - text.data()) + 1;
  }
  // The shortest valid line ("c 0 0 0") takes 7 bytes and a newline; more candidates than
  // that allows means garbage, and garbage must not make us allocate more than it is worth.
  if ((n[0] + n[1] + n[2]) <= text.size() / 8 + 1) scene.reserve(n[0], n[1], n[2]);
}

class TextSceneReader {
 public:
  TextSceneReader(std::string_view text, const std::string& filename) : text_(text), file_(filename) {}

  Scene read() {
    Scene scene;
    reserve_for(text_, scene);
    detail::LineReader lines(text_);
    while (lines.next()) {
      line_ = lines.number();
      detail::Tokenizer tokens(lines.content());
      Token kind_token;
      if (!tokens.next(kind_token)) continue;  // blank or comment-only line
      KindInfo info{};
      if (!kind_of(kind_token.text, info))
        fail(kind_token.column, "unknown shape kind " + quote(kind_token.text) + " (expected s, c or b)");
      float v[4];
      Token fields[4];
      for (int i = 0; i < info.arity; ++i) {
        if (!tokens.next(fields[i])) fail(tokens.end_column(), field_count_message("too few", info, i));
        number(fields[i], v[i]);
      }
      Token extra;
      if (tokens.next(extra))
        fail(extra.column, field_count_message("too many", info, info.arity + 1 + tokens.count_rest()));
      switch (info.kind) {
        case ShapeKind::segment: add(scene, Segment{{v[0], v[1]}, {v[2], v[3]}}, fields); break;
        case ShapeKind::circle: add(scene, Circle{{v[0], v[1]}, v[2]}, fields); break;
        case ShapeKind::box: add(scene, Box{{v[0], v[1]}, {v[2], v[3]}}, fields); break;
      }
    }
    return scene;
  }

 private:
  [[noreturn]] void fail(std::uint64_t column, const std::string& message) const {
    throw ParseError(file_, line_, column, message);
  }

  static std::string field_count_message(const char* what, const KindInfo& info, std::uint64_t found) {
    return std::string(what) + " fields: a " + std::string(kind_name(info.kind)) + " takes " +
           std::to_string(info.arity) + " numbers, found " + std::to_string(found);
  }

  void number(const Token& t, float& out) const {
    switch (parse_float32(t.text, out)) {
      case NumberStatus::ok: return;
      case NumberStatus::malformed: fail(t.column, "malformed number " + quote(t.text));
      case NumberStatus::not_finite: fail(t.column, "not a finite number " + quote(t.text));
      case NumberStatus::overflow:
        fail(t.column, "number " + quote(t.text) + " is out of float32 range (largest 3.40282347e+38)");
    }
  }

  template <typename Shape>
  void add(Scene& scene, const Shape& shape, const Token* fields) const {
    try {
      scene.add(shape);
    } catch (const InvalidShapeError& e) {
      // Already "circle 3: negative radius -1": say where it is in the file too.
      fail(fields[detail::invalid_field(shape)].column, e.what());
    } catch (const Error& e) {  // the kind is full (ShapeId::max_count shapes)
      fail(fields[0].column, e.what());
    }
  }

  std::string_view text_;
  const std::string& file_;
  std::uint64_t line_ = 0;
};

}  // namespace

Scene read_scene_text(std::string_view text, const std::string& filename) {
  return TextSceneReader(text, filename).read();
}

void write_scene_text(std::ostream& out, const Scene& scene) {
  detail::BlockWriter w(out);
  w.text("# hitgrid scene: " + std::to_string(scene.segment_count()) + " segments, " +
         std::to_string(scene.circle_count()) + " circles, " + std::to_string(scene.box_count()) + " boxes");
  w.end_line();
  const auto line = [&w](char kind, std::initializer_list<float> values) {
    w.character(kind);
    for (float v : values) {
      w.character(' ');
      w.number(v);
    }
    w.end_line();
  };
  const auto& s = scene.segments();
  for (std::size_t i = 0; i < s.size(); ++i) line('s', {s.ax[i], s.ay[i], s.bx[i], s.by[i]});
  const auto& c = scene.circles();
  for (std::size_t i = 0; i < c.size(); ++i) line('c', {c.cx[i], c.cy[i], c.r[i]});
  const auto& b = scene.boxes();
  for (std::size_t i = 0; i < b.size(); ++i) line('b', {b.minx[i], b.miny[i], b.maxx[i], b.maxy[i]});
  w.flush();
}

}  // namespace hitgrid
