#include "hitgrid/core/segment_intersection.hpp"

#include <algorithm>
#include <cmath>

#include "adaptive_eval.hpp"
#include "hitgrid/core/detail/geometry_polynomials.hpp"
#include "hitgrid/core/predicates.hpp"

namespace hitgrid {
namespace {

using exact::adaptive_value;
using Kind = SegmentIntersectionKind;

// The same exact pre-test as intersects(Segment, Segment): comparisons of floats.
bool intervals_overlap(float a0, float a1, float b0, float b1) {
  return std::max(a0, a1) >= std::min(b0, b1) && std::max(b0, b1) >= std::min(a0, a1);
}

/// c, known to be collinear with (a, b), lies on the closed segment.
bool collinear_on_segment(Vec2 a, Vec2 b, Vec2 c) {
  return std::min(a.x, b.x) <= c.x && c.x <= std::max(a.x, b.x) && std::min(a.y, b.y) <= c.y &&
         c.y <= std::max(a.y, b.y);
}

/// Lexicographic order on (x, y). On one line it is the order along the line (or its
/// reverse): along a non-vertical line x is monotonic, along a vertical one y is.
bool lex_less(Vec2 p, Vec2 q) { return p.x < q.x || (p.x == q.x && p.y < q.y); }

/// The parameter of p, known to lie on the closed segment (a, b). Exact at the endpoints
/// (and 0 on a zero-length segment); otherwise dot(p - a, b - a) / |b - a|^2 from two values
/// of relative error <= rho each: relative error <= 2 rho + u (1 + O(rho)) < 2^-46.
double parameter_on(Vec2 p, Vec2 a, Vec2 b) {
  if (p == a) return 0.0;
  if (p == b) return 1.0;
  const double num = adaptive_value([](auto ax, auto ay, auto bx, auto by, auto px,
                                       auto py) { return poly::dot3(ax, ay, bx, by, px, py); },
                                    a.x, a.y, b.x, b.y, p.x, p.y);
  const double den = adaptive_value([](auto ax, auto ay, auto bx, auto by) { return poly::distance2(ax, ay, bx, by); },
                                    a.x, a.y, b.x, b.y);
  // The exact quotient lies in (0, 1); clamping can only bring the rounded one closer.
  return std::clamp(num / den, 0.0, 1.0);
}

/// The three values that place the crossing of the lines (a, b) and (c, d):
///   den = cross(b - a, d - c), ns = cross(c - a, d - c), nt = cross(c - a, b - a),
/// so that s = ns / den and t = nt / den (cross the equation a + s r = c + t q with q, resp.
/// r). Each is evaluated to relative error rho, so each quotient has relative error
/// <= 2 rho + u (1 + O(rho)) < 2^-46.9: no cancellation can hurt, even for nearly parallel
/// lines where the plain double formula loses every digit.
struct CrossingParameters {
  double den, ns, nt;
};

CrossingParameters crossing_parameters(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
  CrossingParameters p;
  p.den = adaptive_value([](auto ax, auto ay, auto bx, auto by, auto cx, auto cy, auto dx,
                            auto dy) { return poly::cross_of_differences(ax, ay, bx, by, cx, cy, dx, dy); },
                         a.x, a.y, b.x, b.y, c.x, c.y, d.x, d.y);
  // cross(c - a, d - c) = cross(c - a, d - a) = cross3(a, c, d).
  p.ns = adaptive_value([](auto ax, auto ay, auto cx, auto cy, auto dx,
                           auto dy) { return poly::cross3(ax, ay, cx, cy, dx, dy); },
                        a.x, a.y, c.x, c.y, d.x, d.y);
  // cross(c - a, b - a) = -cross3(a, b, c).
  p.nt = -adaptive_value([](auto ax, auto ay, auto bx, auto by, auto cx,
                            auto cy) { return poly::cross3(ax, ay, bx, by, cx, cy); },
                         a.x, a.y, b.x, b.y, c.x, c.y);
  return p;
}

/// base + s * dir, each step rounded once.
Vec2d along(Vec2 base, double s, Vec2 from, Vec2 to) {
  const double dx = double{to.x} - from.x;
  const double dy = double{to.y} - from.y;
  return {base.x + s * dx, base.y + s * dy};
}

SegmentIntersection single_exact_point(Vec2 p, double s, double t) {
  SegmentIntersection r;
  r.kind = Kind::point;
  r.p0 = r.p1 = to_double(p);
  r.s0 = r.s1 = s;
  r.t0 = r.t1 = t;
  r.exact_point = true;
  return r;
}

/// All four points on one line (this includes every case with a zero-length segment).
SegmentIntersection collinear(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
  const Vec2 plo = lex_less(b, a) ? b : a;
  const Vec2 phi = lex_less(b, a) ? a : b;
  const Vec2 qlo = lex_less(d, c) ? d : c;
  const Vec2 qhi = lex_less(d, c) ? c : d;
  const Vec2 lo = lex_less(plo, qlo) ? qlo : plo;  // the later start
  const Vec2 hi = lex_less(phi, qhi) ? phi : qhi;  // the earlier end
  // The caller's bounding-box test already guarantees lo <= hi for collinear segments (the
  // bounding boxes of collinear segments overlap iff their intervals on the line do);
  // kept so that this function is correct on its own.
  if (lex_less(hi, lo)) return {};
  if (lo == hi) return single_exact_point(lo, parameter_on(lo, a, b), parameter_on(lo, c, d));
  SegmentIntersection r;
  r.kind = Kind::overlap;
  r.exact_point = true;
  // Order the ends by s: along a -> b the lexicographic order is increasing iff a < b.
  const bool forward = lex_less(a, b);
  const Vec2 p0 = forward ? lo : hi;
  const Vec2 p1 = forward ? hi : lo;
  r.p0 = to_double(p0);
  r.p1 = to_double(p1);
  r.s0 = parameter_on(p0, a, b);
  r.s1 = parameter_on(p1, a, b);
  r.t0 = parameter_on(p0, c, d);
  r.t1 = parameter_on(p1, c, d);
  return r;
}

/// The segments cross at a point interior to both.
SegmentIntersection crossing(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
  const CrossingParameters cp = crossing_parameters(a, b, c, d);
  SegmentIntersection r;
  r.kind = Kind::point;
  // The exact parameters lie in (0, 1): clamping keeps the error bound.
  r.s0 = r.s1 = std::clamp(cp.ns / cp.den, 0.0, 1.0);
  r.t0 = r.t1 = std::clamp(cp.nt / cp.den, 0.0, 1.0);
  // p = a + s (b - a): per coordinate, |p - p*| <= |s* (b - a)| (2^-46.9 + 2u) + u |p*|
  // <= 2^-45 M for |b - a| <= 2M, |p*| <= M. The exact point lies in both bounding boxes,
  // so clamping into their intersection only brings p closer.
  Vec2d p = along(a, r.s0, a, b);
  const double xlo = std::max(std::min(a.x, b.x), std::min(c.x, d.x));
  const double xhi = std::min(std::max(a.x, b.x), std::max(c.x, d.x));
  const double ylo = std::max(std::min(a.y, b.y), std::min(c.y, d.y));
  const double yhi = std::min(std::max(a.y, b.y), std::max(c.y, d.y));
  p.x = std::clamp(p.x, xlo, xhi);
  p.y = std::clamp(p.y, ylo, yhi);
  r.p0 = r.p1 = p;
  r.exact_point = false;
  return r;
}

}  // namespace

SegmentIntersection segment_intersection(const Segment& first, const Segment& second) {
  const Vec2 a = first.a, b = first.b, c = second.a, d = second.b;
  // Decided exactly in the same steps as intersects(Segment, Segment), so the two agree on
  // every input; the branches only add where the common point is.
  if (!intervals_overlap(a.x, b.x, c.x, d.x) || !intervals_overlap(a.y, b.y, c.y, d.y)) return {};
  const int o1 = orient2d(a, b, c);
  const int o2 = orient2d(a, b, d);
  if (o1 * o2 > 0) return {};
  const int o3 = orient2d(c, d, a);
  const int o4 = orient2d(c, d, b);
  if (o3 * o4 > 0) return {};
  if (o1 == 0 && o2 == 0 && o3 == 0 && o4 == 0) return collinear(a, b, c, d);
  // Not all collinear. A zero-length segment would have made its own two orientations 0
  // and the other two equal and nonzero, which returned above; so both segments have
  // length and their lines are distinct: at most one common point.
  if (o1 * o2 < 0 && o3 * o4 < 0) return crossing(a, b, c, d);
  // Otherwise the common point, if any, is an endpoint lying on the other segment.
  if (o1 == 0 && collinear_on_segment(a, b, c)) return single_exact_point(c, parameter_on(c, a, b), 0.0);
  if (o2 == 0 && collinear_on_segment(a, b, d)) return single_exact_point(d, parameter_on(d, a, b), 1.0);
  if (o3 == 0 && collinear_on_segment(c, d, a)) return single_exact_point(a, 0.0, parameter_on(a, c, d));
  if (o4 == 0 && collinear_on_segment(c, d, b)) return single_exact_point(b, 1.0, parameter_on(b, c, d));
  return {};
}

LineIntersection line_intersection(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
  LineIntersection r;
  if (a == b || c == d) {
    r.kind = LineIntersectionKind::degenerate;
    return r;
  }
  const CrossingParameters cp = crossing_parameters(a, b, c, d);
  // adaptive_value is exactly 0 iff the exact value is 0: parallel is decided exactly.
  if (cp.den == 0.0) {
    r.kind = orient2d(a, b, c) == 0 ? LineIntersectionKind::coincident : LineIntersectionKind::parallel;
    return r;
  }
  r.kind = LineIntersectionKind::point;
  r.s = cp.ns / cp.den;
  r.t = cp.nt / cp.den;
  // The point's error grows with its distance from the base point (|s| |b - a|): start
  // from the nearer of a and c. Per coordinate, |p - p*| <= 2^-46.9 |s* (b - a)| + 2u |..|
  // + u |p*| < 2^-46 (|base| + |p*|).
  const double reach_a = std::fabs(r.s) * std::max(std::fabs(double{b.x} - a.x), std::fabs(double{b.y} - a.y));
  const double reach_c = std::fabs(r.t) * std::max(std::fabs(double{d.x} - c.x), std::fabs(double{d.y} - c.y));
  r.point = reach_a <= reach_c ? along(a, r.s, a, b) : along(c, r.t, c, d);
  return r;
}

}  // namespace hitgrid
