// raycast(Segment/Ray/Line, Circle): hand-worked cases; the hit against intersects() and
// an exact GMP reference (minimum of the quadratic over the range); the rounded times
// bracketed exactly (the roots are irrational: the reference decides on which side of a
// rational time each root lies, from the sign of the quadratic there).
#include "hitgrid/core/ray_circle.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <optional>

#include "geometry_reference.hpp"
#include "hitgrid/core/intersects.hpp"

namespace hitgrid {
namespace {

using namespace geomtest;
constexpr double inf = std::numeric_limits<double>::infinity();

/// f(t) = |o + t d - c|^2 - r^2 = A t^2 + 2 B t + C over the rationals.
struct Quad {
  mpq_class A, B, C;
  mpq_class at(const mpq_class& t) const { return (A * t + 2 * B) * t + C; }
  mpq_class tm() const { return -B / A; }  // A > 0
  // For real roots t1 <= t2 (A > 0, f(tm) <= 0): where a root lies relative to x.
  bool t1_geq(const mpq_class& x) const { return x <= tm() && at(x) >= 0; }
  bool t1_leq(const mpq_class& x) const { return x >= tm() || at(x) <= 0; }
  bool t2_geq(const mpq_class& x) const { return x <= tm() || at(x) <= 0; }
  bool t2_leq(const mpq_class& x) const { return x >= tm() && at(x) >= 0; }
};

Quad make_quad(const QVec& o, const QVec& d, const QVec& c, const mpq_class& r) {
  const QVec w = sub(o, c);
  return {dot(d, d), dot(d, w), dot(w, w) - r * r};
}

using Opt = std::optional<mpq_class>;  // nullopt: infinite range end

/// The exact hit: min of f over the range <= 0.
bool ref_hit(const Quad& f, const Opt& lo, const Opt& hi) {
  if (f.A == 0) return f.C <= 0;
  mpq_class t = f.tm();
  if (lo && t < *lo) t = *lo;
  if (hi && t > *hi) t = *hi;
  return f.at(t) <= 0;
}

/// Check a cast; end: the segment's b (nullopt for rays and lines).
bool check_cast(const RayHit& got, const QVec& o, const QVec& d, const QVec& c, float r, const Opt& lo, const Opt& hi,
                Vec2 origin, std::optional<Vec2> end) {
  const Quad f = make_quad(o, d, c, Q(r));
  if (got.hit != ref_hit(f, lo, hi)) return false;
  if (!got.hit) return got.t_near == 0.0 && got.t_far == 0.0;
  if (std::isnan(got.t_near) || std::isnan(got.t_far) || !(got.t_near <= got.t_far)) return false;
  if (f.A == 0) {  // a single point: the whole range, the point itself
    const bool t_ok = (lo ? got.t_near == lo->get_d() : got.t_near == -inf) && (hi ? got.t_far == hi->get_d() : got.t_far == inf);
    return t_ok && got.p_near == to_double(origin) && got.p_far == to_double(origin);
  }
  const mpq_class eps = pow2(-45) * (1 + pow2(-40));
  // near* = max(t1*, lo) lies within eps |t_near| of t_near.
  if (got.starts_inside) {
    if (got.t_near != 0.0 || got.p_near != to_double(origin)) return false;
  } else {
    const mpq_class t = Q(got.t_near), delta = eps * qabs(t);
    const mpq_class x0 = t - delta, x1 = t + delta;
    const bool geq = f.t1_geq(x0) || (lo && *lo >= x0);
    const bool leq = f.t1_leq(x1) && (!lo || *lo <= x1);
    if (!geq || !leq) return false;
  }
  if (got.ends_inside) {
    if (got.t_far != 1.0 || !end || got.p_far != to_double(*end)) return false;
  } else {
    const mpq_class t = Q(got.t_far), delta = eps * qabs(t);
    const mpq_class y0 = t - delta, y1 = t + delta;
    const bool geq = f.t2_geq(y0) && (!hi || *hi >= y0);
    const bool leq = f.t2_leq(y1) || (hi && *hi <= y1);
    if (!geq || !leq) return false;
  }
  // The points are o + t d for the returned t, to within rounding.
  for (const auto& [t, p] : {std::pair{got.t_near, got.p_near}, std::pair{got.t_far, got.p_far}}) {
    const QVec exact = add(o, scale(Q(t), d));
    const mpq_class tol = pow2(-50) * (norm_inf(o) + qabs(Q(t)) * norm_inf(d));
    if (!within(p.x, exact.x, tol) || !within(p.y, exact.y, tol)) return false;
  }
  return true;
}

struct Case {
  Vec2 a, b;  // segment, or origin and direction
  Circle c;
};

Case make_case(Rng& rng, int family, bool direction) {
  const Frame& f = frames[rng.between(0, 4)];
  const float s = static_cast<float>(f.scale);
  switch (family) {
    case 0:
      return {{random_float(rng), random_float(rng)},
              {random_float(rng), random_float(rng)},
              {{random_float(rng), random_float(rng)}, std::fabs(random_float(rng))}};
    case 1: {  // lattice
      const Vec2 a = frame_point(f, rng.between(-4, 4), rng.between(-4, 4));
      const Vec2 b = direction ? Vec2{static_cast<float>(rng.between(-2, 2)), static_cast<float>(rng.between(-2, 2))}
                               : frame_point(f, rng.between(-4, 4), rng.between(-4, 4));
      return {a, b, {frame_point(f, rng.between(-3, 3), rng.between(-3, 3)), s * static_cast<float>(rng.between(0, 3))}};
    }
    case 2: {  // tangent at c + k (3, 4), along (-4, 3); sometimes an ulp off
      const int k = rng.between(1, 2);
      const int cx = rng.between(-2, 2), cy = rng.between(-2, 2);
      const Circle circle{frame_point(f, cx, cy), nudge(rng, 5.0f * s * static_cast<float>(k))};
      const int m0 = rng.between(-3, 1), m1 = rng.between(-1, 3);
      const Vec2 a = frame_point(f, cx + 3 * k - 4 * m0, cy + 4 * k + 3 * m0);
      const Vec2 b = direction ? Vec2{-4.0f, 3.0f} : frame_point(f, cx + 3 * k - 4 * m1, cy + 4 * k + 3 * m1);
      return {{nudge(rng, a.x), a.y}, b, circle};
    }
    case 3: {  // starting or ending exactly on the circle (3-4-5), or at its centre
      const int k = rng.between(1, 2);
      const Circle circle{frame_point(f, 0, 0), 5.0f * s * static_cast<float>(k)};
      const Vec2 on = frame_point(f, (rng.chance(0.5) ? 3 : -4) * k, (rng.chance(0.5) ? 4 : 3) * k);
      const Vec2 other = direction ? Vec2{static_cast<float>(rng.between(-2, 2)), static_cast<float>(rng.between(-2, 2))}
                                   : frame_point(f, rng.between(-12, 12), rng.between(-12, 12));
      return rng.chance(0.5) || direction ? Case{on, other, circle} : Case{other, on, circle};
    }
    default: {  // zero radius, zero length / zero direction
      const Vec2 a = frame_point(f, rng.between(-2, 2), rng.between(-2, 2));
      const Vec2 b = direction ? Vec2{static_cast<float>(rng.between(-1, 1)), 0.0f}
                               : (rng.chance(0.5) ? a : frame_point(f, rng.between(-2, 2), rng.between(-2, 2)));
      const float r = rng.chance(0.5) ? 0.0f : s * static_cast<float>(rng.between(0, 2));
      return {a, b, {frame_point(f, rng.between(-2, 2), rng.between(-2, 2)), r}};
    }
  }
}

}  // namespace

TEST_CASE("raycast circle: hand-worked cases", "[geometry][ray_circle]") {
  const Circle c{{0, 0}, 5};
  SECTION("segment through the centre") {
    const RayHit h = raycast(Segment{{-10, 0}, {10, 0}}, c);
    CHECK(h.hit);
    CHECK(h.t_near == 0.25);
    CHECK(h.t_far == 0.75);
    CHECK(h.p_near == Vec2d{-5, 0});
    CHECK(h.p_far == Vec2d{5, 0});
    CHECK(h.enters());
    CHECK(h.exits());
  }
  SECTION("3-4-5 chord") {
    const RayHit h = raycast(Segment{{-8, 3}, {8, 3}}, c);  // x = -4 and 4 at y = 3
    CHECK(h.t_near == 0.25);
    CHECK(h.t_far == 0.75);
    CHECK(h.p_near == Vec2d{-4, 3});
  }
  SECTION("tangent: one instant") {
    const RayHit h = raycast(Segment{{-8, 5}, {8, 5}}, c);
    CHECK(h.hit);
    CHECK(h.t_near == 0.5);
    CHECK(h.t_far == 0.5);
    CHECK(h.p_near == Vec2d{0, 5});
    CHECK_FALSE(raycast(Segment{{-8, std::nextafter(5.0f, 6.0f)}, {8, std::nextafter(5.0f, 6.0f)}}, c).hit);
  }
  SECTION("start inside, end inside, end on the circle") {
    RayHit h = raycast(Segment{{0, 0}, {10, 0}}, c);
    CHECK(h.starts_inside);
    CHECK_FALSE(h.enters());
    CHECK(h.t_near == 0.0);
    CHECK(h.t_far == 0.5);
    h = raycast(Segment{{1, 1}, {-1, 2}}, c);
    CHECK(h.starts_inside);
    CHECK(h.ends_inside);
    CHECK(h.t_near == 0.0);
    CHECK(h.t_far == 1.0);
    CHECK_FALSE(h.exits());
    h = raycast(Segment{{-10, 0}, {-5, 0}}, c);  // ends exactly on the circle
    CHECK(h.ends_inside);
    CHECK(h.t_near == 1.0);
    CHECK(h.t_far == 1.0);
    CHECK(h.p_near == Vec2d{-5, 0});
  }
  SECTION("zero length and zero radius") {
    RayHit h = raycast(Segment{{3, 4}, {3, 4}}, c);
    CHECK(h.hit);
    CHECK(h.t_near == 0.0);
    CHECK(h.t_far == 1.0);
    CHECK_FALSE(raycast(Segment{{3, 5}, {3, 5}}, c).hit);
    const Circle dot{{1, 1}, 0};
    h = raycast(Segment{{0, 0}, {4, 4}}, dot);
    CHECK(h.hit);
    CHECK(h.t_near == 0.25);
    CHECK(h.t_far == 0.25);
    CHECK_FALSE(raycast(Segment{{0, 0}, {4, 5}}, dot).hit);
  }
  SECTION("rays and lines") {
    RayHit h = raycast(Ray{{-10, 0}, {2, 0}}, c);
    CHECK(h.t_near == 2.5);
    CHECK(h.t_far == 7.5);
    CHECK_FALSE(raycast(Ray{{10, 0}, {2, 0}}, c).hit);     // pointing away
    CHECK_FALSE(raycast(Ray{{10, 0}, {0, 1}}, c).hit);     // perpendicular, outside
    CHECK(raycast(Ray{{5, -3}, {0, 1}}, c).hit);           // starts on the circle
    h = raycast(Ray{{1, 0}, {0, 0}}, c);
    CHECK(h.hit);
    CHECK(h.t_far == inf);
    h = raycast(Line{{10, 0}, {2, 0}}, c);
    CHECK(h.t_near == -7.5);
    CHECK(h.t_far == -2.5);
    CHECK(raycast(Line{{-5, 7}, {0, 1}}, c).hit);          // tangent line x = -5
    CHECK_FALSE(raycast(Line{{std::nextafter(-5.0f, -6.0f), 7}, {0, 1}}, c).hit);
  }
}

TEST_CASE("raycast segment/circle: hit equals intersects() and the exact reference", "[geometry][ray_circle]") {
  Rng rng(1618);
  int failures = 0;
  long hits = 0, tangents = 0, starts = 0, ends = 0;
  for (int i = 0; i < 100000 && failures < 20; ++i) {
    const Case k = make_case(rng, i % 5, false);
    const Segment s{k.a, k.b};
    const RayHit got = raycast(s, k.c);
    const QVec o = QV(s.a), d = sub(QV(s.b), o);
    const Quad f = make_quad(o, d, QV(k.c.c), Q(k.c.r));
    const bool ok = got.hit == intersects(s, k.c) && got.starts_inside == (f.C <= 0) &&
                    got.ends_inside == (f.at(mpq_class(1)) <= 0) &&
                    check_cast(got, o, d, QV(k.c.c), k.c.r, mpq_class(0), mpq_class(1), s.a, s.b);
    if (!ok) {
      ++failures;
      FAIL_CHECK("segment " << hex(s.a) << " -> " << hex(s.b) << ", circle " << hex(k.c.c) << " r " << hex(k.c.r)
                            << ": hit " << got.hit << " [" << got.t_near << ", " << got.t_far << "] in "
                            << got.starts_inside << got.ends_inside);
    }
    hits += got.hit;
    starts += got.starts_inside;
    ends += got.ends_inside;
    tangents += got.hit && f.A != 0 && f.B * f.B == f.A * f.C;  // exactly tangent line
  }
  CHECK(failures == 0);
  CHECK(hits > 30000);
  CHECK(starts > 5000);
  CHECK(ends > 5000);
  CHECK(tangents > 1000);
}

TEST_CASE("raycast ray/line vs circle against the exact reference", "[geometry][ray_circle]") {
  Rng rng(1414);
  int failures = 0;
  long hits = 0;
  for (int i = 0; i < 40000 && failures < 20; ++i) {
    const Case k = make_case(rng, i % 5, true);
    const bool is_ray = i % 2 == 0;
    const QVec o = QV(k.a), d = QV(k.b);
    const RayHit got = is_ray ? raycast(Ray{k.a, k.b}, k.c) : raycast(Line{k.a, k.b}, k.c);
    const Quad f = make_quad(o, d, QV(k.c.c), Q(k.c.r));
    const Opt lo = is_ray ? Opt(mpq_class(0)) : std::nullopt;
    const bool boolean = is_ray ? intersects(Ray{k.a, k.b}, k.c) : intersects(Line{k.a, k.b}, k.c);
    const bool ok = boolean == got.hit && got.starts_inside == (is_ray && f.C <= 0) && !got.ends_inside &&
                    check_cast(got, o, d, QV(k.c.c), k.c.r, lo, std::nullopt, k.a, std::nullopt);
    if (!ok) {
      ++failures;
      FAIL_CHECK((is_ray ? "ray " : "line ") << hex(k.a) << " dir " << hex(k.b) << ", circle " << hex(k.c.c) << " r "
                                             << hex(k.c.r) << ": hit " << got.hit << " [" << got.t_near << ", "
                                             << got.t_far << "]");
    }
    hits += got.hit;
  }
  CHECK(failures == 0);
  CHECK(hits > 10000);
}

}  // namespace hitgrid
