// raycast(Segment/Ray/Line, Box): hand-worked cases; the segment hit against
// intersects(Segment, Box); everything against an exact Liang-Barsky clip over the
// rationals (hit, starts/ends exact; times and points within the bounds of ray_box.hpp).
#include "hitgrid/core/ray_box.hpp"

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

// --- exact reference: clip the parameter range slab by slab over the rationals ----------

struct RefClip {
  bool hit = false;
  std::optional<mpq_class> lo, hi;  // nullopt: -inf / +inf
};

RefClip ref_clip(const QVec& o, const QVec& d, std::optional<mpq_class> lo, std::optional<mpq_class> hi,
                 const Box& b) {
  const mpq_class mins[2] = {Q(b.min.x), Q(b.min.y)};
  const mpq_class maxs[2] = {Q(b.max.x), Q(b.max.y)};
  const mpq_class os[2] = {o.x, o.y};
  const mpq_class ds[2] = {d.x, d.y};
  for (int k = 0; k < 2; ++k) {
    if (ds[k] == 0) {
      if (os[k] < mins[k] || os[k] > maxs[k]) return {};
      continue;
    }
    const mpq_class t1 = (mins[k] - os[k]) / ds[k];
    const mpq_class t2 = (maxs[k] - os[k]) / ds[k];
    const mpq_class enter = qmin(t1, t2), exit = qmax(t1, t2);
    lo = lo ? qmax(*lo, enter) : enter;
    hi = hi ? qmin(*hi, exit) : exit;
  }
  RefClip r;
  r.hit = !lo || !hi || *lo <= *hi;
  r.lo = lo;
  r.hi = hi;
  return r;
}

bool in_box(const Box& b, Vec2d p) { return b.min.x <= p.x && p.x <= b.max.x && b.min.y <= p.y && p.y <= b.max.y; }
bool in_box(const Box& b, Vec2 p) { return in_box(b, to_double(p)); }

/// One end (time and point) of a hit against its exact value.
bool end_ok(double t, Vec2d p, const std::optional<mpq_class>& tstar, const QVec& o, const QVec& d) {
  if (!tstar) return std::isinf(t) && QV(p) == o;  // only a query that does not move
  if (!within(t, *tstar, pow2(-49) * qabs(*tstar))) return false;
  const mpq_class tol = pow2(-47) * (norm_inf(o) + qabs(*tstar) * norm_inf(d));
  const QVec pstar = add(o, scale(*tstar, d));
  return within(p.x, pstar.x, tol) && within(p.y, pstar.y, tol);
}

/// Compare a cast with the reference; is_segment: the query's range is [0, 1] and `end`
/// its second point.
bool check_cast(const RayHit& got, const RefClip& ref, const QVec& o, const QVec& d, const Box& b, Vec2 origin,
                std::optional<Vec2> end) {
  if (got.hit != ref.hit) return false;
  if (!got.hit) return got.t_near == 0.0 && got.t_far == 0.0;
  if (std::isnan(got.t_near) || std::isnan(got.t_far) || !(got.t_near <= got.t_far)) return false;
  if (!in_box(b, got.p_near) || !in_box(b, got.p_far)) return false;
  if (got.starts_inside && (got.t_near != 0.0 || got.p_near != to_double(origin))) return false;
  if (got.ends_inside && (got.t_far != 1.0 || !end || got.p_far != to_double(*end))) return false;
  return end_ok(got.t_near, got.p_near, ref.lo, o, d) && end_ok(got.t_far, got.p_far, ref.hi, o, d);
}

Box lattice_box(Rng& rng, const Frame& f) {
  int x0 = rng.between(-3, 3), x1 = rng.between(-3, 3), y0 = rng.between(-3, 3), y1 = rng.between(-3, 3);
  if (x0 > x1) std::swap(x0, x1);
  if (y0 > y1) std::swap(y0, y1);
  return {frame_point(f, x0, y0), frame_point(f, x1, y1)};
}

Box random_box(Rng& rng) {
  float x0 = random_float(rng), x1 = rng.chance(0.1) ? x0 : random_float(rng);
  float y0 = random_float(rng), y1 = random_float(rng);
  if (x0 > x1) std::swap(x0, x1);
  if (y0 > y1) std::swap(y0, y1);
  return {{x0, y0}, {x1, y1}};
}

