// engine_loop: what an engine does with a hitgrid::World, frame after frame.
//
//   engine_loop [frames] [circles] [segments] [picture.svg]   (defaults 200, 3000, 1000)
//
// Circles and short segments move in a square box and bounce off its four static walls;
// one circle in fifty is fast (it crosses a tenth of the world per frame, far more than
// its own size), and would tunnel through a wall or another shape between two frames
// without continuous collision: its displacement goes to the world, which reports every
// shape it touches along the way. Each frame casts two segments (every shape along them)
// and two rays from a wall (the first shape each meets). Each frame prints its time and its counts; the last line sums
// them up. With a fourth argument it draws the last frame there (hitgrid/draw/svg.hpp, the
// drawing code of `hitgrid draw`): shapes in a pair red, the rest blue, the casts on top.
#include <hitgrid/draw/svg.hpp>
#include <hitgrid/hitgrid.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <set>
#include <variant>
#include <vector>

namespace {

struct Body {
  hitgrid::ShapeHandle handle;
  bool circle;
  float x, y, vx, vy;  // centre and velocity (world units per frame)
  float size;          // radius, or half length
  bool fast;
};

}  // namespace

int main(int argc, char** argv) {
  const int frames = argc > 1 ? std::atoi(argv[1]) : 200;
  const int circles = argc > 2 ? std::atoi(argv[2]) : 3000;
  const int segments = argc > 3 ? std::atoi(argv[3]) : 1000;
  const char* picture = argc > 4 ? argv[4] : nullptr;
  if (frames < 1 || circles < 0 || segments < 0 || argc > 5) {
    std::fprintf(stderr, "usage: engine_loop [frames >= 1] [circles >= 0] [segments >= 0] [picture.svg]\n");
    return 2;
  }
  const float side = 200.0f;
  hitgrid::SplitMix64 random(42);
  auto uniform = [&](float lo, float hi) { return lo + static_cast<float>(random.u()) * (hi - lo); };

  hitgrid::World world;  // all cores
  // The box: four static walls of zero thickness.
  for (const hitgrid::Segment& wall : {hitgrid::Segment{{0, 0}, {side, 0}}, hitgrid::Segment{{side, 0}, {side, side}},
                                       hitgrid::Segment{{side, side}, {0, side}}, hitgrid::Segment{{0, side}, {0, 0}}})
    world.create({wall, hitgrid::BodyType::static_body});

  std::vector<Body> bodies;
  auto shape_of = [](const Body& b) -> hitgrid::Shape {
    if (b.circle) return hitgrid::Circle{{b.x, b.y}, b.size};
    return hitgrid::Segment{{b.x - b.size, b.y}, {b.x + b.size, b.y + b.size / 2}};
  };
  for (int i = 0; i < circles + segments; ++i) {
    Body b{};
    b.circle = i < circles;
    b.fast = b.circle && i % 50 == 0;
    b.size = b.circle ? uniform(0.3f, 1.0f) : uniform(0.5f, 1.5f);
    b.x = uniform(2, side - 2);
    b.y = uniform(2, side - 2);
    const float speed = b.fast ? side / 10 : 0.2f;
    b.vx = uniform(-speed, speed);
    b.vy = uniform(-speed, speed);
    bodies.push_back(b);
  }
  std::vector<hitgrid::ShapeDef> defs;
  for (const Body& b : bodies) defs.emplace_back(shape_of(b));
  std::vector<hitgrid::ShapeHandle> handles(defs.size());
  world.create(defs, handles);
  for (std::size_t i = 0; i < bodies.size(); ++i) bodies[i].handle = handles[i];

  std::vector<hitgrid::Shape> moved(bodies.size());
  std::vector<hitgrid::CastHit> hits;
  std::vector<hitgrid::Segment> sights;  // the last frame's casts, for the picture
  double total_ms = 0;
  std::size_t begins = 0, ends = 0, impacts = 0, cast_hits = 0;
  for (int frame = 0; frame < frames; ++frame) {
    const auto start = std::chrono::steady_clock::now();
    // Everything moves on by the last frame's velocities, in one call.
    if (frame != 0) {
      for (std::size_t i = 0; i < bodies.size(); ++i) {
        Body& b = bodies[i];
        b.x += b.vx;
        b.y += b.vy;
        moved[i] = shape_of(b);
      }
      world.move(handles, moved);
    }
    // This frame's velocities (bouncing off the walls). A fast circle's move for the
    // frame, from where it is now, is its displacement: step() finds the pairs where the
    // shapes are and every shape the fast circles touch on the way to where they go next.
    for (Body& b : bodies) {
      if (b.x + b.vx < b.size || b.x + b.vx > side - b.size) b.vx = -b.vx;
      if (b.y + b.vy < b.size || b.y + b.vy > side - b.size) b.vy = -b.vy;
      if (b.fast) world.set_displacement(b.handle, {b.vx, b.vy});
    }
    world.step();
    // Line of sight: two segment casts (every shape along them) and two rays from the
    // walls inward (the first shape each meets).
    sights.clear();
    for (int k = 0; k < 2; ++k) {
      const hitgrid::Segment sight{{uniform(0, side), uniform(0, side)}, {uniform(0, side), uniform(0, side)}};
      world.cast(sight, ~std::uint64_t{0}, hits);
      cast_hits += hits.empty() ? 0 : 1;
      sights.push_back(sight);
      const hitgrid::Ray ray{{0, uniform(0, side)}, {1, uniform(-1, 1)}};
      const std::optional<hitgrid::CastHit> first = world.cast_nearest(ray, ~std::uint64_t{0});
      cast_hits += first ? 1 : 0;
      // Drawn up to its first hit (the far wall stops every ray).
      if (first)
        sights.push_back({ray.origin, {static_cast<float>(first->point.x), static_cast<float>(first->point.y)}});
    }
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    total_ms += ms;
    begins += world.begin_events().size();
    ends += world.end_events().size();
    impacts += world.impacts().size();
    std::printf("frame %4d  %7.3f ms  pairs %6zu  begin %5zu  end %5zu  swept contacts %4zu\n", frame, ms,
                world.pairs().size(), world.begin_events().size(), world.end_events().size(), world.impacts().size());
  }
  std::printf("%d frames, %zu shapes: %.3f ms per frame (move + step + events + 4 casts), %zu begin and %zu end "
              "events, %zu swept contacts of fast circles, %zu casts that hit\n",
              frames, world.size(), total_ms / frames, begins, ends, impacts, cast_hits);
  if (picture) {
    std::set<std::uint64_t> touching;
    for (const hitgrid::HandlePair& p : world.pairs()) {
      touching.insert(p.a.bits());
      touching.insert(p.b.bits());
    }
    hitgrid::SvgCanvas canvas(hitgrid::Box{{-2, -2}, {side + 2, side + 2}}, 1000);
    canvas.title("engine_loop: the last frame (red: in a pair)");
    for (const Body& b : bodies) {
      const auto style = hitgrid::SvgStyle::line(touching.count(b.handle.bits()) ? "#d62728" : "#1f77b4");
      const hitgrid::Shape shape = world.shape(b.handle);
      if (const auto* c = std::get_if<hitgrid::Circle>(&shape))
        canvas.circle(*c, style);
      else
        canvas.segment(std::get<hitgrid::Segment>(shape), style);
    }
    for (const hitgrid::Segment& wall : {hitgrid::Segment{{0, 0}, {side, 0}}, hitgrid::Segment{{side, 0}, {side, side}},
                                         hitgrid::Segment{{side, side}, {0, side}}, hitgrid::Segment{{0, side}, {0, 0}}})
      canvas.segment(wall, hitgrid::SvgStyle::line("#000000", 2));
    for (const hitgrid::Segment& sight : sights) canvas.segment(sight, hitgrid::SvgStyle::line("#2ca02c", 1.5).with_dashes());
    std::ofstream out(picture);
    canvas.write(out);
    if (!out) {
      std::fprintf(stderr, "engine_loop: cannot write %s\n", picture);
      return 1;
    }
  }
  return 0;
}
