// The polynomials behind within_distance.hpp whose radius is a sum: a disk grown by the
// margin m has radius r + m, and two grown disks are within reach when their centres are
// within r1 + r2 + m. Written once as templates over the number type, like
// predicate_polynomials.hpp: within_distance.cpp evaluates them with Filtered and, when
// the filter cannot decide, with Expansion, and a batch kernel can evaluate the same
// source in lanes. The sum is part of the polynomial, so it is exact in Expansion and
// tracked by the error bound in Filtered: never a rounded float sum.
//
// Each is the squared form of a comparison of nonnegative quantities (a distance against
// a reach r + m >= 0), so its sign is the comparison's sign. Degree <= 4 in float32
// inputs: the range in which expansion.hpp and filtered.hpp state that nothing overflows
// or underflows.
#pragma once

namespace hitgrid::poly {

/// |p - q|^2 - (r + m)^2: <= 0 iff q lies within r + m of p (r, m >= 0).
template <class T>
auto grown_point_gap(T px, T py, T qx, T qy, T r, T m) {
  const auto dx = px - qx;
  const auto dy = py - qy;
  const auto reach = r + m;
  return (dx * dx + dy * dy) - reach * reach;
}

/// |p - q|^2 - (r1 + r2 + m)^2: <= 0 iff disks of radii r1, r2 >= 0 around p and q are
/// within m >= 0 of each other.
template <class T>
auto grown_center_gap(T px, T py, T qx, T qy, T r1, T r2, T m) {
  const auto dx = px - qx;
  const auto dy = py - qy;
  const auto reach = (r1 + r2) + m;
  return (dx * dx + dy * dy) - reach * reach;
}

/// cross(b - a, p - a)^2 - (r + m)^2 |b - a|^2: for a != b, <= 0 iff p lies within r + m
/// of the line through a and b (r, m >= 0).
template <class T>
auto grown_line_gap(T ax, T ay, T bx, T by, T px, T py, T r, T m) {
  const auto ux = bx - ax;
  const auto uy = by - ay;
  const auto cr = ux * (py - ay) - uy * (px - ax);
  const auto reach = r + m;
  return cr * cr - (reach * reach) * (ux * ux + uy * uy);
}

}  // namespace hitgrid::poly
