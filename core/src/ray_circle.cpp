#include "hitgrid/core/ray_circle.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "adaptive_eval.hpp"
#include "hitgrid/core/detail/geometry_polynomials.hpp"
#include "hitgrid/core/intersects.hpp"
#include "hitgrid/core/predicates.hpp"

namespace hitgrid {
namespace {

using exact::adaptive_sign;
using exact::adaptive_value;

constexpr double inf = std::numeric_limits<double>::infinity();

bool in_disk(const Circle& c, Vec2 p) { return compare_distance(c.c, p, c.r) <= 0; }

/// The direction component from the query's two float inputs: for a segment they are a
/// and b and the direction is b - a (exact in Expansion, tracked in Filtered); for rays
/// and lines the second input is the direction itself.
template <bool IsSegment>
auto direction(auto o, auto u) {
  if constexpr (IsSegment)
    return u - o;
  else
    return u;
}

/// A, B, C and the quarter discriminant B^2 - A C = r^2 A - cross(d, c - o)^2 of
/// |o + t d - c|^2 - r^2 = A t^2 + 2 B t + C, each to relative error adaptive_rho, exact sign.
struct Quadratic {
  double a, b, c, disc;
};

template <bool IsSegment>
Quadratic quadratic(Vec2 o, Vec2 u, const Circle& circle) {
  const float cx = circle.c.x, cy = circle.c.y, r = circle.r;
  Quadratic q;
  q.a = adaptive_value(
      [](auto ox, auto oy, auto ux, auto uy) {
        return poly::norm2(direction<IsSegment>(ox, ux), direction<IsSegment>(oy, uy));
      },
      o.x, o.y, u.x, u.y);
  // B = d.(o - c) = dot_dir with origin c, direction d, point o.
  q.b = adaptive_value(
      [](auto ox, auto oy, auto ux, auto uy, auto ccx, auto ccy) {
        return poly::dot_dir(ccx, ccy, direction<IsSegment>(ox, ux), direction<IsSegment>(oy, uy), ox, oy);
      },
      o.x, o.y, u.x, u.y, cx, cy);
  q.c = adaptive_value([](auto ox, auto oy, auto ccx, auto ccy,
                          auto rr) { return poly::point_circle_gap(ox, oy, ccx, ccy, rr); },
                       o.x, o.y, cx, cy, r);
  q.disc = adaptive_value(
      [](auto ox, auto oy, auto ux, auto uy, auto ccx, auto ccy, auto rr) {
        return poly::line_circle_discriminant(ox, oy, direction<IsSegment>(ox, ux), direction<IsSegment>(oy, uy), ccx,
                                              ccy, rr);
      },
      o.x, o.y, u.x, u.y, cx, cy, r);
  return q;
}

/// Whether the end of the interval is the range end (its point is exact) or a root.
struct Event {
  double t;
  bool range;
};

struct Query {
  Vec2 o;
  Vec2 end;       // segment: b
  double dx, dy;  // direction (segment: rounded b - a)
  bool moves;     // exact: direction != 0
  double lo, hi;
  bool is_segment;
};

Vec2d point_at(const Query& q, const Event& e) {
  if (e.range || !q.moves) return q.is_segment && e.t == q.hi ? to_double(q.end) : to_double(q.o);
  return {q.o.x + e.t * q.dx, q.o.y + e.t * q.dy};
}

// Root errors (u = 2^-53, rho = adaptive_rho ~ 2^-48): sqrt(disc) has relative error
// <= rho / 2 + u; q = -(B + sign(B) sqrt(disc)) adds two numbers of one sign: <= rho + 2u;
// q / A and C / q: <= 2 rho + 3u < 2^-46.8. A collapse of an inverted interval (see
// ray_box.cpp) at most doubles that: stated 2^-45.
template <bool IsSegment>
RayHit circle_cast(const Query& q, Vec2 u, const Circle& circle, bool hit, bool starts_inside, bool ends_inside) {
  RayHit r;
  if (!hit) return r;
  r.hit = true;
  r.starts_inside = starts_inside;
  r.ends_inside = ends_inside;
  Event near{q.lo, true};
  Event far{q.hi, true};
  if (q.moves) {
    const Quadratic k = quadratic<IsSegment>(q.o, u, circle);
    // hit implies the line meets the disk: disc >= 0 exactly, and adaptive_value keeps
    // the sign, so the square root is of a nonnegative number.
    double t1, t2;
    if (k.disc == 0.0) {
      t1 = t2 = -k.b / k.a;  // tangent: the double root, exactly -B / A up to 2 rho + u
    } else {
      const double sq = std::sqrt(k.disc);
      const double qq = -(k.b + std::copysign(sq, k.b));  // never 0: sq > 0
      t1 = qq / k.a;
      t2 = k.c / qq;
      if (t1 > t2) std::swap(t1, t2);
    }
    // As in ray_box.cpp: a range end is an end of the interval iff the query starts / ends
    // inside, which is known exactly; otherwise the root is, clamped into the range.
    if (!starts_inside) near = {std::max(t1, q.lo), false};
    if (!ends_inside) far = {std::min(t2, q.hi), false};
  }
  if (near.t > far.t) {
    if (near.range)
      far = near;
    else
      near = far;
  }
  r.t_near = near.t;
  r.t_far = far.t;
  r.p_near = point_at(q, near);
  r.p_far = point_at(q, far);
  return r;
}

Query query_of(Vec2 o, Vec2 d, double lo, double hi) {
  return {o, o, d.x, d.y, d.x != 0.0f || d.y != 0.0f, lo, hi, false};
}

/// r^2 |d|^2 - cross(d, c - o)^2 >= 0: the line through o along d meets the disk.
bool line_meets_disk(Vec2 o, Vec2 d, const Circle& c) {
  return adaptive_sign([](auto ox, auto oy, auto dx, auto dy, auto cx, auto cy,
                          auto r) { return poly::line_circle_discriminant(ox, oy, dx, dy, cx, cy, r); },
                       o.x, o.y, d.x, d.y, c.c.x, c.c.y, c.r) >= 0;
}

}  // namespace

bool intersects(const Ray& r, const Circle& c) {
  const Vec2 o = r.origin, d = r.direction;
  if (in_disk(c, o)) return true;
  if (d.x == 0.0f && d.y == 0.0f) return false;
  // The origin is outside. |p(t) - c|^2 decreases at t = 0 iff d.(c - o) > 0; if it does
  // not, the ray only moves away (the squared distance is convex in t). If it does, the
  // closest approach is at t = d.(c - o) / |d|^2 > 0, on the ray: the line's test decides.
  const int towards = adaptive_sign([](auto ox, auto oy, auto dx, auto dy, auto cx,
                                       auto cy) { return poly::dot_dir(ox, oy, dx, dy, cx, cy); },
                                    o.x, o.y, d.x, d.y, c.c.x, c.c.y);
  if (towards <= 0) return false;
  return line_meets_disk(o, d, c);
}

bool intersects(const Line& l, const Circle& c) {
  if (l.direction.x == 0.0f && l.direction.y == 0.0f) return in_disk(c, l.point);
  return line_meets_disk(l.point, l.direction, c);
}

RayHit raycast(const Segment& s, const Circle& c) {
  const Query q{s.a, s.b, double{s.b.x} - s.a.x, double{s.b.y} - s.a.y, !(s.a == s.b), 0.0, 1.0, true};
  return circle_cast<true>(q, s.b, c, intersects(s, c), in_disk(c, s.a), in_disk(c, s.b));
}

RayHit raycast(const Ray& r, const Circle& c) {
  return circle_cast<false>(query_of(r.origin, r.direction, 0.0, inf), r.direction, c, intersects(r, c),
                            in_disk(c, r.origin), false);
}

RayHit raycast(const Line& l, const Circle& c) {
  return circle_cast<false>(query_of(l.point, l.direction, -inf, inf), l.direction, c, intersects(l, c), false,
                            false);
}

}  // namespace hitgrid
