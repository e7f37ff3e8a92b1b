// Rays, lines, and the result of casting a segment, ray or line against a shape.
//
// A query is a set of points p(t) = origin + t * direction over a range of t:
//
//   Segment {a, b}        p(t) = a + t (b - a),          t in [0, 1]
//   Ray {origin, dir}     p(t) = origin + t dir,         t in [0, +inf)
//   Line {point, dir}     p(t) = point + t dir,          t in (-inf, +inf)
//
// Coordinates and directions are float32 and exact, like every shape (vec2.hpp); a
// direction need not be normalised, so t is measured in units of |direction|. A zero
// direction (or a == b) makes the query a single point, reached at every t of the range.
//
// RayHit (ray_box.hpp, ray_circle.hpp, ray_segment.hpp) describes where a query meets a
// closed convex shape: the times t at which p(t) lies in the shape form one closed interval
// [t_near, t_far], clipped to the query's range. Which parts are exact and which are
// rounded, and the error bounds, are stated in those headers.
#pragma once

#include "hitgrid/core/vec2.hpp"

namespace hitgrid {

struct Ray {
  Vec2 origin;
  Vec2 direction;
  friend constexpr bool operator==(const Ray&, const Ray&) = default;
};

struct Line {
  Vec2 point;
  Vec2 direction;
  friend constexpr bool operator==(const Line&, const Line&) = default;
};

struct RayHit {
  /// The query shares at least one point with the closed shape. Exact.
  bool hit = false;
  /// The query's first point (segment: a, ray: origin) lies in the closed shape. Exact.
  /// Always false for a line, which has no first point.
  bool starts_inside = false;
  /// The segment's b lies in the closed shape. Exact. Always false for rays and lines.
  bool ends_inside = false;
  /// If hit: [t_near, t_far] is the set of times at which the query is in the shape,
  /// t_near <= t_far, both in the query's range. Rounded (bounds in the shape's header),
  /// except: t_near is exactly 0 when starts_inside, t_far exactly 1 when ends_inside,
  /// and a query that is a single point gets the whole range (a line's: -inf and +inf;
  /// a ray's t_far: +inf). No NaN ever. If !hit: both 0.
  double t_near = 0.0;
  double t_far = 0.0;
  /// If hit: p(t_near) and p(t_far), rounded (p_near is exactly the first point when
  /// starts_inside, p_far exactly b when ends_inside). If !hit: (0, 0).
  Vec2d p_near;
  Vec2d p_far;

  /// The query comes in from outside: hit, and its first point is outside (always for a
  /// line that hits).
  bool enters() const { return hit && !starts_inside; }
  /// The query leaves the shape: hit, and it does not end inside. Every ray or line that
  /// hits exits (ends_inside is false for them); one that does not move reports t_far = +inf.
  bool exits() const { return hit && !ends_inside; }
};

}  // namespace hitgrid