/// A coordinate of the box's edges or corners, sometimes nudged by an ulp.
float edge_coord(Rng& rng, float lo, float hi) { return nudge(rng, rng.chance(0.5) ? lo : hi); }

struct SegCase {
  Segment s;
  Box b;
};

SegCase make_segment_case(Rng& rng, int family) {
  const Frame& f = frames[rng.between(0, 4)];
  switch (family) {
    case 0: {
      const Box b = random_box(rng);
      return {{{random_float(rng), random_float(rng)}, {random_float(rng), random_float(rng)}}, b};
    }
    case 1: {  // lattice segments and boxes (including flat and point boxes)
      return {{frame_point(f, rng.between(-4, 4), rng.between(-4, 4)),
               frame_point(f, rng.between(-4, 4), rng.between(-4, 4))},
              lattice_box(rng, f)};
    }
    case 2: {  // axis-parallel along an edge's line, or one ulp beside it
      const Box b = lattice_box(rng, f);
      if (rng.chance(0.5)) {
        const float y = edge_coord(rng, b.min.y, b.max.y);
        return {{{frame_point(f, rng.between(-4, 4), 0).x, y}, {frame_point(f, rng.between(-4, 4), 0).x, y}}, b};
      }
      const float x = edge_coord(rng, b.min.x, b.max.x);
      return {{{x, frame_point(f, 0, rng.between(-4, 4)).y}, {x, frame_point(f, 0, rng.between(-4, 4)).y}}, b};
    }
    case 3: {  // through a corner: corner +- multiples of a small direction
      const Box b = lattice_box(rng, f);
      const int cx = rng.chance(0.5) ? 0 : 1, cy = rng.chance(0.5) ? 0 : 1;
      const Vec2 corner{cx ? b.max.x : b.min.x, cy ? b.max.y : b.min.y};
      const int dx = rng.between(-2, 2), dy = rng.between(-2, 2);
      const int k0 = rng.between(-3, 0), k1 = rng.between(0, 3);
      const float s = static_cast<float>(f.scale);
      const Segment seg{{corner.x + s * static_cast<float>(k0 * dx), corner.y + s * static_cast<float>(k0 * dy)},
                        {corner.x + s * static_cast<float>(k1 * dx), corner.y + s * static_cast<float>(k1 * dy)}};
      return {{{nudge(rng, seg.a.x), seg.a.y}, {seg.b.x, nudge(rng, seg.b.y)}}, b};
    }
    case 4: {  // zero-length, often on the boundary
      const Box b = lattice_box(rng, f);
      const Vec2 p = rng.chance(0.5) ? Vec2{edge_coord(rng, b.min.x, b.max.x), frame_point(f, 0, rng.between(-4, 4)).y}
                                     : frame_point(f, rng.between(-4, 4), rng.between(-4, 4));
      return {{p, p}, b};
    }
    default: {  // random floats ending exactly on, or an ulp around, the box's edges
      const Box b = random_box(rng);
      const Vec2 a{random_float(rng), random_float(rng)};
      const Vec2 e{edge_coord(rng, b.min.x, b.max.x), rng.chance(0.5) ? edge_coord(rng, b.min.y, b.max.y)
                                                                       : random_float(rng)};
      return {{a, e}, b};
    }
  }
}

}  // namespace

