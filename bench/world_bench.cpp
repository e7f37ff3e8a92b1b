// The engine world's benchmarks (README, the World and its Measured line), each next to its baseline in the
// same binary and run:
//   frame/N/T          N moving shapes (the mixed family: segments, circles, boxes at uniform
//                      density), each moving up to a tenth of its size per frame: move +
//                      step + events, T threads;
//   frame_churn/N/T/K  frame, with K shapes destroyed and created again (new handles) before
//                      each frame's moves (bullets, debris, particles coming and going);
//   box2d_frame/N      Box2D 2.4's b2BroadPhase on the same boxes and moves: MoveProxy for
//                      every shape, UpdatePairs (one thread; broad phase only, fat boxes);
//   frame_casts/N/T/C  frame, then C nearest-hit casts into the frame just stepped;
//   static_plus/S/D/T/M  S static segments (uniform) and D moving circles: move the circles
//                      + step, against circles_alone/D/T/M, the same circles with no
//                      statics; M = 0: each circle steps a tenth of its radius and back,
//                      M = 1: each drifts on, a tenth of its radius per frame, M = 2: each
//                      wanders, a random step of up to a tenth of its radius on each axis
//                      per frame (drawn outside the timing);
//   cast/L/T/W/B       casts into 1M static uniform segments: segments of length L (0: rays
//                      across the whole world), all hits or the nearest (W), one at a time
//                      or B per batch on T threads; items per second are casts per second.
//
//   build/release/bench/world_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <span>
#include <type_traits>
#include <vector>

#include "hitgrid/core/generators.hpp"
#include "hitgrid/core/splitmix64.hpp"
#include "hitgrid/world/world.hpp"
#include "scene_cache.hpp"
#if defined(HITGRID_HAVE_BOX2D)
#include "box2d_broadphase_frame.hpp"
#endif

namespace {

using namespace hitgrid;

/// The scene's shapes, and each frame's: every shape offset by up to a tenth of its size,
/// alternately forward and back (so the world stays put over many frames).
struct MovingShapes {
  std::vector<Shape> start;
  std::vector<Shape> frame[2];
  std::vector<Vec2> step[2];

