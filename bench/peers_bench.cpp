// hitgrid against the libraries people use today, in one run: for every docs/scenes.md
// family and N, hitgrid's find_pairs (1 and 2 threads), each peer compiled into
// hitgrid_peers (Box2D's b2DynamicTree, CGAL's box_self_intersection_d, Bullet's btDbvt:
// their broad phase, hitgrid's exact narrow phase, a sorted pair list), the all-pairs
// brute force for small N, and the memory floor (reading and copying the scene's bytes
// once, from DRAM, on one and on two threads).
//
// Every run's pair count and pair-list hash must equal hitgrid's find_pairs answer; a
// mismatch fails that benchmark (SkipWithError) and the run (exit status 1), so a fast
// wrong answer cannot pass.
// Names are FAMILY/n:N/WHO, e.g. uniform/n:1000000/box2d:
//
//   build/release/bench/peers_bench --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
//       --benchmark_filter='^(uniform|clustered|long_tail)/n:(100000|1000000)/'      (one line)
//
// Peers run one iteration per repetition at a million shapes. Box2D on long_tail at a
// million is by far the slowest run (its tree queries dominate: the long segments' huge
// boxes widen their paths); the filter is POSIX (no lookahead), so leave that one out with
// an alternation, e.g.
//   '^(uniform|clustered)/n:|^long_tail/n:(10000|100000)/|^long_tail/n:1000000/(hitgrid|cgal|bullet|floor)'
// Results measured on the development machine: bench/peers/README.md.
#include <benchmark/benchmark.h>
#include <fmt/format.h>
#include <malloc.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "hitgrid/broadphase/brute_force.hpp"
#include "hitgrid/broadphase/find_pairs.hpp"
#include "hitgrid/core/generators.hpp"
#include "hitgrid/core/pair_io.hpp"
#include "peers.hpp"
#include "scene_cache.hpp"