TEST_CASE("raycast box: hand-worked cases", "[geometry][ray_box]") {
  const Box b{{0, 0}, {2, 2}};
  SECTION("segment passing through") {
    const RayHit h = raycast(Segment{{-1, 1}, {3, 1}}, b);
    CHECK(h.hit);
    CHECK(h.t_near == 0.25);
    CHECK(h.t_far == 0.75);
    CHECK(h.p_near == Vec2d{0, 1});
    CHECK(h.p_far == Vec2d{2, 1});
    CHECK(h.enters());
    CHECK(h.exits());
  }
  SECTION("segment starting inside, leaving") {
    const RayHit h = raycast(Segment{{1, 1}, {3, 1}}, b);
    CHECK(h.starts_inside);
    CHECK_FALSE(h.ends_inside);
    CHECK_FALSE(h.enters());
    CHECK(h.exits());
    CHECK(h.t_near == 0.0);
    CHECK(h.t_far == 0.5);
    CHECK(h.p_near == Vec2d{1, 1});
  }
  SECTION("segment entering, ending inside") {
    const RayHit h = raycast(Segment{{1, 5}, {1, 1}}, b);
    CHECK(h.enters());
    CHECK_FALSE(h.exits());
    CHECK(h.t_near == 0.75);
    CHECK(h.t_far == 1.0);
    CHECK(h.p_near == Vec2d{1, 2});
    CHECK(h.p_far == Vec2d{1, 1});
  }
  SECTION("through a corner only") {
    const RayHit h = raycast(Segment{{-1, 1}, {1, -1}}, b);
    CHECK(h.hit);
    CHECK(h.t_near == 0.5);
    CHECK(h.t_far == 0.5);
    CHECK(h.p_near == Vec2d{0, 0});
  }
  SECTION("along an edge") {
    const RayHit h = raycast(Segment{{-1, 0}, {3, 0}}, b);
    CHECK(h.hit);
    CHECK(h.t_near == 0.25);
    CHECK(h.t_far == 0.75);
    CHECK(h.p_near == Vec2d{0, 0});
    CHECK(h.p_far == Vec2d{2, 0});
  }
  SECTION("misses: beside, short, one ulp outside an edge") {
    CHECK_FALSE(raycast(Segment{{-1, 3}, {3, 3}}, b).hit);
    CHECK_FALSE(raycast(Segment{{-3, 1}, {-1, 1}}, b).hit);
    CHECK_FALSE(raycast(Segment{{-1, std::nextafter(2.0f, 3.0f)}, {3, std::nextafter(2.0f, 3.0f)}}, b).hit);
    CHECK(raycast(Segment{{-1, 2}, {3, 2}}, b).hit);
  }
  SECTION("zero-length segments") {
    RayHit h = raycast(Segment{{1, 1}, {1, 1}}, b);
    CHECK(h.hit);
    CHECK(h.t_near == 0.0);
    CHECK(h.t_far == 1.0);
    h = raycast(Segment{{0, 2}, {0, 2}}, b);  // a corner
    CHECK(h.hit);
    CHECK(h.starts_inside);
    CHECK(h.ends_inside);
    CHECK_FALSE(raycast(Segment{{3, 1}, {3, 1}}, b).hit);
  }
  SECTION("rays") {
    RayHit h = raycast(Ray{{-1, 1}, {1, 0}}, b);
    CHECK(h.hit);
    CHECK(h.t_near == 1.0);
    CHECK(h.t_far == 3.0);
    CHECK(h.p_far == Vec2d{2, 1});
    CHECK_FALSE(raycast(Ray{{3, 1}, {1, 0}}, b).hit);  // pointing away
    CHECK(raycast(Ray{{3, 1}, {-4, 0}}, b).t_near == 0.25);
    h = raycast(Ray{{1, 1}, {0, 0}}, b);  // a ray that does not move, inside
    CHECK(h.hit);
    CHECK(h.t_near == 0.0);
    CHECK(h.t_far == inf);
    CHECK(h.p_far == Vec2d{1, 1});
    CHECK_FALSE(raycast(Ray{{3, 3}, {0, 0}}, b).hit);
    CHECK_FALSE(raycast(Ray{{3, 3}, {1, -1}}, b).hit);  // the line touches (2, 4)? no: misses
    CHECK(raycast(Ray{{3, 3}, {-1, -1}}, b).hit);       // the diagonal through two corners
  }
  SECTION("lines") {
    RayHit h = raycast(Line{{5, 1}, {1, 0}}, b);
    CHECK(h.hit);
    CHECK(h.t_near == -5.0);
    CHECK(h.t_far == -3.0);
    CHECK(h.p_near == Vec2d{0, 1});
    CHECK(h.enters());
    CHECK(h.exits());
    h = raycast(Line{{2, 7}, {0, 1}}, b);  // the line x = 2: along the right edge
    CHECK(h.hit);
    CHECK(h.t_near == -7.0);
    CHECK(h.t_far == -5.0);
    CHECK_FALSE(raycast(Line{{4, 0}, {1, 1}}, b).hit);
    CHECK(raycast(Line{{3, 1}, {1, 1}}, b).hit);  // through the corner (2, 0)
    h = raycast(Line{{1, 1}, {0, 0}}, b);
    CHECK(h.hit);
    CHECK(h.t_near == -inf);
    CHECK(h.t_far == inf);
  }
  SECTION("flat and point boxes") {
    const Box flat{{0, 1}, {2, 1}};
    RayHit h = raycast(Segment{{1, 0}, {1, 4}}, flat);
    CHECK(h.hit);
    CHECK(h.t_near == 0.25);
    CHECK(h.t_far == 0.25);
    const Box point{{1, 1}, {1, 1}};
    CHECK(raycast(Segment{{0, 0}, {2, 2}}, point).hit);
    CHECK_FALSE(raycast(Segment{{0, 0}, {2, 3}}, point).hit);
  }
}

