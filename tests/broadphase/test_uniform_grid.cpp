#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <catch2/catch.hpp>

#include "hitgrid/broadphase/brute_force.hpp"
#include "hitgrid/broadphase/uniform_grid.hpp"
#include "hitgrid/core/generators.hpp"
#include "hitgrid/core/pair_io.hpp"
#include "support/pathological_scenes.hpp"

using namespace hitgrid;

TEST_CASE("the grid equals the brute-force reference on every family and pathological layout", "[grid]") {
  for (const auto& [name, scene] : test::broadphase_scenes(4000)) {
    const PairList want = brute_force_pairs(scene);
    // Automatic, then cell sizes from far too small to far too large: the answer must not
    // depend on them.
    for (float cell : {0.0f, 0.125f, 1.0f, 8.0f, 1024.0f}) {
      INFO(name << ", cell " << cell);
      GridOptions o;
      o.cell_size = cell;
      GridStats stats;
      const PairList got = uniform_grid_pairs(scene, o, &stats);
      CHECK(got.size() == want.size());
      CHECK(got == want);
      if (cell > 0.0f) CHECK(stats.cell_size <= cell);
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
      tbb::task_arena arena(threads);
      PairList got;
      arena.execute([&] { got = uniform_grid_pairs(scene); });
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
      GridOptions o;
      o.cell_size = cell;
      o.isa = Isa::scalar;
      GridStats scalar;
      const PairList want = uniform_grid_pairs(scene, o, &scalar);
      for (Isa isa : supported_isas()) {
        INFO(name << ", cell " << cell << ", " << isa_name(isa));
        o.isa = isa;
        GridStats stats;
        CHECK(uniform_grid_pairs(scene, o, &stats) == want);
        CHECK(stats.isa == isa);
        CHECK(stats.candidates == scalar.candidates);
      }
    }
  }
}

TEST_CASE("the grid pins uniform N=1,000,000 seed 1: 185,044 pairs and their hash", "[grid]") {
  GeneratorParams p;
  p.n = 1'000'000;
  p.seed = 1;
  const Scene scene = generate(Family::uniform, p);
  for (float cell : {0.0f, 1.0f, 4.0f}) {
    INFO("cell " << cell);
    GridOptions o;
    o.cell_size = cell;
    const PairList pairs = uniform_grid_pairs(scene, o);
    // docs/scenes.md's independent exact count; the hash pins the exact list.
    CHECK(pairs.size() == 185044);
    CHECK(pair_list_hash(pairs) == 0xb666cb6941dab9f9u);
  }
}

TEST_CASE("the grid equals the brute-force reference at 50,000 shapes", "[grid][large]") {
  // Large enough that a grid has thousands of tiles, crowded and empty cells and shapes
  // crossing tile borders in every direction; brute force makes 1.25e9 exact tests.
  GeneratorParams p;
#ifdef HITGRID_SANITIZED_BUILD
  p.n = 20'000;  // the sanitizer run looks for memory errors, not scale: 6x fewer tests
#else
  p.n = 50'000;
#endif
  p.seed = 7;
  for (Family f : {Family::mixed, Family::lattice, Family::long_tail}) {
    INFO(family_name(f));
    const Scene scene = generate(f, p);
    const PairList want = brute_force_pairs(scene);
    const PairList got = uniform_grid_pairs(scene);
    CHECK(got.size() == want.size());
    CHECK(got == want);
  }
}
