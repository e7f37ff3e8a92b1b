// A circle moving over one frame against a static segment, box or circle: the first time of
// contact.
//
// Conventions
//   - The circle (c, r), r >= 0, moves by v: its centre at time t is c + t v, t in [0, 1].
//     The static shape is closed (shapes.hpp). At time t the disk shares a point with the
//     shape iff its centre lies in the rounded shape K = {p : dist(p, shape) <= r}: a capsule
//     around a segment, a box with rounded corners, a disk of the two radii's sum.
//   - The kinds of TimeOfImpact (time_of_impact.hpp), by where the centre starts:
//       overlapping  c lies in the interior of K: the disk overlaps the shape (dist < r),
//                    or, for r = 0, the point c lies in the interior of the shape (an open
//                    box or disk; a segment has none); t = 0;
//       touching     c lies on the boundary of K (dist == r, or for r = 0, c on the shape
//                    but not in its interior), whatever happens after; t = 0;
//       impact       c lies outside K and the path [c, c + v] reaches K; t in (0, 1] is
//                    the first time it does;
//       none         otherwise.
//     Against a static circle this is time_of_impact(c, v, d, {0, 0}) itself.
//   - The whole path [c, c + v] is tested, whatever the speed: nothing tunnels through a
//     thin shape (a zero-thickness segment, a flat box) between two frames.
//
// What is exact (float32 inputs taken as exact rationals, no epsilon)
//   - The kind. Each decision is the sign of a polynomial in the inputs (the end position
//     c + v is formed exactly, never rounded), evaluated exactly when a filter cannot
//     decide it:
//       segment  K is the union of the two end disks (radius r around a and b) and the
//                rectangle of points within r of the segment's line that project onto the
//                segment. A centre that starts farther than r from the line touches nothing
//                before the path reaches the strip within r of the line; then the first
//                contact is where it reaches the strip iff that point projects onto the
//                segment (a sign of sqrt(E) cross(v, c - p) - r dot(b - a, v), p = a or b,
//                decided through its degree-6 square), and otherwise, as for a centre that
//                starts in the strip, with an end disk (time_of_impact against the points a
//                and b). A zero-length segment is the point a.
//       box      K is the union of the box grown by r in x, the box grown by r in y and
//                disks of radius r around the four corners. The path enters a grown box at
//                rational times (face - c) / v, compared exactly (degree 2); the corners
//                are time_of_impact against points.
//
// What is rounded (u = 2^-53)
//   - The time of an impact: |t - t*| <= 2^-46 t* for all three shapes. Every candidate
//     first time (an end disk or corner: time_of_impact's bound, 2^-46; entering the strip
//     along a segment: (cross(b - a, c - a)^2 - r^2 E) / ((|cross(b - a, c - a)| + r sqrt(E))
//     |cross(b - a, v)|), from values of relative error ~2^-48, < 2^-46.2; a face of a grown
//     box: (face - c) / v, < 2^-47.9) is computed only where the exact decisions say it is
//     the contact it stands for, and the minimum of such values keeps their bound.
#pragma once

#include "hitgrid/core/shapes.hpp"
#include "hitgrid/core/time_of_impact.hpp"
#include "hitgrid/core/vec2.hpp"

namespace hitgrid {

/// First contact of circle c moving by v with the static segment s.
TimeOfImpact time_of_impact(const Circle& c, Vec2 v, const Segment& s);

/// First contact of circle c moving by v with the static box b.
TimeOfImpact time_of_impact(const Circle& c, Vec2 v, const Box& b);

/// First contact of circle c moving by v with the static circle d: time_of_impact(c, v, d, {0, 0}).
TimeOfImpact time_of_impact(const Circle& c, Vec2 v, const Circle& d);

}  // namespace hitgrid
