// The rope (rope/rope.hpp): time per move of the end, for 10,000 and 1,000,000 pegs at
// the same density (one per 100 square units), the end walking 100,000 random steps of
// up to 5 units inside the same 1000 x 1000 square. Candidate pegs come from the grid, so
// the time per move should not grow with the number of pegs: the 1M / 10k ratio is the
// figure to read. Each run prints the final number of nodes and a hash of them (the same
// walk over the same pegs must give the same rope). BM_rope_move_peg: peg moves on the
// rope that walk leaves (about 3,500 nodes). BM_rope_move_end_circles: the same density
// and walk among pegs half of which are circles (radius 0.5 to 2), the walk stepping
// around them (a path into a circle is refused); BM_rope_move_circle_peg: moves of circle
// pegs on the rope that walk leaves.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "hitgrid/core/error.hpp"
#include "hitgrid/core/splitmix64.hpp"
#include "hitgrid/rope/rope.hpp"

namespace {

constexpr int moves = 100'000;

struct Setup {
  std::vector<hitgrid::Vec2> pegs;
  std::vector<hitgrid::Vec2> path;
  hitgrid::Vec2 start;
};

// Pegs uniform in a square of side sqrt(100 n); the walk in the middle 1000 x 1000.
Setup make_setup(std::int64_t n) {
  Setup s;
  hitgrid::SplitMix64 rng(1);
  const double side = std::sqrt(100.0 * static_cast<double>(n));
  s.pegs.reserve(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i)
    s.pegs.push_back({static_cast<float>(rng.u() * side), static_cast<float>(rng.u() * side)});
  const double lo = side / 2 - 500, hi = side / 2 + 500;
  double x = side / 2, y = side / 2;
  s.start = {static_cast<float>(x), static_cast<float>(y)};
  for (int i = 0; i < moves; ++i) {
    x = std::clamp(x + (rng.u() * 2 - 1) * 5, lo, hi);
    y = std::clamp(y + (rng.u() * 2 - 1) * 5, lo, hi);
    s.path.push_back({static_cast<float>(x), static_cast<float>(y)});
  }
  return s;
}

// Every iteration walks a copy of `initial` along `path`; reports the time per move, the
// final number of nodes and a hash of them. Returns the walked rope.
hitgrid::Rope walk(benchmark::State& state, const hitgrid::Rope& initial, const std::vector<hitgrid::Vec2>& path) {
  hitgrid::Rope rope = initial;
  for (auto _ : state) {
    state.PauseTiming();
    rope = initial;
    state.ResumeTiming();
    for (hitgrid::Vec2 p : path) rope.move_end(p);
    benchmark::DoNotOptimize(rope.nodes().data());
  }
  std::uint64_t hash = 1469598103934665603ull;
  for (const hitgrid::RopeNode& n : rope.nodes())
    hash = (hash ^ (n.peg + 7ull * static_cast<std::uint64_t>(n.side + 1) + 31ull * n.half_turns)) * 1099511628211ull;
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(path.size()));
  state.counters["ns_per_move"] = benchmark::Counter(
      static_cast<double>(path.size()), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["nodes"] = static_cast<double>(rope.nodes().size() - 1);
  state.counters["node_hash_lo32"] = static_cast<double>(hash & 0xffffffffu);
  return rope;
}

void BM_rope_move_end(benchmark::State& state) {
  const Setup s = make_setup(state.range(0));
  walk(state, hitgrid::Rope(s.start, s.pegs), s.path);
}

// Peg moves (Rope::move_peg) on a walked rope: each moves a peg by up to one unit,
// alternately a peg the rope wraps (the rope split there follows it) and a random peg
// within 20 units of the end (most are clear of the rope; some cross it and catch it).
// `circles`: circle pegs only.
void time_peg_moves(benchmark::State& state, const hitgrid::Rope& walked, bool circles) {
  constexpr int peg_moves = 10'000;
  const auto eligible = [&](const hitgrid::Rope& rope, std::uint32_t peg) {
    return !circles || rope.peg_radius(peg) > 0.0f;
  };
  std::size_t refused = 0, nodes = 0;
  std::vector<std::uint32_t> wrapped;
  for (auto _ : state) {
    state.PauseTiming();
    hitgrid::Rope rope = walked;
    hitgrid::SplitMix64 rng(3);
    refused = 0;
    state.ResumeTiming();
    for (int i = 0; i < peg_moves; ++i) {
      // (Among all pegs, a random node; among circles, a random circle node: a scan.)
      wrapped.clear();
      if (i % 2 == 0 && circles)
        for (std::size_t k = 1; k < rope.nodes().size(); ++k)
          if (eligible(rope, rope.nodes()[k].peg)) wrapped.push_back(rope.nodes()[k].peg);
      std::uint32_t peg;
      if (i % 2 == 0 && !circles && rope.nodes().size() > 1) {
        peg = rope.nodes()[1 + static_cast<std::size_t>(rng.u() * static_cast<double>(rope.nodes().size() - 1))].peg;
      } else if (!wrapped.empty()) {
        peg = wrapped[static_cast<std::size_t>(rng.u() * static_cast<double>(wrapped.size()))];
      } else {
        // The nearest of a few random pegs to the end.
        peg = static_cast<std::uint32_t>(rng.u() * static_cast<double>(rope.peg_count()));
        for (int k = 0; k < 64; ++k) {
          const auto q = static_cast<std::uint32_t>(rng.u() * static_cast<double>(rope.peg_count()));
          if (eligible(rope, q) && std::hypot(rope.peg(q).x - rope.end().x, rope.peg(q).y - rope.end().y) < 20) {
            peg = q;
            break;
          }
        }
      }
      const hitgrid::Vec2 p = rope.peg(peg);
      const hitgrid::Vec2 to{static_cast<float>(p.x + (rng.u() * 2 - 1)), static_cast<float>(p.y + (rng.u() * 2 - 1))};
      try {
        rope.move_peg(peg, to);
      } catch (const hitgrid::Error&) {
        ++refused;
      }
    }
    benchmark::DoNotOptimize(rope.nodes().data());
    nodes = rope.nodes().size() - 1;
  }
  state.counters["ns_per_move"] = benchmark::Counter(
      static_cast<double>(peg_moves), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["refused"] = static_cast<double>(refused);
  state.counters["nodes"] = static_cast<double>(nodes);
}

void BM_rope_move_peg(benchmark::State& state) {
  const Setup s = make_setup(state.range(0));
  hitgrid::Rope walked(s.start, s.pegs);
  for (hitgrid::Vec2 p : s.path) walked.move_end(p);
  time_peg_moves(state, walked, false);
}

// One peg per 10 x 10 cell of a square of side sqrt(100 n), jittered by up to 2.5 from the
// cell's centre, every other one a circle of radius 0.5 to 2: apart by construction. The
// walk as in make_setup, a step drawn again while it comes within 0.01 of a circle.
struct CircleSetup {
  std::vector<hitgrid::Vec2> pegs;
  std::vector<float> radii;
  std::vector<hitgrid::Vec2> path;
  hitgrid::Vec2 start;
};

CircleSetup make_circle_setup(std::int64_t n) {
  CircleSetup s;
  hitgrid::SplitMix64 rng(1);
  const auto cells = static_cast<std::int64_t>(std::sqrt(static_cast<double>(n)));
  for (std::int64_t i = 0; i < cells; ++i)
    for (std::int64_t j = 0; j < cells; ++j) {
      s.pegs.push_back({static_cast<float>(10.0 * static_cast<double>(i) + 5 + (rng.u() * 2 - 1) * 2.5),
                        static_cast<float>(10.0 * static_cast<double>(j) + 5 + (rng.u() * 2 - 1) * 2.5)});
      s.radii.push_back((i + j) % 2 == 0 ? static_cast<float>(0.5 + rng.u() * 1.5) : 0.0f);
    }
  const double side = 10.0 * static_cast<double>(cells);
  const auto near_circle = [&](double ax, double ay, double bx, double by) {
    const auto lo_i = static_cast<std::int64_t>(std::max(0.0, std::min(ax, bx) / 10 - 1));
    const auto hi_i = static_cast<std::int64_t>(std::min(static_cast<double>(cells - 1), std::max(ax, bx) / 10 + 1));
    const auto lo_j = static_cast<std::int64_t>(std::max(0.0, std::min(ay, by) / 10 - 1));
    const auto hi_j = static_cast<std::int64_t>(std::min(static_cast<double>(cells - 1), std::max(ay, by) / 10 + 1));
    for (std::int64_t i = lo_i; i <= hi_i; ++i)
      for (std::int64_t j = lo_j; j <= hi_j; ++j) {
        const auto k = static_cast<std::size_t>(i * cells + j);
        if (s.radii[k] == 0.0f) continue;
        const double cx = s.pegs[k].x, cy = s.pegs[k].y, dx = bx - ax, dy = by - ay;
        const double len2 = dx * dx + dy * dy;
        const double t = len2 > 0 ? std::clamp(((cx - ax) * dx + (cy - ay) * dy) / len2, 0.0, 1.0) : 0.0;
        if (std::hypot(ax + t * dx - cx, ay + t * dy - cy) < s.radii[k] + 0.01) return true;
      }
    return false;
  };
  const double lo = side / 2 - 500, hi = side / 2 + 500;
  double x = side / 2, y = side / 2;
  while (near_circle(x, y, x, y)) x += 1;
  s.start = {static_cast<float>(x), static_cast<float>(y)};
  while (s.path.size() < static_cast<std::size_t>(moves)) {
    const double nx = std::clamp(x + (rng.u() * 2 - 1) * 5, lo, hi);
    const double ny = std::clamp(y + (rng.u() * 2 - 1) * 5, lo, hi);
    const hitgrid::Vec2 to{static_cast<float>(nx), static_cast<float>(ny)};
    if (near_circle(x, y, to.x, to.y)) continue;
    x = to.x;
    y = to.y;
    s.path.push_back(to);
  }
  return s;
}

void BM_rope_move_end_circles(benchmark::State& state) {
  const CircleSetup s = make_circle_setup(state.range(0));
  const hitgrid::Rope rope = walk(state, hitgrid::Rope(s.start, s.pegs, s.radii), s.path);
  std::size_t circle_nodes = 0;
  for (std::size_t i = 1; i < rope.nodes().size(); ++i) circle_nodes += s.radii[rope.nodes()[i].peg] > 0.0f;
  state.counters["circle_nodes"] = static_cast<double>(circle_nodes);
}

// Moves of circle pegs on the rope the walk among circles leaves, as BM_rope_move_peg.
void BM_rope_move_circle_peg(benchmark::State& state) {
  const CircleSetup s = make_circle_setup(state.range(0));
  hitgrid::Rope walked(s.start, s.pegs, s.radii);
  for (hitgrid::Vec2 p : s.path) walked.move_end(p);
  time_peg_moves(state, walked, true);
}

}  // namespace

BENCHMARK(BM_rope_move_circle_peg)->Arg(10'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_rope_move_end_circles)->Arg(10'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_rope_move_peg)->Arg(10'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_rope_move_end)->Arg(10'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond)->UseRealTime();
