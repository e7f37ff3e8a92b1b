// The home-cell grid: pairs among the small shapes, and between them and the large ones.
//
// A shape is small when its bounding box spans at most two columns and two rows of cells
// (index(max) - index(min) <= 1 on both axes; every shape no larger than a cell is). Each
// small shape is stored once, in its home cell: the cell of its bounding box's lower-left
// corner. Two small shapes can only touch if their home cells are neighbours (columns and
// rows differ by at most one), so a cell is paired with itself, the cell to its right and
// the three cells above: every pair is met exactly once and there are no duplicates to
// remove. Shapes are sorted by home cell (row-major), so the cell to the right follows a
// cell's run and the three cells above form one contiguous run: a shape's candidates are
// two runs, found by pointers that only move forward along the two rows.
//
// A large shape L meets a small shape S only in a cell both hold; S's cells are its home
// cell and the three cells right of and above it, so S's home cell is one of L's
// footprint cells or the cell left of, below, or below-left of one. L visits those home
// cells row by row (each once, so again no duplicates) and tests the shapes stored there.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "cell_size.hpp"
#include "grid_cells.hpp"
#include "hitgrid/simd/isa.hpp"
#include "packed_shapes.hpp"
#include "pair_keys.hpp"
#include "uninitialized_vector.hpp"

namespace hitgrid {

struct HomeGridStats {
  double bucket_ms = 0.0;        // home cells computed, shapes sorted by home cell
  double pairs_ms = 0.0;         // small with small
  double large_ms = 0.0;         // large with small
  std::uint64_t small = 0;       // shapes stored
  std::uint64_t rows = 0;        // rows holding at least one shape
  std::uint64_t candidates = 0;  // exact tests run
};

class HomeGrid {
 public:
  /// Sorts the scene's small shapes by home cell and keeps the large ones aside. With
  /// `may_give_up`, stops early (many_large()) when the large shapes would cross more than
  /// four times as many rows of cells as there are shapes: each tests nearly every shape
  /// of every row it crosses (its bounding box filters little), and past that the tiled
  /// grid alone, which tests a pair only in a cell both occupy, is the safer choice.
  /// (long_tail, 2.5 rows per shape: 463 ms this way against 522 ms on the tiled grid.)
  /// Exact tests run on `isa` (concrete: see resolve_isa).
  HomeGrid(const Scene& scene, KindRanges kinds, PairKeyCodec keys, int log2_cell, const SceneExtent& extent,
           bool may_give_up, Isa isa, HomeGridStats& stats);

  /// Whether a shape with these bounds is small in a grid of these cells.
  static bool is_small(const GridCells& cells, const Aabb& box) {
    return cells.index(box.max.x) - cells.index(box.min.x) <= 1 && cells.index(box.max.y) - cells.index(box.min.y) <= 1;
  }

  bool many_large() const { return many_large_; }
  /// The large shapes: global indices (ascending) and records.
  const std::vector<std::uint32_t>& large_ids() const { return large_ids_; }
  const UninitializedVector<ShapeRecord>& large_records() const { return large_records_; }

  /// Sorts every row not sorted yet: the grid complete, for a caller that queries it
  /// later (bench/grid_build_bench). pairs_among does not need it: it sorts the rows as it
  /// searches them.
  void sort_rows();
  /// FNV-1a hash of the small shapes' global indices in the grid's order (by row, then as
  /// sort_rows left each row), after sort_rows(): the grid's answer, the same on every
  /// thread count (bench/grid_build_bench prints it, as the other benchmarks print their
  /// pair lists' hashes).
  std::uint64_t order_hash() const;
  /// Appends the keys of every intersecting pair of two small shapes.
  void pairs_among(PairKeys& out);
  /// Appends the keys of every intersecting pair of a large shape and a small one.
  void pairs_with_large(PairKeys& out);

 private:
  struct Row {
    std::int64_t row;  // relative to row0_
    std::uint32_t begin, end;
    bool crowded;  // may hold a crowded cell (see crowded_cell)
    bool by_left;  // each cell's shapes sorted by left edge too (else only by column)
  };
  /// A small shape's global index and geometry, grouped by row (its bounds are derived
  /// again when its row is sorted: writing 20 bytes per shape instead of 36 is what the
  /// scatter by row costs). Rows are sorted by permuting the bounds only: the exact tests
  /// reach the geometry through item_ (a third of the shapes take part in a candidate
  /// pair, so moving every shape's geometry into order cost more than the indirection).
  struct Item {
    std::uint32_t shape;
    float g[4];
  };
  /// Sorted small shapes as the searches read them: bounds as columns for the candidate
  /// filter (padded by 8 empty boxes, see sweep) and where each one's item is. Either the
  /// whole grid's (positions as in rows_) or a block of rows sorted into a thread's own
  /// buffers (positions from the block's first shape; see pairs_among).
  struct Columns {
    float *minx, *miny, *maxx, *maxy;
    std::uint32_t* item;
  };
  /// What sort_row finds out about a row.
  struct RowOrder {
    bool crowded, by_left;  // see Row
  };
  /// Per-thread scratch of sort_row, and a block's sorted rows (pairs_among).
  struct RowSorter {
    std::vector<Aabb> box;
    std::vector<std::uint32_t> col, count, order;
    UninitializedVector<float> minx, miny, maxx, maxy;
    UninitializedVector<std::uint32_t> item;
    /// Room for n shapes and the padding; returns the columns.
    Columns block(std::size_t n);
  };
  struct Scratch;
  class ScratchSet;
  struct LargeSpan;

