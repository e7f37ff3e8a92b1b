#include <catch2/catch.hpp>

#include "hitgrid/broadphase/brute_force.hpp"
#include "support/pair_literals.hpp"

using namespace hitgrid;
using test::pair, test::S, test::C, test::B;

namespace {}  // namespace

TEST_CASE("brute force finds exactly the touching and crossing pairs of a hand-built scene", "[broadphase]") {
  Scene scene;
  scene.add(Segment{{0, 0}, {4, 4}});      // s0
  scene.add(Segment{{0, 4}, {4, 0}});      // s1: crosses s0 at (2,2)
  scene.add(Segment{{4, 4}, {6, 4}});      // s2: shares endpoint (4,4) with s0
  scene.add(Segment{{7, 4}, {9, 4}});      // s3: collinear with s2, disjoint (gap 1)
  scene.add(Segment{{10, 10}, {10, 10}});  // s4: a point, on c1's boundary
  scene.add(Circle{{2, -1}, 1});           // c0: tangent to s1? no: touches y=0 at (2,0): s0,s1 pass (0,0),(4,0) ends
  scene.add(Circle{{10, 13}, 3});          // c1: passes through s4
  scene.add(Circle{{16, 13}, 3});          // c2: tangent to c1 at (13,13)
  scene.add(Box{{6, 4}, {7, 5}});          // b0: corner (6,4) = s2's end, edge x=7 holds s3's start
  scene.add(Box{{7, 5}, {8, 6}});          // b1: touches b0 at the corner (7,5)
  scene.add(Box{{19, 12}, {20, 14}});      // b2: edge x=19 tangent to c2 at (19,13)
  scene.add(Box{{30, 30}, {31, 31}});      // b3: alone

  const PairList got = brute_force_pairs(scene);
  // c0 = disk around (2,-1) of radius 1 touches the x axis at (2,0) only; s0 and s1 meet
  // y = 0 at x = 0 and x = 4, so c0 collides with nothing.
  const PairList want = {
      pair(S, 0, S, 1), pair(S, 0, S, 2), pair(S, 2, B, 0), pair(S, 3, B, 0),
      pair(S, 4, C, 1), pair(C, 1, C, 2), pair(C, 2, B, 2), pair(B, 0, B, 1),
  };
  CHECK(got == want);
}

TEST_CASE("brute force on an empty or single-shape scene", "[broadphase]") {
  Scene scene;
  CHECK(brute_force_pairs(scene).empty());
  scene.add(Circle{{0, 0}, 1});
  CHECK(brute_force_pairs(scene).empty());
}
