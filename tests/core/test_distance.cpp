// signed_distance_to_line, closest_point_on_segment, distance_to_segment: hand-worked
// values, the exact GMP reference (signs and features exact, magnitudes within the bounds
// of distance.hpp), and consistency with the exact intersects(Segment, Circle).
#include "hitgrid/core/distance.hpp"

#include <catch2/catch.hpp>

#include <cmath>

#include "geometry_reference.hpp"
#include "hitgrid/core/intersects.hpp"
#include "hitgrid/core/predicates.hpp"

namespace hitgrid {
namespace {

using namespace geomtest;

/// |d - d*| <= eps d*, where d*^2 = exact2 (d*, d >= 0): checked on squares, exactly.
bool distance_within(double d, const mpq_class& exact2, const mpq_class& eps) {
  if (d < 0) return false;
  const mpq_class dd = Q(d) * Q(d);
  const mpq_class lo = (1 - eps) * (1 - eps) * exact2;
  const mpq_class hi = (1 + eps) * (1 + eps) * exact2;
  return lo <= dd && dd <= hi;
}

struct Case {
  Vec2 p;
  Segment s;
};

Case make_case(Rng& rng, int family) {
  const Frame& f = frames[rng.between(0, 4)];
  switch (family) {
    case 0:
      return {{random_float(rng), random_float(rng)},
              {{random_float(rng), random_float(rng)}, {random_float(rng), random_float(rng)}}};
    case 1:  // lattice: on the line, on the segment, at the perpendiculars through the ends
      return {frame_point(f, rng.between(-4, 4), rng.between(-4, 4)),
              {frame_point(f, rng.between(-3, 3), rng.between(-3, 3)),
               frame_point(f, rng.between(-3, 3), rng.between(-3, 3))}};
    case 2: {  // p on the segment's line (collinear multiples), one ulp off
      const int dx = rng.between(-3, 3), dy = rng.between(-3, 3);
      const int k = rng.between(-6, 6);
      const Vec2 q = frame_point(f, k * dx, k * dy);
      return {{nudge(rng, q.x), nudge(rng, q.y)}, {frame_point(f, 0, 0), frame_point(f, 2 * dx, 2 * dy)}};
    }
    default: {  // zero-length segments
      const Vec2 a = frame_point(f, rng.between(-3, 3), rng.between(-3, 3));
      return {frame_point(f, rng.between(-3, 3), rng.between(-3, 3)), {a, a}};
    }
  }
}

}  // namespace

TEST_CASE("signed_distance_to_line: hand-worked values and sign convention", "[geometry][distance]") {
  CHECK(signed_distance_to_line({0, 1}, {0, 0}, {1, 0}) == 1.0);   // left of +x: positive
  CHECK(signed_distance_to_line({0, -2}, {0, 0}, {1, 0}) == -2.0);  // right: negative
  CHECK(signed_distance_to_line({7, 0}, {0, 0}, {1, 0}) == 0.0);
  CHECK(signed_distance_to_line({4, -3}, {0, 0}, {3, 4}) == -5.0);  // 3-4-5: exact
  CHECK(signed_distance_to_line({-4, 3}, {0, 0}, {3, 4}) == 5.0);
  CHECK(signed_distance_to_line({-4, 3}, {3, 4}, {0, 0}) == -5.0);  // reversed line: sign flips
  CHECK(signed_distance_to_line({3, 4}, {0, 0}, {0, 0}) == 5.0);    // a == b: distance to a
  // One ulp off a line at 1e7: the sign is orient2d's, not rounding noise.
  const Vec2 a{1.0e7f, 1.0e7f}, b{1.0e7f + 2.0f, 1.0e7f + 2.0f};
  const Vec2 p{std::nextafter(1.0e7f + 1.0f, 0.0f), 1.0e7f + 1.0f};
  CHECK(orient2d(a, b, p) > 0);
  CHECK(signed_distance_to_line(p, a, b) > 0.0);
}

TEST_CASE("closest_point_on_segment: hand-worked values", "[geometry][distance]") {
  const Segment s{{0, 0}, {4, 0}};
  auto r = closest_point_on_segment({2, 3}, s);
  CHECK(r.feature == SegmentFeature::interior);
  CHECK(r.point == Vec2d{2, 0});
  CHECK(r.t == 0.5);
  CHECK(r.distance == 3.0);
  r = closest_point_on_segment({-1, 1}, s);
  CHECK(r.feature == SegmentFeature::endpoint_a);
  CHECK(r.point == Vec2d{0, 0});
  CHECK(r.t == 0.0);
  CHECK(r.distance == std::sqrt(2.0));
  r = closest_point_on_segment({7, -4}, s);
  CHECK(r.feature == SegmentFeature::endpoint_b);
  CHECK(r.t == 1.0);
  CHECK(r.distance == 5.0);
  r = closest_point_on_segment({4, 9}, s);  // exactly above b: b (dot == 0 goes to the end)
  CHECK(r.feature == SegmentFeature::endpoint_b);
  CHECK(r.distance == 9.0);
  r = closest_point_on_segment({1, 0}, s);  // on the segment
  CHECK(r.feature == SegmentFeature::interior);
  CHECK(r.point == Vec2d{1, 0});
  CHECK(r.t == 0.25);
  CHECK(r.distance == 0.0);
  r = closest_point_on_segment({3, 4}, {{0, 0}, {0, 0}});  // zero length
  CHECK(r.feature == SegmentFeature::endpoint_a);
  CHECK(r.distance == 5.0);
  CHECK(distance_to_segment({2, -3}, s) == 3.0);
}

TEST_CASE("distances against the exact reference", "[geometry][distance]") {
  Rng rng(4242);
  const mpq_class eps = pow2(-47);
  int failures = 0;
  long interior = 0, ends = 0, on_line = 0;
  for (int i = 0; i < 60000 && failures < 20; ++i) {
    const Case c = make_case(rng, i % 4);
    INFO("p = " << hex(c.p) << ", s = " << hex(c.s.a) << " -> " << hex(c.s.b));
    const QVec p = QV(c.p), a = QV(c.s.a), b = QV(c.s.b);
    const QVec r = sub(b, a);
    const mpq_class rr = dot(r, r);
    bool ok = true;
    // Signed line distance.
    const double sd = signed_distance_to_line(c.p, c.s.a, c.s.b);
    if (rr != 0) {
      const mpq_class cr = cross(r, sub(p, a));
      ok = ok && ((sd > 0) - (sd < 0)) == sign_of(cr) && distance_within(std::fabs(sd), cr * cr / rr, eps);
      on_line += cr == 0;
    } else {
      ok = ok && distance_within(sd, dot(sub(p, a), sub(p, a)), eps);
    }
    // Closest point.
    const SegmentClosestPoint got = closest_point_on_segment(c.p, c.s);
    const mpq_class tstar = rr == 0 ? mpq_class(0) : mpq_class(dot(sub(p, a), r) / rr);
    const SegmentFeature want = (rr == 0 || tstar <= 0) ? SegmentFeature::endpoint_a
                                : tstar >= 1            ? SegmentFeature::endpoint_b
                                                        : SegmentFeature::interior;
    ok = ok && got.feature == want;
    ok = ok && distance_within(got.distance, dist2_to_segment(p, a, b), eps);
    ok = ok && got.distance == distance_to_segment(c.p, c.s);
    if (want == SegmentFeature::interior) {
      ++interior;
      const mpq_class m = qmax(norm_inf(a), norm_inf(b));
      const QVec q = add(a, scale(tstar, r));
      ok = ok && within(got.t, tstar, pow2(-46) * tstar) && within(got.point.x, q.x, pow2(-44) * m) &&
           within(got.point.y, q.y, pow2(-44) * m);
    } else {
      ++ends;
      const Vec2 e = want == SegmentFeature::endpoint_a ? c.s.a : c.s.b;
      ok = ok && got.point == to_double(e) && got.t == (want == SegmentFeature::endpoint_a ? 0.0 : 1.0);
    }
    if (!ok) {
      ++failures;
      FAIL_CHECK("signed " << sd << ", closest t " << got.t << " distance " << got.distance << " feature "
                           << int(got.feature) << " want " << int(want));
    }
  }
  CHECK(failures == 0);
  CHECK(interior > 10000);
  CHECK(ends > 10000);
  CHECK(on_line > 1000);
}

TEST_CASE("distance_to_segment is consistent with the exact intersects(Segment, Circle)", "[geometry][distance]") {
  // intersects() is the exact "distance <= r"; the rounded distance must agree with it up
  // to its stated relative error, on both sides.
  Rng rng(8);
  int failures = 0;
  for (int i = 0; i < 40000 && failures < 10; ++i) {
    const Case c = make_case(rng, i % 4);
    const double d = distance_to_segment(c.p, c.s);
    // Radii at, just below and just above the distance (as floats).
    float r = static_cast<float>(d);
    if (i % 3 == 1) r = std::nextafter(r, 0.0f);
    if (i % 3 == 2) r = std::nextafter(r, 1e30f);
    const bool hit = intersects(c.s, Circle{c.p, r});
    const bool ok = hit ? d <= r * (1.0 + 0x1p-47) : d >= r * (1.0 - 0x1p-47);
    if (!ok) {
      ++failures;
      FAIL_CHECK("p = " << hex(c.p) << " s = " << hex(c.s.a) << " -> " << hex(c.s.b) << " d = " << d << " r = " << r);
    }
  }
  CHECK(failures == 0);
}

}  // namespace hitgrid
