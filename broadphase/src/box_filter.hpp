// The innermost steps of the grid's searches (grid_kernels_body.hpp): eight bounding boxes
// tested against one, and the indices of those that overlap appended to the candidate
// lists, without a branch on the answers (they are unpredictable); and the few other lane
// operations the searches are built from. One struct per instruction set, the search's
// template argument in that ISA's translation unit (grid_kernels_{sse2,avx2,avx512}.cpp):
//
//   BoxFilterSse2    the x86-64 baseline (its own scalar twin elsewhere): two 4-wide
//                    compares, a 16-entry table of packed bit positions, two 4-wide stores;
//   BoxFilterAvx2    one 8-wide compare, a 256-entry table of packed byte positions;
//   BoxFilterAvx512  one 8-wide compare into a mask register, vpcompressd in a register;
//                    sixteen boxes at once for the tiles.
//
// These are raw intrinsics, not xsimd: what they do is what xsimd 8.1 lacks (masks as
// bits, a mask to a list of indices, compares of eight floats into an AVX-512 mask
// register; docs/simd.md). The wider ones also carry GCC target attributes, so that
// tests/broadphase/test_box_filter.cpp can check each, lane for lane, against the plain
// loop from one baseline translation unit.
//
// Lists passed to append need 8 slots from the count passed in (full-width stores).
#pragma once

#include <algorithm>
#include <cstdint>

#include "segment_home_rows.hpp"
#include "segment_side_filter.hpp"

#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#define HITGRID_BOX_FILTER_X86 1
#endif

namespace hitgrid {

namespace box_filter_detail {

/// For each 4-bit mask, the positions of its set bits packed to the front (lanes past
/// their count are never read) and that count.
struct SetBits4 {
  alignas(16) std::int32_t position[16][4];
  std::uint32_t count[16];
};
constexpr SetBits4 make_set_bits4() {
  SetBits4 t{};
  for (int m = 0; m < 16; ++m) {
    int n = 0;
    for (int i = 0; i < 4; ++i)
      if (m >> i & 1) t.position[m][n++] = i;
    t.count[m] = static_cast<std::uint32_t>(n);
  }
  return t;
}
inline constexpr SetBits4 set_bits4 = make_set_bits4();

/// For each 8-bit mask, the positions of its set bits packed to the front, one byte each.
struct SetBits8 {
  alignas(8) std::uint8_t position[256][8];
};
constexpr SetBits8 make_set_bits8() {
  SetBits8 t{};
  for (int m = 0; m < 256; ++m) {
    int n = 0;
    for (int i = 0; i < 8; ++i)
      if (m >> i & 1) t.position[m][n++] = static_cast<std::uint8_t>(i);
  }
  return t;
}
inline constexpr SetBits8 set_bits8 = make_set_bits8();

}  // namespace box_filter_detail

struct BoxFilterSse2 {
  /// Whether overlap16 / append16 exist (two runs of eight in one 16-lane step).
  static constexpr bool sixteen = false;
  /// The shapes of a tile_pairs tile (0: no tile_pairs).
  static constexpr std::uint32_t tile_lanes = 0;
  /// Segments' home rows, this many at a time (SegmentHomeRows).
  static constexpr std::size_t segment_rows_lanes = 4;
  static bool segment_rows(const SegmentHomeRows& rows, const float* ax, const float* ay, const float* bx,
                           const float* by, std::uint32_t* out) {
    return rows.rows4(ax, ay, bx, by, out);
  }

