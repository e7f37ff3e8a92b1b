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
// checks rejections against the exact orient2d on adversarial boxes, and the SSE2 form
// against the scalar one lane for lane.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#define HITGRID_SIDE_FILTER_X86 1
#endif

namespace hitgrid {

class SegmentSideFilter {
 public:
  /// The segment g = (ax, ay, bx, by).
  explicit SegmentSideFilter(const float* g) : ax_(g[0]), ay_(g[1]), dx_(g[2] - g[0]), dy_(g[3] - g[1]) {}

  /// False when the closed box [x0, x1] x [y0, y1] lies strictly on one side of the
  /// segment's line. (Scalar twin of may_touch8.)
  bool may_touch(float x0, float x1, float y0, float y1) const {
    const float u0 = dx_ * (y0 - ay_), u1 = dx_ * (y1 - ay_);
    const float v0 = dy_ * (x0 - ax_), v1 = dy_ * (x1 - ax_);
    const float least = std::min(u0, u1) - std::max(v0, v1), most = std::max(u0, u1) - std::min(v0, v1);
    const float bound =
        0x1p-20f * (std::max(std::fabs(u0), std::fabs(u1)) + std::max(std::fabs(v0), std::fabs(v1))) + 0x1p-120f;
    return !(least > bound || most < -bound);
  }

  /// Bit i set when box i of the eight at (minx, maxx, miny, maxy) may touch the line.
  std::uint32_t may_touch8(const float* minx, const float* maxx, const float* miny, const float* maxy) const {
#if defined(__SSE2__)
    return four(minx, maxx, miny, maxy) | four(minx + 4, maxx + 4, miny + 4, maxy + 4) << 4;
#else
    std::uint32_t mask = 0;
    for (std::uint32_t i = 0; i < 8; ++i)
      mask |= static_cast<std::uint32_t>(may_touch(minx[i], maxx[i], miny[i], maxy[i])) << i;
    return mask;
#endif
  }

#if defined(HITGRID_SIDE_FILTER_X86)
  /// may_touch8 in one 8-lane step (AVX2; the home grid's AVX-512 search uses it too).
  [[gnu::target("avx2")]] std::uint32_t may_touch8_avx2(const float* minx, const float* maxx, const float* miny,
                                                        const float* maxy) const {
    const __m256 dx = _mm256_set1_ps(dx_), dy = _mm256_set1_ps(dy_), ax = _mm256_set1_ps(ax_), ay = _mm256_set1_ps(ay_);
    const __m256 u0 = _mm256_mul_ps(dx, _mm256_sub_ps(_mm256_loadu_ps(miny), ay));
    const __m256 u1 = _mm256_mul_ps(dx, _mm256_sub_ps(_mm256_loadu_ps(maxy), ay));
    const __m256 v0 = _mm256_mul_ps(dy, _mm256_sub_ps(_mm256_loadu_ps(minx), ax));
    const __m256 v1 = _mm256_mul_ps(dy, _mm256_sub_ps(_mm256_loadu_ps(maxx), ax));
    const __m256 least = _mm256_sub_ps(_mm256_min_ps(u1, u0), _mm256_max_ps(v1, v0));
    const __m256 most = _mm256_sub_ps(_mm256_max_ps(u1, u0), _mm256_min_ps(v1, v0));
    const __m256 abs = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
    const __m256 bound =
        _mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(0x1p-20f),
                                    _mm256_add_ps(_mm256_max_ps(_mm256_and_ps(u1, abs), _mm256_and_ps(u0, abs)),
                                                  _mm256_max_ps(_mm256_and_ps(v1, abs), _mm256_and_ps(v0, abs)))),
                      _mm256_set1_ps(0x1p-120f));
    const __m256 rejected = _mm256_or_ps(_mm256_cmp_ps(least, bound, _CMP_GT_OQ),
                                         _mm256_cmp_ps(most, _mm256_xor_ps(bound, _mm256_set1_ps(-0.0f)), _CMP_LT_OQ));
    return static_cast<std::uint32_t>(_mm256_movemask_ps(rejected)) ^ 255u;
  }
#endif

 private:
#if defined(__SSE2__)
  std::uint32_t four(const float* minx, const float* maxx, const float* miny, const float* maxy) const {
    const __m128 dx = _mm_set1_ps(dx_), dy = _mm_set1_ps(dy_), ax = _mm_set1_ps(ax_), ay = _mm_set1_ps(ay_);
    const __m128 u0 = _mm_mul_ps(dx, _mm_sub_ps(_mm_loadu_ps(miny), ay));
    const __m128 u1 = _mm_mul_ps(dx, _mm_sub_ps(_mm_loadu_ps(maxy), ay));
    const __m128 v0 = _mm_mul_ps(dy, _mm_sub_ps(_mm_loadu_ps(minx), ax));
    const __m128 v1 = _mm_mul_ps(dy, _mm_sub_ps(_mm_loadu_ps(maxx), ax));
    // The same operand order as std::min / std::max in may_touch (min(a, b) is
    // _mm_min_ps(b, a)), so that the two agree even on signed zeros and NaNs.
    const __m128 least = _mm_sub_ps(_mm_min_ps(u1, u0), _mm_max_ps(v1, v0));
    const __m128 most = _mm_sub_ps(_mm_max_ps(u1, u0), _mm_min_ps(v1, v0));
    const __m128 abs = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff));
    const __m128 bound =
        _mm_add_ps(_mm_mul_ps(_mm_set1_ps(0x1p-20f), _mm_add_ps(_mm_max_ps(_mm_and_ps(u1, abs), _mm_and_ps(u0, abs)),
                                                                _mm_max_ps(_mm_and_ps(v1, abs), _mm_and_ps(v0, abs)))),
                   _mm_set1_ps(0x1p-120f));
    const __m128 rejected =
        _mm_or_ps(_mm_cmpgt_ps(least, bound), _mm_cmplt_ps(most, _mm_xor_ps(bound, _mm_set1_ps(-0.0f))));
    return static_cast<std::uint32_t>(_mm_movemask_ps(rejected)) ^ 15u;
  }
#endif

  float ax_, ay_, dx_, dy_;
};

}  // namespace hitgrid
