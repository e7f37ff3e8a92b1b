#include "tiled_grid.hpp"

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <memory>
#include <numeric>

#include "cell_size.hpp"
#include "counting_sort.hpp"
#include "crowded_sweep.hpp"
#include "grid_cells.hpp"
#include "hitgrid/broadphase/detail/parallel.hpp"
#include "pair_batch.hpp"
#include "radix_sort.hpp"

namespace hitgrid {
namespace {

// A cell with more entries than this is searched by a sweep instead of all pairs.
constexpr std::size_t all_pairs_limit = 32;
// Shapes per task of the plan's and the sparse path's loops.
constexpr std::size_t tiled_shapes_per_task = std::size_t{1} << 12;
// The cells the grid's footprints may cover in all, at most: this many per shape, or the
// floor if more. The pass's work is a hit per covered cell (and its entries, one per
// covered tile, are fewer), so this bounds both its memory and its time. A requested cell
// far smaller than the shapes (or, far more rarely, an automatic one under hundreds of
// thousands of world-long segments) would otherwise cost in proportion to their area in
// cells; the cell side is doubled until the footprints fit (plan_cells). The automatic
// cells of the standard scenes stay below it.
constexpr std::uint64_t cells_per_shape_budget = 256;
constexpr std::uint64_t cell_budget_floor = std::uint64_t{1} << 20;

/// One shape in one tile: the shape's global index and the shape itself, so that grouping
/// the entries by tile also brings every tile's shapes together in memory. (The tile is
/// known from the entry's position; keeping it out makes the entry a quarter smaller, and
/// writing the entries is most of what bucketing costs.)
struct TileEntry {
  std::uint32_t shape;
  float g[4];  // the shape's geometry (ShapeRecord::g); its bounds are derived per tile
};
static_assert(sizeof(TileEntry) == 20);

/// An entry with its tile id, for the radix sort of sparse worlds.
struct KeyedEntry {
  std::uint64_t tile;
  TileEntry entry;
};

/// An entry in one cell of a tile, with the first column of its footprint in that row
/// (relative to the tile; -1 stands for any column left of the tile).
struct CellHit {
  std::uint32_t entry;
  std::int32_t first_col;
};

/// Per-thread scratch of the tile pass, reused from tile to tile.
struct TileScratch {
  CachedVector<std::uint32_t> cell_count;                // per cell of the tile: where its hits end
  CachedVector<std::pair<std::uint32_t, CellHit>> hits;  // (cell, hit) in entry order
  CachedVector<CellHit> by_cell;                         // hits in cell order
  CachedVector<std::int64_t> first_row;                  // per entry of the tile: its footprint's first row
  CachedVector<Aabb> boxes;                              // per entry of the tile: its bounds
  CrowdedSweep sweep;                                    // for crowded cells
  PairKeys pairs;                                        // found pairs (global index keys)
  CachedPtr<PairBatch> batch;                            // candidates waiting for the exact test
  // Per entry of the tile: its footprint's columns in one row, and that row (see
  // span_in_row).
  CachedVector<std::int64_t> span_row;
  CachedVector<CellSpan> span;
  // The cell being searched.
  std::size_t tile_begin = 0;
  std::int64_t row0 = 0;
  std::int32_t row = 0, col = 0;
};

}  // namespace

/// The tiled grid's data and the code that builds and searches it.
struct TiledGrid::Impl {
 public:
  /// Builds the grid: every shape's (tile, shape) entries, grouped by tile. `global` is
  /// read during the build only.
  Impl(const UninitializedVector<ShapeRecord>& shapes, const std::uint32_t* global, const KindRanges& kinds,
       int log2_cell)
      : kinds_(kinds), global_(global), cells_(log2_cell), tiles_(log2_cell + max_tile_log2_cells) {
    if (!shapes.empty()) plan_cells(shapes, log2_cell);
    bucket_by_tile(shapes);
    global_ = nullptr;
  }

