// The home-cell grid's order itself (HomeGrid::order_hash): what the grid-build benchmark
// prints, and what the search's answer rests on. It must not depend on the thread count:
// the counting sort by row uses fixed blocks of shapes and stable scatters, and each row
// is sorted on its own. And the grid's invariants: every small shape once, in its home
// cell's row, rows in column order, the large shapes aside in global order.
#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <bit>
#include <catch2/catch.hpp>
#include <cstring>
#include <limits>
#include <mutex>
#include <string>
#include <vector>

#include "cell_size.hpp"
#include "hitgrid/broadphase/brute_force.hpp"
#include "hitgrid/broadphase/find_pairs.hpp"
#include "hitgrid/core/detail/fnv1a.hpp"
#include "hitgrid/core/generators.hpp"
#include "home_grid.hpp"
#include "support/pathological_scenes.hpp"

using namespace hitgrid;

namespace {

HomeGrid build(const Scene& scene, float cell = 0.0f) {
  const SceneExtent extent = scene_extent(scene);
  return HomeGrid::build(scene, KindRanges::of(scene), choose_home_cells(scene, extent, cell).log2_cell, extent,
                         resolve_isa(Isa::automatic));
}

std::uint64_t order_on(const Scene& scene, int threads) {
  std::uint64_t order = 0;
  tbb::task_arena(threads).execute([&] { order = build(scene).order_hash(); });
  return order;
}

}  // namespace

TEST_CASE("the home grid's order does not depend on the thread count", "[grid]") {
  tbb::global_control allow(tbb::global_control::max_allowed_parallelism, 8);
  for (Family family : all_families) {
    GeneratorParams p;
    p.n = 120'000;  // several of the counting sort's blocks (2^14 shapes each)
    const Scene scene = generate(family, p);
    INFO(family_name(family));
    const std::uint64_t one = order_on(scene, 1);
    for (int threads : {2, 4, 8}) CHECK(order_on(scene, threads) == one);
    // Not the input order: the grid did sort the shapes.
    Fnv1a input;
    for (std::uint64_t i = 0; i < scene.size(); ++i) input.add_u64(i);
    CHECK(one != input.value());
  }
}

TEST_CASE("the home grid holds every small shape once, in its home row and column order", "[grid]") {
  for (const auto& [name, scene] : test::broadphase_scenes(3000)) {
    for (float cell : {0.0f, 0.5f, 4.0f}) {
      INFO(name << ", cell " << cell);
      const HomeGrid g = build(scene, cell);
      const KindRanges kinds = KindRanges::of(scene);
      std::vector<int> seen(scene.size(), 0);
      for (std::uint32_t i : g.large_ids()) ++seen[i];
      CHECK(std::is_sorted(g.large_ids().begin(), g.large_ids().end()));
      const HomeGrid::Columns c = g.columns();
      bool ordered = true, home = true, small = true;
      for (const HomeGrid::Row& row : g.rows()) {
        for (std::uint32_t p = row.begin; p < row.end; ++p) {
          const std::uint32_t shape = g.shape_at(p);
          ++seen[shape];
          const Aabb box = record_of(scene, kinds, shape).box;
          home &= box.min.x == c.minx[p] && box.min.y == c.miny[p] && box.max.x == c.maxx[p] && box.max.y == c.maxy[p];
          home &= g.cells().index(box.min.y) - g.row0() == row.row;
          small &= is_small(g.cells(), box);
          if (p > row.begin) ordered &= g.col_of(p - 1) <= g.col_of(p);
        }
      }
      CHECK(ordered);
      CHECK(home);
      CHECK(small);
      CHECK(std::all_of(seen.begin(), seen.end(), [](int s) { return s == 1; }));
      for (std::size_t i = 0; i < g.large_ids().size(); ++i)
        CHECK(!is_small(g.cells(), record_of(scene, kinds, g.large_ids()[i]).box));
    }
  }
}

