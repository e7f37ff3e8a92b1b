// The grid's build on its own: every small shape into its home cell and the shapes sorted
// by cell, row-major (HomeGrid: the parallel counting sort by row, then each row's sort
// by column), per docs/scenes.md family, N and thread count; the large shapes are only
// set aside (the tiled grid that pairs them builds as it searches). find_pairs runs the
// rows' sort fused with the search, block by block while the rows are in the cache, so
// the pipeline benchmarks (find_pairs_bench's bucket_ms counter, the command's
// find_pairs.bucket stage) show only the first half; here both halves are timed together
// as a grid a caller could query. Each reports shapes per second, the rows, the shapes
// left to the tiled grid, and as its label a hash of the grid's order (HomeGrid::
// order_hash), which must not depend on the thread count (tools/bench_report.py checks).
//
//   build/release/bench/grid_build_bench --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>
#include <fmt/format.h>
#include <tbb/task_arena.h>

#include <cstddef>
#include <cstdint>

#include "cell_size.hpp"
#include "hitgrid/core/generators.hpp"
#include "hitgrid/simd/isa.hpp"
#include "home_grid.hpp"
#include "scene_cache.hpp"

namespace {

using namespace hitgrid;

void run(benchmark::State& state, Family family) {
  const auto n = static_cast<std::uint64_t>(state.range(0));
  const auto threads = static_cast<int>(state.range(1));
  const Scene& scene = bench::scene_for(family, n);
  const KindRanges kinds = KindRanges::of(scene);
  const PairKeyCodec codec{bits_for(scene.size())};
  const Isa isa = resolve_isa(Isa::automatic);
  tbb::task_arena arena(threads);
  HomeGridStats stats;
  std::size_t large = 0;
  std::uint64_t order = 0;
  // As uniform_grid_pairs does: the extent and the cell size are part of the build.
  // (may_give_up false: the home grid is built whatever its large shapes would cost,
  // where find_pairs would switch such a scene to the tiled grid alone.)
  auto build = [&](auto&& use) {
    arena.execute([&] {
      const SceneExtent extent = scene_extent(scene);
      const int log2_cell = choose_home_log2_cell(scene, extent, 0.0f);
      stats = {};
      HomeGrid grid(scene, kinds, codec, log2_cell, extent, false, isa, stats);
      grid.sort_rows();
      use(grid);
    });
  };
  for (auto _ : state)
    build([&](const HomeGrid& grid) {
      large = grid.large_ids().size();
      benchmark::DoNotOptimize(&grid);
    });
  build([&](const HomeGrid& grid) { order = grid.order_hash(); });  // untimed: a byte-wise hash is slow
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
  state.counters["rows"] = static_cast<double>(stats.rows);
  state.counters["small"] = static_cast<double>(stats.small);
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
