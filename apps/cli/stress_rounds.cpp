#include "stress_rounds.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "hitgrid/core/splitmix64.hpp"
#include "stress_shrink.hpp"

namespace hitgrid::stress {
namespace {

/// Every round checks every shape of its windows against the whole scene: about this many
/// exact tests per window, so that a window costs about as much as finding the pairs.
constexpr double window_budget = 2e6;
constexpr std::size_t windows_per_round = 2;
/// Scenes up to this size are also checked against the reference on the whole scene.
constexpr std::size_t whole_reference_max = 1500;
/// The world's shapes: those of the first window, at most this many.
constexpr std::size_t world_max_shapes = 800;

std::uint64_t round_stream(std::uint64_t seed, std::uint64_t round) {
  SplitMix64 r(seed ^ (round * 0xD1B54A32D192ED03ull));
  return r.next();
}

/// A cell side for this scene: 0 (automatic) half the time, else a power of two from 2^-6
/// to 2^10 times the shapes' median size, far too small to far too large.
float draw_cell(SplitMix64& r, const Scene& scene) {
  if (r.next() % 2 == 0 || scene.empty()) return 0.0f;
  std::vector<double> sizes;
  for (ShapeId id : shapes_in_window(scene, scene.bounds())) {
    Aabb b;
    switch (id.kind()) {
      case ShapeKind::segment: b = bounds(scene.segment(id.index())); break;
      case ShapeKind::circle: b = bounds(scene.circle(id.index())); break;
      default: b = bounds(scene.box(id.index())); break;
    }
    const double size = std::max(static_cast<double>(b.max.x) - b.min.x, static_cast<double>(b.max.y) - b.min.y);
    if (size > 0.0) sizes.push_back(size);
    if (sizes.size() == 64) break;
  }
  if (sizes.empty()) return 0.0f;
  std::nth_element(sizes.begin(), sizes.begin() + static_cast<std::ptrdiff_t>(sizes.size() / 2), sizes.end());
  const double cell = std::ldexp(1.0, std::ilogb(sizes[sizes.size() / 2]) + static_cast<int>(r.next() % 17) - 6);
  return cell <= 3e38 ? static_cast<float>(cell) : 0.0f;
}

/// A window around a random shape holding about `target` shapes if they were spread evenly
/// over the scene's bounds.
Aabb draw_window(SplitMix64& r, const Scene& scene, double target) {
  const Aabb all = scene.bounds();
  const double fraction = std::min(1.0, std::sqrt(target / static_cast<double>(scene.size())));
  const double w = (static_cast<double>(all.max.x) - all.min.x) * fraction;
  const double h = (static_cast<double>(all.max.y) - all.min.y) * fraction;
  const double cx = all.min.x + r.u() * (static_cast<double>(all.max.x) - all.min.x);
  const double cy = all.min.y + r.u() * (static_cast<double>(all.max.y) - all.min.y);
  auto clamp_x = [&](double v) { return static_cast<float>(std::clamp(v, static_cast<double>(all.min.x), static_cast<double>(all.max.x))); };
  auto clamp_y = [&](double v) { return static_cast<float>(std::clamp(v, static_cast<double>(all.min.y), static_cast<double>(all.max.y))); };
  return {{clamp_x(cx - w / 2), clamp_y(cy - h / 2)}, {clamp_x(cx + w / 2), clamp_y(cy + h / 2)}};
}

std::vector<ShapeId> suspects_of(const Mismatch& m) {
  std::vector<ShapeId> ids;
  for (const auto* list : {&m.missing, &m.extra})
    for (Pair p : *list) {
      ids.push_back(p.first());
      ids.push_back(p.second());
    }
  return ids;
}

}  // namespace

RoundPlan plan_round(const StressOptions& options, std::uint64_t round) {
  SplitMix64 r(round_stream(options.seed, round));
  RoundPlan plan;
  plan.round = round;
  plan.layout = options.layouts[r.next() % options.layouts.size()];
  // Sizes log-uniform in [1, max]: most rounds small (checked against the whole
  // reference), some as large as allowed.
  const auto max_n = std::max<std::uint64_t>(1, layout_max_n(plan.layout, options.max_n));
  plan.n = std::min<std::uint64_t>(max_n, static_cast<std::uint64_t>(std::exp2(r.u() * std::log2(static_cast<double>(max_n) + 1))));
  plan.scene_seed = r.next();
  if (options.isa) {
    plan.tested.isa = *options.isa;
  } else {
    std::vector<Isa> isas = supported_isas();
    if (isas.size() > 1) isas.erase(isas.begin());  // scalar is the other side of a check
    plan.tested.isa = isas[r.next() % isas.size()];
  }
  const unsigned threads = std::max(1u, options.max_threads);
  plan.tested.threads = 1 + static_cast<unsigned>(r.next() % threads);
  plan.other_threads = threads == 1 ? 2 : 1 + static_cast<unsigned>(r.next() % (threads - 1));
  if (plan.other_threads >= plan.tested.threads && threads > 1) ++plan.other_threads;
  plan.window_seed = r.next();
  plan.run_world = options.world;
  plan.world.seed = r.next();
  plan.world.options.isa = plan.tested.isa;
  plan.world.options.threads = 1 + static_cast<unsigned>(r.next() % threads);
  return plan;
}

std::string world_line(const WorldChecks& c) {
  char line[256];
  std::snprintf(line, sizeof line, "# world: seed=%llu frames=%u queries=%u threads=%u isa=%s cell=%a large_cell=%a",
                static_cast<unsigned long long>(c.seed), c.frames, c.queries, c.options.threads,
                std::string(isa_name(c.options.isa)).c_str(), static_cast<double>(c.options.cell_size),
                static_cast<double>(c.options.large_cell_size));
  return line;
}

std::optional<WorldChecks> parse_world_line(const std::string& line) {
  WorldChecks c;
  unsigned long long seed = 0;
  char isa[16] = {};
  double cell = 0, large_cell = 0;
  if (std::sscanf(line.c_str(), "# world: seed=%llu frames=%u queries=%u threads=%u isa=%15s cell=%la large_cell=%la",
                  &seed, &c.frames, &c.queries, &c.options.threads, isa, &cell, &large_cell) != 7)
    return std::nullopt;
  const auto parsed = parse_isa(isa);
  if (!parsed) return std::nullopt;
  c.seed = seed;
  c.options.isa = *parsed;
  c.options.cell_size = static_cast<float>(cell);
  c.options.large_cell_size = static_cast<float>(large_cell);
  return c;
}

std::string describe(const RoundPlan& plan) {
  std::ostringstream s;
  s << "round " << plan.round << ": " << layout_name(plan.layout) << " n=" << plan.n << " seed=" << plan.scene_seed
    << ", " << describe(plan.tested) << ", other threads " << plan.other_threads;
  return s.str();
}

SceneChecks scene_checks(const RoundPlan& plan, const Scene& scene) {
  SplitMix64 r(plan.window_seed);
  SceneChecks c;
  c.tested = plan.tested;
  c.tested.cell_size = draw_cell(r, scene);
  c.tested.large_cell_size = r.next() % 4 == 0 ? draw_cell(r, scene) : 0.0f;
  c.scalar = c.tested;
  c.scalar.isa = Isa::scalar;
  c.other_threads = c.tested;
  c.other_threads.threads = plan.other_threads;
  if (!scene.empty()) {
    const double target = std::max(1.0, window_budget / static_cast<double>(scene.size()));
    for (std::size_t w = 0; w < windows_per_round; ++w) c.windows.push_back(draw_window(r, scene, target));
  }
  c.whole_reference = scene.size() <= whole_reference_max;
  return c;
}

RoundResult run_round(const RoundPlan& plan, const PairFinderFn& finder, const PairTestFn& test,
                      double shrink_seconds) {
  RoundResult result;
  const Scene scene = make_scene(plan.layout, plan.n, plan.scene_seed);
  result.shapes = scene.size();
  const SceneChecks checks = scene_checks(plan, scene);
  if (auto m = check_scene(scene, checks, finder, test, &result.counts)) {
    result.failure = describe(plan) + ": " + describe(*m);
    auto fails = [&](const Scene& s) {
      SceneChecks c = checks;
      c.whole_reference = s.size() <= whole_reference_max;
      return check_scene(s, c, finder, test).has_value();
    };
    ShrinkResult shrunk = shrink_scene(scene, fails, suspects_of(*m), shrink_seconds);
    result.reproducer = std::move(shrunk.scene);
    result.reproducer_minimal = shrunk.minimal;
    result.shrink_tests = shrunk.tests;
    return result;
  }
  if (!plan.run_world) return result;

  WorldChecks world = plan.world;
  world.options.cell_size = checks.tested.cell_size;
  world.options.large_cell_size = checks.tested.large_cell_size;
  std::vector<ShapeId> ids = checks.windows.empty() ? std::vector<ShapeId>{} : shapes_in_window(scene, checks.windows[0]);
  if (ids.size() > world_max_shapes) ids.resize(world_max_shapes);
  const Scene shapes = subscene(scene, ids);
  if (auto failure = check_world(shapes, world, test, &result.world)) {
    result.failure = describe(plan) + ", world on " + std::to_string(shapes.size()) + " shapes (" +
                     std::to_string(world.options.threads) + " threads): " + *failure;
    auto fails = [&](const Scene& s) { return check_world(s, world, test).has_value(); };
    ShrinkResult shrunk = shrink_scene(shapes, fails, {}, shrink_seconds);
    result.world_failure = world;
    result.reproducer = std::move(shrunk.scene);
    result.reproducer_minimal = shrunk.minimal;
    result.shrink_tests = shrunk.tests;
  }
  return result;
}

}  // namespace hitgrid::stress
