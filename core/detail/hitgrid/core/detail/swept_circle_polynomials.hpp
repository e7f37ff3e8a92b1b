// The polynomials behind swept_circle (a circle moving against a static segment or box),
// written once as templates over the number type like geometry_polynomials.hpp, and
// evaluated by adaptive_eval.hpp.
//
// Notation: the circle (c, r) moves by v over the frame, its centre at c + t v; the
// segment runs from a to b, e = b - a, E = |e|^2. The end position c + v is formed inside
// the polynomials (exact in Expansion, tracked in Filtered), never rounded beforehand.
//
// Degrees: every polynomial here has degree <= 4 in the float32 inputs, the range of
// filtered.hpp, except sweep_corner, of degree 6, which is only ever evaluated with
// Expansion (expansion.hpp states why degree 6 is still exact); its filter is the caller's,
// built from degree-2 values.
#pragma once

namespace hitgrid::poly {

/// cross(e, (c + v) - a): the side of the segment's line the path ends on.
auto sweep_end_side(auto ax, auto ay, auto bx, auto by, auto cx, auto cy, auto vx, auto vy) {
  return (bx - ax) * ((cy + vy) - ay) - (by - ay) * ((cx + vx) - ax);
}

/// cross(e, (c + v) - a)^2 - r^2 E: <= 0 iff the path ends within r of the segment's line.
auto sweep_end_line_gap(auto ax, auto ay, auto bx, auto by, auto cx, auto cy, auto vx, auto vy, auto r) {
  const auto h = sweep_end_side(ax, ay, bx, by, cx, cy, vx, vy);
  const auto ex = bx - ax;
  const auto ey = by - ay;
  return h * h - (r * r) * (ex * ex + ey * ey);
}

/// cross(e, v): the rate at which cross(e, c + t v - a) changes.
auto sweep_cross_velocity(auto ax, auto ay, auto bx, auto by, auto vx, auto vy) {
  return (bx - ax) * vy - (by - ay) * vx;
}

/// dot(e, v): the rate at which the centre's projection onto the segment changes.
auto sweep_dot_velocity(auto ax, auto ay, auto bx, auto by, auto vx, auto vy) {
  return (bx - ax) * vx + (by - ay) * vy;
}

/// E cross(v, c - p)^2 - r^2 dot(e, v)^2, degree 6: the sign of
/// sqrt(E) |cross(v, c - p)| - r |dot(e, v)|. Which of the two is larger decides, with
/// their signs, on which side of the path's line a corner p +- r e_perp / sqrt(E) of the
/// rounded segment lies (p = a or b).
auto sweep_corner(auto ax, auto ay, auto bx, auto by, auto px, auto py, auto cx, auto cy, auto vx, auto vy, auto r) {
  const auto ex = bx - ax;
  const auto ey = by - ay;
  const auto side = vx * (cy - py) - vy * (cx - px);
  const auto along = ex * vx + ey * vy;
  return (ex * ex + ey * ey) * (side * side) - (r * r) * (along * along);
}

// Boxes. One axis of a box grown by r (or not grown): the face f + g, with g = -r, 0 or r,
// and the centre's coordinate c moving by v. The centre is at the face at time
// (f + g - c) / v, a rational number, so the clip of the path against the grown box is
// decided exactly by the signs below.

/// (f + g) - c: the face's offset from the centre at t = 0.
auto slab_gap(auto f, auto g, auto c) { return (f + g) - c; }

/// ((f + g) - c) - v: the face's offset from the centre at t = 1.
auto slab_gap_after(auto f, auto g, auto c, auto v) { return ((f + g) - c) - v; }

/// ((f1 + g1) - c1) v2 - ((f2 + g2) - c2) v1: its sign times sign(v1) sign(v2) is the sign of
/// the difference between the times at which the centre reaches face 1 and face 2.
auto slab_order(auto f1, auto g1, auto c1, auto v1, auto f2, auto g2, auto c2, auto v2) {
  return ((f1 + g1) - c1) * v2 - ((f2 + g2) - c2) * v1;
}

}  // namespace hitgrid::poly
