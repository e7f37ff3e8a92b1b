// segment_intersection and line_intersection against hand-worked answers, against
// intersects(Segment, Segment), and against an exact GMP reference (kind exact; points
// and parameters within the bounds stated in segment_intersection.hpp).
#include "hitgrid/core/segment_intersection.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "geometry_reference.hpp"
#include "hitgrid/core/intersects.hpp"
#include "hitgrid/core/predicates.hpp"

namespace hitgrid {
namespace {

using namespace geomtest;
using Kind = SegmentIntersectionKind;

// --- exact reference: solve a + s r = c + t q over the rationals -------------------------

struct RefSeg {
  Kind kind = Kind::none;
  QVec p0, p1;             // point (p0 == p1) or overlap ends, ordered by s
  mpq_class s0, s1, t0, t1;
};

/// Parameter of a point known to be on the segment (c, c + q): dot(p - c, q) / |q|^2, 0 on
/// a zero-length segment.
mpq_class param(const QVec& p, const QVec& c, const QVec& q) {
  const mpq_class qq = dot(q, q);
  return qq == 0 ? mpq_class(0) : mpq_class(dot(sub(p, c), q) / qq);
}

RefSeg ref_point(const QVec& p, const QVec& a, const QVec& r, const QVec& c, const QVec& q) {
  RefSeg ref;
  ref.kind = Kind::point;
  ref.p0 = ref.p1 = p;
  ref.s0 = ref.s1 = param(p, a, r);
  ref.t0 = ref.t1 = param(p, c, q);
  return ref;
}

bool in01(const mpq_class& v) { return v >= 0 && v <= 1; }

RefSeg reference(const Segment& P, const Segment& S) {
  const QVec a = QV(P.a), b = QV(P.b), c = QV(S.a), d = QV(S.b);
  const QVec r = sub(b, a), q = sub(d, c);
  const bool pdeg = r.x == 0 && r.y == 0;
  const bool qdeg = q.x == 0 && q.y == 0;
  if (pdeg && qdeg) return a == c ? ref_point(a, a, r, c, q) : RefSeg{};
  if (pdeg) {
    if (cross(q, sub(a, c)) != 0) return {};
    return in01(param(a, c, q)) ? ref_point(a, a, r, c, q) : RefSeg{};
  }
  if (qdeg) {
    if (cross(r, sub(c, a)) != 0) return {};
    return in01(param(c, a, r)) ? ref_point(c, a, r, c, q) : RefSeg{};
  }
  const mpq_class den = cross(r, q);
  if (den != 0) {
    const mpq_class s = cross(sub(c, a), q) / den;
    const mpq_class t = cross(sub(c, a), r) / den;
    if (!in01(s) || !in01(t)) return {};
    return ref_point(add(a, scale(s, r)), a, r, c, q);
  }
  if (cross(sub(c, a), r) != 0) return {};  // parallel, distinct lines
  // Collinear: intersect the parameter intervals on the first segment.
  const mpq_class tc = param(c, a, r), td = param(d, a, r);
  const mpq_class lo = qmax(mpq_class(0), qmin(tc, td));
  const mpq_class hi = qmin(mpq_class(1), qmax(tc, td));
  if (lo > hi) return {};
  if (lo == hi) return ref_point(add(a, scale(lo, r)), a, r, c, q);
  RefSeg ref;
  ref.kind = Kind::overlap;
  ref.p0 = add(a, scale(lo, r));
  ref.p1 = add(a, scale(hi, r));
  ref.s0 = lo;
  ref.s1 = hi;
  ref.t0 = param(ref.p0, c, q);
  ref.t1 = param(ref.p1, c, q);
  return ref;
}

mpq_class max_coord(std::initializer_list<Vec2> pts) {
  mpq_class m = 0;
  for (const Vec2 p : pts) m = qmax(m, qmax(qabs(Q(p.x)), qabs(Q(p.y))));
  return m;
}

/// Check one pair against the reference and the stated bounds; returns false on failure.
bool check_pair(const Segment& P, const Segment& S) {
  const SegmentIntersection got = segment_intersection(P, S);
  const RefSeg ref = reference(P, S);
  INFO("P = " << hex(P.a) << " -> " << hex(P.b) << ", Q = " << hex(S.a) << " -> " << hex(S.b));
  if (got.kind != ref.kind || got.hit() != intersects(P, S)) {
    FAIL_CHECK("kind " << int(got.kind) << ", reference " << int(ref.kind) << ", intersects " << intersects(P, S));
    return false;
  }
  if (ref.kind == Kind::none) return true;
  const mpq_class param_tol = pow2(-46);
  bool ok = within(got.s0, ref.s0, param_tol * qabs(ref.s0)) && within(got.s1, ref.s1, param_tol * qabs(ref.s1)) &&
            within(got.t0, ref.t0, param_tol * qabs(ref.t0)) && within(got.t1, ref.t1, param_tol * qabs(ref.t1));
  if (got.exact_point) {
    ok = ok && QV(got.p0) == ref.p0 && QV(got.p1) == ref.p1;
  } else {
    // Stated: each coordinate within 2^-44 M of the exact point; hence within that
    // distance (times sqrt 2) of both segments.
    const mpq_class tol = pow2(-44) * max_coord({P.a, P.b, S.a, S.b});
    ok = ok && ref.kind == Kind::point && within(got.p0.x, ref.p0.x, tol) && within(got.p0.y, ref.p0.y, tol) &&
         got.p0 == got.p1;
    const QVec p = QV(got.p0);
    ok = ok && dist2_to_segment(p, QV(P.a), QV(P.b)) <= 2 * tol * tol &&
         dist2_to_segment(p, QV(S.a), QV(S.b)) <= 2 * tol * tol;
  }
  if (!ok) {
    FAIL_CHECK("got p0 = (" << got.p0.x << ", " << got.p0.y << ") s0 = " << got.s0 << " t0 = " << got.t0 << " p1 = ("
                            << got.p1.x << ", " << got.p1.y << ") s1 = " << got.s1 << " t1 = " << got.t1
                            << "; reference s0 = " << ref.s0.get_d() << " t0 = " << ref.t0.get_d());
  }
  return ok;
}

Segment lattice_segment(Rng& rng, const Frame& f, int n) {
  return {frame_point(f, rng.between(-n, n), rng.between(-n, n)), frame_point(f, rng.between(-n, n), rng.between(-n, n))};
}

}  // namespace

TEST_CASE("segment_intersection: hand-worked cases", "[geometry][segment_intersection]") {
  SECTION("proper crossing: exact midpoint") {
    const auto r = segment_intersection({{0, 0}, {2, 2}}, {{0, 2}, {2, 0}});
    CHECK(r.kind == Kind::point);
    CHECK(r.p0 == Vec2d{1, 1});
    CHECK(r.s0 == 0.5);
    CHECK(r.t0 == 0.5);
    CHECK_FALSE(r.exact_point);
  }
  SECTION("T-junction: the endpoint is returned exactly") {
    const auto r = segment_intersection({{0, 0}, {4, 0}}, {{2, 3}, {2, 0}});
    CHECK(r.kind == Kind::point);
    CHECK(r.p0 == Vec2d{2, 0});
    CHECK(r.s0 == 0.5);
    CHECK(r.t0 == 1.0);
    CHECK(r.exact_point);
  }
  SECTION("shared endpoint") {
    const auto r = segment_intersection({{0, 0}, {1, 1}}, {{1, 1}, {2, 0}});
    CHECK(r.kind == Kind::point);
    CHECK(r.p0 == Vec2d{1, 1});
    CHECK(r.s0 == 1.0);
    CHECK(r.t0 == 0.0);
  }
  SECTION("collinear overlap, opposite directions") {
    const auto r = segment_intersection({{0, 0}, {4, 0}}, {{6, 0}, {2, 0}});
    CHECK(r.kind == Kind::overlap);
    CHECK(r.p0 == Vec2d{2, 0});
    CHECK(r.p1 == Vec2d{4, 0});
    CHECK(r.s0 == 0.5);
    CHECK(r.s1 == 1.0);
    CHECK(r.t0 == 1.0);
    CHECK(r.t1 == 0.5);
  }
  SECTION("collinear overlap ordered along a reversed first segment") {
    const auto r = segment_intersection({{4, 0}, {0, 0}}, {{2, 0}, {6, 0}});
    CHECK(r.kind == Kind::overlap);
    CHECK(r.p0 == Vec2d{4, 0});
    CHECK(r.p1 == Vec2d{2, 0});
    CHECK(r.s0 == 0.0);
    CHECK(r.s1 == 0.5);
    CHECK(r.t0 == 0.5);
    CHECK(r.t1 == 0.0);
  }
  SECTION("vertical collinear containment") {
    const auto r = segment_intersection({{3, -1}, {3, 7}}, {{3, 1}, {3, 5}});
    CHECK(r.kind == Kind::overlap);
    CHECK(r.p0 == Vec2d{3, 1});
    CHECK(r.p1 == Vec2d{3, 5});
    CHECK(r.s0 == 0.25);
    CHECK(r.s1 == 0.75);
    CHECK(r.t0 == 0.0);
    CHECK(r.t1 == 1.0);
  }
  SECTION("collinear end to end: one point") {
    const auto r = segment_intersection({{0, 0}, {1, 1}}, {{2, 2}, {1, 1}});
    CHECK(r.kind == Kind::point);
    CHECK(r.p0 == Vec2d{1, 1});
    CHECK(r.s0 == 1.0);
    CHECK(r.t0 == 1.0);
  }
  SECTION("collinear disjoint, parallel distinct, skew disjoint") {
    CHECK(segment_intersection({{0, 0}, {1, 0}}, {{2, 0}, {3, 0}}).kind == Kind::none);
    CHECK(segment_intersection({{0, 0}, {4, 0}}, {{0, 1}, {4, 1}}).kind == Kind::none);
    CHECK(segment_intersection({{0, 0}, {1, 1}}, {{3, 0}, {2, 1}}).kind == Kind::none);
  }
  SECTION("zero-length segments") {
    auto r = segment_intersection({{1, 1}, {1, 1}}, {{0, 0}, {4, 4}});
    CHECK(r.kind == Kind::point);
    CHECK(r.p0 == Vec2d{1, 1});
    CHECK(r.s0 == 0.0);
    CHECK(r.t0 == 0.25);
    r = segment_intersection({{0, 0}, {4, 4}}, {{4, 4}, {4, 4}});
    CHECK(r.kind == Kind::point);
    CHECK(r.s0 == 1.0);
    CHECK(r.t0 == 0.0);
    CHECK(segment_intersection({{2, 2}, {2, 2}}, {{2, 2}, {2, 2}}).kind == Kind::point);
    CHECK(segment_intersection({{2, 2}, {2, 2}}, {{2, 3}, {2, 3}}).kind == Kind::none);
    CHECK(segment_intersection({{1, 2}, {1, 2}}, {{0, 0}, {4, 4}}).kind == Kind::none);
    // On the line through the segment but beyond its end.
    CHECK(segment_intersection({{5, 5}, {5, 5}}, {{0, 0}, {4, 4}}).kind == Kind::none);
  }
  SECTION("one ulp off collinear: a crossing or nothing, never an overlap") {
    const float y = std::nextafter(0.0f, 1.0f);  // the smallest subnormal
    CHECK(segment_intersection({{0, 0}, {4, 0}}, {{1, y}, {3, -y}}).kind == Kind::point);
    CHECK(segment_intersection({{0, 0}, {4, 0}}, {{1, y}, {3, y}}).kind == Kind::none);
  }
}

TEST_CASE("segment_intersection: nearly parallel long segments keep an accurate point",
          "[geometry][segment_intersection]") {
  // Crossing at a shallow angle near 1e7: the plain double formula for s divides two
  // rounded, heavily cancelling cross products. The exact-valued one does not.
  const Segment P{{-1.0e7f, -1.0f}, {1.0e7f, 1.0f}};
  // S starts one ulp above P and ends one ulp below it.
  const Segment S{{-1.0e7f, std::nextafter(-1.0f, 0.0f)}, {1.0e7f, std::nextafter(1.0f, 0.0f)}};
  REQUIRE(segment_intersection(P, S).kind == Kind::point);
  CHECK(check_pair(P, S));
}

TEST_CASE("segment_intersection agrees with intersects() and the exact reference",
          "[geometry][segment_intersection]") {
  Rng rng(20240611);
  long cases = 0, points = 0, overlaps = 0, crossings = 0, failures = 0;
  for (int i = 0; i < 120000; ++i) {
    Segment P, S;
    const int family = i % 6;
    const Frame& f = frames[rng.between(0, 4)];
    switch (family) {
      case 0:  // random floats over many magnitudes
        P = {{random_float(rng), random_float(rng)}, {random_float(rng), random_float(rng)}};
        S = {{random_float(rng), random_float(rng)}, {random_float(rng), random_float(rng)}};
        break;
      case 1:  // small lattice in a frame: collinear, touching, shared endpoints galore
        P = lattice_segment(rng, f, 3);
        S = lattice_segment(rng, f, 3);
        break;
      case 2: {  // near-parallel: the second is the first, endpoints nudged by an ulp
        const float x0 = random_float(rng), y0 = random_float(rng);
        P = {{x0, y0}, {random_float(rng), random_float(rng)}};
        S = {{nudge(rng, P.a.x), nudge(rng, P.a.y)}, {nudge(rng, P.b.x), nudge(rng, P.b.y)}};
        if (rng.chance(0.5)) std::swap(S.a, S.b);
        break;
      }
      case 3:  // zero-length segments on lattices
        P = lattice_segment(rng, f, 2);
        S = lattice_segment(rng, f, 2);
        if (rng.chance(0.5)) P.b = P.a;
        if (rng.chance(0.5)) S.b = S.a;
        break;
      case 4: {  // T-junctions: an endpoint exactly at the midpoint of the other segment
        const int x0 = rng.between(-4, 4), y0 = rng.between(-4, 4);
        const int dx = rng.between(-3, 3), dy = rng.between(-3, 3);
        P = {frame_point(f, x0 - dx, y0 - dy), frame_point(f, x0 + dx, y0 + dy)};
        S = {frame_point(f, x0, y0), frame_point(f, rng.between(-6, 6), rng.between(-6, 6))};
        if (rng.chance(0.3)) S.a = {nudge(rng, S.a.x), nudge(rng, S.a.y)};
        break;
      }
      default: {  // collinear chains a + k d on many slopes
        const int dx = rng.between(-3, 3), dy = rng.between(-3, 3);
        const int ox = rng.between(-3, 3), oy = rng.between(-3, 3);
        auto at = [&](int k) { return frame_point(f, ox + k * dx, oy + k * dy); };
        P = {at(rng.between(-4, 4)), at(rng.between(-4, 4))};
        S = {at(rng.between(-4, 4)), at(rng.between(-4, 4))};
        break;
      }
    }
    if (rng.chance(0.5)) std::swap(P, S);
    ++cases;
    if (!check_pair(P, S) && ++failures > 20) break;
    const auto r = segment_intersection(P, S);
    points += r.kind == Kind::point;
    overlaps += r.kind == Kind::overlap;
    crossings += r.kind == Kind::point && !r.exact_point;
  }
  INFO("cases " << cases);
  CHECK(failures == 0);
  // The families must really produce every kind (a test that can fail).
  CHECK(points > 20000);
  CHECK(overlaps > 5000);
  CHECK(crossings > 8000);
}

TEST_CASE("line_intersection: hand-worked cases and the exact reference", "[geometry][segment_intersection]") {
  SECTION("hand-worked") {
    auto r = line_intersection({0, 0}, {1, 1}, {0, 4}, {1, 3});
    CHECK(r.kind == LineIntersectionKind::point);
    CHECK(r.point == Vec2d{2, 2});
    CHECK(r.s == 2.0);
    CHECK(r.t == 2.0);
    CHECK(line_intersection({0, 0}, {1, 1}, {0, 1}, {2, 3}).kind == LineIntersectionKind::parallel);
    CHECK(line_intersection({0, 0}, {1, 1}, {5, 5}, {-2, -2}).kind == LineIntersectionKind::coincident);
    CHECK(line_intersection({0, 0}, {0, 0}, {5, 5}, {-2, -2}).kind == LineIntersectionKind::degenerate);
    CHECK(line_intersection({0, 0}, {1, 0}, {3, 3}, {3, 3}).kind == LineIntersectionKind::degenerate);
    // Parallel by one ulp at 1e7: still a (far away) crossing, decided exactly.
    r = line_intersection({0, 0}, {1.0e7f, 1.0f}, {0, 1}, {1.0e7f, std::nextafter(2.0f, 3.0f)});
    CHECK(r.kind == LineIntersectionKind::point);
    CHECK(r.s < 0.0);
  }
  SECTION("random and lattice lines against GMP") {
    Rng rng(77);
    long failures = 0, points = 0, parallels = 0;
    for (int i = 0; i < 40000 && failures < 20; ++i) {
      Vec2 a, b, c, d;
      if (i % 2 == 0) {
        a = {random_float(rng), random_float(rng)};
        b = {random_float(rng), random_float(rng)};
        c = {random_float(rng), random_float(rng)};
        d = {nudge(rng, c.x + (b.x - a.x)), nudge(rng, c.y + (b.y - a.y))};  // often nearly parallel
      } else {
        const Frame& f = frames[rng.between(0, 4)];
        a = frame_point(f, rng.between(-3, 3), rng.between(-3, 3));
        b = frame_point(f, rng.between(-3, 3), rng.between(-3, 3));
        c = frame_point(f, rng.between(-3, 3), rng.between(-3, 3));
        d = frame_point(f, rng.between(-3, 3), rng.between(-3, 3));
      }
      const LineIntersection got = line_intersection(a, b, c, d);
      INFO(hex(a) << " " << hex(b) << " " << hex(c) << " " << hex(d));
      const QVec A = QV(a), B = QV(b), C = QV(c), D = QV(d);
      const QVec r = sub(B, A), q = sub(D, C);
      LineIntersectionKind want;
      if (a == b || c == d)
        want = LineIntersectionKind::degenerate;
      else if (cross(r, q) == 0)
        want = cross(sub(C, A), r) == 0 ? LineIntersectionKind::coincident : LineIntersectionKind::parallel;
      else
        want = LineIntersectionKind::point;
      if (got.kind != want) {
        ++failures;
        FAIL_CHECK("kind " << int(got.kind) << " want " << int(want));
        continue;
      }
      parallels += want == LineIntersectionKind::parallel || want == LineIntersectionKind::coincident;
      if (want != LineIntersectionKind::point) continue;
      ++points;
      const mpq_class den = cross(r, q);
      const mpq_class s = cross(sub(C, A), q) / den;
      const mpq_class t = cross(sub(C, A), r) / den;
      const QVec p = add(A, scale(s, r));
      const mpq_class tol = pow2(-45) * (max_coord({a, b, c, d}) + norm_inf(QV(got.point)));
      const bool ok = within(got.s, s, pow2(-46) * qabs(s)) && within(got.t, t, pow2(-46) * qabs(t)) &&
                      within(got.point.x, p.x, tol) && within(got.point.y, p.y, tol);
      if (!ok) {
        ++failures;
        FAIL_CHECK("s " << got.s << " vs " << s.get_d() << ", t " << got.t << " vs " << t.get_d());
      }
    }
    CHECK(failures == 0);
    CHECK(points > 20000);
    CHECK(parallels > 1000);
  }
}

}  // namespace hitgrid
