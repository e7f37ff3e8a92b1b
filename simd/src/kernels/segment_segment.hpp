// Segment-segment in float32 lanes. Scalar twin: intersects(const Segment&, const Segment&)
// in core/src/intersects.cpp, whose decision this reproduces lane by lane
// (segment_segment_decision.hpp lists it):
//
//   bounding intervals disjoint on x or y  -> false   (exact float comparisons)
//   all four orientations nonzero          -> true iff o1, o2 and o3, o4 have opposite signs
//   otherwise                              -> the collinear / touching cases
//
// Float lanes are twice as many per instruction as double lanes. Stage 1 (the static
// filter) is valid in float for every finite input (float_lane_numbers.hpp); batches with
// an overlapping lane it cannot decide go to exactly(): lanes of small integers are
// decided from stage 1's values as they are, others by stage 2 in float lanes where the
// coordinates allow it, and a batch with a lane still undecided runs again in double
// lanes (SegmentSegmentDoubleKernel), which decides every lane it can and leaves the rest
// to the scalar test. Each path is exact where it answers, so the results equal the
// scalar test whichever path a lane takes.
#pragma once

#include "float_lane_numbers.hpp"
#include "hitgrid/core/detail/predicate_polynomials.hpp"
#include "segment_segment_decision.hpp"
#include "segment_segment_double.hpp"
#include "verdict.hpp"

namespace hitgrid::simd::kernels {

struct SegmentSegmentKernel {
  static constexpr int columns_a = 4, columns_b = 4;
  static constexpr bool float_lanes = true;

  template <class A>
  [[gnu::always_inline]] static Verdict<LaneBits> block(const Floats<A>* s, const Floats<A>* t) {
    using F = Floats<A>;
    using M = FloatMask<A>;
    const F &sax = s[0], &say = s[1], &sbx = s[2], &sby = s[3];
    const F &tax = t[0], &tay = t[1], &tbx = t[2], &tby = t[3];
    const M boxes = segment_boxes_overlap(s, t);
    if (!xsimd::any(boxes)) return {{0}, {0}};
    const FloatSign<A> o1 = static_orient_f<A>(sax, say, sbx, sby, tax, tay);
    const FloatSign<A> o2 = static_orient_f<A>(sax, say, sbx, sby, tbx, tby);
    const FloatSign<A> o3 = static_orient_f<A>(tax, tay, tbx, tby, sax, say);
    const FloatSign<A> o4 = static_orient_f<A>(tax, tay, tbx, tby, sbx, sby);
    const M known = o1.known & o2.known & o3.known & o4.known;
    if (xsimd::any(boxes & ~known)) [[unlikely]]
      return exactly<A>(s, t, boxes, o1, o2, o3, o4);
    // Certified signs are nonzero: the segments cross iff each one's endpoints lie on
    // opposite sides of the other's line, i.e. the sign bits of o1 and o2 differ, and
    // those of o3 and o4. (Not o1 o2 < 0: the product may underflow in float.)
    return {{mask_bits<A>(boxes) & sign_bits<A>(xsimd::bitwise_xor(o1.v, o2.v)) &
             sign_bits<A>(xsimd::bitwise_xor(o3.v, o4.v))},
            {0}};
  }