namespace {

using namespace hitgrid;

constexpr std::uint64_t brute_force_max_n = 10'000;  // O(N^2): 50 million exact tests at most
// The peers (Box2D most) are slow enough at a million shapes that one iteration per
// repetition is all a run can afford there.
constexpr std::uint64_t one_iteration_from_n = 1'000'000;

using bench::scene_for;

struct Answer {
  std::size_t pairs = 0;
  std::uint64_t hash = 0;
};

/// hitgrid's find_pairs answer (default options), the one every run must reproduce.
const Answer& reference_for(Family family, std::uint64_t n) {
  static std::map<std::pair<Family, std::uint64_t>, Answer> cache;
  auto it = cache.find({family, n});
  if (it == cache.end()) {
    const PairList pairs = find_pairs(scene_for(family, n));
    it = cache.emplace(std::make_pair(family, n), Answer{pairs.size(), pair_list_hash(pairs)}).first;
  }
  return it->second;
}

/// Set by any run whose answer differs: the binary then exits with status 1 (Google
/// Benchmark's SkipWithError alone marks the row and still exits 0).
bool any_mismatch = false;

void check_and_report(benchmark::State& state, Family family, std::uint64_t n, const PairList& pairs) {
  const Answer got{pairs.size(), pair_list_hash(pairs)};
  const Answer& want = reference_for(family, n);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
  state.counters["pairs"] = static_cast<double>(got.pairs);
  state.SetLabel(fmt::format("pairs={} hash={:016x}", got.pairs, got.hash));
  if (got.pairs != want.pairs || got.hash != want.hash) {
    any_mismatch = true;
    state.SkipWithError(
        fmt::format("pair list differs from find_pairs (pairs={} hash={:016x})", want.pairs, want.hash).c_str());
  }
}

void run_hitgrid(benchmark::State& state, Family family, std::uint64_t n, unsigned threads) {
  const Scene& scene = scene_for(family, n);
  FindPairsOptions options;
  options.threads = threads;
  PairList pairs;
  PairFinder finder(options);  // as a program calling it every frame: scratch kept
  for (auto _ : state) {
    finder.find_pairs(scene, pairs);
    benchmark::DoNotOptimize(pairs.data());
  }
  check_and_report(state, family, n, pairs);
}

void run_peer(benchmark::State& state, Family family, std::uint64_t n, const peers::Peer& peer) {
  const Scene& scene = scene_for(family, n);
  PairList pairs;
  for (auto _ : state) {
    pairs = peer.pairs(scene);
    benchmark::DoNotOptimize(pairs.data());
  }
  check_and_report(state, family, n, pairs);
}

#ifdef HITGRID_HAVE_CGAL
/// CGAL's own parallel version (Parallel_tag) on `threads` TBB threads: the one peer that
/// can use the second thread hitgrid gets.
void run_cgal_parallel(benchmark::State& state, Family family, std::uint64_t n, unsigned threads) {
  const Scene& scene = scene_for(family, n);
  tbb::task_arena arena(static_cast<int>(threads));
  PairList pairs;
  for (auto _ : state) {
    arena.execute([&] { pairs = peers::cgal_parallel_pairs(scene); });
    benchmark::DoNotOptimize(pairs.data());
  }
  check_and_report(state, family, n, pairs);
}
#endif

void run_brute_force(benchmark::State& state, Family family, std::uint64_t n) {
  const Scene& scene = scene_for(family, n);
  tbb::task_arena one_thread(1);  // single-threaded, like the peers
  PairList pairs;
  for (auto _ : state) {
    one_thread.execute([&] { pairs = brute_force_pairs(scene); });
    benchmark::DoNotOptimize(pairs.data());
  }
  check_and_report(state, family, n, pairs);
}

/// A part of one of the scene's columns (unpadded), as find_pairs must read them at least
/// once, and where it goes in the floor's copy.
struct Piece {
  const float* from;
  std::size_t size;
  std::size_t at;
};

/// The scene's columns cut into `threads` equal parts each (multiples of 16 floats), part t of
/// every column before part t + 1 of any: a static split of the list into `threads` runs
/// gives every thread the same share of every column. `bytes` gets the scene's size.
std::vector<Piece> scene_pieces(const Scene& scene, unsigned threads, std::size_t& bytes) {
  std::vector<std::pair<const float*, std::size_t>> columns;
  for (const FloatArray* a : {&scene.segments().ax, &scene.segments().ay, &scene.segments().bx, &scene.segments().by,
                              &scene.circles().cx, &scene.circles().cy, &scene.circles().r, &scene.boxes().minx,
                              &scene.boxes().miny, &scene.boxes().maxx, &scene.boxes().maxy})
    columns.emplace_back(a->data(), a->size());
  std::vector<Piece> pieces;
  for (unsigned t = 0; t < threads; ++t) {
    std::size_t at = 0;
    for (const auto& [p, size] : columns) {
      const std::size_t share = (size + threads - 1) / threads, line = 64 / sizeof(float);
      const std::size_t step = (share + line - 1) / line * line;
      const std::size_t begin = std::min(size, t * step), end = std::min(size, begin + step);
      pieces.push_back({p + begin, end - begin, at + begin});
      at += size;
    }
    bytes = at * sizeof(float);
  }
  return pieces;
}

/// Sum of the floats with 16 independent accumulators: no reassociation is needed to
/// vectorize it (the build forbids fast-math), and the adds keep up with memory.
float sum_floats(const float* p, std::size_t n) {
  float acc[16] = {};
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16)
    for (std::size_t j = 0; j < 16; ++j) acc[j] += p[i + j];
  for (; i < n; ++i) acc[0] += p[i];
  float total = 0.0f;
  for (float a : acc) total += a;
  return total;
}

/// Reads 128 MiB (four times the development VM's 32 MiB L3), so that the next timed
/// iteration finds the scene in DRAM, as find_pairs does after its own scratch (at a
/// million shapes, larger than that L3) has passed through the caches: without it a 16 MB
/// scene stays in L3 and the floor is the cache's, not memory's. Read, not written, so no
/// dirty lines are written back inside the timing.
void evict_caches() {
  static const std::vector<std::uint64_t> junk(std::size_t{128} << 20 >> 3, 1);
  std::uint64_t sum = 0;
  for (std::uint64_t v : junk) sum += v;
  benchmark::DoNotOptimize(sum);
}

