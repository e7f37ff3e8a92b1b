#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "hitgrid/broadphase/brute_force.hpp"
#include "hitgrid/broadphase/find_pairs.hpp"
#include "hitgrid/core/error.hpp"
#include "hitgrid/core/generators.hpp"
#include "hitgrid/core/pair_io.hpp"

using namespace hitgrid;

TEST_CASE("find_pairs gives the same sorted list for every thread count, ISA and method", "[broadphase]") {
  GeneratorParams p;
  p.n = 3000;
  for (Family f : all_families) {
    INFO(family_name(f));
    const Scene scene = generate(f, p);
    const PairList reference = brute_force_pairs(scene);
    for (BroadPhase method : {BroadPhase::automatic, BroadPhase::sweep_and_prune}) {
      for (unsigned threads : {1u, 2u, 4u, 8u}) {
        for (Isa isa : supported_isas()) {
          FindPairsOptions o;
          o.threads = threads;
          o.isa = isa;
          o.method = method;
          FindPairsReport report;
          const PairList got = find_pairs(scene, o, &report);
          CHECK(got == reference);
          CHECK(report.threads == threads);
          CHECK(!report.stages.empty());
        }
      }
    }
    FindPairsOptions brute;
    brute.method = BroadPhase::brute_force;
    CHECK(find_pairs(scene, brute) == reference);
  }
}

TEST_CASE("find_pairs pins the pair hash of uniform N=100000 seed 1", "[broadphase]") {
  GeneratorParams p;
  p.n = 100000;
  const PairList pairs = find_pairs(generate(Family::uniform, p));
  // About 0.185 N expected (docs/scenes.md); the hash pins the exact list. At N = 1,000,000
  // the main job finds 185,044 pairs (hash b666cb6941dab9f9): docs/scenes.md's exact count.
  CHECK(pairs.size() == 18326);
  CHECK(pair_list_hash(pairs) == 0x88cd7afecb02e874u);
}

TEST_CASE("find_pairs rejects invalid options with a typed error", "[broadphase]") {
  Scene scene;
  scene.add(Segment{{0, 0}, {1, 1}});
  FindPairsOptions o;
  o.cell_size = -1.0f;
  CHECK_THROWS_AS(find_pairs(scene, o), Error);
  o.cell_size = std::numeric_limits<float>::infinity();
  CHECK_THROWS_AS(find_pairs(scene, o), Error);
  o.cell_size = 0.5f;
  CHECK_NOTHROW(find_pairs(scene, o));
  for (Isa isa : {Isa::sse2, Isa::avx2, Isa::avx512}) {
    o.isa = isa;
    if (isa_supported(isa))
      CHECK_NOTHROW(find_pairs(scene, o));
    else
      CHECK_THROWS_WITH(find_pairs(scene, o), Catch::Contains("not supported"));
  }
}
