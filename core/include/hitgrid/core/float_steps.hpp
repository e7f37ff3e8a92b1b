// Float steps: the neighbouring float of a float, and the floats that bound a double.
//
// Conservative bounds (a circle's box, a swept path's box, a box grown by a margin) are
// computed in double and rounded outward to floats. std::nextafter does the step, but it
// is a library call that the compiler does not inline (it must handle every case and set
// errno), and bounds are computed for every moving shape in every frame. These are the
// same functions on the bits, inline. For every float x that is not NaN:
//   next_float_up(x)   == std::nextafter(x, +inf)  (+inf stays +inf; -0 and +0 go to the
//                                                   smallest positive subnormal)
//   next_float_down(x) == std::nextafter(x, -inf)
// The tests check both against std::nextafter on every sign, exponent and boundary
// (zeros, subnormals, the largest float, the infinities).
#pragma once

#include <bit>
#include <cstdint>
#include <limits>

namespace hitgrid {

/// The next float towards +infinity (x itself if +infinity or NaN).
constexpr float next_float_up(float x) {
  if (x != x || x == std::numeric_limits<float>::infinity()) return x;
  if (x == 0.0f) return std::numeric_limits<float>::denorm_min();
  const auto bits = std::bit_cast<std::uint32_t>(x);
  // Positive: one more in magnitude; negative: one less (-inf becomes -max).
  return std::bit_cast<float>(x > 0.0f ? bits + 1 : bits - 1);
}

/// The next float towards -infinity (x itself if -infinity or NaN).
constexpr float next_float_down(float x) { return -next_float_up(-x); }

/// The smallest float >= v (v not NaN; +inf when v exceeds every float): for a float x,
/// x < v iff x < float_at_least(v).
inline float float_at_least(double v) {
  const auto f = static_cast<float>(v);
  return static_cast<double>(f) < v ? next_float_up(f) : f;
}

/// The largest float <= v.
inline float float_at_most(double v) {
  const auto f = static_cast<float>(v);
  return static_cast<double>(f) > v ? next_float_down(f) : f;
}

}  // namespace hitgrid
