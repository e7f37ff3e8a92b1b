// SegmentHomeRows against its scalar twin: every supported ISA's batches (four, eight or
// sixteen segments, from the ISA's own translation unit through lane_probe) and the
// baseline rows4 and columns; and the twin against the cell indices computed
// independently in long double, on coordinates chosen to sit on and next to cell edges, to
// be zeros of either sign, to underflow, and to overflow 32-bit indices.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "grid_kernels.hpp"
#include "hitgrid/core/splitmix64.hpp"
#include "hitgrid/simd/isa.hpp"
#include "segment_home_rows.hpp"
#include "support/sanitizer_builds.hpp"

using namespace hitgrid;

namespace {

/// floor(x / 2^log2_cell) by an independent route (long double is exact here: a float
/// times a power of two within long double's range).
std::int64_t reference_index(float x, int log2_cell) {
  return static_cast<std::int64_t>(std::floor(std::ldexp(static_cast<long double>(x), -log2_cell)));
}

/// A coordinate from one of several families, scaled for cells of 2^log2_cell.
float coordinate_or_inf(SplitMix64& rng, int log2_cell) {
  const double h = std::ldexp(1.0, log2_cell);
  const auto pick = rng.next() % 10;
  const double u = static_cast<double>(rng.next() >> 11) * 0x1p-53;
  const double cells = std::floor(u * 64.0) - 32.0;
  switch (pick) {
    case 0:  // exactly on a cell edge
      return static_cast<float>(cells * h);
    case 1:  // one ulp either side of an edge
      return std::nextafter(static_cast<float>(cells * h), (rng.next() & 1) ? HUGE_VALF : -HUGE_VALF);
    case 2:  // tiny, both signs, subnormal included
      return static_cast<float>((rng.next() & 1 ? 1.0 : -1.0) *
                                std::ldexp(u, -140 + static_cast<int>(rng.next() % 40)));
    case 3:  // huge: indices from 2^28 to 2^60, past 32 bits
      return static_cast<float>((rng.next() & 1 ? 1.0 : -1.0) *
                                std::ldexp(1.0 + u, std::min(127, log2_cell + 28 + static_cast<int>(rng.next() % 32))));
    case 4:
      return 0.0f;
    case 5:
      return -0.0f;
    default:  // anywhere within a few cells
      return static_cast<float>((u * 64.0 - 32.0) * h);
  }
}

/// The same, finite (shapes are).
float coordinate(SplitMix64& rng, int log2_cell) {
  const float v = coordinate_or_inf(rng, log2_cell);
  return std::isfinite(v) ? v : 0.0f;
}

/// A coordinate every width accepts: within 2^20 cells, and not a negative one that
/// underflows.
float benign_coordinate(SplitMix64& rng, int log2_cell) {
  for (;;) {
    const float v = coordinate(rng, log2_cell);
    const double cells = std::ldexp(static_cast<double>(v), -log2_cell);
    if (std::fabs(cells) < 0x1p20 && !(v < 0 && cells > -0x1p-100)) return v;
  }
}

/// One width of SegmentHomeRows on `lanes` segments: where it accepts, every lane equals
/// the scalar twin; where it declines, some lane needs the scalar path. Counts both.
template <class Rows>
void check_width(const char* name, std::size_t lanes, const float (&g)[4][16], const std::uint32_t* expected,
                 const std::uint32_t large, int log2_cell, std::int64_t row0, Rows rows, std::uint64_t& fast,
                 std::uint64_t& total) {
  for (std::size_t at = 0; at + lanes <= 16; at += lanes) {
    std::uint32_t out[16];
    ++total;
    if (rows(g[0] + at, g[1] + at, g[2] + at, g[3] + at, out)) {
      ++fast;
      for (std::size_t lane = at; lane < at + lanes; ++lane) {
        INFO(name << ": log2_cell " << log2_cell << " row0 " << row0 << " lane " << lane << ": " << g[0][lane] << ' '
                  << g[1][lane] << ' ' << g[2][lane] << ' ' << g[3][lane]);
        REQUIRE(out[lane - at] == expected[lane]);
      }
    } else {
      // Declined: some lane must be large or outside the 32-bit index range.
      bool needs_scalar = false;
      for (std::size_t lane = at; lane < at + lanes; ++lane) {
        const float v[4] = {g[0][lane], g[1][lane], g[2][lane], g[3][lane]};
        needs_scalar |= expected[lane] == large;
        for (float x : v)
          needs_scalar |= std::fabs(std::ldexp(static_cast<double>(x), -log2_cell)) >= 2147483648.0 ||
                          (x < 0 && std::ldexp(static_cast<double>(x), -log2_cell) > -0x1p-149);
      }
      INFO(name << ": declined without cause, log2_cell " << log2_cell << " row0 " << row0);
      REQUIRE(needs_scalar);
    }
  }
}

}  // namespace

