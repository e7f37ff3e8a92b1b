// Box-box in lanes. Scalar twin: intersects(const Box&, const Box&) in
// core/src/intersects.cpp: four comparisons of floats, exact, so float lanes (twice as
// many as double lanes) and no cold path.
#pragma once

#include "hitgrid/simd/detail/arch_ops.hpp"
#include "verdict.hpp"

namespace hitgrid::simd::kernels {

struct BoxBoxKernel {
  static constexpr int columns_a = 4, columns_b = 4;
  static constexpr bool float_lanes = true;

  template <class A>
  [[gnu::always_inline]] static Verdict<FloatMask<A>> block(const Floats<A>* a, const Floats<A>* b) {
    const FloatMask<A> hit = (a[0] <= b[2]) & (b[0] <= a[2]) & (a[1] <= b[3]) & (b[1] <= a[3]);
    return {hit, FloatMask<A>(false)};
  }
};

}  // namespace hitgrid::simd::kernels
