// The home rows of segments, a batch at a time (four with SSE2, eight with AVX2, sixteen
// with AVX-512, the ISA chosen with the narrow phase's): the count pass of the home grid's
// build reads every shape once for its row, and on the scalar path that is four floor()
// conversions per shape. (The row sort's home columns, four at a time, use the same exact
// conversion.) Scalar twin: segment_home_row below (the grid's row_of for a segment);
// tests/broadphase/test_segment_home_rows.cpp checks every ISA's batches against it lane
// for lane, through the grid's lane probes (grid_kernels.hpp). The batches are xsimd,
// templates on the arch, instantiated in the grid's per-ISA units and, for SSE2 (the
// x86-64 baseline), in baseline code (rows4, and the row sort's columns).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "grid_cells.hpp"
#include "hitgrid/simd/detail/lane_masks.hpp"

namespace hitgrid {

/// The row (relative to row0) of the home cell of segment (ax, ay, bx, by), or `large`
/// when it is not small (its box spans more than two columns or rows).
inline std::uint32_t segment_home_row(const GridCells& cells, std::int64_t row0, std::uint32_t large, float ax,
                                      float ay, float bx, float by) {
  const float minx = std::min(ax, bx), maxx = std::max(ax, bx), miny = std::min(ay, by), maxy = std::max(ay, by);
  const bool small = cells.index(maxx) - cells.index(minx) <= 1 && cells.index(maxy) - cells.index(miny) <= 1;
  return small ? static_cast<std::uint32_t>(cells.index(miny) - row0) : large;
}

/// Segments a batch at a time: writes out[0 .. lanes) as segment_home_row would and
/// returns true, or returns false (out unspecified) when a lane needs the scalar path: a
/// large segment, a cell index outside 32 bits, or cells whose scale is not a float. Rows
/// must fit 31 bits.
class SegmentHomeRows {
 public:
  SegmentHomeRows(const GridCells& cells, std::int64_t row0)
      : usable_(cells.log2_cell() >= -126 && cells.log2_cell() <= 126),
        inv_h_(usable_ ? static_cast<float>(std::ldexp(1.0, -cells.log2_cell())) : 0.0f),
        // Rows are differences of 32-bit indices: modulo 2^32 they are exact whenever the
        // true row fits 31 bits, so row0's low 32 bits are all that is needed.
        row0_(static_cast<std::int32_t>(static_cast<std::uint32_t>(row0))) {}

  bool usable() const { return usable_; }

#if XSIMD_WITH_SSE2
  /// As many segments as A has float lanes.
  template <class A>
  bool rows(const float* ax, const float* ay, const float* bx, const float* by, std::uint32_t* out) const {
    using F = xsimd::batch<float, A>;
    using I = xsimd::batch<std::int32_t, A>;
    const F x0 = F::load_unaligned(ax), y0 = F::load_unaligned(ay), x1 = F::load_unaligned(bx),
            y1 = F::load_unaligned(by);
    xsimd::batch_bool<float, A> ok(true);
    const I ix0 = floor_lanes(xsimd::min(x0, x1), ok), ix1 = floor_lanes(xsimd::max(x0, x1), ok);
    const I iy0 = floor_lanes(xsimd::min(y0, y1), ok), iy1 = floor_lanes(xsimd::max(y0, y1), ok);
    // Small: both index differences are 0 or 1, that is (dx | dy) >> 1 is 0 (as 32-bit
    // patterns: a wrapped 32-bit difference is never 0 or 1 unless the true one is, and a
    // negative one keeps its sign bit through the arithmetic shift).
    const xsimd::batch_bool<std::int32_t, A> small = (((ix1 - ix0) | (iy1 - iy0)) >> 1) == I(0);
    if (!xsimd::all(xsimd::bool_cast(ok) & small)) return false;
    xsimd::bitwise_cast<xsimd::batch<std::uint32_t, A>>(iy0 - I(row0_)).store_unaligned(out);
    return true;
  }

  /// rows for four segments, in baseline code (the count pass after a group of the ISA's
  /// width declined).
  bool rows4(const float* ax, const float* ay, const float* bx, const float* by, std::uint32_t* out) const {
    return rows<Sse2Arch>(ax, ay, bx, by, out);
  }

  /// The home columns of small shapes whose boxes start at `minx`, relative to col0:
  /// out[i] = uint32(cells.index(minx[i]) - col0) (the row sort's columns), or false (out
  /// unspecified) when a lane needs the scalar path, as in rows.
  template <class A>
  bool columns(const xsimd::batch<float, A>& minx, std::int64_t col0, std::uint32_t* out) const {
    using I = xsimd::batch<std::int32_t, A>;
    xsimd::batch_bool<float, A> ok(true);
    const I ix = floor_lanes(minx, ok);
    if (!xsimd::all(ok)) return false;
    // Modulo 2^32, as the scalar uint32 conversion of the 64-bit difference.
    const auto low = static_cast<std::int32_t>(static_cast<std::uint32_t>(col0));
    xsimd::bitwise_cast<xsimd::batch<std::uint32_t, A>>(ix - I(low)).store_unaligned(out);
    return true;
  }

 private:
  /// floor(v / h) as 32-bit integers; clears `ok` in lanes where that is not exact. The
  /// product by the power of two 1 / h is exact in float unless it overflows (then it fails
  /// the range check) or underflows; underflow only matters when a negative value rounds
  /// to -0 (floor -1 would become 0): such lanes are flagged.
  template <class A>
  xsimd::batch<std::int32_t, A> floor_lanes(const xsimd::batch<float, A>& v, xsimd::batch_bool<float, A>& ok) const {
    using F = xsimd::batch<float, A>;
    using I = xsimd::batch<std::int32_t, A>;
    const F p = v * F(inv_h_);
    const auto lost_sign = (v < F(0.0f)) & (p == F(0.0f));
    // (~, not !: 8.1's ! compares with false, in two halves on AVX.)
    ok = ok & (xsimd::abs(p) < F(2147483648.0f)) & ~lost_sign;
    if constexpr (std::is_same_v<A, Sse2Arch>) {
      // SSE2 has no rounding instruction (xsimd's floor emulates one, in more steps than
      // this): truncate toward zero, then one less where that went up (negative
      // non-integers). The select is the mask itself, -1 in its lanes.
      const I t = xsimd::batch_cast<std::int32_t>(p);
      return t + xsimd::select(xsimd::bool_cast(xsimd::batch_cast<float>(t) > p), I(-1), I(0));
    } else {
      return xsimd::batch_cast<std::int32_t>(xsimd::floor(p));  // exact: an integer in range
    }
  }
#else
  bool rows4(const float*, const float*, const float*, const float*, std::uint32_t*) const { return false; }
#endif

 private:
  bool usable_;
  float inv_h_;
  std::int32_t row0_;
};

}  // namespace hitgrid
