// Cost of the exact predicates: the filtered fast path on random inputs, and the exact
// cold path (hitgrid::exact::*, which always takes it) on random and on lattice inputs,
// where the filtered path falls through to it for every degenerate case.
//
//   build/release/bench/predicates_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "hitgrid/core/detail/exact_predicates.hpp"
#include "hitgrid/core/detail/predicate_counters.hpp"
#include "hitgrid/core/predicates.hpp"

namespace {

using hitgrid::Vec2;

struct Points {
  std::vector<Vec2> p;
  std::vector<float> r;
};

// Random coordinates in [0, 1000) (like a uniform scene), or small lattice integers where
// about a third of the triples are exactly collinear.
Points make_points(bool lattice) {
  constexpr std::size_t n = 1 << 12;
  std::uint64_t state = 12345;
  auto next = [&] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(state >> 11) * 0x1p-53;
  };
  Points pts;
  for (std::size_t i = 0; i < n + 3; ++i) {
    if (lattice)
      pts.p.push_back({static_cast<float>(static_cast<int>(next() * 4)), static_cast<float>(static_cast<int>(next() * 4))});
    else
      pts.p.push_back({static_cast<float>(next() * 1000), static_cast<float>(next() * 1000)});
    pts.r.push_back(lattice ? static_cast<float>(static_cast<int>(next() * 3)) : static_cast<float>(next() * 2));
  }
  return pts;
}

template <class F>
void run(benchmark::State& state, bool lattice, F predicate) {
  const Points pts = make_points(lattice);
  const std::size_t n = pts.p.size() - 3;
  std::size_t i = 0;
  int acc = 0;
  const std::uint64_t before = hitgrid::predicate_counters().exact_calls;
  for (auto _ : state) {
    acc += predicate(pts.p[i], pts.p[i + 1], pts.p[i + 2], pts.r[i]);
    i = (i + 1) & (n - 1);
  }
  benchmark::DoNotOptimize(acc);
  state.SetItemsProcessed(state.iterations());
  const auto exact = hitgrid::predicate_counters().exact_calls - before;
  state.counters["cold_fraction"] = static_cast<double>(exact) / static_cast<double>(state.iterations());
}

auto orient = [](Vec2 a, Vec2 b, Vec2 c, float) { return hitgrid::orient2d(a, b, c); };
auto orient_exact = [](Vec2 a, Vec2 b, Vec2 c, float) { return hitgrid::exact::orient2d(a, b, c); };
auto distance = [](Vec2 a, Vec2 b, Vec2, float r) { return hitgrid::compare_distance(a, b, r); };
auto distance_exact = [](Vec2 a, Vec2 b, Vec2, float r) { return hitgrid::exact::compare_distance(a, b, r); };
auto line = [](Vec2 a, Vec2 b, Vec2 c, float r) { return hitgrid::compare_line_distance(a, b, c, r); };
auto line_exact = [](Vec2 a, Vec2 b, Vec2 c, float r) { return hitgrid::exact::compare_line_distance(a, b, c, r); };

void BM_orient2d_random(benchmark::State& s) { run(s, false, orient); }
void BM_orient2d_lattice(benchmark::State& s) { run(s, true, orient); }
void BM_orient2d_exact_random(benchmark::State& s) { run(s, false, orient_exact); }
void BM_orient2d_exact_lattice(benchmark::State& s) { run(s, true, orient_exact); }
void BM_compare_distance_random(benchmark::State& s) { run(s, false, distance); }
void BM_compare_distance_lattice(benchmark::State& s) { run(s, true, distance); }
void BM_compare_distance_exact_random(benchmark::State& s) { run(s, false, distance_exact); }
void BM_compare_line_distance_random(benchmark::State& s) { run(s, false, line); }
void BM_compare_line_distance_lattice(benchmark::State& s) { run(s, true, line); }
void BM_compare_line_distance_exact_random(benchmark::State& s) { run(s, false, line_exact); }

}  // namespace

BENCHMARK(BM_orient2d_random);
BENCHMARK(BM_orient2d_lattice);
BENCHMARK(BM_orient2d_exact_random);
BENCHMARK(BM_orient2d_exact_lattice);
BENCHMARK(BM_compare_distance_random);
BENCHMARK(BM_compare_distance_lattice);
BENCHMARK(BM_compare_distance_exact_random);
BENCHMARK(BM_compare_line_distance_random);
BENCHMARK(BM_compare_line_distance_lattice);
BENCHMARK(BM_compare_line_distance_exact_random);
