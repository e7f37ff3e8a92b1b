// Segment, ray and line against an axis-aligned box: the slab method, with an exact hit.
//
// Conventions (ray.hpp: queries p(t) = origin + t direction, RayHit)
//   - The box is closed ([min.x, max.x] x [min.y, max.y], min <= max; a flat box is a
//     segment or a point). Touching an edge or a corner is a hit; sliding along an edge is
//     a hit over the whole contact interval.
//   - Inside the slab of an axis the query enters through the face it moves towards and
//     leaves through the opposite one. A direction component of exactly 0 makes that axis
//     a yes/no test (origin within the slab or not), never a division: no inf * 0, no NaN.
//   - A single-point query (a == b, zero direction) hits iff the point is in the box, and
//     then t_near / t_far span its whole range ([0, 1], [0, +inf), (-inf, +inf)).
//
// What is exact (float32 inputs taken as exact rationals)
//   - hit. For a segment it is intersects(Segment, Box) itself. For rays and lines it is
//     decided by separating axes (x, y, the query's normal) with exact comparisons and an
//     exact orientation predicate; no epsilon.
//   - starts_inside, ends_inside (comparisons of floats), hence enters() and exits();
//     t_near = 0 and p_near = origin when starting inside, t_far = 1 and p_far = b when
//     ending inside.
//   - On the face that a hit point was computed for, the point's coordinate is the face's
//     coordinate exactly. Every hit point lies in the closed box.
//
// What is rounded (u = 2^-53)
//   - t_near, t_far: |t - t*| <= 2^-49 |t*| (one rounded difference and one division per
//     slab, plus the direction b - a for segments). For a segment this is
//     at most 2^-49 in absolute terms.
//   - p_near, p_far: each coordinate within 2^-47 (|origin|_inf + |t| |direction|_inf) of
//     the exact point; for a segment (direction b - a) within 2^-45 M, M = the largest
//     |coordinate| of a and b.
#pragma once

#include "hitgrid/core/ray.hpp"
#include "hitgrid/core/shapes.hpp"

namespace hitgrid {

RayHit raycast(const Segment& s, const Box& b);
RayHit raycast(const Ray& r, const Box& b);
RayHit raycast(const Line& l, const Box& b);

/// Exact: the ray / line shares a point with the closed box (the `hit` of raycast).
bool intersects(const Ray& r, const Box& b);
bool intersects(const Line& l, const Box& b);

}  // namespace hitgrid