TEST_CASE("raycast segment/box: hit equals intersects() and the exact clip", "[geometry][ray_box]") {
  Rng rng(31337);
  int failures = 0;
  long hits = 0, starts = 0, ends = 0, grazes = 0;
  for (int i = 0; i < 120000 && failures < 20; ++i) {
    const SegCase c = make_segment_case(rng, i % 6);
    const RayHit got = raycast(c.s, c.b);
    const QVec o = QV(c.s.a), d = sub(QV(c.s.b), o);
    const RefClip ref = ref_clip(o, d, mpq_class(0), mpq_class(1), c.b);
    const bool ok = got.hit == intersects(c.s, c.b) && got.starts_inside == in_box(c.b, c.s.a) &&
                    got.ends_inside == in_box(c.b, c.s.b) && check_cast(got, ref, o, d, c.b, c.s.a, c.s.b);
    if (!ok) {
      ++failures;
      FAIL_CHECK("segment " << hex(c.s.a) << " -> " << hex(c.s.b) << ", box " << hex(c.b.min) << " " << hex(c.b.max)
                            << ": hit " << got.hit << " [" << got.t_near << ", " << got.t_far << "] reference "
                            << ref.hit);
    }
    hits += got.hit;
    starts += got.starts_inside;
    ends += got.ends_inside;
    grazes += got.hit && got.t_near == got.t_far && !(c.s.a == c.s.b);
  }
  CHECK(failures == 0);
  CHECK(hits > 30000);
  CHECK(starts > 5000);
  CHECK(ends > 5000);
  CHECK(grazes > 1000);  // corners and edges touched at one instant
}

TEST_CASE("raycast ray/line vs box against the exact clip", "[geometry][ray_box]") {
  Rng rng(2718);
  int failures = 0;
  long hits = 0;
  for (int i = 0; i < 40000 && failures < 20; ++i) {
    const Frame& f = frames[rng.between(0, 4)];
    Box b;
    Vec2 o, d;
    if (i % 3 == 0) {
      b = random_box(rng);
      o = {random_float(rng), random_float(rng)};
      d = {rng.chance(0.2) ? 0.0f : random_float(rng), rng.chance(0.2) ? 0.0f : random_float(rng)};
    } else {
      b = lattice_box(rng, f);
      o = frame_point(f, rng.between(-4, 4), rng.between(-4, 4));
      if (i % 3 == 2) o = {edge_coord(rng, b.min.x, b.max.x), o.y};
      d = {static_cast<float>(rng.between(-2, 2)), static_cast<float>(rng.between(-2, 2))};
    }
    const QVec qo = QV(o), qd = QV(d);
    const bool is_ray = i % 2 == 0;
    const RayHit got = is_ray ? raycast(Ray{o, d}, b) : raycast(Line{o, d}, b);
    const RefClip ref = is_ray ? ref_clip(qo, qd, mpq_class(0), std::nullopt, b)
                               : ref_clip(qo, qd, std::nullopt, std::nullopt, b);
    const bool boolean_ok = is_ray ? intersects(Ray{o, d}, b) == ref.hit : intersects(Line{o, d}, b) == ref.hit;
    const bool ok = boolean_ok && got.starts_inside == (is_ray && in_box(b, o)) && !got.ends_inside &&
                    check_cast(got, ref, qo, qd, b, o, std::nullopt);
    if (!ok) {
      ++failures;
      FAIL_CHECK((is_ray ? "ray " : "line ") << hex(o) << " dir " << hex(d) << ", box " << hex(b.min) << " "
                                             << hex(b.max) << ": hit " << got.hit << " [" << got.t_near << ", "
                                             << got.t_far << "] reference " << ref.hit);
    }
    hits += got.hit;
  }
  CHECK(failures == 0);
  CHECK(hits > 10000);
}

}  // namespace hitgrid
