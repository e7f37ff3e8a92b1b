// time_of_impact(moving circle, static segment / box / circle): hand-worked cases; the kind
// against an exact GMP reference written from the definition (the squared distance from the
// moving centre to the shape, minus r^2, minimised over [0, x] piece by piece: between the
// times at which the closest feature changes it is one quadratic in t); the returned time
// bracketed exactly: just before it the disk is still apart, and contact has happened by
// the stated bound after it. The degree-6 corner polynomial against GMP, at extreme
// magnitudes.
#include "hitgrid/core/swept_circle.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "adaptive_eval.hpp"
#include "geometry_reference.hpp"
#include "hitgrid/core/detail/predicate_counters.hpp"
#include "hitgrid/core/detail/swept_circle_polynomials.hpp"
#include "hitgrid/core/intersects.hpp"

namespace hitgrid {
namespace {

using namespace geomtest;

// --- exact reference -----------------------------------------------------------------------

/// g(t) = dist(c + t v, shape)^2 - r^2 over the rationals, with the times in (0, 1) at which
/// the formula of the distance changes.
struct Sweep {
  QVec c, v;
  mpq_class r;
  std::function<mpq_class(const QVec&)> dist2;
  std::vector<mpq_class> breaks;
  bool open_interior = false;  // r == 0 and c in the shape's interior (a box's, a disk's)

  mpq_class g(const mpq_class& t) const { return dist2(add(c, scale(t, v))) - r * r; }