  /// Bit i set when box i of the eight at (minx, maxx, miny, maxy) overlaps [x0, x1] x
  /// [y0, y1] (closed).
  static std::uint32_t overlap8(const float* minx, const float* maxx, const float* miny, const float* maxy, float x0,
                                float x1, float y0, float y1) {
#if defined(HITGRID_BOX_FILTER_X86)
    const __m128 vx0 = _mm_set1_ps(x0), vx1 = _mm_set1_ps(x1), vy0 = _mm_set1_ps(y0), vy1 = _mm_set1_ps(y1);
    auto four = [&](int i) {
      const __m128 hit =
          _mm_and_ps(_mm_and_ps(_mm_cmple_ps(_mm_loadu_ps(minx + i), vx1), _mm_cmple_ps(vx0, _mm_loadu_ps(maxx + i))),
                     _mm_and_ps(_mm_cmple_ps(_mm_loadu_ps(miny + i), vy1), _mm_cmple_ps(vy0, _mm_loadu_ps(maxy + i))));
      return static_cast<std::uint32_t>(_mm_movemask_ps(hit));
    };
    return four(0) | four(4) << 4;
#else
    std::uint32_t mask = 0;
    for (std::uint32_t i = 0; i < 8; ++i)
      mask |= static_cast<std::uint32_t>((minx[i] <= x1) & (x0 <= maxx[i]) & (miny[i] <= y1) & (y0 <= maxy[i])) << i;
    return mask;
#endif
  }

  /// SegmentSideFilter::may_touch8 for this ISA.
  static std::uint32_t side8(const SegmentSideFilter& f, const float* minx, const float* maxx, const float* miny,
                             const float* maxy) {
    return f.may_touch8(minx, maxx, miny, maxy);
  }

  /// Bit i set when v[i] < x, for the eight values from v.
  static std::uint32_t below8(const float* v, float x) {
#if defined(HITGRID_BOX_FILTER_X86)
    const __m128 vx = _mm_set1_ps(x);
    return static_cast<std::uint32_t>(_mm_movemask_ps(_mm_cmplt_ps(_mm_loadu_ps(v), vx)) |
                                      _mm_movemask_ps(_mm_cmplt_ps(_mm_loadu_ps(v + 4), vx)) << 4);
#else
    std::uint32_t mask = 0;
    for (std::uint32_t i = 0; i < 8; ++i) mask |= static_cast<std::uint32_t>(v[i] < x) << i;
    return mask;
#endif
  }

  /// Appends (a, b + i) for each set bit i of the 8-bit mask at position n; returns the
  /// new count.
  static std::uint32_t append(std::uint32_t mask, std::uint32_t a, std::uint32_t b, std::uint32_t* as,
                              std::uint32_t* bs, std::uint32_t n) {
#if defined(HITGRID_BOX_FILTER_X86)
    // SSE2 has no compress instruction, but the positions are consecutive numbers, so
    // b + table[mask] is the packed vector.
    using box_filter_detail::set_bits4;
    const __m128i va = _mm_set1_epi32(static_cast<std::int32_t>(a));
    for (std::uint32_t half = 0; half < 2; ++half) {
      const std::uint32_t m = (mask >> (4 * half)) & 15;
      const __m128i at = _mm_add_epi32(_mm_set1_epi32(static_cast<std::int32_t>(b + 4 * half)),
                                       _mm_load_si128(reinterpret_cast<const __m128i*>(set_bits4.position[m])));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(as + n), va);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(bs + n), at);
      n += set_bits4.count[m];
    }
#else
    for (std::uint32_t i = 0; i < 8; ++i) {
      as[n] = a;
      bs[n] = b + i;
      n += (mask >> i) & 1;
    }
#endif
    return n;
  }
};

#if defined(HITGRID_BOX_FILTER_X86)

struct BoxFilterAvx2 {
  static constexpr bool sixteen = false;
  static constexpr std::uint32_t tile_lanes = 8;
  static constexpr std::size_t segment_rows_lanes = 8;
  [[gnu::target("avx2")]] static bool segment_rows(const SegmentHomeRows& rows, const float* ax, const float* ay,
                                                   const float* bx, const float* by, std::uint32_t* out) {
    return rows.rows8(ax, ay, bx, by, out);
  }