  /// The pass: appends the keys of the pairs found, unsorted; a rare pair may appear
  /// twice (see shares_row_below). Returns the exact tests run.
  std::uint64_t tile_pairs(const PairTestContext& tests, PairKeys& out) const;

  std::uint64_t entry_count() const { return entries_.size(); }
  double cell_size() const { return cells_.cell_size(); }

  /// The query pass: every entry, in the tiles `box` touches, whose bounds overlap it.
  void shapes_near(const Aabb& box, CachedVector<NearShape>& out) const {
    const CellSpan cols = tiles_.span(box.min.x, box.max.x);
    // Columns that miss the grid's: no tile to read, in any row.
    if (cols.hi < tile_col0_ || cols.lo >= tile_col0_ + static_cast<std::int64_t>(tile_cols_)) return;
    shapes_in_rows(
        box, [&](std::int64_t) { return cols; }, [](const Aabb&) { return true; }, out);
  }

  /// The same for a piece of a line within `box` (TiledGrid::shapes_along_line): only the
  /// tiles the piece touches, row by row (GridCells::for_each_line_row), and of their
  /// entries only those whose bounds the line may meet (line_may_meet): a tile is coarse
  /// next to a line, and a long cast must cost the shapes along it, not every shape of
  /// its tiles.
  void shapes_along_line(Vec2 p, double dx, double dy, const Aabb& box, CachedVector<NearShape>& out) const {
    const double slope = line_slope(dx, dy);
    const bool level = dy == 0.0;
    shapes_in_rows(
        box,
        [&](std::int64_t r) {
          CellSpan cols;  // empty unless the piece reaches row r
          tiles_.for_each_line_row(p, slope, level, box.min.y, box.max.y, box.min.x, box.max.x, r, r,
                                   [&](std::int64_t, CellSpan c) { cols = c; });
          return cols;
        },
        [&](const Aabb& b) { return line_may_meet(p, dx, dy, b); }, out);
  }

 private:
  /// Every entry whose bounds overlap `box` and pass accept(bounds), in the tiles of the
  /// rows `box` touches and, in row r, the columns cols_of(r) (tile indices; cut here to
  /// the grid's).
  template <class ColsOf, class Accept>
  void shapes_in_rows(const Aabb& box, ColsOf&& cols_of, Accept&& accept, CachedVector<NearShape>& out) const {
    if (tile_starts_.size() < 2) return;  // no entries
    const CellSpan rows = tiles_.span(box.min.y, box.max.y);
    const std::int64_t tile_rows = static_cast<std::int64_t>(tile_count_ / tile_cols_);
    const std::int64_t col_end = tile_col0_ + static_cast<std::int64_t>(tile_cols_);
    const std::int64_t r0 = std::max(rows.lo, tile_row0_), r1 = std::min(rows.hi, tile_row0_ + tile_rows - 1);
    // Row by row, but only the rows that hold entries: the tiles span the large shapes'
    // extent, which may be vast and nearly empty (a few far-apart shapes), and a query
    // across it must cost its entries' rows, not the grid's.
    for (std::int64_t r = r0; r <= r1;) {
      const std::uint64_t base = static_cast<std::uint64_t>(r - tile_row0_) * tile_cols_;
      const CellSpan cols = cols_of(r);
      const std::int64_t c0 = std::max(cols.lo, tile_col0_), c1 = std::min(cols.hi, col_end - 1);
      // The first occupied tile in the row's columns, or past the row when it has none.
      const std::uint64_t first = c0 <= c1 ? base + static_cast<std::uint64_t>(c0 - tile_col0_) : base + tile_cols_;
      auto k =
          static_cast<std::size_t>(std::lower_bound(tile_ids_.begin(), tile_ids_.end(), first) - tile_ids_.begin());
      if (c0 <= c1)
        for (const std::uint64_t last = base + static_cast<std::uint64_t>(c1 - tile_col0_);
             k < tile_ids_.size() && tile_ids_[k] <= last; ++k)
          for (std::size_t e = tile_starts_[k]; e < tile_starts_[k + 1]; ++e) {
            const TileEntry& entry = entries_[e];
            const Aabb b = bounds_of(kinds_.kind(entry.shape), entry.g);
            if (b.min.x <= box.max.x && box.min.x <= b.max.x && b.min.y <= box.max.y && box.min.y <= b.max.y &&
                accept(b))
              out.push_back({entry.shape, {entry.g[0], entry.g[1], entry.g[2], entry.g[3]}});
          }
      if (k == tile_ids_.size()) break;
      // tile_ids_[k] is the first occupied tile past this row's columns: no row before
      // its own holds one there.
      r = std::max(r + 1, tile_row0_ + static_cast<std::int64_t>(tile_ids_[k] / tile_cols_));
    }
  }

