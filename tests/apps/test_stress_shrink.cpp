// The shrinker of `hitgrid stress` (apps/cli/stress_shrink.hpp): ddmin reaches a 1-minimal
// failing subset, and a planted broad-phase bug on a scene of thousands of shapes shrinks
// to the two shapes that show it.
#include <algorithm>
#include <catch2/catch.hpp>

#include "hitgrid/core/shape_pair_test.hpp"
#include "stress_checks.hpp"
#include "stress_scenes.hpp"
#include "stress_shrink.hpp"
#include "support/stress_planted.hpp"

using namespace hitgrid;
using namespace hitgrid::stress;

TEST_CASE("subscene keeps the chosen shapes in kind order and renumbers them", "[stress]") {
  Scene s;
  s.add(Segment{{0, 0}, {1, 1}});
  s.add(Circle{{2, 2}, 1});
  s.add(Segment{{3, 3}, {4, 4}});
  s.add(Box{{5, 5}, {6, 6}});
  const std::vector<ShapeId> keep = {ShapeId(ShapeKind::segment, 1), ShapeId(ShapeKind::box, 0)};
  const Scene sub = subscene(s, keep);
  REQUIRE(sub.segment_count() == 1);
  CHECK(sub.segment(0) == s.segment(1));
  CHECK(sub.circle_count() == 0);
  REQUIRE(sub.box_count() == 1);
  CHECK(sub.box(0) == s.box(0));
}

TEST_CASE("ddmin finds a 1-minimal failing subset", "[stress]") {
  // Fails while the scene holds the three segments whose x is 17, 400 and 901 (a bug that
  // needs three shapes to show); never from the suspects, which are wrong on purpose.
  Scene scene;
  for (int i = 0; i < 1000; ++i) scene.add(Segment{{static_cast<float>(i), 0}, {static_cast<float>(i), 1}});
  auto fails = [](const Scene& s) {
    int found = 0;
    for (std::uint32_t i = 0; i < s.segment_count(); ++i) {
      const float x = s.segment(i).a.x;
      found += x == 17.0f || x == 400.0f || x == 901.0f;
    }
    return found == 3;
  };
  const std::vector<ShapeId> wrong = {ShapeId(ShapeKind::segment, 5)};
  const ShrinkResult r = shrink_scene(scene, fails, wrong, 60.0);
  CHECK(r.minimal);
  REQUIRE(r.scene.segment_count() == 3);
  CHECK(r.scene.segment(0).a.x == 17.0f);
  CHECK(r.scene.segment(2).a.x == 901.0f);
  CHECK(r.kept == std::vector<ShapeId>{ShapeId(ShapeKind::segment, 17), ShapeId(ShapeKind::segment, 400),
                                       ShapeId(ShapeKind::segment, 901)});
  CHECK(r.tests < 500);  // ddmin: about k^2 log n tests for k needed shapes (here 246)
}

TEST_CASE("a planted bug shrinks to the two shapes that show it", "[stress]") {
  const Scene scene = make_scene(Layout::lattice, 5000, 11);
  SceneChecks c;
  c.tested = {best_isa(), 2, 0.0f, 0.0f};
  c.scalar = c.tested;
  c.scalar.isa = Isa::scalar;
  c.other_threads = c.tested;
  c.other_threads.threads = 1;
  c.windows = {scene.bounds()};
  // Every check compares against the exact reference too: plant the bug everywhere.
  auto fails = [&](const Scene& s) {
    return check_scene(s, c, test::drops_shared_endpoints_everywhere, library_pair_test).has_value();
  };
  const auto m = check_scene(scene, c, test::drops_shared_endpoints_everywhere, library_pair_test);
  REQUIRE(m.has_value());

  // With no suspects: ddmin alone.
  ShrinkResult r = shrink_scene(scene, fails, {}, 120.0);
  CHECK(r.minimal);
  REQUIRE(r.scene.size() == 2);
  CHECK(test::share_an_endpoint(r.scene, Pair(ShapeId(ShapeKind::segment, 0), ShapeId(ShapeKind::segment, 1))));
  CHECK(fails(r.scene));

  // With the disputed pair's shapes as suspects: done in a handful of tests.
  const Pair p = m->missing.front();
  const std::vector<ShapeId> suspects = {p.first(), p.second()};
  r = shrink_scene(scene, fails, suspects, 120.0);
  CHECK(r.minimal);
  CHECK(r.kept == suspects);
  CHECK(r.tests <= 4);
}
