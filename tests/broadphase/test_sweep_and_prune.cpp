#include <catch2/catch.hpp>

#include "hitgrid/broadphase/brute_force.hpp"
#include "hitgrid/broadphase/sweep_and_prune.hpp"
#include "support/pathological_scenes.hpp"

using namespace hitgrid;

TEST_CASE("sweep and prune equals the brute-force reference on every family and pathological layout", "[broadphase]") {
  for (const auto& [name, scene] : test::broadphase_scenes(4000)) {
    INFO(name);
    const PairList want = brute_force_pairs(scene);
    FindPairsReport report;
    const PairList got = sweep_and_prune_pairs(scene, &report);
    CHECK(got.size() == want.size());
    CHECK(got == want);
    CHECK(report.candidates >= got.size());
    CHECK(report.stages.size() == 4);
  }
}
