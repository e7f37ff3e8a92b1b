#include <catch2/catch.hpp>

#include <vector>

#include "hitgrid/broadphase/assign_rows.hpp"
#include "hitgrid/core/error.hpp"
#include "hitgrid/core/generators.hpp"

using namespace hitgrid;

TEST_CASE("assign_rows on any thread count gives the scene of Scene::add, and its errors", "[assign_rows]") {
  const Scene expected = generate(Family::mixed, {300'000, 3});
  std::vector<float> segs, circles, boxes;
  for (std::uint32_t i = 0; i < expected.segment_count(); ++i) {
    const Segment s = expected.segment(i);
    segs.insert(segs.end(), {s.a.x, s.a.y, s.b.x, s.b.y});
  }
  for (std::uint32_t i = 0; i < expected.circle_count(); ++i) {
    const Circle c = expected.circle(i);
    circles.insert(circles.end(), {c.c.x, c.c.y, c.r});
  }
  for (std::uint32_t i = 0; i < expected.box_count(); ++i) {
    const Box b = expected.box(i);
    boxes.insert(boxes.end(), {b.min.x, b.min.y, b.max.x, b.max.y});
  }
  const ShapeRows s{segs.data(), expected.segment_count(), 4, 1}, c{circles.data(), expected.circle_count(), 3, 1},
      b{boxes.data(), expected.box_count(), 4, 1};
  for (unsigned threads : {0u, 1u, 2u, 3u}) {
    Scene scene;
    assign_rows(scene, s, c, b, threads);
    CHECK(scene == expected);
    CHECK(scene.bounds() == expected.bounds());
  }
  boxes[4 * 70'000] = 1e30f;  // minx > maxx
  Scene scene = expected;
  CHECK_THROWS_AS(assign_rows(scene, s, c, b, 2), InvalidShapeError);
  CHECK(scene == expected);
}
