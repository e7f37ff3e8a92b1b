// Point in triangle and point in convex polygon, exact.
//
// Conventions
//   - Triangles and polygons are closed sets; `locate_*` says whether p is outside, on the
//     boundary or in the interior. The inclusive tests (point_in_*) accept boundary points,
//     the strict ones (*_strict) only interior points.
//   - Either orientation is accepted (clockwise or counter-clockwise): the orientation is
//     found exactly and the edge tests follow it.
//   - A convex polygon is its vertices in order along the boundary, as a span of Vec2; it
//     is not closed by repeating the first vertex (a repeated vertex, repeated closing
//     vertex or collinear vertices along an edge are fine: zero-length edges are skipped).
//     Precondition, not checked: the vertices, in order, bound a convex region (every turn
//     has the same orientation or is straight, and the boundary goes around once).
//     For non-convex input the answer is unspecified (but the call is safe).
//   - Degenerate input: when all vertices are collinear (a flat triangle, a polygon of one
//     or two distinct points), the closed set is the segment between the extreme vertices
//     (or the single point): p on it is `boundary`, and no point is `inside` (the interior
//     is empty). An empty polygon contains nothing.
//
// Exactness: every answer is exact on the float32 inputs (orient2d and float comparisons;
// no epsilon, nothing rounded). Cost: a triangle takes three or four orient2d; a convex
// polygon of n vertices takes O(n) of them (a linear scan: robust in the presence of
// collinear and repeated vertices; a binary search over the fan is a possible speedup).
#pragma once

#include <cstdint>
#include <span>

#include "hitgrid/core/vec2.hpp"

namespace hitgrid {

enum class Containment : std::uint8_t { outside, boundary, inside };

Containment locate_in_triangle(Vec2 p, Vec2 a, Vec2 b, Vec2 c);
/// p lies in the closed triangle abc.
bool point_in_triangle(Vec2 p, Vec2 a, Vec2 b, Vec2 c);
/// p lies in the interior of triangle abc (never, for a degenerate triangle).
bool point_in_triangle_strict(Vec2 p, Vec2 a, Vec2 b, Vec2 c);

Containment locate_in_convex_polygon(Vec2 p, std::span<const Vec2> polygon);
bool point_in_convex_polygon(Vec2 p, std::span<const Vec2> polygon);
bool point_in_convex_polygon_strict(Vec2 p, std::span<const Vec2> polygon);

}  // namespace hitgrid
