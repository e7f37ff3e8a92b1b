// The tiled grid on its own (tiled_grid.hpp): TiledGrid::build and the large_large_pairs
// pass over every shape of every family and pathological layout, on cells from far too
// small to far too large and the automatic one, with the shapes' own global indices or a
// subset's, on 1, 2 and 8 threads: the merged keys must be exactly the brute-force pairs
// (of the subset). And the grid's size: an entry per shape at least, none when empty.
#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <vector>

#include "cell_size.hpp"
#include "hitgrid/broadphase/brute_force.hpp"
#include "hitgrid/broadphase/find_pairs.hpp"
#include "hitgrid/core/intersects.hpp"
#include "hitgrid/core/splitmix64.hpp"
#include "hitgrid/simd/isa.hpp"
#include "packed_shapes.hpp"
#include "pair_batch.hpp"
#include "sorted_pairs.hpp"
#include "support/pathological_scenes.hpp"
#include "support/sanitizer_builds.hpp"
#include "tiled_grid.hpp"

using namespace hitgrid;

namespace {

/// The pass over a built grid, its keys merged: sorted, each pair once.
PairList pairs_of(const TiledGrid& grid, const Scene& scene) {
  const KindRanges kinds = KindRanges::of(scene);
  const PairTestContext tests{resolve_isa(Isa::automatic), kinds, PairKeyCodec{bits_for(scene.size())}};
  PairKeys keys;
  large_large_pairs(grid, tests, keys);
  PairList out;
  sorted_unique_pairs(keys, tests.codec, kinds, out);
  return out;
}

/// Every third shape (global indices 0, 3, 6, ...) as records, with their global indices.
struct Subset {
  UninitializedVector<ShapeRecord> records;
  std::vector<std::uint32_t> global;
};

Subset every_third(const Scene& scene) {
  const KindRanges kinds = KindRanges::of(scene);
  Subset s;
  for (std::uint32_t i = 0; i < scene.size(); i += 3) {
    s.records.push_back(record_of(scene, kinds, i));
    s.global.push_back(i);
  }
  return s;
}

PairList restricted_to_every_third(const PairList& all, const KindRanges& kinds) {
  PairList out;
  for (const Pair& p : all)
    if (kinds.global(p.first()) % 3 == 0 && kinds.global(p.second()) % 3 == 0) out.push_back(p);
  return out;
}

}  // namespace

TEST_CASE("the tiled grid finds exactly the brute-force pairs of all shapes at every cell size", "[grid]") {
  for (const auto& [name, scene] : test::broadphase_scenes(3000)) {
    const PairList want = brute_force_pairs(scene);
    const UninitializedVector<ShapeRecord> shapes = pack_shapes(scene);
    const KindRanges kinds = KindRanges::of(scene);
    std::vector<int> cells;
    // Under TSan every third cell size: more sizes give the same tasks other numbers.
    for (int log2_cell = -3; log2_cell <= 6; log2_cell += test::tsan_build ? 3 : 1) cells.push_back(log2_cell);
    const int automatic = choose_log2_cell(shapes, scene_extent(shapes), 0.0f);
    cells.push_back(automatic);
    for (int log2_cell : cells) {
      INFO(name << ", log2 cell " << log2_cell << (log2_cell == automatic ? " (automatic)" : ""));
      const TiledGrid grid = TiledGrid::build(shapes, nullptr, kinds, log2_cell);
      CHECK(grid.cell_size() == std::ldexp(1.0, log2_cell));
      CHECK(grid.entries() >= shapes.size());
      const PairList got = pairs_of(grid, scene);
      CHECK(got.size() == want.size());
      CHECK(got == want);
    }
  }
}

TEST_CASE("the tiled grid of a subset with global indices finds exactly the subset's pairs", "[grid]") {
  for (const auto& [name, scene] : test::broadphase_scenes(3000)) {
    const KindRanges kinds = KindRanges::of(scene);
    const PairList want = restricted_to_every_third(brute_force_pairs(scene), kinds);
    const Subset subset = every_third(scene);
    const int automatic = choose_log2_cell(subset.records, scene_extent(subset.records), 0.0f);
    for (int log2_cell : {automatic, -2, 0, 3}) {
      INFO(name << ", every third shape, log2 cell " << log2_cell);
      const TiledGrid grid = TiledGrid::build(subset.records, subset.global.data(), kinds, log2_cell);
      CHECK(grid.entries() >= subset.records.size());
      const PairList got = pairs_of(grid, scene);
      CHECK(got.size() == want.size());
      CHECK(got == want);
    }
  }
}

