// Segment, ray and line against a circle (closed disk), with an exact hit.
//
// Conventions (ray.hpp: queries p(t) = origin + t direction, RayHit)
//   - The disk is closed, radius r >= 0 (r == 0 is the point c). A tangent query touches
//     it at one time (t_near == t_far): that is a hit.
//   - The times are the roots of |p(t) - c|^2 = r^2, i.e. A t^2 + 2 B t + C = 0 with
//     A = |d|^2, B = d.(origin - c), C = |origin - c|^2 - r^2, clipped to the query's range.
//   - A single-point query (a == b, zero direction) hits iff the point is in the disk, and
//     then t_near / t_far span its whole range.
//
// What is exact (float32 inputs taken as exact rationals)
//   - hit. For a segment it is intersects(Segment, Circle) itself; for rays and lines it is
//     decided by the exact signs of C, of d.(c - origin) and of the discriminant
//     r^2 |d|^2 - cross(d, c - origin)^2 (filtered, with an expansion fallback).
//   - starts_inside, ends_inside (exact point-in-disk tests), hence enters() and exits();
//     t_near = 0 and p_near = origin when starting inside, t_far = 1 and p_far = b when
//     ending inside.
//
// What is rounded (u = 2^-53)
//   - t_near, t_far: |t - t*| <= 2^-45 |t*|. A, B, C and the discriminant are each
//     evaluated to relative error ~2^-48 (exactly, when they cancel), and the roots are
//     formed without cancellation (q = -(B + sign(B) sqrt(disc)), roots q / A and C / q),
//     so tangent and nearly tangent queries keep their accuracy.
//   - p_near, p_far (not on a range end): each coordinate within
//     2^-44 (|origin|_inf + |t| |direction|_inf) of the exact point; for a segment within
//     2^-42 M, M = the largest |coordinate| of a and b.
#pragma once

#include "hitgrid/core/ray.hpp"
#include "hitgrid/core/shapes.hpp"

namespace hitgrid {

RayHit raycast(const Segment& s, const Circle& c);
RayHit raycast(const Ray& r, const Circle& c);
RayHit raycast(const Line& l, const Circle& c);

/// Exact: the ray / line shares a point with the closed disk (the `hit` of raycast).
bool intersects(const Ray& r, const Circle& c);
bool intersects(const Line& l, const Circle& c);

}  // namespace hitgrid