 public:
  /// The cells: side 2^log2_cell, or the finest side twice, four times... as large on
  /// which the footprints cover at most cell_budget cells (covered_cells_bound); then the
  /// tiles. The bound never grows as the side doubles (a cell of side 2h is four of side h,
  /// and a closed shape touches it exactly when it touches one of them), so the finest
  /// fitting side is found by doubling the step until a side fits, then bisecting: a few
  /// passes over the shapes however far off the request is.
  void plan_cells(const UninitializedVector<ShapeRecord>& shapes, int log2_cell) {
    const std::uint64_t budget = cell_budget(shapes.size());
    auto fits = [&](int log2) {
      cells_ = GridCells(log2);
      return covered_cells_bound(shapes) <= budget;
    };
    if (!fits(log2_cell)) {
      // fine does not fit, coarse does (a side past every coordinate leaves each shape at
      // most 2 x 2 cells, within the budget).
      int fine = log2_cell, coarse = log2_cell + 1;
      for (int step = 1; !fits(coarse); step *= 2) {
        fine = coarse;
        coarse = fine + 2 * step;
      }
      while (coarse - fine > 1) {
        const int mid = fine + (coarse - fine) / 2;
        (fits(mid) ? coarse : fine) = mid;
      }
      log2_cell = coarse;
    }
    cells_ = GridCells(log2_cell);
    choose_tiles(scene_extent(shapes));
  }

  /// At least the cells the footprints cover: boxes and circles, their bounding box's
  /// cells; segments, also no more than columns + 3 rows (a conservative row span shares
  /// its end column with the next row's and is widened by far less than a cell, see
  /// grid_cells.hpp). Saturates instead of wrapping.
  std::uint64_t covered_cells_bound(const UninitializedVector<ShapeRecord>& shapes) const {
    constexpr std::uint64_t cap = std::uint64_t{1} << 62;
    return detail::parallel_reduce(
        shapes.size(), tiled_shapes_per_task, std::uint64_t{0},
        [&](const tbb::blocked_range<std::size_t>& r, std::uint64_t sum) {
          for (std::size_t i = r.begin(); i != r.end(); ++i) {
            CellSpan cols, rows;
            cells_.box_cells(shapes[i].box, cols, rows);
            const auto c = static_cast<std::uint64_t>(cols.size()), h = static_cast<std::uint64_t>(rows.size());
            // c, h <= 2^31 (minimum_cell), so c * h cannot wrap.
            std::uint64_t n = c * h;
            if (kinds_.kind(global(i)) == ShapeKind::segment) n = std::min(n, c + 3 * h);
            sum = std::min(cap, sum + n);
          }
          return sum;
        },
        [&](std::uint64_t a, std::uint64_t b) { return std::min(cap, a + b); });
  }

