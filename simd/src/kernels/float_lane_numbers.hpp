// The two stages of lane_numbers.hpp in float32 lanes: twice the lanes of double per
// instruction.
//
// Stage 1 (static_orient_f) holds for all finite float32 inputs. Without underflow,
// float32 rounding obeys the model Shewchuk's static orientation bound assumes, with
// u = 2^-24. Underflow adds an absolute error of at most 2^-150 to a product (sums and
// differences that underflow are exact); the bound carries 2^-140 for that, and a
// constant a little above Shewchuk's for the rounding of the bound itself. Overflow
// makes the bound infinite (or NaN), and the lane undecided.
//
// Stage 2 (lane_numbers.hpp's CheckedLanes<A, float>) needs a range in which nothing
// underflows or overflows: every coordinate 0 or of magnitude in [2^-20, 2^40]
// (in_float_range). Then every coordinate, and every difference of two of them, exact or
// rounded, is a multiple of 2^-43 (the last bit of a float >= 2^-20), so a nonzero
// difference is in [2^-43, 2^41], a nonzero product of two in [2^-86, 2^82] (normal
// floats), and so is every sum of two products. A product's rounding error fl(ab) - ab is
// then zero exactly when the fused multiply-subtract (or Dekker's product, arch_ops.hpp)
// gives zero: a nonzero error is a multiple of 2^-86, never flushed to zero. A sum's
// two-sum error is exact as always. Lanes outside the range are left undecided, for the
// double lanes to take over.
#pragma once

#include "hitgrid/simd/detail/arch_ops.hpp"
#include "lane_numbers.hpp"

namespace hitgrid::simd::kernels {

/// Lanes whose value is 0 or has magnitude in [2^-20, 2^40] (false for inf and NaN).
template <class A>
[[gnu::always_inline]] inline FloatMask<A> in_float_range(const Floats<A>& x) {
  const Floats<A> m = xsimd::abs(x);
  return (x == Floats<A>(0.0f)) | ((m >= Floats<A>(0x1p-20f)) & (m <= Floats<A>(0x1p40f)));
}

/// A sign known in some float lanes: where `known`, v has the sign of the exact value.
template <class A>
struct FloatSign {
  Floats<A> v;
  FloatMask<A> known;
};

/// orient2d's polynomial cross(b - a, c - a) in float lanes, with the static bound of
/// stage 1 (above): (3 + 2^-16) 2^-24 (|l| + |r|) + 2^-140, against Shewchuk's ccwerrboundA
/// = (3 + 16 u) u, u = 2^-24, which the larger factor keeps above after the three roundings
/// of computing the bound ((1 - u)^3 > (3 + 16 u) / (3 + 2^-16)).
template <class A>
[[gnu::always_inline]] inline FloatSign<A> static_orient_f(const Floats<A>& ax, const Floats<A>& ay,
                                                           const Floats<A>& bx, const Floats<A>& by,
                                                           const Floats<A>& cx, const Floats<A>& cy) {
  const Floats<A> l = (bx - ax) * (cy - ay);
  const Floats<A> r = (by - ay) * (cx - ax);
  const Floats<A> det = l - r;
  const Floats<A> bound =
      Floats<A>((3.0f + 0x1p-16f) * 0x1p-24f) * (xsimd::abs(l) + xsimd::abs(r)) + Floats<A>(0x1p-140f);
  return {det, xsimd::abs(det) > bound};
}

/// Lanes stage 1 knew keep their value; lanes in range (in_float_range: where stage 2
/// holds) computed without rounding are known now.
template <class A>
[[gnu::always_inline]] inline FloatSign<A> refine(const FloatSign<A>& s, const CheckedLanes<A, float>& c,
                                                  const FloatMask<A>& in_range) {
  return {xsimd::select(s.known, s.v, c.v), s.known | (in_range & ~c.inexact)};
}

}  // namespace hitgrid::simd::kernels
