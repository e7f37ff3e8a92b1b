// The innermost steps of the grid's searches (grid_kernels_body.hpp): eight bounding boxes
// tested against one, and the indices of those that overlap appended to the candidate
// lists, without a branch on the answers (they are unpredictable); and the few other lane
// operations the searches are built from. Two forms:
//
//   BoxFilterScalar  the scalar twin: plain loops, the reference the tests hold every
//                    ISA's form to, and the kernels' filter where there are no x86 ones;
//   BoxFilter<A>     xsimd, a template on the arch (lane_masks.hpp), the search's template
//                    argument in that ISA's translation unit
//                    (grid_kernels_{sse2,avx2,avx512}.cpp):
//                      Sse2Arch    two 4-lane steps per eight boxes, no tiles;
//                      Avx2Arch    one 8-lane step, tiles of eight;
//                      Avx512Arch  one 8-lane step (Avx512HalfArch), a 16-lane step for
//                                  two runs of eight, tiles of sixteen.
//                    BoxFilter<Sse2Arch> also serves baseline code (BaselineBoxFilter).
//
// What xsimd 8.1 lacks here (a mask as bits, its popcount, the list of its set lanes,
// masked loads) comes from lane_masks.hpp; nothing in this file is a raw intrinsic.
// tests/broadphase/test_box_filter.cpp checks every ISA's form the machine supports, lane
// for lane, against the scalar twin, through the lane probes (grid_kernels.hpp).
//
// Lists passed to append need 8 slots from the count passed in (full-width stores); to
// append16 and to tile_pairs, 16.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "hitgrid/core/float_steps.hpp"
#include "hitgrid/simd/detail/lane_masks.hpp"
#include "segment_home_rows.hpp"
#include "segment_side_filter.hpp"

namespace hitgrid {

/// The mask of the first min(n, 8) lanes.
inline std::uint32_t first_lanes(std::uint32_t n) { return n >= 8 ? 0xffu : (1u << n) - 1; }

struct BoxFilterScalar {
  /// Whether overlap16 / append16 serve the row search (two runs of eight in one step).
  static constexpr bool sixteen = false;
  /// The shapes of a tile_pairs tile (0: the row search goes shape by shape).
  static constexpr std::uint32_t tile_lanes = 0;
  /// Segments' home rows, this many at a time (SegmentHomeRows).
  static constexpr std::size_t segment_rows_lanes = 4;
  /// No batch of rows here: the caller's scalar path takes every segment.
  static bool segment_rows(const SegmentHomeRows&, const float*, const float*, const float*, const float*,
                           std::uint32_t*) {
    return false;
  }

  /// Bit i set when box i of the eight at (minx, maxx, miny, maxy) overlaps [x0, x1] x
  /// [y0, y1] (closed).
  static std::uint32_t overlap8(const float* minx, const float* maxx, const float* miny, const float* maxy, float x0,
                                float x1, float y0, float y1) {
    std::uint32_t mask = 0;
    for (std::uint32_t i = 0; i < 8; ++i)
      mask |= static_cast<std::uint32_t>((minx[i] <= x1) & (x0 <= maxx[i]) & (miny[i] <= y1) & (y0 <= maxy[i])) << i;
    return mask;
  }

  /// Bit i set when box i of the eight may touch the segment's line (may_touch).
  static std::uint32_t side8(const SegmentSideFilter& f, const float* minx, const float* maxx, const float* miny,
                             const float* maxy) {
    std::uint32_t mask = 0;
    for (std::uint32_t i = 0; i < 8; ++i)
      mask |= static_cast<std::uint32_t>(f.may_touch(minx[i], maxx[i], miny[i], maxy[i])) << i;
    return mask;
  }

  /// Bit i set when v[i] < x, for the eight values from v.
  static std::uint32_t below8(const float* v, float x) {
    std::uint32_t mask = 0;
    for (std::uint32_t i = 0; i < 8; ++i) mask |= static_cast<std::uint32_t>(v[i] < x) << i;
    return mask;
  }

