// Boxes that lie strictly on one side of a segment's line, and so cannot touch the
// segment: the home grid's filter between a long segment and the small shapes in the
// cells along its path. The bounding-box test lets nearly all of them through (a long
// diagonal segment's box covers them all); this one keeps those whose box straddles or
// touches the line, under half.
//
// Exact in the sense that matters: a box is rejected only when every corner is strictly
// on one side by exact arithmetic. The corners' orientations, dx (py - ay) - dy (px - ax)
// with dx = bx - ax and dy = by - ay, are evaluated in float: the two differences in each
// product and the product round once each (relative error at most 3u, u = 2^-24), the
// extreme over the corners is taken exactly, and the final subtraction rounds once, so
// the computed extreme is within 4.01u (|U| + |V|) of the exact one (U, V: the products
// of largest magnitude among the corners), plus a few units of 2^-149 where a difference
// or product is subnormal. A box is rejected only when the computed extreme clears
// 2^-20 (|U| + |V|) + 2^-120, four times that. Where a product overflows, the bound is
// infinite or NaN and nothing is rejected. tests/broadphase/test_segment_side_filter.cpp
// checks rejections against the exact orient2d on adversarial boxes, and every ISA's
// lanes (may_touch_lanes, through the grid's lane probes) against the scalar twin, lane
// for lane.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "hitgrid/simd/detail/lane_masks.hpp"

namespace hitgrid {

class SegmentSideFilter {
 public:
  /// The segment g = (ax, ay, bx, by).
  explicit SegmentSideFilter(const float* g) : ax_(g[0]), ay_(g[1]), dx_(g[2] - g[0]), dy_(g[3] - g[1]) {}

  /// False when the closed box [x0, x1] x [y0, y1] lies strictly on one side of the
  /// segment's line. (Scalar twin of may_touch_lanes.)
  bool may_touch(float x0, float x1, float y0, float y1) const {
    const float u0 = dx_ * (y0 - ay_), u1 = dx_ * (y1 - ay_);
    const float v0 = dy_ * (x0 - ax_), v1 = dy_ * (x1 - ax_);
    const float least = std::min(u0, u1) - std::max(v0, v1), most = std::max(u0, u1) - std::min(v0, v1);
    const float bound =
        0x1p-20f * (std::max(std::fabs(u0), std::fabs(u1)) + std::max(std::fabs(v0), std::fabs(v1))) + 0x1p-120f;
    return !(least > bound || most < -bound);
  }

#if XSIMD_WITH_SSE2
  /// Bit i set when box i of the batch at (minx, maxx, miny, maxy) may touch the line: as
  /// many boxes as A has float lanes, each the same operations as may_touch in the same
  /// order, so that every lane equals it, bit for bit.
  template <class A>
  std::uint32_t may_touch_lanes(const float* minx, const float* maxx, const float* miny, const float* maxy) const {
    using F = xsimd::batch<float, A>;
    const F dx(dx_), dy(dy_), ax(ax_), ay(ay_);
    const F u0 = dx * (F::load_unaligned(miny) - ay), u1 = dx * (F::load_unaligned(maxy) - ay);
    const F v0 = dy * (F::load_unaligned(minx) - ax), v1 = dy * (F::load_unaligned(maxx) - ax);
    // std::min(a, b) is xsimd::min(b, a) (and likewise max): the operand order that makes
    // the two agree even on signed zeros and NaNs.
    const F least = xsimd::min(u1, u0) - xsimd::max(v1, v0), most = xsimd::max(u1, u0) - xsimd::min(v1, v0);
    const F bound =
        F(0x1p-20f) * (xsimd::max(xsimd::abs(u1), xsimd::abs(u0)) + xsimd::max(xsimd::abs(v1), xsimd::abs(v0))) +
        F(0x1p-120f);
    constexpr std::uint32_t all = (1u << F::size) - 1;
    return mask_bits<A>((least > bound) | (most < -bound)) ^ all;
  }
#endif

 private:
  float ax_, ay_, dx_, dy_;
};

}  // namespace hitgrid
