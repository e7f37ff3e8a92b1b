// The two passes over the home-cell grid (home_grid_pairs.hpp), each on its own:
// small_pairs must find exactly the brute-force pairs of two small shapes, and
// large_small_pairs exactly those of one large shape and one small one, on every family
// and pathological layout, on automatic, small, unit and large cells, on every supported
// ISA; and every ISA must run the same number of exact tests. The small-pairs pass fed
// rows while the build finishes them must find and test exactly what it does afterwards.
#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

#include "cell_size.hpp"
#include "hitgrid/broadphase/brute_force.hpp"
#include "hitgrid/simd/isa.hpp"
#include "home_grid.hpp"
#include "home_grid_pairs.hpp"
#include "large_spans.hpp"
#include "sorted_pairs.hpp"
#include "support/pathological_scenes.hpp"
#include "support/sanitizer_builds.hpp"

using namespace hitgrid;

namespace {

struct PassResult {
  PairList pairs;
  std::uint64_t tests = 0;
};

template <class Pass>
PassResult run(Pass pass, const PairTestContext& tests, const KindRanges& kinds) {
  PairKeys keys;
  PassResult r;
  r.tests = pass(tests, keys);
  sorted_unique_pairs(keys, tests.codec, kinds, r.pairs);
  return r;
}

}  // namespace

TEST_CASE("the home grid's passes find exactly the small-small and the large-small pairs", "[grid]") {
  // Pairs of each sort seen over all scenes and cells: neither pass is checked only on
  // empty lists.
  std::size_t small_seen = 0, large_small_seen = 0;
  for (const auto& [name, scene] : test::broadphase_scenes(3000)) {
    const PairList all = brute_force_pairs(scene);
    const KindRanges kinds = KindRanges::of(scene);
    const PairKeyCodec codec{bits_for(scene.size())};
    const SceneExtent extent = scene_extent(scene);
    for (float cell : {0.0f, 0.25f, 1.0f, 8.0f}) {
      const int log2_cell = choose_home_cells(scene, extent, cell).log2_cell;
      std::uint64_t small_tests = 0, large_tests = 0;
      const std::vector<Isa> isas = test::isas_to_test();
      for (Isa isa : isas) {
        INFO(name << ", cell " << cell << " (log2 " << log2_cell << "), " << isa_name(isa));
        // The grid built on the same ISA, as build_grid does (its answer is the same on all).
        const HomeGrid grid = HomeGrid::build(scene, kinds, log2_cell, extent, isa);
        const LargeSpans spans = LargeSpans::build(grid, kinds);
        std::vector<bool> large(scene.size(), false);
        for (std::uint32_t i : grid.large_ids()) large[i] = true;
        PairList want_small, want_large_small;
        for (const Pair& p : all) {
          const int n_large = large[kinds.global(p.first())] + large[kinds.global(p.second())];
          if (n_large == 0) want_small.push_back(p);
          if (n_large == 1) want_large_small.push_back(p);
        }
        const PairTestContext tests{isa, kinds, codec};
        const PassResult small =
            run([&](const PairTestContext& t, PairKeys& out) { return small_pairs(grid, t, out); }, tests, kinds);
        const PassResult large_small =
            run([&](const PairTestContext& t, PairKeys& out) { return large_small_pairs(grid, spans, t, out); }, tests,
                kinds);
        small_seen += want_small.size();
        large_small_seen += want_large_small.size();
        CHECK(small.pairs.size() == want_small.size());
        CHECK(small.pairs == want_small);
        CHECK(large_small.pairs.size() == want_large_small.size());
        CHECK(large_small.pairs == want_large_small);
        // At least one exact test per pair found.
        CHECK(small.tests >= small.pairs.size());
        CHECK(large_small.tests >= large_small.pairs.size());
        if (isa == isas.front()) {
          small_tests = small.tests;
          large_tests = large_small.tests;
        } else {
          CHECK(small.tests == small_tests);
          CHECK(large_small.tests == large_tests);
        }
      }
    }
  }
  CHECK(small_seen > 0);
  CHECK(large_small_seen > 0);
}

TEST_CASE("the home grid's passes on an empty grid find nothing", "[grid]") {
  const HomeGrid grid;
  const LargeSpans spans;
  const KindRanges kinds{};
  for (Isa isa : supported_isas()) {
    INFO(isa_name(isa));
    const PairTestContext tests{isa, kinds, PairKeyCodec{0}};
    PairKeys keys;
    CHECK(small_pairs(grid, tests, keys) == 0);
    CHECK(large_small_pairs(grid, spans, tests, keys) == 0);
    PairList out;
    sorted_unique_pairs(keys, tests.codec, kinds, out);
    CHECK(out.empty());
  }
}

TEST_CASE("the small-pairs pass fed rows by the build finds what it finds on the built grid", "[grid]") {
  tbb::global_control allow(tbb::global_control::max_allowed_parallelism, 8);
  for (const auto& [name, scene] : test::broadphase_scenes(4000)) {
    const KindRanges kinds = KindRanges::of(scene);
    const PairTestContext tests{resolve_isa(Isa::automatic), kinds, PairKeyCodec{bits_for(scene.size())}};
    const SceneExtent extent = scene_extent(scene);
    for (float cell : {0.0f, 0.25f, 1.0f}) {
      const int log2_cell = choose_home_cells(scene, extent, cell).log2_cell;
      const HomeGrid built = HomeGrid::build(scene, kinds, log2_cell, extent, tests.isa);
      const PassResult after =
          run([&](const PairTestContext& t, PairKeys& out) { return small_pairs(built, t, out); }, tests, kinds);
      for (int threads : {1, 2, 4}) {
        INFO(name << ", cell " << cell << ", " << threads << " threads");
        PassResult fed;
        tbb::task_arena(threads).execute([&] {
          SmallPairs pass(tests);
          const HomeGrid grid = HomeGrid::build(scene, kinds, log2_cell, extent, tests.isa, &pass);
          PairKeys keys;
          fed.tests = pass.finish(grid, keys);
          sorted_unique_pairs(keys, tests.codec, kinds, fed.pairs);
        });
        CHECK(fed.pairs == after.pairs);
        CHECK(fed.tests == after.tests);
      }
    }
  }
}
