// The polynomials behind core/predicates.hpp, written once as templates over the number
// type. The same source is evaluated with Filtered (the floating-point filter) and with
// exact::Expansion (the cold path), so the two can only disagree through a bug in the
// number types, which the tests compare against GMP.
#pragma once

namespace hitgrid::poly {

/// cross(b - a, c - a)
template <class T>
auto orient(T ax, T ay, T bx, T by, T cx, T cy) {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

/// dot(b - a, c - a)
template <class T>
auto dot(T ax, T ay, T bx, T by, T cx, T cy) {
  return (bx - ax) * (cx - ax) + (by - ay) * (cy - ay);
}

/// |p - q|^2 - r^2
template <class T>
auto distance(T px, T py, T qx, T qy, T r) {
  const auto dx = px - qx;
  const auto dy = py - qy;
  return (dx * dx + dy * dy) - r * r;
}

/// |p - q|^2 - (r1 + r2)^2
template <class T>
auto center_distance(T px, T py, T qx, T qy, T r1, T r2) {
  const auto dx = px - qx;
  const auto dy = py - qy;
  const auto rs = r1 + r2;
  return (dx * dx + dy * dy) - rs * rs;
}

/// cross(b - a, p - a)^2 - r^2 |b - a|^2
template <class T>
auto line_distance(T ax, T ay, T bx, T by, T px, T py, T r) {
  const auto ux = bx - ax;
  const auto uy = by - ay;
  const auto cr = ux * (py - ay) - uy * (px - ax);
  return cr * cr - (r * r) * (ux * ux + uy * uy);
}

}  // namespace hitgrid::poly
