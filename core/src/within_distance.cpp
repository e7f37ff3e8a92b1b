#include "hitgrid/core/within_distance.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "adaptive_eval.hpp"
#include "hitgrid/core/detail/within_distance_polynomials.hpp"
#include "hitgrid/core/intersects.hpp"
#include "hitgrid/core/predicates.hpp"

namespace hitgrid {
namespace {

using exact::adaptive_sign;

// --- Conservative rejection on the bounding intervals -----------------------------------
//
// The distance between two shapes is at least the gap between their projections on
// either axis, so a pair whose intervals (a circle's grown by its radius) lie more than
// the reach apart on one axis is out of reach. The gap and the reach are computed in
// double and rounded; the test below may only say "apart" when the exact gap exceeds the
// exact reach, never otherwise.
//
// Bound: for x, y, z >= 0, two roundings of the sum and one of the product give
// reach_at_least >= (x + y + z) (1 - u)^3 (1 + 2^-49) >= (x + y + z)(1 + 2^-50), u = 2^-53.
// A rounded difference g of two floats has the exact difference's sign and
// |g - g*| <= u |g*|, so g > reach_at_least implies g* >= g / (1 + u) > x + y + z (and for
// a zero reach, g > 0 implies g* > 0).

constexpr double reach_inflation = 1.0 + 0x1p-49;

double reach_at_least(double x, double y, double z) { return ((x + y) + z) * reach_inflation; }

/// to - from exceeds the exact reach that `reach` (from reach_at_least) bounds.
bool beyond(double from, double to, double reach) { return to - from > reach; }

/// The closed intervals [lo1, hi1] and [lo2, hi2] are more than the reach apart.
bool intervals_apart(double lo1, double hi1, double lo2, double hi2, double reach) {
  return beyond(hi1, lo2, reach) || beyond(hi2, lo1, reach);
}

bool segment_boxes_apart(const Segment& s, double lo_x, double hi_x, double lo_y, double hi_y, double reach) {
  return intervals_apart(std::min(s.a.x, s.b.x), std::max(s.a.x, s.b.x), lo_x, hi_x, reach) ||
         intervals_apart(std::min(s.a.y, s.b.y), std::max(s.a.y, s.b.y), lo_y, hi_y, reach);
}

// --- The exact signs ---------------------------------------------------------------------

/// |p - q| <= r + m, exactly (the sum too).
bool grown_point_within(Vec2 p, Vec2 q, float r, float m) {
  const auto gap = [](auto px, auto py, auto qx, auto qy, auto rr, auto mm) {
    return poly::grown_point_gap(px, py, qx, qy, rr, mm);
  };
  return adaptive_sign(gap, p.x, p.y, q.x, q.y, r, m) <= 0;
}

/// p within r + m of the line through a != b, exactly.
bool grown_line_within(Vec2 a, Vec2 b, Vec2 p, float r, float m) {
  const auto gap = [](auto ax, auto ay, auto bx, auto by, auto px, auto py, auto rr, auto mm) {
    return poly::grown_line_gap(ax, ay, bx, by, px, py, rr, mm);
  };
  return adaptive_sign(gap, a.x, a.y, b.x, b.y, p.x, p.y, r, m) <= 0;
}

/// p within m of the closed segment s: the disk of radius m around p meets s.
bool point_within(Vec2 p, const Segment& s, float m) { return intersects(s, Circle{p, m}); }

/// p within m of the closed box b.
bool point_within(Vec2 p, const Box& b, float m) { return intersects(Circle{p, m}, b); }

float clamp(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }

/// The two ends of the gap between [lo1, hi1] and [lo2, hi2] on one axis, as exact floats
/// (first <= second); equal when the intervals overlap, so their difference is the gap.
struct AxisGap {
  float from, to;
};
AxisGap axis_gap(float lo1, float hi1, float lo2, float hi2) {
  if (hi1 < lo2) return {hi1, lo2};
  if (hi2 < lo1) return {hi2, lo1};
  return {0.0f, 0.0f};
}

}  // namespace

bool within_distance(const Segment& s, const Segment& t, float m) {
  assert(valid_margin(m));
  if (segment_boxes_apart(s, std::min(t.a.x, t.b.x), std::max(t.a.x, t.b.x), std::min(t.a.y, t.b.y),
                          std::max(t.a.y, t.b.y), reach_at_least(m, 0.0, 0.0)))
    return false;
  if (intersects(s, t)) return true;
  // Disjoint closed sets are at a positive distance.
  if (m == 0.0f) return false;
  // Disjoint segments: the distance is reached at an endpoint of one of them.
  return point_within(s.a, t, m) || point_within(s.b, t, m) || point_within(t.a, s, m) || point_within(t.b, s, m);
}

bool within_distance(const Segment& s, const Circle& c, float m) {
  assert(valid_margin(m));
  if (segment_boxes_apart(s, c.c.x, c.c.x, c.c.y, c.c.y, reach_at_least(c.r, m, 0.0))) return false;
  // The distance from the disk is the distance from the centre less r (or 0), so the test
  // is "centre within r + m of the segment". Closest feature as in intersects(Segment,
  // Circle): a if the centre projects before a (this includes a == b), b if past b, else
  // the interior, where a != b and the distance is the distance to the line.
  if (dot_sign(s.a, s.b, c.c) <= 0) return grown_point_within(c.c, s.a, c.r, m);
  if (dot_sign(s.b, s.a, c.c) <= 0) return grown_point_within(c.c, s.b, c.r, m);
  return grown_line_within(s.a, s.b, c.c, c.r, m);
}

bool within_distance(const Segment& s, const Box& b, float m) {
  assert(valid_margin(m));
  if (segment_boxes_apart(s, b.min.x, b.max.x, b.min.y, b.max.y, reach_at_least(m, 0.0, 0.0))) return false;
  if (intersects(s, b)) return true;
  if (m == 0.0f) return false;  // disjoint closed sets are at a positive distance
  // Disjoint: the box's boundary is four segments (fewer distinct ones when it is flat),
  // so the distance is reached at an endpoint of s (and then from the endpoint to the
  // whole box, which does not contain it) or at a corner of the box.
  if (point_within(s.a, b, m) || point_within(s.b, b, m)) return true;
  return point_within(b.min, s, m) || point_within(b.max, s, m) || point_within(Vec2{b.min.x, b.max.y}, s, m) ||
         point_within(Vec2{b.max.x, b.min.y}, s, m);
}

bool within_distance(const Circle& c, const Circle& d, float m) {
  assert(valid_margin(m));
  // The same rejection as intervals_apart: |fl(dx)| has |dx|'s relative error bound.
  const double reach = reach_at_least(c.r, d.r, m);
  if (std::fabs(double{c.c.x} - d.c.x) > reach || std::fabs(double{c.c.y} - d.c.y) > reach) return false;
  const auto gap = [](auto px, auto py, auto qx, auto qy, auto r1, auto r2, auto mm) {
    return poly::grown_center_gap(px, py, qx, qy, r1, r2, mm);
  };
  return adaptive_sign(gap, c.c.x, c.c.y, d.c.x, d.c.y, c.r, d.r, m) <= 0;
}

bool within_distance(const Circle& c, const Box& b, float m) {
  assert(valid_margin(m));
  // The point of the box closest to the centre (exact: clamping is comparisons).
  const Vec2 q{clamp(c.c.x, b.min.x, b.max.x), clamp(c.c.y, b.min.y, b.max.y)};
  return grown_point_within(c.c, q, c.r, m);
}

bool within_distance(const Box& a, const Box& b, float m) {
  assert(valid_margin(m));
  const AxisGap gx = axis_gap(a.min.x, a.max.x, b.min.x, b.max.x);
  const AxisGap gy = axis_gap(a.min.y, a.max.y, b.min.y, b.max.y);
  // The closest points differ by the two gaps: gx^2 + gy^2 <= m^2, exactly.
  return compare_distance(Vec2{gx.from, gy.from}, Vec2{gx.to, gy.to}, m) <= 0;
}

}  // namespace hitgrid
