#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <catch2/catch.hpp>
#include <limits>

#include "hitgrid/broadphase/brute_force.hpp"
#include "hitgrid/broadphase/find_pairs.hpp"
#include "hitgrid/core/error.hpp"
#include "hitgrid/core/generators.hpp"
#include "hitgrid/core/pair_io.hpp"
#include "hitgrid/core/splitmix64.hpp"
#include "support/pathological_scenes.hpp"
#include "support/sanitizer_builds.hpp"

using namespace hitgrid;

namespace {

PairList grid_pairs(const Scene& scene, FindPairsOptions o = {}, FindPairsReport* report = nullptr) {
  o.method = BroadPhase::grid;
  return find_pairs(scene, o, report);
}

}  // namespace

TEST_CASE("the grid equals the brute-force reference on every family and pathological layout", "[grid]") {
  for (const auto& [name, scene] : test::broadphase_scenes(4000)) {
    const PairList want = brute_force_pairs(scene);
    // Automatic, then cell sizes from far too small to far too large: the answer must not
    // depend on them.
    for (float cell : {0.0f, 0.125f, 1.0f, 8.0f, 1024.0f}) {
      if (test::tsan_build && (cell == 1.0f || cell == 1024.0f)) continue;  // support/sanitizer_builds.hpp
      INFO(name << ", cell " << cell);
      FindPairsOptions o;
      o.cell_size = cell;
      FindPairsReport report;
      const PairList got = grid_pairs(scene, o, &report);
      CHECK(got.size() == want.size());
      CHECK(got == want);
      if (cell > 0.0f) CHECK(report.cell_size <= cell);
    }
    // The tiled grid's cells (the large shapes) likewise.
    for (float large_cell : {0.25f, 4.0f, 64.0f}) {
      if (test::tsan_build && large_cell != 4.0f) continue;
      INFO(name << ", large cell " << large_cell);
      FindPairsOptions o;
      o.large_cell_size = large_cell;
      CHECK(grid_pairs(scene, o) == want);
    }
  }
}

TEST_CASE("the grid's answer does not depend on the thread count", "[grid]") {
  // Let arenas really have 8 threads on a 2-core machine (TBB caps workers otherwise).
  tbb::global_control allow(tbb::global_control::max_allowed_parallelism, 8);
  for (const auto& [name, scene] : test::broadphase_scenes(3000)) {
    INFO(name);
    PairList first;
    for (int threads : {1, 2, 4, 8}) {
      PairList got;
      FindPairsOptions o;
      o.threads = static_cast<unsigned>(threads);
      got = grid_pairs(scene, o);
      if (threads == 1)
        first = got;
      else
        CHECK(got == first);
    }
  }
}

TEST_CASE("the grid's answer does not depend on the instruction set", "[grid]") {
  for (const auto& [name, scene] : test::broadphase_scenes(3000)) {
    // Every cell size of the first test: each ISA searches rows its own way (AVX-512 and
    // AVX2 in tiles of shapes where no cell is crowded), and each must give the same pairs
    // after exact tests of the same candidates: exactly the pairs whose boxes overlap.
    for (float cell : {0.0f, 0.125f, 1.0f, 8.0f}) {
      FindPairsOptions o;
      o.cell_size = cell;
      o.isa = Isa::scalar;
      FindPairsReport scalar;
      const PairList want = grid_pairs(scene, o, &scalar);
      for (Isa isa : test::isas_to_test()) {
        INFO(name << ", cell " << cell << ", " << isa_name(isa));
        o.isa = isa;
        FindPairsReport report;
        CHECK(grid_pairs(scene, o, &report) == want);
        CHECK(report.isa == isa);
        CHECK(report.candidates == scalar.candidates);
      }
    }
  }
}

TEST_CASE("the grid pins the five families at N=1,000,000 seed 1: pair counts and hashes", "[grid]") {
  // The lists every change of the grid must keep: the pair counts and pair-list hashes of
  // the five standard scenes at N = 1,000,000, seed 1 (docs/scenes.md). Uniform's count is
  // also docs/scenes.md's independent exact count.
  struct Pinned {
    Family family;
    std::size_t pairs;
    std::uint64_t hash;
  };
  const Pinned pinned[] = {
      {Family::uniform, 185044, 0xb666cb6941dab9f9u},    {Family::clustered, 1103932, 0x854e563af86a14c6u},
      {Family::long_tail, 1898473, 0x0292117a4c8c8dd3u}, {Family::mixed, 1168210, 0x14524d286c2bdf58u},
      {Family::lattice, 2867166, 0x9dce7b8152796eb8u},
  };
  GeneratorParams p;
  p.n = 1'000'000;
  p.seed = 1;
  for (const Pinned& want : pinned) {
#if defined(HITGRID_SANITIZED_BUILD) || defined(HITGRID_TSAN_BUILD)
    // The sanitizer runs look for memory errors and races, not for these lists (each
    // family at 1M costs them tens of seconds): uniform only.
    if (want.family != Family::uniform) continue;
#endif
    const Scene scene = generate(want.family, p);
    // The automatic cell and two fixed ones, one finer and one coarser than the shapes.
    for (float cell : {0.0f, 1.0f, 4.0f}) {
      INFO(family_name(want.family) << ", cell " << cell);
      FindPairsOptions o;
      o.cell_size = cell;
      const PairList pairs = grid_pairs(scene, o);
      CHECK(pairs.size() == want.pairs);
      CHECK(pair_list_hash(pairs) == want.hash);
    }
  }
}

