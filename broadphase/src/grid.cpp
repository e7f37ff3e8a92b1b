#include "grid.hpp"

#include <algorithm>
#include <limits>

#include "cell_size.hpp"
#include "home_grid_pairs.hpp"
#include "sorted_pairs.hpp"

namespace hitgrid {

Grid build_grid(const Scene& scene, const FindPairsOptions& options, Isa isa, StageClock& clock,
                HomeGrid::RowListener* rows) {
  Grid g;
  g.kinds = KindRanges::of(scene);
  g.shapes = scene.size();
  const SceneExtent extent = scene_extent(scene);
  const HomeCells home = choose_home_cells(scene, extent, options.cell_size);
  clock.lap("plan");
  if (home.many_large) {
    g.tiled_only = true;
    const UninitializedVector<ShapeRecord> shapes = pack_shapes(scene);
    g.tiled = TiledGrid::build(shapes, nullptr, g.kinds,
                               choose_log2_cell(shapes, scene_extent(shapes), options.large_cell_size));
  } else {
    g.home = HomeGrid::build(scene, g.kinds, home.log2_cell, extent, isa, rows);
    g.spans = LargeSpans::build(g.home, g.kinds);
    const UninitializedVector<ShapeRecord>& large = g.home.large_records();
    if (large.size() >= 2) {
      // Never finer than the home cells: the large shapes span more than two of those.
      const int log2_cell =
          std::max(home.log2_cell, choose_log2_cell(large, scene_extent(large), options.large_cell_size));
      g.tiled = TiledGrid::build(large, g.home.large_ids().data(), g.kinds, log2_cell);
    }
  }
  clock.lap("build");
  return g;
}

Grid find_grid_pairs(const Scene& scene, const FindPairsOptions& options, Isa isa, StageClock& clock,
                     std::uint64_t& candidates, PairList& out) {
  const KindRanges kinds = KindRanges::of(scene);
  const PairTestContext tests{isa, kinds, PairKeyCodec{bits_for(scene.size())}};
  SmallPairs small(tests);
  Grid grid = build_grid(scene, options, isa, clock, &small);
  PairKeys keys;
  candidates += small.finish(grid.home, keys);
  clock.lap("small_pairs");
  candidates += large_small_pairs(grid.home, grid.spans, tests, keys);
  clock.lap("large_small_pairs");
  candidates += large_large_pairs(grid.tiled, tests, keys);
  clock.lap("large_large_pairs");
  sorted_unique_pairs(keys, tests.codec, kinds, out);
  clock.lap("merge");
  return grid;
}

}  // namespace hitgrid