  /// Tiles of 16 x 16 cells, or smaller when that leaves fewer than min_tiles tiles: the
  /// tiles are the unit of parallel work (a few thousand long segments on large cells can
  /// make a handful of tiles, and a second thread would have nothing to do).
  void choose_tiles(const SceneExtent& ext) {
    for (int log2 = max_tile_log2_cells; log2 >= 1; --log2) {
      tile_log2_cells_ = log2;
      tiles_ = GridCells(cells_.log2_cell() + log2);
      const CellSpan cols = tiles_.span(ext.minx, ext.maxx), rows = tiles_.span(ext.miny, ext.maxy);
      tile_col0_ = cols.lo;
      tile_row0_ = rows.lo;
      tile_cols_ = static_cast<std::uint64_t>(cols.size());
      tile_count_ = tile_cols_ * static_cast<std::uint64_t>(rows.size());
      if (tile_count_ >= min_tiles) break;
    }
    tile_side_ = std::int64_t{1} << tile_log2_cells_;
    tile_bits_ = bits_for(tile_count_);
  }

 private:
  static constexpr std::uint64_t min_tiles = 64;
  // Tiles of at most 16 x 16 cells: a tile's cell table (256 counters) and its entries stay
  // in L1 while the tile is searched, where one global table of cells would miss the cache
  // on nearly every access.
  static constexpr int max_tile_log2_cells = 4;
  int tile_log2_cells_ = max_tile_log2_cells;
  std::int64_t tile_side_ = std::int64_t{1} << max_tile_log2_cells;

  /// Calls f(row, columns) for the rows in [row_lo, row_hi] of the shape's footprint in
  /// grid g (segments: conservative row spans; others: the bounding box).
  template <class F>
  void for_each_row(const GridCells& g, ShapeKind kind, const Aabb& box, const float* geometry, std::int64_t row_lo,
                    std::int64_t row_hi, F&& f) const {
    if (kind == ShapeKind::segment) {
      g.for_each_segment_row(as_segment(geometry), row_lo, row_hi, f);
      return;
    }
    CellSpan cols, rows;
    g.box_cells(box, cols, rows);
    for (std::int64_t r = std::max(rows.lo, row_lo); r <= std::min(rows.hi, row_hi); ++r) f(r, cols);
  }

  static constexpr std::int64_t all_rows_lo = std::numeric_limits<std::int64_t>::min();
  static constexpr std::int64_t all_rows_hi = std::numeric_limits<std::int64_t>::max();

  /// Calls f(tile id) for every tile the shape's footprint touches.
  template <class F>
  void for_each_tile(std::size_t i, const ShapeRecord& s, F&& f) const {
    for_each_row(tiles_, kinds_.kind(global(i)), s.box, s.g, all_rows_lo, all_rows_hi,
                 [&](std::int64_t row, CellSpan cols) {
                   const std::uint64_t base = static_cast<std::uint64_t>(row - tile_row0_) * tile_cols_;
                   for (std::int64_t c = cols.lo; c <= cols.hi; ++c)
                     f(base + static_cast<std::uint64_t>(c - tile_col0_));
                 });
  }

  /// The global index of the i-th input shape.
  std::uint32_t global(std::size_t i) const { return global_ ? global_[i] : static_cast<std::uint32_t>(i); }

  TileEntry entry_of(std::size_t i, const ShapeRecord& s) const {
    return {global(i), {s.g[0], s.g[1], s.g[2], s.g[3]}};
  }

  /// Every (tile, shape) entry, grouped by tile, with the shape carried along; the tiles
  /// that hold entries and where their entries start.
  ///
  /// A world with few tiles (dense: the common case) gets the block-parallel counting sort
  /// of the entries by tile; a sparse world, whose tile ids range far beyond the number of
  /// entries, the radix sort by tile id.
  void bucket_by_tile(const UninitializedVector<ShapeRecord>& shapes) {
    const std::size_t n = shapes.size();
    const Blocks blocks = Blocks::at_least(n, shapes_per_block_log2);
    tile_starts_.clear();
    tile_ids_.clear();
    if (n == 0) {
      tile_starts_.push_back(0);
      return;
    }
    // Else the sparse path: the entries radix sorted by tile id.
    if (tile_count_ * blocks.count <= max_block_counters)
      count_into_tiles(shapes, blocks);
    else
      radix_sort_into_tiles(shapes);
    tile_starts_.push_back(entries_.size());
  }