  /// The values skip_below tests at once.
  static constexpr std::uint32_t skip_lanes = 8;
  /// How many of the first min(n, skip_lanes) values from v are below x before the first
  /// that is not: skip_lanes when all of them are. (The vector forms read v[0 .. 8) whatever
  /// n, so v must be readable that far; the 16-lane form reads nothing past v + n.)
  static std::uint32_t skip_below(const float* v, float x, std::uint32_t n) {
    return leading_below(v, x, std::min(n, skip_lanes));
  }
  /// How many of the first n values from v are below x before the first that is not.
  static std::uint32_t leading_below(const float* v, float x, std::uint32_t n) {
    std::uint32_t k = 0;
    while (k < n && v[k] < x) ++k;
    return k;
  }

  /// Appends (a, b + i) for each set bit i of the 8-bit mask at position n; returns the
  /// new count.
  static std::uint32_t append(std::uint32_t mask, std::uint32_t a, std::uint32_t b, std::uint32_t* as,
                              std::uint32_t* bs, std::uint32_t n) {
    for (std::uint32_t i = 0; i < 8; ++i) {
      as[n] = a;
      bs[n] = b + i;
      n += (mask >> i) & 1;
    }
    return n;
  }

  /// overlap8 of the eight boxes from i (bits 0-7) and of the eight from j (bits 8-15): a
  /// shape's first run in its own row and in the row above.
  static std::uint32_t overlap16(const float* minx, const float* maxx, const float* miny, const float* maxy,
                                 std::uint32_t i, std::uint32_t j, float x0, float x1, float y0, float y1) {
    return overlap8(minx + i, maxx + i, miny + i, maxy + i, x0, x1, y0, y1) |
           overlap8(minx + j, maxx + j, miny + j, maxy + j, x0, x1, y0, y1) << 8;
  }

  /// Appends (a, i + k) for each set bit k < 8 and (a, j + k - 8) for each set bit k >= 8
  /// of the 16-bit mask at position n; returns the new count.
  static std::uint32_t append16(std::uint32_t mask, std::uint32_t a, std::uint32_t i, std::uint32_t j,
                                std::uint32_t* as, std::uint32_t* bs, std::uint32_t n) {
    return append(mask >> 8, a, j, as, bs, append(mask & 0xff, a, i, as, bs, n));
  }

  /// The pairs of a tile of n consecutive shapes from `tile` with the shapes u of
  /// [own, own_end) and of [up, up_end): for each u in turn, the tile's positions t in
  /// increasing order whose boxes overlap u's, appended as (t, u). A u of the first range
  /// pairs only with the tile's shapes before it (the tile's own later shapes, and the
  /// shapes after the tile, each pair once). The count is at most `room` on entry;
  /// `full(count)` is called after any u that leaves it past `room` (by at most the
  /// tile's lanes), and returns the new count. Returns the count. The boxes of the u are
  /// finite (those of small shapes, which span at most two cells).
  template <class Full>
  static std::uint32_t tile_pairs(const float* minx, const float* maxx, const float* miny, const float* maxy,
                                  std::uint32_t tile, std::uint32_t n, std::uint32_t own, std::uint32_t own_end,
                                  std::uint32_t up, std::uint32_t up_end, std::uint32_t* as, std::uint32_t* bs,
                                  std::uint32_t count, std::uint32_t room, Full&& full) {
    auto test = [&](std::uint32_t u, std::uint32_t shapes) {
      for (std::uint32_t t = tile; t < tile + shapes; ++t) {
        as[count] = t;
        bs[count] = u;
        count += (minx[t] <= maxx[u]) & (minx[u] <= maxx[t]) & (miny[t] <= maxy[u]) & (miny[u] <= maxy[t]);
      }
      if (count > room) count = full(count);
    };
    for (std::uint32_t u = own; u < own_end; ++u) test(u, std::min(n, u - tile));
    for (std::uint32_t u = up; u < up_end; ++u) test(u, n);
    return count;
  }
};

#if XSIMD_WITH_SSE2

/// The xsimd form on arch A; each member does what BoxFilterScalar's of the same name
/// does, to the lane.
template <class A>
struct BoxFilter {
  using F = xsimd::batch<float, A>;
  using U = xsimd::batch<std::uint32_t, A>;
  /// The batches of the eight-box steps: four lanes (two steps) or eight.
  using E = EightBoxArch<A>;
  using F8 = xsimd::batch<float, E>;
  using U8 = xsimd::batch<std::uint32_t, E>;
  static constexpr std::uint32_t step = F8::size;
  static_assert(step == 4 || step == 8);

