// The uniform grid broad phase: hitgrid's main method.
//
//   1. Bounds of every shape; the cell size (a power of two, from the shapes' typical
//      extent unless given).
//   2. Each shape's footprint: the cells it touches (segments: the cells they cross, row by
//      row; circles and boxes: their bounding box's cells). Counting the footprints,
//      a prefix sum, then every (cell, shape) entry written in parallel.
//   3. The entries sorted by cell with a parallel radix sort (a counting sort per digit),
//      and the shapes' bounding boxes copied into that order so that a cell's shapes are
//      contiguous.
//   4. Per cell, candidate pairs: bounding boxes that overlap (all pairs in a small cell,
//      a sweep on x in a crowded one), then the exact test.
//   5. Per-thread pair buffers joined once, radix sorted, duplicates (pairs that share
//      several cells) removed.
// Cells are addressed by their (row, column) mapped densely when the grid is small
// enough, and hashed into a table as large as the entry list otherwise, so memory is linear
// in shapes plus pairs however sparse the world. A hash collision only adds candidates.
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
  double bounds_ms = 0.0;    // bounding boxes, cell size, footprint counts
  double bucket_ms = 0.0;    // entries written, radix sorted, copied into cell order
  double pairs_ms = 0.0;     // candidate pairs and exact tests
  double merge_ms = 0.0;     // buffers joined, sorted, deduplicated
  double cell_size = 0.0;
  std::uint64_t entries = 0;     // (cell, shape) entries
  std::uint64_t buckets = 0;     // cell table size
  bool hashed = false;           // cells hashed (sparse world) rather than dense
  std::uint64_t candidates = 0;  // exact tests run
};

/// All colliding pairs, sorted, each once. Parallel over the calling TBB arena; the result
/// does not depend on the thread count or the cell size.
PairList uniform_grid_pairs(const Scene& scene, const GridOptions& options = {}, GridStats* stats = nullptr);

}  // namespace hitgrid
