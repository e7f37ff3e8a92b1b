// The grid's build step on its own (grid.hpp: plan, the home-cell grid with its rows
// sorted, the large shapes' spans, the tiled grid), per standard family (docs/scenes.md),
// N and thread count, with scratch kept between builds as a PairFinder keeps it. Each
// reports shapes per second, the rows, the small shapes, the shapes left to the tiled
// grid, and as its label a hash of the home-cell grid's order (HomeGrid::order_hash),
// which must not depend on the thread count (tools/bench_report.py checks).
//
//   build/release/bench/grid_build_bench --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>
#include <fmt/format.h>
#include <tbb/task_arena.h>

#include <cstddef>
#include <cstdint>
#include <memory>

#include "block_cache.hpp"
#include "grid.hpp"
#include "hitgrid/core/generators.hpp"
#include "hitgrid/simd/isa.hpp"
#include "scene_cache.hpp"

namespace {

using namespace hitgrid;

void run(benchmark::State& state, Family family) {
  const auto n = static_cast<std::uint64_t>(state.range(0));
  const auto threads = static_cast<int>(state.range(1));
  const Scene& scene = bench::scene_for(family, n);
  const Isa isa = resolve_isa(Isa::automatic);
  tbb::task_arena arena(threads);
  // Scratch kept between builds, as a PairFinder keeps it (block_cache.hpp).
  const auto cache = std::make_shared<BlockCache>();
  const BlockCacheObserver observer(arena, cache);
  std::size_t large = 0, rows = 0, small = 0;
  std::uint64_t order = 0;
  // The build step of find_pairs' grid (grid.hpp): plan, home-cell grid, the large shapes'
  // spans, tiled grid.
  auto build = [&](auto&& use) {
    arena.execute([&] {
      const BlockCache::Scope scope(cache);
      StageClock clock(nullptr);
      const Grid grid = build_grid(scene, FindPairsOptions{}, isa, clock);
      use(grid);
    });
  };
  for (auto _ : state)
    build([&](const Grid& grid) {
      large = grid.tiled_only ? scene.size() : grid.home.large_ids().size();
      benchmark::DoNotOptimize(&grid);
    });
  build([&](const Grid& grid) {  // untimed: a byte-wise hash is slow
    order = grid.home.order_hash();
    rows = grid.home.rows().size();
    small = grid.home.small_count();
  });
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
  state.counters["rows"] = static_cast<double>(rows);
  state.counters["small"] = static_cast<double>(small);
  state.counters["large"] = static_cast<double>(large);
  state.SetLabel(fmt::format("order={:016x}", order));
}

void args(benchmark::internal::Benchmark* b) {
  for (std::int64_t n : {10'000, 100'000, 1'000'000})
    for (std::int64_t threads : {1, 2}) b->Args({n, threads});
  b->ArgNames({"n", "threads"})->Unit(benchmark::kMillisecond)->UseRealTime();
}

}  // namespace

#define HITGRID_GRID_BUILD_BENCH(family)                                       \
  void BM_grid_build_##family(benchmark::State& s) { run(s, Family::family); } \
  BENCHMARK(BM_grid_build_##family)->Apply(args);

HITGRID_GRID_BUILD_BENCH(uniform)
HITGRID_GRID_BUILD_BENCH(clustered)
HITGRID_GRID_BUILD_BENCH(long_tail)
HITGRID_GRID_BUILD_BENCH(mixed)
HITGRID_GRID_BUILD_BENCH(lattice)