  /// bucket_by_tile for a dense world: the block-parallel counting sort (counting_sort.hpp)
  /// of the entries by tile, one write per entry and no scratch copy; a counter per tile
  /// and block.
  void count_into_tiles(const UninitializedVector<ShapeRecord>& shapes, const Blocks& blocks) {
    const CachedVector<std::uint64_t> start = counting_sort<std::uint64_t>(
        blocks.count, tile_count_,
        [&](std::size_t b, std::uint64_t* count) {
          for (std::size_t i = blocks.begin(b), end = blocks.end(b); i < end; ++i)
            for_each_tile(i, shapes[i], [&](std::uint64_t t) { ++count[t]; });
        },
        [&](const CachedVector<std::uint64_t>& starts) { entries_.resize(starts.back()); },
        [&](std::size_t b, std::uint64_t* next) {
          for (std::size_t i = blocks.begin(b), end = blocks.end(b); i < end; ++i)
            for_each_tile(i, shapes[i], [&](std::uint64_t t) { entries_[next[t]++] = entry_of(i, shapes[i]); });
        });
    for (std::size_t t = 0; t < tile_count_; ++t)
      if (start[t + 1] > start[t]) {
        tile_starts_.push_back(start[t]);
        tile_ids_.push_back(t);
      }
  }

  /// bucket_by_tile for a sparse world: the entries written in shape order with their tile
  /// ids (each shape's place from a prefix sum of its tile counts), radix sorted by tile id
  /// (radix_sort.hpp): a few more passes than the counting sort, but memory linear in the
  /// entries, never in the world's area.
  void radix_sort_into_tiles(const UninitializedVector<ShapeRecord>& shapes) {
    const std::size_t n = shapes.size();
    CachedVector<std::uint64_t> offsets(n + 1, 0);
    detail::parallel_for(tbb::blocked_range<std::size_t>(0, n, tiled_shapes_per_task), [&](const auto& r) {
      for (std::size_t i = r.begin(); i != r.end(); ++i) {
        std::uint64_t count = 0;
        for_each_tile(i, shapes[i], [&](std::uint64_t) { ++count; });
        offsets[i + 1] = count;
      }
    });
    std::partial_sum(offsets.begin(), offsets.end(), offsets.begin());
    UninitializedVector<KeyedEntry> keyed(offsets[n]);
    detail::parallel_for(tbb::blocked_range<std::size_t>(0, n, tiled_shapes_per_task), [&](const auto& r) {
      for (std::size_t i = r.begin(); i != r.end(); ++i) {
        std::uint64_t e = offsets[i];
        for_each_tile(i, shapes[i], [&](std::uint64_t t) { keyed[e++] = {t, entry_of(i, shapes[i])}; });
      }
    });
    radix_sort_items(
        keyed, [](const KeyedEntry& k) { return k.tile; }, tile_bits_);
    entries_.resize(keyed.size());
    for (std::size_t e = 0; e < keyed.size(); ++e) {
      entries_[e] = keyed[e].entry;
      if (e == 0 || keyed[e].tile != keyed[e - 1].tile) {
        tile_starts_.push_back(e);
        tile_ids_.push_back(keyed[e].tile);
      }
    }
  }

  /// The first-shared-cell rule: a pair is reported only in the first cell, in row-major
  /// order, that both footprints hold. Duplicates are then (almost) never made: memory
  /// stays linear in the pairs however many cells two shapes share.
  ///
  /// The O(1) part: no earlier column of this row may hold both, and if both footprints
  /// start in this row, nothing earlier can. Boxes and circles occupy the same columns in
  /// every row, so for two of them a common earlier row means this cell is not first.
  enum class FirstCell { no, yes, check_rows };
  FirstCell first_cell_quick(const CellHit& a, const CellHit& b, const TileScratch& t) const {
    if (std::max(a.first_col, b.first_col) != t.col) return FirstCell::no;
    const std::int64_t r0 = std::max(t.first_row[a.entry - t.tile_begin], t.first_row[b.entry - t.tile_begin]);
    if (r0 == t.row0 + t.row) return FirstCell::yes;
    const bool any_segment = kinds_.kind(entries_[a.entry].shape) == ShapeKind::segment ||
                             kinds_.kind(entries_[b.entry].shape) == ShapeKind::segment;
    return any_segment ? FirstCell::check_rows : FirstCell::no;
  }