  /// Batches with an overlapping lane stage 1 cannot decide (degenerate-looking input):
  /// lanes of small integers need nothing more (small_integer_lanes), others stage 2 in
  /// float lanes; if some lane is still undecided, the batch again in double lanes.
  template <class A>
  [[gnu::noinline, gnu::flatten]] static Verdict<LaneBits> exactly(const Floats<A>* s, const Floats<A>* t,
                                                                   FloatMask<A> boxes, FloatSign<A> o1, FloatSign<A> o2,
                                                                   FloatSign<A> o3, FloatSign<A> o4) {
    using F = Floats<A>;
    using M = FloatMask<A>;
    using C = CheckedLanes<A, float>;
    const std::uint32_t overlapping = mask_bits<A>(boxes);
    const std::uint32_t first_stage = mask_bits<A>(o1.known & o2.known & o3.known & o4.known);
    if ((overlapping & ~(first_stage | small_integer_lanes<A>(s, t))) == 0) {
      const F o[4] = {o1.v, o2.v, o3.v, o4.v};
      return {{overlapping & segment_decision<A>(s, t, o)}, {0}};
    }
    const F &sax = s[0], &say = s[1], &sbx = s[2], &sby = s[3];
    const F &tax = t[0], &tay = t[1], &tbx = t[2], &tby = t[3];
    const M range = in_float_range<A>(sax) & in_float_range<A>(say) & in_float_range<A>(sbx) & in_float_range<A>(sby) &
                    in_float_range<A>(tax) & in_float_range<A>(tay) & in_float_range<A>(tbx) & in_float_range<A>(tby);
    o1 = refine(o1, poly::orient(C(sax), C(say), C(sbx), C(sby), C(tax), C(tay)), range);
    o2 = refine(o2, poly::orient(C(sax), C(say), C(sbx), C(sby), C(tbx), C(tby)), range);
    o3 = refine(o3, poly::orient(C(tax), C(tay), C(tbx), C(tby), C(sax), C(say)), range);
    o4 = refine(o4, poly::orient(C(tax), C(tay), C(tbx), C(tby), C(sbx), C(sby)), range);
    if (xsimd::any(boxes & ~(o1.known & o2.known & o3.known & o4.known))) return in_double_lanes<A>(s, t);
    const F o[4] = {o1.v, o2.v, o3.v, o4.v};
    return {{overlapping & segment_decision<A>(s, t, o)}, {0}};
  }

  /// Lanes whose eight coordinates are integers in [-2048, 2048]. There the differences are
  /// exact (integers up to 2^12), so are their products (up to 2^24), and the rounded
  /// difference of two products has the sign of the exact one and is zero only when it
  /// is: stage 1's values have the exact signs. (Lattice input: tile maps, pixel art.)
  template <class A>
  [[gnu::always_inline]] static std::uint32_t small_integer_lanes(const Floats<A>* s, const Floats<A>* t) {
    using F = Floats<A>;
    // (x + 1.5 2^23) - 1.5 2^23 is x rounded to an integer while |x| <= 2^22: the sum
    // lies in [2^23, 2^24), where floats are the integers.
    const F shift(12582912.0f);
    F largest(0.0f), fraction(0.0f);
    for (const F* side : {s, t})
      for (int k = 0; k < 4; ++k) {
        const F x = side[k];
        largest = xsimd::max(largest, xsimd::abs(x));
        fraction = xsimd::max(fraction, xsimd::abs(x - ((x + shift) - shift)));
      }
    return mask_bits<A>((largest <= F(2048.0f)) & (fraction == F(0.0f)));
  }

  /// The batch in double lanes, half a float batch at a time (widening is exact).
  template <class A>
  [[gnu::noinline]] static Verdict<LaneBits> in_double_lanes(const Floats<A>* s, const Floats<A>* t) {
    constexpr std::size_t width = Floats<A>::size, half = Doubles<A>::size;
    static_assert(width == 2 * half);
    alignas(64) float sf[4][width], tf[4][width];
    for (int k = 0; k < 4; ++k) {
      s[k].store_aligned(sf[k]);
      t[k].store_aligned(tf[k]);
    }
    std::uint32_t hit = 0, unsure = 0;
    for (std::size_t h = 0; h < width; h += half) {
      Doubles<A> ds[4], dt[4];
      for (int k = 0; k < 4; ++k) {
        ds[k] = load_widened<A>(sf[k] + h);
        dt[k] = load_widened<A>(tf[k] + h);
      }
      const Verdict<LaneBits> v = SegmentSegmentDoubleKernel::block<A>(ds, dt);
      hit |= mask_bits<A>(v.hit) << h;
      unsure |= mask_bits<A>(v.unsure) << h;
    }
    return {{hit}, {unsure}};
  }
};

}  // namespace hitgrid::simd::kernels