  explicit MovingShapes(const Scene& scene) {
    SplitMix64 random(7);
    auto offset = [&](float size) {
      const float d = size / 10.0f;
      return Vec2{static_cast<float>((random.u() * 2 - 1) * d), static_cast<float>((random.u() * 2 - 1) * d)};
    };
    auto add = [&](const Shape& s, Vec2 o) {
      start.push_back(s);
      frame[0].push_back(translated(s, o));
      frame[1].push_back(s);
      step[0].push_back(o);
      step[1].push_back({-o.x, -o.y});
    };
    for (std::uint32_t i = 0; i < scene.segment_count(); ++i) {
      const Segment s = scene.segment(i);
      add(s, offset(std::hypot(s.b.x - s.a.x, s.b.y - s.a.y)));
    }
    for (std::uint32_t i = 0; i < scene.circle_count(); ++i) add(scene.circle(i), offset(2 * scene.circle(i).r));
    for (std::uint32_t i = 0; i < scene.box_count(); ++i) {
      const Box b = scene.box(i);
      add(b, offset(std::max(b.max.x - b.min.x, b.max.y - b.min.y)));
    }
  }
};

const MovingShapes& moving_for(std::uint64_t n) {
  static std::map<std::uint64_t, MovingShapes> cache;
  auto it = cache.find(n);
  if (it == cache.end()) it = cache.emplace(n, MovingShapes(bench::scene_for(Family::mixed, n))).first;
  return it->second;
}

std::vector<ShapeHandle> create_all(World& world, const std::vector<Shape>& shapes, BodyType body) {
  std::vector<ShapeDef> defs;
  defs.reserve(shapes.size());
  for (const Shape& s : shapes) defs.emplace_back(s, body);
  std::vector<ShapeHandle> handles(defs.size());
  world.create(defs, handles);
  return handles;
}

/// A world on `threads` threads holding the moving shapes at their start, stepped once.
World moving_world(const MovingShapes& m, std::int64_t threads, std::vector<ShapeHandle>& handles) {
  WorldOptions o;
  o.threads = static_cast<unsigned>(threads);
  World world(o);
  handles = create_all(world, m.start, BodyType::dynamic_body);
  world.step();
  return world;
}

void frame(benchmark::State& state) {
  const auto n = static_cast<std::uint64_t>(state.range(0));
  const MovingShapes& m = moving_for(n);
  std::vector<ShapeHandle> handles;
  World world = moving_world(m, state.range(1), handles);
  std::size_t f = 0, events = 0;
  for (auto _ : state) {
    world.move(handles, m.frame[f++ & 1]);
    world.step();
    events += world.begin_events().size() + world.end_events().size();
  }
  state.counters["pairs"] = static_cast<double>(world.pairs().size());
  state.counters["events_per_frame"] = static_cast<double>(events) / static_cast<double>(state.iterations());
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}
BENCHMARK(frame)->Args({100'000, 1})->Args({100'000, 2})->Unit(benchmark::kMillisecond)->UseRealTime();

/// frame, with K of the shapes destroyed and made again (new handles) before each frame's
/// moves: an engine's bullets, debris and particles coming and going.
void frame_churn(benchmark::State& state) {
  const auto n = static_cast<std::uint64_t>(state.range(0));
  const auto churn = static_cast<std::size_t>(state.range(2));
  const MovingShapes& m = moving_for(n);
  std::vector<ShapeHandle> handles;
  World world = moving_world(m, state.range(1), handles);
  std::size_t f = 0, events = 0, next = 0;
  std::vector<ShapeDef> defs(churn);
  for (auto _ : state) {
    const std::vector<Shape>& to = m.frame[f++ & 1];
    const std::size_t first = next;
    next = (next + churn) % (handles.size() - churn);
    world.destroy(std::span<const ShapeHandle>(handles).subspan(first, churn));
    for (std::size_t i = 0; i < churn; ++i) defs[i] = ShapeDef(to[first + i]);
    world.create(defs, std::span<ShapeHandle>(handles).subspan(first, churn));
    world.move(handles, to);
    world.step();
    events += world.begin_events().size() + world.end_events().size();
  }
  state.counters["pairs"] = static_cast<double>(world.pairs().size());
  state.counters["events_per_frame"] = static_cast<double>(events) / static_cast<double>(state.iterations());
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}
BENCHMARK(frame_churn)->Args({100'000, 1, 10})->Args({100'000, 2, 10})->Unit(benchmark::kMillisecond)->UseRealTime();

/// frame, then a few nearest-hit casts into the frame just stepped (an engine's line of
/// sight checks): the casts read the grid the step built.
void frame_casts(benchmark::State& state) {
  const auto n = static_cast<std::uint64_t>(state.range(0));
  const MovingShapes& m = moving_for(n);
  std::vector<ShapeHandle> handles;
  World world = moving_world(m, state.range(1), handles);
  const Aabb extent = bench::scene_for(Family::mixed, n).bounds();
  SplitMix64 random(5);
  std::vector<Segment> casts;
  const float reach = (extent.max.x - extent.min.x) / 10;
  for (int i = 0; i < 64; ++i) {
    const Vec2 a{extent.min.x + static_cast<float>(random.u()) * (extent.max.x - extent.min.x),
                 extent.min.y + static_cast<float>(random.u()) * (extent.max.y - extent.min.y)};
    casts.push_back({a, {a.x + reach, a.y + reach / 3}});
  }
  std::size_t f = 0, hits = 0;
  for (auto _ : state) {
    world.move(handles, m.frame[f & 1]);
    world.step();
    for (int i = 0; i < state.range(2); ++i)
      hits += world.cast_nearest(casts[(f * 4 + i) % casts.size()], ~std::uint64_t{0}) ? 1 : 0;
    ++f;
  }
  state.counters["hits_per_frame"] = static_cast<double>(hits) / static_cast<double>(state.iterations());
}
BENCHMARK(frame_casts)->Args({100'000, 1, 4})->Args({100'000, 2, 4})->Unit(benchmark::kMillisecond)->UseRealTime();

#if defined(HITGRID_HAVE_BOX2D)
void box2d_frame(benchmark::State& state) {
  const auto n = static_cast<std::uint64_t>(state.range(0));
  const MovingShapes& m = moving_for(n);
  auto boxes_of = [](const std::vector<Shape>& shapes) {
    std::vector<Aabb> out;
    for (const Shape& s : shapes) out.push_back(std::visit([](const auto& g) { return bounds(g); }, s));
    return out;
  };
  const std::vector<Aabb> boxes[2] = {boxes_of(m.frame[0]), boxes_of(m.frame[1])};
  peers::Box2DBroadPhaseFrame box2d(boxes_of(m.start));
  std::size_t f = 0, pairs = 0;
  for (auto _ : state) {
    const std::size_t k = f++ & 1;
    pairs = box2d.frame(boxes[k], m.step[k]);
  }
  state.counters["candidate_pairs"] = static_cast<double>(pairs);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}
BENCHMARK(box2d_frame)->Arg(100'000)->Unit(benchmark::kMillisecond)->UseRealTime();
#endif

/// D moving circles (from the mixed family's circles, or made on the uniform world) over
/// S static uniform segments.
enum class Motion { step, drift, wander };
void circles_over_statics(benchmark::State& state, std::uint64_t statics, std::uint64_t circles, Motion motion) {
  WorldOptions o;
  o.threads = static_cast<unsigned>(state.range(2));
  World world(o);
  if (statics != 0) {
    const Scene& walls = bench::scene_for(Family::uniform, statics);
    std::vector<Shape> shapes;
    for (std::uint32_t i = 0; i < walls.segment_count(); ++i) shapes.push_back(walls.segment(i));
    create_all(world, shapes, BodyType::static_body);
  }
  // The circles spread over the same world (the uniform family's extent for 1M shapes).
  const Aabb extent = bench::scene_for(Family::uniform, statics != 0 ? statics : 1'000'000).bounds();
  SplitMix64 random(11);
  std::vector<Shape> start, moved[2];
  for (std::uint64_t i = 0; i < circles; ++i) {
    const float x = extent.min.x + static_cast<float>(random.u()) * (extent.max.x - extent.min.x);
    const float y = extent.min.y + static_cast<float>(random.u()) * (extent.max.y - extent.min.y);
    start.push_back(Circle{{x, y}, 0.5f});
    moved[0].push_back(Circle{{x + 0.05f, y}, 0.5f});
    moved[1].push_back(Circle{{x, y}, 0.5f});
  }
  const std::vector<ShapeHandle> handles = create_all(world, start, BodyType::dynamic_body);
  world.step();  // builds the static grid once
  std::size_t f = 0, events = 0;
  std::vector<Shape> drifted(start.size()), wandered(start);
  for (auto _ : state) {
    if (motion == Motion::wander) {
      state.PauseTiming();
      for (Shape& s : wandered) {
        Circle& c = std::get<Circle>(s);
        c.c.x += 0.05f * (2.0f * static_cast<float>(random.u()) - 1.0f);
        c.c.y += 0.05f * (2.0f * static_cast<float>(random.u()) - 1.0f);
      }
      state.ResumeTiming();
      world.move(handles, wandered);
    } else if (motion == Motion::drift) {
      // Steadily right, a twentieth of the size per frame, back to the start every 200
      // frames (one frame in 200 moves every circle far).
      const float dx = 0.05f * static_cast<float>(f++ % 200);
      for (std::size_t i = 0; i < start.size(); ++i) {
        const Circle& c = std::get<Circle>(start[i]);
        drifted[i] = Circle{{c.c.x + dx, c.c.y}, c.r};
      }
      world.move(handles, drifted);
    } else {
      world.move(handles, moved[f++ & 1]);
    }
    world.step();
    events += world.begin_events().size() + world.end_events().size();
  }
  state.counters["pairs"] = static_cast<double>(world.pairs().size());
  // How many pairs change from frame to frame, next to how many there are.
  state.counters["events_per_frame"] = static_cast<double>(events) / static_cast<double>(state.iterations());
}
void static_plus(benchmark::State& state) {
  circles_over_statics(state, static_cast<std::uint64_t>(state.range(0)), static_cast<std::uint64_t>(state.range(1)),
                       static_cast<Motion>(state.range(3)));
}
void circles_alone(benchmark::State& state) {
  circles_over_statics(state, 0, static_cast<std::uint64_t>(state.range(1)), static_cast<Motion>(state.range(3)));
}
BENCHMARK(static_plus)
    ->Args({1'000'000, 10'000, 1, 0})
    ->Args({1'000'000, 10'000, 2, 0})
    ->Args({1'000'000, 10'000, 1, 1})
    ->Args({1'000'000, 10'000, 2, 1})
    ->Args({1'000'000, 10'000, 1, 2})
    ->Args({1'000'000, 10'000, 2, 2})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(circles_alone)
    ->Args({0, 10'000, 1, 0})
    ->Args({0, 10'000, 2, 0})
    ->Args({0, 10'000, 1, 1})
    ->Args({0, 10'000, 2, 1})
    ->Args({0, 10'000, 1, 2})
    ->Args({0, 10'000, 2, 2})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

/// The world of the cast benchmarks: 1M static uniform segments, built once. One world per
/// thread count.
World& cast_world(unsigned threads, Aabb& extent) {
  static std::map<unsigned, World> worlds;
  static Aabb walls_extent;
  auto it = worlds.find(threads);
  if (it == worlds.end()) {
    WorldOptions o;
    o.threads = threads;
    it = worlds.emplace(threads, World(o)).first;
    const Scene& walls = bench::scene_for(Family::uniform, 1'000'000);
    std::vector<Shape> shapes;
    for (std::uint32_t i = 0; i < walls.segment_count(); ++i) shapes.push_back(walls.segment(i));
    create_all(it->second, shapes, BodyType::static_body);
    it->second.step();
    walls_extent = walls.bounds();
  }
  extent = walls_extent;
  return it->second;
}

/// cast/L/T/W/B: casts of length L from a random point in a random direction (0: rays
/// across the whole world, from just left of it towards a random point on its right
/// side), W = 0 all hits, 1 the nearest only, B casts per call (1: one at a time; more:
/// the batched call, in parallel on T threads). Items: casts.
void cast(benchmark::State& state) {
  const float length = static_cast<float>(state.range(0));
  const auto which = state.range(2) == 0 ? CastHits::all : CastHits::nearest;
  const auto batch = static_cast<std::size_t>(state.range(3));
  Aabb extent;
  World& world = cast_world(static_cast<unsigned>(state.range(1)), extent);
  SplitMix64 random(13);
  std::vector<Segment> segments(batch);
  std::vector<Ray> rays(batch);
  auto draw = [&] {
    const float w = extent.max.x - extent.min.x, h = extent.max.y - extent.min.y;
    for (std::size_t i = 0; i < batch; ++i) {
      const float x = extent.min.x + static_cast<float>(random.u()) * w;
      const float y = extent.min.y + static_cast<float>(random.u()) * h;
      const auto angle = static_cast<float>(random.u() * 6.283185307179586);
      segments[i] = {{x, y}, {x + length * std::cos(angle), y + length * std::sin(angle)}};
      // From a point just left of the world towards a point on its right side.
      const float y_from = extent.min.y + static_cast<float>(random.u()) * h;
      const float y_to = extent.min.y + static_cast<float>(random.u()) * h;
      rays[i] = {{extent.min.x - 1, y_from}, {w + 1, y_to - y_from}};
    }
  };
  std::vector<CastHit> hits;
  std::vector<std::size_t> starts;
  std::size_t hit = 0;
  for (auto _ : state) {
    state.PauseTiming();
    draw();
    state.ResumeTiming();
    if (batch == 1) {
      if (which == CastHits::nearest)
        hit += length > 0 ? world.cast_nearest(segments[0], ~std::uint64_t{0}).has_value()
                          : world.cast_nearest(rays[0], ~std::uint64_t{0}).has_value();
      else if (length > 0)
        world.cast(segments[0], ~std::uint64_t{0}, hits), hit += !hits.empty();
      else
        world.cast(rays[0], ~std::uint64_t{0}, hits), hit += !hits.empty();
    } else {
      if (length > 0)
        world.cast(std::span<const Segment>(segments), ~std::uint64_t{0}, which, hits, starts);
      else
        world.cast(std::span<const Ray>(rays), ~std::uint64_t{0}, which, hits, starts);
      for (std::size_t i = 0; i < batch; ++i) hit += starts[i + 1] > starts[i];
    }
  }
  state.counters["hit_fraction"] =
      static_cast<double>(hit) / static_cast<double>(state.iterations() * static_cast<std::int64_t>(batch));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(batch));
}
// One at a time (one thread does the casting), then batches on 1 and 2 threads: 4096
// casts, or 256 rays across the world when each lists all its hits (about a thousand).
BENCHMARK(cast)
    ->ArgNames({"length", "threads", "nearest", "batch"})
    ->Args({10, 1, 0, 1})
    ->Args({10, 1, 1, 1})
    ->Args({0, 1, 0, 1})
    ->Args({0, 1, 1, 1})
    ->Args({10, 1, 0, 4096})
    ->Args({10, 2, 0, 4096})
    ->Args({10, 1, 1, 4096})
    ->Args({10, 2, 1, 4096})
    ->Args({0, 1, 0, 256})
    ->Args({0, 2, 0, 256})
    ->Args({0, 1, 1, 4096})
    ->Args({0, 2, 1, 4096})
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

}  // namespace
