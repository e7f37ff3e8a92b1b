// The rounds of `hitgrid stress` (apps/cli/stress_rounds.hpp): plans are a pure function of
// the seed and the round, every layout runs clean, and a planted bug makes a round fail
// with a small reproducer.
#include <catch2/catch.hpp>
#include <set>

#include "stress_rounds.hpp"
#include "support/stress_planted.hpp"

using namespace hitgrid;
using namespace hitgrid::stress;

TEST_CASE("a round's plan depends on the seed and the round only", "[stress]") {
  StressOptions o;
  o.seed = 42;
  std::set<std::string> seen;
  std::set<Layout> layouts;
  for (std::uint64_t r = 0; r < 200; ++r) {
    const RoundPlan p = plan_round(o, r);
    CHECK(describe(p) == describe(plan_round(o, r)));
    seen.insert(describe(p));
    layouts.insert(p.layout);
    CHECK(p.n >= 1);
    CHECK(p.n <= layout_max_n(p.layout, o.max_n));
    CHECK(p.tested.threads >= 1);
    CHECK(p.tested.threads <= o.max_threads);
    CHECK(p.other_threads != p.tested.threads);
    CHECK(p.tested.isa != Isa::automatic);
    if (supported_isas().size() > 1) CHECK(p.tested.isa != Isa::scalar);
  }
  CHECK(seen.size() == 200);
  CHECK(layouts.size() == all_layouts.size());
  o.seed = 43;
  CHECK(describe(plan_round(o, 0)) != describe(plan_round(StressOptions{}, 0)));
}

TEST_CASE("stress rounds run clean on every layout", "[stress]") {
  for (Layout layout : all_layouts) {
    INFO(layout_name(layout));
    StressOptions o;
    o.layouts = {layout};
    o.max_n = 3000;
    for (std::uint64_t r = 0; r < 3; ++r) {
      const RoundPlan plan = plan_round(o, r);
      INFO(describe(plan));
      const RoundResult result = run_round(plan, library_finder, library_pair_test, 10.0);
      CHECK_FALSE(result.failure.has_value());
      if (result.failure) WARN(*result.failure);
      CHECK(result.shapes == plan.n);
      if (result.shapes > 0) CHECK(result.world.steps == plan.world.frames);
    }
  }
}

TEST_CASE("a planted bug fails its round with a reproducer of two shapes", "[stress]") {
  StressOptions o;
  o.layouts = {Layout::lattice};
  o.max_n = 20000;
  o.seed = 5;
  // The first round large enough to hold shared endpoints.
  std::uint64_t round = 0;
  while (plan_round(o, round).n < 2000) ++round;
  const RoundPlan plan = plan_round(o, round);
  const RoundResult r = run_round(plan, test::drops_shared_endpoints_off_scalar, library_pair_test, 60.0);
  REQUIRE(r.failure.has_value());
  CHECK_THAT(*r.failure, Catch::Contains("round " + std::to_string(round) + ": lattice"));
  CHECK_THAT(*r.failure, Catch::Contains("missing s "));
  CHECK(r.reproducer_minimal);
  REQUIRE(r.reproducer.size() == 2);
  CHECK(test::share_an_endpoint(r.reproducer, Pair(ShapeId(ShapeKind::segment, 0), ShapeId(ShapeKind::segment, 1))));
}
