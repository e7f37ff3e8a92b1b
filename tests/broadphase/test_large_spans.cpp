// The large shapes' spans over the home-cell grid (large_spans.hpp), checked shape by
// shape against the grid itself, on scenes with many large shapes:
//   complete: every small shape a large shape L can touch lies in a span of L in the
//     small shape's row: for a box or a circle (whose footprint is its bounding box's
//     cells), every small shape whose bounding box overlaps L's; for a segment (whose
//     footprint is the cells it crosses), every small shape whose bounding box the
//     segment touches (the exact segment-box test);
//   once: within a row, no two spans of one large shape overlap;
//   in range: spans name a large shape of the grid and columns of the grid.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "cell_size.hpp"
#include "hitgrid/core/generators.hpp"
#include "hitgrid/core/intersects.hpp"
#include "home_grid.hpp"
#include "large_spans.hpp"
#include "support/pathological_scenes.hpp"

using namespace hitgrid;

namespace {

HomeGrid build(const Scene& scene, float cell) {
  const SceneExtent extent = scene_extent(scene);
  return HomeGrid::build(scene, KindRanges::of(scene), choose_home_cells(scene, extent, cell).log2_cell, extent,
                         resolve_isa(Isa::automatic));
}

struct Report {
  std::uint64_t checked = 0;  // (large, small) pairs that needed a span
  std::uint64_t missing = 0;
  std::uint64_t overlapping = 0;
  std::uint64_t out_of_range = 0;
  std::string first_missing;
};

Report check_spans(const Scene& scene, const HomeGrid& grid, const LargeSpans& spans) {
  const KindRanges kinds = KindRanges::of(scene);
  const std::span<const HomeGrid::Row> rows = grid.rows();
  Report r;
  if (grid.large_ids().empty() || rows.empty()) {
    CHECK(spans.row_count() == 0);
    return r;
  }
  REQUIRE(spans.row_count() == rows.size());
  const std::size_t large = grid.large_ids().size();
  // Per row: the non-empty spans, sorted by large shape and first column.
  auto before = [](const LargeSpan& a, const LargeSpan& b) {
    return a.large != b.large ? a.large < b.large : a.lo < b.lo;
  };
  std::vector<std::vector<LargeSpan>> by_row(rows.size());
  for (std::size_t k = 0; k < rows.size(); ++k) {
    for (const LargeSpan& s : spans.row(k)) {
      if (s.lo > s.hi) continue;
      if (s.large >= large || s.hi >= grid.cols())
        ++r.out_of_range;
      else
        by_row[k].push_back(s);
    }
    std::sort(by_row[k].begin(), by_row[k].end(), before);
    for (std::size_t j = 1; j < by_row[k].size(); ++j)
      r.overlapping += by_row[k][j].large == by_row[k][j - 1].large && by_row[k][j].lo <= by_row[k][j - 1].hi;
  }
  const HomeGrid::Columns c = grid.columns();
  for (std::size_t i = 0; i < large; ++i) {
    const ShapeRecord& l = grid.large_records()[i];
    const ShapeKind kind = kinds.kind(grid.large_ids()[i]);
    for (std::size_t k = 0; k < rows.size(); ++k) {
      for (std::uint32_t p = rows[k].begin; p < rows[k].end; ++p) {
        const Aabb box{{c.minx[p], c.miny[p]}, {c.maxx[p], c.maxy[p]}};
        if (!overlaps(l.box, box)) continue;
        if (kind == ShapeKind::segment && !intersects(as_segment(l.g), Box{box.min, box.max})) continue;
        ++r.checked;
        const auto col = static_cast<std::uint64_t>(grid.col_of(p) - grid.col0());
        const auto [first, last] =
            std::equal_range(by_row[k].begin(), by_row[k].end(), LargeSpan{static_cast<std::uint32_t>(i), 0, 0},
                             [](const LargeSpan& a, const LargeSpan& b) { return a.large < b.large; });
        bool covered = false;
        for (auto s = first; s != last; ++s) covered |= s->lo <= col && col <= s->hi;
        if (!covered && r.missing++ == 0)
          r.first_missing = "large shape " + std::to_string(grid.large_ids()[i]) + " and small shape " +
                            std::to_string(grid.shape_at(p)) + " (row index " + std::to_string(k) + ", column " +
                            std::to_string(col) + ")";
      }
    }
  }
  return r;
}

void check(const Scene& scene, float cell) {
  const HomeGrid grid = build(scene, cell);
  const LargeSpans spans = LargeSpans::build(grid, KindRanges::of(scene));
  const Report r = check_spans(scene, grid, spans);
  INFO("large " << grid.large_ids().size() << ", small " << grid.small_count() << ", pairs needing a span " << r.checked
                << ", first missing: " << r.first_missing);
  CHECK(r.missing == 0);
  CHECK(r.overlapping == 0);
  CHECK(r.out_of_range == 0);
}

}  // namespace

TEST_CASE("the large shapes' spans cover every small shape they can touch, once per row", "[grid]") {
  SECTION("long_tail at 20,000 shapes, automatic cell") {
    GeneratorParams p;
    p.n = 20'000;
    const Scene scene = generate(Family::long_tail, p);
    check(scene, 0.0f);
  }
  SECTION("mixed at 10,000 shapes on cells of 0.25: most shapes large") {
    GeneratorParams p;
    p.n = 10'000;
    const Scene scene = generate(Family::mixed, p);
    check(scene, 0.25f);
  }
  SECTION("every family and pathological layout on cells of 0.5") {
    for (const auto& [name, scene] : test::broadphase_scenes(3000)) {
      INFO(name);
      check(scene, 0.5f);
    }
  }
}

TEST_CASE("a grid without large shapes has no spans", "[grid]") {
  GeneratorParams p;
  p.n = 3000;
  const Scene scene = generate(Family::uniform, p);
  const HomeGrid grid = build(scene, 64.0f);
  REQUIRE(grid.large_ids().empty());
  CHECK(LargeSpans::build(grid, KindRanges::of(scene)).row_count() == 0);
  const HomeGrid empty;
  CHECK(LargeSpans::build(empty, KindRanges{}).row_count() == 0);
}
