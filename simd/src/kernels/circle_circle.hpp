// Circle-circle in lanes. Scalar twin: intersects(const Circle&, const Circle&) in
// core/src/intersects.cpp: a conservative rejection on each axis (|dx| > (r1 + r2)(1 +
// 2^-50) in double: r1 + r2 rounds at most by u relative, so a rejected pair is apart),
// then the sign of |p - q|^2 - (r1 + r2)^2 (compare_center_distance) <= 0.
#pragma once

#include "lane_numbers.hpp"
#include "hitgrid/core/detail/predicate_polynomials.hpp"
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
    const LaneSign<A> gap = sign_of(poly::center_distance(F(px), F(py), F(qx), F(qy), F(r1), F(r2)));
    if (xsimd::any(live & ~gap.known)) [[unlikely]]
      return exactly<A>(c, d, live, gap);
    return {live & (gap.v <= D(0.0)), M(false)};
  }

  template <class A>
  [[gnu::noinline, gnu::flatten]] static Verdict<DoubleMask<A>> exactly(const Doubles<A>* c, const Doubles<A>* d,
                                                                        DoubleMask<A> live, LaneSign<A> gap) {
    using C = CheckedLanes<A>;
    gap = refine(gap, poly::center_distance(C(c[0]), C(c[1]), C(d[0]), C(d[1]), C(c[2]), C(d[2])));
    return {live & gap.known & (gap.v <= Doubles<A>(0.0)), live & ~gap.known};
  }
};

}  // namespace hitgrid::simd::kernels