  /// The rest, for a pair with a segment: whether the row below this one holds both (then
  /// their first shared cell lies there or earlier, where the pair is reported). A pair
  /// whose footprints share cells in two rows with none shared in between is reported
  /// twice; the final sort removes such repeats, which are rare. Looking further down
  /// would remove them but costs every reported pair a walk over those rows.
  bool shares_row_below(const CellHit& a, const CellHit& b, std::int64_t row, TileScratch& t) const {
    const std::int64_t r0 = std::max(t.first_row[a.entry - t.tile_begin], t.first_row[b.entry - t.tile_begin]);
    const std::int64_t r = row - 1;
    if (r < r0) return false;
    const CellSpan sa = span_in_row(a, r, t), sb = span_in_row(b, r, t);
    return sa.lo <= sb.hi && sb.lo <= sa.hi;
  }

  /// A hit's footprint columns in row r, one of the rows it covers. Remembered per entry
  /// for the last row asked: the checks come cell by cell, and a crowded cell asks for
  /// the same entry's row for each of its many pairs.
  CellSpan span_in_row(const CellHit& h, std::int64_t r, TileScratch& t) const {
    const std::size_t i = h.entry - t.tile_begin;
    if (t.span_row[i] != r) {
      CellSpan s;
      for_each_row(cells_, kinds_.kind(entries_[h.entry].shape), t.boxes[i], entries_[h.entry].g, r, r,
                   [&](std::int64_t, CellSpan c) { s = c; });
      t.span_row[i] = r;
      t.span[i] = s;
    }
    return t.span[i];
  }

  /// The exact test on two hits of the cell being searched, if it is their first shared
  /// cell. The row check runs before the exact test: with the spans remembered per entry
  /// (span_in_row) it is cheaper than the exact tests it saves, since pairs of long
  /// segments share cells in several rows and only the first of them is tested.
  void test_pair(const CellHit& hi, const CellHit& hj, TileScratch& t) const {
    const FirstCell first = first_cell_quick(hi, hj, t);
    if (first == FirstCell::no) return;
    if (first == FirstCell::check_rows && shares_row_below(hi, hj, t.row0 + t.row, t)) return;
    t.batch->add(entries_[hi.entry].shape, entries_[hi.entry].g, entries_[hj.entry].shape, entries_[hj.entry].g,
                 t.pairs);
  }