  /// BoxFilterAvx512::tile_pairs for tiles of n <= 8 shapes (the lists need 8 slots from
  /// the count). The tile's boxes are read eight at once: the columns' padding covers the
  /// lanes past the last shape, and `valid` drops them.
  template <class Full>
  [[gnu::target("avx2,popcnt")]] static inline std::uint32_t tile_pairs(
      const float* minx, const float* maxx, const float* miny, const float* maxy, std::uint32_t tile, std::uint32_t n,
      std::uint32_t own, std::uint32_t own_end, std::uint32_t up, std::uint32_t up_end, std::uint32_t* as,
      std::uint32_t* bs, std::uint32_t count, std::uint32_t room, Full&& full) {
    const std::uint32_t valid = (1u << n) - 1;
    const __m256 x0 = _mm256_loadu_ps(minx + tile), x1 = _mm256_loadu_ps(maxx + tile);
    const __m256 y0 = _mm256_loadu_ps(miny + tile), y1 = _mm256_loadu_ps(maxy + tile);
    // In runs that cannot fill the lists (each u adds at most 8): see BoxFilterAvx512.
    for (std::uint32_t u = own; u < own_end;) {
      for (const std::uint32_t run_end = std::min(own_end, u + (room - count) / 8 + 1); u < run_end; ++u) {
        const std::uint32_t before = u - tile;  // the tile's lanes before u
        const std::uint32_t m = valid & (before >= 8 ? 0xffu : (1u << before) - 1);
        count = tile_test(x0, x1, y0, y1, tile, m, minx[u], maxx[u], miny[u], maxy[u], u, as, bs, count);
      }
      if (count > room) count = full(count);
    }
    for (std::uint32_t u = up; u < up_end;) {
      for (const std::uint32_t run_end = std::min(up_end, u + (room - count) / 8 + 1); u < run_end; ++u)
        count = tile_test(x0, x1, y0, y1, tile, valid, minx[u], maxx[u], miny[u], maxy[u], u, as, bs, count);
      if (count > room) count = full(count);
    }
    return count;
  }

  /// tile_pairs' step: box u against the tile's boxes in the lanes of m.
  [[gnu::target("avx2,popcnt")]] static inline std::uint32_t tile_test(__m256 x0, __m256 x1, __m256 y0, __m256 y1,
                                                                       std::uint32_t tile, std::uint32_t m, float ux0,
                                                                       float ux1, float uy0, float uy1, std::uint32_t u,
                                                                       std::uint32_t* as, std::uint32_t* bs,
                                                                       std::uint32_t count) {
    using box_filter_detail::set_bits8;
    const __m256 hit = _mm256_and_ps(_mm256_and_ps(_mm256_cmp_ps(x0, _mm256_set1_ps(ux1), _CMP_LE_OQ),
                                                   _mm256_cmp_ps(_mm256_set1_ps(ux0), x1, _CMP_LE_OQ)),
                                     _mm256_and_ps(_mm256_cmp_ps(y0, _mm256_set1_ps(uy1), _CMP_LE_OQ),
                                                   _mm256_cmp_ps(_mm256_set1_ps(uy0), y1, _CMP_LE_OQ)));
    const std::uint32_t mask = static_cast<std::uint32_t>(_mm256_movemask_ps(hit)) & m;
    const __m256i positions =
        _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(set_bits8.position[mask])));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(bs + count), _mm256_set1_epi32(static_cast<std::int32_t>(u)));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(as + count),
                        _mm256_add_epi32(_mm256_set1_epi32(static_cast<std::int32_t>(tile)), positions));
    return count + static_cast<std::uint32_t>(_mm_popcnt_u32(mask));
  }

  [[gnu::target("avx2,popcnt")]] static inline std::uint32_t overlap8(const float* minx, const float* maxx,
                                                                      const float* miny, const float* maxy, float x0,
                                                                      float x1, float y0, float y1) {
    const __m256 hit =
        _mm256_and_ps(_mm256_and_ps(_mm256_cmp_ps(_mm256_loadu_ps(minx), _mm256_set1_ps(x1), _CMP_LE_OQ),
                                    _mm256_cmp_ps(_mm256_set1_ps(x0), _mm256_loadu_ps(maxx), _CMP_LE_OQ)),
                      _mm256_and_ps(_mm256_cmp_ps(_mm256_loadu_ps(miny), _mm256_set1_ps(y1), _CMP_LE_OQ),
                                    _mm256_cmp_ps(_mm256_set1_ps(y0), _mm256_loadu_ps(maxy), _CMP_LE_OQ)));
    return static_cast<std::uint32_t>(_mm256_movemask_ps(hit));
  }

  [[gnu::target("avx2,popcnt")]] static inline std::uint32_t side8(const SegmentSideFilter& f, const float* minx,
                                                                   const float* maxx, const float* miny,
                                                                   const float* maxy) {
    return f.may_touch8_avx2(minx, maxx, miny, maxy);
  }

  [[gnu::target("avx2,popcnt")]] static inline std::uint32_t below8(const float* v, float x) {
    return static_cast<std::uint32_t>(
        _mm256_movemask_ps(_mm256_cmp_ps(_mm256_loadu_ps(v), _mm256_set1_ps(x), _CMP_LT_OQ)));
  }

  [[gnu::target("avx2,popcnt")]] static inline std::uint32_t append(std::uint32_t mask, std::uint32_t a,
                                                                    std::uint32_t b, std::uint32_t* as,
                                                                    std::uint32_t* bs, std::uint32_t n) {
    using box_filter_detail::set_bits8;
    const __m256i positions =
        _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(set_bits8.position[mask])));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(as + n), _mm256_set1_epi32(static_cast<std::int32_t>(a)));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(bs + n),
                        _mm256_add_epi32(_mm256_set1_epi32(static_cast<std::int32_t>(b)), positions));
    return n + static_cast<std::uint32_t>(_mm_popcnt_u32(mask));
  }
};

