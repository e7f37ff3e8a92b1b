// The tiled grid: the large shapes' pairs among themselves.
//
// Cells are closed squares of a power-of-two side (grid_cells.hpp), grouped into tiles
// of 16 x 16 cells so that each tile's work fits in the L1 cache:
//   1. Every shape's footprint at tile granularity (segments: the tiles they cross, row by
//      row; circles and boxes: their bounding box's tiles), and one (tile, shape) entry per
//      tile, the shape carried along. Dense worlds: a parallel counting sort by tile (each
//      block of shapes counts, then writes its entries straight to their places). Sparse
//      worlds: a radix sort on the exact tile ids, so memory follows the entries, never the
//      world's area.
//   2. Per tile, in parallel: each entry's cells within the tile (segments: the cells they
//      actually cross; conservative, exact at cell edges and corners), a counting sort into
//      the tile's 256 cells, and per cell the candidate pairs: overlapping bounding boxes
//      (all pairs in a small cell, a sweep along the less overlapped axis in a crowded one),
//      then the exact test. A pair is reported only in the first cell, in row-major order,
//      that both footprints hold, so pairs that share many cells are not multiplied.
// A shape here may span any number of cells: a long segment costs about rows + columns
// entries. (Shapes no larger than a cell go to the home-cell grid, home_grid.hpp, which
// stores each of them once.)
#pragma once

#include <cstdint>

#include "hitgrid/simd/isa.hpp"
#include "packed_shapes.hpp"
#include "pair_keys.hpp"

namespace hitgrid {

struct TiledGridInput {
  const UninitializedVector<ShapeRecord>& shapes;  // the shapes to pair up
  const std::uint32_t* global = nullptr;           // their global indices; null: 0, 1, 2, ...
  KindRanges kinds;                                // kinds of global indices
  PairKeyCodec keys;
  int log2_cell = 0;
  Isa isa = Isa::scalar;  // of the exact tests (concrete)
};

struct TiledGridStats {
  double bucket_ms = 0.0;        // (tile, shape) entries counted, written and grouped by tile
  double pairs_ms = 0.0;         // per tile: cells, candidate pairs, exact tests
  std::uint64_t entries = 0;     // (tile, shape) entries
  std::uint64_t tiles = 0;       // tiles holding at least one entry
  std::uint64_t candidates = 0;  // exact tests run
};

/// Appends the keys of every intersecting pair of the input shapes to `out`, unsorted; a
/// rare pair may appear twice. Parallel over the calling TBB arena.
void tiled_grid_pairs(const TiledGridInput& in, PairKeys& out, TiledGridStats& stats);

}  // namespace hitgrid
