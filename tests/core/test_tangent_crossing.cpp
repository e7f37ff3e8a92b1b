// Tangent lines of two circles (core/tangent_crossing.hpp) against references that work
// from the definition: the line's normal computed with a square root in 16,000-bit
// floating point, the side and the crossing times from it. On random circles and paths;
// on ties built by symmetry (a line and its mirror image across the path's line cross it
// at the same point) and one ulp from them; on lines parallel to the path; on circles of
// radius 0 against compare_crossings; in frames from 1e-30 to 1e30.
#include <gmpxx.h>

#include <catch2/catch.hpp>

#include "geometry_reference.hpp"
#include "hitgrid/core/line_crossing.hpp"
#include "hitgrid/core/tangent_crossing.hpp"
#include "support/tangent_reference.hpp"

namespace hitgrid {
namespace {

using namespace geomtest;

using reference::sign_of_value;
using RefLine = reference::TangentRef;
mpf_class F(float v) { return reference::wide(v); }

bool exists_reference(const TangentLine& l) {
  const mpq_class ex = Q(l.b.c.x) - Q(l.a.c.x), ey = Q(l.b.c.y) - Q(l.a.c.y);
  const mpq_class rho = l.sb * Q(l.b.r) + Q(l.grow_b) - l.sa * Q(l.a.r) - Q(l.grow_a);
  return sgn(ex * ex + ey * ey - rho * rho) > 0;
}

int compare_reference(Vec2 p, Vec2 q, const TangentLine& l1, const TangentLine& l2) {
  const RefLine r1(l1), r2(l2);
  const mpf_class f1p = r1.f(p), f1q = r1.f(q), f2p = r2.f(p), f2q = r2.f(q);
  const int d1 = sign_of_value(f1p - f1q), d2 = sign_of_value(f2p - f2q);
  if (d1 == 0 || d2 == 0) return (d1 == 0) - (d2 == 0);
  // t1 - t2 = (f1p (f2p - f2q) - f2p (f1p - f1q)) / ((f1p - f1q) (f2p - f2q))
  return sign_of_value(f1p * (f2p - f2q) - f2p * (f1p - f1q)) * d1 * d2;
}

int along_reference(const TangentLine& l, Vec2 u, Vec2 v) {
  const RefLine r(l);
  return sign_of_value(r.dx() * (F(v.x) - F(u.x)) + r.dy() * (F(v.y) - F(u.y)));
}

int cross_reference(const TangentLine& l1, const TangentLine& l2) {
  const RefLine r1(l1), r2(l2);
  return sign_of_value(r1.dx() * r2.dy() - r1.dy() * r2.dx());
}

int dot_reference(const TangentLine& l1, const TangentLine& l2) {
  const RefLine r1(l1), r2(l2);
  return sign_of_value(r1.dx() * r2.dx() + r1.dy() * r2.dy());
}

int beyond_reference(Vec2 p, Vec2 q, const TangentLine& l) {
  const RefLine r(l);
  const mpf_class fp = r.f(p), fq = r.f(q);
  if (sign_of_value(fp - fq) == 0) return 0;
  const mpf_class t = fp / (fp - fq);
  const mpf_class x = F(p.x) + t * (F(q.x) - F(p.x)), y = F(p.y) + t * (F(q.y) - F(p.y));
  return sign_of_value(r.dx() * (x - r.tx) + r.dy() * (y - r.ty));
}

Circle random_circle(Rng& rng, const Frame& f) {
  const Vec2 c = frame_point(f, rng.between(-20, 20), rng.between(-20, 20));
  const float r = rng.chance(0.2) ? 0.0f : pitch(f, rng.between(1, 6));
  return {c, r};
}
int random_side(Rng& rng) { return rng.chance(0.5) ? 1 : -1; }

TangentLine random_line(Rng& rng, const Frame& f) {
  for (;;) {
    const TangentLine l{random_circle(rng, f), random_side(rng), random_circle(rng, f), random_side(rng),
                        rng.chance(0.25)};
    if (tangent_exists(l)) return l;
  }
}

// A grown line (tangent_crossing.hpp, "Grown lines"): moved by a radius as a rope's stretch
// touching a rolling circle is, or with one circle grown and the other shrunk.
TangentLine random_grown_line(Rng& rng, const Frame& f) {
  for (;;) {
    TangentLine l{random_circle(rng, f), random_side(rng), random_circle(rng, f), random_side(rng), rng.chance(0.25)};
    const float g = static_cast<float>(random_side(rng)) * pitch(f, rng.between(1, 6));
    if (rng.chance(0.5)) {
      l = moved_left(l, g);
    } else {
      l.grow_a = g;
      l.grow_b = -g;
    }
    if (tangent_exists(l)) return l;
  }
}

bool agrees(Vec2 p, Vec2 q, const TangentLine& l1, const TangentLine& l2) {
  const int want = compare_reference(p, q, l1, l2);
  return compare_tangent_crossings(p, q, l1, l2) == want && compare_tangent_crossings(p, q, l2, l1) == -want;
}

}  // namespace

TEST_CASE("tangent lines: hand-worked", "[geometry][tangent_crossing]") {
  // Circles of radius 1 at (0, 0) and (4, 0), both on the left of a line directed +x:
  // above it, so the line is y = -1.
  const TangentLine below{{{0, 0}, 1}, 1, {{4, 0}, 1}, 1};
  REQUIRE(tangent_exists(below));
  CHECK(side_of(below, {2, 0}) == 1);
  CHECK(side_of(below, {2, -1}) == 0);
  CHECK(side_of(below, {-7, -2}) == -1);
  // The crossing line (a on the left, b on the right) passes through (2, 0).
  const TangentLine across{{{0, 0}, 1}, 1, {{4, 0}, 1}, -1};
  CHECK(side_of(across, {2, 0}) == 0);
  // Nested and overlapping circles: no outer line when one holds the other, no crossing
  // line when they overlap; equal centres: none.
  CHECK_FALSE(tangent_exists({{{0, 0}, 5}, 1, {{1, 0}, 1}, 1}));
  CHECK_FALSE(tangent_exists({{{0, 0}, 1}, 1, {{1, 0}, 1}, -1}));
  CHECK(tangent_exists({{{0, 0}, 1}, 1, {{1, 0}, 1}, 1}));
  CHECK_FALSE(tangent_exists({{{0, 0}, 0}, 1, {{0, 0}, 0}, 1}));
  // Moving down x = 2 from y = 3 to y = -3: `across` (through (2, 0)) before `below`.
  CHECK(compare_tangent_crossings({2, 3}, {2, -3}, across, below) == -1);
  CHECK(compare_tangent_crossings({2, 3}, {2, -3}, below, across) == 1);
  // Moving along y = 5: parallel to `below`, never crossed, last.
  CHECK(compare_tangent_crossings({0, 5}, {9, 5}, below, across) == 1);
  CHECK(compare_tangent_crossings({0, 5}, {9, 5}, below, below) == 0);
  // Directions: `below` runs +x; mirrored through (4, 0) it is y = 1 running -x.
  TangentLine back = below;
  back.mirrored = true;
  CHECK(along(below, {7, 3}, {9, -4}) == 1);
  CHECK(along(below, {7, 3}, {7, -4}) == 0);
  CHECK(along(back, {7, 3}, {9, -4}) == -1);
  CHECK(side_of(back, {2, 1}) == 0);
  CHECK(side_of(back, {2, 0}) == 1);  // the left of a line running -x is below it
  CHECK(direction_cross(below, back) == 0);
  CHECK(direction_dot(below, back) == -1);
  CHECK(direction_dot(below, below) == 1);
  CHECK(direction_cross(below, across) == 1);  // `across` passes below a and above b: it climbs
  // Crossing `below` (y = -1, touching b at (4, -1)) going down x = 6: beyond b's tangent
  // point; down x = 4: at it; down x = 1: before it.
  CHECK(crossing_beyond_tangent_point({6, 0}, {6, -3}, below) == 1);
  CHECK(crossing_beyond_tangent_point({4, 0}, {4, -3}, below) == 0);
  CHECK(crossing_beyond_tangent_point({1, 0}, {1, -3}, below) == -1);
  CHECK(crossing_beyond_tangent_point({1, 5}, {9, 5}, below) == 0);  // parallel
  // The mirrored line y = 1 touches b at (4, 1) and runs -x: x = 1 is beyond.
  CHECK(crossing_beyond_tangent_point({1, 0}, {1, 3}, back) == 1);
  CHECK(crossing_beyond_tangent_point({6, 0}, {6, 3}, back) == -1);
}

TEST_CASE("tangent lines: existence and sides agree with the definition", "[geometry][tangent_crossing]") {
  Rng rng(31);
  for (int i = 0; i < 4000; ++i) {
    const Frame& f = any_frame(rng);
    const TangentLine l{random_circle(rng, f), random_side(rng), random_circle(rng, f), random_side(rng)};
    INFO(f.name << " " << hex(l.a.c) << " " << l.a.r << " " << l.sa << " " << hex(l.b.c) << " " << l.b.r << " "
                << l.sb);
    REQUIRE(tangent_exists(l) == exists_reference(l));
    if (!tangent_exists(l)) continue;
    const RefLine ref(l);
    // The centres at their radii, on their sides; points on and off the line.
    CHECK(side_of(l, l.a.c) == (l.a.r == 0.0f ? 0 : l.sa));
    CHECK(side_of(l, l.b.c) == (l.b.r == 0.0f ? 0 : l.sb));
    const Vec2 x = frame_point(f, rng.between(-30, 30), rng.between(-30, 30));
    CHECK(side_of(l, x) == sign_of_value(ref.f(x)));
  }
}

TEST_CASE("tangent lines: directions, along, and the tangent point agree with the definition",
          "[geometry][tangent_crossing]") {
  Rng rng(35);
  int beyond_zero = 0;
  for (int i = 0; i < 3000; ++i) {
    const Frame& f = any_frame(rng);
    const TangentLine l1 = random_line(rng, f), l2 = random_line(rng, f);
    const Vec2 u = frame_point(f, rng.between(-30, 30), rng.between(-30, 30));
    const Vec2 v = rng.chance(0.2) ? l1.a.c : frame_point(f, rng.between(-30, 30), rng.between(-30, 30));
    INFO(f.name << " " << hex(u) << " " << hex(v));
    REQUIRE(along(l1, u, v) == along_reference(l1, u, v));
    REQUIRE(along(l1, l1.a.c, v) == along_reference(l1, l1.a.c, v));
    REQUIRE(along(l1, l1.b.c, v) == along_reference(l1, l1.b.c, v));
    REQUIRE(direction_cross(l1, l2) == cross_reference(l1, l2));
    REQUIRE(direction_dot(l1, l2) == dot_reference(l1, l2));
    // Two lines from one circle (the rope's incoming and outgoing lines at a node).
    const TangentLine l3{l1.a, random_side(rng), random_circle(rng, f), random_side(rng), rng.chance(0.25)};
    if (tangent_exists(l3)) {
      REQUIRE(direction_cross(l1, l3) == cross_reference(l1, l3));
      REQUIRE(direction_dot(l1, l3) == dot_reference(l1, l3));
    }
    // A path through b's tangent point (on a lattice point when b is a point) gives 0.
    const Vec2 p = u, q = rng.chance(0.3) ? l1.b.c : v;
    const int want = beyond_reference(p, q, l1);
    beyond_zero += want == 0;
    REQUIRE(crossing_beyond_tangent_point(p, q, l1) == want);
    REQUIRE(side_of(l1, u) == sign_of_value(RefLine(l1).f(u)));
  }
  CHECK(beyond_zero > 50);
}

TEST_CASE("tangent geometry: points, direction and length within their stated bounds", "[geometry][tangent_crossing]") {
  Rng rng(36);
  for (int i = 0; i < 3000; ++i) {
    const Frame& f = any_frame(rng);
    const TangentLine l = random_line(rng, f);
    const RefLine ref(l);
    const TangentGeometry g = tangent_geometry(l);
    INFO(f.name << " " << hex(l.a.c) << " " << l.a.r << " " << hex(l.b.c) << " " << l.b.r << " " << l.mirrored);
    const auto close = [](double got, const mpf_class& want, double tolerance) {
      return abs(mpf_class(got, 64) - want) <= tolerance;
    };
    const double ka = std::fabs(l.a.c.x) + std::fabs(l.a.c.y) + l.a.r,
                 kb = std::fabs(l.b.c.x) + std::fabs(l.b.c.y) + l.b.r;
    // (For a mirrored line the point "on a" is an image through b: both centres count.)
    const double scale_a = l.mirrored ? 2 * kb + ka : ka, scale_b = l.mirrored ? 3 * kb : kb;
    REQUIRE(close(g.ax, ref.ax_t, std::ldexp(scale_a, -51)));
    REQUIRE(close(g.ay, ref.ay_t, std::ldexp(scale_a, -51)));
    REQUIRE(close(g.bx, ref.tx, std::ldexp(scale_b, -51)));
    REQUIRE(close(g.by, ref.ty, std::ldexp(scale_b, -51)));
    REQUIRE(close(g.dx, ref.dx(), std::ldexp(1.0, -50)));
    REQUIRE(close(g.dy, ref.dy(), std::ldexp(1.0, -50)));
    const mpf_class ex = ref.tx - ref.ax_t, ey = ref.ty - ref.ay_t;
    const mpf_class length = sqrt(mpf_class(ex * ex + ey * ey));
    REQUIRE(abs(mpf_class(g.length, 64) - length) <= length * std::ldexp(1.0, -51));
  }
}

TEST_CASE("tangent crossings: random lines and paths", "[geometry][tangent_crossing]") {
  Rng rng(32);
  for (int i = 0; i < 3000; ++i) {
    const Frame& f = any_frame(rng);
    const TangentLine l1 = random_line(rng, f), l2 = random_line(rng, f);
    const Vec2 p = frame_point(f, rng.between(-30, 30), rng.between(-30, 30));
    const Vec2 q = frame_point(f, rng.between(-30, 30), rng.between(-30, 30));
    INFO(f.name << " path " << hex(p) << " " << hex(q));
    REQUIRE(agrees(p, q, l1, l2));
  }
}

TEST_CASE("tangent crossings: mirror-image ties, and one ulp from them", "[geometry][tangent_crossing]") {
  Rng rng(33);
  int ties = 0;
  for (int i = 0; i < 3000; ++i) {
    const Frame& f = any_frame(rng);
    // A path along the frame's x axis and a line with its mirror image across it: both
    // cross the axis at the same point (if they cross it at all).
    const TangentLine l = random_line(rng, f);
    auto mirror = [&](Circle c) { return Circle{{c.c.x, frame_coord(f.offset_y, 1.0, 0) * 2 - c.c.y}, c.r}; };
    const TangentLine m{mirror(l.a), -l.sa, mirror(l.b), -l.sb, l.mirrored};
    Vec2 p = frame_point(f, rng.between(-30, 30), 0), q = frame_point(f, rng.between(-30, 30), 0);
    if (rng.chance(0.3)) p.x = nudge(rng, p.x), q.y = nudge(rng, q.y);
    INFO(f.name << " path " << hex(p) << " " << hex(q));
    if (!tangent_exists(m)) continue;  // (the mirror of an existing line exists; a rounded one may not)
    const int want = compare_reference(p, q, l, m);
    ties += want == 0;
    REQUIRE(agrees(p, q, l, m));
  }
  CHECK(ties > 1000);
}

TEST_CASE("grown tangent lines: hand-worked", "[geometry][tangent_crossing]") {
  // y = -1 below circles of radius 1 at (0, 0) and (4, 0), moved up by 1: the x axis, where
  // the centre of a circle of radius 1 rolling under the line on its left runs.
  const TangentLine below{{{0, 0}, 1}, 1, {{4, 0}, 1}, 1};
  const TangentLine axis = moved_left(below, 1);
  REQUIRE(tangent_exists(axis));
  CHECK(side_of(axis, {7, 0}) == 0);
  CHECK(side_of(axis, {7, 0.5f}) == 1);
  CHECK(compare_tangent_crossings({1, 3}, {1, -3}, axis, below) == -1);
  CHECK(direction_cross(axis, below) == 0);
  CHECK(direction_dot(axis, below) == 1);
  CHECK(crossing_beyond_tangent_point({4, 1}, {4, -1}, axis) == 0);
  // Halfway between y = -1 (running +x, a above it on its left) and y = 3 (running -x, b
  // below it on its left): y = 1 running +x, a at -1 (1 - 2) and b at +1 (-1 + 2).
  TangentLine middle{{{0, 0}, 1}, 1, {{4, 2}, 1}, -1};
  middle.grow_a = -2;
  middle.grow_b = 2;
  REQUIRE(tangent_exists(middle));
  CHECK(side_of(middle, {-3, 1}) == 0);
  CHECK(side_of(middle, {9, 1}) == 0);
  CHECK(side_of(middle, {9, 1.5f}) == 1);
  // A circle of radius 2 grown by -2 is its centre: the lines through it.
  TangentLine through{{{0, 0}, 2}, 1, {{4, 4}, 0}, 1};
  through.grow_a = -2;
  CHECK(side_of(through, {1, 1}) == 0);
  CHECK(side_of(through, {1, 2}) == 1);
}

TEST_CASE("grown tangent lines agree with the definition", "[geometry][tangent_crossing]") {
  Rng rng(37);
  for (int i = 0; i < 3000; ++i) {
    const Frame& f = any_frame(rng);
    const TangentLine l1 = random_grown_line(rng, f);
    const TangentLine l2 = rng.chance(0.5) ? random_grown_line(rng, f) : random_line(rng, f);
    INFO(f.name << " " << hex(l1.a.c) << " " << l1.a.r << " " << l1.sa << " " << hex(l1.b.c) << " " << l1.b.r << " "
                << l1.sb << " grown " << l1.grow_a << " " << l1.grow_b << " mirrored " << l1.mirrored);
    REQUIRE(tangent_exists(l1) == exists_reference(l1));
    const RefLine ref(l1);
    const Vec2 u = frame_point(f, rng.between(-30, 30), rng.between(-30, 30));
    // On the line: a point of a lattice line (the grown axis-aligned cases) or the far ends.
    const Vec2 v = rng.chance(0.3) ? l1.b.c : frame_point(f, rng.between(-30, 30), rng.between(-30, 30));
    REQUIRE(side_of(l1, u) == sign_of_value(ref.f(u)));
    REQUIRE(side_of(l1, v) == sign_of_value(ref.f(v)));
    REQUIRE(along(l1, u, v) == along_reference(l1, u, v));
    REQUIRE(direction_cross(l1, l2) == cross_reference(l1, l2));
    REQUIRE(direction_dot(l1, l2) == dot_reference(l1, l2));
    REQUIRE(crossing_beyond_tangent_point(u, v, l1) == beyond_reference(u, v, l1));
    REQUIRE(agrees(u, v, l1, l2));
    // A line and the same line moved: parallel.
    const TangentLine unmoved{l1.a, l1.sa, l1.b, l1.sb, l1.mirrored};
    if (l1.grow_a == l1.grow_b && tangent_exists(unmoved)) {
      REQUIRE(direction_cross(l1, unmoved) == 0);
      REQUIRE(direction_dot(l1, unmoved) == 1);
      REQUIRE(agrees(u, v, l1, unmoved));
    }
  }
}

TEST_CASE("tangent crossings of circles of radius 0 are compare_crossings", "[geometry][tangent_crossing]") {
  Rng rng(34);
  for (int i = 0; i < 3000; ++i) {
    const Frame& f = any_frame(rng);
    auto point = [&] { return frame_point(f, rng.between(-10, 10), rng.between(-10, 10)); };
    const Vec2 a1 = point(), b1 = point(), a2 = point(), b2 = point(), p = point(), q = point();
    if (a1 == b1 || a2 == b2) continue;
    const TangentLine l1{{a1, 0}, random_side(rng), {b1, 0}, random_side(rng)};
    const TangentLine l2{{a2, 0}, random_side(rng), {b2, 0}, random_side(rng)};
    REQUIRE(compare_tangent_crossings(p, q, l1, l2) == compare_crossings(p, q, a1, b1, a2, b2));
  }
}

}  // namespace hitgrid
