// The polynomials behind the geometry functions (segment_intersection, distance, ray_box,
// ray_circle, time_of_impact), written once as templates over the number type, like
// predicate_polynomials.hpp: adaptive_eval.hpp evaluates each one with Filtered and, when
// the filter cannot decide, with Expansion, so the two can only disagree through a bug in
// the number types.
//
// Parameters are generic (auto) so a direction may be passed either as a float input
// (rays, lines: d is exact) or as an expression such as bx - ax (segments: d = b - a,
// exact in Expansion, tracked in Filtered).
//
// Every polynomial has degree <= 4 in float32 inputs, the range for which expansion.hpp
// and filtered.hpp state that nothing overflows or underflows.
#pragma once

namespace hitgrid::poly {

/// cross(b - a, d - c): zero iff the directions b - a and d - c are parallel (or zero).
auto cross_of_differences(auto ax, auto ay, auto bx, auto by, auto cx, auto cy, auto dx, auto dy) {
  return (bx - ax) * (dy - cy) - (by - ay) * (dx - cx);
}

/// dot(b - a, c - a)
auto dot3(auto ax, auto ay, auto bx, auto by, auto cx, auto cy) { return (bx - ax) * (cx - ax) + (by - ay) * (cy - ay); }

/// cross(b - a, c - a), the orientation polynomial.
auto cross3(auto ax, auto ay, auto bx, auto by, auto cx, auto cy) {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

/// |d|^2
auto norm2(auto dx, auto dy) { return dx * dx + dy * dy; }

/// |q - p|^2
auto distance2(auto px, auto py, auto qx, auto qy) {
  const auto dx = qx - px;
  const auto dy = qy - py;
  return dx * dx + dy * dy;
}

/// cross(d, p - o): > 0 iff p lies to the left of the line through o with direction d.
auto cross_dir(auto ox, auto oy, auto dx, auto dy, auto px, auto py) { return dx * (py - oy) - dy * (px - ox); }

/// dot(d, p - o)
auto dot_dir(auto ox, auto oy, auto dx, auto dy, auto px, auto py) { return dx * (px - ox) + dy * (py - oy); }

/// |o - c|^2 - r^2: <= 0 iff o lies in the closed disk (c, |r|).
auto point_circle_gap(auto ox, auto oy, auto cx, auto cy, auto r) {
  const auto wx = ox - cx;
  const auto wy = oy - cy;
  return (wx * wx + wy * wy) - r * r;
}

/// r^2 |d|^2 - cross(d, c - o)^2: one quarter of the discriminant of
/// |o + t d - c|^2 = r^2 in t (the identity (d.w)^2 - |d|^2 (|w|^2 - r^2) =
/// r^2 |d|^2 - cross(d, w)^2 with w = o - c). >= 0 iff the line meets the closed disk.
auto line_circle_discriminant(auto ox, auto oy, auto dx, auto dy, auto cx, auto cy, auto r) {
  const auto cr = cross_dir(ox, oy, dx, dy, cx, cy);
  return (r * r) * norm2(dx, dy) - cr * cr;
}

// Swept circles. With w = c2 - c1, v = v2 - v1 and R = r1 + r2, the squared gap
// |w + t v|^2 - R^2 = A t^2 + 2 B t + C, with A = |v|^2, B = w.v, C = |w|^2 - R^2.

/// B = (c2 - c1).(v2 - v1)
auto toi_b(auto c1x, auto c1y, auto v1x, auto v1y, auto c2x, auto c2y, auto v2x, auto v2y) {
  return (c2x - c1x) * (v2x - v1x) + (c2y - c1y) * (v2y - v1y);
}

/// A + B = v.(w + v): >= 0 iff the time of closest approach -B/A is <= 1 (for A > 0).
auto toi_a_plus_b(auto c1x, auto c1y, auto v1x, auto v1y, auto c2x, auto c2y, auto v2x, auto v2y) {
  const auto vx = v2x - v1x;
  const auto vy = v2y - v1y;
  return vx * ((c2x - c1x) + vx) + vy * ((c2y - c1y) + vy);
}

/// C = |c2 - c1|^2 - (r1 + r2)^2, the gap at t = 0.
auto toi_start_gap(auto c1x, auto c1y, auto r1, auto c2x, auto c2y, auto r2) {
  const auto wx = c2x - c1x;
  const auto wy = c2y - c1y;
  const auto rs = r1 + r2;
  return (wx * wx + wy * wy) - rs * rs;
}

/// A + 2B + C = |w + v|^2 - R^2, the gap at t = 1.
auto toi_end_gap(auto c1x, auto c1y, auto r1, auto v1x, auto v1y, auto c2x, auto c2y, auto r2, auto v2x, auto v2y) {
  const auto ex = (c2x - c1x) + (v2x - v1x);
  const auto ey = (c2y - c1y) + (v2y - v1y);
  const auto rs = r1 + r2;
  return (ex * ex + ey * ey) - rs * rs;
}

/// B^2 - A C = R^2 |v|^2 - cross(w, v)^2 (same identity as line_circle_discriminant).
auto toi_discriminant(auto c1x, auto c1y, auto r1, auto v1x, auto v1y, auto c2x, auto c2y, auto r2, auto v2x,
                      auto v2y) {
  const auto wx = c2x - c1x;
  const auto wy = c2y - c1y;
  const auto vx = v2x - v1x;
  const auto vy = v2y - v1y;
  const auto rs = r1 + r2;
  const auto cr = wx * vy - wy * vx;
  return (rs * rs) * (vx * vx + vy * vy) - cr * cr;
}

}  // namespace hitgrid::poly
