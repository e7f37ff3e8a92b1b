// The filtered orient2d, inline so that the hot narrow-phase tests (intersects.cpp) get it
// without a call; predicates.cpp's public orient2d is this function too.
//
// Shewchuk's static bound: |fl(l - r) - (l - r)| <= (3u + 16u^2)(|l| + |r|) for l and r
// products of rounded differences of the inputs (his ccwerrboundA). For float32 inputs the
// products never underflow, so the rounded terms have the exact terms' signs and a sum of
// terms that do not have opposite signs needs no bound at all.
#pragma once

#include <cmath>

#include "hitgrid/core/vec2.hpp"

namespace hitgrid {

namespace exact {
int orient2d(Vec2 a, Vec2 b, Vec2 c);
}  // namespace exact

namespace detail {

constexpr double two_product_bound = (3.0 + 16.0 * 0x1p-53) * 0x1p-53;

/// Counts the call and runs the exact path; out of line so the inline filter stays small.
[[gnu::cold, gnu::noinline]] int orient2d_exact_counted(Vec2 a, Vec2 b, Vec2 c);
[[gnu::cold, gnu::noinline]] int dot_sign_exact_counted(Vec2 a, Vec2 b, Vec2 c);

inline int sign_of(double v) { return (v > 0.0) - (v < 0.0); }

/// Sign of l + r if the filter certifies it, 2 otherwise.
inline int filtered_sum_sign(double l, double r) {
  if ((l >= 0.0 && r >= 0.0) || (l <= 0.0 && r <= 0.0)) return sign_of(l + r);
  const double s = l + r;
  const double bound = two_product_bound * (std::fabs(l) + std::fabs(r));
  if (s > bound || -s > bound) return sign_of(s);
  return 2;
}

inline int orient2d_filtered(Vec2 a, Vec2 b, Vec2 c) {
  const double l = (double{b.x} - a.x) * (double{c.y} - a.y);
  const double r = (double{b.y} - a.y) * (double{c.x} - a.x);
  const int s = filtered_sum_sign(l, -r);
  return s != 2 ? s : orient2d_exact_counted(a, b, c);
}

inline int dot_sign_filtered(Vec2 a, Vec2 b, Vec2 c) {
  const double l = (double{b.x} - a.x) * (double{c.x} - a.x);
  const double r = (double{b.y} - a.y) * (double{c.y} - a.y);
  const int s = filtered_sum_sign(l, r);
  return s != 2 ? s : dot_sign_exact_counted(a, b, c);
}

}  // namespace detail
}  // namespace hitgrid