  static constexpr bool sixteen = F::size == 16;
  static constexpr std::uint32_t tile_lanes = F::size >= 8 ? F::size : 0;
  static constexpr std::size_t segment_rows_lanes = F::size;

  static bool segment_rows(const SegmentHomeRows& rows, const float* ax, const float* ay, const float* bx,
                           const float* by, std::uint32_t* out) {
    return rows.template rows<A>(ax, ay, bx, by, out);
  }

  static std::uint32_t overlap8(const float* minx, const float* maxx, const float* miny, const float* maxy, float x0,
                                float x1, float y0, float y1) {
    const F8 vx0(x0), vx1(x1), vy0(y0), vy1(y1);
    std::uint32_t mask = 0;
    for (std::uint32_t k = 0; k < 8; k += step) {
      const auto hit = (F8::load_unaligned(minx + k) <= vx1) & (vx0 <= F8::load_unaligned(maxx + k)) &
                       (F8::load_unaligned(miny + k) <= vy1) & (vy0 <= F8::load_unaligned(maxy + k));
      mask |= mask_bits<E>(hit) << k;
    }
    return mask;
  }

  static std::uint32_t side8(const SegmentSideFilter& f, const float* minx, const float* maxx, const float* miny,
                             const float* maxy) {
    std::uint32_t mask = 0;
    for (std::uint32_t k = 0; k < 8; k += step)
      mask |= f.template may_touch_lanes<E>(minx + k, maxx + k, miny + k, maxy + k) << k;
    return mask;
  }

  static std::uint32_t below8(const float* v, float x) {
    const F8 vx(x);
    std::uint32_t mask = 0;
    for (std::uint32_t k = 0; k < 8; k += step) mask |= mask_bits<E>(F8::load_unaligned(v + k) < vx) << k;
    return mask;
  }

  /// Sixteen lanes where the arch has them: a search's pointers move by about a tile's
  /// shapes per tile, which eight lanes take in two or three steps (each a loop exit that
  /// may mispredict).
  static constexpr std::uint32_t skip_lanes = sixteen ? 16 : 8;
  static std::uint32_t skip_below(const float* v, float x, std::uint32_t n) {
    if constexpr (sixteen) {
      // Lanes past n hold x itself, which is not below x.
      return static_cast<std::uint32_t>(
          std::countr_one(mask_bits<A>(load_first<A>(v, std::min(n, skip_lanes), x) < F(x))));
    } else {
      return static_cast<std::uint32_t>(std::countr_one(below8(v, x) & first_lanes(n)));
    }
  }

  /// (mask < 256.) SSE2 has no compress, but the positions are consecutive numbers, so
  /// b + a table entry is the packed vector (set_lanes).
  static std::uint32_t append(std::uint32_t mask, std::uint32_t a, std::uint32_t b, std::uint32_t* as,
                              std::uint32_t* bs, std::uint32_t n) {
    for (std::uint32_t k = 0; k < 8; k += step) {
      const std::uint32_t m = step == 8 ? mask : (mask >> k) & ((1u << step) - 1);
      U8(a).store_unaligned(as + n);
      set_lanes<E>(m, b + k).store_unaligned(bs + n);
      n += bit_count<E>(m);
    }
    return n;
  }

  static std::uint32_t overlap16(const float* minx, const float* maxx, const float* miny, const float* maxy,
                                 std::uint32_t i, std::uint32_t j, float x0, float x1, float y0, float y1) {
    static_assert(sixteen);
    const auto hit = (load_halves<A>(minx + i, minx + j) <= F(x1)) & (F(x0) <= load_halves<A>(maxx + i, maxx + j)) &
                     (load_halves<A>(miny + i, miny + j) <= F(y1)) & (F(y0) <= load_halves<A>(maxy + i, maxy + j));
    return mask_bits<A>(hit);
  }