  void bucket_by_rows(const Scene& scene, std::uint64_t row_count, bool may_give_up);
  void bucket_by_cells(const Scene& scene, std::uint64_t row_count);
  /// Sorts row k's items by home column into `to` (within a cell, in any order), from
  /// position rows_[k].begin - base on.
  RowOrder sort_row(std::size_t k, RowSorter& t, const Columns& to, std::uint32_t base) const;
  /// Columns for n shapes and the padding past them (see sweep).
  static void size_columns(UninitializedVector<float>& minx, UninitializedVector<float>& miny,
                           UninitializedVector<float>& maxx, UninitializedVector<float>& maxy, std::size_t n);
  void resize(std::size_t small);
  static void store(const Columns& to, std::size_t p, const Aabb& box, std::uint32_t item);
  /// sort_row into the grid's columns, with the row's flags kept in rows_[k].
  void sort_row_in_place(std::size_t k, RowSorter& t);
  Columns whole() { return {minx_.data(), miny_.data(), maxx_.data(), maxy_.data(), item_.data()}; }
  const Item& item(const Columns& c, std::uint32_t p) const { return items_[c.item[p]]; }
  /// A row's cells are sorted by left edge when a shape shares its cell with this many on
  /// average, counting itself (the sum of the squared cell counts over the shapes).
  static constexpr std::uint32_t by_left_sharing = 3;
  /// A cell with at least this many shapes is searched on its own, along its better axis.
  static constexpr std::uint32_t crowded_shapes = 32;
  std::int64_t col_of(const Columns& c, std::uint32_t p) const { return cells_.index(c.minx[p]); }
  /// The first shape of the row at or after `begin` whose home column is at least col
  /// (absolute): rows are in column order, and col h <= left < (col + 1) h.
  std::uint32_t first_col_at_least(const Columns& c, std::uint32_t begin, std::uint32_t end, std::int64_t col) const;

  // The row searches: pairs of a row's shapes with each other and with the row above (up:
  // null when the next row up holds no shapes), in the scratch's columns (Scratch::at,
  // which the rows' positions index).
  template <class Filter>
  void row_pairs(const Row& row, const Row* up, Scratch& t) const;
  template <class Filter>
  void row_pairs_by_tiles(const Row& row, const Row* up, Scratch& t) const;
  /// The first shape at or after p, before end, whose home column is at least col
  /// (absolute), for rows in column order, eight compares at a time.
  template <class Filter>
  std::uint32_t skip_left_of(const float* minx, std::uint32_t p, std::uint32_t end, std::int64_t col) const;
  void row_pairs_sse2(const Row& row, const Row* up, Scratch& t) const;
  void row_pairs_avx2(const Row& row, const Row* up, Scratch& t) const;
  void row_pairs_avx512(const Row& row, const Row* up, Scratch& t) const;
  // (Out of line: rare, and kept out of the per-ISA searches, which inline everything else.)
  [[gnu::noinline]] std::uint32_t crowded_cell(std::uint32_t cb, std::uint32_t row_end, std::uint32_t up_begin,
                                               std::uint32_t up_end, Scratch& t) const;
  [[gnu::noinline]] void flush(Scratch& t) const;
  template <class Filter>
  void sweep(std::uint32_t a, std::uint32_t begin, std::uint32_t end, float stop, Scratch& t,
             std::uint32_t& count) const;
  template <class F>
  void for_each_home_span(std::uint32_t shape, const ShapeRecord& r, F&& f) const;
  std::pair<std::size_t, std::size_t> home_row_range(std::size_t i) const;
  template <class Filter>
  void test_range(std::uint32_t large, std::uint32_t begin, std::uint32_t end, Scratch& t) const;
  void test_range_sse2(std::uint32_t large, std::uint32_t begin, std::uint32_t end, Scratch& t) const;
  void test_range_avx2(std::uint32_t large, std::uint32_t begin, std::uint32_t end, Scratch& t) const;
  void test_range_avx512(std::uint32_t large, std::uint32_t begin, std::uint32_t end, Scratch& t) const;
  [[gnu::noinline]] void flush_large(Scratch& t) const;
  void exact(std::uint32_t a, const float* ga, std::uint32_t b, const float* gb, Scratch& t) const;

  KindRanges kinds_;
  PairKeyCodec keys_;
  GridCells cells_;
  Isa isa_;
  HomeGridStats& stats_;
  std::int64_t col0_ = 0, row0_ = 0;
  std::uint64_t cols_ = 0;
  bool many_large_ = false;
  // The small shapes in home-cell order, the whole grid's Columns: written only when the
  // rows are sorted for the large shapes' search too (see pairs_among).
  UninitializedVector<float> minx_, miny_, maxx_, maxy_;
  UninitializedVector<std::uint32_t> item_;
  std::vector<Row> rows_;  // rows holding shapes, ascending
  // The small shapes grouped by row (dense worlds: unsorted within a row; sparse: in
  // home-cell order), then the large ones.
  UninitializedVector<Item> items_;
  bool rows_sorted_ = true;
  std::vector<std::uint32_t> large_ids_;
  UninitializedVector<ShapeRecord> large_records_;
};

}  // namespace hitgrid
