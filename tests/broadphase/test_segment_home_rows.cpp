// SegmentHomeRows (four segments at a time) against its scalar twin, and the twin against
// the cell indices computed independently in long double, on coordinates chosen to sit on
// and next to cell edges, to underflow, and to overflow 32-bit indices.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "hitgrid/core/splitmix64.hpp"
#include "segment_home_rows.hpp"

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

}  // namespace

TEST_CASE("SegmentHomeRows four at a time equals the scalar rows and exact indices", "[grid]") {
  SplitMix64 rng(7);
  std::uint64_t fast = 0, total = 0;
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
      for (int round = 0; round < 20'000; ++round) {
        float g[4][4];
        for (auto& column : g)
          for (float& v : column) v = coordinate(rng, log2_cell);
        // Mostly short segments (second endpoint near the first), some arbitrary.
        if (rng.next() % 4 != 0)
          for (int lane = 0; lane < 4; ++lane) {
            g[2][lane] = g[0][lane] + (coordinate(rng, log2_cell) - g[0][lane]) * 0.01f;
            g[3][lane] = g[1][lane] + (coordinate(rng, log2_cell) - g[1][lane]) * 0.01f;
            if (!std::isfinite(g[2][lane]) || !std::isfinite(g[3][lane])) {
              g[2][lane] = g[0][lane];
              g[3][lane] = g[1][lane];
            }
          }
        std::uint32_t expected[4];
        for (int lane = 0; lane < 4; ++lane) {
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
        std::uint32_t out[4];
        ++total;
        if (shifted.rows4(g[0], g[1], g[2], g[3], out)) {
          ++fast;
          for (int lane = 0; lane < 4; ++lane) {
            INFO("log2_cell " << log2_cell << " row0 " << row0 << " lane " << lane << ": " << g[0][lane] << ' '
                              << g[1][lane] << ' ' << g[2][lane] << ' ' << g[3][lane]);
            REQUIRE(out[lane] == expected[lane]);
          }
        } else {
          // Declined: some lane must be large or outside the 32-bit index range.
          bool needs_scalar = false;
          for (int lane = 0; lane < 4; ++lane) {
            const float v[4] = {g[0][lane], g[1][lane], g[2][lane], g[3][lane]};
            needs_scalar |= expected[lane] == large;
            for (float x : v)
              needs_scalar |= std::fabs(std::ldexp(static_cast<double>(x), -log2_cell)) >= 2147483648.0 ||
                              (x < 0 && std::ldexp(static_cast<double>(x), -log2_cell) > -0x1p-149);
          }
          REQUIRE(needs_scalar);
        }
      }
    }
  }
  // Both paths ran often.
  CHECK(fast > total / 10);
  CHECK(total - fast > total / 10);
}
