// The uniform grid broad phase: hitgrid's main method.
//
// Cells are closed squares of a power-of-two side (grid_cells.hpp), grouped into tiles
// of 16 x 16 cells so that each tile's work fits in the L1 cache:
//   1. Every shape packed with its bounds (32 bytes); the cell size chosen from the
//      shapes' typical extent unless given.
//   2. Every shape's footprint at tile granularity (segments: the tiles they cross, row by
//      row; circles and boxes: their bounding box's tiles), and one (tile, shape) entry per
//      tile, the shape carried along. Dense worlds: a parallel counting sort by tile (each
//      block of shapes counts, then writes its entries straight to their places). Sparse
//      worlds: a radix sort on the exact tile ids, so memory follows the entries, never the
//      world's area.
//   3. Per tile, in parallel: each entry's cells within the tile (segments: the cells they
//      actually cross; conservative, exact at cell edges and corners), a counting sort into
//      the tile's 256 cells, and per cell the candidate pairs: overlapping bounding boxes
//      (all pairs in a small cell, a sweep along the less overlapped axis in a crowded one),
//      then the exact test. A pair is reported only in the first cell, in row-major order,
//      that both footprints hold, so pairs that share many cells are not multiplied.
//   4. Per-thread pair lists joined once and radix sorted.
// The answer is exact and does not depend on the cell size or the thread count.
#pragma once

#include <cstdint>

#include "hitgrid/core/scene.hpp"
#include "hitgrid/core/shape_id.hpp"

namespace hitgrid {

struct GridOptions {
  /// Cell side; 0 chooses it from the shapes. Rounded to the power of two at or below it.
  float cell_size = 0.0f;
};

struct GridStats {
  double bounds_ms = 0.0;  // shapes packed, world extent, cell size
  double bucket_ms = 0.0;  // (tile, shape) entries counted, written and grouped by tile
  double pairs_ms = 0.0;   // per tile: cells, candidate pairs, exact tests
  double merge_ms = 0.0;   // per-thread lists joined and sorted
  double cell_size = 0.0;
  std::uint64_t entries = 0;     // (tile, shape) entries
  std::uint64_t tiles = 0;       // tiles holding at least one entry
  std::uint64_t candidates = 0;  // exact tests run
};

/// All colliding pairs, sorted, each once. Parallel over the calling TBB arena; the result
/// does not depend on the thread count or the cell size.
PairList uniform_grid_pairs(const Scene& scene, const GridOptions& options = {}, GridStats* stats = nullptr);

}  // namespace hitgrid
