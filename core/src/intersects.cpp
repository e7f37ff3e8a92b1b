#include "hitgrid/core/intersects.hpp"

#include <algorithm>
#include <cmath>

#include "hitgrid/core/predicates.hpp"
#include "orient2d_filter.hpp"

namespace hitgrid {
namespace {

// Bounding-interval tests. Comparisons of floats are exact; where a bound is computed
// (c.x - r), rounding is monotonic and the other side is a float, so a computed test can
// only say "overlap" more often than the exact one, never less: a safe pre-filter.
bool intervals_overlap(float a0, float a1, float b0, float b1) {
  return std::max(a0, a1) >= std::min(b0, b1) && std::max(b0, b1) >= std::min(a0, a1);
}

/// c, known to be collinear with s, lies on the closed segment s.
bool collinear_point_on_segment(const Segment& s, Vec2 c) {
  return std::min(s.a.x, s.b.x) <= c.x && c.x <= std::max(s.a.x, s.b.x) && std::min(s.a.y, s.b.y) <= c.y &&
         c.y <= std::max(s.a.y, s.b.y);
}

float clamp(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }

// The hot predicates, inlined here (same functions as the public ones).
int fast_orient2d(Vec2 a, Vec2 b, Vec2 c) { return detail::orient2d_filtered(a, b, c); }
int fast_dot_sign(Vec2 a, Vec2 b, Vec2 c) { return detail::dot_sign_filtered(a, b, c); }

/// orient2d(a, b, c) in double and its error bound (the filter of orient2d_filter.hpp).
struct RoundedOrient {
  double det;
  double bound;
};
inline RoundedOrient rounded_orient(Vec2 a, Vec2 b, Vec2 c) {
  const double l = (double{b.x} - a.x) * (double{c.y} - a.y);
  const double r = (double{b.y} - a.y) * (double{c.x} - a.x);
  return {l - r, detail::two_product_bound * (std::fabs(l) + std::fabs(r))};
}

/// The general case, every orientation decided exactly (the slow path of the test below).
bool segments_intersect_exact_logic(const Segment& s, const Segment& t) {
  const int o1 = fast_orient2d(s.a, s.b, t.a);
  const int o2 = fast_orient2d(s.a, s.b, t.b);
  if (o1 * o2 > 0) return false;  // t strictly on one side of s's line
  const int o3 = fast_orient2d(t.a, t.b, s.a);
  const int o4 = fast_orient2d(t.a, t.b, s.b);
  if (o3 * o4 > 0) return false;
  if (o1 != 0 || o2 != 0 || o3 != 0 || o4 != 0) {
    // Not all collinear. Each segment's endpoints straddle or touch the other's line.
    // If neither is degenerate, that is an intersection. A degenerate segment (a point)
    // yields orientations 0 against itself; handle it by its point test below.
    if (o1 * o2 < 0 && o3 * o4 < 0) return true;
    if (o1 == 0 && collinear_point_on_segment(s, t.a)) return true;
    if (o2 == 0 && collinear_point_on_segment(s, t.b)) return true;
    if (o3 == 0 && collinear_point_on_segment(t, s.a)) return true;
    if (o4 == 0 && collinear_point_on_segment(t, s.b)) return true;
    return false;
  }
  // All four points on one line: the bounding boxes overlap (checked by the caller), and
  // for collinear segments that is the same as their point sets overlapping.
  return true;
}

}  // namespace

bool intersects(const Segment& s, const Segment& t) {
  if (!intervals_overlap(s.a.x, s.b.x, t.a.x, t.b.x) || !intervals_overlap(s.a.y, s.b.y, t.a.y, t.b.y)) return false;
  // Fast path, without data-dependent branches: the four orientations in double. When the
  // filter certifies all four as nonzero, no endpoint touches the other segment's line and
  // the segments cross iff each one's endpoints lie on opposite sides of the other's line.
  // (Candidate pairs cross or not about as often as a coin flip, so a branch on each sign
  // would be mispredicted about half the time; combining the signs without a branch is
  // cheaper.)
  const RoundedOrient o1 = rounded_orient(s.a, s.b, t.a), o2 = rounded_orient(s.a, s.b, t.b);
  const RoundedOrient o3 = rounded_orient(t.a, t.b, s.a), o4 = rounded_orient(t.a, t.b, s.b);
  const bool certain = (std::fabs(o1.det) > o1.bound) & (std::fabs(o2.det) > o2.bound) &
                       (std::fabs(o3.det) > o3.bound) & (std::fabs(o4.det) > o4.bound);
  if (certain) [[likely]]
    return ((o1.det > 0.0) != (o2.det > 0.0)) & ((o3.det > 0.0) != (o4.det > 0.0));
  return segments_intersect_exact_logic(s, t);
}

bool intersects(const Segment& s, const Circle& c) {
  const double r = c.r;
  // Cheap rejection on the bounding boxes, in double so c.x - r is exact for typical
  // inputs and conservative (monotonic rounding) for the rest.
  if (std::max(s.a.x, s.b.x) < c.c.x - r || std::min(s.a.x, s.b.x) > c.c.x + r) return false;
  if (std::max(s.a.y, s.b.y) < c.c.y - r || std::min(s.a.y, s.b.y) > c.c.y + r) return false;
  // Closest point of s to the centre: a if the centre projects before a (this includes
  // a == b, where the dot product is 0), b if it projects past b, else interior.
  if (fast_dot_sign(s.a, s.b, c.c) <= 0) return compare_distance(c.c, s.a, c.r) <= 0;
  if (fast_dot_sign(s.b, s.a, c.c) <= 0) return compare_distance(c.c, s.b, c.r) <= 0;
  return compare_line_distance(s.a, s.b, c.c, c.r) <= 0;
}

bool intersects(const Segment& s, const Box& b) {
  // Separating axes of a segment and a box: x, y, and the segment's normal.
  if (std::max(s.a.x, s.b.x) < b.min.x || std::min(s.a.x, s.b.x) > b.max.x) return false;
  if (std::max(s.a.y, s.b.y) < b.min.y || std::min(s.a.y, s.b.y) > b.max.y) return false;
  // Along the normal n = (-(by - ay), bx - ax), fast_orient2d(a, b, p) = n . (p - a). The box
  // corners farthest along +n and -n are chosen by the signs of n's components (exact:
  // comparisons of floats). The box is separated iff both lie strictly on one side.
  const bool nx_pos = s.b.y <= s.a.y;  // n.x = ay - by >= 0
  const bool ny_pos = s.b.x >= s.a.x;  // n.y = bx - ax >= 0
  const Vec2 hi{nx_pos ? b.max.x : b.min.x, ny_pos ? b.max.y : b.min.y};
  const Vec2 lo{nx_pos ? b.min.x : b.max.x, ny_pos ? b.min.y : b.max.y};
  if (fast_orient2d(s.a, s.b, hi) < 0) return false;
  if (fast_orient2d(s.a, s.b, lo) > 0) return false;
  return true;
}

bool intersects(const Circle& c, const Circle& d) {
  const double rs = double{c.r} + d.r;  // conservative pre-filter, as above
  if (std::fabs(double{c.c.x} - d.c.x) > rs * (1.0 + 0x1p-50) ||
      std::fabs(double{c.c.y} - d.c.y) > rs * (1.0 + 0x1p-50))
    return false;
  return compare_center_distance(c.c, d.c, c.r, d.r) <= 0;
}

bool intersects(const Circle& c, const Box& b) {
  // The point of the box closest to the centre (exact: clamping is comparisons).
  const Vec2 q{clamp(c.c.x, b.min.x, b.max.x), clamp(c.c.y, b.min.y, b.max.y)};
  return compare_distance(c.c, q, c.r) <= 0;
}

bool intersects(const Box& a, const Box& b) {
  return a.min.x <= b.max.x && b.min.x <= a.max.x && a.min.y <= b.max.y && b.min.y <= a.max.y;
}

}  // namespace hitgrid
