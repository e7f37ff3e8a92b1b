// Circle-circle in lanes. Scalar twin: intersects(const Circle&, const Circle&) in
// core/src/intersects.cpp: a conservative rejection on each axis (|dx| > (r1 + r2)(1 +
// 2^-50) in double: r1 + r2 rounds at most by u relative, so a rejected pair is apart),
// then the sign of |p - q|^2 - (r1 + r2)^2 (compare_center_distance) <= 0.
#pragma once

#include "lane_numbers.hpp"
#include "predicate_polynomials.hpp"  // core/src
#include "verdict.hpp"

namespace hitgrid::simd::kernels {

struct CircleCircleKernel {
  static constexpr int columns_a = 3, columns_b = 3;
  static constexpr bool float_lanes = false;

  template <class A>
  [[gnu::always_inline]] static Verdict<DoubleMask<A>> block(const Doubles<A>* c, const Doubles<A>* d) {
    using D = Doubles<A>;
    using M = DoubleMask<A>;
    const D &px = c[0], &py = c[1], &r1 = c[2];
    const D &qx = d[0], &qy = d[1], &r2 = d[2];
    const D reach = (r1 + r2) * D(1.0 + 0x1p-50);
    const M live = (xsimd::abs(px - qx) <= reach) & (xsimd::abs(py - qy) <= reach);
    if (!xsimd::any(live)) return {M(false), M(false)};
    using F = FilteredLanes<A>;
    LaneSign<A> gap = sign_of(poly::center_distance(F(px), F(py), F(qx), F(qy), F(r1), F(r2)));
    if (xsimd::any(live & ~gap.known)) {
      using C = CheckedLanes<A>;
      gap = refine(gap, poly::center_distance(C(px), C(py), C(qx), C(qy), C(r1), C(r2)));
    }
    return {live & gap.known & (gap.v <= D(0.0)), live & ~gap.known};
  }
};

}  // namespace hitgrid::simd::kernels
