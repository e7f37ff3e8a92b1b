// The world part of `hitgrid stress` (apps/cli/stress_world.hpp): a World driven through
// frames agrees with brute force on every layout, ISA and thread count, and a planted
// disagreement is reported and shrinks to the shapes that show it.
#include <catch2/catch.hpp>

#include "hitgrid/core/shape_pair_test.hpp"
#include "stress_scenes.hpp"
#include "stress_shrink.hpp"
#include "stress_world.hpp"
#include "support/stress_planted.hpp"

using namespace hitgrid;
using namespace hitgrid::stress;

TEST_CASE("a World driven through frames agrees with brute force on every stress layout", "[stress][world]") {
  for (Layout layout : all_layouts) {
    INFO(layout_name(layout));
    const Scene scene = make_scene(layout, 300, 5);
    for (Isa isa : supported_isas()) {
      INFO(isa_name(isa));
      WorldChecks c;
      c.options.isa = isa;
      c.options.threads = isa == Isa::scalar ? 1 : 3;
      c.seed = 9;
      c.frames = 5;
      WorldCounts counts;
      const auto failure = check_world(scene, c, library_pair_test, &counts);
      CHECK_FALSE(failure.has_value());
      if (failure) WARN(*failure);
      CHECK(counts.steps == 5);
      CHECK(counts.queries == 5 * c.queries);
    }
  }
  // And with the independent GMP reference.
  WorldChecks c;
  CHECK_FALSE(check_world(make_scene(Layout::tangent_circles, 300, 1), c, test::gmp_pair_test).has_value());
}

TEST_CASE("the world check sees events: shapes move, switch body, change filter, die and come back", "[stress][world]") {
  WorldChecks c;
  c.frames = 6;
  WorldCounts counts;
  REQUIRE_FALSE(check_world(make_scene(Layout::lattice_mixed, 800, 2), c, library_pair_test, &counts).has_value());
  CHECK(counts.pairs > 500);
  CHECK(counts.events > 100);
}

TEST_CASE("a wrong answer in a world is reported and shrinks to one or two shapes", "[stress][world]") {
  // A reference that denies shared endpoints: the world (right) now disagrees with it.
  auto wrong = [](const Scene& s, ShapeId a, ShapeId b) {
    return intersects(s, a, b) && !test::share_an_endpoint(s, Pair(a, b));
  };
  const Scene scene = make_scene(Layout::lattice, 400, 4);
  WorldChecks c;
  c.options.threads = 2;
  const auto failure = check_world(scene, c, wrong);
  REQUIRE(failure.has_value());
  CHECK_THAT(*failure, Catch::Contains("world frame 0: pairs: 0 missing"));
  const ShrinkResult r = shrink_scene(scene, [&](const Scene& s) { return check_world(s, c, wrong).has_value(); }, {}, 60.0);
  CHECK(r.minimal);
  // Two shapes sharing an endpoint, or one whose own endpoint is a query point.
  CHECK(r.scene.size() <= 2);
  CHECK(check_world(r.scene, c, wrong).has_value());
}
