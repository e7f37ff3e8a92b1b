// Segment-segment in double lanes: what the float lanes of segment_segment.hpp hand over
// when a batch holds signs their stages cannot decide. Scalar twin: intersects(const
// Segment&, const Segment&) in core/src/intersects.cpp; the decision is
// segment_segment_decision.hpp's. The signs come from the static filter (stage 1) or, in
// batches where some overlapping lane is undecided, from the exactness check (stage 2);
// lanes neither decides go to the scalar test.
#pragma once

#include "lane_numbers.hpp"
#include "hitgrid/core/detail/predicate_polynomials.hpp"
#include "segment_segment_decision.hpp"
#include "verdict.hpp"

namespace hitgrid::simd::kernels {

struct SegmentSegmentDoubleKernel {
  static constexpr int columns_a = 4, columns_b = 4;
  static constexpr bool float_lanes = false;

  template <class A>
  [[gnu::always_inline]] static Verdict<LaneBits> block(const Doubles<A>* s, const Doubles<A>* t) {
    using D = Doubles<A>;
    using M = DoubleMask<A>;
    const D &sax = s[0], &say = s[1], &sbx = s[2], &sby = s[3];
    const D &tax = t[0], &tay = t[1], &tbx = t[2], &tby = t[3];
    const M boxes = segment_boxes_overlap(s, t);
    if (!xsimd::any(boxes)) return {{0}, {0}};
    const LaneSign<A> o1 = static_orient<A>(sax, say, sbx, sby, tax, tay);
    const LaneSign<A> o2 = static_orient<A>(sax, say, sbx, sby, tbx, tby);
    const LaneSign<A> o3 = static_orient<A>(tax, tay, tbx, tby, sax, say);
    const LaneSign<A> o4 = static_orient<A>(tax, tay, tbx, tby, sbx, sby);
    const M known = o1.known & o2.known & o3.known & o4.known;
    if (xsimd::any(boxes & ~known)) [[unlikely]]
      return exactly<A>(s, t, boxes, o1, o2, o3, o4);
    // The scalar test's fast path: signs the static filter certifies are nonzero, so the
    // segments cross iff each one's endpoints lie on opposite sides of the other's line,
    // i.e. o1 o2 < 0 and o3 o4 < 0. The products cannot underflow or overflow (each |o| is
    // in [2^-298, 2^258] for float32 inputs), so their signs are exact. Not mask xor:
    // xsimd 8.1's batch_bool ^ on AVX-512 is an OR (bitwise_xor in xsimd_avx512f.hpp).
    const D zero(0.0);
    return {{mask_bits<A>(boxes & (o1.v * o2.v < zero) & (o3.v * o4.v < zero))}, {0}};
  }

  /// Batches with an overlapping lane the filter cannot decide (degenerate-looking
  /// input): stage 2 for the undecided signs, then the scalar test's general logic.
  template <class A>
  [[gnu::noinline, gnu::flatten]] static Verdict<LaneBits> exactly(const Doubles<A>* s, const Doubles<A>* t,
                                                                   DoubleMask<A> boxes, LaneSign<A> o1, LaneSign<A> o2,
                                                                   LaneSign<A> o3, LaneSign<A> o4) {
    using D = Doubles<A>;
    using C = CheckedLanes<A>;
    const D &sax = s[0], &say = s[1], &sbx = s[2], &sby = s[3];
    const D &tax = t[0], &tay = t[1], &tbx = t[2], &tby = t[3];
    o1 = refine(o1, poly::orient(C(sax), C(say), C(sbx), C(sby), C(tax), C(tay)));
    o2 = refine(o2, poly::orient(C(sax), C(say), C(sbx), C(sby), C(tbx), C(tby)));
    o3 = refine(o3, poly::orient(C(tax), C(tay), C(tbx), C(tby), C(sax), C(say)));
    o4 = refine(o4, poly::orient(C(tax), C(tay), C(tbx), C(tby), C(sbx), C(sby)));
    const std::uint32_t overlapping = mask_bits<A>(boxes);
    const std::uint32_t known = mask_bits<A>(o1.known & o2.known & o3.known & o4.known);
    const D o[4] = {o1.v, o2.v, o3.v, o4.v};
    return {{overlapping & known & segment_decision<A>(s, t, o)}, {overlapping & ~known}};
  }
};

}  // namespace hitgrid::simd::kernels
