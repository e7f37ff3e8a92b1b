// The grid kernels (grid_kernels.hpp), one set per ISA: the same candidates from every
// ISA's row search and range search, exactly the overlapping boxes of their windows; the
// segments' row count group by group; and the one-definition-rule guard, that the per-ISA
// object files define no out-of-line copy of an inline function they share with others
// (checked by tests/broadphase/check_kernel_symbols.cmake, run by CTest).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include "grid_kernels.hpp"
#include "hitgrid/core/splitmix64.hpp"
#include "hitgrid/simd/isa.hpp"
#include "segment_home_rows.hpp"

using namespace hitgrid;

TEST_CASE("count_segment_rows counts rows group by group and stops at a group that needs the scalar path", "[grid]") {
  // Segments of a grid with unit cells: short ones, and a long one at 37 (which every
  // group holding it declines).
  const GridCells cells(0);
  const SegmentHomeRows rows(cells, -3);
  const std::size_t n = 100;
  std::vector<float> ax(n), ay(n), bx(n), by(n);
  SplitMix64 rng(11);
  for (std::size_t i = 0; i < n; ++i) {
    ax[i] = static_cast<float>(rng.next() % 1000) * 0.25f;
    ay[i] = static_cast<float>(rng.next() % 1000) * 0.25f;
    bx[i] = ax[i] + 0.5f;
    by[i] = ay[i] - 0.75f;
  }
  bx[37] = ax[37] + 5.0f;
  auto run = [&](const char* name, std::size_t width, auto count_rows) {
    std::vector<std::uint32_t> out(n, 0), count(400, 0), want_count(400, 0);
    const std::size_t stop = count_rows(ax.data(), ay.data(), bx.data(), by.data(), 0, n, out.data(), count.data());
    INFO(name);
    CHECK(stop == 37 / width * width);
    for (std::size_t i = 0; i < stop; ++i) {
      const std::uint32_t want = segment_home_row(cells, -3, 0xFFFFFFFFu, ax[i], ay[i], bx[i], by[i]);
      REQUIRE(out[i] == want);
      ++want_count[want];
    }
    CHECK(count == want_count);
    // Past the long one, to the last whole group before the end.
    std::fill(count.begin(), count.end(), 0u);
    const std::size_t from = (37 / width + 1) * width;
    CHECK(count_rows(ax.data(), ay.data(), bx.data(), by.data(), from, n, out.data(), count.data()) ==
          from + (n - from) / width * width);
  };
  for (Isa isa : supported_isas()) {
    const auto count_rows = grid_kernels(isa).count_segment_rows;
    const std::size_t width = isa == Isa::avx512 ? 16 : isa == Isa::avx2 ? 8 : 4;
    run(isa_name(isa).data(), width, [&](auto... a) { return count_rows(rows, a...); });
  }
}
