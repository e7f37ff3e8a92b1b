// Segment, ray and line against a segment, with an exact hit.
//
// Conventions (ray.hpp: queries p(t) = origin + t direction, RayHit)
//   - The target segment {a, b} is closed; a == b is the point a. A query through an
//     endpoint hits it; a query crossing the segment touches it at one time
//     (t_near == t_far).
//   - A query running along the segment on its line (collinear overlap) hits over the whole
//     contact interval: [t_near, t_far] are the times of the two ends of the common part.
//   - A single-point query (a == b, zero direction) hits iff the point lies on the segment,
//     and then t_near / t_far span its whole range ([0, 1], [0, +inf), (-inf, +inf)).
//
// What is exact (float32 inputs taken as exact rationals)
//   - hit. For a segment query it is intersects(Segment, Segment) itself (the cast is
//     segment_intersection(), which this reuses). For rays and lines it is decided by the
//     exact signs of orientations (which side of the query's line a and b lie on, where
//     the crossing lies along the query) and, on the query's line, of dot products.
//   - starts_inside, ends_inside (exact point-on-segment tests), hence enters() and exits();
//     t_near = 0 and p_near = origin when starting inside, t_far = 1 and p_far = b when
//     ending inside.
//   - Every point that is an endpoint of the target or of a segment query (a ray through an
//     endpoint, the ends of a collinear overlap) is returned unrounded.
//
// What is rounded (u = 2^-53)
//   - t_near, t_far: |t - t*| <= 2^-46 |t*|. Each time is a quotient of two values that are
//     evaluated to relative error ~2^-48, exactly when they cancel (a query nearly parallel
//     to the segment loses nothing): cross(a - origin, b - a) / cross(direction, b - a) for a
//     crossing, dot(direction, p - origin) / |direction|^2 for an endpoint p on the query's
//     line; for a segment query, segment_intersection's parameters.
//   - A crossing point interior to the target (and, for a segment query, to the query):
//     each coordinate within 2^-44 M of the exact point, M = the largest |coordinate| of
//     the target's endpoints and, for a segment query, of the query's. It lies in the
//     target's bounding box.
#pragma once

#include "hitgrid/core/ray.hpp"
#include "hitgrid/core/shapes.hpp"

namespace hitgrid {

RayHit raycast(const Segment& query, const Segment& s);
RayHit raycast(const Ray& r, const Segment& s);
RayHit raycast(const Line& l, const Segment& s);

/// Exact: the ray / line shares a point with the closed segment (the `hit` of raycast).
bool intersects(const Ray& r, const Segment& s);
bool intersects(const Line& l, const Segment& s);

}  // namespace hitgrid