TEST_CASE("row_range finds the rows held within a span of rows, on dense and sparse grids", "[grid]") {
  // Dense grids take the direct lookup, sparse ones (clustered, few shapes on a fine grid)
  // the binary search: both against a scan of the rows.
  for (const auto& [name, scene] : test::broadphase_scenes(3000)) {
    for (float cell : {0.0f, 0.5f, 4.0f}) {
      INFO(name << ", cell " << cell);
      const HomeGrid g = build(scene, cell);
      const std::span<const HomeGrid::Row> rows = g.rows();
      const std::int64_t top = rows.empty() ? 0 : rows.back().row;
      bool all = true;
      for (std::int64_t first = -3; first <= top + 3; ++first)
        for (std::int64_t last : {first - 1, first, first + 1, first + 2, top, top + 5}) {
          std::size_t a = 0;
          while (a < rows.size() && rows[a].row < first) ++a;
          std::size_t b = a;
          while (b < rows.size() && rows[b].row <= last) ++b;
          all &= g.row_range(first, last) == std::pair<std::size_t, std::size_t>{a, last < first ? a : b};
        }
      CHECK(all);
      CHECK(g.row_range(0, std::numeric_limits<std::int64_t>::max()) ==
            std::pair<std::size_t, std::size_t>{0, rows.size()});
    }
  }
}

namespace {

/// Records, for each row reported final, the shapes it held at that moment.
class RecordingListener final : public HomeGrid::RowListener {
 public:
  void rows_listed(const HomeGrid& grid) override {
    grid_ = &grid;
    ++listed;
    seen.assign(grid.rows().size(), {});
    reported.assign(grid.rows().size(), 0);
  }
  void rows_final(std::size_t first, std::size_t last, std::size_t readable_end) override {
    std::lock_guard<std::mutex> lock(mutex_);
    // At least the reported rows, at most the columns (padding included).
    if (readable_end < grid_->rows()[last - 1].end || readable_end > grid_->small_count() + HomeGrid::column_padding)
      ++bad_readable_end;
    for (std::size_t k = first; k < last; ++k) {
      ++reported[k];
      const HomeGrid::Row& row = grid_->rows()[k];
      for (std::uint32_t p = row.begin; p < row.end; ++p) seen[k].push_back(grid_->shape_at(p));
    }
  }
  int listed = 0;
  int bad_readable_end = 0;
  std::vector<std::vector<std::uint32_t>> seen;
  std::vector<int> reported;

 private:
  const HomeGrid* grid_ = nullptr;
  std::mutex mutex_;
};

}  // namespace

TEST_CASE("the home grid reports each row once, already as the built grid holds it", "[grid]") {
  tbb::global_control allow(tbb::global_control::max_allowed_parallelism, 8);
  int dense = 0;  // scenes whose rows were reported
  for (const auto& [name, scene] : test::broadphase_scenes(5000)) {
    const SceneExtent extent = scene_extent(scene);
    const KindRanges kinds = KindRanges::of(scene);
    for (int threads : {1, 2, 4}) {
      INFO(name << ", " << threads << " threads");
      RecordingListener listener;
      HomeGrid grid;
      tbb::task_arena(threads).execute([&] {
        grid = HomeGrid::build(scene, kinds, choose_home_cells(scene, extent, 0.0f).log2_cell, extent,
                               resolve_isa(Isa::automatic), &listener);
      });
      if (listener.listed == 0) continue;  // a sparse world: bucketed by cell, no rows reported
      ++dense;
      CHECK(listener.listed == 1);
      CHECK(listener.bad_readable_end == 0);
      REQUIRE(listener.reported.size() == grid.rows().size());
      for (std::size_t k = 0; k < grid.rows().size(); ++k) {
        INFO("row " << k);
        REQUIRE(listener.reported[k] == 1);
        const HomeGrid::Row& row = grid.rows()[k];
        std::vector<std::uint32_t> now;
        for (std::uint32_t p = row.begin; p < row.end; ++p) now.push_back(grid.shape_at(p));
        CHECK(listener.seen[k] == now);
      }
    }
  }
  CHECK(dense > 0);
}

