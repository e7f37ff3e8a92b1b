// The home rows of segments, four at a time (eight with AVX2, sixteen with AVX-512, the
// ISA chosen with the narrow phase's): the count pass of the home grid's build reads every
// shape once for its row, and on the scalar path that is four floor() conversions per
// shape. (The row sort's home columns, four at a time, use the same exact conversion.)
// Scalar twin: segment_home_row below (the grid's row_of for a segment);
// tests/broadphase/test_segment_home_rows.cpp checks them all agree lane for lane. The
// wider ones carry GCC target attributes, as the box filters do (box_filter.hpp).
#pragma once

#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#define HITGRID_SEGMENT_ROWS_X86 1
#endif

#include "grid_cells.hpp"

namespace hitgrid {

/// The row (relative to row0) of the home cell of segment (ax, ay, bx, by), or `large`
/// when it is not small (its box spans more than two columns or rows).
inline std::uint32_t segment_home_row(const GridCells& cells, std::int64_t row0, std::uint32_t large, float ax,
                                      float ay, float bx, float by) {
  const float minx = std::min(ax, bx), maxx = std::max(ax, bx), miny = std::min(ay, by), maxy = std::max(ay, by);
  const bool small = cells.index(maxx) - cells.index(minx) <= 1 && cells.index(maxy) - cells.index(miny) <= 1;
  return small ? static_cast<std::uint32_t>(cells.index(miny) - row0) : large;
}

/// Four segments at once: writes out[0..3] as segment_home_row would and returns true, or
/// returns false (out unspecified) when a lane needs the scalar path: a large segment, a
/// cell index outside 32 bits, or cells whose scale is not a float. Rows must fit 31 bits.
class SegmentHomeRows {
 public:
  SegmentHomeRows(const GridCells& cells, std::int64_t row0)
      : usable_(cells.log2_cell() >= -126 && cells.log2_cell() <= 126),
        inv_h_(usable_ ? static_cast<float>(std::ldexp(1.0, -cells.log2_cell())) : 0.0f),
        // Rows are differences of 32-bit indices: modulo 2^32 they are exact whenever the
        // true row fits 31 bits, so row0's low 32 bits are all that is needed.
        row0_(static_cast<std::int32_t>(static_cast<std::uint32_t>(row0))) {}

  bool usable() const { return usable_; }

#if defined(__SSE2__)
  bool rows4(const float* ax, const float* ay, const float* bx, const float* by, std::uint32_t* out) const {
    const __m128 x0 = _mm_loadu_ps(ax), y0 = _mm_loadu_ps(ay), x1 = _mm_loadu_ps(bx), y1 = _mm_loadu_ps(by);
    __m128i ok = _mm_set1_epi32(-1);
    const __m128i ix0 = floor4(_mm_min_ps(x0, x1), ok), ix1 = floor4(_mm_max_ps(x0, x1), ok);
    const __m128i iy0 = floor4(_mm_min_ps(y0, y1), ok), iy1 = floor4(_mm_max_ps(y0, y1), ok);
    // Small: the index differences are 0 or 1 (compared for equality, since a wrapped
    // 32-bit difference is never 0 or 1 unless the true one is).
    const __m128i zero = _mm_setzero_si128(), one = _mm_set1_epi32(1);
    const __m128i dx = _mm_sub_epi32(ix1, ix0), dy = _mm_sub_epi32(iy1, iy0);
    const __m128i small = _mm_and_si128(_mm_or_si128(_mm_cmpeq_epi32(dx, zero), _mm_cmpeq_epi32(dx, one)),
                                        _mm_or_si128(_mm_cmpeq_epi32(dy, zero), _mm_cmpeq_epi32(dy, one)));
    if (_mm_movemask_ps(_mm_castsi128_ps(_mm_and_si128(ok, small))) != 15) return false;
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm_sub_epi32(iy0, _mm_set1_epi32(row0_)));
    return true;
  }

  /// The home columns of four small shapes whose boxes start at `minx`, relative to col0:
  /// out[i] = uint32(cells.index(minx[i]) - col0) (the row sort's columns), or false (out
  /// unspecified) when a lane needs the scalar path, as in rows4.
  bool columns4(__m128 minx, std::int64_t col0, std::uint32_t* out) const {
    __m128i ok = _mm_set1_epi32(-1);
    const __m128i ix = floor4(minx, ok);
    if (_mm_movemask_ps(_mm_castsi128_ps(ok)) != 15) return false;
    // Modulo 2^32, as the scalar uint32 conversion of the 64-bit difference.
    const auto low = static_cast<std::int32_t>(static_cast<std::uint32_t>(col0));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm_sub_epi32(ix, _mm_set1_epi32(low)));
    return true;
  }

 private:
  /// floor(v / h) as 32-bit integers; clears `ok` in lanes where that is not exact. The
  /// product by the power of two 1 / h is exact in float unless it overflows (then it fails
  /// the range check) or underflows; underflow only matters when a negative value rounds
  /// to -0 (floor -1 would become 0): such lanes are flagged.
  __m128i floor4(__m128 v, __m128i& ok) const {
    const __m128 p = _mm_mul_ps(v, _mm_set1_ps(inv_h_));
    const __m128 magnitude = _mm_andnot_ps(_mm_set1_ps(-0.0f), p);
    const __m128 in_range = _mm_cmplt_ps(magnitude, _mm_set1_ps(2147483648.0f));
    const __m128 lost_sign = _mm_and_ps(_mm_cmplt_ps(v, _mm_setzero_ps()), _mm_cmpeq_ps(p, _mm_setzero_ps()));
    ok = _mm_and_si128(ok, _mm_castps_si128(_mm_andnot_ps(lost_sign, in_range)));
    const __m128i t = _mm_cvttps_epi32(p);  // toward zero
    // One less where truncation went up (negative non-integers): the compare mask is -1.
    return _mm_add_epi32(t, _mm_castps_si128(_mm_cmpgt_ps(_mm_cvtepi32_ps(t), p)));
  }