TEST_CASE("every ISA's SegmentHomeRows batches equal the scalar rows and exact indices", "[grid]") {
  // The widths to check: the baseline rows4, then each supported ISA's batch (Isa::scalar
  // runs SSE2's on x86-64).
  struct Width {
    std::string name;
    std::size_t lanes;
    bool (*rows)(const SegmentHomeRows&, const float*, const float*, const float*, const float*, std::uint32_t*);
  };
  std::vector<Width> widths{{"rows4", 4,
                             [](const SegmentHomeRows& r, const float* ax, const float* ay, const float* bx,
                                const float* by, std::uint32_t* out) { return r.rows4(ax, ay, bx, by, out); }}};
  for (Isa isa : supported_isas()) {
    if (isa == Isa::scalar && isa_supported(Isa::sse2)) continue;
    const LaneProbe probe = lane_probe(isa);
    REQUIRE(probe.segment_rows_lanes <= 16);  // the rounds below draw sixteen segments
    widths.push_back({std::string(isa_name(isa)), probe.segment_rows_lanes, probe.segment_rows});
  }
  SplitMix64 rng(7);
  // Per width: groups accepted, groups tried.
  std::vector<std::uint64_t> fast(widths.size()), total(widths.size());
  for (int log2_cell : {-130, -127, -126, -40, -3, 0, 1, 5, 30, 126, 127}) {
    const GridCells cells(log2_cell);
    const SegmentHomeRows rows(cells, 0);
    if (log2_cell < -126 || log2_cell > 126) {
      CHECK_FALSE(rows.usable());
      continue;
    }
    REQUIRE(rows.usable());
    for (std::int64_t row0 : {std::int64_t{-40}, std::int64_t{0}, std::int64_t{-5'000'000'000}}) {
      const SegmentHomeRows shifted(cells, row0);
      const std::uint32_t large = 0xFFFFFFF0u;
      // (A quarter of the rounds under ASan: support/sanitizer_builds.hpp.)
      for (int round = 0; round < (test::asan_build ? 2'000 : 8'000); ++round) {
        // Mostly short segments (second endpoint near the first), some arbitrary; in half
        // of the rounds all sixteen are short and benign, so that the wide groups are
        // accepted too.
        const bool all_short = round % 2 == 0;
        float g[4][16];
        for (auto& column : g)
          for (float& v : column) v = all_short ? benign_coordinate(rng, log2_cell) : coordinate(rng, log2_cell);
        for (int lane = 0; lane < 16; ++lane) {
          if (!all_short && rng.next() % 4 == 0) continue;
          const float far_x = all_short ? benign_coordinate(rng, log2_cell) : coordinate(rng, log2_cell);
          const float far_y = all_short ? benign_coordinate(rng, log2_cell) : coordinate(rng, log2_cell);
          g[2][lane] = g[0][lane] + (far_x - g[0][lane]) * 0.01f;
          g[3][lane] = g[1][lane] + (far_y - g[1][lane]) * 0.01f;
          if (!std::isfinite(g[2][lane]) || !std::isfinite(g[3][lane])) {
            g[2][lane] = g[0][lane];
            g[3][lane] = g[1][lane];
          }
        }
        std::uint32_t expected[16];
        for (int lane = 0; lane < 16; ++lane) {
          const float ax = g[0][lane], ay = g[1][lane], bx = g[2][lane], by = g[3][lane];
          expected[lane] = segment_home_row(cells, row0, large, ax, ay, bx, by);
          // The twin against the independent indices.
          const std::int64_t x0 = reference_index(std::min(ax, bx), log2_cell);
          const std::int64_t x1 = reference_index(std::max(ax, bx), log2_cell);
          const std::int64_t y0 = reference_index(std::min(ay, by), log2_cell);
          const std::int64_t y1 = reference_index(std::max(ay, by), log2_cell);
          const bool small = x1 - x0 <= 1 && y1 - y0 <= 1;
          REQUIRE(expected[lane] == (small ? static_cast<std::uint32_t>(y0 - row0) : large));
        }
        for (std::size_t w = 0; w < widths.size(); ++w)
          check_width(
              widths[w].name.c_str(), widths[w].lanes, g, expected, large, log2_cell, row0,
              [&](const float* ax, const float* ay, const float* bx, const float* by, std::uint32_t* out) {
                return widths[w].rows(shifted, ax, ay, bx, by, out);
              },
              fast[w], total[w]);
      }
    }
  }
  // Every width took both paths often.
  for (std::size_t w = 0; w < widths.size(); ++w) {
    INFO(widths[w].name << ": " << fast[w] << " of " << total[w] << " groups accepted");
    CHECK(fast[w] > total[w] / 10);
    CHECK(total[w] - fast[w] > total[w] / 10);
  }
}

#if XSIMD_WITH_SSE2
TEST_CASE("SegmentHomeRows columns four at a time equal the exact column indices, modulo 2^32", "[grid]") {
  SplitMix64 rng(13);
  std::uint64_t fast = 0, total = 0;
  for (int log2_cell : {-126, -40, -3, 0, 1, 5, 30, 126}) {
    const GridCells cells(log2_cell);
    const SegmentHomeRows columns(cells, 0);
    REQUIRE(columns.usable());
    for (std::int64_t col0 : {std::int64_t{-40}, std::int64_t{0}, std::int64_t{7}, std::int64_t{-5'000'000'000}}) {
      for (int round = 0; round < (test::asan_build ? 5'000 : 20'000); ++round) {
        float x[4];
        for (float& v : x) v = round % 2 == 0 ? benign_coordinate(rng, log2_cell) : coordinate(rng, log2_cell);
        std::uint32_t out[4];
        ++total;
        if (columns.columns(xsimd::batch<float, xsimd::sse2>::load_unaligned(x), col0, out)) {
          ++fast;
          for (int lane = 0; lane < 4; ++lane) {
            INFO("log2_cell " << log2_cell << " col0 " << col0 << " x " << x[lane]);
            REQUIRE(out[lane] == static_cast<std::uint32_t>(reference_index(x[lane], log2_cell) - col0));
            REQUIRE(out[lane] == static_cast<std::uint32_t>(cells.index(x[lane]) - col0));
          }
        } else {
          // Declined: some lane's index is outside 32 bits, or a negative one underflows.
          bool needs_scalar = false;
          for (float v : x) {
            const double c = std::ldexp(static_cast<double>(v), -log2_cell);
            needs_scalar |= std::fabs(c) >= 2147483648.0 || (v < 0 && c > -0x1p-149);
          }
          INFO("declined without cause, log2_cell " << log2_cell);
          REQUIRE(needs_scalar);
        }
      }
    }
  }
  INFO(fast << " of " << total << " groups accepted");
  CHECK(fast > total / 10);
  CHECK(total - fast > total / 10);
}
#endif
