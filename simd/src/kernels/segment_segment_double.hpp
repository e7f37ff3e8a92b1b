// Segment-segment in double lanes: what the float lanes of segment_segment.hpp hand over
// when a batch holds coordinates outside their range or signs their two stages cannot
// decide. Scalar twin: intersects(const Segment&, const Segment&) in
// core/src/intersects.cpp, whose decision this reproduces lane by lane:
//
//   bounding intervals disjoint on x or y           -> false   (exact float comparisons)
//   o1 o2 > 0 or o3 o4 > 0 (one segment strictly on one side of the other's line) -> false
//   some o != 0: o1 o2 < 0 and o3 o4 < 0 (proper crossing)                        -> true
//                or an endpoint with o == 0 lies on the other segment's box        -> true
//                otherwise                                                         -> false
//   all four o == 0 (collinear; boxes overlap)                                     -> true
//
// with o1 = orient(s.a, s.b, t.a), o2 = orient(s.a, s.b, t.b), o3 = orient(t.a, t.b, s.a),
// o4 = orient(t.a, t.b, s.b). The signs come from the static filter (stage 1) or, in
// batches where some overlapping lane is undecided, from the exactness check (stage 2).
#pragma once

#include "lane_numbers.hpp"
#include "predicate_polynomials.hpp"  // core/src
#include "verdict.hpp"

namespace hitgrid::simd::kernels {

struct SegmentSegmentDoubleKernel {
  static constexpr int columns_a = 4, columns_b = 4;
  static constexpr bool float_lanes = false;

  template <class A>
  [[gnu::always_inline]] static Verdict<DoubleMask<A>> block(const Doubles<A>* s, const Doubles<A>* t) {
    using D = Doubles<A>;
    using M = DoubleMask<A>;
    const D &sax = s[0], &say = s[1], &sbx = s[2], &sby = s[3];
    const D &tax = t[0], &tay = t[1], &tbx = t[2], &tby = t[3];
    // intervals_overlap on x and y
    const M boxes = (xsimd::max(sax, sbx) >= xsimd::min(tax, tbx)) & (xsimd::max(tax, tbx) >= xsimd::min(sax, sbx)) &
                    (xsimd::max(say, sby) >= xsimd::min(tay, tby)) & (xsimd::max(tay, tby) >= xsimd::min(say, sby));
    if (!xsimd::any(boxes)) return {M(false), M(false)};
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
    return {boxes & (o1.v * o2.v < zero) & (o3.v * o4.v < zero), M(false)};
  }

  /// Batches with an overlapping lane the filter cannot decide (degenerate-looking
  /// input): stage 2 for the undecided signs, then the scalar test's general logic.
  template <class A>
  [[gnu::noinline, gnu::flatten]] static Verdict<DoubleMask<A>> exactly(const Doubles<A>* s, const Doubles<A>* t,
                                                                        DoubleMask<A> boxes, LaneSign<A> o1,
                                                                        LaneSign<A> o2, LaneSign<A> o3,
                                                                        LaneSign<A> o4) {
    using D = Doubles<A>;
    using M = DoubleMask<A>;
    using C = CheckedLanes<A>;
    const D &sax = s[0], &say = s[1], &sbx = s[2], &sby = s[3];
    const D &tax = t[0], &tay = t[1], &tbx = t[2], &tby = t[3];
    o1 = refine(o1, poly::orient(C(sax), C(say), C(sbx), C(sby), C(tax), C(tay)));
    o2 = refine(o2, poly::orient(C(sax), C(say), C(sbx), C(sby), C(tbx), C(tby)));
    o3 = refine(o3, poly::orient(C(tax), C(tay), C(tbx), C(tby), C(sax), C(say)));
    o4 = refine(o4, poly::orient(C(tax), C(tay), C(tbx), C(tby), C(sbx), C(sby)));
    const M known = o1.known & o2.known & o3.known & o4.known;

    const D zero(0.0);
    const M p1 = o1.v > zero, n1 = o1.v < zero, z1 = o1.v == zero;
    const M p2 = o2.v > zero, n2 = o2.v < zero, z2 = o2.v == zero;
    const M p3 = o3.v > zero, n3 = o3.v < zero, z3 = o3.v == zero;
    const M p4 = o4.v > zero, n4 = o4.v < zero, z4 = o4.v == zero;
    const M one_side = (p1 & p2) | (n1 & n2) | (p3 & p4) | (n3 & n4);
    const M crossing = ((p1 & n2) | (n1 & p2)) & ((p3 & n4) | (n3 & p4));
    const M collinear = z1 & z2 & z3 & z4;
    // collinear_point_on_segment: an endpoint on the other's line, within its box.
    const D s_minx = xsimd::min(sax, sbx), s_maxx = xsimd::max(sax, sbx);
    const D s_miny = xsimd::min(say, sby), s_maxy = xsimd::max(say, sby);
    const D t_minx = xsimd::min(tax, tbx), t_maxx = xsimd::max(tax, tbx);
    const D t_miny = xsimd::min(tay, tby), t_maxy = xsimd::max(tay, tby);
    const M ta_on_s = z1 & (s_minx <= tax) & (tax <= s_maxx) & (s_miny <= tay) & (tay <= s_maxy);
    const M tb_on_s = z2 & (s_minx <= tbx) & (tbx <= s_maxx) & (s_miny <= tby) & (tby <= s_maxy);
    const M sa_on_t = z3 & (t_minx <= sax) & (sax <= t_maxx) & (t_miny <= say) & (say <= t_maxy);
    const M sb_on_t = z4 & (t_minx <= sbx) & (sbx <= t_maxx) & (t_miny <= sby) & (sby <= t_maxy);
    const M touching = ta_on_s | tb_on_s | sa_on_t | sb_on_t;
    const M hit = boxes & known & ~one_side & (crossing | touching | collinear);
    return {hit, boxes & ~known};
  }
};

}  // namespace hitgrid::simd::kernels
