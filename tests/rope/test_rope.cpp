// The rope: the hand-built cases of docs/rope.md, then properties on random peg fields and
// paths (plain, near 1e6, integer lattices full of collinear pegs), every check made with
// the independent GMP predicates of tests/support/exact_reference.hpp.
#include <catch2/catch.hpp>
#include <cmath>
#include <sstream>
#include <vector>

#include "hitgrid/core/error.hpp"
#include "hitgrid/core/splitmix64.hpp"
#include "hitgrid/rope/rope.hpp"
#include "support/exact_reference.hpp"
#include "support/sanitizer_builds.hpp"
#include "support/tangent_reference.hpp"

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

bool same_rope(const Rope& a, const Rope& b) {
  if (wraps(a) != wraps(b) || a.points() != b.points()) return false;
  for (std::uint32_t i = 0; i < a.peg_count(); ++i)
    if (!(a.peg(i) == b.peg(i))) return false;
  return true;
}

// The rope as the circles it runs around: the start, every node (its peg's circle, radius
// 0 for a point) with its side, and the end.
struct Knot {
  Circle circle;
  int side;
};
std::vector<Knot> knots_of(const Rope& rope) {
  std::vector<Knot> k;
  for (const RopeNode& n : rope.nodes())
    k.push_back({{n.position, n.peg == RopeNode::no_peg ? 0.0f : rope.peg_radius(n.peg)}, n.side});
  k.push_back({{rope.end(), 0.0f}, 0});
  return k;
}

// The line of the stretch from knot i to knot i + 1.
TangentLine stretch_line(const std::vector<Knot>& k, std::size_t i) {
  return {k[i].circle, k[i].side, k[i + 1].circle, k[i + 1].side};
}

// How the rope turns at knot i, read in its sense: the sign of side * cross(in, out), and
// the sign of dot(in, out); with GMP, exactly around points, from the tangent lines'
// definition (tests/support/tangent_reference.hpp) around circles.
std::pair<int, int> turn_at(const std::vector<Knot>& k, std::size_t i) {
  const int side = k[i].side;
  // An end on a point node: no direction out (or in), nothing turns.
  if (k[i - 1].circle.c == k[i].circle.c || k[i + 1].circle.c == k[i].circle.c) return {0, 0};
  if (k[i - 1].circle.r == 0.0f && k[i].circle.r == 0.0f && k[i + 1].circle.r == 0.0f) {
    const Vec2 a = k[i - 1].circle.c, b = k[i].circle.c, c = k[i + 1].circle.c;
    return {side * reference::orient2d(a, b, c), -reference::dot_sign(b, a, c)};
  }
  const reference::TangentRef in(stretch_line(k, i - 1)), out(stretch_line(k, i));
  return {side * reference::sign_of_value(in.dx() * out.dy() - in.dy() * out.dx()),
          reference::sign_of_value(in.dx() * out.dx() + in.dy() * out.dy())};
}