/// The memory floor on `threads` threads, each streaming its share of the scene's bytes
/// once from DRAM: read (summed), or copied (read and written into a buffer allocated and
/// touched before timing, so that page faults are not counted). Compared with hitgrid on
/// the same number of threads: two threads stream faster than one, so a floor on one
/// thread would flatter hitgrid's two-thread ratio.
void run_floor(benchmark::State& state, Family family, std::uint64_t n, unsigned threads, bool copy) {
  std::size_t bytes = 0;
  const std::vector<Piece> pieces = scene_pieces(scene_for(family, n), threads, bytes);
  std::vector<float> buffer(copy ? bytes / sizeof(float) : 0, 1.0f);
  std::vector<float> sums(pieces.size());
  tbb::task_arena arena(static_cast<int>(threads));
  // Every thread's share, one block each (static_partitioner: thread t takes run t).
  auto each_thread = [&](auto&& body) {
    arena.execute([&] {
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, pieces.size(), pieces.size() / threads), body,
                        tbb::static_partitioner());
    });
  };
  for (auto _ : state) {
    state.PauseTiming();
    each_thread([&](const auto&) { evict_caches(); });  // every core's caches
    state.ResumeTiming();
    each_thread([&](const auto& r) {
      for (std::size_t k = r.begin(); k != r.end(); ++k) {
        const Piece& p = pieces[k];
        if (!copy)
          sums[k] = sum_floats(p.from, p.size);
        else if (p.size != 0)
          std::memcpy(buffer.data() + p.at, p.from, p.size * sizeof(float));
      }
    });
    benchmark::DoNotOptimize(sums.data());
    benchmark::DoNotOptimize(buffer.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
  state.counters["MB"] = static_cast<double>(bytes) / 1e6;
}

void register_all() {
  for (Family family : all_families) {
    for (std::uint64_t n : {std::uint64_t{10'000}, std::uint64_t{100'000}, std::uint64_t{1'000'000}}) {
      const std::string prefix = fmt::format("{}/n:{}/", family_name(family), n);
      const auto add = [&](const std::string& who, auto&& fn) {
        return benchmark::RegisterBenchmark((prefix + who).c_str(), fn)->Unit(benchmark::kMillisecond)->UseRealTime();
      };
      for (unsigned threads : {1u, 2u})
        add(fmt::format("hitgrid/threads:{}", threads),
            [=](benchmark::State& s) { run_hitgrid(s, family, n, threads); });
      for (const peers::Peer& peer : peers::compiled_peers) {
        auto* b = add(std::string(peer.name), [=, &peer](benchmark::State& s) { run_peer(s, family, n, peer); });
        if (n >= one_iteration_from_n) b->Iterations(1);
      }
#ifdef HITGRID_HAVE_CGAL
      // Two threads only: on one, Parallel_tag only adds its copies and splits, and is
      // slower than the sequential version.
      auto* parallel = add("cgal_parallel/threads:2", [=](benchmark::State& s) { run_cgal_parallel(s, family, n, 2); });
      if (n >= one_iteration_from_n) parallel->Iterations(1);
#endif
      if (n <= brute_force_max_n) add("brute_force", [=](benchmark::State& s) { run_brute_force(s, family, n); });
      // A fixed count: each iteration also evicts the caches (untimed, but longer than the
      // timed work itself), and the automatic count would aim at 0.5 s of timed work.
      for (unsigned threads : {1u, 2u}) {
        add(fmt::format("floor_read/threads:{}", threads), [=](benchmark::State& s) {
          run_floor(s, family, n, threads, false);
        })->Iterations(30);
        add(fmt::format("floor_copy/threads:{}", threads), [=](benchmark::State& s) {
          run_floor(s, family, n, threads, true);
        })->Iterations(30);
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  // The same memory policy as the hitgrid command (apps/cli/main.cpp), for every
  // contender alike: keep freed memory in the heap instead of unmapping it, so that
  // repeated iterations measure the work, not the kernel's first-touch page faults. Kept
  // so that these numbers compare with the command's, although on uniform 1M, 1 thread,
  // it made no difference beyond the noise.
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, -1);
  register_all();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (any_mismatch) {
    std::fputs("peers_bench: a pair list differed from find_pairs' (rows marked ERROR OCCURRED)\n", stderr);
    return 1;
  }
  return 0;
}
