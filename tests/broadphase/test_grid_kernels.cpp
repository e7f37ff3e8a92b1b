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

#include "cell_size.hpp"
#include "grid_kernels.hpp"
#include "hitgrid/core/splitmix64.hpp"
#include "hitgrid/simd/isa.hpp"
#include "home_grid.hpp"
#include "segment_home_rows.hpp"
#include "support/pathological_scenes.hpp"

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
  // width 0: the scalar kernels, which take no group (the caller's scalar path counts
  // every segment).
  auto run = [&](const char* name, std::size_t width, auto count_rows) {
    std::vector<std::uint32_t> out(n, 0), count(400, 0), want_count(400, 0);
    const std::size_t stop = count_rows(ax.data(), ay.data(), bx.data(), by.data(), 0, n, out.data(), count.data());
    INFO(name);
    if (width == 0) {
      CHECK(stop == 0);
      CHECK(count_rows(ax.data(), ay.data(), bx.data(), by.data(), 40, n, out.data(), count.data()) == 40);
      CHECK(count == want_count);  // nothing counted
      return;
    }
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
    const std::size_t width = isa == Isa::avx512 ? 16 : isa == Isa::avx2 ? 8 : isa == Isa::sse2 ? 4 : 0;
    run(isa_name(isa).data(), width, [&](auto... a) { return count_rows(rows, a...); });
  }
}

namespace {

using PairSet = std::set<std::pair<std::uint32_t, std::uint32_t>>;

bool overlap(const HomeGrid::Columns& c, std::uint32_t p, std::uint32_t q) {
  return c.minx[p] <= c.maxx[q] && c.minx[q] <= c.maxx[p] && c.miny[p] <= c.maxy[q] && c.miny[q] <= c.maxy[p];
}

/// What the test's buffers collect: every candidate, as the kernels hand them over.
struct Collector {
  CandidateBuffer buffer;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> got;
  Collector() {
    buffer.flush = [](void* self) {
      auto& c = *static_cast<Collector*>(self);
      // A kernel stores whole vectors from the count, which is at most limit() before each
      // store: never more than `lanes` past it.
      CHECK(c.buffer.count <= CandidateBuffer::limit() + CandidateBuffer::lanes);
      for (std::uint32_t i = 0; i < c.buffer.count; ++i) c.got.push_back({c.buffer.a[i], c.buffer.b[i]});
      c.buffer.count = 0;
    };
    buffer.context = this;
  }
  void finish() { buffer.flush(buffer.context); }
};

HomeGrid build(const Scene& scene, float cell) {
  const SceneExtent extent = scene_extent(scene);
  return HomeGrid::build(scene, KindRanges::of(scene), choose_home_cells(scene, extent, cell).log2_cell, extent,
                         Isa::scalar);
}

}  // namespace

TEST_CASE("every ISA's row search gives exactly the overlapping pairs of a row and of a row with the next", "[grid]") {
  std::size_t wanted = 0;  // over all scenes: the reference is not empty everywhere
  for (const auto& [name, scene] : test::broadphase_scenes(3000)) {
    for (float cell : {0.0f, 0.25f, 2.0f}) {
      const HomeGrid grid = build(scene, cell);
      const HomeGrid::Columns c = grid.columns();
      const auto rows = grid.rows();
      // The reference: all pairs within a row, and between a row and the next one up.
      PairSet want;
      for (std::size_t k = 0; k < rows.size(); ++k) {
        const bool above = k + 1 < rows.size() && rows[k + 1].row == rows[k].row + 1;
        const std::uint32_t end = above ? rows[k + 1].end : rows[k].end;
        for (std::uint32_t p = rows[k].begin; p < rows[k].end; ++p)
          for (std::uint32_t q = p + 1; q < end; ++q)
            if (overlap(c, p, q)) want.insert({p, q});
      }
      wanted += want.size();
      for (Isa isa : supported_isas()) {
        INFO(name << ", cell " << cell << ", " << isa_name(isa));
        // Crowded cells are the caller's (its sweep): every row searched as uncrowded here,
        // and in whatever order its cells are (by_left false is right for any order).
        const RowSearch s{c.minx, c.miny, c.maxx, c.maxy, grid.cells().cell_size(), nullptr, nullptr};
        Collector out;
        for (std::size_t k = 0; k < rows.size(); ++k) {
          const bool above = k + 1 < rows.size() && rows[k + 1].row == rows[k].row + 1;
          const RowRange row{rows[k].begin, rows[k].end, false, false};
          const RowRange up = above ? RowRange{rows[k + 1].begin, rows[k + 1].end, false, false} : RowRange{};
          grid_kernels(isa).row_pairs(s, row, above ? &up : nullptr, out.buffer);
        }
        out.finish();
        PairSet got;
        std::size_t repeats = 0;
        for (auto [a, b] : out.got) repeats += !got.insert({std::min(a, b), std::max(a, b)}).second;
        CHECK(repeats == 0);
        CHECK(got.size() == want.size());
        CHECK(got == want);
      }
    }
  }
  CHECK(wanted > 100'000);
}

TEST_CASE("every ISA's range search gives exactly the boxes a large shape's box and line may touch", "[grid]") {
  std::size_t wanted = 0;
  for (const auto& [name, scene] : test::broadphase_scenes(3000)) {
    const HomeGrid grid = build(scene, 0.5f);
    const HomeGrid::Columns c = grid.columns();
    const auto n = static_cast<std::uint32_t>(grid.small_count());
    const KindRanges kinds = KindRanges::of(scene);
    for (std::size_t l = 0; l < std::min<std::size_t>(grid.large_ids().size(), 40); ++l) {
      const ShapeRecord& r = grid.large_records()[l];
      const bool segment = kinds.kind(grid.large_ids()[l]) == ShapeKind::segment;
      const SegmentSideFilter side(r.g);
      // Ranges of every length and start, the whole grid among them.
      for (const auto& [begin, end] : {std::pair{0u, n}, std::pair{n / 3, n / 3 + 7}, std::pair{n / 2, n / 2 + 1}}) {
        if (end > n) continue;
        std::vector<std::uint32_t> want;
        for (std::uint32_t p = begin; p < end; ++p) {
          const bool box = c.minx[p] <= r.box.max.x && r.box.min.x <= c.maxx[p] && c.miny[p] <= r.box.max.y &&
                           r.box.min.y <= c.maxy[p];
          if (box && (!segment || side.may_touch(c.minx[p], c.maxx[p], c.miny[p], c.maxy[p]))) want.push_back(p);
        }
        wanted += want.size();
        for (Isa isa : supported_isas()) {
          INFO(name << ", large " << l << ", [" << begin << ", " << end << "), " << isa_name(isa));
          const RangeSearch s{c.minx, c.miny, c.maxx, c.maxy, r.box, segment, side};
          Collector out;
          grid_kernels(isa).range_pairs(s, static_cast<std::uint32_t>(l), begin, end, out.buffer);
          out.finish();
          std::vector<std::uint32_t> got;
          bool large_index_right = true;
          for (auto [a, b] : out.got) {
            large_index_right &= a == l;
            got.push_back(b);
          }
          std::sort(got.begin(), got.end());
          CHECK(large_index_right);
          CHECK(got == want);
        }
      }
    }
  }
  CHECK(wanted > 500);
}