  /// Candidate pairs among the entries of one cell.
  void cell_pairs(const CellHit* first, const CellHit* last, TileScratch& t) const {
    const auto k = static_cast<std::size_t>(last - first);
    if (k <= all_pairs_limit) {
      // The cell's boxes as small arrays; each box against the later ones with a
      // branch-free overlap test whose mask advances the candidate list (bounding boxes
      // overlap unpredictably, and a mispredicted branch per test cost more than the test).
      // With the first-cell rule's column test (see the crowded case below).
      float minx[all_pairs_limit], miny[all_pairs_limit], maxx[all_pairs_limit], maxy[all_pairs_limit];
      bool first_here[all_pairs_limit];
      for (std::size_t x = 0; x < k; ++x) {
        const Aabb& b = t.boxes[first[x].entry - t.tile_begin];
        minx[x] = b.min.x;
        miny[x] = b.min.y;
        maxx[x] = b.max.x;
        maxy[x] = b.max.y;
        first_here[x] = first[x].first_col == t.col;
      }
      std::uint32_t candidates[all_pairs_limit];
      for (std::size_t x = 0; x + 1 < k; ++x) {
        std::size_t n = 0;
        for (std::size_t y = x + 1; y < k; ++y) {
          const bool overlap = (minx[x] <= maxx[y]) & (minx[y] <= maxx[x]) & (miny[x] <= maxy[y]) &
                               (miny[y] <= maxy[x]) & (first_here[x] | first_here[y]);
          candidates[n] = static_cast<std::uint32_t>(y);
          n += overlap;
        }
        for (std::size_t c = 0; c < n; ++c) test_pair(first[x], first[candidates[c]], t);
      }
      return;
    }
    // A crowded cell: the crowded-cell sweep, so the work follows the overlaps, not k^2;
    // a pair needs one of the two to start in this cell's column (the first-cell rule).
    t.sweep.run(
        static_cast<std::uint32_t>(k), [&](std::uint32_t i) { return t.boxes[first[i].entry - t.tile_begin]; },
        [&](std::uint32_t i) { return first[i].first_col == t.col; },
        [&](std::uint32_t i, std::uint32_t j) { test_pair(first[i], first[j], t); });
  }

  /// Tile k's pairs: its entries' cell hits, grouped by cell, each cell searched; then the
  /// exact tests still queued (they refer to this tile's scratch: first rows, boxes).
  void search_tile(std::size_t k, TileScratch& t) const {
    tile_hits(k, t);
    if (t.hits.size() < 2) return;
    hits_by_cell(t);
    search_cells(t);
    t.batch->flush(t.pairs);
  }

  /// Tile k's entries, each with its bounds and first row, and every cell of the tile its
  /// footprint meets as a (cell, hit) in t.hits, in entry order.
  void tile_hits(std::size_t k, TileScratch& t) const {
    const std::size_t begin = tile_starts_[k], end = tile_starts_[k + 1];
    const std::uint64_t tile = tile_ids_[k];
    const std::int64_t row0 = (static_cast<std::int64_t>(tile / tile_cols_) + tile_row0_) * tile_side_;
    const std::int64_t col0 = (static_cast<std::int64_t>(tile % tile_cols_) + tile_col0_) * tile_side_;
    t.tile_begin = begin;
    t.row0 = row0;
    t.hits.clear();
    t.first_row.resize(end - begin);
    t.boxes.resize(end - begin);
    t.span_row.assign(end - begin, std::numeric_limits<std::int64_t>::min());
    t.span.resize(end - begin);
    for (std::size_t e = begin; e < end; ++e) {
      const auto entry = static_cast<std::uint32_t>(e);
      const ShapeKind kind = kinds_.kind(entries_[e].shape);
      const Aabb box = bounds_of(kind, entries_[e].g);
      t.boxes[e - begin] = box;
      t.first_row[e - begin] = cells_.span(box.min.y, box.max.y).lo;
      for_each_row(cells_, kind, box, entries_[e].g, row0, row0 + tile_side_ - 1, [&](std::int64_t row, CellSpan cols) {
        const std::int64_t lo = std::max(cols.lo, col0), hi = std::min(cols.hi, col0 + tile_side_ - 1);
        const auto first_col = static_cast<std::int32_t>(std::max<std::int64_t>(cols.lo - col0, -1));
        for (std::int64_t c = lo; c <= hi; ++c) {
          const auto cell = static_cast<std::uint32_t>((row - row0) * tile_side_ + (c - col0));
          t.hits.push_back({cell, CellHit{entry, first_col}});
        }
      });
    }
  }

  /// t.hits grouped by cell into t.by_cell, in entry order within a cell (the counting
  /// sort in the task: a tile's 16 x 16 counters stay in L1); t.cell_count[c] is where
  /// cell c's hits end.
  void hits_by_cell(TileScratch& t) const {
    t.cell_count.resize(static_cast<std::size_t>(tile_side_ * tile_side_));
    t.by_cell.resize(t.hits.size());
    counting_sort_in_task(
        t.cell_count.data(), t.cell_count.size(),
        [&](std::uint32_t* count) {
          for (const auto& hit : t.hits) ++count[hit.first];
        },
        [&](std::uint32_t* next) {
          for (const auto& [cell, hit] : t.hits) t.by_cell[next[cell]++] = hit;
        });
  }

