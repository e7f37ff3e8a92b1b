// The cross-checks of `hitgrid stress` (apps/cli/stress_checks.hpp): they pass on the
// library, with core's exact test and with the independent GMP reference, and they catch
// a planted bug in each of the ways a round compares answers.
#include <algorithm>
#include <catch2/catch.hpp>

#include "hitgrid/core/generators.hpp"
#include "stress_checks.hpp"
#include "stress_scenes.hpp"
#include "support/exact_reference.hpp"
#include "support/stress_planted.hpp"

using namespace hitgrid;
using namespace hitgrid::stress;

namespace {

SceneChecks checks_for(const Scene& scene, Isa isa) {
  SceneChecks c;
  c.tested = {isa, 2, 0.0f, 0.0f};
  c.scalar = c.tested;
  c.scalar.isa = Isa::scalar;
  c.other_threads = c.tested;
  c.other_threads.threads = 3;
  c.windows = {scene.bounds()};
  c.whole_reference = true;
  return c;
}

}  // namespace

TEST_CASE("stress checks pass on the library for every layout, with the GMP reference too", "[stress]") {
  for (Layout layout : all_layouts) {
    INFO(layout_name(layout));
    const Scene scene = make_scene(layout, 600, 7);
    for (Isa isa : supported_isas()) {
      INFO(isa_name(isa));
      CheckCounts counts;
      const auto m = check_scene(scene, checks_for(scene, isa), library_finder, library_pair_test, &counts);
      CHECK_FALSE(m.has_value());
      if (m) WARN(describe(*m));
      CHECK(counts.window_shapes == scene.size());
    }
    CHECK_FALSE(check_scene(scene, checks_for(scene, best_isa()), library_finder, test::gmp_pair_test).has_value());
  }
}

TEST_CASE("the window reference is every pair with a shape in the window", "[stress]") {
  const Scene scene = make_scene(Layout::lattice_mixed, 3000, 3);
  const PairList all = reference_pairs(scene, library_pair_test);
  REQUIRE(all.size() > 1000);
  const Aabb window{{-5, -5}, {5, 5}};
  const std::vector<ShapeId> focus = shapes_in_window(scene, window);
  REQUIRE(focus.size() > 50);
  REQUIRE(focus.size() < scene.size() / 4);
  const PairList near = reference_pairs_touching(scene, focus, library_pair_test);
  CHECK(near == pairs_touching(all, focus));
  CHECK(near.size() < all.size());
}

TEST_CASE("stress checks catch a planted bug against scalar, other threads and the reference", "[stress]") {
  const Scene scene = make_scene(Layout::lattice, 2000, 5);
  SceneChecks c = checks_for(scene, best_isa());

  // Drops shared-endpoint pairs on SIMD ISAs: the scalar comparison sees it first.
  auto m = check_scene(scene, c, test::drops_shared_endpoints_off_scalar, library_pair_test);
  REQUIRE(m.has_value());
  CHECK_THAT(m->what, Catch::Contains("vs isa scalar"));
  CHECK(m->missing_count > 0);
  CHECK(m->extra_count == 0);
  REQUIRE_FALSE(m->missing.empty());
  const Pair p = m->missing.front();
  CHECK(test::share_an_endpoint(scene, p));

  // Adds a pair only on one thread count: the thread comparison.
  c.tested.isa = Isa::scalar;
  c.scalar.isa = Isa::scalar;
  c.tested.threads = c.scalar.threads = 1;
  c.other_threads.threads = 2;
  m = check_scene(scene, c, test::adds_a_pair_on_one_thread, library_pair_test);
  REQUIRE(m.has_value());
  CHECK_THAT(m->what, Catch::Contains("2 threads"));

  // The same wrong answer everywhere: only the exact reference can see it.
  m = check_scene(scene, c, test::drops_shared_endpoints_everywhere, library_pair_test);
  REQUIRE(m.has_value());
  CHECK_THAT(m->what, Catch::Contains("exact reference on window 0"));
}
