// The tiled grid on its own (tiled_grid.hpp): TiledGrid::build and the large_large_pairs
// pass over every shape of every family and pathological layout, on cells from far too
// small to far too large and the automatic one, with the shapes' own global indices or a
// subset's, on 1, 2 and 8 threads: the merged keys must be exactly the brute-force pairs
// (of the subset). And the grid's size: an entry per shape at least, none when empty.
#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <vector>

#include "cell_size.hpp"
#include "hitgrid/broadphase/brute_force.hpp"
#include "hitgrid/simd/isa.hpp"
#include "packed_shapes.hpp"
#include "pair_batch.hpp"
#include "sorted_pairs.hpp"
#include "support/pathological_scenes.hpp"
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
    for (int log2_cell = -3; log2_cell <= 6; ++log2_cell) cells.push_back(log2_cell);
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
