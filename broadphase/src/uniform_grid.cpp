#include "hitgrid/broadphase/uniform_grid.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "cell_size.hpp"
#include "hitgrid/core/detail/stopwatch.hpp"
#include "home_grid.hpp"
#include "sorted_pairs.hpp"
#include "tiled_grid.hpp"

namespace hitgrid {
namespace {

/// Pairs among `records` (global indices in `global`, or 0, 1, ... if null) on the tiled
/// grid, with cells no smaller than 2^min_log2.
void tiled_pairs(const UninitializedVector<ShapeRecord>& records, const std::uint32_t* global, const KindRanges& kinds,
                 PairKeyCodec codec, int min_log2, const GridOptions& options, PairKeys& out, GridStats& stats) {
  const int log2_cell = std::max(min_log2, choose_log2_cell(records, scene_extent(records), options.large_cell_size));
  stats.large_cell_size = std::ldexp(1.0, log2_cell);
  TiledGridStats tiled;
  tiled_grid_pairs({records, global, kinds, codec, log2_cell, stats.isa}, out, tiled);
  stats.bucket_ms += tiled.bucket_ms;
  stats.large_large_ms = tiled.pairs_ms;
  stats.entries = tiled.entries;
  stats.candidates += tiled.candidates;
}

}  // namespace

PairList uniform_grid_pairs(const Scene& scene, const GridOptions& options, GridStats* stats_out) {
  GridStats stats;
  Stopwatch clock;
  const KindRanges kinds = KindRanges::of(scene);
  const PairKeyCodec codec{bits_for(scene.size())};
  const SceneExtent extent = scene_extent(scene);
  const int log2_home = choose_home_log2_cell(scene, extent, options.cell_size);
  stats.cell_size = std::ldexp(1.0, log2_home);
  stats.bounds_ms = clock.lap_ms();

  PairKeys keys;
  HomeGridStats home_stats;
  // An explicit cell size is obeyed even where the tiled grid alone would be faster.
  stats.isa = resolve_isa(options.isa);
  HomeGrid home(scene, kinds, codec, log2_home, extent, options.cell_size == 0.0f, stats.isa, home_stats);
  stats.bucket_ms = home_stats.bucket_ms;
  if (home.many_large()) {
    clock.lap_ms();
    const UninitializedVector<ShapeRecord> shapes = pack_shapes(scene);
    stats.bounds_ms += clock.lap_ms();
    stats.large_shapes = shapes.size();
    tiled_pairs(shapes, nullptr, kinds, codec, std::numeric_limits<int>::min(), options, keys, stats);
    stats.cell_size = stats.large_cell_size;
  } else {
    home.pairs_among(keys);
    home.pairs_with_large(keys);
    stats.pairs_ms = home_stats.pairs_ms;
    stats.large_ms = home_stats.large_ms;
    stats.small_shapes = home_stats.small;
    stats.candidates = home_stats.candidates;
    stats.large_shapes = home.large_ids().size();
    if (home.large_ids().size() >= 2)
      tiled_pairs(home.large_records(), home.large_ids().data(), kinds, codec, log2_home, options, keys, stats);
  }
  clock.lap_ms();
  PairList out = sorted_unique_pairs(keys, codec, kinds);
  stats.merge_ms = clock.lap_ms();
  if (stats_out) *stats_out = stats;
  return out;
}

}  // namespace hitgrid
