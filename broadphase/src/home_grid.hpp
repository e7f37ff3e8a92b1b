// The home-cell grid: the small shapes, each stored once, in its home cell.
//
// A shape is small when its bounding box spans at most two columns and two rows of cells
// (is_small in grid_cells.hpp; every shape no larger than a cell is). Each small shape is
// stored once, in its home cell: the cell of its bounding box's lower-left corner. Two
// small shapes can only touch if their home cells are neighbours (columns and rows differ
// by at most one), so a cell need only be paired with itself, the cell to its right and the
// three cells above (home_grid_pairs.cpp): every pair is met exactly once.
//
// The grid is built once (HomeGrid::build, home_grid_build.cpp) and then only read:
//   - rows(): the rows holding shapes, ascending; each row's shapes are in column order
//     (home column ascending; within a cell by left edge when the row's cells are full,
//     see Row::by_left, else in global order);
//   - columns(): the sorted shapes' bounding boxes as four float columns, padded past the
//     last shape by `column_padding` empty boxes (so that eight can be read from any
//     position), and item_at(): each sorted shape's global index and geometry, in the same
//     order (the passes read the geometry of a row's candidates while the row's boxes are
//     in the cache, so it is kept in order beside them, not reached through an index);
//   - the large shapes (not small), set aside with their records, in global order.
// The passes that read it (home_grid_pairs.cpp: small with small, large with small) and
// the world's queries never change it, and none depends on another having run.
//
// A pass may also read rows while the build finishes them (RowListener): each row is
// final (sorted and stored, never to change) from the moment it is reported, and reading
// it then finds it in the cache of the thread that just wrote it, where reading the whole
// grid after the build would fetch every row from memory again.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cell_size.hpp"
#include "grid_cells.hpp"
#include "grid_kernels.hpp"
#include "hitgrid/simd/isa.hpp"
#include "packed_shapes.hpp"
#include "uninitialized_vector.hpp"

namespace hitgrid {

class HomeGrid {
 public:
  /// Empty boxes past the last shape of columns(): the searches read eight boxes at a time.
  static constexpr std::size_t column_padding = 8;

  struct Row {
    std::int64_t row;          // relative to row0()
    std::uint32_t begin, end;  // positions in columns()
    bool crowded;              // holds a cell of at least crowded_shapes shapes
    bool by_left;              // each cell's shapes sorted by left edge too (else only by column)
  };
  /// A small shape's global index and packed geometry (ShapeRecord::g).
  struct Item {
    std::uint32_t shape;
    float g[4];
  };
  /// The sorted shapes' boxes.
  struct Columns {
    const float *minx, *miny, *maxx, *maxy;
  };
  static constexpr std::uint32_t crowded_shapes = crowded_cell_shapes;

  /// Told of the rows as the build finishes them.
  class RowListener {
   public:
    /// Once, before any rows_final: columns() and rows() have their final size and
    /// positions (rows() their row, begin and end; the shapes not yet in order, and the
    /// flags not yet set).
    virtual void rows_listed(const HomeGrid& grid) = 0;
    /// rows()[first, last) are final. Called from the build's tasks, concurrently for
    /// disjoint ranges; a row is reported at most once, and the rows of a sparse world
    /// (bucketed by cell) not at all. The grid passed to rows_listed is the one being
    /// built: build's result is a move of it (the same buffers).
    /// `readable_end`: no other task writes columns() before this position (and at or
    /// after rows()[first].begin) while the call runs: the rest of the calling task's rows
    /// lie there, which it sorts after the call. Past it, other tasks may be storing their
    /// rows: a read there, even of lanes a search then drops (the eight-wide loads that
    /// run past a row's end), would be a data race.
    virtual void rows_final(std::size_t first, std::size_t last, std::size_t readable_end) = 0;

   protected:
    ~RowListener() = default;
  };

  HomeGrid() : cells_(0) {}
  /// Every small shape of the scene in its home cell, the rows sorted; the large shapes
  /// aside. The order does not depend on the thread count. `isa` (concrete) picks the
  /// build's vector code and which rows are sorted by left edge within their cells (the
  /// AVX2 and AVX-512 searches do not need it): cells and rows are the same on every ISA,
  /// the order within a cell may not be.
  /// `listener`, if given, is told of the rows as they become final.
  static HomeGrid build(const Scene& scene, const KindRanges& kinds, int log2_cell, const SceneExtent& extent, Isa isa,
                        RowListener* listener = nullptr);

  const GridCells& cells() const { return cells_; }
  std::int64_t col0() const { return col0_; }
  std::int64_t row0() const { return row0_; }
  /// Columns from col0() on that the scene's extent spans.
  std::uint64_t cols() const { return cols_; }
  std::span<const Row> rows() const { return rows_; }
  Columns columns() const { return {minx_.data(), miny_.data(), maxx_.data(), maxy_.data()}; }
  std::size_t small_count() const { return items_.size(); }
  /// The sorted shape at a position of columns().
  const Item& item_at(std::uint32_t position) const { return items_[position]; }
  /// All of them, by position.
  const Item* items() const { return items_.data(); }
  /// The global index of the sorted shape at a position of columns().
  std::uint32_t shape_at(std::uint32_t position) const { return item_at(position).shape; }
  /// The large shapes: global indices (ascending) and records.
  const CachedVector<std::uint32_t>& large_ids() const { return large_ids_; }
  const UninitializedVector<ShapeRecord>& large_records() const { return large_records_; }

  /// The home column (absolute) of the shape at position p.
  std::int64_t col_of(std::uint32_t p) const { return cells_.index(minx_[p]); }
  /// The first position in [begin, end) of one row whose home column is at least col
  /// (absolute): rows are in column order, and col h <= left < (col + 1) h.
  std::uint32_t first_col_at_least(std::uint32_t begin, std::uint32_t end, std::int64_t col) const;
  /// The rows holding shapes within rows [first, last] (relative to row0()), as indices
  /// [a, b) into rows().
  std::pair<std::size_t, std::size_t> row_range(std::int64_t first, std::int64_t last) const;
  /// The index into rows() of the first row at least `row` (relative), or rows().size().
  std::size_t first_row_at_least(std::int64_t row) const;

  /// FNV-1a hash of the small shapes' global indices in the grid's order: the grid's
  /// answer, the same on every thread count (bench/grid_build_bench prints it, as
  /// the other benchmarks print their pair lists' hashes).
  std::uint64_t order_hash() const;

 private:
  class Builder;

  GridCells cells_;
  std::int64_t col0_ = 0, row0_ = 0;
  std::uint64_t cols_ = 0;
  CachedVector<Row> rows_;
  UninitializedVector<float> minx_, miny_, maxx_, maxy_;  // sorted, padded
  UninitializedVector<Item> items_;                       // sorted
  CachedVector<std::uint32_t> large_ids_;
  UninitializedVector<ShapeRecord> large_records_;
};

}  // namespace hitgrid
