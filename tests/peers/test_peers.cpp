// Every peer library compiled into hitgrid_peers (Box2D, CGAL, Bullet: bench/peers) runs
// hitgrid's exact narrow phase behind its own broad phase, so it must return exactly
// hitgrid's sorted pair list: a peer whose broad phase drops touching boxes, or reports a
// pair twice, fails here before it can make a benchmark look faster than it is.
#include <tbb/task_arena.h>

#include <catch2/catch.hpp>
#include <cfloat>
#include <stdexcept>
#include <string>

#include "hitgrid/broadphase/find_pairs.hpp"
#include "peers.hpp"
#include "support/pair_literals.hpp"
#include "support/pathological_scenes.hpp"

using namespace hitgrid;
using test::pair, test::S, test::C, test::B;

namespace {

void check_every_peer(const std::string& name, const Scene& scene) {
  const PairList want = find_pairs(scene);
  for (const peers::Peer& peer : peers::compiled_peers) {
    INFO("scene " << name << ", peer " << peer.name << ", " << scene.size() << " shapes");
    const PairList got = peer.pairs(scene);
    CHECK(got.size() == want.size());
    CHECK(got == want);
  }
#ifdef HITGRID_HAVE_CGAL
  // The default cutoff (1000) scans scenes this small directly; a small one makes CGAL's
  // segment tree itself split them.
  INFO("scene " << name << ", peer cgal with cutoff 8");
  CHECK(peers::cgal_pairs(scene, 8) == want);
  // CGAL's parallel version splits the boxes into sub-problems run on several threads:
  // each pair must still be found once.
  INFO("scene " << name << ", peer cgal with Parallel_tag on 2 threads");
  tbb::task_arena two(2);
  PairList parallel;
  two.execute([&] { parallel = peers::cgal_parallel_pairs(scene); });
  CHECK(parallel == want);
#endif
}

}  // namespace

TEST_CASE("peers return hitgrid's pair list on every family and pathological layout at 2,000 shapes", "[peers]") {
  for (const test::NamedScene& s : test::broadphase_scenes(2000)) check_every_peer(s.name, s.scene);
}

TEST_CASE("peers count touching, shared endpoints, zero-size shapes and tangent circles", "[peers]") {
  Scene scene;
  // Segments.
  scene.add(Segment{{0, 0}, {4, 0}});      // s0
  scene.add(Segment{{4, 0}, {4, 3}});      // s1: shares endpoint (4,0) with s0
  scene.add(Segment{{2, 0}, {2, 0}});      // s2: zero length, a point inside s0
  scene.add(Segment{{2, 0}, {2, 0}});      // s3: the same point again
  scene.add(Segment{{5, 0}, {9, 0}});      // s4: collinear with s0, gap 1
  scene.add(Segment{{3, 0}, {6, 0}});      // s5: collinear overlap with s0 and s4
  scene.add(Segment{{20, 20}, {20, 20}});  // s6: a point at box b2's corner
  // Circles.
  scene.add(Circle{{0, 10}, 5});   // c0: tangent to box b0 at its corner (3,14) (3-4-5)
  scene.add(Circle{{10, 10}, 5});  // c1: tangent to c0 at (5,10)
  scene.add(Circle{{4, 3}, 0});    // c2: radius 0, s1's endpoint
  scene.add(Circle{{30, 10}, 2});  // c3: tangent to box b3's edge x = 32
  // Boxes.
  scene.add(Box{{3, 14}, {4, 15}});    // b0: corner on c0
  scene.add(Box{{4, 15}, {5, 16}});    // b1: touches b0 at the corner (4,15)
  scene.add(Box{{20, 20}, {21, 21}});  // b2: corner holds s6
  scene.add(Box{{32, 0}, {33, 20}});   // b3: edge tangent to c3
  scene.add(Box{{21, 20}, {21, 25}});  // b4: zero width, on b2's edge x = 21
  scene.add(Box{{40, 40}, {40, 40}});  // b5: a point, alone

  const PairList want = {
      pair(S, 0, S, 1), pair(S, 0, S, 2), pair(S, 0, S, 3), pair(S, 0, S, 5), pair(S, 1, S, 5),
      pair(S, 1, C, 2), pair(S, 2, S, 3), pair(S, 4, S, 5), pair(S, 6, B, 2), pair(C, 0, C, 1),
      pair(C, 0, B, 0), pair(C, 3, B, 3), pair(B, 0, B, 1), pair(B, 2, B, 4),
  };
  REQUIRE(find_pairs(scene) == want);
  check_every_peer("hand-built touching cases", scene);
}

TEST_CASE("peers agree when every shape touches its neighbours on a lattice", "[peers]") {
  // A 30 x 30 grid of unit boxes sharing edges and corners, a circle of radius 0.5 in
  // every cell (tangent to the four walls), and a zero-length segment at every lattice
  // point: every contact is a touch, none is a crossing.
  Scene scene;
  for (int y = 0; y < 30; ++y)
    for (int x = 0; x < 30; ++x) {
      const auto fx = static_cast<float>(x), fy = static_cast<float>(y);
      scene.add(Box{{fx, fy}, {fx + 1, fy + 1}});
      scene.add(Circle{{fx + 0.5f, fy + 0.5f}, 0.5f});
      scene.add(Segment{{fx, fy}, {fx, fy}});
    }
  check_every_peer("touching lattice", scene);
}

#ifdef HITGRID_HAVE_CGAL
TEST_CASE("cgal_pairs refuses bounds on CGAL's sentinels instead of answering wrongly", "[peers]") {
  Scene scene;
  scene.add(Box{{-FLT_MAX, 0}, {0, 1}});
  scene.add(Box{{-1, 0}, {1, 1}});
  CHECK_THROWS_AS(peers::cgal_pairs(scene), std::domain_error);
}
#endif