TEST_CASE("the grid equals the brute-force reference at 50,000 shapes", "[grid][large]") {
  // Large enough that a grid has thousands of tiles, crowded and empty cells and shapes
  // crossing tile borders in every direction; brute force makes 1.25e9 exact tests.
  GeneratorParams p;
#if defined(HITGRID_TSAN_BUILD)
  p.n = 5'000;  // ThreadSanitizer looks for races, not scale: 100x fewer tests
#elif defined(HITGRID_SANITIZED_BUILD)
  p.n = 10'000;  // the sanitizer run looks for memory errors, not scale: 25x fewer tests
#else
  p.n = 50'000;
#endif
  p.seed = 7;
  for (Family f : {Family::mixed, Family::lattice, Family::long_tail}) {
    INFO(family_name(f));
    const Scene scene = generate(f, p);
    const PairList want = brute_force_pairs(scene);
    const PairList got = grid_pairs(scene);
    CHECK(got.size() == want.size());
    CHECK(got == want);
  }
}

TEST_CASE("the grid's two layouts: the tiled grid alone when the large shapes cross many rows", "[grid]") {
  // One shape in 25 is a segment across the whole world (test::crossed_world): the plan
  // gives every shape to the tiled grid. long_tail keeps the home-cell grid. Both answers
  // equal the reference.
  const Scene crossed = test::crossed_world();
  FindPairsReport report;
  CHECK(grid_pairs(crossed, {}, &report) == brute_force_pairs(crossed));
  CHECK(report.small_shapes == 0);
  CHECK(report.large_shapes == crossed.size());

  GeneratorParams p;
  p.n = test::tsan_build ? 5'000 : 20'000;  // brute force under TSan: 16x fewer tests
  const Scene tail = generate(Family::long_tail, p);
  CHECK(grid_pairs(tail, {}, &report) == brute_force_pairs(tail));
  CHECK(report.small_shapes > 0);
  CHECK(report.large_shapes > 0);
  CHECK(report.small_shapes + report.large_shapes == tail.size());
}

TEST_CASE("a PairFinder gives the same answer call after call, keeps its scratch, and gives it back", "[grid]") {
  GeneratorParams p;
  p.n = 200'000;
  const Scene scene = generate(Family::mixed, p);
  const PairList want = grid_pairs(scene);
  FindPairsOptions o;
  // One thread: the same blocks are asked for call after call (with more, the threads'
  // pair lists, and so their blocks, differ in size from call to call).
  o.threads = 1;
  PairFinder finder(o);
  CHECK(finder.find_pairs(scene) == want);
  const std::size_t kept = finder.kept_bytes();
  CHECK(kept > 0);  // the grid's buffers, megabytes at this size
  CHECK(kept <= o.max_kept_bytes);
  CHECK(finder.find_pairs(scene) == want);
  CHECK(finder.kept_bytes() == kept);  // reused, not grown
  finder.release_memory();
  CHECK(finder.kept_bytes() == 0);
  CHECK(finder.find_pairs(scene) == want);

  o.threads = 2;
  o.max_kept_bytes = std::size_t{64} << 20;
  PairFinder bounded(o);
  for (int call = 0; call < 3; ++call) {
    CHECK(bounded.find_pairs(scene) == want);
    CHECK(bounded.kept_bytes() > 0);
    CHECK(bounded.kept_bytes() <= o.max_kept_bytes);
  }

  o.max_kept_bytes = 0;  // keeps nothing
  PairFinder frugal(o);
  CHECK(frugal.find_pairs(scene) == want);
  CHECK(frugal.kept_bytes() == 0);
}

TEST_CASE("PairFinder refuses invalid options with hitgrid::Error", "[grid]") {
  FindPairsOptions o;
  o.cell_size = -1.0f;
  CHECK_THROWS_AS(PairFinder(o), Error);
  o.cell_size = std::numeric_limits<float>::quiet_NaN();
  CHECK_THROWS_AS(PairFinder(o), Error);
  o.cell_size = 0.0f;
  o.large_cell_size = std::numeric_limits<float>::infinity();
  CHECK_THROWS_AS(PairFinder(o), Error);
}
