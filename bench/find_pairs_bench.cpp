// Whole-pipeline benchmarks: find_pairs on the standard scenes, per method and thread
// count. Every benchmark reports the pair count and the pair-list hash as its label, so a
// faster run that gives a different answer is visible at once, and each stage's mean
// milliseconds as counters (the grid's build is "bucket_ms": shapes into their cells).
//
//   build/release/bench/find_pairs_bench --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true --benchmark_filter=grid   (one line)
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>
#include <tuple>

#include "hitgrid/broadphase/find_pairs.hpp"
#include "hitgrid/core/generators.hpp"
#include "hitgrid/core/pair_io.hpp"
#include "scene_cache.hpp"

namespace {

using namespace hitgrid;

using bench::scene_for;

void run(benchmark::State& state, Family family, BroadPhase method) {
  const auto n = static_cast<std::uint64_t>(state.range(0));
  const Scene& scene = scene_for(family, n);
  FindPairsOptions options;
  options.method = method;
  options.threads = static_cast<unsigned>(state.range(1));
  PairList pairs;
  FindPairsReport report;
  std::map<std::string, double> stage_ms;
  PairFinder finder(options);  // as a program calling it every frame: scratch kept
  for (auto _ : state) {
    finder.find_pairs(scene, pairs, &report);
    benchmark::DoNotOptimize(pairs.data());
    for (const StageTime& s : report.stages) stage_ms[s.name] += s.ms;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
  for (const auto& [name, ms] : stage_ms)
    state.counters[name + "_ms"] = ms / static_cast<double>(std::max<benchmark::IterationCount>(state.iterations(), 1));
  state.counters["pairs"] = static_cast<double>(pairs.size());
  state.counters["cell"] = report.cell_size;
  state.SetLabel(fmt::format("pairs={} hash={:016x}", pairs.size(), pair_list_hash(pairs)));
}

void grid_args(benchmark::internal::Benchmark* b) {
  for (std::int64_t n : {10'000, 100'000, 1'000'000})
    for (std::int64_t threads : {1, 2}) b->Args({n, threads});
  b->Unit(benchmark::kMillisecond)->UseRealTime();
}

void sweep_args(benchmark::internal::Benchmark* b) {
  for (std::int64_t threads : {1, 2}) b->Args({100'000, threads});
  b->Unit(benchmark::kMillisecond)->UseRealTime();
}

}  // namespace

#define HITGRID_FAMILY_BENCH(family)                                                                   \
  void BM_grid_##family(benchmark::State& s) { run(s, Family::family, BroadPhase::grid); }             \
  BENCHMARK(BM_grid_##family)->Apply(grid_args);                                                       \
  void BM_sweep_##family(benchmark::State& s) { run(s, Family::family, BroadPhase::sweep_and_prune); } \
  BENCHMARK(BM_sweep_##family)->Apply(sweep_args);

HITGRID_FAMILY_BENCH(uniform)
HITGRID_FAMILY_BENCH(clustered)
HITGRID_FAMILY_BENCH(long_tail)
HITGRID_FAMILY_BENCH(mixed)
HITGRID_FAMILY_BENCH(lattice)