  /// Every cell of the tile that holds two hits or more, searched (cell_pairs).
  void search_cells(TileScratch& t) const {
    std::uint32_t start = 0;
    for (std::size_t c = 0; c < t.cell_count.size(); ++c) {
      const std::uint32_t stop = t.cell_count[c];
      if (stop - start >= 2) {
        t.row = static_cast<std::int32_t>(c / tile_side_);
        t.col = static_cast<std::int32_t>(c % tile_side_);
        cell_pairs(t.by_cell.data() + start, t.by_cell.data() + stop, t);
      }
      start = stop;
    }
  }

  KindRanges kinds_;
  const std::uint32_t* global_;  // during the build only
  GridCells cells_;
  GridCells tiles_;
  std::int64_t tile_col0_ = 0, tile_row0_ = 0;
  std::uint64_t tile_cols_ = 1;
  std::uint64_t tile_count_ = 0;  // tiles in the shapes' bounding rectangle
  int tile_bits_ = 0;
  UninitializedVector<TileEntry> entries_;  // sorted by tile
  CachedVector<std::size_t> tile_starts_;   // where each tile's entries begin, then the end
  CachedVector<std::uint64_t> tile_ids_;    // each tile's id
};

std::uint64_t TiledGrid::Impl::tile_pairs(const PairTestContext& tests, PairKeys& out) const {
  tbb::enumerable_thread_specific<TileScratch> scratch([&] {
    TileScratch t;
    t.batch = make_cached<PairBatch>(tests);
    return t;
  });
  const std::size_t tiles = tile_starts_.size() - 1;
  detail::parallel_for(tbb::blocked_range<std::size_t>(0, tiles, 1), [&](const auto& r) {
    TileScratch& t = scratch.local();
    for (std::size_t k = r.begin(); k != r.end(); ++k) search_tile(k, t);
  });
  std::uint64_t tested = 0;
  for (TileScratch& t : scratch) {
    tested += t.batch->tested();
    out.append(t.pairs);
  }
  return tested;
}

TiledGrid::TiledGrid() = default;
TiledGrid::~TiledGrid() = default;
TiledGrid::TiledGrid(TiledGrid&&) noexcept = default;
TiledGrid& TiledGrid::operator=(TiledGrid&&) noexcept = default;

TiledGrid TiledGrid::build(const UninitializedVector<ShapeRecord>& shapes, const std::uint32_t* global,
                           const KindRanges& kinds, int log2_cell) {
  TiledGrid g;
  g.impl_ = make_cached<Impl>(shapes, global, kinds, log2_cell);
  return g;
}

std::uint64_t TiledGrid::cell_budget(std::size_t shapes) {
  return std::max(cell_budget_floor, cells_per_shape_budget * shapes);
}

std::uint64_t TiledGrid::entries() const { return impl_ ? impl_->entry_count() : 0; }
double TiledGrid::cell_size() const { return impl_ ? impl_->cell_size() : 0.0; }

void TiledGrid::shapes_near(const Aabb& box, CachedVector<NearShape>& out) const {
  if (impl_) impl_->shapes_near(box, out);
}

void TiledGrid::shapes_along_line(Vec2 p, double dx, double dy, const Aabb& box, CachedVector<NearShape>& out) const {
  if (impl_) impl_->shapes_along_line(p, dx, dy, box, out);
}

std::uint64_t large_large_pairs(const TiledGrid& grid, const PairTestContext& tests, PairKeys& out) {
  return grid.impl_ ? grid.impl_->tile_pairs(tests, out) : 0;
}

}  // namespace hitgrid