struct BoxFilterAvx512 {
  static constexpr bool sixteen = true;
  static constexpr std::uint32_t tile_lanes = 16;
  static constexpr std::size_t segment_rows_lanes = 16;
  [[gnu::target("avx512f")]] static bool segment_rows(const SegmentHomeRows& rows, const float* ax, const float* ay,
                                                      const float* bx, const float* by, std::uint32_t* out) {
    return rows.rows16(ax, ay, bx, by, out);
  }

  [[gnu::target("avx512f,avx512vl,popcnt")]] static inline std::uint32_t overlap8(const float* minx, const float* maxx,
                                                                                  const float* miny, const float* maxy,
                                                                                  float x0, float x1, float y0,
                                                                                  float y1) {
    __mmask8 m = _mm256_cmp_ps_mask(_mm256_loadu_ps(minx), _mm256_set1_ps(x1), _CMP_LE_OQ);
    m = _mm256_mask_cmp_ps_mask(m, _mm256_set1_ps(x0), _mm256_loadu_ps(maxx), _CMP_LE_OQ);
    m = _mm256_mask_cmp_ps_mask(m, _mm256_loadu_ps(miny), _mm256_set1_ps(y1), _CMP_LE_OQ);
    m = _mm256_mask_cmp_ps_mask(m, _mm256_set1_ps(y0), _mm256_loadu_ps(maxy), _CMP_LE_OQ);
    return m;
  }

  [[gnu::target("avx512f,avx512vl,popcnt")]] static inline std::uint32_t side8(const SegmentSideFilter& f,
                                                                               const float* minx, const float* maxx,
                                                                               const float* miny, const float* maxy) {
    return f.may_touch8_avx2(minx, maxx, miny, maxy);
  }

  [[gnu::target("avx512f,avx512vl,popcnt")]] static inline std::uint32_t below8(const float* v, float x) {
    return _mm256_cmp_ps_mask(_mm256_loadu_ps(v), _mm256_set1_ps(x), _CMP_LT_OQ);
  }