TEST_CASE("the tiled grid's pairs do not depend on the thread count", "[grid]") {
  // Let arenas really have 8 threads on a 2-core machine (TBB caps workers otherwise).
  tbb::global_control allow(tbb::global_control::max_allowed_parallelism, 8);
  for (const auto& [name, scene] : test::broadphase_scenes(3000)) {
    const PairList want = brute_force_pairs(scene);
    const UninitializedVector<ShapeRecord> shapes = pack_shapes(scene);
    const KindRanges kinds = KindRanges::of(scene);
    const int automatic = choose_log2_cell(shapes, scene_extent(shapes), 0.0f);
    for (int log2_cell : {automatic, -1}) {
      for (int threads : {1, 2, 8}) {
        if (test::tsan_build && threads == 1) continue;  // support/sanitizer_builds.hpp
        INFO(name << ", log2 cell " << log2_cell << ", " << threads << " threads");
        PairList got;
        std::uint64_t entries = 0;
        // Build and pass both in the arena: both are parallel over the calling arena.
        tbb::task_arena(threads).execute([&] {
          const TiledGrid grid = TiledGrid::build(shapes, nullptr, kinds, log2_cell);
          entries = grid.entries();
          got = pairs_of(grid, scene);
        });
        CHECK(entries >= shapes.size());
        CHECK(got == want);
      }
    }
  }
}

TEST_CASE("cells too small for the shapes are coarsened until the footprints fit the budget", "[grid]") {
  // Eight boxes of the world's size (2^20) and two diagonals across it: the budget is 2^20
  // cells. On cells of 2^11 the boxes cover 8 x 514^2 > 2^20 cells (closed spans: 512 + 2
  // a side); on cells of 2^12, 8 x 258^2 plus at most 4 x 258 per diagonal fit: the cells
  // become 2^12, the finest that fit. Tiles of 16 cells, 18 a side: 8 x 18^2 entries for
  // the boxes, and 3 x 18 - 2 per diagonal through the tiles' corners (three closed tiles
  // a row, two in the end rows).
  Scene scene;
  for (int i = 0; i < 8; ++i) scene.add(Box{{0.0f, 0.0f}, {0x1p20f, 0x1p20f}});
  scene.add(Segment{{0.0f, 0.0f}, {0x1p20f, 0x1p20f}});
  scene.add(Segment{{0.0f, 0x1p20f}, {0x1p20f, 0.0f}});
  const UninitializedVector<ShapeRecord> shapes = pack_shapes(scene);
  const KindRanges kinds = KindRanges::of(scene);
  REQUIRE(TiledGrid::cell_budget(shapes.size()) == std::uint64_t{1} << 20);
  for (int log2_cell : {-20, 0, 11, 12}) {
    INFO("requested log2 cell " << log2_cell);
    const TiledGrid grid = TiledGrid::build(shapes, nullptr, kinds, log2_cell);
    CHECK(grid.cell_size() == 0x1p12);
    CHECK(grid.entries() == 8u * 18u * 18u + 2u * 52u);
    CHECK(pairs_of(grid, scene) == brute_force_pairs(scene));
  }
  // A cell that fits is kept.
  CHECK(TiledGrid::build(shapes, nullptr, kinds, 13).cell_size() == 0x1p13);
}

TEST_CASE("find_pairs with a tiny requested cell and world-sized shapes stays within the budget", "[grid]") {
  // The fuzzer's case: a few shapes as large as the world (1e30) on cells of 2^-100.
  Scene scene;
  for (int i = 0; i < 6; ++i) scene.add(Box{{-1e30f, -1e30f}, {1e30f + static_cast<float>(i) * 1e24f, 1e30f}});
  scene.add(Segment{{-1e30f, -1e30f}, {1e30f, 1e30f}});
  scene.add(Circle{{0.0f, 0.0f}, 1e30f});
  scene.add(Segment{{1.0f, 1.0f}, {2.0f, 2.0f}});
  for (float cell : {0x1p-100f, 1.0f}) {
    FindPairsOptions o;
    o.cell_size = cell;
    o.large_cell_size = cell;
    FindPairsReport report;
    INFO("requested cell " << cell);
    CHECK(find_pairs(scene, o, &report) == brute_force_pairs(scene));
    CHECK(report.tiled_entries <= TiledGrid::cell_budget(scene.size()));
    CHECK(report.large_cell_size > cell);
  }
}