// The wraps without the last nodes the rope merely lies along: nodes on the straight
// stretch from the node before them to the end (the end itself included). The one place
// where the way out and the way back, or one move and its ten parts, can differ
// (docs/rope.md, "What holds"): a swing that arrives at that line hooks them, a straight
// pull along it does not.
std::vector<Wrap> wraps_up_to_straight_end(const Rope& rope) {
  std::vector<Wrap> w = wraps(rope);
  std::vector<Knot> k = knots_of(rope);
  while (!w.empty()) {
    const std::size_t i = k.size() - 2;  // the last node
    if (k[i - 1].circle.c == k[i].circle.c) break;
    const auto [turn, dot] = turn_at(k, i);  // (an end on a point node: turn 0, dot 0)
    if (turn != 0 || dot < 0) break;
    w.pop_back();
    k.erase(k.begin() + static_cast<std::ptrdiff_t>(i));
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
  const std::vector<Knot> k = knots_of(rope);
  for (std::size_t i = 1; i + 1 < k.size(); ++i) {
    const RopeNode& n = rope.nodes()[i];
    INFO("node " << i << " peg " << n.peg);
    REQUIRE((n.side == 1 || n.side == -1));
    if (k[i - 1].circle.c == k[i].circle.c || k[i + 1].circle.c == k[i].circle.c) continue;  // an end on the node
    const auto [turn, dot] = turn_at(k, i);
    const int parity = n.half_turns % 2;
    // straight on (dot > 0) is an even half turn, doubled back an odd one
    if (turn != 0)
      REQUIRE((turn > 0 ? 0 : 1) == parity);
    else
      REQUIRE((dot > 0 ? 0 : 1) == parity);
  }
}

// The squared distance from c to the segment a b, and where along it the nearest point is
// (0..1), in GMP floats.
std::pair<mpf_class, mpf_class> distance2_to_segment(const mpf_class& ax, const mpf_class& ay, const mpf_class& bx,
                                                     const mpf_class& by, Vec2 c) {
  const mpf_class cx = reference::wide(c.x), cy = reference::wide(c.y);
  const mpf_class dx = bx - ax, dy = by - ay;
  const mpf_class len2 = dx * dx + dy * dy;
  mpf_class u = ((cx - ax) * dx + (cy - ay) * dy) / len2;
  if (u < 0) u = 0;
  if (u > 1) u = 1;
  const mpf_class ex = ax + u * dx - cx, ey = ay + u * dy - cy;
  return {ex * ex + ey * ey, u};
}

// No peg lies strictly inside a rope segment (no circle peg's interior meets one), except
// on the last one when the last move ran along it (from `from`: a move along the
// segment's own line sweeps nothing).
void check_no_peg_inside(const Rope& rope, Vec2 from) {
  const std::vector<Knot> k = knots_of(rope);
  for (std::size_t s = 0; s + 1 < k.size(); ++s) {
    const bool last = s + 2 == k.size();
    const TangentLine line = stretch_line(k, s);
    if (line.a.r == 0.0f && line.b.r == 0.0f) {
      const Vec2 a = line.a.c, b = line.b.c;
      if (last && reference::orient2d(a, from, b) == 0) continue;
      for (std::uint32_t j = 0; j < rope.peg_count(); ++j) {
        INFO("segment " << s << " peg " << j);
        const float r = rope.peg_radius(j);
        if (r == 0.0f) {
          REQUIRE_FALSE(strictly_between(rope.peg(j), a, b));
        } else if (!(a == b)) {
          using reference::wide;
          const mpf_class d2 = distance2_to_segment(wide(a.x), wide(a.y), wide(b.x), wide(b.y), rope.peg(j)).first;
          REQUIRE(reference::sign_of_value(d2 - wide(r) * wide(r)) >= 0);
        }
      }
      continue;
    }
    const reference::TangentRef ref(line);
    if (last && reference::sign_of_value(ref.f(from)) == 0) continue;
    const double ax = ref.ax_t.get_d(), ay = ref.ay_t.get_d(), bx = ref.tx.get_d(), by = ref.ty.get_d();
    for (std::uint32_t j = 0; j < rope.peg_count(); ++j) {
      INFO("stretch " << s << " peg " << j);
      const float r = rope.peg_radius(j);
      // (Pegs clearly away from the stretch's bounds cannot meet it.)
      const Vec2 y = rope.peg(j);
      if (y.x + r < std::min(ax, bx) - 1 || y.x - r > std::max(ax, bx) + 1 || y.y + r < std::min(ay, by) - 1 ||
          y.y - r > std::max(ay, by) + 1)
        continue;
      const auto [d2, u] = distance2_to_segment(ref.ax_t, ref.ay_t, ref.tx, ref.ty, y);
      if (r > 0.0f)
        REQUIRE(reference::sign_of_value(d2 - reference::wide(r) * reference::wide(r)) >= 0);
      else
        REQUIRE((reference::sign_of_value(d2) > 0 || u == 0 || u == 1));
    }
  }
}

// A move that changed no node swept its region without meeting a peg (the rope's position
// before the move excluded: it is where the rope was). Around points the region is the
// triangle (pivot, end before, end after); around circles, a peg is met when the end
// crosses the line along which the rope from the pivot would touch it, past the point
// where it would, computed in GMP floats from the definition.
//
// The same for a stretch whose tip is a circle peg moving from p to q (radius tip_r, on
// side tip_side of the stretch): its centre runs along lines moved by the radius
// (core/tangent_crossing.hpp, "Grown lines"). `stretch`: the stretch at the start, from
// the pivot to the tip.
void check_sweep_meets_no_peg(const Rope& before, const Knot& pivot, const TangentLine& stretch, Vec2 p, Vec2 q,
                              float tip_r, int tip_side, std::uint32_t moving) {
  const Vec2 c = pivot.circle.c;
  if (p == c) return;
  const auto grown = [&](TangentLine l) {
    l.grow_a = l.grow_b = -static_cast<float>(tip_side) * tip_r;
    return l;
  };
  int sigma = 0;
  if (pivot.circle.r == 0.0f && tip_r == 0.0f)
    sigma = reference::orient2d(c, p, q);
  else
    sigma = reference::sign_of_value(reference::TangentRef(grown(stretch)).f(q));
  if (sigma == 0) return;
  for (std::uint32_t j = 0; j < before.peg_count(); ++j) {
    if (j == moving) continue;
    const Vec2 y = before.peg(j);
    const float r = before.peg_radius(j);
    INFO("peg " << j << " in the swept region of a move that caught nothing");
    if (pivot.circle.r == 0.0f && r == 0.0f && tip_r == 0.0f) {
      if (y == c || on_closed_segment(y, c, p)) continue;
      REQUIRE_FALSE(in_closed_triangle(y, c, p, q));
      continue;
    }
    if (y == c) continue;
    // (Only pegs reaching into the bounds of the pivot and the path can be met.)
    const float lo_x = std::min({c.x - pivot.circle.r, p.x, q.x}), hi_x = std::max({c.x + pivot.circle.r, p.x, q.x});
    const float lo_y = std::min({c.y - pivot.circle.r, p.y, q.y}), hi_y = std::max({c.y + pivot.circle.r, p.y, q.y});
    if (y.x + r < lo_x - 1 - tip_r || y.x - r > hi_x + 1 + tip_r || y.y + r < lo_y - 1 - tip_r ||
        y.y - r > hi_y + 1 + tip_r)
      continue;
    const TangentLine l = grown({pivot.circle, pivot.side, {y, r}, sigma});
    const reference::TangentRef ref(l);
    const mpf_class fp = ref.f(p), fq = ref.f(q);
    if (reference::sign_of_value(fp) != -sigma || sigma * reference::sign_of_value(fq) < 0) continue;
    const mpf_class t = fp / (fp - fq);
    using reference::wide;
    const mpf_class x = wide(p.x) + t * (wide(q.x) - wide(p.x)), yy = wide(p.y) + t * (wide(q.y) - wide(p.y));
    REQUIRE(reference::sign_of_value(ref.dx() * (x - ref.tx) + ref.dy() * (yy - ref.ty)) < 0);
  }
}

void check_nothing_skipped(const Rope& before, const Rope& after) {
  if (wraps(before).size() != wraps(after).size()) return;
  for (std::size_t i = 0; i < before.nodes().size(); ++i)
    if (before.nodes()[i].peg != after.nodes()[i].peg) return;
  const std::vector<Knot> k = knots_of(before);
  check_sweep_meets_no_peg(before, k[k.size() - 2], stretch_line(k, k.size() - 2), before.end(), after.end(), 0.0f, 0,
                           RopeNode::no_peg);
}

// A peg move that changed no node: neither stretch at the peg (when wrapped) met a peg.
void check_peg_move_skipped_nothing(const Rope& before, const Rope& after, std::uint32_t peg) {
  if (wraps(before).size() != wraps(after).size()) return;
  for (std::size_t i = 0; i < before.nodes().size(); ++i)
    if (before.nodes()[i].peg != after.nodes()[i].peg) return;
  const std::vector<Knot> k = knots_of(before);
  for (std::size_t i = 1; i + 1 < k.size(); ++i) {
    if (before.nodes()[i].peg != peg) continue;
    const Vec2 p = before.peg(peg), q = after.peg(peg);
    const float r = before.peg_radius(peg);
    // From the node before (the rope's way), and from the node after (the other way: every
    // side flipped).
    check_sweep_meets_no_peg(before, k[i - 1], stretch_line(k, i - 1), p, q, r, k[i].side, peg);
    const Knot after_node{k[i + 1].circle, -k[i + 1].side};
    const TangentLine back{after_node.circle, after_node.side, k[i].circle, -k[i].side};
    check_sweep_meets_no_peg(before, after_node, back, p, q, r, -k[i].side, peg);
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

  CHECK(sp.radii == std::vector<float>(7, 0.0f));
  Scene round;
  round.add(Circle{{0, 0}, 1});
  CHECK(pegs_of(round).radii == std::vector<float>{1.0f});

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
  for (Vec2 p :
       {Vec2{5, 1}, Vec2{5, -1}, Vec2{-5, -1}, Vec2{-5, 1.5f}, Vec2{5, 2}, Vec2{5, -2}, Vec2{-5, -2}, Vec2{-5, 2}})
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

// ---- circle pegs --------------------------------------------------------------------

// The length of a rope from (-d, 0) over the top of a circle of radius r at the origin to
// (d, 0): two tangents and the arc between their tangent points.
double over_the_top(double d, double r) { return 2 * std::sqrt(d * d - r * r) + 2 * r * std::asin(r / d); }

TEST_CASE("rope circle pegs: caught from either side along its tangents, released swinging back", "[rope][circle]") {
  for (const float s : {1.0f, -1.0f}) {
    INFO("from side " << s);
    const int side = s > 0 ? 1 : -1;
    Rope rope({-10, 0}, std::vector<Vec2>{{0, 0}}, std::vector<float>{1.0f});
    rope.move_end({10, s * 3.0f});  // clear of the circle: 1.48 from its centre
    CHECK(wraps(rope).empty());
    rope.move_end({10, 0});  // swings across it
    CHECK(wraps(rope) == std::vector<Wrap>{{0, -side, 0}});
    check_sides(rope);
    CHECK(std::fabs(rope.length() - over_the_top(10, 1)) < 1e-12);
    rope.move_end({10, -s * 0.5f});  // on: the rope wraps further round
    CHECK(wraps(rope) == std::vector<Wrap>{{0, -side, 0}});
    rope.move_end({10, s * 3.0f});  // back past the line it was caught on: released
    CHECK(wraps(rope).empty());
    CHECK(std::fabs(rope.length() - std::hypot(20.0, 3.0)) < 1e-12);
  }
}

TEST_CASE("rope circle pegs: caught in the order the sweep meets them, a tie by the tangent points", "[rope][circle]") {
  // The line y = 1 from the start touches circle 0 at (0, 1), passes through point peg 1
  // at (5, 1) and touches circle 2 at (9, 1), all three below it: sweeping down onto it
  // catches all three at once, nearest first, with no turn at the first two.
  const std::vector<Vec2> pegs = {{0, 0}, {5, 1}, {9, -1}, {20, -20}};
  const std::vector<float> radii = {1.0f, 0.0f, 2.0f, 0.5f};
  Rope rope({-10, 1}, pegs, radii);
  rope.move_end({14, 8});
  CHECK(wraps(rope).empty());
  rope.move_end({14, -3});
  CHECK(wraps(rope) == std::vector<Wrap>{{0, -1, 0}, {1, -1, 0}, {2, -1, 0}});
  check_sides(rope);
  rope.move_end({14, 8});
  CHECK(wraps(rope).empty());
}

TEST_CASE("rope circle pegs: a full turn and more around a circle and back keeps its anchor", "[rope][circle]") {
  Rope rope({-10, 0}, std::vector<Vec2>{{0, 0}}, std::vector<float>{2.0f});
  std::vector<Vec2> path;
  const double pi = std::acos(-1.0);
  // Clockwise round the circle at radius 10, two and a half turns, then the same way back.
  for (int k = 1; k <= 40; ++k) {
    const double a = pi - 0.1 - 2 * pi * k / 16.0;
    path.push_back({static_cast<float>(10 * std::cos(a)), static_cast<float>(10 * std::sin(a))});
  }
  std::vector<std::vector<Wrap>> out;
  std::uint32_t most = 0;
  for (Vec2 p : path) {
    rope.move_end(p);
    check_sides(rope);
    check_no_peg_inside(rope, p);
    out.push_back(wraps(rope));
    if (!out.back().empty()) {
      REQUIRE(out.back().size() == 1);
      CHECK(out.back()[0].side == -1);
      most = std::max(most, out.back()[0].half_turns);
    }
  }
  CHECK(most == 4);  // two full turns
  for (std::size_t i = path.size() - 1; i-- > 0;) {
    rope.move_end(path[i]);
    check_sides(rope);
    INFO("back at " << i);
    REQUIRE(wraps(rope) == out[i]);
  }
  rope.move_end({-10, 0.5f});
  CHECK(wraps(rope).empty());
  // Wound more than half a turn, the rope's length includes the whole arc.
  Rope wound({-10, 0}, std::vector<Vec2>{{0, 0}}, std::vector<float>{2.0f});
  for (Vec2 p : std::vector<Vec2>{{-10, 5}, {10, 0}, {0, -10}, {-10, -4}}) wound.move_end(p);
  REQUIRE(wraps(wound) == std::vector<Wrap>{{0, -1, 1}});
  const double in = std::sqrt(100.0 - 4), out_length = std::sqrt(116.0 - 4);
  // Tangent directions from the two points; the arc is the turn between them plus pi... checked
  // against the outline instead: the drawn arc's length.
  const std::vector<Vec2> o = wound.outline(0.001);
  double drawn = 0;
  for (std::size_t i = 1; i < o.size(); ++i) drawn += std::hypot(o[i].x - o[i - 1].x, o[i].y - o[i - 1].y);
  CHECK(std::fabs(drawn - wound.length()) < 1e-5 * wound.length());
  CHECK(wound.length() > in + out_length + 2 * pi);  // more than half the circle
}

TEST_CASE("rope circle pegs: refused input leaves the rope as it was", "[rope][circle]") {
  CHECK_THROWS_WITH(Rope({-10, 0}, std::vector<Vec2>{{0, 0}, {2, 0}}, std::vector<float>{1.0f, 1.0f}),
                    Catch::Contains("peg 0 (a circle at (0, 0), radius 1") && Catch::Contains("touches peg 1"));
  CHECK_THROWS_WITH(Rope({-10, 0}, std::vector<Vec2>{{0, 0}, {0.5f, 0}}, std::vector<float>{1.0f, 0.0f}),
                    Catch::Contains("touches peg 1"));
  CHECK_THROWS_WITH(Rope({0.5f, 0}, std::vector<Vec2>{{0, 0}}, std::vector<float>{1.0f}),
                    Catch::Contains("rope start at (0.5, 0) meets peg 0"));
  CHECK_THROWS_WITH(Rope({0, 0}, std::vector<Vec2>{{0, 0}}, std::vector<float>{-1.0f}), Catch::Contains("radius"));
  CHECK_THROWS_WITH(Rope({0, 0}, std::vector<Vec2>{{0, 0}}, std::vector<float>{NAN}), Catch::Contains("radius"));
  CHECK_THROWS_WITH(Rope({0, 0}, std::vector<Vec2>{{0, 0}}, std::vector<float>{1, 2}),
                    Catch::Contains("2 radii for 1 pegs"));
  // Apart by one ulp: accepted.
  CHECK_NOTHROW(
      Rope({-10, 0}, std::vector<Vec2>{{0, 0}, {std::nextafter(2.0f, 3.0f), 0}}, std::vector<float>{1.0f, 1.0f}));

  Rope rope({-10, 0}, std::vector<Vec2>{{0, 0}, {5, 5}}, std::vector<float>{1.0f, 0.0f});
  rope.move_end({10, 3});
  rope.move_end({10, 0});
  const Rope before = rope;
  CHECK_THROWS_WITH(rope.move_end({-10, 0}),
                    Catch::Contains("rope end on its path from (10, 0) to (-10, 0) meets peg 0"));
  CHECK_THROWS_WITH(rope.move_end({0, -1}), Catch::Contains("meets peg 0"));  // touching counts
  CHECK_THROWS_WITH(rope.move_start({10, 0}), Catch::Contains("rope start on its path"));
  // A circle peg's disc may not touch another peg or a rope end on its way.
  CHECK_THROWS_WITH(rope.move_peg(0, {4.5f, 4.5f}),
                    Catch::Contains("peg 0: its path") && Catch::Contains("passes over peg 1 at (5, 5)"));
  CHECK_THROWS_WITH(rope.move_peg(0, {9.5f, 0}), Catch::Contains("passes over the rope's end"));
  CHECK_THROWS_WITH(rope.move_peg(0, {9, 0}), Catch::Contains("passes over the rope's end"));  // touching counts
  CHECK_THROWS_WITH(rope.move_peg(1, {0, 0.5f}), Catch::Contains("passes over peg 0"));
  CHECK(wraps(rope) == wraps(before));
  CHECK(rope.end() == before.end());
  CHECK(rope.start() == before.start());
  CHECK(rope.peg(1) == before.peg(1));
}

TEST_CASE("rope circle pegs: a point peg moving next to a circle on the rope", "[rope][circle]") {
  // The rope over circle 0 (clockwise) to the end at (10, 0); point peg 1 pushed down
  // through the stretch leaving the circle catches it, turning counterclockwise.
  Rope rope({-10, 0}, std::vector<Vec2>{{0, 0}, {5, 5}}, std::vector<float>{1.0f, 0.0f});
  rope.move_end({10, 3});
  rope.move_end({10, 0});
  REQUIRE(wraps(rope) == std::vector<Wrap>{{0, -1, 0}});
  rope.move_peg(1, {5, -5});
  CHECK(wraps(rope) == std::vector<Wrap>{{0, -1, 0}, {1, 1, 0}});
  check_sides(rope);
  // Round past the end and up across the line from the circle's tangent point through the
  // end, beyond the end: the rope doubles back at the peg (half a turn).
  rope.move_peg(1, {20, 1});
  CHECK(wraps(rope) == std::vector<Wrap>{{0, -1, 0}, {1, 1, 1}});
  check_sides(rope);
  // Back below that line (half a turn less), then up through the stretch between the
  // circle and the end: it straightens and is released, the rope over the circle to the
  // end again.
  rope.move_peg(1, {20, -3});
  CHECK(wraps(rope) == std::vector<Wrap>{{0, -1, 0}, {1, 1, 0}});
  rope.move_peg(1, {5, -5});
  rope.move_peg(1, {5, 5});
  CHECK(wraps(rope) == std::vector<Wrap>{{0, -1, 0}});
  check_sides(rope);

  // Between two circles: the rope over circle 0 and under circle 2 (an S); peg 1 pushed up
  // through the stretch between them (it crosses between the circles, through (5, 0)).
  Rope s({-10, 2}, std::vector<Vec2>{{0, 0}, {5, -6}, {10, 0}}, std::vector<float>{1.0f, 0.0f, 1.0f});
  for (Vec2 p : {Vec2{5, 3}, Vec2{5, -5}, Vec2{20, -5}, Vec2{20, 1}}) s.move_end(p);
  REQUIRE(wraps(s) == std::vector<Wrap>{{0, -1, 0}, {2, 1, 0}});
  s.move_peg(1, {5, 0.25f});
  CHECK(wraps(s) == std::vector<Wrap>{{0, -1, 0}, {1, -1, 0}, {2, 1, 0}});
  check_sides(s);
  // Up: the rope from the start to the peg leaves circle 0; round over circle 2.
  s.move_peg(1, {5, 3});
  CHECK(wraps(s) == std::vector<Wrap>{{1, -1, 0}, {2, 1, 0}});
  check_sides(s);
  s.move_peg(1, {13, 3});
  CHECK(wraps(s) == std::vector<Wrap>{{1, -1, 0}, {2, 1, 0}});
  check_sides(s);
  // And back the same way: circle 0 caught again, then the peg released.
  s.move_peg(1, {5, 3});
  s.move_peg(1, {5, 0.25f});
  CHECK(wraps(s) == std::vector<Wrap>{{0, -1, 0}, {1, -1, 0}, {2, 1, 0}});
  s.move_peg(1, {5, -6});
  CHECK(wraps(s) == std::vector<Wrap>{{0, -1, 0}, {2, 1, 0}});
  check_sides(s);
}

// The length of a rope from (-d, 0) to (d, 0) over a circle of radius r at (0, h), h < r:
// two tangents and the arc between them.
double over_raised(double d, double h, double r) {
  const double c = std::hypot(d, h), turn = std::atan2(h, d) + std::asin(r / c);
  return 2 * std::sqrt(c * c - r * r) + 2 * r * turn;
}

TEST_CASE("rope circle pegs: a circle peg pushed through the rope catches it, and lets go when pulled back",
          "[rope][circle]") {
  // Circle 0 (radius 1) below the straight rope from (-10, 0) to (10, 0), point peg 1 above.
  Rope rope({-10, 0}, std::vector<Vec2>{{0, -3}, {-5, 1.5f}}, std::vector<float>{1.0f, 0.0f});
  rope.move_end({10, 0});
  REQUIRE(wraps(rope).empty());
  // Up to (0, 1): its disc meets the rope when its centre reaches y = -1 and carries it up,
  // the rope over its top (the circle on the rope's right); peg 1 stays above the stretch
  // (it passes at y = 1 there).
  rope.move_peg(0, {0, 1});
  CHECK(wraps(rope) == std::vector<Wrap>{{0, -1, 0}});
  check_sides(rope);
  check_no_peg_inside(rope, rope.end());
  CHECK(std::fabs(rope.length() - over_raised(10, 1, 1)) < 1e-12);
  // On up to (0, 3): the stretch from the start sweeps over peg 1 (at y = 2.04 there in the
  // end), which the rope catches turning left.
  rope.move_peg(0, {0, 3});
  CHECK(wraps(rope) == std::vector<Wrap>{{1, 1, 0}, {0, -1, 0}});
  check_sides(rope);
  check_no_peg_inside(rope, rope.end());
  // Carried sideways, and back: the same rope.
  const Rope at_top = rope;
  rope.move_peg(0, {-2, 3});
  CHECK(wraps(rope) == std::vector<Wrap>{{1, 1, 0}, {0, -1, 0}});
  check_sides(rope);
  rope.move_peg(0, {0, 3});
  CHECK(same_rope(rope, at_top));
  // Far to the right the rope from peg 1 to the circle would turn right at peg 1: let go.
  rope.move_peg(0, {6, 3});
  CHECK(wraps(rope) == std::vector<Wrap>{{0, -1, 0}});
  check_sides(rope);
  rope.move_peg(0, {0, 3});
  CHECK(same_rope(rope, at_top));
  // Pulled back down: peg 1 let go, then the circle, the rope straight again.
  rope.move_peg(0, {0, -3});
  CHECK(wraps(rope).empty());
  CHECK(rope.length() == 20.0);
  CHECK(rope.peg(0) == Vec2{0, -3});
}

TEST_CASE("rope circle pegs: a circle peg that stops touching the rope has caught it; one ulp short, not",
          "[rope][circle]") {
  for (const float s : {1.0f, -1.0f}) {
    INFO("from side " << s);
    Rope rope({-10, 0}, std::vector<Vec2>{{0, -3 * s}}, std::vector<float>{1.0f});
    rope.move_end({10, 0});
    Rope short_of = rope;
    short_of.move_peg(0, {0, std::nextafter(-s, -2 * s)});
    CHECK(wraps(short_of).empty());
    rope.move_peg(0, {0, -s});  // its disc touches the rope at the origin: caught, not bent
    CHECK(wraps(rope) == std::vector<Wrap>{{0, s > 0 ? -1 : 1, 0}});
    check_sides(rope);
    CHECK(rope.length() == 20.0);
    rope.move_peg(0, {3, -s});  // along the rope: still touching it, still caught
    CHECK(wraps(rope) == std::vector<Wrap>{{0, s > 0 ? -1 : 1, 0}});
    rope.move_peg(0, {3, -2 * s});  // away from it: let go
    CHECK(wraps(rope).empty());
    rope.move_peg(0, {3, -s});  // back to touching: caught again
    CHECK(wraps(rope) == std::vector<Wrap>{{0, s > 0 ? -1 : 1, 0}});
  }
}

TEST_CASE("rope circle pegs: a wrapped circle peg winds the rope round the end and back", "[rope][circle]") {
  // The circle caught from below, then carried round the rope's end (10, 0) anticlockwise:
  // the rope over it runs back to the end, a half turn and more round the circle.
  Rope rope({-10, 0}, std::vector<Vec2>{{0, -3}}, std::vector<float>{1.0f});
  rope.move_end({10, 0});
  rope.move_peg(0, {0, 2});
  REQUIRE(wraps(rope) == std::vector<Wrap>{{0, -1, 0}});
  const std::vector<Vec2> loop = {{15, 3}, {15, -3}, {5, -3}};
  for (Vec2 p : loop) {
    rope.move_peg(0, p);
    check_sides(rope);
    check_no_peg_inside(rope, rope.end());
  }
  // Below the rope's line, past the end: wound a half turn.
  CHECK(wraps(rope) == std::vector<Wrap>{{0, -1, 1}});
  // And back the same way: unwound, then let go when pulled down through the line.
  for (auto it = loop.rbegin() + 1; it != loop.rend(); ++it) rope.move_peg(0, *it);
  rope.move_peg(0, {0, 2});
  CHECK(wraps(rope) == std::vector<Wrap>{{0, -1, 0}});
  rope.move_peg(0, {0, -3});
  CHECK(wraps(rope).empty());
}

TEST_CASE("rope circle pegs: refused circle peg moves leave the rope as it was", "[rope][circle]") {
  // The rope caught by circle 0 at (0, 2); circle 2 and point peg 1 elsewhere.
  Rope rope({-10, 0}, std::vector<Vec2>{{0, -3}, {0, 8}, {-6, -6}}, std::vector<float>{1.0f, 0.0f, 2.0f});
  rope.move_end({10, 0});
  rope.move_peg(0, {0, 2});
  REQUIRE(wraps(rope) == std::vector<Wrap>{{0, -1, 0}});
  const Rope before = rope;
  CHECK_THROWS_WITH(rope.move_peg(0, {0, 7.5f}), Catch::Contains("passes over peg 1 at (0, 8)"));
  CHECK_THROWS_WITH(rope.move_peg(0, {0, 7}), Catch::Contains("passes over peg 1"));    // touching counts
  CHECK_THROWS_WITH(rope.move_peg(0, {-6, -3}), Catch::Contains("passes over peg 2"));  // 3 apart: touching
  CHECK_THROWS_WITH(rope.move_peg(0, {-10, 0.5f}), Catch::Contains("passes over the rope's start"));
  REQUIRE(same_rope(rope, before));
  // A free circle meeting the rope at two places.
  Rope r2({-10, 0}, std::vector<Vec2>{{20, 20}, {0, 5}, {-14, -2}}, std::vector<float>{1.0f, 0.0f, 1.0f});
  r2.move_end({10, 0});
  r2.move_peg(1, {0, -5});  // the rope round point peg 1: a V down to (0, -5)
  REQUIRE(wraps(r2) == std::vector<Wrap>{{1, 1, 0}});
  const Rope v = r2;
  CHECK_THROWS_WITH(r2.move_peg(2, {14, -2}), Catch::Contains("meets the rope's segment 0 and the rope's segment 1"));
  CHECK(same_rope(r2, v));
}

TEST_CASE("rope circle pegs: point pegs move among them", "[rope][circle]") {
  // A circle far off, the rope around point peg 0; point peg 1 pushed down through the
  // rope's last segment catches it and is released when pulled back.
  Rope rope({-10, 0}, std::vector<Vec2>{{0, 20}, {0, 0}, {5, 5}}, std::vector<float>{1.0f, 0.0f, 0.0f});
  rope.move_end({10, 1});
  rope.move_end({10, -1});
  REQUIRE(wraps(rope) == std::vector<Wrap>{{1, -1, 0}});
  rope.move_peg(2, {5, -5});
  CHECK(wraps(rope) == std::vector<Wrap>{{1, -1, 0}, {2, 1, 0}});
  check_sides(rope);
  check_no_peg_inside(rope, rope.end());
  rope.move_peg(2, {5, 5});
  CHECK(wraps(rope) == std::vector<Wrap>{{1, -1, 0}});
  // A free point peg moving past a circle, clear of the rope: it just moves.
  rope.move_peg(2, {3, 20});
  CHECK(rope.peg(2) == Vec2{3, 20});
  CHECK_THROWS_WITH(rope.move_peg(2, {-3, 20}), Catch::Contains("passes over peg 0"));
}

// ---- properties ---------------------------------------------------------------------

struct Field {
  std::vector<Vec2> pegs;
  Vec2 start;
  std::vector<Vec2> path;
  std::vector<float> radii;  // empty: every peg a point
};

// A path of `moves` points on the path_step grid inside the field: short steps most of the
// time (the rope wraps and unwraps often), now and then a long swing across the field; a
// step `accept` refuses is drawn again.
template <class Accept>
std::vector<Vec2> random_path(SplitMix64& rng, Vec2 start, double origin, double extent, double path_step, int moves,
                              Accept accept) {
  std::vector<Vec2> path;
  Vec2 at = start;
  while (static_cast<int>(path.size()) < moves) {
    const double reach = rng.u() < 0.1 ? extent : extent / 8;
    const auto step = [&](float from) {
      const double d = (rng.u() * 2 - 1) * reach;
      double v = from + std::round(d / path_step) * path_step;
      v = std::clamp(v, origin, origin + extent);
      return static_cast<float>(origin + std::round((v - origin) / path_step) * path_step);
    };
    const Vec2 to{step(at.x), step(at.y)};
    if (!accept(at, to)) continue;
    at = to;
    path.push_back(at);
  }
  return path;
}

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
  f.path = random_path(rng, f.start, origin, extent, path_step, moves, [](Vec2, Vec2) { return true; });
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
  Rope rope(f.start, f.pegs, f.radii);
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
  Rope fine(f.start, f.pegs, f.radii);
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
  int accepted = 0, refused = 0, rewrapped = 0, next_to_circle = 0, circles = 0, circles_rewrapped = 0;
  PegMoveCounts& operator+=(const PegMoveCounts& o) {
    accepted += o.accepted;
    refused += o.refused;
    rewrapped += o.rewrapped;
    next_to_circle += o.next_to_circle;
    circles += o.circles;
    circles_rewrapped += o.circles_rewrapped;
    return *this;
  }
};

// Whether peg k is a node of the rope with a circle peg next to it.
bool next_to_circle(const Rope& rope, std::uint32_t k) {
  const std::span<const RopeNode> n = rope.nodes();
  const auto circle = [&](std::size_t i) {
    return i < n.size() && n[i].peg != RopeNode::no_peg && rope.peg_radius(n[i].peg) > 0.0f;
  };
  for (std::size_t i = 1; i < n.size(); ++i)
    if (n[i].peg == k && (circle(i - 1) || circle(i + 1))) return true;
  return false;
}

// `circles`: move circle pegs only (a wrapped one when there is one, every other move).
PegMoveCounts check_peg_moves(const Field& f, std::uint64_t seed, double reach, double path_step,
                              bool circles = false) {
  SplitMix64 rng(seed);
  Rope rope(f.start, f.pegs, f.radii);
  PegMoveCounts counts;
  std::vector<std::uint32_t> circle_pegs;
  for (std::uint32_t i = 0; i < rope.peg_count(); ++i)
    if (rope.peg_radius(i) > 0.0f) circle_pegs.push_back(i);
  const auto pick = [&](const std::vector<std::uint32_t>& from) {
    return from[static_cast<std::size_t>(rng.u() * static_cast<double>(from.size()))];
  };
  for (Vec2 to : f.path) {
    const Vec2 end_from = rope.end();
    try {
      rope.move_end(to);
    } catch (const Error&) {
      // (The path was drawn clear of the circle pegs where they started; one may have moved
      // onto it.)
      REQUIRE(rope.end() == end_from);
      continue;
    }
    for (int m = 0; m < 2; ++m) {
      std::vector<std::uint32_t> wrapped;
      for (std::size_t i = 1; i < rope.nodes().size(); ++i)
        if (!circles || rope.peg_radius(rope.nodes()[i].peg) > 0.0f) wrapped.push_back(rope.nodes()[i].peg);
      const std::uint32_t peg = m == 0 && !wrapped.empty() ? pick(wrapped)
                                : circles                  ? pick(circle_pegs)
                                          : static_cast<std::uint32_t>(rng.u() * static_cast<double>(rope.peg_count()));
      const Vec2 from = rope.peg(peg);
      const auto step = [&](float v) {
        return static_cast<float>(v + std::round((rng.u() * 2 - 1) * reach / path_step) * path_step);
      };
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
      if (rope.peg_radius(peg) > 0.0f) {
        ++counts.circles;
        if (pegs_before != pegs_after) ++counts.circles_rewrapped;
      }
      if (next_to_circle(before, peg) || next_to_circle(rope, peg)) ++counts.next_to_circle;
      check_sides(rope);
      check_no_peg_inside(rope, end_from);
      check_peg_move_skipped_nothing(before, rope, peg);

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
    for (std::uint64_t seed = 61; seed <= (test::asan_build ? 64 : 68); ++seed) {  // support/sanitizer_builds.hpp
      INFO(c.name << " seed " << seed);
      const Field f = random_field(seed, c.origin, c.extent, c.peg_step, c.path_step, c.pegs, 60, c.lattice);
      total += check_peg_moves(f, seed, c.extent / 10, c.path_step);
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
  for (std::uint64_t seed = 1; seed <= (test::asan_build ? 6 : 12); ++seed) {
    INFO("seed " << seed);
    check_properties(random_field(seed, 0.0, 100.0, 0.0625, 0.625, 150, 120, false));
  }
}

TEST_CASE("rope properties near 1e6", "[rope]") {
  // Floats near 1e6 are 1/16 apart: pegs and tenths of path steps on that grid.
  for (std::uint64_t seed = 21; seed <= (test::asan_build ? 24 : 28); ++seed) {
    INFO("seed " << seed);
    check_properties(random_field(seed, 1e6, 60.0, 0.0625, 0.625, 150, 120, false));
  }
}

TEST_CASE("rope properties on integer lattices (every peg collinear with many)", "[rope]") {
  for (std::uint64_t seed = 41; seed <= (test::asan_build ? 45 : 50); ++seed) {
    INFO("seed " << seed);
    check_properties(random_field(seed, 0.0, 24.0, 1.0, 1.25, 0, 100, true));
  }
}

// Circle pegs among point pegs: circles of radius 1 to 8 peg steps, each apart from every
// peg before it (the reference decides), point pegs outside them; a path that never meets
// a circle (steps that would are drawn again). On a lattice (peg_step 1), every circle has
// radius 1/4 or 1/2 and sits on a lattice point, so common tangents run through many
// other pegs and touch many other circles at once.
Field random_circle_field(std::uint64_t seed, double origin, double extent, double peg_step, double path_step,
                          int circles, int points, int moves, bool lattice) {
  SplitMix64 rng(seed);
  const auto on = [&](double step) {
    const auto k = static_cast<std::int64_t>(rng.u() * extent / step);
    return static_cast<float>(origin + static_cast<double>(k) * step);
  };
  Field f;
  const auto clear = [&](const Circle& c) {
    for (std::size_t i = 0; i < f.pegs.size(); ++i) {
      const Circle o{f.pegs[i], f.radii[i]};
      if ((o.r > 0.0f || c.r > 0.0f) && reference::intersects(c, o)) return false;
    }
    return true;
  };
  for (int tries = 0; tries < 20 * circles && static_cast<int>(f.pegs.size()) < circles; ++tries) {
    const float r =
        lattice ? (rng.u() < 0.5 ? 0.25f : 0.5f) : static_cast<float>(peg_step * (1 + static_cast<int>(rng.u() * 8)));
    const Circle c{{on(peg_step), on(peg_step)}, r};
    if (clear(c)) {
      f.pegs.push_back(c.c);
      f.radii.push_back(c.r);
    }
  }
  for (int i = 0; i < points; ++i) {
    const Circle c{{on(peg_step), on(peg_step)}, 0.0f};
    if (clear(c)) {
      f.pegs.push_back(c.c);
      f.radii.push_back(0.0f);
    }
  }
  const auto meets_circle = [&](Vec2 a, Vec2 b) {
    for (std::size_t i = 0; i < f.pegs.size(); ++i)
      if (f.radii[i] > 0.0f && reference::intersects(Segment{a, b}, Circle{f.pegs[i], f.radii[i]})) return true;
    return false;
  };
  do f.start = {on(path_step), on(path_step)};
  while (meets_circle(f.start, f.start));
  f.path = random_path(rng, f.start, origin, extent, path_step, moves,
                       [&](Vec2 at, Vec2 to) { return !(to == at) && !meets_circle(at, to); });
  return f;
}

TEST_CASE("rope properties among circle pegs", "[rope][circle]") {
  for (std::uint64_t seed = 61; seed <= 66; ++seed) {
    INFO("seed " << seed);
    check_properties(random_circle_field(seed, 0.0, 100.0, 0.25, 0.625, 40, 40, 80, false));
  }
}

TEST_CASE("rope properties among circle pegs near 1e6", "[rope][circle]") {
  for (std::uint64_t seed = 71; seed <= 74; ++seed) {
    INFO("seed " << seed);
    check_properties(random_circle_field(seed, 1e6, 60.0, 0.0625, 0.625, 40, 40, 80, false));
  }
}

TEST_CASE("rope properties among circle pegs on integer lattices (tangents through many pegs)", "[rope][circle]") {
  for (std::uint64_t seed = 81; seed <= 86; ++seed) {
    INFO("seed " << seed);
    check_properties(random_circle_field(seed, 0.0, 24.0, 1.0, 1.25, 60, 60, 80, true));
  }
}

// The length from the definition: every stretch between its tangent points and every arc
// (the turn from the stretch before to the one after, in the node's sense, in the half turn
// its count says, plus its whole turns), the tangent lines in 16,000-bit GMP floats, the
// angles in long double (each piece within 2^-53 of its exact length, relatively).
long double reference_length(const Rope& rope) {
  const std::vector<Knot> k = knots_of(rope);
  const long double pi = std::acos(-1.0L);
  long double total = 0;
  for (std::size_t s = 0; s + 1 < k.size(); ++s) {
    const TangentLine l = stretch_line(k, s);
    if (l.a.r == 0.0f && l.b.r == 0.0f) {
      total += std::hypot(static_cast<long double>(l.b.c.x) - l.a.c.x, static_cast<long double>(l.b.c.y) - l.a.c.y);
      continue;
    }
    const reference::TangentRef r(l);
    const mpf_class dx = r.tx - r.ax_t, dy = r.ty - r.ay_t;
    total += static_cast<long double>(mpf_class(sqrt(mpf_class(dx * dx + dy * dy))).get_d());
  }
  for (std::size_t i = 1; i + 1 < k.size(); ++i) {
    if (k[i].circle.r == 0.0f) continue;
    const reference::TangentRef in(stretch_line(k, i - 1)), out(stretch_line(k, i));
    const long double cr = k[i].side * mpf_class(in.dx() * out.dy() - in.dy() * out.dx()).get_d();
    const long double dt = mpf_class(in.dx() * out.dx() + in.dy() * out.dy()).get_d();
    long double theta = std::atan2(cr, dt);
    if (theta < 0) theta += 2 * pi;
    const std::uint32_t h = rope.nodes()[i].half_turns;
    if (h % 2 == 0 && theta >= pi) theta = theta > 1.5L * pi ? 0 : pi;
    if (h % 2 == 1 && theta < pi) theta = theta < 0.5L * pi ? 2 * pi : pi;
    total += k[i].circle.r * (2 * pi * (h / 2) + theta);
  }
  return total;
}

TEST_CASE("rope circle pegs: length within its stated bound", "[rope][circle]") {
  // docs/rope.md, "Length": (pieces + 3) * 2^-50 of the length, plus (half turns + 2) *
  // 2^-48 of each circle node's radius.
  for (const Field& f : {random_circle_field(91, 0.0, 100.0, 0.25, 0.625, 40, 40, 80, false),
                         random_circle_field(92, 1e6, 60.0, 0.0625, 0.625, 40, 40, 80, false),
                         random_circle_field(93, 0.0, 24.0, 1.0, 1.25, 60, 60, 80, true)}) {
    Rope rope(f.start, f.pegs, f.radii);
    for (Vec2 to : f.path) {
      rope.move_end(to);
      const long double exact = reference_length(rope);
      long double bound = (2.0L * static_cast<long double>(rope.nodes().size()) + 3) * std::ldexp(1.0L, -50) * exact;
      for (std::size_t i = 1; i < rope.nodes().size(); ++i) {
        const RopeNode& n = rope.nodes()[i];
        bound += (n.half_turns + 2) * std::ldexp(1.0L, -48) * rope.peg_radius(n.peg);
      }
      INFO("nodes " << rope.nodes().size() - 1);
      REQUIRE(std::fabs(static_cast<long double>(rope.length()) - exact) <= bound);
    }
  }
}

TEST_CASE("rope peg moves among circle pegs: invariants, cut into ten, undone by the move back", "[rope][circle]") {
  // Point pegs and circle pegs move, among circles and next to them on the rope.
  PegMoveCounts total;
  for (std::uint64_t seed = 101; seed <= 104; ++seed) {
    INFO("seed " << seed);
    for (const PegMoveCounts& n :
         {check_peg_moves(random_circle_field(seed, 0.0, 100.0, 0.25, 0.625, 40, 60, 40, false), seed, 10.0, 0.625),
          check_peg_moves(random_circle_field(seed, 0.0, 24.0, 1.0, 1.25, 40, 80, 40, true), seed, 2.4, 1.25)})
      total += n;
  }
  INFO("accepted " << total.accepted << " refused " << total.refused << " rewrapped " << total.rewrapped
                   << " next to a circle " << total.next_to_circle << " circles " << total.circles
                   << " circles rewrapped " << total.circles_rewrapped);
  CHECK(total.accepted > 100);
  CHECK(total.rewrapped > 10);
  CHECK(total.next_to_circle > 10);
  CHECK(total.circles > 20);
  CHECK(total.circles_rewrapped > 5);
}

TEST_CASE("rope circle peg moves: invariants, cut into ten, undone by the move back", "[rope][circle]") {
  // Circle pegs only, wrapped ones half the time: among circles and points, near 1e6 (where
  // the float grid is 1/16), and on a lattice full of tangencies and collinear pegs.
  PegMoveCounts total;
  for (std::uint64_t seed = 111; seed <= 116; ++seed) {
    INFO("seed " << seed);
    for (const PegMoveCounts& n :
         {check_peg_moves(random_circle_field(seed, 0.0, 100.0, 0.25, 0.625, 50, 60, 40, false), seed, 10.0, 0.625,
                          true),
          check_peg_moves(random_circle_field(seed, 1e6, 60.0, 0.0625, 0.625, 40, 40, 40, false), seed, 6.0, 0.625,
                          true),
          check_peg_moves(random_circle_field(seed, 0.0, 24.0, 1.0, 1.25, 40, 80, 40, true), seed, 2.5, 1.25, true)})
      total += n;
  }
  INFO("accepted " << total.accepted << " refused " << total.refused << " rewrapped " << total.circles_rewrapped
                   << " next to a circle " << total.next_to_circle);
  CHECK(total.circles == total.accepted);
  CHECK(total.accepted > 300);
  CHECK(total.circles_rewrapped > 50);
  CHECK(total.next_to_circle > 20);
}

}  // namespace
}  // namespace hitgrid
