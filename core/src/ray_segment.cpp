#include "hitgrid/core/ray_segment.hpp"

#include <algorithm>
#include <limits>

#include "adaptive_eval.hpp"
#include "hitgrid/core/detail/geometry_polynomials.hpp"
#include "hitgrid/core/predicates.hpp"
#include "hitgrid/core/segment_intersection.hpp"

namespace hitgrid {
namespace {

using exact::adaptive_sign;
using exact::adaptive_value;

constexpr double inf = std::numeric_limits<double>::infinity();

/// p lies on the closed segment s (a zero-length s: p == s.a). Exact.
bool on_segment(const Segment& s, Vec2 p) {
  return orient2d(s.a, s.b, p) == 0 && std::min(s.a.x, s.b.x) <= p.x && p.x <= std::max(s.a.x, s.b.x) &&
         std::min(s.a.y, s.b.y) <= p.y && p.y <= std::max(s.a.y, s.b.y);
}

/// Sign of dot(d, p - o): for p on the line through o along d, the sign of p's time.
int time_sign(Vec2 o, Vec2 d, Vec2 p) {
  return adaptive_sign(
      [](auto ox, auto oy, auto dx, auto dy, auto px, auto py) { return poly::dot_dir(ox, oy, dx, dy, px, py); }, o.x,
      o.y, d.x, d.y, p.x, p.y);
}

/// The time of p, known to lie on the line through o along d (d != 0):
/// dot(d, p - o) / |d|^2, two values of relative error <= rho each, so relative error
/// <= 2 rho + u (1 + O(rho)) < 2^-46.9; exactly 0 at p == o, and of the exact sign.
double time_on_line(Vec2 o, Vec2 d, Vec2 p) {
  const double num = adaptive_value(
      [](auto ox, auto oy, auto dx, auto dy, auto px, auto py) { return poly::dot_dir(ox, oy, dx, dy, px, py); }, o.x,
      o.y, d.x, d.y, p.x, p.y);
  const double den = adaptive_value([](auto dx, auto dy) { return poly::norm2(dx, dy); }, d.x, d.y);
  return num / den;
}

/// One end of the hit interval: its time and its point.
struct End {
  double t;
  Vec2d p;
};

RayHit make_hit(End near, End far, bool starts_inside, bool ends_inside) {
  // The exact times satisfy near* <= far*; the rounded times of two distinct but nearly
  // simultaneous points can come out inverted (they come from different evaluations). With
  // e the error of each, near* >= near - e_near > far - e_near and near* <= far* <= far + e_far,
  // so far is within max(e_near, e_far) of near*: collapsing onto it keeps the bound (the two
  // exact times have one sign, or one would be exactly 0 and nothing could invert).
  // An exact end is never the one moved: 0 is below every rounded time of a ray or segment
  // (they carry the exact sign), and every time of a segment query is at most 1.
  if (near.t > far.t) near.t = far.t;
  RayHit r;
  r.hit = true;
  r.starts_inside = starts_inside;
  r.ends_inside = ends_inside;
  r.t_near = near.t;
  r.t_far = far.t;
  r.p_near = near.p;
  r.p_far = far.p;
  return r;
}

/// The query that is a single point o, over the range [lo, hi].
RayHit point_cast(Vec2 o, const Segment& s, double lo, double hi, bool starts_inside, bool ends_inside) {
  if (!on_segment(s, o)) return {};
  return make_hit({lo, to_double(o)}, {hi, to_double(o)}, starts_inside, ends_inside);
}

/// Ray (is_ray) or line through o along d, d != 0, against s.
RayHit line_cast(Vec2 o, Vec2 d, const Segment& s, bool is_ray) {
  const Vec2 a = s.a, b = s.b;
  const int sa = orient_along(o, d, a);
  const int sb = orient_along(o, d, b);
  if (sa * sb > 0) return {};  // s lies strictly on one side of the query's line
  // Only a ray has a first point; on s it is the start of the contact, at time 0 exactly.
  const bool starts_inside = is_ray && on_segment(s, o);
  const End start{0.0, to_double(o)};
  if (sa == 0 && sb == 0) {
    // s lies on the query's line (so does a zero-length s on it): the query meets all of
    // it, clipped to the range. The ends' order along the query is the exact sign of
    // dot(d, b - a); their points are a and b themselves.
    const bool a_first = time_sign(a, d, b) >= 0;
    const Vec2 first = a_first ? a : b;
    const Vec2 last = a_first ? b : a;
    if (is_ray && time_sign(o, d, last) < 0) return {};  // s lies behind the ray
    const End near = starts_inside ? start : End{time_on_line(o, d, first), to_double(first)};
    const End far{time_on_line(o, d, last), to_double(last)};
    return make_hit(near, far, starts_inside, false);
  }
  End meet;
  if (sa == 0 || sb == 0) {
    // Exactly one endpoint lies on the line (the other strictly beside it): the only
    // common point is that endpoint, exact.
    const Vec2 p = sa == 0 ? a : b;
    if (is_ray && time_sign(o, d, p) < 0) return {};
    meet = {time_on_line(o, d, p), to_double(p)};
  } else {
    // a and b strictly on opposite sides: the lines cross at a point interior to s. With
    // o + t d = a + s' (b - a), crossing both sides with b - a, resp. with d:
    //   t  = cross(a - o, b - a) / cross(d, b - a),   s' = cross(d, o - a) / cross(d, b - a).
    // Each of the three values to relative error rho, with exact signs: t has the exact
    // sign and relative error < 2^-46.9 (see time_on_line), s' too.
    const auto cross_d = [](auto ox, auto oy, auto dx, auto dy, auto px, auto py) {
      return poly::cross_dir(ox, oy, dx, dy, px, py);
    };
    const double den = adaptive_value(cross_d, a.x, a.y, d.x, d.y, b.x, b.y);  // != 0: sa != sb
    const double num_t = adaptive_value(
        [](auto ox, auto oy, auto ax, auto ay, auto bx, auto by) { return poly::cross3(ox, oy, ax, ay, bx, by); }, o.x,
        o.y, a.x, a.y, b.x, b.y);
    if (is_ray && num_t != 0.0 && (num_t > 0.0) != (den > 0.0)) return {};  // behind the ray
    const double num_s = adaptive_value(cross_d, a.x, a.y, d.x, d.y, o.x, o.y);
    // The exact s' lies in (0, 1) and the exact point in s's bounding box: clamping into
    // them can only bring the rounded ones closer. Per coordinate,
    // |p - p*| <= |s' (b - a)| (2^-46.9 + 2u) + u |p*| < 2^-45 M.
    const double sp = std::clamp(num_s / den, 0.0, 1.0);
    Vec2d p{a.x + sp * (double{b.x} - a.x), a.y + sp * (double{b.y} - a.y)};
    p.x = std::clamp(p.x, double{std::min(a.x, b.x)}, double{std::max(a.x, b.x)});
    p.y = std::clamp(p.y, double{std::min(a.y, b.y)}, double{std::max(a.y, b.y)});
    meet = {num_t / den, p};
  }
  // A ray starting on s meets it exactly there (the crossing or endpoint is o itself, and
  // its time is exactly 0 already); report the unrounded point.
  if (starts_inside) meet = start;
  return make_hit(meet, meet, starts_inside, false);
}

}  // namespace

bool intersects(const Ray& r, const Segment& s) { return raycast(r, s).hit; }

bool intersects(const Line& l, const Segment& s) { return raycast(l, s).hit; }

RayHit raycast(const Segment& query, const Segment& s) {
  const Vec2 a = query.a, b = query.b;
  if (a == b) return point_cast(a, s, 0.0, 1.0, true, true);
  const SegmentIntersection x = segment_intersection(query, s);
  if (!x.hit()) return {};
  // segment_intersection orders the common part by the query's parameter (s0 <= s1) and
  // returns its ends unrounded when they are endpoints, with parameters 0 at a and 1 at b.
  // Whether a and b lie on s is decided here on its own, exactly, and pins those ends.
  const bool starts_inside = on_segment(s, a);
  const bool ends_inside = on_segment(s, b);
  End near{x.s0, x.p0};
  End far{x.s1, x.p1};
  if (starts_inside) near = {0.0, to_double(a)};
  if (ends_inside) far = {1.0, to_double(b)};
  return make_hit(near, far, starts_inside, ends_inside);
}

RayHit raycast(const Ray& r, const Segment& s) {
  if (r.direction == Vec2{}) return point_cast(r.origin, s, 0.0, inf, true, false);
  return line_cast(r.origin, r.direction, s, true);
}

RayHit raycast(const Line& l, const Segment& s) {
  if (l.direction == Vec2{}) return point_cast(l.point, s, -inf, inf, false, false);
  return line_cast(l.point, l.direction, s, false);
}

}  // namespace hitgrid
