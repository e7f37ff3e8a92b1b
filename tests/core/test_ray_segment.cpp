// raycast(Segment/Ray/Line, Segment): hand-worked cases; the segment hit against
// intersects(Segment, Segment); everything against an exact reference that solves
// origin + t direction = a + s (b - a) over the rationals (Cramer's rule, or the times of a
// and b when the two are parallel): hit, starts/ends exact; times and points within the
// bounds of ray_segment.hpp, and the points that are inputs exactly equal to them.
#include "hitgrid/core/ray_segment.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <cstdio>
#include <optional>
#include <string>
#include <tuple>

#include "geometry_reference.hpp"
#include "hitgrid/core/intersects.hpp"

namespace hitgrid {
namespace {

using namespace geomtest;
constexpr double inf = std::numeric_limits<double>::infinity();
using Opt = std::optional<mpq_class>;  // nullopt: an infinite range end

// --- exact reference -----------------------------------------------------------------------

struct RefCast {
  bool hit = false;
  bool single_point = false;  // the query does not move: the whole range
  mpq_class lo, hi;           // otherwise: the exact times of contact
};

bool on_closed_segment(const QVec& p, const QVec& a, const QVec& b) { return dist2_to_segment(p, a, b) == 0; }

bool in_range(const mpq_class& t, const Opt& lo, const Opt& hi) { return (!lo || *lo <= t) && (!hi || t <= *hi); }

/// The times t in [lo, hi] at which o + t d lies on the closed segment [a, b].
RefCast ref_cast(const QVec& o, const QVec& d, const Opt& lo, const Opt& hi, const QVec& a, const QVec& b) {
  RefCast r;
  if (d.x == 0 && d.y == 0) {
    r.hit = on_closed_segment(o, a, b);
    r.single_point = true;
    return r;
  }
  const QVec e = sub(b, a);
  const mpq_class det = cross(d, e);
  if (det != 0) {
    // o + t d = a + s e, solved for (t, s).
    const QVec w = sub(a, o);
    const mpq_class t = cross(w, e) / det;
    const mpq_class s = cross(w, d) / det;
    r.hit = 0 <= s && s <= 1 && in_range(t, lo, hi);
    r.lo = r.hi = t;
    return r;
  }
  // Parallel (or e == 0): the segment is on the query's line or misses it.
  if (cross(d, sub(a, o)) != 0) return r;
  const mpq_class dd = dot(d, d);
  const mpq_class ta = dot(d, sub(a, o)) / dd, tb = dot(d, sub(b, o)) / dd;
  mpq_class t0 = qmin(ta, tb), t1 = qmax(ta, tb);
  if (lo) t0 = qmax(t0, *lo);
  if (hi) t1 = qmin(t1, *hi);
  r.hit = t0 <= t1;
  r.lo = t0;
  r.hi = t1;
  return r;
}

struct Query {
  enum Kind { segment, ray, line } kind;
  Vec2 p, q;  // segment: a, b; ray / line: origin (point), direction
};

/// Compare a cast with the reference.
bool check(const Query& query, const Segment& s, const RayHit& got) {
  const QVec o = QV(query.p);
  const QVec d = query.kind == Query::segment ? sub(QV(query.q), o) : QV(query.q);
  const Opt lo = query.kind == Query::line ? Opt() : Opt(mpq_class(0));
  const Opt hi = query.kind == Query::segment ? Opt(mpq_class(1)) : Opt();
  const QVec a = QV(s.a), b = QV(s.b);
  const RefCast ref = ref_cast(o, d, lo, hi, a, b);
  if (got.hit != ref.hit) return false;
  const bool starts = query.kind != Query::line && on_closed_segment(o, a, b);
  const bool ends = query.kind == Query::segment && on_closed_segment(QV(query.q), a, b);
  if (got.starts_inside != (ref.hit && starts) || got.ends_inside != (ref.hit && ends)) return false;
  if (!got.hit) return got.t_near == 0.0 && got.t_far == 0.0 && got.p_near == Vec2d{} && got.p_far == Vec2d{};
  if (std::isnan(got.t_near) || std::isnan(got.t_far) || !(got.t_near <= got.t_far)) return false;
  if (got.starts_inside && (got.t_near != 0.0 || got.p_near != to_double(query.p))) return false;
  if (got.ends_inside && (got.t_far != 1.0 || got.p_far != to_double(query.q))) return false;
  if (ref.single_point) {
    const double want_lo = lo ? lo->get_d() : -inf, want_hi = hi ? hi->get_d() : inf;
    return got.t_near == want_lo && got.t_far == want_hi && got.p_near == to_double(query.p) &&
           got.p_far == to_double(query.p);
  }
  // M: the largest |coordinate| of the target and, for a segment query, of the query.
  mpq_class m = qmax(norm_inf(a), norm_inf(b));
  if (query.kind == Query::segment) m = qmax(m, qmax(norm_inf(o), norm_inf(QV(query.q))));
  const mpq_class tol_t = pow2(-46), tol_p = pow2(-44) * m;
  const Box bbox{{std::min(s.a.x, s.b.x), std::min(s.a.y, s.b.y)}, {std::max(s.a.x, s.b.x), std::max(s.a.y, s.b.y)}};
  for (const auto& [t, p, tstar] :
       {std::tuple{got.t_near, got.p_near, ref.lo}, std::tuple{got.t_far, got.p_far, ref.hi}}) {
    if (!within(t, tstar, tol_t * qabs(tstar))) return false;
    const QVec pstar = add(o, scale(tstar, d));
    // A point that is an input (an endpoint of either, the query's first point) is exact.
    const bool is_input = pstar == a || pstar == b || (query.kind != Query::line && pstar == o) ||
                          (query.kind == Query::segment && pstar == QV(query.q));
    if (is_input ? !(QV(p) == pstar) : !(within(p.x, pstar.x, tol_p) && within(p.y, pstar.y, tol_p))) return false;
    if (!(bbox.min.x <= p.x && p.x <= bbox.max.x && bbox.min.y <= p.y && p.y <= bbox.max.y)) return false;
  }
  return true;
}

RayHit cast(const Query& q, const Segment& s) {
  switch (q.kind) {
    case Query::segment: return raycast(Segment{q.p, q.q}, s);
    case Query::ray: return raycast(Ray{q.p, q.q}, s);
    default: return raycast(Line{q.p, q.q}, s);
  }
}

// --- inputs --------------------------------------------------------------------------------

struct Case {
  Query query;
  Segment s;
};

/// The second input of a query that starts at lattice point (i, j) and moves by
/// pitch * (dx, dy) per unit time: a point for a segment query, the direction for rays and
/// lines.
Vec2 second(const Frame& f, Query::Kind kind, int i, int j, int dx, int dy) {
  if (kind == Query::segment) return frame_point(f, i + dx, j + dy);
  return {pitch(f, dx), pitch(f, dy)};
}

Case make_case(Rng& rng, int family, Query::Kind kind) {
  const Frame& f = any_frame(rng);
  auto lat = [&](int lo, int hi) { return rng.between(lo, hi); };
  switch (family) {
    case 0: {  // random floats
      const Vec2 p{random_float(rng), random_float(rng)};
      const Vec2 q =
          rng.chance(0.1) ? (kind == Query::segment ? p : Vec2{}) : Vec2{random_float(rng), random_float(rng)};
      return {{kind, p, q}, {{random_float(rng), random_float(rng)}, {random_float(rng), random_float(rng)}}};
    }
    case 1: {  // lattice: crossings, endpoints, zero-length segments, zero directions
      const int i = lat(-4, 4), j = lat(-4, 4);
      const Vec2 p = frame_point(f, i, j);
      const Vec2 a = frame_point(f, lat(-4, 4), lat(-4, 4));
      const Vec2 b = rng.chance(0.15) ? a : frame_point(f, lat(-4, 4), lat(-4, 4));
      return {{kind, p, second(f, kind, i, j, lat(-3, 3), lat(-3, 3))}, {a, b}};
    }
    case 2: {  // through an endpoint (or one ulp beside it)
      const int i = lat(-4, 4), j = lat(-4, 4);
      const int ai = lat(-4, 4), aj = lat(-4, 4), k = lat(1, 2);
      const Vec2 p = frame_point(f, i, j);
      const Vec2 a = frame_point(f, ai, aj);
      const Vec2 b = frame_point(f, lat(-4, 4), lat(-4, 4));
      // Moving by k (a - p) per unit time passes a at t = 1 / k (and reverses for rays
      // sometimes, to pass behind).
      const int sign = rng.chance(0.8) ? 1 : -1;
      Vec2 q = second(f, kind, i, j, sign * k * (ai - i), sign * k * (aj - j));
      q.x = nudge(rng, q.x);
      return rng.chance(0.5) ? Case{{kind, p, q}, {a, b}} : Case{{kind, p, q}, {b, a}};
    }
    case 3: {  // along the segment's line: overlap, touching end to end, disjoint; or one
               // ulp off the line (parallel)
      const int ux = lat(-2, 2), uy = lat(-2, 2);
      const int m = lat(-4, 4), n = lat(-4, 4), k = lat(-6, 6), step = lat(-3, 3);
      const Vec2 a = frame_point(f, m * ux, m * uy);
      const Vec2 b = frame_point(f, n * ux, n * uy);
      Vec2 p = frame_point(f, k * ux, k * uy);
      Vec2 q = second(f, kind, k * ux, k * uy, step * ux, step * uy);
      if (rng.chance(0.3)) {  // shift the query's points by an ulp in x or in y, the same way
        const bool in_x = rng.chance(0.5);
        const float to = rng.chance(0.5) ? 1e38f : -1e38f;
        float& pc = in_x ? p.x : p.y;
        pc = std::nextafter(pc, to);
        if (kind == Query::segment) {
          float& qc = in_x ? q.x : q.y;
          qc = std::nextafter(qc, to);
        }
      }
      return {{kind, p, q}, {a, b}};
    }
    case 4: {  // starting on the segment (an endpoint, its middle), or on its line beyond it
      const int cx = lat(-3, 3), cy = lat(-3, 3), ux = lat(-2, 2), uy = lat(-2, 2);
      const int k = lat(-2, 2);  // c + k u: k = +-1 the ends, 0 the middle, +-2 beyond
      const Segment s{frame_point(f, cx - ux, cy - uy), frame_point(f, cx + ux, cy + uy)};
      const int i = rng.chance(0.8) ? cx + k * ux : lat(-4, 4), j = rng.chance(0.8) ? cy + k * uy : lat(-4, 4);
      const Vec2 p = frame_point(f, i, j);
      return {{kind, p, second(f, kind, i, j, lat(-2, 2), lat(-2, 2))}, rng.chance(0.5) ? s : Segment{s.b, s.a}};
    }
    case 5: {  // starting on s at k / m of its length (m = 3, 5, 7: not a dyadic fraction),
               // near the origin while a and b are far from it (so that a + s (b - a)
               // cancels); every coordinate exact in float
      const float unit = std::ldexp(1.0f, rng.between(-40, 40));
      auto bits = [&](int n) { return unit * static_cast<float>(rng.between(-(1 << n), 1 << n)); };
      const int m = 2 * rng.between(1, 3) + 1, k = rng.between(1, m - 1);
      // The direction's components are of very different size, so that the cross products
      // that place the crossing round (and the rounded crossing is not the start by luck).
      const float dy = std::ldexp(bits(23), -rng.between(10, 40));
      const Vec2 p{bits(2), bits(2)}, g{bits(rng.between(8, 21)), bits(rng.between(8, 21))};
      const Vec2 d = rng.chance(0.5) ? Vec2{bits(23), dy} : Vec2{dy, bits(23)};
      const auto at = [&](int j) {
        return Vec2{p.x + static_cast<float>(j - k) * g.x, p.y + static_cast<float>(j - k) * g.y};
      };
      return {{kind, p, kind == Query::segment ? Vec2{p.x + d.x, p.y + d.y} : d}, {at(0), at(m)}};
    }
    default: {  // crossing in the interior at a lattice point, or ending exactly on s
      const int cx = lat(-3, 3), cy = lat(-3, 3);
      const int ex = lat(-2, 2), ey = lat(-2, 2);
      const Segment s{frame_point(f, cx - ex, cy - ey), frame_point(f, cx + ex, cy + ey)};
      const int dx = lat(-2, 2), dy = lat(-2, 2), back = lat(0, 3);
      const Vec2 p = frame_point(f, cx - back * dx, cy - back * dy);
      const Vec2 q = kind == Query::segment ? frame_point(f, cx + lat(0, 2) * dx, cy + lat(0, 2) * dy)
                                            : Vec2{pitch(f, dx), pitch(f, dy)};
      return {{kind, p, {nudge(rng, q.x), q.y}}, s};
    }
  }
}

std::string describe(const Query& q, const Segment& s, const RayHit& h) {
  const char* kind = q.kind == Query::segment ? "segment" : q.kind == Query::ray ? "ray" : "line";
  char buf[400];
  std::snprintf(buf, sizeof buf, "%s %s %s vs %s %s: hit %d in %d%d [%.17g, %.17g]", kind, hex(q.p).c_str(),
                hex(q.q).c_str(), hex(s.a).c_str(), hex(s.b).c_str(), h.hit, h.starts_inside, h.ends_inside,
                h.t_near, h.t_far);
  return buf;
}

}  // namespace

TEST_CASE("raycast segment: hand-worked cases", "[geometry][ray_segment]") {
  const Segment s{{0, 0}, {4, 0}};
  SECTION("crossing the interior") {
    const RayHit h = raycast(Segment{{1, -2}, {3, 2}}, s);
    CHECK(h.hit);
    CHECK(h.t_near == 0.5);
    CHECK(h.t_far == 0.5);
    CHECK(h.p_near == Vec2d{2, 0});
    CHECK(h.enters());
    CHECK(h.exits());
    const RayHit r = raycast(Ray{{1, -2}, {1, 2}}, s);
    CHECK(r.t_near == 1.0);
    CHECK(r.p_near == Vec2d{2, 0});
    CHECK(raycast(Line{{1, -2}, {-1, -2}}, s).t_near == -1.0);
  }
  SECTION("through an endpoint; one ulp beside it misses") {
    RayHit h = raycast(Ray{{-1, -1}, {1, 1}}, s);  // through (0, 0)
    CHECK(h.hit);
    CHECK(h.t_near == 1.0);
    CHECK(h.p_near == Vec2d{0, 0});
    CHECK_FALSE(raycast(Ray{{-1, -1}, {1, std::nextafter(1.0f, 2.0f)}}, s).hit);  // reaches y = 0 at x < 0
    CHECK(raycast(Ray{{5, 1}, {-1, -1}}, s).p_near == Vec2d{4, 0});
    CHECK_FALSE(raycast(Ray{{std::nextafter(5.0f, 6.0f), 1}, {-1, -1}}, s).hit);
  }
  SECTION("collinear: the whole contact interval") {
    RayHit h = raycast(Ray{{-2, 0}, {1, 0}}, s);
    CHECK(h.hit);
    CHECK_FALSE(h.starts_inside);
    CHECK(h.t_near == 2.0);
    CHECK(h.t_far == 6.0);
    CHECK(h.p_near == Vec2d{0, 0});
    CHECK(h.p_far == Vec2d{4, 0});
    h = raycast(Ray{{6, 0}, {-2, 0}}, s);  // from the other side
    CHECK(h.t_near == 1.0);
    CHECK(h.t_far == 3.0);
    CHECK(h.p_near == Vec2d{4, 0});
    CHECK_FALSE(raycast(Ray{{6, 0}, {2, 0}}, s).hit);  // pointing away
    h = raycast(Ray{{1, 0}, {1, 0}}, s);              // starting inside
    CHECK(h.starts_inside);
    CHECK(h.t_near == 0.0);
    CHECK(h.t_far == 3.0);
    h = raycast(Ray{{4, 0}, {1, 0}}, s);  // starting at the end, leaving: one instant
    CHECK(h.starts_inside);
    CHECK(h.t_near == 0.0);
    CHECK(h.t_far == 0.0);
    h = raycast(Segment{{-1, 0}, {2, 0}}, s);
    CHECK(h.ends_inside);
    CHECK(h.t_near == 1.0 / 3.0);
    CHECK(h.t_far == 1.0);
    CHECK(h.p_far == Vec2d{2, 0});
    h = raycast(Segment{{-1, 0}, {0, 0}}, s);  // end to end
    CHECK(h.hit);
    CHECK(h.t_near == 1.0);
    CHECK(h.t_far == 1.0);
    h = raycast(Line{{8, 0}, {-2, 0}}, s);
    CHECK(h.t_near == 2.0);
    CHECK(h.t_far == 4.0);
    CHECK(h.p_near == Vec2d{4, 0});
  }
  SECTION("parallel one ulp off the line") {
    const float y = std::nextafter(0.0f, 1.0f);
    CHECK_FALSE(raycast(Ray{{-2, y}, {1, 0}}, s).hit);
    CHECK_FALSE(raycast(Line{{-2, -y}, {1, 0}}, s).hit);
    CHECK_FALSE(raycast(Segment{{-2, y}, {6, y}}, s).hit);
    CHECK(raycast(Segment{{-2, y}, {6, -y}}, s).hit);  // crosses at x = 2
  }
  SECTION("starting on the segment, not along it") {
    const RayHit h = raycast(Ray{{1, 0}, {0, 1}}, s);
    CHECK(h.hit);
    CHECK(h.starts_inside);
    CHECK(h.t_near == 0.0);
    CHECK(h.t_far == 0.0);
    CHECK(h.p_near == Vec2d{1, 0});
    CHECK(h.exits());
    CHECK_FALSE(h.enters());
  }
  SECTION("zero-length segments and zero directions") {
    const Segment dot{{1, 1}, {1, 1}};
    RayHit h = raycast(Ray{{0, 0}, {2, 2}}, dot);
    CHECK(h.hit);
    CHECK(h.t_near == 0.5);
    CHECK(h.p_near == Vec2d{1, 1});
    CHECK_FALSE(raycast(Ray{{0, 0}, {2, std::nextafter(2.0f, 3.0f)}}, dot).hit);
    CHECK_FALSE(raycast(Ray{{2, 2}, {1, 1}}, dot).hit);  // behind
    h = raycast(Ray{{2, 0}, {0, 0}}, s);                 // a ray that does not move, on s
    CHECK(h.hit);
    CHECK(h.t_far == inf);
    CHECK_FALSE(raycast(Ray{{2, 1}, {0, 0}}, s).hit);
    h = raycast(Line{{3, 0}, {0, 0}}, s);
    CHECK(h.t_near == -inf);
    CHECK(h.t_far == inf);
    h = raycast(Segment{{4, 0}, {4, 0}}, s);
    CHECK(h.starts_inside);
    CHECK(h.ends_inside);
    CHECK(h.t_near == 0.0);
    CHECK(h.t_far == 1.0);
  }
  SECTION("intersects() for rays and lines") {
    CHECK(intersects(Ray{{2, 5}, {0, -1}}, s));
    CHECK_FALSE(intersects(Ray{{2, 5}, {0, 1}}, s));
    CHECK(intersects(Line{{2, 5}, {0, 1}}, s));
    CHECK_FALSE(intersects(Line{{5, 5}, {0, 1}}, s));
    CHECK(intersects(Line{{4, 5}, {0, 1}}, s));
  }
}

TEST_CASE("raycast segment/segment: hit equals intersects() and the exact reference", "[geometry][ray_segment]") {
  Rng rng(4242);
  int failures = 0;
  long hits = 0, starts = 0, ends = 0, overlaps = 0;
  for (int i = 0; i < 60000 && failures < 20; ++i) {
    const Case c = make_case(rng, i % 7, Query::segment);
    const Segment q{c.query.p, c.query.q};
    const RayHit got = cast(c.query, c.s);
    if (got.hit != intersects(q, c.s) || !check(c.query, c.s, got)) {
      ++failures;
      FAIL_CHECK(describe(c.query, c.s, got));
    }
    hits += got.hit;
    starts += got.starts_inside;
    ends += got.ends_inside;
    overlaps += got.hit && got.t_near < got.t_far && !(q.a == q.b);
  }
  CHECK(failures == 0);
  CHECK(hits > 15000);
  CHECK(starts > 3000);
  CHECK(ends > 2000);
  CHECK(overlaps > 1000);
}

TEST_CASE("raycast ray/line vs segment against the exact reference", "[geometry][ray_segment]") {
  Rng rng(9001);
  int failures = 0;
  long hits = 0, starts = 0, along = 0, misses = 0;
  for (int i = 0; i < 80000 && failures < 20; ++i) {
    const Query::Kind kind = i % 2 == 0 ? Query::ray : Query::line;
    const Case c = make_case(rng, (i / 2) % 7, kind);
    const RayHit got = cast(c.query, c.s);
    const bool boolean = kind == Query::ray ? intersects(Ray{c.query.p, c.query.q}, c.s)
                                            : intersects(Line{c.query.p, c.query.q}, c.s);
    if (boolean != got.hit || got.ends_inside || !check(c.query, c.s, got)) {
      ++failures;
      FAIL_CHECK(describe(c.query, c.s, got));
    }
    hits += got.hit;
    misses += !got.hit;
    starts += got.starts_inside;
    along += got.hit && got.t_near < got.t_far && std::isfinite(got.t_far) && std::isfinite(got.t_near);
  }
  CHECK(failures == 0);
  CHECK(hits > 20000);
  CHECK(misses > 20000);
  CHECK(starts > 3000);
  CHECK(along > 2000);
}

}  // namespace hitgrid
