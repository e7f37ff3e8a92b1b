#include "hitgrid/core/swept_circle.hpp"

#include <algorithm>
#include <cmath>

#include "adaptive_eval.hpp"
#include "hitgrid/core/detail/geometry_polynomials.hpp"
#include "hitgrid/core/detail/predicate_polynomials.hpp"
#include "hitgrid/core/detail/swept_circle_polynomials.hpp"
#include "hitgrid/core/predicates.hpp"

namespace hitgrid {
namespace {

using exact::adaptive_sign;
using exact::adaptive_value;

TimeOfImpact at_start(ToiKind kind) {
  TimeOfImpact r;
  r.kind = kind;
  return r;
}

TimeOfImpact impact_at(double t) {
  TimeOfImpact r;
  r.kind = ToiKind::impact;
  r.t = std::min(t, 1.0);  // t* lies in (0, 1]: clamping keeps the bound
  return r;
}

/// The first of two results that are each none or an impact.
TimeOfImpact first_of(const TimeOfImpact& x, const TimeOfImpact& y) {
  if (!x.hit()) return y;
  if (!y.hit()) return x;
  return x.t <= y.t ? x : y;
}

/// Contact with the point p: time_of_impact against a static circle of radius 0.
TimeOfImpact point_contact(const Circle& c, Vec2 v, Vec2 p) { return time_of_impact(c, v, Circle{p, 0.0f}, Vec2{}); }

// --- segment ------------------------------------------------------------------------------

/// The inputs of the segment case in the order every polynomial below takes them.
struct SegmentSweep {
  Vec2 a, b, c, v;
  float r;
};

/// The exact sign (-1, 0, +1) of sigma sqrt(E) cross(v, c - p) - r dot(e, v).
///
/// With h(t) = cross(e, c + t v - a) (sqrt(E) times the signed distance to the line) and
/// q(t) = dot(e, c + t v - a) (E times the projection's parameter), the path, coming from
/// the side sigma = sign(h(0)), reaches the strip |h| <= r sqrt(E) at
/// t_L = (sigma h(0) - r sqrt(E)) / (-sigma h'). Multiplying q(t_L) by -sigma h' > 0 and using
/// h(0) q' - q(0) h' = E cross(v, c - a) gives sqrt(E) (sigma sqrt(E) cross(v, c - a) - r q'):
/// so this sign, for p = a, is the sign of q(t_L), and for p = b that of q(t_L) - E.
///
/// Filter: cross(v, c - p), dot(e, v) and E, each to relative error rho with its exact sign
/// (degree 2). When the two terms have opposite signs (or one is 0) that decides. Otherwise
/// x = sqrt(E) |cross| and y = r |dot| carry relative errors below 1.5 rho + 2u and
/// rho + u, so x > y (1 + 2^-45) proves the first larger, x < y (1 - 2^-45) the second
/// (2^-45 > 2.5 rho + 4u with room for the rounding of y (1 +- 2^-45)). In between, the
/// exact sign of E cross^2 - r^2 dot^2 (degree 6) is the sign of x - y.
int corner_sign(const SegmentSweep& in, Vec2 p, int sigma) {
  const double side = sigma * adaptive_value([](auto vx, auto vy, auto px, auto py, auto cx,
                                                auto cy) { return poly::cross_dir(px, py, vx, vy, cx, cy); },
                                             in.v.x, in.v.y, p.x, p.y, in.c.x, in.c.y);
  const double along = adaptive_value([](auto ax, auto ay, auto bx, auto by, auto vx,
                                         auto vy) { return poly::sweep_dot_velocity(ax, ay, bx, by, vx, vy); },
                                      in.a.x, in.a.y, in.b.x, in.b.y, in.v.x, in.v.y);
  const int s1 = (side > 0.0) - (side < 0.0);
  const int s2 = in.r == 0.0f ? 0 : (along > 0.0) - (along < 0.0);  // r >= 0
  if (s1 >= 0 && s2 <= 0) return (s1 > 0 || s2 < 0) ? 1 : 0;
  if (s1 <= 0 && s2 >= 0) return (s1 < 0 || s2 > 0) ? -1 : 0;
  // Both nonzero and of one sign s1: the sign is s1 times that of x - y.
  const double e = adaptive_value([](auto ax, auto ay, auto bx, auto by) { return poly::distance2(ax, ay, bx, by); },
                                  in.a.x, in.a.y, in.b.x, in.b.y);
  const double x = std::sqrt(e) * std::fabs(side);
  const double y = double{in.r} * std::fabs(along);
  constexpr double margin = 0x1p-45;
  int larger;
  if (x > y * (1.0 + margin)) {
    larger = 1;
  } else if (x < y * (1.0 - margin)) {
    larger = -1;
  } else {
    larger =
        exact::exact_sign([](auto ax, auto ay, auto bx, auto by, auto px, auto py, auto cx, auto cy, auto vx, auto vy,
                             auto r) { return poly::sweep_corner(ax, ay, bx, by, px, py, cx, cy, vx, vy, r); },
                          in.a.x, in.a.y, in.b.x, in.b.y, p.x, p.y, in.c.x, in.c.y, in.v.x, in.v.y, in.r);
  }
  return s1 * larger;
}

/// The time at which the path, from a centre farther than r from the segment's line,
/// reaches the strip within r of it: (h^2 - r^2 E) / ((|h| + r sqrt(E)) |h'|), the form of
/// (|h| - r sqrt(E)) / |h'| without cancellation. Relative error: rho for the numerator,
/// rho + u for the sum of two nonnegative terms (sqrt(E) carries rho / 2 + u, the product
/// u more), rho for |h'|, u each for the product and the quotient: 3 rho + 3u < 2^-46.2.
double strip_time(const SegmentSweep& in) {
  const double gap = adaptive_value([](auto ax, auto ay, auto bx, auto by, auto cx, auto cy,
                                       auto r) { return poly::line_distance(ax, ay, bx, by, cx, cy, r); },
                                    in.a.x, in.a.y, in.b.x, in.b.y, in.c.x, in.c.y, in.r);
  const double h = adaptive_value([](auto ax, auto ay, auto bx, auto by, auto cx,
                                     auto cy) { return poly::cross3(ax, ay, bx, by, cx, cy); },
                                  in.a.x, in.a.y, in.b.x, in.b.y, in.c.x, in.c.y);
  const double e = adaptive_value([](auto ax, auto ay, auto bx, auto by) { return poly::distance2(ax, ay, bx, by); },
                                  in.a.x, in.a.y, in.b.x, in.b.y);
  const double rate = adaptive_value([](auto ax, auto ay, auto bx, auto by, auto vx,
                                        auto vy) { return poly::sweep_cross_velocity(ax, ay, bx, by, vx, vy); },
                                     in.a.x, in.a.y, in.b.x, in.b.y, in.v.x, in.v.y);
  return gap / ((std::fabs(h) + double{in.r} * std::sqrt(e)) * std::fabs(rate));
}

/// Sign of dist(c, s)^2 - r^2 (times a positive factor): which feature of s is closest is
/// decided by dot_sign, as intersects(Segment, Circle) does.
int start_gap(Vec2 c, float r, const Segment& s) {
  if (dot_sign(s.a, s.b, c) <= 0) return compare_distance(s.a, c, r);
  if (dot_sign(s.b, s.a, c) <= 0) return compare_distance(s.b, c, r);
  return compare_line_distance(s.a, s.b, c, r);
}

// --- box -----------------------------------------------------------------------------------

/// One axis of a (grown) box: the centre's coordinate c + t v against [lo_f + lo_g,
/// hi_f + hi_g], the g being -r, 0 or r. Faces and times as in swept_circle_polynomials.hpp.
struct Axis {
  float c, v;
  float lo_f, lo_g, hi_f, hi_g;
};

/// A face that the centre crosses at the rational time (f + g - c) / v, v != 0.
struct Face {
  float f, g, c, v;
};

int sign_of_v(float v) { return (v > 0.0f) - (v < 0.0f); }

/// Exact sign of t(x) - t(y).
int compare_times(const Face& x, const Face& y) {
  const int s = adaptive_sign([](auto f1, auto g1, auto c1, auto v1, auto f2, auto g2, auto c2,
                                 auto v2) { return poly::slab_order(f1, g1, c1, v1, f2, g2, c2, v2); },
                              x.f, x.g, x.c, x.v, y.f, y.g, y.c, y.v);
  return s * sign_of_v(x.v) * sign_of_v(y.v);
}

/// Exact signs of t(x) and of t(x) - 1.
int time_sign(const Face& x) {
  return adaptive_sign([](auto f, auto g, auto c) { return poly::slab_gap(f, g, c); }, x.f, x.g, x.c) * sign_of_v(x.v);
}
int time_minus_one_sign(const Face& x) {
  return adaptive_sign([](auto f, auto g, auto c, auto v) { return poly::slab_gap_after(f, g, c, v); }, x.f, x.g, x.c,
                       x.v) *
         sign_of_v(x.v);
}

/// t(x) to relative error rho + u < 2^-47.9: the gap to relative error rho over an exact v.
double time_of(const Face& x) {
  return adaptive_value([](auto f, auto g, auto c) { return poly::slab_gap(f, g, c); }, x.f, x.g, x.c) / x.v;
}

/// The first time in [0, 1] at which the centre lies in the grown box with axes x and y,
/// for a centre that starts outside it. The path meets the box iff the latest entry (over
/// the moving axes, and 0) is at most the earliest exit (and 1); every comparison of that
/// is between two rational times, decided exactly.
TimeOfImpact enter_box(const Axis& ax, const Axis& ay) {
  Face enter[2], leave[2];
  int moving = 0;
  for (const Axis& k : {ax, ay}) {
    if (k.v == 0.0f) {
      // This coordinate never changes: it must lie in the interval for good.
      const Face lo{k.lo_f, k.lo_g, k.c, 1.0f}, hi{k.hi_f, k.hi_g, k.c, 1.0f};
      if (time_sign(lo) > 0 || time_sign(hi) < 0) return {};
      continue;
    }
    const Face lo{k.lo_f, k.lo_g, k.c, k.v}, hi{k.hi_f, k.hi_g, k.c, k.v};
    enter[moving] = k.v > 0.0f ? lo : hi;
    leave[moving] = k.v > 0.0f ? hi : lo;
    ++moving;
  }
  // Both coordinates fixed and in their intervals: the centre would start in the box,
  // which the callers have ruled out.
  if (moving == 0) return {};
  for (int i = 0; i < moving; ++i) {
    if (time_minus_one_sign(enter[i]) > 0 || time_sign(leave[i]) < 0) return {};
    for (int j = 0; j < moving; ++j) {
      if (i != j && compare_times(enter[i], leave[j]) > 0) return {};
    }
  }
  // The entry time is the largest of the entries (and 0); the maximum of values each
  // within the bound of its exact value is within the bound of the exact maximum.
  double t = 0.0;
  for (int i = 0; i < moving; ++i) t = std::max(t, time_of(enter[i]));
  return impact_at(t);
}

}  // namespace

TimeOfImpact time_of_impact(const Circle& c, Vec2 v, const Circle& d) { return time_of_impact(c, v, d, Vec2{}); }

TimeOfImpact time_of_impact(const Circle& circle, Vec2 v, const Segment& s) {
  if (s.a == s.b) return point_contact(circle, v, s.a);
  const SegmentSweep in{s.a, s.b, circle.c, v, circle.r};
  // Where the centre starts: dist(c, s) - r < 0 is the interior of K (for r = 0 that
  // cannot happen: a segment has no interior), = 0 its boundary.
  const int gap = start_gap(circle.c, circle.r, s);
  if (gap < 0) return at_start(ToiKind::overlapping);
  if (gap == 0) return at_start(ToiKind::touching);
  // K lies within the strip of points within r of the segment's line. From outside the
  // strip, nothing is touched before the path reaches it, and if the point where it does
  // projects onto the segment, that is the first contact.
  if (compare_line_distance(s.a, s.b, circle.c, circle.r) > 0) {
    const int sigma = orient2d(s.a, s.b, circle.c);  // != 0: c is off the line
    // The path reaches the strip by t = 1 iff it ends on the other side of the line, on
    // it, or within r of it on the same side.
    const int end_side = adaptive_sign([](auto ax, auto ay, auto bx, auto by, auto cx, auto cy, auto vx,
                                          auto vy) { return poly::sweep_end_side(ax, ay, bx, by, cx, cy, vx, vy); },
                                       s.a.x, s.a.y, s.b.x, s.b.y, circle.c.x, circle.c.y, v.x, v.y);
    const bool reaches =
        end_side != sigma ||
        adaptive_sign([](auto ax, auto ay, auto bx, auto by, auto cx, auto cy, auto vx, auto vy,
                         auto r) { return poly::sweep_end_line_gap(ax, ay, bx, by, cx, cy, vx, vy, r); },
                      s.a.x, s.a.y, s.b.x, s.b.y, circle.c.x, circle.c.y, v.x, v.y, circle.r) <= 0;
    if (!reaches) return {};
    // It projects onto the closed segment iff 0 <= q(t_L) <= E (see corner_sign).
    if (corner_sign(in, s.a, sigma) >= 0 && corner_sign(in, s.b, sigma) <= 0) return impact_at(strip_time(in));
  }
  // Otherwise the centre can only enter K through an end disk first: a centre in the strip
  // (and outside K) projects beyond an end and can only reach the rectangle part through the
  // end disk on that side, and a path that reaches the strip beyond an end is in the same
  // position then, having touched nothing before.
  return first_of(point_contact(circle, v, s.a), point_contact(circle, v, s.b));
}

TimeOfImpact time_of_impact(const Circle& circle, Vec2 v, const Box& b) {
  const Vec2 c = circle.c;
  const float r = circle.r;
  // The box's point nearest to c (exact: clamping is comparisons).
  const Vec2 q{std::clamp(c.x, b.min.x, b.max.x), std::clamp(c.y, b.min.y, b.max.y)};
  const int gap = compare_distance(c, q, r);
  if (gap < 0) return at_start(ToiKind::overlapping);
  if (gap == 0) {
    // For r = 0 this says c is in the closed box: its interior is the open box.
    const bool interior = r == 0.0f && b.min.x < c.x && c.x < b.max.x && b.min.y < c.y && c.y < b.max.y;
    return at_start(interior ? ToiKind::overlapping : ToiKind::touching);
  }
  const Axis x_grown{c.x, v.x, b.min.x, -r, b.max.x, r};
  const Axis y_grown{c.y, v.y, b.min.y, -r, b.max.y, r};
  const Axis x_plain{c.x, v.x, b.min.x, 0.0f, b.max.x, 0.0f};
  const Axis y_plain{c.y, v.y, b.min.y, 0.0f, b.max.y, 0.0f};
  // For r = 0, K is the box itself.
  if (r == 0.0f) return enter_box(x_plain, y_plain);
  TimeOfImpact first = first_of(enter_box(x_grown, y_plain), enter_box(x_plain, y_grown));
  for (const Vec2 corner : {b.min, Vec2{b.max.x, b.min.y}, b.max, Vec2{b.min.x, b.max.y}})
    first = first_of(first, point_contact(circle, v, corner));
  return first;
}

}  // namespace hitgrid
