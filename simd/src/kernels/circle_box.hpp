// Circle-box in lanes. Scalar twin: intersects(const Circle&, const Box&) in
// core/src/intersects.cpp: the box point closest to the centre (clamping: comparisons,
// exact), then the sign of |c - q|^2 - r^2 (compare_distance) <= 0.
#pragma once

#include "lane_numbers.hpp"
#include "hitgrid/core/detail/predicate_polynomials.hpp"
#include "verdict.hpp"

namespace hitgrid::simd::kernels {

struct CircleBoxKernel {
  static constexpr int columns_a = 3, columns_b = 4;
  static constexpr bool float_lanes = false;

  template <class A>
  [[gnu::always_inline]] static Verdict<DoubleMask<A>> block(const Doubles<A>* c, const Doubles<A>* b) {
    using D = Doubles<A>;
    const D &cx = c[0], &cy = c[1], &r = c[2];
    const D &minx = b[0], &miny = b[1], &maxx = b[2], &maxy = b[3];
    // clamp(v, lo, hi) = v < lo ? lo : (v > hi ? hi : v), as the scalar test writes it.
    const D qx = xsimd::select(cx < minx, minx, xsimd::select(cx > maxx, maxx, cx));
    const D qy = xsimd::select(cy < miny, miny, xsimd::select(cy > maxy, maxy, cy));
    using F = FilteredLanes<A>;
    const LaneSign<A> gap = sign_of(poly::distance(F(cx), F(cy), F(qx), F(qy), F(r)));
    if (xsimd::any(~gap.known)) [[unlikely]]
      return exactly<A>(c, qx, qy, gap);
    return {gap.v <= D(0.0), DoubleMask<A>(false)};
  }

  template <class A>
  [[gnu::noinline, gnu::flatten]] static Verdict<DoubleMask<A>> exactly(const Doubles<A>* c, Doubles<A> qx,
                                                                        Doubles<A> qy, LaneSign<A> gap) {
    using C = CheckedLanes<A>;
    gap = refine(gap, poly::distance(C(c[0]), C(c[1]), C(qx), C(qy), C(c[2])));
    return {gap.known & (gap.v <= Doubles<A>(0.0)), ~gap.known};
  }
};

}  // namespace hitgrid::simd::kernels