#else
  bool rows4(const float*, const float*, const float*, const float*, std::uint32_t*) const { return false; }
#endif

#if defined(HITGRID_SEGMENT_ROWS_X86)
 public:
  /// rows4 for eight segments (AVX2).
  [[gnu::target("avx2")]] bool rows8(const float* ax, const float* ay, const float* bx, const float* by,
                                     std::uint32_t* out) const {
    const __m256 x0 = _mm256_loadu_ps(ax), y0 = _mm256_loadu_ps(ay), x1 = _mm256_loadu_ps(bx), y1 = _mm256_loadu_ps(by);
    __m256i ok = _mm256_set1_epi32(-1);
    const __m256i ix0 = floor8(_mm256_min_ps(x0, x1), ok), ix1 = floor8(_mm256_max_ps(x0, x1), ok);
    const __m256i iy0 = floor8(_mm256_min_ps(y0, y1), ok), iy1 = floor8(_mm256_max_ps(y0, y1), ok);
    const __m256i zero = _mm256_setzero_si256(), one = _mm256_set1_epi32(1);
    const __m256i dx = _mm256_sub_epi32(ix1, ix0), dy = _mm256_sub_epi32(iy1, iy0);
    const __m256i small = _mm256_and_si256(_mm256_or_si256(_mm256_cmpeq_epi32(dx, zero), _mm256_cmpeq_epi32(dx, one)),
                                           _mm256_or_si256(_mm256_cmpeq_epi32(dy, zero), _mm256_cmpeq_epi32(dy, one)));
    if (_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_and_si256(ok, small))) != 255) return false;
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm256_sub_epi32(iy0, _mm256_set1_epi32(row0_)));
    return true;
  }

  /// rows4 for sixteen segments (AVX-512).
  [[gnu::target("avx512f")]] bool rows16(const float* ax, const float* ay, const float* bx, const float* by,
                                         std::uint32_t* out) const {
    const __m512 x0 = _mm512_loadu_ps(ax), y0 = _mm512_loadu_ps(ay), x1 = _mm512_loadu_ps(bx), y1 = _mm512_loadu_ps(by);
    // (Zero-masked forms: g++ 12's unmasked min, max and rounding conversion read an
    // undefined vector, which -Werror=maybe-uninitialized rejects.)
    __mmask16 ok = 0xffff;
    const __m512i ix0 = floor16(_mm512_maskz_min_ps(0xffff, x0, x1), ok),
                  ix1 = floor16(_mm512_maskz_max_ps(0xffff, x0, x1), ok);
    const __m512i iy0 = floor16(_mm512_maskz_min_ps(0xffff, y0, y1), ok),
                  iy1 = floor16(_mm512_maskz_max_ps(0xffff, y0, y1), ok);
    // Small: the index differences, unsigned, are at most 1 (see rows4).
    const __m512i one = _mm512_set1_epi32(1);
    ok = _mm512_mask_cmple_epu32_mask(ok, _mm512_sub_epi32(ix1, ix0), one);
    ok = _mm512_mask_cmple_epu32_mask(ok, _mm512_sub_epi32(iy1, iy0), one);
    if (ok != 0xffff) return false;
    _mm512_storeu_si512(out, _mm512_sub_epi32(iy0, _mm512_set1_epi32(row0_)));
    return true;
  }

 private:
  /// floor4 in eight lanes: floor(v / h), with `ok` cleared where not exact (see floor4).
  [[gnu::target("avx2")]] __m256i floor8(__m256 v, __m256i& ok) const {
    const __m256 p = _mm256_mul_ps(v, _mm256_set1_ps(inv_h_));
    const __m256 magnitude = _mm256_andnot_ps(_mm256_set1_ps(-0.0f), p);
    const __m256 in_range = _mm256_cmp_ps(magnitude, _mm256_set1_ps(2147483648.0f), _CMP_LT_OQ);
    const __m256 lost_sign = _mm256_and_ps(_mm256_cmp_ps(v, _mm256_setzero_ps(), _CMP_LT_OQ),
                                           _mm256_cmp_ps(p, _mm256_setzero_ps(), _CMP_EQ_OQ));
    ok = _mm256_and_si256(ok, _mm256_castps_si256(_mm256_andnot_ps(lost_sign, in_range)));
    return _mm256_cvttps_epi32(_mm256_floor_ps(p));  // exact: floor is an integer in range
  }
  /// The same in sixteen lanes, with a floor conversion.
  [[gnu::target("avx512f")]] __m512i floor16(__m512 v, __mmask16& ok) const {
    const __m512 p = _mm512_mul_ps(v, _mm512_set1_ps(inv_h_));
    const __mmask16 in_range = _mm512_cmp_ps_mask(_mm512_abs_ps(p), _mm512_set1_ps(2147483648.0f), _CMP_LT_OQ);
    const __mmask16 lost_sign = _mm512_mask_cmp_ps_mask(_mm512_cmp_ps_mask(v, _mm512_setzero_ps(), _CMP_LT_OQ), p,
                                                        _mm512_setzero_ps(), _CMP_EQ_OQ);
    ok = static_cast<__mmask16>(ok & in_range & ~lost_sign);
    return _mm512_maskz_cvt_roundps_epi32(0xffff, p, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
  }
#endif

 private:
  bool usable_;
  float inv_h_;
  std::int32_t row0_;
};

}  // namespace hitgrid
