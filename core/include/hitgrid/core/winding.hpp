// Polygon winding: clockwise, counter-clockwise or degenerate, decided exactly.
//
// Conventions
//   - A polygon is its vertices in order, as a span of Vec2, implicitly closed (the last
//     vertex connects back to the first; repeating the first vertex at the end is harmless).
//   - The winding is the sign of the signed area
//         2 A = sum over i of cross(v_i, v_{i+1})   (the shoelace formula),
//     positive = counter-clockwise (with the y axis pointing up: the interior is on the left
//     of every edge of a simple polygon), negative = clockwise, zero = degenerate.
//   - Degenerate: fewer than three vertices, all vertices collinear, or any polygon whose
//     signed area is exactly zero. For a self-intersecting polygon the answer is the sign
//     of its signed area (a figure eight with equal lobes is degenerate).
//   - Reversing the vertex order flips clockwise and counter-clockwise; rotating the start
//     vertex changes nothing (both exactly, on every input).
//
// Exactness: the sign is exact on the float32 inputs, for any number of vertices. The
// sum is first evaluated in double with a rigorous running error bound (relative to v_0,
// so polygons far from the origin stay cheap); only when that cannot decide is it
// recomputed exactly (each product of two floats is exact in double; the products are
// summed without error into a growing expansion). No GMP, no epsilon.
#pragma once

#include <cstdint>
#include <span>

#include "hitgrid/core/vec2.hpp"

namespace hitgrid {

enum class Winding : std::uint8_t { clockwise, counter_clockwise, degenerate };

Winding winding(std::span<const Vec2> polygon);

/// The exact sign of the signed area: +1 counter-clockwise, -1 clockwise, 0 degenerate.
int signed_area_sign(std::span<const Vec2> polygon);

}  // namespace hitgrid
