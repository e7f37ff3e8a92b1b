// hitgrid rope PEGS PATH [-o OUT.svg] [--frames LIST | --animate] [--start X Y] [--stats]:
// replays a path of end positions over a peg scene (rope/rope.hpp) and draws the rope.
//
// Frame 0 is the rope with its end at the path's first point (the start is there too
// unless --start puts it elsewhere); frame k is the rope after the k-th move. --frames
// picks the frames drawn in one picture (oldest faintest); --animate draws every frame
// (at most 1000, evenly picked) as an animated SVG.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "hitgrid/core/aabb.hpp"
#include "hitgrid/core/error.hpp"
#include "hitgrid/core/point_list_io.hpp"
#include "hitgrid/core/scene_file.hpp"
#include "hitgrid/draw/svg.hpp"
#include "hitgrid/rope/rope.hpp"
#include "output.hpp"
#include "picture_style.hpp"

namespace hitgrid::cli {
namespace {

struct RopeCommand {
  std::string pegs_path;
  std::string path_path;
  std::string output;
  std::string frames = "last";
  bool animate = false;
  double seconds = 0;
  std::vector<float> start;
  double width = 1000;
  std::uint64_t budget = 20000;
  bool stats = false;
};

// "0,5,last", "all": frame numbers, ascending, each once. Throws Error naming a bad one.
std::vector<std::size_t> parse_frames(const std::string& text, std::size_t frames) {
  std::vector<std::size_t> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    if (item == "all") {
      for (std::size_t i = 0; i < frames; ++i) out.push_back(i);
      continue;
    }
    if (item == "last") {
      out.push_back(frames - 1);
      continue;
    }
    std::size_t k = 0, used = 0;
    try {
      k = std::stoull(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != item.size() || item[0] == '-')
      throw Error("--frames: '" + item + "' is not a frame number, 'last' or 'all'");
    if (k >= frames)
      throw Error("--frames: frame " + item + " is past the path's last frame " + std::to_string(frames - 1));
    out.push_back(k);
  }
  if (out.empty()) throw Error("--frames: no frame given");
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::string nodes_json(const Rope& rope) {
  std::string s = "[";
  for (std::size_t i = 1; i < rope.nodes().size(); ++i) {
    const RopeNode& n = rope.nodes()[i];
    if (i > 1) s += ",";
    s += "[" + std::to_string(n.peg) + "," + std::to_string(n.side) + "," + std::to_string(n.half_turns) + "]";
  }
  return s + "]";
}

/// The frames drawn: with --animate every frame of paths up to 1,000 frames long, else
/// evenly spaced ones and the last; else those --frames names.
std::vector<std::size_t> chosen_frames(const RopeCommand& cmd, std::size_t frames) {
  if (!cmd.animate) return parse_frames(cmd.frames, frames);
  constexpr std::size_t most_animated = 1000;
  std::vector<std::size_t> chosen;
  const std::size_t step = (frames + most_animated - 1) / most_animated;
  for (std::size_t i = 0; i < frames; i += step) chosen.push_back(i);
  if (chosen.back() != frames - 1) chosen.push_back(frames - 1);
  return chosen;
}

/// The rope's end moved along the path: the outlines of the chosen frames, which pegs the
/// rope wraps at the end, and the moves' time.
struct Replay {
  std::vector<std::vector<Vec2>> shots;
  std::vector<std::uint8_t> wrapped;  // per peg
  double ms = 0;
};
Replay replay(Rope& rope, const std::vector<Vec2>& path, const std::vector<std::size_t>& chosen, std::size_t pegs) {
  Replay r;
  r.wrapped.assign(pegs, 0);
  std::size_t next = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (std::size_t f = 0; f < path.size(); ++f) {
    rope.move_end(path[f]);
    if (next < chosen.size() && chosen[next] == f) {
      r.shots.push_back(rope.outline());
      ++next;
    }
  }
  r.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  for (std::size_t i = 1; i < rope.nodes().size(); ++i) r.wrapped[rope.nodes()[i].peg] = 1;
  return r;
}

/// The view: the path, the start and the pegs (all of them: the pegs give the scene).
Aabb view_of(Vec2 start, const std::vector<Vec2>& path, const ScenePegs& pegs) {
  Aabb view{start, start};
  const auto grow = [&](Vec2 p) {
    view.min = {std::min(view.min.x, p.x), std::min(view.min.y, p.y)};
    view.max = {std::max(view.max.x, p.x), std::max(view.max.y, p.y)};
  };
  for (Vec2 p : path) grow(p);
  for (std::size_t i = 0; i < pegs.points.size(); ++i) {
    const Vec2 c = pegs.points[i];
    const float r = pegs.radii[i];
    grow({c.x - r, c.y - r});
    grow({c.x + r, c.y + r});
  }
  return view;
}

/// The pegs, each drawn (the wrapped ones in the hit colour) up to `budget` of them, else
/// as a density image.
void draw_pegs(SvgCanvas& canvas, const ScenePegs& pegs, const std::vector<std::uint8_t>& wrapped, std::uint64_t budget,
               const Aabb& view) {
  if (pegs.points.size() > budget) {
    DensityRaster raster(Box{view.min, view.max}, 256, 256);
    for (Vec2 p : pegs.points) raster.add(p);
    canvas.density(raster, picture::peg_colour, picture::peg_colour);
    return;
  }
  canvas.begin_group("pegs");
  for (std::size_t i = 0; i < pegs.points.size(); ++i) {
    const SvgStyle style = SvgStyle::filled(wrapped[i] ? picture::hit_colour : picture::peg_colour)
                               .with_class(wrapped[i] ? "peg wrapped" : "peg");
    if (pegs.radii[i] > 0.0f)
      canvas.circle(Circle{pegs.points[i], pegs.radii[i]}, style, "p" + std::to_string(i));
    else
      canvas.dot(pegs.points[i], wrapped[i] ? 4.0 : 3.0, style, "p" + std::to_string(i));
  }
  canvas.end_group();
}

/// The rope at each chosen frame: as an animation's frames, or all in one picture, the
/// earlier ones fainter.
void draw_ropes(SvgCanvas& canvas, const RopeCommand& cmd, const Replay& r, const std::vector<std::size_t>& chosen) {
  const std::vector<std::vector<Vec2>>& shots = r.shots;
  if (cmd.animate) {
    const double seconds = cmd.seconds > 0 ? cmd.seconds : std::max(2.0, 0.04 * static_cast<double>(shots.size()));
    for (std::size_t i = 0; i < shots.size(); ++i) {
      canvas.begin_frame(i, shots.size(), seconds);
      canvas.polyline(shots[i], SvgStyle::line(picture::rope_colour, 2.5).with_class("rope"));
      canvas.dot(shots[i].back(), 4.0, SvgStyle::filled("#000000").with_class("end"));
      canvas.end_group();
    }
    return;
  }
  for (std::size_t i = 0; i < shots.size(); ++i) {
    const bool last = i + 1 == shots.size();
    const double opacity = last ? 1.0 : 0.25 + 0.5 * static_cast<double>(i + 1) / static_cast<double>(shots.size());
    canvas.begin_group("rope-frame");
    canvas.comment("frame " + std::to_string(chosen[i]));
    canvas.polyline(shots[i],
                    SvgStyle::line(picture::rope_colour, last ? 2.5 : 1.5).with_opacity(opacity).with_class("rope"));
    canvas.dot(shots[i].back(), 4.0, SvgStyle::filled("#000000").with_opacity(opacity).with_class("end"));
    canvas.end_group();
  }
}

int run(const RopeCommand& cmd) {
  const Scene scene = read_scene_file(cmd.pegs_path);
  const std::vector<Vec2> path = read_points_file(cmd.path_path);
  if (path.empty()) throw Error(cmd.path_path + ": no points (a path needs at least one \"x y\" line)");
  const ScenePegs pegs = pegs_of(scene);
  const Vec2 start = cmd.start.empty() ? path[0] : Vec2{cmd.start[0], cmd.start[1]};
  const std::vector<std::size_t> chosen = chosen_frames(cmd, path.size());

  Rope rope(start, pegs.points, pegs.radii);
  const Replay r = replay(rope, path, chosen, pegs.points.size());

  const Aabb view = view_of(start, path, pegs);
  const float pad = std::max(view.max.x - view.min.x, view.max.y - view.min.y) * 0.03f + 0.5f;
  SvgCanvas canvas(Box{{view.min.x - pad, view.min.y - pad}, {view.max.x + pad, view.max.y + pad}}, cmd.width);
  canvas.title("hitgrid rope " + cmd.pegs_path + " " + cmd.path_path);
  draw_pegs(canvas, pegs, r.wrapped, cmd.budget, view);
  canvas.polyline(path, SvgStyle::line(picture::path_colour).with_class("path").with_dashes());
  draw_ropes(canvas, cmd, r, chosen);
  canvas.dot(start, 5.0, SvgStyle::line("#000000", 2.0).with_fill("#ffffff").with_class("start"));

  write_output(
      cmd.output, [&](std::ostream& out) { canvas.write(out); },
      [&](const std::string& p) { write_text_file(p, canvas.finish()); });
  if (cmd.stats) {
    std::fprintf(stderr, "{\"pegs\":%zu,\"moves\":%zu,\"nodes\":%s,\"length\":%.17g,\"move_ms\":%.6f}\n",
                 pegs.points.size(), path.size(), nodes_json(rope).c_str(), rope.length(),
                 r.ms / static_cast<double>(path.size()));
  }
  return 0;
}

}  // namespace

Runner add_rope_command(CLI::App& app) {
  auto cmd = std::make_shared<RopeCommand>();
  CLI::App* sub = app.add_subcommand("rope", "Replay a rope's end along a path over a peg scene and draw it as SVG");
  sub->add_option(
         "pegs", cmd->pegs_path,
         "Peg scene (docs/formats.md): circles are pegs (radius 0: points), segments their endpoints, boxes their "
         "corners")
      ->required();
  sub->add_option("path", cmd->path_path, "Path: one end position \"x y\" per line (docs/formats.md)")->required();
  sub->add_option("-o,--output", cmd->output, "Output SVG file (default: standard output)");
  sub->add_option("--frames", cmd->frames, "Frames to draw: numbers, 'last', 'all', comma-separated (default last)");
  sub->add_flag("--animate", cmd->animate, "An animated SVG of every frame (at most 1000) instead");
  sub->add_option("--seconds", cmd->seconds, "Length of the animation (default 0.04 s a frame, at least 2 s)")
      ->check(CLI::Range(0.0, 86400.0));
  sub->add_option("--start", cmd->start, "The rope's fixed start X Y (default: the path's first point)")->expected(2);
  sub->add_option("--width", cmd->width, "Picture width in pixels (default 1000)")->check(CLI::Range(16.0, 100000.0));
  sub->add_option("--budget", cmd->budget, "Most pegs drawn one by one; above it, a density image (default 20000)");
  sub->add_flag("--stats", cmd->stats,
                "One JSON object on stderr: the final nodes [peg, side, half_turns], length, ms per move");
  return [cmd] { return run(*cmd); };
}

}  // namespace hitgrid::cli
