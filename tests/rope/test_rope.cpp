// The rope: the hand-built cases of docs/rope.md, then properties on random peg fields and
// paths (plain, near 1e6, integer lattices full of collinear pegs), every check made with
// the independent GMP predicates of tests/support/exact_reference.hpp.
#include "hitgrid/rope/rope.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <sstream>
#include <vector>

#include "hitgrid/core/error.hpp"
#include "hitgrid/core/splitmix64.hpp"
#include "support/exact_reference.hpp"

namespace hitgrid {
namespace {

struct Wrap {
  std::uint32_t peg;
  int side;
  std::uint32_t half_turns;
  friend bool operator==(const Wrap&, const Wrap&) = default;
};

std::ostream& operator<<(std::ostream& os, const Wrap& w) {
  return os << "{peg " << w.peg << ", side " << w.side << ", half_turns " << w.half_turns << "}";
}

std::string text(const std::vector<Vec2>& pts) {
  std::ostringstream os;
  for (Vec2 v : pts) os << '(' << v.x << ", " << v.y << ") ";
  return os.str();
}

std::vector<Wrap> wraps(const Rope& rope) {
  std::vector<Wrap> out;
  for (std::size_t i = 1; i < rope.nodes().size(); ++i) {
    const RopeNode& n = rope.nodes()[i];
    out.push_back({n.peg, n.side, n.half_turns});
  }
  return out;
}

// The wraps without the last nodes the rope merely lies along: nodes on the straight
// stretch from the node before them to the end (the end itself included). The one place
// where the way out and the way back, or one move and its ten parts, can differ
// (docs/rope.md, "What holds"): a swing that arrives at that line hooks them, a straight
// pull along it does not.
std::vector<Wrap> wraps_up_to_straight_end(const Rope& rope) {
  std::vector<Wrap> w = wraps(rope);
  std::vector<Vec2> p = rope.points();
  while (!w.empty()) {
    const std::size_t i = p.size() - 2;  // the last node
    const Vec2 prev = p[i - 1], node = p[i], end = p.back();
    if (prev == node) break;
    if (reference::orient2d(prev, node, end) != 0 || reference::dot_sign(node, prev, end) > 0) break;
    w.pop_back();
    p.erase(p.begin() + static_cast<std::ptrdiff_t>(i));
  }
  return w;
}

// ---- exact checks (GMP) -------------------------------------------------------------

bool strictly_between(Vec2 y, Vec2 a, Vec2 b) {
  return reference::orient2d(a, b, y) == 0 && reference::dot_sign(y, a, b) < 0;
}

bool in_closed_triangle(Vec2 y, Vec2 a, Vec2 b, Vec2 c) {
  const int o = reference::orient2d(a, b, c);
  if (o == 0) return false;  // callers only ask for proper triangles
  return o * reference::orient2d(a, b, y) >= 0 && o * reference::orient2d(b, c, y) >= 0 &&
         o * reference::orient2d(c, a, y) >= 0;
}

bool on_closed_segment(Vec2 y, Vec2 a, Vec2 b) {
  return reference::orient2d(a, b, y) == 0 && reference::dot_sign(y, a, b) <= 0;
}

// Every node's stored side and half-turn count agree with the rope's turn there: the
// turn's sign read in the node's sense is + in an even half turn, - in an odd one, and on
// the line the direction (forwards or back) tells which.
void check_sides(const Rope& rope) {
  const std::vector<Vec2> p = rope.points();
  for (std::size_t i = 1; i + 1 < p.size(); ++i) {
    const RopeNode& n = rope.nodes()[i];
    INFO("node " << i << " peg " << n.peg);
    REQUIRE((n.side == 1 || n.side == -1));
    if (p[i - 1] == p[i] || p[i + 1] == p[i]) continue;  // an end on the node: no turn to read
    const int turn = n.side * reference::orient2d(p[i - 1], p[i], p[i + 1]);
    const int parity = n.half_turns % 2;
    if (turn != 0) {
      REQUIRE((turn > 0 ? 0 : 1) == parity);
    } else {
      // straight on (dot > 0) is an even half turn, doubled back an odd one
      const int forwards = -reference::dot_sign(p[i], p[i - 1], p[i + 1]);
      REQUIRE((forwards > 0 ? 0 : 1) == parity);
    }
  }
}

// No peg lies strictly inside a rope segment, except on the last one when the last move
// ran along it (from `from`: a move along the segment's own line sweeps nothing).
void check_no_peg_inside(const Rope& rope, Vec2 from) {
  const std::vector<Vec2> p = rope.points();
  for (std::size_t s = 1; s < p.size(); ++s) {
    const bool last = s + 1 == p.size();
    if (last && reference::orient2d(p[s - 1], from, p[s]) == 0) continue;
    for (std::uint32_t k = 0; k < rope.peg_count(); ++k) {
      INFO("segment " << s - 1 << " peg " << k);
      REQUIRE_FALSE(strictly_between(rope.peg(k), p[s - 1], p[s]));
    }
  }
}

// A move that changed no node swept its triangle without meeting a peg (the rope's
// position before the move excluded: it is where the rope was).
void check_nothing_skipped(const Rope& before, const Rope& after) {
  if (before.nodes().size() != after.nodes().size()) return;
  for (std::size_t i = 0; i < before.nodes().size(); ++i)
    if (before.nodes()[i].peg != after.nodes()[i].peg) return;
  const Vec2 c = before.nodes().back().position, p = before.end(), q = after.end();
  if (p == c || reference::orient2d(c, p, q) == 0) return;
  for (std::uint32_t k = 0; k < before.peg_count(); ++k) {
    const Vec2 y = before.peg(k);
    if (y == c || on_closed_segment(y, c, p)) continue;
    INFO("peg " << k << " in the swept triangle of a move that caught nothing");
    REQUIRE_FALSE(in_closed_triangle(y, c, p, q));
  }
}

// ---- hand-built cases ---------------------------------------------------------------

TEST_CASE("rope: one peg caught from either side, and released when swinging back", "[rope]") {
  const std::vector<Vec2> pegs = {{0, 0}};
  Rope a({-10, 0}, pegs);
  a.move_end({10, 1});
  CHECK(wraps(a).empty());
  a.move_end({10, -1});  // clockwise sweep over the peg
  CHECK(wraps(a) == std::vector<Wrap>{{0, -1, 0}});
  a.move_end({10, 1});  // back: the rope straightens past the peg's line and lets go
  CHECK(wraps(a).empty());

  Rope b({-10, 0}, pegs);
  b.move_end({10, -1});
  b.move_end({10, 1});  // counterclockwise
  CHECK(wraps(b) == std::vector<Wrap>{{0, 1, 0}});
  CHECK(b.points() == std::vector<Vec2>{{-10, 0}, {0, 0}, {10, 1}});
}

TEST_CASE("rope: several pegs met in one large move are caught in sweep order, and unwrap in reverse", "[rope]") {
  // From the start the sweep meets A first (smallest angle), then goes on around A to B,
  // then C. D is nearer the start but at a larger angle: the rope pivots at A before it
  // gets there, so D is never touched (catching every peg of the big triangle would).
  const std::vector<Vec2> pegs = {{5, 5} /*C*/, {0.5f, 2} /*D*/, {6, 3} /*B*/, {4, 1} /*A*/};
  Rope rope({0, 0}, pegs);
  rope.move_end({10, 0});
  rope.move_end({0, 12});
  CHECK(wraps(rope) == std::vector<Wrap>{{3, 1, 0}, {2, 1, 0}, {0, 1, 0}});
  check_sides(rope);
  rope.move_end({10, 0});
  CHECK(wraps(rope).empty());
}

TEST_CASE("rope: pegs exactly on the rope's line", "[rope]") {
  const std::vector<Vec2> pegs = {{8, 0}, {5, 0}};
  SECTION("the rope arriving on them hooks them, nearest first, and keeps them while lying straight") {
    Rope rope({0, 0}, pegs);
    rope.move_end({10, 5});
    rope.move_end({10, 0});  // the final position lies along both pegs: caught (closed)
    CHECK(wraps(rope) == std::vector<Wrap>{{1, -1, 0}, {0, -1, 0}});
    for (int i = 0; i < 5; ++i) {  // no jitter: along the line and back changes nothing
      rope.move_end({12, 0});
      rope.move_end({10, 0});
      CHECK(wraps(rope) == std::vector<Wrap>{{1, -1, 0}, {0, -1, 0}});
    }
    rope.move_end({10, -5});  // going on: still wrapped, now turning
    CHECK(wraps(rope) == std::vector<Wrap>{{1, -1, 0}, {0, -1, 0}});
    check_sides(rope);
    rope.move_end({10, 5});  // back across the line: both let go
    CHECK(wraps(rope).empty());
  }
  SECTION("a rope already lying along them when it starts to swing leaves them") {
    Rope rope({0, 0}, pegs);
    rope.move_end({10, 0});  // from the start along the line: sweeps nothing
    CHECK(wraps(rope).empty());
    rope.move_end({10, 5});
    CHECK(wraps(rope).empty());
  }
  SECTION("the end passing exactly over a peg hooks it") {
    Rope rope({0, 0}, pegs);
    rope.move_end({5, 5});
    rope.move_end({5, -5});  // through (5, 0)
    CHECK(wraps(rope) == std::vector<Wrap>{{1, -1, 0}});
    CHECK(rope.points() == std::vector<Vec2>{{0, 0}, {5, 0}, {5, -5}});
    rope.move_end({5, 5});  // and back: unhooked
    CHECK(wraps(rope).empty());
  }
}

TEST_CASE("rope: a full turn around one peg and back keeps its anchor", "[rope]") {
  const std::vector<Vec2> pegs = {{0, 0}};
  Rope rope({-10, 0}, pegs);
  const std::vector<std::pair<Vec2, std::vector<Wrap>>> steps = {
      {{10, 1}, {}},
      {{10, -1}, {{0, -1, 0}}},
      {{0, -10}, {{0, -1, 0}}},
      {{-10, -1}, {{0, -1, 0}}},
      {{-10, 1}, {{0, -1, 1}}},  // past half a turn: the turn's sign flipped, the peg stays
      {{0, 10}, {{0, -1, 1}}},
      {{10, 1}, {{0, -1, 1}}},
      {{10, -1}, {{0, -1, 2}}},  // a full turn
      {{0, -10}, {{0, -1, 2}}},
      {{10, -1}, {{0, -1, 2}}},
      {{10, 1}, {{0, -1, 1}}},  // and back
      {{0, 10}, {{0, -1, 1}}},
      {{-10, 1}, {{0, -1, 1}}},
      {{-10, -1}, {{0, -1, 0}}},
      {{0, -10}, {{0, -1, 0}}},
      {{10, -1}, {{0, -1, 0}}},
      {{10, 1}, {}},
  };
  for (const auto& [to, expected] : steps) {
    INFO("end to " << to.x << ", " << to.y);
    rope.move_end(to);
    CHECK(wraps(rope) == expected);
    check_sides(rope);
  }
}

TEST_CASE("rope: the start moves by the same rules", "[rope]") {
  const std::vector<Vec2> pegs = {{0, 0}};
  Rope rope({-10, 1}, pegs);
  rope.move_end({10, 0});
  rope.move_start({-10, -1});  // the start swings over the peg
  CHECK(wraps(rope) == std::vector<Wrap>{{0, -1, 0}});
  check_sides(rope);
  rope.move_start({-10, 1});
  CHECK(wraps(rope).empty());
}

TEST_CASE("rope: pegs from a scene, peg moves, refused input", "[rope]") {
  Scene scene;
  scene.add(Segment{{0, 0}, {1, 0}});
  scene.add(Circle{{5, 5}, 0});
  scene.add(Box{{2, 2}, {3, 4}});
  const ScenePegs sp = pegs_of(scene);
  CHECK(sp.points == std::vector<Vec2>{{0, 0}, {1, 0}, {5, 5}, {2, 2}, {3, 2}, {3, 4}, {2, 4}});
  CHECK(sp.source[6] == ShapeId(ShapeKind::box, 0));

  Scene bad;
  bad.add(Circle{{0, 0}, 1});
  CHECK_THROWS_WITH(pegs_of(bad), Catch::Contains("circle 0"));

  Rope rope({-10, 0}, std::vector<Vec2>{{0, 0}, {0, 5}});
  rope.move_end({10, 1});
  CHECK_THROWS_WITH(rope.move_end({NAN, 0}), Catch::Contains("not a finite point"));
  CHECK_THROWS_WITH(rope.move_peg(7, {0, 0}), Catch::Contains("no such peg"));
  CHECK_THROWS_WITH(rope.move_peg(1, {0, -5}), Catch::Contains("passes over peg 0 at (0, 0)"));
  CHECK(rope.peg(1) == Vec2{0, 5});
  rope.move_peg(1, {20, 5});
  rope.move_end({10, -1});
  CHECK(wraps(rope) == std::vector<Wrap>{{0, -1, 0}});
  rope.move_peg(0, {0, 1});  // wrapped: the rope moves with it
  CHECK(wraps(rope) == std::vector<Wrap>{{0, -1, 0}});
  CHECK(rope.nodes()[1].position == Vec2{0, 1});
  // A moved peg is found by later sweeps (it is no longer where the grid has it).
  rope.move_peg(1, {15, -12});
  rope.move_end({20, -20});
  CHECK(wraps(rope) == std::vector<Wrap>{{0, -1, 0}, {1, -1, 0}});
}

TEST_CASE("rope: a peg pushed through the rope catches it, and lets go when pulled back", "[rope]") {
  // The rope lies along y = 0; peg 0 crosses it downwards. Pegs 1 and 2 lie in what the
  // two bent segments sweep on either side of it.
  Rope rope({0, 0}, std::vector<Vec2>{{5, 2}, {3, -1}, {8, -1}});
  rope.move_end({10, 0});
  REQUIRE(wraps(rope).empty());
  rope.move_peg(0, {5, -4});
  // The rope bends around peg 0 (a left turn: the peg came from the left of the rope's
  // direction) and each of its two segments catches the peg it swept, turning right.
  CHECK(wraps(rope) == std::vector<Wrap>{{1, -1, 0}, {0, 1, 0}, {2, -1, 0}});
  CHECK(rope.points() == std::vector<Vec2>{{0, 0}, {3, -1}, {5, -4}, {8, -1}, {10, 0}});
  check_sides(rope);
  // Back the same way: everything lets go, in the reverse order.
  rope.move_peg(0, {5, 2});
  CHECK(wraps(rope).empty());
  CHECK(rope.peg(0) == Vec2{5, 2});

  // Ending exactly on the rope catches it ("collinear counts as hooked"), with a zero turn;
  // going on winds it, going back releases it.
  rope.move_peg(0, {5, 0});
  CHECK(wraps(rope) == std::vector<Wrap>{{0, 1, 0}});
  rope.move_peg(0, {5, -0.5f});
  CHECK(wraps(rope) == std::vector<Wrap>{{0, 1, 0}});
  rope.move_peg(0, {6, 1});
  CHECK(wraps(rope).empty());
}

TEST_CASE("rope: a wrapped peg moves with the rope, split at it, and is released when it unwinds", "[rope]") {
  Rope rope({-10, 0}, std::vector<Vec2>{{0, 0}, {4, -1}, {-4, -1}});
  rope.move_end({10, 1});
  rope.move_end({10, -3});
  REQUIRE(wraps(rope) == std::vector<Wrap>{{0, -1, 0}, {1, -1, 0}});
  // Up: the segment from peg 1 to peg 0 swings until peg 1's turn changes sign, and peg
  // 1 is let go; the end's segment then follows peg 0.
  rope.move_peg(0, {0, 3});
  CHECK(wraps(rope) == std::vector<Wrap>{{0, -1, 0}});
  CHECK(rope.points() == std::vector<Vec2>{{-10, 0}, {0, 3}, {10, -3}});
  // Down: the end's segment catches peg 1 first (its line meets the path at y = 1/3);
  // then the rope at peg 0 straightens (on the line from the start to peg 1, y = -5/7)
  // and peg 0 is let go, before the start's segment reaches peg 2 (at y = -5/3): the
  // rope no longer moves.
  rope.move_peg(0, {0, -6});
  CHECK(wraps(rope) == std::vector<Wrap>{{1, -1, 0}});
  check_sides(rope);
  // Back up: peg 0, free, catches the rope at y = -5/7 and pushes it back to where it was.
  rope.move_peg(0, {0, 0});
  CHECK(wraps(rope) == std::vector<Wrap>{{0, -1, 0}, {1, -1, 0}});
  check_sides(rope);
}

TEST_CASE("rope: moving a wound peg keeps the winding", "[rope]") {
  // The end goes more than half a turn (clockwise) around peg 0: k = 1.
  Rope rope({-10, 0}, std::vector<Vec2>{{0, 0}});
  for (Vec2 p : {Vec2{10, 1}, Vec2{10, -1}, Vec2{0, -10}, Vec2{-10, -1}, Vec2{-8, 2}}) rope.move_end(p);
  REQUIRE(wraps(rope) == std::vector<Wrap>{{0, -1, 1}});
  // Down: the turn grows; the peg never crosses the line through the start and the end.
  rope.move_peg(0, {0, -3});
  CHECK(wraps(rope) == std::vector<Wrap>{{0, -1, 1}});
  check_sides(rope);
  // Up past that line (at y = 10, both the start and the end on one side: the rope is
  // exactly doubled back there): the winding drops below half a turn, the anchor stays.
  rope.move_peg(0, {0, 12});
  CHECK(wraps(rope) == std::vector<Wrap>{{0, -1, 0}});
  check_sides(rope);
  // And back down: past half a turn again.
  rope.move_peg(0, {0, -3});
  CHECK(wraps(rope) == std::vector<Wrap>{{0, -1, 1}});
}

TEST_CASE("rope: refused peg moves leave the rope as it was", "[rope]") {
  // Two pegs with the rope wound twice around the pair: peg 0 is wrapped twice.
  Rope rope({-5, 1}, std::vector<Vec2>{{0, 0}, {1, 0}, {20, 20}, {-3, 5}});
  for (Vec2 p : {Vec2{5, 1}, Vec2{5, -1}, Vec2{-5, -1}, Vec2{-5, 1.5f}, Vec2{5, 2}, Vec2{5, -2}, Vec2{-5, -2}, Vec2{-5, 2}})
    rope.move_end(p);
  REQUIRE(wraps(rope) == std::vector<Wrap>{{1, -1, 0}, {0, -1, 1}, {1, -1, 1}, {0, -1, 0}});
  const Rope before = rope;
  const auto unchanged = [&] {
    CHECK(wraps(rope) == wraps(before));
    CHECK(rope.points() == before.points());
    for (std::uint32_t i = 0; i < rope.peg_count(); ++i) CHECK(rope.peg(i) == before.peg(i));
  };
  CHECK_THROWS_WITH(rope.move_peg(0, {0, -0.5f}), Catch::Contains("peg 0 is wrapped 2 times"));
  unchanged();
  CHECK_THROWS_WITH(rope.move_peg(2, {-30, -18}), Catch::Contains("passes over the rope's start"));
  CHECK_THROWS_WITH(rope.move_peg(2, {-30, -16}), Catch::Contains("passes over the rope's end"));
  CHECK_THROWS_WITH(rope.move_peg(3, {-3, -5}), Catch::Contains("meets the rope's segment 0 and the rope's segment 4"));
  CHECK_THROWS_WITH(rope.move_peg(3, {NAN, 0}), Catch::Contains("not a finite point"));
  CHECK_THROWS_WITH(rope.move_peg(4, {0, 0}), Catch::Contains("no such peg"));
  unchanged();

  // A wrapped peg may push only the two segments at it.
  Rope r2({0, 0}, std::vector<Vec2>{{5, 2}, {3, -1}, {8, -1}});
  r2.move_end({10, 0});
  r2.move_peg(0, {5, -4});
  REQUIRE(wraps(r2) == std::vector<Wrap>{{1, -1, 0}, {0, 1, 0}, {2, -1, 0}});
  CHECK_THROWS_WITH(r2.move_peg(0, {1, 0}), Catch::Contains("meets the rope's segment 0: a wrapped peg may push only"));
  CHECK(r2.peg(0) == Vec2{5, -4});
}

TEST_CASE("rope: a peg lying on the rope catches it when it leaves the line, not when it slides along", "[rope]") {
  Rope rope({0, 0}, std::vector<Vec2>{{5, 0}});
  rope.move_end({10, 0});  // along the line: the peg now lies on the rope, not wrapped
  REQUIRE(wraps(rope).empty());
  Rope slid = rope;
  slid.move_peg(0, {6, 0});
  CHECK(wraps(slid).empty());
  rope.move_peg(0, {5, -1});
  CHECK(wraps(rope) == std::vector<Wrap>{{0, 1, 0}});
  check_sides(rope);
}

TEST_CASE("rope: length is within its stated bound", "[rope]") {
  SplitMix64 rng(7);
  const auto coord = [&] { return static_cast<float>((rng.u() - 0.5) * 2e6); };
  std::vector<Vec2> pegs;
  for (int i = 0; i < 200; ++i) pegs.push_back({coord(), coord()});
  Rope rope({0, 0}, pegs);
  for (int m = 0; m < 200; ++m) {
    rope.move_end({coord(), coord()});
    const std::vector<Vec2> p = rope.points();
    long double exact = 0;
    for (std::size_t i = 1; i < p.size(); ++i)
      exact += std::hypot(static_cast<long double>(p[i].x) - p[i - 1].x, static_cast<long double>(p[i].y) - p[i - 1].y);
    const long double bound = (static_cast<long double>(p.size() - 1) + 3) * std::ldexp(1.0L, -52) * exact;
    REQUIRE(std::fabs(static_cast<long double>(rope.length()) - exact) <= bound + std::ldexp(exact, -60));
  }
}

// ---- properties ---------------------------------------------------------------------

struct Field {
  std::vector<Vec2> pegs;
  Vec2 start;
  std::vector<Vec2> path;
};

// Pegs and path points on grids fine enough to be degenerate often and coarse enough that
// a tenth of every path step is still exactly representable.
Field random_field(std::uint64_t seed, double origin, double extent, double peg_step, double path_step, int pegs,
                   int moves, bool lattice) {
  SplitMix64 rng(seed);
  const auto on = [&](double step) {
    const auto k = static_cast<std::int64_t>(rng.u() * extent / step);
    return static_cast<float>(origin + static_cast<double>(k) * step);
  };
  Field f;
  if (lattice) {
    for (double x = 0; x <= extent; x += peg_step)
      for (double y = 0; y <= extent; y += peg_step)
        if (rng.u() < 0.3) f.pegs.push_back({static_cast<float>(origin + x), static_cast<float>(origin + y)});
  } else {
    for (int i = 0; i < pegs; ++i) f.pegs.push_back({on(peg_step), on(peg_step)});
  }
  f.start = {on(path_step), on(path_step)};
  Vec2 at = f.start;
  for (int i = 0; i < moves; ++i) {
    // Short steps most of the time (the rope wraps and unwraps often), now and then a
    // long swing across the field.
    const double reach = rng.u() < 0.1 ? extent : extent / 8;
    const auto step = [&](float from) {
      const double d = (rng.u() * 2 - 1) * reach;
      double v = from + std::round(d / path_step) * path_step;
      v = std::clamp(v, origin, origin + extent);
      return static_cast<float>(origin + std::round((v - origin) / path_step) * path_step);
    };
    at = {step(at.x), step(at.y)};
    f.path.push_back(at);
  }
  return f;
}


// Follows the path, checking the invariants after every move; returns the wraps after
// each path point.
std::vector<std::vector<Wrap>> follow(Rope& rope, const std::vector<Vec2>& path, bool check) {
  std::vector<std::vector<Wrap>> states;
  for (Vec2 to : path) {
    const Rope before = rope;
    rope.move_end(to);
    if (check) {
      check_sides(rope);
      check_no_peg_inside(rope, before.end());
      check_nothing_skipped(before, rope);
    }
    states.push_back(wraps_up_to_straight_end(rope));
  }
  return states;
}

void check_properties(const Field& f) {
  Rope rope(f.start, f.pegs);
  const std::vector<std::vector<Wrap>> forward = follow(rope, f.path, true);

  // Back along the same path: at every point, the rope it had there on the way out.
  for (std::size_t i = f.path.size() - 1; i-- > 0;) {
    INFO("back at path point " << i);
    rope.move_end(f.path[i]);
    check_sides(rope);
    REQUIRE(wraps_up_to_straight_end(rope) == forward[i]);
  }
  rope.move_end(f.start);

  // Every move cut into ten: the same rope after each original move.
  Rope fine(f.start, f.pegs);
  Vec2 at = f.start;
  for (std::size_t i = 0; i < f.path.size(); ++i) {
    const Vec2 to = f.path[i];
    for (int k = 1; k <= 10; ++k) {
      const Vec2 q{static_cast<float>(at.x + (static_cast<double>(to.x) - at.x) * k / 10),
                   static_cast<float>(at.y + (static_cast<double>(to.y) - at.y) * k / 10)};
      // The grids are chosen so that the tenths are exact: the smaller moves follow the
      // very same straight path.
      REQUIRE(reference::orient2d(at, to, q) == 0);
      fine.move_end(q);
    }
    at = to;
    INFO("path point " << i);
    REQUIRE(wraps_up_to_straight_end(fine) == forward[i]);
  }
}

// Peg moves between the end's moves: after every move the invariants hold; a refused move
// changes nothing; an accepted one gives the same rope when cut into ten and is undone by
// the move back. Half the moves are of pegs the rope wraps. Returns how many were
// accepted and how many of those changed which pegs the rope wraps.
struct PegMoveCounts {
  int accepted = 0, refused = 0, rewrapped = 0;
};

bool same_rope(const Rope& a, const Rope& b) {
  if (wraps(a) != wraps(b) || a.points() != b.points()) return false;
  for (std::uint32_t i = 0; i < a.peg_count(); ++i)
    if (!(a.peg(i) == b.peg(i))) return false;
  return true;
}

PegMoveCounts check_peg_moves(const Field& f, std::uint64_t seed, double reach, double path_step) {
  SplitMix64 rng(seed);
  Rope rope(f.start, f.pegs);
  PegMoveCounts counts;
  for (Vec2 to : f.path) {
    const Vec2 end_from = rope.end();
    rope.move_end(to);
    for (int m = 0; m < 2; ++m) {
      const std::size_t wrapped = rope.nodes().size() - 1;
      const std::uint32_t peg = m == 0 && wrapped > 0
                                    ? rope.nodes()[1 + static_cast<std::size_t>(rng.u() * static_cast<double>(wrapped))].peg
                                    : static_cast<std::uint32_t>(rng.u() * static_cast<double>(rope.peg_count()));
      const Vec2 from = rope.peg(peg);
      const auto step = [&](float v) { return static_cast<float>(v + std::round((rng.u() * 2 - 1) * reach / path_step) * path_step); };
      const Vec2 dest{step(from.x), step(from.y)};
      const Rope before = rope;
      INFO("peg " << peg << " from (" << from.x << ", " << from.y << ") to (" << dest.x << ", " << dest.y << ")");
      try {
        rope.move_peg(peg, dest);
      } catch (const Error&) {
        ++counts.refused;
        REQUIRE(same_rope(rope, before));
        continue;
      }
      ++counts.accepted;
      std::vector<std::uint32_t> pegs_before, pegs_after;
      for (const Wrap& w : wraps(before)) pegs_before.push_back(w.peg);
      for (const Wrap& w : wraps(rope)) pegs_after.push_back(w.peg);
      if (pegs_before != pegs_after) ++counts.rewrapped;
      check_sides(rope);
      check_no_peg_inside(rope, end_from);

      Rope fine = before;
      for (int k = 1; k <= 10; ++k) {
        const Vec2 q{static_cast<float>(from.x + (static_cast<double>(dest.x) - from.x) * k / 10),
                     static_cast<float>(from.y + (static_cast<double>(dest.y) - from.y) * k / 10)};
        REQUIRE(reference::orient2d(from, dest, q) == 0);
        INFO("tenth " << k);
        REQUIRE_NOTHROW(fine.move_peg(peg, q));
      }
      REQUIRE(wraps(fine) == wraps(rope));
      REQUIRE(same_rope(fine, rope));

      Rope back = rope;
      REQUIRE_NOTHROW(back.move_peg(peg, from));
      INFO("before " << text(before.points()) << "\nafter " << text(rope.points()) << "\nback " << text(back.points()));
      // Up to the pegs the rope lay along at its end (a straight pull leaves them
      // unhooked; the rope swinging back onto them hooks them, as for the end's moves).
      REQUIRE(wraps_up_to_straight_end(back) == wraps_up_to_straight_end(before));
      for (std::uint32_t i = 0; i < rope.peg_count(); ++i) REQUIRE(back.peg(i) == before.peg(i));
    }
  }
  return counts;
}

TEST_CASE("rope peg moves: invariants, cut into ten, undone by the move back", "[rope]") {
  struct Case {
    const char* name;
    double origin, extent, peg_step, path_step;
    int pegs;
    bool lattice;
  };
  const Case cases[] = {{"random field", 0.0, 100.0, 0.0625, 0.625, 150, false},
                        {"near 1e6", 1e6, 60.0, 0.0625, 0.625, 150, false},
                        {"integer lattice", 0.0, 24.0, 1.0, 1.25, 0, true}};
  for (const Case& c : cases) {
    PegMoveCounts total;
    for (std::uint64_t seed = 61; seed <= 68; ++seed) {
      INFO(c.name << " seed " << seed);
      const Field f = random_field(seed, c.origin, c.extent, c.peg_step, c.path_step, c.pegs, 60, c.lattice);
      const PegMoveCounts n = check_peg_moves(f, seed, c.extent / 10, c.path_step);
      total.accepted += n.accepted;
      total.refused += n.refused;
      total.rewrapped += n.rewrapped;
    }
    INFO(c.name << ": " << total.accepted << " accepted, " << total.refused << " refused, " << total.rewrapped
                << " changed the wrapped pegs");
    // The fields exercise what they are meant to: most moves taken (on the lattices a
    // third are refused, mostly for passing exactly over a peg), many of them catching
    // or releasing.
    CHECK(total.accepted > 2 * total.refused);
    CHECK(total.rewrapped > total.accepted / 10);
  }
}

TEST_CASE("rope properties on random peg fields", "[rope]") {
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    INFO("seed " << seed);
    check_properties(random_field(seed, 0.0, 100.0, 0.0625, 0.625, 150, 120, false));
  }
}

TEST_CASE("rope properties near 1e6", "[rope]") {
  // Floats near 1e6 are 1/16 apart: pegs and tenths of path steps on that grid.
  for (std::uint64_t seed = 21; seed <= 28; ++seed) {
    INFO("seed " << seed);
    check_properties(random_field(seed, 1e6, 60.0, 0.0625, 0.625, 150, 120, false));
  }
}

TEST_CASE("rope properties on integer lattices (every peg collinear with many)", "[rope]") {
  for (std::uint64_t seed = 41; seed <= 50; ++seed) {
    INFO("seed " << seed);
    check_properties(random_field(seed, 0.0, 24.0, 1.0, 1.25, 0, 100, true));
  }
}

}  // namespace
}  // namespace hitgrid
