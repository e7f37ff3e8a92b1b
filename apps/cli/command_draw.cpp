// hitgrid draw SCENE [-o OUT.svg] [--pairs] [--window X0 Y0 X1 Y1] [--cells] [--budget N]:
// an SVG picture of a scene (draw/svg.hpp).
//
// The picture shows the scene's bounds (and the window, if it reaches further). Without a
// window, every shape is drawn when there are at most --budget of them, else a density
// image of the whole scene. With a window, the shapes touching it (exactly, closed) are
// drawn inside it, clipped to it, and the rest of the scene is a density image around it;
// a window touching more than --budget shapes is a density image too. --pairs colours the
// shapes that collide with another (exact pair list) apart from the rest; --cells draws
// the grid's cell walls (the home-cell grid find_pairs chose).
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "common_options.hpp"
#include "hitgrid/core/aabb.hpp"
#include "hitgrid/core/error.hpp"
#include "hitgrid/core/intersects.hpp"
#include "hitgrid/core/scene_file.hpp"
#include "hitgrid/draw/svg.hpp"
#include "output.hpp"
#include "picture_style.hpp"

namespace hitgrid::cli {
namespace {

struct DrawCommand {
  std::string scene_path;
  std::string output;
  bool pairs = false;
  bool cells = false;
  std::vector<float> window;
  std::uint64_t budget = 20000;
  double width = 1000;
  CommonOptions common;
};

bool touches(const Scene& scene, ShapeId id, const Box& window) {
  switch (id.kind()) {
    case ShapeKind::segment:
      return intersects(scene.segment(id.index()), window);
    case ShapeKind::circle:
      return intersects(scene.circle(id.index()), window);
    case ShapeKind::box:
      return intersects(scene.box(id.index()), window);
  }
  return false;
}

Vec2 centre(const Aabb& b) {
  return {static_cast<float>((static_cast<double>(b.min.x) + b.max.x) / 2),
          static_cast<float>((static_cast<double>(b.min.y) + b.max.y) / 2)};
}

Aabb shape_bounds(const Scene& scene, ShapeId id) {
  switch (id.kind()) {
    case ShapeKind::segment:
      return bounds(scene.segment(id.index()));
    case ShapeKind::circle:
      return bounds(scene.circle(id.index()));
    case ShapeKind::box:
      return bounds(scene.box(id.index()));
  }
  return {};
}

template <class F>
void for_each_shape(const Scene& scene, F&& f) {
  for (std::uint32_t i = 0; i < scene.segment_count(); ++i) f(ShapeId(ShapeKind::segment, i));
  for (std::uint32_t i = 0; i < scene.circle_count(); ++i) f(ShapeId(ShapeKind::circle, i));
  for (std::uint32_t i = 0; i < scene.box_count(); ++i) f(ShapeId(ShapeKind::box, i));
}

/// --window, checked, if given.
std::optional<Box> window_of(const DrawCommand& cmd) {
  if (cmd.window.empty()) return std::nullopt;
  const Box w{{cmd.window[0], cmd.window[1]}, {cmd.window[2], cmd.window[3]}};
  if (!(w.min.x <= w.max.x && w.min.y <= w.max.y)) throw Error("--window: x0 <= x1 and y0 <= y1 are needed");
  return w;
}

/// Which shapes collide (the exact pair list), by kind and index.
struct Colliding {
  std::vector<std::uint8_t> hit[3];
  bool operator()(ShapeId id) const { return hit[static_cast<int>(id.kind())][id.index()] != 0; }
};
Colliding colliding_shapes(const Scene& scene, const PairList& pairs) {
  Colliding c;
  c.hit[0].assign(scene.segment_count(), 0);
  c.hit[1].assign(scene.circle_count(), 0);
  c.hit[2].assign(scene.box_count(), 0);
  for (const Pair& p : pairs) {
    c.hit[static_cast<int>(p.first().kind())][p.first().index()] = 1;
    c.hit[static_cast<int>(p.second().kind())][p.second().index()] = 1;
  }
  return c;
}

/// The view: the scene's bounds, and the window's.
Aabb view_of(const Scene& scene, const std::optional<Box>& window) {
  Aabb view = scene.size() != 0 ? scene.bounds() : Aabb{{0, 0}, {1, 1}};
  if (window) {
    view.min = {std::min(view.min.x, window->min.x), std::min(view.min.y, window->min.y)};
    view.max = {std::max(view.max.x, window->max.x), std::max(view.max.y, window->max.y)};
  }
  return view;
}

/// The density image of every shape not drawn one by one (all of them when `each_shape`
/// is false, else those outside the window), if any.
void draw_density(SvgCanvas& canvas, const Scene& scene, const DrawCommand& cmd, const Colliding& is_hit,
                  const std::optional<Box>& window, bool each_shape, const Aabb& view) {
  DensityRaster raster(Box{view.min, view.max}, 256,
                       static_cast<std::uint32_t>(std::max(1.0, 256 * canvas.height_px() / canvas.width_px())));
  std::size_t in_raster = 0;
  for_each_shape(scene, [&](ShapeId id) {
    if (each_shape && (!window || touches(scene, id, *window))) return;
    raster.add(centre(shape_bounds(scene, id)), cmd.pairs && is_hit(id));
    ++in_raster;
  });
  if (in_raster != 0) {
    canvas.comment("density image: " + std::to_string(in_raster) + " shapes counted at their bounds' centres");
    canvas.density(raster, picture::free_colour, picture::hit_colour);
  }
}

/// The shapes in `drawn`, one by one (clipped to the window on a white ground, if any).
void draw_shapes(SvgCanvas& canvas, const Scene& scene, const DrawCommand& cmd, const Colliding& is_hit,
                 const std::optional<Box>& window, const std::vector<ShapeId>& drawn) {
  if (window) {
    canvas.box(*window, SvgStyle::filled("#ffffff"));
    canvas.begin_clip(*window);
  }
  canvas.begin_group("shapes");
  for (ShapeId id : drawn) canvas.shape(scene, id, picture::shape_style(cmd.pairs && is_hit(id)));
  canvas.end_group();
  if (window) canvas.end_group();
}

int run(const DrawCommand& cmd) {
  const FindPairsOptions options = cmd.common.to_find_options();
  const std::optional<Box> window = window_of(cmd);
  const Scene scene = read_scene_file(cmd.scene_path);
  FindPairsReport report;
  const Colliding is_hit =
      colliding_shapes(scene, cmd.pairs || cmd.cells ? find_pairs(scene, options, &report) : PairList{});

  const Aabb view = view_of(scene, window);
  SvgCanvas canvas(Box{view.min, view.max}, cmd.width);
  canvas.title("hitgrid draw " + cmd.scene_path);
  canvas.comment(std::to_string(scene.size()) + " shapes" +
                 (cmd.pairs ? ", colliding ones in " + std::string(picture::hit_colour) : std::string()));

  std::vector<ShapeId> drawn;
  for_each_shape(scene, [&](ShapeId id) {
    if (!window || touches(scene, id, *window)) drawn.push_back(id);
  });
  const bool each_shape = drawn.size() <= cmd.budget;
  draw_density(canvas, scene, cmd, is_hit, window, each_shape, view);
  if (each_shape) draw_shapes(canvas, scene, cmd, is_hit, window, drawn);
  if (cmd.cells) {
    if (!canvas.grid_lines(report.cell_size, SvgStyle::line("#999999", 0.5).with_opacity(0.6).with_class("cells")))
      canvas.comment("grid cells (" + std::to_string(report.cell_size) + ") too small to draw at this scale");
  }
  if (window) canvas.box(*window, SvgStyle::line("#000000").with_class("window").with_dashes());

  write_output(
      cmd.output, [&](std::ostream& out) { canvas.write(out); },
      [&](const std::string& path) { write_text_file(path, canvas.finish()); });
  return 0;
}

}  // namespace

Runner add_draw_command(CLI::App& app) {
  auto cmd = std::make_shared<DrawCommand>();
  CLI::App* sub = app.add_subcommand(
      "draw", "Draw a scene as SVG: colliding shapes apart, a window, a density image for big scenes");
  sub->add_option("scene", cmd->scene_path, "Scene file, text or binary (docs/formats.md)")->required();
  sub->add_option("-o,--output", cmd->output, "Output SVG file (default: standard output)");
  sub->add_flag("--pairs", cmd->pairs, "Colour the shapes that collide with another (exact pairs) apart from the rest");
  sub->add_option("--window", cmd->window,
                  "Draw every shape touching this box (x0 y0 x1 y1); the rest as a density image")
      ->expected(4);
  sub->add_flag("--cells", cmd->cells, "Draw the cell walls of the grid find_pairs chose");
  sub->add_option("--budget", cmd->budget, "Most shapes drawn one by one; above it, a density image (default 20000)")
      ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{100000000}));
  sub->add_option("--width", cmd->width, "Picture width in pixels (default 1000)")->check(CLI::Range(16.0, 100000.0));
  cmd->common.add_to(*sub);
  return [cmd] { return run(*cmd); };
}

}  // namespace hitgrid::cli
