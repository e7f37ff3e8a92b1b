// Segment-box in lanes. Scalar twin: intersects(const Segment&, const Box&) in
// core/src/intersects.cpp. Separating axes x, y (exact comparisons) and the segment's
// normal n = (ay - by, bx - ax): the box corners extreme along +n and -n are picked by the
// signs of n's components (comparisons, exact), and the box is separated iff the "high"
// corner is strictly right of a -> b or the "low" corner strictly left of it.
#pragma once

#include "lane_numbers.hpp"
#include "hitgrid/core/detail/predicate_polynomials.hpp"
#include "verdict.hpp"

namespace hitgrid::simd::kernels {

struct SegmentBoxKernel {
  static constexpr int columns_a = 4, columns_b = 4;
  static constexpr bool float_lanes = false;

  template <class A>
  [[gnu::always_inline]] static Verdict<DoubleMask<A>> block(const Doubles<A>* s, const Doubles<A>* b) {
    using D = Doubles<A>;
    using M = DoubleMask<A>;
    const D &ax = s[0], &ay = s[1], &bx = s[2], &by = s[3];
    const D &minx = b[0], &miny = b[1], &maxx = b[2], &maxy = b[3];
    const M overlap = (xsimd::max(ax, bx) >= minx) & (xsimd::min(ax, bx) <= maxx) & (xsimd::max(ay, by) >= miny) &
                      (xsimd::min(ay, by) <= maxy);
    if (!xsimd::any(overlap)) return {M(false), M(false)};
    const M nx_pos = by <= ay;  // n.x >= 0
    const M ny_pos = bx >= ax;  // n.y >= 0
    const D hix = xsimd::select(nx_pos, maxx, minx), hiy = xsimd::select(ny_pos, maxy, miny);
    const D lox = xsimd::select(nx_pos, minx, maxx), loy = xsimd::select(ny_pos, miny, maxy);
    const LaneSign<A> hi = static_orient<A>(ax, ay, bx, by, hix, hiy);
    const LaneSign<A> lo = static_orient<A>(ax, ay, bx, by, lox, loy);
    if (xsimd::any(overlap & ~(hi.known & lo.known))) [[unlikely]]
      return exactly<A>(s, overlap, hix, hiy, lox, loy, hi, lo);
    // Signs the static filter certifies are nonzero: inside the normal's slab iff the high
    // corner is strictly left and the low corner strictly right.
    const D zero(0.0);
    return {overlap & (hi.v > zero) & (lo.v < zero), M(false)};
  }

  template <class A>
  [[gnu::noinline, gnu::flatten]] static Verdict<DoubleMask<A>> exactly(const Doubles<A>* s, DoubleMask<A> overlap,
                                                                        Doubles<A> hix, Doubles<A> hiy, Doubles<A> lox,
                                                                        Doubles<A> loy, LaneSign<A> hi,
                                                                        LaneSign<A> lo) {
    using C = CheckedLanes<A>;
    using M = DoubleMask<A>;
    const Doubles<A>&ax = s[0], &ay = s[1], &bx = s[2], &by = s[3];
    hi = refine(hi, poly::orient(C(ax), C(ay), C(bx), C(by), C(hix), C(hiy)));
    lo = refine(lo, poly::orient(C(ax), C(ay), C(bx), C(by), C(lox), C(loy)));
    // Decided as soon as one known sign separates; otherwise both must be known.
    const Doubles<A> zero(0.0);
    const M hi_sep = hi.known & (hi.v < zero), lo_sep = lo.known & (lo.v > zero);
    const M known = hi_sep | lo_sep | (hi.known & lo.known);
    return {overlap & known & ~hi_sep & ~lo_sep, overlap & ~known};
  }
};

}  // namespace hitgrid::simd::kernels