  static std::uint32_t append16(std::uint32_t mask, std::uint32_t a, std::uint32_t i, std::uint32_t j,
                                std::uint32_t* as, std::uint32_t* bs, std::uint32_t n) {
    static_assert(sixteen);
    alignas(64) static constexpr std::uint32_t lane[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    const U k = U::load_aligned(lane);
    // i + k in the low eight lanes, j + k - 8 in the high eight (modulo 2^32).
    const U runs = xsimd::select(k < U(8), U(i), U(j - 8)) + k;
    U(a).store_unaligned(as + n);
    compress<A>(mask, runs).store_unaligned(bs + n);
    return n + bit_count<A>(mask);
  }

  template <class Full>
  static std::uint32_t tile_pairs(const float* minx, const float* maxx, const float* miny, const float* maxy,
                                  std::uint32_t tile, std::uint32_t n, std::uint32_t own, std::uint32_t own_end,
                                  std::uint32_t up, std::uint32_t up_end, std::uint32_t* as, std::uint32_t* bs,
                                  std::uint32_t count, std::uint32_t room, Full&& full) {
    static_assert(tile_lanes != 0);
    // The tile's lanes past its n shapes hold empty boxes (min +inf, max -inf), which
    // overlap no box of a u (finite, see BoxFilterScalar::tile_pairs), so only a u inside
    // the tile needs a mask: it pairs with the tile's lanes before it.
    const F x0 = tile_load(minx + tile, n, HUGE_VALF), x1 = tile_load(maxx + tile, n, -HUGE_VALF);
    const F y0 = tile_load(miny + tile, n, HUGE_VALF), y1 = tile_load(maxy + tile, n, -HUGE_VALF);
    // `full` after any u that leaves the count past `room` (each u adds at most
    // tile_lanes, and the lists have tile_lanes slots past it).
    std::uint32_t u = own;
    for (const std::uint32_t inside_end = std::min(own_end, tile + n); u < inside_end; ++u) {
      const std::uint32_t before = (1u << (u - tile)) - 1;
      count = tile_test<true>(x0, x1, y0, y1, tile, before, minx[u], maxx[u], miny[u], maxy[u], u, as, bs, count);
      if (count > room) count = full(count);
    }
    for (; u < own_end; ++u) {
      count = tile_test<false>(x0, x1, y0, y1, tile, 0, minx[u], maxx[u], miny[u], maxy[u], u, as, bs, count);
      if (count > room) count = full(count);
    }
    for (u = up; u < up_end; ++u) {
      count = tile_test<false>(x0, x1, y0, y1, tile, 0, minx[u], maxx[u], miny[u], maxy[u], u, as, bs, count);
      if (count > room) count = full(count);
    }
    return count;
  }

 private:
  /// The tile's n values from p, `fill` in the lanes past them.
  static F tile_load(const float* p, std::uint32_t n, float fill) {
    if constexpr (F::size <= 8) {
      // The grid's columns are padded by at least eight empty boxes past the last shape,
      // so an 8-lane load may run past it; lanes past n may still be the next row's.
      using I = xsimd::batch<std::int32_t, A>;
      alignas(32) static constexpr std::int32_t lane[8] = {0, 1, 2, 3, 4, 5, 6, 7};
      return xsimd::select(xsimd::bool_cast(I::load_aligned(lane) < I(static_cast<std::int32_t>(n))),
                           F::load_unaligned(p), F(fill));
    } else {
      return load_first<A>(p, n, fill);  // a 16-lane load could run past the padding
    }
  }

  /// tile_pairs' step: box u against the tile's boxes (Masked: in the lanes of m only).
  template <bool Masked>
  static std::uint32_t tile_test(const F& x0, const F& x1, const F& y0, const F& y1, std::uint32_t tile,
                                 std::uint32_t m, float ux0, float ux1, float uy0, float uy1, std::uint32_t u,
                                 std::uint32_t* as, std::uint32_t* bs, std::uint32_t count) {
    const auto overlap = (x0 <= F(ux1)) & (F(ux0) <= x1) & (y0 <= F(uy1)) & (F(uy0) <= y1);
    const std::uint32_t hit = Masked ? mask_bits<A>(overlap, m) : mask_bits<A>(overlap);
    U(u).store_unaligned(bs + count);
    set_lanes<A>(hit, tile).store_unaligned(as + count);
    return count + bit_count<A>(hit);
  }
};

/// The filter of baseline code (the crowded-cell sweep, the column tables of the large
/// shapes' search): SSE2's on x86-64, whose baseline SSE2 is.
using BaselineBoxFilter = BoxFilter<Sse2Arch>;

#else

/// Elsewhere baseline code gets the scalar twin.
using BaselineBoxFilter = BoxFilterScalar;

#endif

}  // namespace hitgrid