TEST_CASE("a row far wider than it is full is sorted by left edge by comparisons, with the same pairs", "[grid]") {
  // One row of 100 clusters a thousand cells apart, three overlapping circles each, in
  // reverse order of x: the row's columns span 99,000 cells for 300 shapes, too many to
  // count (HomeGrid::Builder::sort_row), so it is sorted outright by left edge.
  Scene scene;
  for (int c = 99; c >= 0; --c)
    for (int k = 2; k >= 0; --k)
      scene.add(Circle{{1000.0f * static_cast<float>(c) + 0.25f * static_cast<float>(k), 0.5f}, 0.3f});
  const SceneExtent extent = scene_extent(scene);
  const HomeGrid g = HomeGrid::build(scene, KindRanges::of(scene), 0, extent, resolve_isa(Isa::automatic));
  REQUIRE(g.rows().size() == 1);
  const HomeGrid::Row& row = g.rows()[0];
  CHECK(row.by_left);
  CHECK(row.crowded);
  const HomeGrid::Columns c = g.columns();
  CHECK(std::is_sorted(c.minx + row.begin, c.minx + row.end));
  FindPairsOptions o;
  o.cell_size = 1.0f;
  for (Isa isa : {Isa::scalar, Isa::automatic}) {
    o.isa = isa;
    CHECK(find_pairs(scene, o) == brute_force_pairs(scene));
  }
  CHECK(brute_force_pairs(scene).size() == 300);  // each cluster's three pairs
}

TEST_CASE("the home grid's vector build stages equal their scalar twins", "[grid]") {
  // Isa::scalar runs row_boxes and store_row one shape at a time; SSE2 takes segments four
  // at a time in lanes. Both keep each cell's shapes in the same order (neither searches
  // in tiles), so the grids must be the same to the bit: rows, flags, columns, items.
  std::vector<test::NamedScene> scenes = test::broadphase_scenes(3000);
  for (Family family : all_families) {
    GeneratorParams p;
    p.n = 20'000;
    scenes.push_back({std::string(family_name(family)), generate(family, p)});
  }
  for (const auto& [name, scene] : scenes) {
    for (float cell : {0.0f, 0.5f, 4.0f}) {
      INFO(name << ", cell " << cell);
      const SceneExtent extent = scene_extent(scene);
      const KindRanges kinds = KindRanges::of(scene);
      const int log2_cell = choose_home_cells(scene, extent, cell).log2_cell;
      const HomeGrid lanes = HomeGrid::build(scene, kinds, log2_cell, extent, Isa::sse2);
      const HomeGrid scalar = HomeGrid::build(scene, kinds, log2_cell, extent, Isa::scalar);
      REQUIRE(lanes.rows().size() == scalar.rows().size());
      REQUIRE(lanes.small_count() == scalar.small_count());
      bool rows = true, boxes = true, items = true;
      for (std::size_t k = 0; k < lanes.rows().size(); ++k) {
        const HomeGrid::Row &a = lanes.rows()[k], &b = scalar.rows()[k];
        rows &=
            a.row == b.row && a.begin == b.begin && a.end == b.end && a.crowded == b.crowded && a.by_left == b.by_left;
      }
      const HomeGrid::Columns a = lanes.columns(), b = scalar.columns();
      for (std::uint32_t p = 0; p < lanes.small_count(); ++p) {
        // Bit for bit: a zero's sign too.
        boxes &= std::bit_cast<std::uint32_t>(a.minx[p]) == std::bit_cast<std::uint32_t>(b.minx[p]) &&
                 std::bit_cast<std::uint32_t>(a.miny[p]) == std::bit_cast<std::uint32_t>(b.miny[p]) &&
                 std::bit_cast<std::uint32_t>(a.maxx[p]) == std::bit_cast<std::uint32_t>(b.maxx[p]) &&
                 std::bit_cast<std::uint32_t>(a.maxy[p]) == std::bit_cast<std::uint32_t>(b.maxy[p]);
        const HomeGrid::Item &x = lanes.item_at(p), &y = scalar.item_at(p);
        items &= x.shape == y.shape && std::memcmp(x.g, y.g, sizeof x.g) == 0;
      }
      CHECK(rows);
      CHECK(boxes);
      CHECK(items);
    }
  }
}
