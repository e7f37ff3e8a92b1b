#include "hitgrid/core/point_in_polygon.hpp"

#include <algorithm>
#include <cstddef>

#include "hitgrid/core/predicates.hpp"

namespace hitgrid {
namespace {

bool lex_less(Vec2 p, Vec2 q) { return p.x < q.x || (p.x == q.x && p.y < q.y); }

/// All of `points` lie on one line (or coincide): their convex hull is the segment from
/// the lexicographically smallest to the largest (on a line, lexicographic order is the
/// order along it). p is on the boundary iff it lies on that segment.
Containment locate_in_flat(Vec2 p, std::span<const Vec2> points) {
  if (points.empty()) return Containment::outside;
  Vec2 lo = points[0], hi = points[0];
  for (const Vec2 v : points) {
    if (lex_less(v, lo)) lo = v;
    if (lex_less(hi, v)) hi = v;
  }
  if (orient2d(lo, hi, p) != 0) return Containment::outside;  // 0 for every p if lo == hi
  // Collinear with the hull segment: on it iff within its bounding box.
  const bool on = std::min(lo.x, hi.x) <= p.x && p.x <= std::max(lo.x, hi.x) && std::min(lo.y, hi.y) <= p.y &&
                  p.y <= std::max(lo.y, hi.y);
  return on ? Containment::boundary : Containment::outside;
}

}  // namespace

Containment locate_in_triangle(Vec2 p, Vec2 a, Vec2 b, Vec2 c) {
  const int o = orient2d(a, b, c);
  if (o == 0) {
    const Vec2 pts[3] = {a, b, c};
    return locate_in_flat(p, pts);
  }
  // p is inside the closed triangle iff it is on the inner side (or on the line) of each
  // edge; multiplying by o makes "inner" positive for both orientations.
  const int s1 = o * orient2d(a, b, p);
  if (s1 < 0) return Containment::outside;
  const int s2 = o * orient2d(b, c, p);
  if (s2 < 0) return Containment::outside;
  const int s3 = o * orient2d(c, a, p);
  if (s3 < 0) return Containment::outside;
  return (s1 > 0 && s2 > 0 && s3 > 0) ? Containment::inside : Containment::boundary;
}

bool point_in_triangle(Vec2 p, Vec2 a, Vec2 b, Vec2 c) { return locate_in_triangle(p, a, b, c) != Containment::outside; }

bool point_in_triangle_strict(Vec2 p, Vec2 a, Vec2 b, Vec2 c) {
  return locate_in_triangle(p, a, b, c) == Containment::inside;
}

Containment locate_in_convex_polygon(Vec2 p, std::span<const Vec2> polygon) {
  const std::size_t n = polygon.size();
  // The orientation of a convex polygon: every fan triangle (v0, v_i, v_i+1) has it or is
  // flat, so the first non-flat one tells. None: all vertices are collinear.
  int o = 0;
  for (std::size_t i = 1; i + 1 < n && o == 0; ++i) o = orient2d(polygon[0], polygon[i], polygon[i + 1]);
  if (o == 0) return locate_in_flat(p, polygon);
  // A convex polygon is the intersection of the closed inner half-planes of its edges.
  // p on an edge's line and inside all the others lies on that edge: boundary.
  bool on_edge = false;
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2 a = polygon[i];
    const Vec2 b = polygon[i + 1 == n ? 0 : i + 1];
    if (a == b) continue;  // a repeated vertex is no edge
    const int s = o * orient2d(a, b, p);
    if (s < 0) return Containment::outside;
    if (s == 0) on_edge = true;
  }
  return on_edge ? Containment::boundary : Containment::inside;
}

bool point_in_convex_polygon(Vec2 p, std::span<const Vec2> polygon) {
  return locate_in_convex_polygon(p, polygon) != Containment::outside;
}

bool point_in_convex_polygon_strict(Vec2 p, std::span<const Vec2> polygon) {
  return locate_in_convex_polygon(p, polygon) == Containment::inside;
}

}  // namespace hitgrid
