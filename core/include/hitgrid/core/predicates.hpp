// Exact geometric predicates on float32 inputs.
//
// Each predicate returns the sign (-1, 0, +1) of a polynomial in its inputs, where every
// float is taken as the exact rational number it represents. No epsilon: the answer is
// the one exact rational arithmetic gives, for every finite input.
//
// How (docs/contracts.md, contract 1): the polynomial is evaluated in double together
// with a bound on its rounding error (a static bound for orient2d and dot_sign,
// Shewchuk's; a running bound for the others). Only when the value lies within the bound
// is it recomputed exactly with floating-point expansions, on a cold path. Random inputs
// almost never get there; exactly degenerate inputs (collinear points, tangent circles)
// always do, and pay for the expansions (bench/predicates_bench measures both paths).
#pragma once

#include <cstdint>

#include "hitgrid/core/vec2.hpp"

namespace hitgrid {

/// Sign of cross(b - a, c - a): +1 if c lies to the left of the directed line a -> b
/// (a, b, c counter-clockwise), -1 to the right, 0 if the three points are collinear
/// (including a == b).
int orient2d(Vec2 a, Vec2 b, Vec2 c);

/// Sign of cross(d, p - o): +1 if p lies to the left of the line through o along the
/// direction d, -1 to the right, 0 on it (or d == 0). orient2d with a direction, for rays
/// and lines, whose o + d need not be a float.
int orient_along(Vec2 o, Vec2 d, Vec2 p);

/// Sign of dot(b - a, c - a).
int dot_sign(Vec2 a, Vec2 b, Vec2 c);

/// Sign of |p - q|^2 - r^2: <= 0 iff q lies in the closed disk of radius |r| around p.
int compare_distance(Vec2 p, Vec2 q, float r);

/// Sign of |p - q|^2 - (r1 + r2)^2, with r1 + r2 taken exactly: <= 0 iff closed disks of
/// radii r1, r2 >= 0 around p and q intersect.
int compare_center_distance(Vec2 p, Vec2 q, float r1, float r2);

/// Sign of cross(b - a, p - a)^2 - r^2 |b - a|^2: for a != b, <= 0 iff p lies within
/// distance |r| of the line through a and b.
int compare_line_distance(Vec2 a, Vec2 b, Vec2 p, float r);

}  // namespace hitgrid