TEST_CASE("an empty tiled grid has no entries and gives no pairs", "[grid]") {
  Scene scene;
  scene.add(Segment{{0, 0}, {1, 1}});
  scene.add(Segment{{0, 1}, {1, 0}});
  const KindRanges kinds = KindRanges::of(scene);
  const PairTestContext tests{resolve_isa(Isa::automatic), kinds, PairKeyCodec{bits_for(scene.size())}};

  SECTION("default-constructed") {
    const TiledGrid grid;
    CHECK(grid.entries() == 0);
    CHECK(grid.cell_size() == 0.0);
    PairKeys keys;
    CHECK(large_large_pairs(grid, tests, keys) == 0);
    CHECK(keys.chunks().empty());
  }
  SECTION("built from no shapes") {
    const UninitializedVector<ShapeRecord> none;
    for (int log2_cell : {-3, 0, 6}) {
      const TiledGrid grid = TiledGrid::build(none, nullptr, kinds, log2_cell);
      CHECK(grid.entries() == 0);
      PairKeys keys;
      CHECK(large_large_pairs(grid, tests, keys) == 0);
      CHECK(keys.chunks().empty());
    }
  }
  SECTION("one shape: its entries, no pair") {
    UninitializedVector<ShapeRecord> one;
    one.push_back(record_of(scene, kinds, 1));
    const std::uint32_t global[] = {1};
    const TiledGrid grid = TiledGrid::build(one, global, kinds, -3);
    CHECK(grid.entries() >= 1);
    CHECK(pairs_of(grid, scene).empty());
  }
  SECTION("the two crossing segments: their one pair") {
    const UninitializedVector<ShapeRecord> both = pack_shapes(scene);
    const TiledGrid grid = TiledGrid::build(both, nullptr, kinds, -3);
    CHECK(grid.entries() >= 2);
    CHECK(pairs_of(grid, scene) == PairList{Pair({ShapeKind::segment, 0}, {ShapeKind::segment, 1})});
  }
}

TEST_CASE("a line's query lists the shapes of the tiles along it, not of its bounding box", "[grid]") {
  // 4,000 walls of length 20 spread over a 10,000-unit square, on cells of 8 (tiles of
  // 128): a diagonal cast across the square has the whole square as its bounding box, but
  // touches only about 3 tiles of the 79 in each row, and of their walls it passes the
  // bounds of few. Every wall it meets is listed, and only those near it: far fewer than
  // shapes_near gives for the same box.
  Scene scene;
  SplitMix64 random(3);
  auto coordinate = [&] { return static_cast<float>(random.u() * 10000.0); };
  for (int i = 0; i < 4000; ++i) {
    const Vec2 a{coordinate(), coordinate()};
    const double angle = random.u() * 6.283185307179586;
    scene.add(
        Segment{a, {a.x + static_cast<float>(20 * std::cos(angle)), a.y + static_cast<float>(20 * std::sin(angle))}});
  }
  const UninitializedVector<ShapeRecord> shapes = pack_shapes(scene);
  const TiledGrid grid = TiledGrid::build(shapes, nullptr, KindRanges::of(scene), 3);
  REQUIRE(grid.cell_size() == 8.0);
  for (const Segment& cast : {Segment{{0, 0}, {10000, 10000}}, Segment{{-50, 9000}, {10050, 500}},
                              Segment{{3, 10000}, {2.5f, 0}}, Segment{{0, 4321}, {10000, 4321}}}) {
    INFO("cast " << cast.a.x << " " << cast.a.y << " to " << cast.b.x << " " << cast.b.y);
    const Aabb box = bounds(cast);
    CachedVector<TiledGrid::NearShape> along, near;
    grid.shapes_along_line(cast.a, double{cast.b.x} - cast.a.x, double{cast.b.y} - cast.a.y, box, along);
    grid.shapes_near(box, near);
    std::vector<std::uint32_t> listed;
    for (const TiledGrid::NearShape& s : along) listed.push_back(s.shape);
    std::sort(listed.begin(), listed.end());
    listed.erase(std::unique(listed.begin(), listed.end()), listed.end());
    std::size_t met = 0;
    for (std::uint32_t i = 0; i < scene.segment_count(); ++i)
      if (intersects(cast, scene.segment(i))) {
        ++met;
        CHECK(std::binary_search(listed.begin(), listed.end(), i));
      }
    CHECK(met > 0);
    CHECK(listed.size() < 3 * met + 20);  // the walls whose bounds it crosses
    // The two long diagonals' boxes cover most of the square.
    if (box.max.x - box.min.x > 5000 && box.max.y - box.min.y > 5000) CHECK(near.size() > 3000);
  }
}