  /// min of g over [0, x], exactly. On each piece g is a quadratic, recovered from its
  /// values at the ends and the middle; its minimum is at an end or at the vertex.
  mpq_class min_upto(const mpq_class& x) const {
    std::vector<mpq_class> pts{mpq_class(0)};
    for (const mpq_class& b : breaks)
      if (0 < b && b < x) pts.push_back(b);
    pts.push_back(x);
    std::sort(pts.begin(), pts.end());
    mpq_class best = g(pts[0]);
    for (std::size_t i = 0; i + 1 < pts.size(); ++i) {
      const mpq_class& l = pts[i];
      const mpq_class& h = pts[i + 1];
      const mpq_class g0 = g(l), g1 = g(h), gm = g(mpq_class((l + h) / 2));
      best = qmin(best, g1);
      // q(s) = alpha s^2 + beta s + g0 on s in [0, 1], t = l + s (h - l).
      const mpq_class alpha = 2 * g1 + 2 * g0 - 4 * gm;
      const mpq_class beta = 4 * gm - 3 * g0 - g1;
      if (alpha > 0) {
        const mpq_class s = -beta / (2 * alpha);
        if (0 < s && s < 1) best = qmin(best, g(mpq_class(l + s * (h - l))));
      }
    }
    return best;
  }
};

ToiKind reference_kind(const Sweep& w) {
  const mpq_class g0 = w.g(mpq_class(0));
  if (g0 < 0 || w.open_interior) return ToiKind::overlapping;
  if (g0 == 0) return ToiKind::touching;
  return w.min_upto(mpq_class(1)) <= 0 ? ToiKind::impact : ToiKind::none;
}

/// The stated bound, |t - t*| <= 2^-46 t*, checked exactly: no contact up to t / (1 + eps),
/// contact by t / (1 - eps) (eps is the bound with a 2^-40 relative margin).
bool time_ok(const Sweep& w, double t) {
  const mpq_class tq = Q(t);
  if (!(tq > 0 && tq <= 1)) return false;
  const mpq_class eps = pow2(-46) * (1 + pow2(-40));
  const mpq_class before = tq / (1 + eps);
  const mpq_class by = qmin(mpq_class(1), mpq_class(tq / (1 - eps)));
  return w.min_upto(before) > 0 && w.min_upto(by) <= 0;
}

Sweep segment_sweep(const Circle& k, Vec2 v, const Segment& s) {
  Sweep w{QV(k.c), QV(v), Q(k.r), {}, {}};
  const QVec a = QV(s.a), b = QV(s.b), e = sub(b, a);
  w.dist2 = [a, b](const QVec& p) { return dist2_to_segment(p, a, b); };
  // The projection's parameter dot(c + t v - a, e) / E crosses 0 and 1.
  const mpq_class rate = dot(w.v, e);
  if (rate != 0) {
    const mpq_class q0 = dot(sub(w.c, a), e);
    w.breaks = {mpq_class(-q0 / rate), mpq_class((dot(e, e) - q0) / rate)};
  }
  return w;
}

Sweep box_sweep(const Circle& k, Vec2 v, const Box& b) {
  Sweep w{QV(k.c), QV(v), Q(k.r), {}, {}};
  const mpq_class x0 = Q(b.min.x), x1 = Q(b.max.x), y0 = Q(b.min.y), y1 = Q(b.max.y);
  w.dist2 = [=](const QVec& p) {
    const QVec q{qmin(qmax(p.x, x0), x1), qmin(qmax(p.y, y0), y1)};
    const QVec d = sub(p, q);
    return dot(d, d);
  };
  // The centre's coordinates cross the box's faces.
  if (w.v.x != 0) w.breaks.insert(w.breaks.end(), {mpq_class((x0 - w.c.x) / w.v.x), mpq_class((x1 - w.c.x) / w.v.x)});
  if (w.v.y != 0) w.breaks.insert(w.breaks.end(), {mpq_class((y0 - w.c.y) / w.v.y), mpq_class((y1 - w.c.y) / w.v.y)});
  w.open_interior = k.r == 0.0f && x0 < w.c.x && w.c.x < x1 && y0 < w.c.y && w.c.y < y1;
  return w;
}

/// Against a static disk: contact iff |c + t v - d| <= r + r_d, so g uses the sum.
Sweep circle_sweep(const Circle& k, Vec2 v, const Circle& d) {
  Sweep w{QV(k.c), QV(v), mpq_class(Q(k.r) + Q(d.r)), {}, {}};
  const QVec dc = QV(d.c);
  w.dist2 = [dc](const QVec& p) {
    const QVec x = sub(p, dc);
    return dot(x, x);
  };
  return w;
}

struct Tally {
  int failures = 0;
  long impacts = 0, starts = 0, nones = 0;
};

template <class Shape>
void check_one(const Circle& k, Vec2 v, const Shape& shape, const Sweep& w, Tally& tally, const std::string& what) {
  const TimeOfImpact got = time_of_impact(k, v, shape);
  const ToiKind want = reference_kind(w);
  bool ok = got.kind == want;
  if (ok) ok = want == ToiKind::impact ? time_ok(w, got.t) : got.t == 0.0;
  // Contact at t = 0 is the static test of the disk against the shape.
  if ((want == ToiKind::overlapping || want == ToiKind::touching) != intersects(k, shape)) ok = false;
  if (!ok) {
    ++tally.failures;
    FAIL_CHECK(what << ": circle " << hex(k.c) << " r " << hex(k.r) << " v " << hex(v) << ": kind " << int(got.kind)
                    << " t " << got.t << ", reference kind " << int(want));
  }
  tally.impacts += want == ToiKind::impact;
  tally.starts += want == ToiKind::overlapping || want == ToiKind::touching;
  tally.nones += want == ToiKind::none;
}

// --- inputs --------------------------------------------------------------------------------

struct SegCase {
  Circle k;
  Vec2 v;
  Segment s;
};

SegCase make_segment_case(Rng& rng, int family) {
  const Frame& f = any_frame(rng);
  auto lat = [&](int lo, int hi) { return rng.between(lo, hi); };
  switch (family) {
    case 0: {  // random floats, aimed at a random point near the segment
      const Segment s{{random_float(rng), random_float(rng)}, {random_float(rng), random_float(rng)}};
      const Vec2 c{random_float(rng), random_float(rng)};
      const float w = static_cast<float>(rng.unit());
      const Vec2 target{s.a.x + w * (s.b.x - s.a.x) + nudge(rng, 0.5f), s.a.y + w * (s.b.y - s.a.y)};
      const float reach = rng.chance(0.5) ? 1.0f : static_cast<float>(rng.unit() * 2.0);
      return {{c, std::fabs(random_float(rng)) * (rng.chance(0.3) ? 0.0f : 0.01f)},
              {(target.x - c.x) * reach, (target.y - c.y) * reach},
              s};
    }
    case 1:  // lattice: positions, radii, displacements, zero-length segments
      return {{frame_point(f, lat(-6, 6), lat(-6, 6)), pitch(f, lat(0, 2))},
              {pitch(f, lat(-8, 8)), pitch(f, lat(-8, 8))},
              {frame_point(f, lat(-3, 3), lat(-3, 3)),
               rng.chance(0.15) ? frame_point(f, 0, 0) : frame_point(f, lat(-3, 3), lat(-3, 3))}};
    case 2: {  // along the segment's side at exactly distance r (touching all along), or an
               // ulp off; segment in direction (3, 4) or axis-parallel
      const bool diag = rng.chance(0.5);
      const int ux = diag ? 3 : 1, uy = diag ? 4 : 0, nx = diag ? -4 : 0, ny = diag ? 3 : 1;
      const int rad = diag ? 5 : 1;  // |n| = rad: the side lies at distance r = k rad
      const int kk = lat(1, 2), side = rng.chance(0.5) ? 1 : -1;
      const int start = lat(-8, -3), len = lat(1, 4), go = lat(2, 14);
      const Segment s{frame_point(f, 0, 0), frame_point(f, len * ux, len * uy)};
      const Vec2 c = frame_point(f, start * ux + side * kk * nx, start * uy + side * kk * ny);
      const Vec2 v{pitch(f, go * ux), pitch(f, go * uy)};
      return {{{nudge(rng, c.x), c.y}, nudge(rng, pitch(f, kk * rad))}, v, s};
    }
    case 3: {  // grazing an endpoint: the path passes a at exactly distance r (3-4-5)
      const int kk = lat(1, 2), m = lat(1, 3);
      const Vec2 a = frame_point(f, 0, 0);
      // Closest approach at a + kk (3, 4), moving along (-4, 3), reached at t = 1/2.
      const Vec2 c = frame_point(f, 3 * kk + 4 * m, 4 * kk - 3 * m);
      const Vec2 v{pitch(f, -8 * m), pitch(f, 6 * m)};
      const Vec2 b = frame_point(f, lat(-4, 4), lat(-8, -1));  // below a: a is usually nearest the path
      return {{{nudge(rng, c.x), c.y}, nudge(rng, pitch(f, 5 * kk))},
              {nudge(rng, v.x), v.y},
              rng.chance(0.5) ? Segment{a, b} : Segment{b, a}};
    }
    case 4: {  // through a corner of the rounded segment: e along (3, 4) j, r = 5 kk, the
               // corner a + kk (-4, 3) (or b + ...) is a lattice point; paths through it in
               // any direction, or an ulp off
      const int j = lat(1, 2), kk = lat(1, 2), side = rng.chance(0.5) ? 1 : -1;
      const bool at_b = rng.chance(0.5);
      const Segment s{frame_point(f, 0, 0), frame_point(f, 3 * j, 4 * j)};
      const int px = (at_b ? 3 * j : 0) - 4 * kk * side, py = (at_b ? 4 * j : 0) + 3 * kk * side;
      const int dx = lat(-4, 4), dy = lat(-4, 4), back = lat(1, 3);
      const Vec2 c = frame_point(f, px - back * dx, py - back * dy);
      const int ahead = lat(back, back + 3);
      return {{{nudge(rng, c.x), nudge(rng, c.y)}, pitch(f, 5 * kk)},
              {nudge(rng, pitch(f, ahead * dx)), pitch(f, ahead * dy)},
              s};
    }
    case 5: {  // zero radius (a point) and zero-length segments, lattice
      const Vec2 a = frame_point(f, lat(-2, 2), lat(-2, 2));
      const Vec2 b = rng.chance(0.3) ? a : frame_point(f, lat(-2, 2), lat(-2, 2));
      return {{frame_point(f, lat(-4, 4), lat(-4, 4)), rng.chance(0.7) ? 0.0f : pitch(f, 1)},
              {pitch(f, lat(-6, 6)), pitch(f, lat(-6, 6))},
              {a, b}};
    }
    case 6: {  // a zero-thickness wall crossed at 1e4 units per frame (or just missed)
      const float half = static_cast<float>(rng.between(1, 100));
      const Segment wall{{0.0f, -half}, {0.0f, half}};
      const float x0 = -static_cast<float>(rng.between(1, 1000));
      const float speed = 1.0e4f * (rng.chance(0.5) ? 1.0f : static_cast<float>(rng.unit() + 0.5));
      const float y0 = rng.chance(0.8) ? static_cast<float>(rng.unit() * 2.0 - 1.0) * half * 1.2f : nudge(rng, half);
      const float r = rng.chance(0.3) ? 0.0f : static_cast<float>(rng.unit());
      const float vy = rng.chance(0.5) ? 0.0f : static_cast<float>(rng.unit() - 0.5) * half;
      return {{{x0, y0}, r}, {speed, vy}, rng.chance(0.5) ? wall : Segment{wall.b, wall.a}};
    }
    default: {  // starting on the boundary (touching) or inside; or reaching K exactly at t = 1
      const int gap = lat(0, 3), kk = lat(1, 2);
      const Segment s{frame_point(f, -2, 0), frame_point(f, 2, 0)};
      const Vec2 c = frame_point(f, lat(-4, 4), kk + gap);
      return {{c, nudge(rng, pitch(f, kk))}, {pitch(f, lat(-2, 2)), nudge(rng, pitch(f, -gap))}, s};
    }
  }
}

struct BoxCase {
  Circle k;
  Vec2 v;
  Box b;
};

Box lattice_box(Rng& rng, const Frame& f) {
  int x0 = rng.between(-3, 3), x1 = rng.between(-3, 3), y0 = rng.between(-3, 3), y1 = rng.between(-3, 3);
  if (x0 > x1) std::swap(x0, x1);
  if (y0 > y1) std::swap(y0, y1);
  return {frame_point(f, x0, y0), frame_point(f, x1, y1)};
}

BoxCase make_box_case(Rng& rng, int family) {
  const Frame& f = any_frame(rng);
  auto lat = [&](int lo, int hi) { return rng.between(lo, hi); };
  switch (family) {
    case 0: {  // random floats, aimed near the box
      float x0 = random_float(rng), x1 = random_float(rng), y0 = random_float(rng), y1 = random_float(rng);
      if (x0 > x1) std::swap(x0, x1);
      if (y0 > y1) std::swap(y0, y1);
      const Box b{{x0, y0}, {x1, y1}};
      const Vec2 c{random_float(rng), random_float(rng)};
      const Vec2 target{rng.chance(0.5) ? x0 : x1, static_cast<float>(y0 + rng.unit() * (y1 - y0))};
      const float reach = static_cast<float>(rng.unit() * 2.0);
      return {{c, std::fabs(random_float(rng)) * (rng.chance(0.3) ? 0.0f : 0.01f)},
              {(target.x - c.x) * reach, (target.y - c.y) * reach},
              b};
    }
    case 1:  // lattice, flat and point boxes included
      return {{frame_point(f, lat(-6, 6), lat(-6, 6)), pitch(f, lat(0, 2))},
              {pitch(f, lat(-8, 8)), pitch(f, lat(-8, 8))},
              lattice_box(rng, f)};
    case 2: {  // sliding along a face at exactly distance r, or an ulp off
      const Box b = lattice_box(rng, f);
      const int kk = lat(0, 2);
      const bool horizontal = rng.chance(0.5);
      const Vec2 c = horizontal ? Vec2{frame_point(f, lat(-8, -4), 0).x,
                                       rng.chance(0.5) ? b.max.y + pitch(f, kk) : b.min.y - pitch(f, kk)}
                                : Vec2{rng.chance(0.5) ? b.max.x + pitch(f, kk) : b.min.x - pitch(f, kk),
                                       frame_point(f, 0, lat(-8, -4)).y};
      const Vec2 v = horizontal ? Vec2{pitch(f, lat(1, 12)), 0.0f} : Vec2{0.0f, pitch(f, lat(1, 12))};
      return {{{nudge(rng, c.x), nudge(rng, c.y)}, nudge(rng, pitch(f, kk))}, v, b};
    }
    case 3: {  // grazing a corner at exactly distance r (3-4-5), or an ulp off
      const Box b = lattice_box(rng, f);
      const int kk = lat(1, 2), m = lat(1, 3), sx = rng.chance(0.5) ? 1 : -1, sy = rng.chance(0.5) ? 1 : -1;
      const Vec2 corner{sx > 0 ? b.max.x : b.min.x, sy > 0 ? b.max.y : b.min.y};
      // Closest approach at corner + kk (3 sx, 4 sy), moving along (-4 sx, 3 sy) at t = 1/2:
      // outside the box's reach on the corner's diagonal side.
      const Vec2 c{corner.x + pitch(f, sx * (3 * kk + 4 * m)), corner.y + pitch(f, sy * (4 * kk - 3 * m))};
      const Vec2 v{pitch(f, -8 * m * sx), pitch(f, 6 * m * sy)};
      return {{{nudge(rng, c.x), c.y}, nudge(rng, pitch(f, 5 * kk))}, {v.x, nudge(rng, v.y)}, b};
    }
    case 4: {  // a flat box (zero-thickness wall) crossed at 1e4 units per frame
      const float half = static_cast<float>(rng.between(1, 100));
      const Box wall{{0.0f, -half}, {rng.chance(0.5) ? 0.0f : 0.5f, half}};
      const float y0 = rng.chance(0.8) ? static_cast<float>(rng.unit() * 2.0 - 1.0) * half * 1.2f : nudge(rng, half);
      const float r = rng.chance(0.3) ? 0.0f : static_cast<float>(rng.unit());
      return {{{-static_cast<float>(rng.between(1, 1000)), y0}, r},
              {1.0e4f * static_cast<float>(rng.unit() + 0.5), rng.chance(0.5) ? 0.0f : static_cast<float>(rng.unit())},
              wall};
    }
    default: {  // starting on the boundary or inside (r = 0 on an edge: touching), or
                // reaching K exactly at t = 1
      const Box b = lattice_box(rng, f);
      const int kk = lat(0, 2), gap = lat(0, 2);
      const Vec2 c{frame_point(f, lat(-4, 4), 0).x, b.max.y + pitch(f, kk + gap)};
      return {{c, nudge(rng, pitch(f, kk))}, {pitch(f, lat(-2, 2)), nudge(rng, pitch(f, -gap))}, b};
    }
  }
}

}  // namespace

TEST_CASE("swept circle: hand-worked cases", "[geometry][swept_circle]") {
  SECTION("against a wall segment") {
    const Segment wall{{0, -2}, {0, 2}};
    auto r = time_of_impact(Circle{{-5, 0}, 1}, {10, 0}, wall);
    CHECK(r.kind == ToiKind::impact);
    CHECK(r.t == 0.4);
    r = time_of_impact(Circle{{-10, 0}, 0.5f}, {1.0e4f, 0}, wall);  // no tunnelling
    CHECK(r.kind == ToiKind::impact);
    CHECK(r.t == 9.5 / 1.0e4);
    r = time_of_impact(Circle{{-10, 0}, 0}, {1.0e4f, 1.0e4f}, wall);  // a point, crossing the line above the wall
    CHECK(r.kind == ToiKind::none);
    CHECK(time_of_impact(Circle{{-5, 0}, 1}, {3.5f, 0}, wall).kind == ToiKind::none);  // stops short
    CHECK(time_of_impact(Circle{{-5, 0}, 1}, {4, 0}, wall).t == 1.0);                  // touches at the end
  }
  SECTION("grazing an end: touching counts; an ulp further misses") {
    const Segment wall{{0, -2}, {0, 2}};
    auto r = time_of_impact(Circle{{-5, 3}, 1}, {10, 0}, wall);
    CHECK(r.kind == ToiKind::impact);
    CHECK(r.t == 0.5);
    CHECK(time_of_impact(Circle{{-5, std::nextafter(3.0f, 4.0f)}, 1}, {10, 0}, wall).kind == ToiKind::none);
    // Into the end cap: a circle of radius 5 meeting the end (0, 2) at (3, 6) - (0, 2) = (3, 4).
    r = time_of_impact(Circle{{3, 16}, 5}, {0, -20}, wall);
    CHECK(r.kind == ToiKind::impact);
    CHECK(r.t == 0.5);
  }
  SECTION("sliding along the side at distance r") {
    const Segment floor{{0, 0}, {4, 0}};
    auto r = time_of_impact(Circle{{-4, 1}, 1}, {8, 0}, floor);
    CHECK(r.kind == ToiKind::impact);
    CHECK(r.t == 0.5);
    CHECK(time_of_impact(Circle{{-4, std::nextafter(1.0f, 2.0f)}, 1}, {8, 0}, floor).kind == ToiKind::none);
  }
  SECTION("at the start: overlapping, touching, a point on the segment") {
    const Segment floor{{0, 0}, {4, 0}};
    CHECK(time_of_impact(Circle{{2, 0.5f}, 1}, {0, 5}, floor).kind == ToiKind::overlapping);
    CHECK(time_of_impact(Circle{{2, 1}, 1}, {0, 5}, floor).kind == ToiKind::touching);
    CHECK(time_of_impact(Circle{{5, 0}, 1}, {0, 5}, floor).kind == ToiKind::touching);  // at the end cap
    CHECK(time_of_impact(Circle{{2, 0}, 0}, {0, 5}, floor).kind == ToiKind::touching);  // no interior
    CHECK(time_of_impact(Circle{{2, 0}, 0}, {0, 5}, floor).t == 0.0);
  }
  SECTION("zero-length segment: a point") {
    const Segment dot{{1, 1}, {1, 1}};
    auto r = time_of_impact(Circle{{-3, 1}, 2}, {4, 0}, dot);
    CHECK(r.kind == ToiKind::impact);
    CHECK(r.t == 0.5);
  }
  SECTION("boxes") {
    const Box b{{0, 0}, {2, 1}};
    auto r = time_of_impact(Circle{{-5, 0.5f}, 1}, {10, 0}, b);
    CHECK(r.kind == ToiKind::impact);
    CHECK(r.t == 0.4);
    r = time_of_impact(Circle{{-10, -4}, 5}, {20, 0}, b);  // first touches the corner (0, 0) from (-3, -4)
    CHECK(r.kind == ToiKind::impact);
    CHECK(r.t == 0.35);
    CHECK(time_of_impact(Circle{{-10, std::nextafter(-5.0f, -6.0f)}, 5}, {20, 0}, b).kind == ToiKind::none);
    CHECK(time_of_impact(Circle{{1, 0.5f}, 0}, {5, 5}, b).kind == ToiKind::overlapping);  // a point inside
    CHECK(time_of_impact(Circle{{2, 0.5f}, 0}, {5, 5}, b).kind == ToiKind::touching);     // on an edge
    CHECK(time_of_impact(Circle{{3, 0.5f}, 1}, {5, 5}, b).kind == ToiKind::touching);
    r = time_of_impact(Circle{{-0.5f, 3}, 0}, {2, -4}, b);  // a point entering through the top edge at (0.5, 1)
    CHECK(r.kind == ToiKind::impact);
    CHECK(r.t == 0.5);
    const Box flat{{0, -1}, {0, 1}};  // zero thickness
    r = time_of_impact(Circle{{-100, 0}, 0}, {1.0e4f, 0}, flat);
    CHECK(r.kind == ToiKind::impact);
    CHECK(r.t == 0.01);
  }
  SECTION("a static circle is time_of_impact with v2 = 0") {
    const Circle d{{10, 0}, 1};
    const auto r = time_of_impact(Circle{{0, 0}, 1}, {16, 0}, d);
    CHECK(r.kind == ToiKind::impact);
    CHECK(r.t == 0.5);
  }
}

TEST_CASE("swept circle vs segment: the corner decision beyond the filter", "[geometry][swept_circle]") {
  // P / Q = 9369319 / 6625109, a convergent of sqrt(2) with P^2 - 2 Q^2 = -1. The segment
  // runs from the origin along (1, 1); the circle of radius P starts at (-Q, Q), which lies
  // on the normal through a, 1 / (sqrt(2) Q + P) beyond the corner P (-1, 1) / sqrt(2) of
  // the rounded segment. Moving by (V + 1, V) or -(V, V + 1), nearly along the segment, the
  // path reaches the strip within r of the line a hair's breadth from that corner: at
  // sqrt(E) cross(v, c - a) - r dot(b - a, v) = +-B (2V + 1) (sqrt(2) Q - P), of relative size
  // 2^-47, which no double evaluation can sign. Along +(1, 1) it enters the rectangle part
  // (impact almost at once); along -(1, 1) it passes beyond the end and misses the end disk
  // (the path's closest approach to a is farther than P): none. Started from (-Q - 1, Q - 1)
  // instead, along +(1, 1) the sign is negative (relative size 2^-48): the path reaches the
  // strip 0.52 beyond the corner and meets the end disk about 15% later than it.
  const float p = 9369319.0f, q = 6625109.0f, big = 0x1p24f, v = 0x1p23f;
  const Segment s{{0, 0}, {big, big}};
  const Circle k{{-q, q}, p}, shifted{{-q - 1.0f, q - 1.0f}, p};
  Tally tally;
  const Vec2 along{v + 1.0f, v}, back{-v, -(v + 1.0f)};
  check_one(k, along, s, segment_sweep(k, along, s), tally, "along");
  check_one(k, back, s, segment_sweep(k, back, s), tally, "back");
  check_one(shifted, along, s, segment_sweep(shifted, along, s), tally, "shifted, along");
  CHECK(tally.failures == 0);
  CHECK(time_of_impact(k, along, s).kind == ToiKind::impact);
  CHECK(time_of_impact(k, back, s).kind == ToiKind::none);
  CHECK(time_of_impact(shifted, along, s).kind == ToiKind::impact);
}

TEST_CASE("swept circle vs segment against the exact reference", "[geometry][swept_circle]") {
  Rng rng(1789);
  Tally tally;
  long corner_exact = 0;
  for (int i = 0; i < 48000 && tally.failures < 20; ++i) {
    const SegCase c = make_segment_case(rng, i % 8);
    const auto before = predicate_counters().exact_calls;
    check_one(c.k, c.v, c.s, segment_sweep(c.k, c.v, c.s), tally, "segment " + hex(c.s.a) + " " + hex(c.s.b));
    corner_exact += i % 8 == 4 && predicate_counters().exact_calls != before;
  }
  CHECK(tally.failures == 0);
  CHECK(tally.impacts > 12000);
  CHECK(tally.starts > 3000);
  CHECK(tally.nones > 8000);
  CHECK(corner_exact > 1000);  // the corner family reaches the exact paths
}

TEST_CASE("swept circle vs box against the exact reference", "[geometry][swept_circle]") {
  Rng rng(1815);
  Tally tally;
  for (int i = 0; i < 36000 && tally.failures < 20; ++i) {
    const BoxCase c = make_box_case(rng, i % 6);
    check_one(c.k, c.v, c.b, box_sweep(c.k, c.v, c.b), tally, "box " + hex(c.b.min) + " " + hex(c.b.max));
  }
  CHECK(tally.failures == 0);
  CHECK(tally.impacts > 9000);
  CHECK(tally.starts > 2000);
  CHECK(tally.nones > 6000);
}

TEST_CASE("swept circle vs static circle: time_of_impact with v2 = 0, and the reference", "[geometry][swept_circle]") {
  Rng rng(1848);
  Tally tally;
  for (int i = 0; i < 12000 && tally.failures < 20; ++i) {
    const Frame& f = any_frame(rng);
    const Circle k{frame_point(f, rng.between(-6, 6), rng.between(-6, 6)), pitch(f, rng.between(0, 2))};
    const Circle d{frame_point(f, rng.between(-3, 3), rng.between(-3, 3)), pitch(f, rng.between(0, 2))};
    const Vec2 v{nudge(rng, pitch(f, rng.between(-9, 9))), pitch(f, rng.between(-9, 9))};
    const TimeOfImpact a = time_of_impact(k, v, d), b = time_of_impact(k, v, d, Vec2{});
    if (a.kind != b.kind || a.t != b.t) {
      ++tally.failures;
      FAIL_CHECK("differs from time_of_impact(c, v, d, {0, 0})");
    }
    check_one(k, v, d, circle_sweep(k, v, d), tally, "circle " + hex(d.c) + " r " + hex(d.r));
  }
  CHECK(tally.failures == 0);
  CHECK(tally.impacts > 800);
  CHECK(tally.starts > 800);
}

TEST_CASE("sweep_corner: the degree-6 polynomial is exact at any float32 magnitude", "[geometry][swept_circle]") {
  Rng rng(77);
  const auto corner = [](auto ax, auto ay, auto bx, auto by, auto px, auto py, auto cx, auto cy, auto vx, auto vy,
                         auto r) { return poly::sweep_corner(ax, ay, bx, by, px, py, cx, cy, vx, vy, r); };
  int failures = 0;
  // Coordinates from the smallest subnormal to the largest float, mixed.
  auto extreme = [&]() {
    switch (rng.between(0, 4)) {
      case 0: return std::numeric_limits<float>::denorm_min() * static_cast<float>(rng.between(-3, 3));
      case 1: return std::numeric_limits<float>::max() * static_cast<float>(rng.unit() * 2.0 - 1.0);
      case 2: return std::ldexp(static_cast<float>(rng.unit() * 2.0 - 1.0), rng.between(-149, 127));
      case 3: return static_cast<float>(rng.between(-3, 3));
      default: return random_float(rng);
    }
  };
  for (int i = 0; i < 20000 && failures < 10; ++i) {
    float x[11];
    for (float& xi : x) xi = extreme();
    x[10] = std::fabs(x[10]);
    const mpq_class want = corner(QN(x[0]), QN(x[1]), QN(x[2]), QN(x[3]), QN(x[4]), QN(x[5]), QN(x[6]), QN(x[7]),
                                  QN(x[8]), QN(x[9]), QN(x[10]))
                               .v;
    const int got = exact::exact_sign(corner, x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], x[8], x[9], x[10]);
    if (got != sign_of(want)) {
      ++failures;
      FAIL_CHECK("case " << i);
    }
  }
  CHECK(failures == 0);
}

}  // namespace hitgrid
