#include "hitgrid/core/distance.hpp"

#include <algorithm>
#include <cmath>

#include "adaptive_eval.hpp"
#include "hitgrid/core/detail/geometry_polynomials.hpp"
#include "hitgrid/core/predicates.hpp"

namespace hitgrid {
namespace {

using exact::adaptive_value;

// Error bookkeeping (u = 2^-53, rho = adaptive_rho ~ 2^-48): each adaptive_value has
// relative error <= rho; sqrt halves a relative error and adds u; a division adds the
// relative errors plus u. Hence
//   point distance  sqrt(|p - q|^2)           rho / 2 + u          < 2^-48
//   line distance   cross / sqrt(|b - a|^2)   rho + rho / 2 + 2u   < 2^-47

/// |p - q|, from the exactly evaluated squared distance.
double point_distance(Vec2 p, Vec2 q) {
  return std::sqrt(
      adaptive_value([](auto px, auto py, auto qx, auto qy) { return poly::distance2(px, py, qx, qy); }, p.x, p.y, q.x, q.y));
}

double cross_value(Vec2 a, Vec2 b, Vec2 p) {
  return adaptive_value([](auto ax, auto ay, auto bx, auto by, auto px,
                           auto py) { return poly::cross3(ax, ay, bx, by, px, py); },
                        a.x, a.y, b.x, b.y, p.x, p.y);
}

double length2(Vec2 a, Vec2 b) {
  return adaptive_value([](auto ax, auto ay, auto bx, auto by) { return poly::distance2(ax, ay, bx, by); }, a.x, a.y,
                        b.x, b.y);
}

}  // namespace

double signed_distance_to_line(Vec2 p, Vec2 a, Vec2 b) {
  if (a == b) return point_distance(p, a);
  // cross(b - a, p - a) / |b - a|: adaptive_value keeps the exact sign of the cross product
  // (and returns exactly 0 for collinear points), and dividing by a positive length keeps it.
  return cross_value(a, b, p) / std::sqrt(length2(a, b));
}

SegmentClosestPoint closest_point_on_segment(Vec2 p, const Segment& s) {
  SegmentClosestPoint r;
  // The feature is chosen exactly, as intersects(Segment, Circle) does: p projects before
  // a (or onto a, or the segment has zero length), after b, or strictly between.
  if (dot_sign(s.a, s.b, p) <= 0) {
    r.feature = SegmentFeature::endpoint_a;
    r.point = to_double(s.a);
    r.t = 0.0;
    r.distance = point_distance(p, s.a);
    return r;
  }
  if (dot_sign(s.b, s.a, p) <= 0) {
    r.feature = SegmentFeature::endpoint_b;
    r.point = to_double(s.b);
    r.t = 1.0;
    r.distance = point_distance(p, s.b);
    return r;
  }
  r.feature = SegmentFeature::interior;
  const double len2 = length2(s.a, s.b);
  // t = dot(p - a, b - a) / |b - a|^2, exactly in (0, 1) here; relative error
  // <= 2 rho + u < 2^-46.9, and clamping keeps it.
  const double num = adaptive_value([](auto ax, auto ay, auto bx, auto by, auto px,
                                       auto py) { return poly::dot3(ax, ay, bx, by, px, py); },
                                    s.a.x, s.a.y, s.b.x, s.b.y, p.x, p.y);
  r.t = std::clamp(num / len2, 0.0, 1.0);
  // a + t (b - a): per coordinate |q - q*| <= |t* (b - a)| (2^-46.9 + 2u) + u |q*| < 2^-45 M.
  // The exact point lies in the segment's bounding box: clamp into it.
  const double dx = double{s.b.x} - s.a.x;
  const double dy = double{s.b.y} - s.a.y;
  r.point.x = std::clamp(s.a.x + r.t * dx, double{std::min(s.a.x, s.b.x)}, double{std::max(s.a.x, s.b.x)});
  r.point.y = std::clamp(s.a.y + r.t * dy, double{std::min(s.a.y, s.b.y)}, double{std::max(s.a.y, s.b.y)});
  r.distance = std::fabs(cross_value(s.a, s.b, p)) / std::sqrt(len2);
  return r;
}

double distance_to_segment(Vec2 p, const Segment& s) { return closest_point_on_segment(p, s).distance; }

}  // namespace hitgrid
