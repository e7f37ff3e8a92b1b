// The uniform grid broad phase: hitgrid's main method.
//
// Cells are closed squares of a power-of-two side, so cell indices are exact. Two grids
// share the work:
//   1. Every shape packed with its bounds (32 bytes); the cell side chosen from the
//      shapes' extents (95th percentile) unless given.
//   2. The home-cell grid (broadphase/src/home_grid.hpp) stores every small shape (one
//      that spans at most two cells each way: nearly all of them) once, in the cell of its
//      lower-left corner, sorted by cell with a parallel radix sort. Small pairs are found
//      between each cell and the four neighbours after it, each pair exactly once; each
//      large shape visits the home cells near its footprint (segments: the cells they
//      actually cross, conservatively) for its pairs with small shapes.
//   3. The tiled grid (broadphase/src/tiled_grid.hpp) pairs the large shapes among
//      themselves: segments occupy the cells they cross, boxes and circles their bounding
//      box's cells, grouped by 16 x 16 tiles that fit in the L1 cache; a pair is reported
//      only in the first cell both footprints hold.
//   4. Candidates pass a bounding-box test, then the exact test; per-thread pair lists are
//      joined once and radix sorted.
// The answer is exact and does not depend on the cell sizes or the thread count.
#pragma once

#include <cstdint>

#include "hitgrid/core/scene.hpp"
#include "hitgrid/core/shape_id.hpp"
#include "hitgrid/simd/isa.hpp"

namespace hitgrid {

struct GridOptions {
  /// Home-cell grid's cell side; 0 chooses it from the shapes. Rounded down to a power of
  /// two. Shapes spanning more than two of these cells either way are large.
  float cell_size = 0.0f;
  /// Tiled grid's cell side (large shapes); 0 chooses it from the large shapes.
  float large_cell_size = 0.0f;
  /// Instruction set of the exact tests; the answer is the same on every one.
  Isa isa = Isa::automatic;
};

struct GridStats {
  double bounds_ms = 0.0;       // shapes packed, world extent, cell size
  double bucket_ms = 0.0;       // small shapes sorted by home cell; large shapes' tile entries
  double pairs_ms = 0.0;        // small with small
  double large_ms = 0.0;        // large with small
  double large_large_ms = 0.0;  // large with large (the tiled grid)
  double merge_ms = 0.0;        // per-thread lists joined and sorted
  double cell_size = 0.0;
  double large_cell_size = 0.0;
  Isa isa = Isa::scalar;  // the ISA the exact tests ran on
  std::uint64_t small_shapes = 0;
  std::uint64_t large_shapes = 0;
  std::uint64_t entries = 0;     // the large shapes' (tile, shape) entries
  std::uint64_t candidates = 0;  // exact tests run
};

/// All colliding pairs, sorted, each once. Parallel over the calling TBB arena; the result
/// does not depend on the thread count or the cell sizes.
PairList uniform_grid_pairs(const Scene& scene, const GridOptions& options = {}, GridStats* stats = nullptr);

}  // namespace hitgrid
