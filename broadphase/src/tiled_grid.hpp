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
// stores each of them once.) Step 1 is the build, step 2 the pass (large_large_pairs),
// which reads the grid and never changes it.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "packed_shapes.hpp"
#include "pair_batch.hpp"
#include "pair_keys.hpp"
#include "uninitialized_vector.hpp"

namespace hitgrid {

class TiledGrid {
 public:
  TiledGrid();
  ~TiledGrid();
  TiledGrid(TiledGrid&&) noexcept;
  TiledGrid& operator=(TiledGrid&&) noexcept;

  /// The grid of `shapes` (global indices global[i], or i if global is null) on cells of
  /// side 2^log2_cell, or on the finest cells twice, four times... as large on which the
  /// footprints cover at most cell_budget cells (bounded memory and time whatever cell is
  /// asked for: a box of the world's size on tiny cells would otherwise take a hit per
  /// cell of its area, and an entry per tile).
  /// Parallel over the calling TBB arena.
  static TiledGrid build(const UninitializedVector<ShapeRecord>& shapes, const std::uint32_t* global,
                         const KindRanges& kinds, int log2_cell);

  /// (tile, shape) entries.
  std::uint64_t entries() const;
  /// The cells the footprints of `shapes` shapes may cover in all, at most: 256 per
  /// shape, or 2^20 if more. (Entries, one per covered tile, are fewer.)
  static std::uint64_t cell_budget(std::size_t shapes);
  /// The cells' side (0 for a default-constructed grid, which holds no shape).
  double cell_size() const;

  /// A shape found by shapes_near: its global index and geometry (ShapeRecord::g).
  struct NearShape {
    std::uint32_t shape;
    float g[4];
  };
  /// The query pass: appends every shape whose footprint touches a tile that `box`
  /// touches and whose bounds overlap `box`; a shape spanning several such tiles is
  /// appended once per tile (the caller drops repeats). Every shape that intersects the
  /// closed box is among them.
  void shapes_near(const Aabb& box, CachedVector<NearShape>& out) const;
  /// The same for a piece of a line within `box`, the line through p with direction
  /// (dx, dy) (within 2^-52 relative of the exact one): only the tiles the piece touches,
  /// and of their shapes only those whose bounds the line may meet, so that a long cast
  /// costs the shapes along it. Every shape that meets the piece is among them.
  void shapes_along_line(Vec2 p, double dx, double dy, const Aabb& box, CachedVector<NearShape>& out) const;

 private:
  struct Impl;
  CachedPtr<Impl> impl_;
  friend std::uint64_t large_large_pairs(const TiledGrid& grid, const PairTestContext& tests, PairKeys& out);
};

/// The pass: appends the keys of every intersecting pair of the grid's shapes to `out`,
/// unsorted; a rare pair may appear twice (the final sort drops repeats). Returns the exact
/// tests run. Parallel over the calling TBB arena.
std::uint64_t large_large_pairs(const TiledGrid& grid, const PairTestContext& tests, PairKeys& out);

}  // namespace hitgrid
