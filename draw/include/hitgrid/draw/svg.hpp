// SVG pictures of shapes, ropes and shape densities: the one drawing module of hitgrid,
// used by `hitgrid draw` and `hitgrid rope`, and usable by an engine (link hitgrid::hitgrid,
// include <hitgrid/draw/svg.hpp>) to dump a frame.
//
//   hitgrid::SvgCanvas canvas(window, 800);              // a window of the plane, 800 px wide
//   canvas.shape(scene, id, hitgrid::SvgStyle::line("#d62728"));  // by id (data-id="s3")
//   canvas.polyline(rope.points(), hitgrid::SvgStyle::line("#000", 2));
//   std::string svg = canvas.finish();                   // or canvas.write(stream)
//
// Conventions
//   - The window is a closed box of the plane; the picture maps it to width_px pixels
//     across, keeping the aspect ratio, y pointing up (SVG's y points down: flipped here).
//     Shapes outside the window are drawn too (SVG clips them at the picture's edge);
//     begin_clip() clips a group to a box.
//   - Coordinates are written in pixels with 3 decimals: a picture, not a data format
//     (the shapes' exact floats are in the scene file). Zero-size shapes stay visible: a
//     point segment, a zero-radius circle or a box of zero width or height is drawn as a
//     round-capped line or dot of the stroke's width.
//   - Each shape drawn by `shape` carries data-id="s3" / "c0" / "b7" (kind letter and id),
//     and every element the style's class (class="hit"), so that programs and tests can
//     read a picture back.
//   - Animation (`begin_frame`): frame i of n is a group shown during the i-th n-th of the
//     duration, looping (SMIL, discrete); a viewer without animation shows frame 0.
//   - Density images (`density`): a raster of counts over a box, one rect per nonempty
//     cell, its opacity growing with the logarithm of the count.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "hitgrid/core/scene.hpp"
#include "hitgrid/core/shape_id.hpp"
#include "hitgrid/core/shapes.hpp"
#include "hitgrid/core/vec2.hpp"

namespace hitgrid {

struct SvgStyle {
  std::string stroke = "#1f77b4";  // any SVG colour; "none" for no outline
  std::string fill = "none";
  double width_px = 1.0;           // stroke width in pixels
  double opacity = 1.0;
  std::string css_class;           // written as class="..." when not empty
  bool dashed = false;

  /// An outline of `colour`, width_px wide; a shape filled with `colour`, no outline.
  static SvgStyle line(std::string colour, double width_px = 1.0) {
    SvgStyle s;
    s.stroke = std::move(colour);
    s.width_px = width_px;
    return s;
  }
  static SvgStyle filled(std::string colour) {
    SvgStyle s;
    s.stroke = "none";
    s.fill = std::move(colour);
    return s;
  }
  SvgStyle& with_class(std::string c) { css_class = std::move(c); return *this; }
  SvgStyle& with_opacity(double o) { opacity = o; return *this; }
  SvgStyle& with_fill(std::string f) { fill = std::move(f); return *this; }
  SvgStyle& with_dashes() { dashed = true; return *this; }
};

/// Counts of shapes per cell of a box: cols x rows cells, row 0 at the bottom.
struct DensityRaster {
  Box area;
  std::uint32_t cols = 0, rows = 0;
  std::vector<std::uint32_t> count;  // row-major, cols * rows
  std::vector<std::uint32_t> marked;  // optional second count (e.g. colliding shapes), same layout or empty

  DensityRaster(Box area, std::uint32_t cols, std::uint32_t rows);
  /// Adds a point (a shape's bounds' centre): ignored outside the area. Closed cells, the
  /// top and right edges belong to the last cell.
  void add(Vec2 p, bool mark = false);
};

class SvgCanvas {
 public:
  /// A picture of `window` (any finite box; a zero-size one is grown to a unit square
  /// around it) width_px pixels wide. Throws hitgrid::Error for a non-finite window or a
  /// width outside [16, 100000].
  SvgCanvas(Box window, double width_px = 800.0);

  double width_px() const { return width_; }
  double height_px() const { return height_; }
  /// Pixels per unit of the plane.
  double scale() const { return scale_; }

  void title(std::string_view text);
  void comment(std::string_view text);
  /// A text label at a point of the plane, size in pixels.
  void label(Vec2 at, std::string_view text, double size_px, std::string_view colour);

  void segment(const Segment& s, const SvgStyle& style, std::string_view id = {});
  void circle(const Circle& c, const SvgStyle& style, std::string_view id = {});
  void box(const Box& b, const SvgStyle& style, std::string_view id = {});
  /// A scene's shape, with data-id set to its kind letter and index.
  void shape(const Scene& scene, ShapeId id, const SvgStyle& style);
  void polyline(std::span<const Vec2> points, const SvgStyle& style);
  /// A dot of radius_px pixels (whatever the scale).
  void dot(Vec2 p, double radius_px, const SvgStyle& style, std::string_view id = {});
  /// Lines at every multiple of `cell` across the window (a grid's cell walls). Returns
  /// false (and draws nothing) if that would be more than max_lines lines per axis.
  bool grid_lines(double cell, const SvgStyle& style, std::uint32_t max_lines = 400);
  /// The raster as rects: fill `colour` (`marked_colour` for cells with a marked count).
  void density(const DensityRaster& raster, std::string_view colour, std::string_view marked_colour);

  /// Groups: a plain one, one clipped to a box of the plane, an animation frame.
  void begin_group(std::string_view css_class = {});
  void begin_clip(const Box& clip);
  void begin_frame(std::size_t frame, std::size_t frames, double seconds);
  void end_group();

  /// The whole document; the canvas can still be drawn on and finished again.
  std::string finish() const;
  void write(std::ostream& out) const;

 private:
  double px(float x) const;
  double py(float y) const;
  std::string attributes(const SvgStyle& style, std::string_view id) const;

  Box window_;
  double width_, height_, scale_;
  std::string body_;
  std::string title_;
  int depth_ = 0;
  int clips_ = 0;
};

}  // namespace hitgrid