  [[gnu::target("avx512f,avx512vl,popcnt")]] static inline std::uint32_t append(std::uint32_t mask, std::uint32_t a,
                                                                                std::uint32_t b, std::uint32_t* as,
                                                                                std::uint32_t* bs, std::uint32_t n) {
    // Compress in a register, then a full store: vpcompressd straight to memory is slow
    // on some cores (microcoded on AMD Zen 4).
    const __m256i lanes =
        _mm256_add_epi32(_mm256_set1_epi32(static_cast<std::int32_t>(b)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(as + n), _mm256_set1_epi32(static_cast<std::int32_t>(a)));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(bs + n),
                        _mm256_maskz_compress_epi32(static_cast<__mmask8>(mask), lanes));
    return n + static_cast<std::uint32_t>(_mm_popcnt_u32(mask));
  }

  /// The pairs of a tile of n <= 16 consecutive shapes from `tile` with the shapes u of
  /// [own, own_end) and of [up, up_end): each u's box against the sixteen at once, the
  /// tile's positions whose boxes overlap u's appended as (tile position, u). A u of the
  /// first range pairs only with the tile's shapes before it (the tile's own later
  /// shapes, and the shapes after the tile, each pair once). The lists need 16 slots from
  /// the count, which is at most `room` on entry; `full(count)` is called when it passes
  /// `room`, and returns the new count. Returns the count.
  template <class Full>
  [[gnu::target("avx512f,avx512vl,popcnt")]] static inline std::uint32_t tile_pairs(
      const float* minx, const float* maxx, const float* miny, const float* maxy, std::uint32_t tile, std::uint32_t n,
      std::uint32_t own, std::uint32_t own_end, std::uint32_t up, std::uint32_t up_end, std::uint32_t* as,
      std::uint32_t* bs, std::uint32_t count, std::uint32_t room, Full&& full) {
    const auto valid = static_cast<__mmask16>((1u << n) - 1);
    const __m512 x0 = _mm512_maskz_loadu_ps(valid, minx + tile), x1 = _mm512_maskz_loadu_ps(valid, maxx + tile);
    const __m512 y0 = _mm512_maskz_loadu_ps(valid, miny + tile), y1 = _mm512_maskz_loadu_ps(valid, maxy + tile);
    const __m512i lanes = _mm512_add_epi32(_mm512_set1_epi32(static_cast<std::int32_t>(tile)),
                                           _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
    // In runs that cannot fill the lists (each u adds at most 16), `full` between runs:
    // no call inside the loops, so the tile's boxes stay in registers.
    for (std::uint32_t u = own; u < own_end;) {
      for (const std::uint32_t run_end = std::min(own_end, u + (room - count) / 16 + 1); u < run_end; ++u) {
        const std::uint32_t before = u - tile;  // the tile's lanes before u
        const auto m = static_cast<__mmask16>(valid & (before >= 16 ? 0xffffu : (1u << before) - 1));
        count = tile_test(x0, x1, y0, y1, lanes, m, minx[u], maxx[u], miny[u], maxy[u], u, as, bs, count);
      }
      if (count > room) count = full(count);
    }
    for (std::uint32_t u = up; u < up_end;) {
      for (const std::uint32_t run_end = std::min(up_end, u + (room - count) / 16 + 1); u < run_end; ++u)
        count = tile_test(x0, x1, y0, y1, lanes, valid, minx[u], maxx[u], miny[u], maxy[u], u, as, bs, count);
      if (count > room) count = full(count);
    }
    return count;
  }

  /// tile_pairs' step: box u against the tile's boxes in lanes m.
  [[gnu::target("avx512f,avx512vl,popcnt")]] static inline std::uint32_t tile_test(
      __m512 x0, __m512 x1, __m512 y0, __m512 y1, __m512i lanes, __mmask16 m, float ux0, float ux1, float uy0,
      float uy1, std::uint32_t u, std::uint32_t* as, std::uint32_t* bs, std::uint32_t count) {
    m = _mm512_mask_cmp_ps_mask(m, x0, _mm512_set1_ps(ux1), _CMP_LE_OQ);
    m = _mm512_mask_cmp_ps_mask(m, _mm512_set1_ps(ux0), x1, _CMP_LE_OQ);
    m = _mm512_mask_cmp_ps_mask(m, y0, _mm512_set1_ps(uy1), _CMP_LE_OQ);
    m = _mm512_mask_cmp_ps_mask(m, _mm512_set1_ps(uy0), y1, _CMP_LE_OQ);
    _mm512_storeu_si512(bs + count, _mm512_set1_epi32(static_cast<std::int32_t>(u)));
    _mm512_storeu_si512(as + count, _mm512_maskz_compress_epi32(m, lanes));
    return count + static_cast<std::uint32_t>(_mm_popcnt_u32(m));
  }

  /// overlap8 of the eight boxes from i (bits 0-7) and of the eight from j (bits 8-15),
  /// in one 16-lane compare: a shape's first run in its own row and in the row above.
  [[gnu::target("avx512f,avx512vl,popcnt")]] static inline std::uint32_t overlap16(const float* minx, const float* maxx,
                                                                                   const float* miny, const float* maxy,
                                                                                   std::uint32_t i, std::uint32_t j,
                                                                                   float x0, float x1, float y0,
                                                                                   float y1) {
    __mmask16 m = _mm512_cmp_ps_mask(load16(minx, i, j), _mm512_set1_ps(x1), _CMP_LE_OQ);
    m = _mm512_mask_cmp_ps_mask(m, _mm512_set1_ps(x0), load16(maxx, i, j), _CMP_LE_OQ);
    m = _mm512_mask_cmp_ps_mask(m, load16(miny, i, j), _mm512_set1_ps(y1), _CMP_LE_OQ);
    m = _mm512_mask_cmp_ps_mask(m, _mm512_set1_ps(y0), load16(maxy, i, j), _CMP_LE_OQ);
    return m;
  }

  /// v[i .. i + 7] in the low half, v[j .. j + 7] in the high one.
  [[gnu::target("avx512f,avx512vl")]] static inline __m512 load16(const float* v, std::uint32_t i, std::uint32_t j) {
    // (Zero-masked forms throughout: g++ 12's unmasked insert, shuffle and zero-extension
    // read an undefined vector, which -Werror=maybe-uninitialized rejects.)
    return _mm512_maskz_shuffle_f32x4(0xffff, _mm512_maskz_loadu_ps(0x00ff, v + i),
                                      _mm512_maskz_loadu_ps(0x00ff, v + j), 0x44);
  }

  /// Appends (a, i + k) for each set bit k < 8 and (a, j + k - 8) for each set bit k >= 8
  /// of the 16-bit mask at position n (the lists need 16 slots from n); returns the new
  /// count.
  [[gnu::target("avx512f,avx512vl,popcnt")]] static inline std::uint32_t append16(std::uint32_t mask, std::uint32_t a,
                                                                                  std::uint32_t i, std::uint32_t j,
                                                                                  std::uint32_t* as, std::uint32_t* bs,
                                                                                  std::uint32_t n) {
    const __m512i starts =
        _mm512_mask_set1_epi32(_mm512_set1_epi32(static_cast<std::int32_t>(i)), 0xff00, static_cast<std::int32_t>(j));
    const __m512i lanes = _mm512_add_epi32(starts, _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7));
    _mm512_storeu_si512(as + n, _mm512_set1_epi32(static_cast<std::int32_t>(a)));
    _mm512_storeu_si512(bs + n, _mm512_maskz_compress_epi32(static_cast<__mmask16>(mask), lanes));
    return n + static_cast<std::uint32_t>(_mm_popcnt_u32(mask));
  }
};

#endif

}  // namespace hitgrid
