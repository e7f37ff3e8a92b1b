// GridIndex (grid_index.hpp): the grid of grid.hpp, built once and kept, and the query
// pass that tests other scenes' shapes against it.
//
// A query shape Q with bounds B meets a small shape S of the home grid only if S's home
// cell is within one row below and one column left of B's cells (S spans at most two
// columns and two rows: its home column h and h + 1, so S.maxx >= B.minx needs
// h >= col(B.minx) - 1, and S.minx <= B.maxx needs h <= col(B.maxx); rows alike). Those
// rows are found by binary search among the rows that hold shapes, the columns by binary
// search within each row (rows are in column order), and the boxes there go through the
// grid kernels' range search (grid_kernels.hpp), a segment's also through the filter of
// its line's sides. The large shapes come from the tiled grid's tiles that B touches
// (TiledGrid::shapes_near; for a ray, a line or a cast, only the tiles along it:
// TiledGrid::shapes_along_line), repeats dropped. Every candidate gets the exact test.

#include "hitgrid/broadphase/grid_index.hpp"

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <mutex>
#include <optional>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "cell_size.hpp"
#include "grid.hpp"
#include "grid_kernels.hpp"
#include "hitgrid/broadphase/detail/parallel.hpp"
#include "hitgrid/core/error.hpp"
#include "hitgrid/core/intersects.hpp"
#include "hitgrid/core/ray_box.hpp"
#include "hitgrid/core/ray_circle.hpp"
#include "hitgrid/core/ray_segment.hpp"
#include "hitgrid/core/within_distance.hpp"
#include "pair_keys.hpp"
#include "radix_sort.hpp"

namespace hitgrid {
namespace {

/// Query shapes per task of the pass's parallel loop.
constexpr std::size_t queries_per_task = 256;
/// The column table (GridIndex::Impl) at most this many entries per shape, plus a constant.
constexpr std::uint64_t column_table_per_shape = 4;
constexpr std::uint64_t column_table_slack = 4096;

/// The exact test on two packed shapes in either kind order: they intersect (margin 0)
/// or lie within distance `margin` of each other.
bool touches(ShapeKind ka, const float* a, ShapeKind kb, const float* b, float margin) {
  if (margin == 0.0f) return ka <= kb ? intersects_packed(ka, a, kb, b) : intersects_packed(kb, b, ka, a);
  auto shape = [](ShapeKind k, const float* g, auto&& f) {
    switch (k) {
      case ShapeKind::segment:
        return f(as_segment(g));
      case ShapeKind::circle:
        return f(as_circle(g));
      case ShapeKind::box:
        break;
    }
    return f(as_box(g));
  };
  return shape(
      ka, a, [&](const auto& x) { return shape(kb, b, [&](const auto& y) { return within_distance(x, y, margin); }); });
}

}  // namespace

struct GridIndex::Impl {
  Grid grid;
  Aabb extent;  // the indexed shapes' bounds
  /// Where each home column's shapes begin in each row: row k's entry c is the first
  /// position of the row whose home column is at least col0 + c (c in [0, cols]). Built
  /// for dense grids only (at most column_table_per_shape entries per shape): a query then
  /// finds a row's columns in two loads, where a binary search would miss the cache at
  /// every step.
  /// Built by the first query (columns()): an index kept from a find_pairs call that is
  /// never queried costs nothing for it.
  CachedVector<std::uint32_t> column_table;
  std::once_flag column_table_built;
  /// The circles whose bounds reach the float range's edge (their disks may go beyond
  /// it; bounds(Circle) clamps to +-FLT_MAX). A ray or a line can leave the float range
  /// and meet such a disk only out there, where no cell is: the line walk, cut to the
  /// extent, never reaches the cells that hold it. Line queries test these circles
  /// whatever the walk finds (beyond_float_candidates). Empty unless the extent reaches
  /// the edge: an ordinary index scans nothing for them.
  std::vector<TiledGrid::NearShape> edge_circles;
  /// Set once the table is built: the check every query makes, in one load (std::call_once
  /// alone costs a library call and thread-local writes per query).
  std::atomic<bool> column_table_ready{false};

  /// edge_circles from the scene's circles, when the extent reaches the float range's
  /// edge (a disk beyond it has its bounds clamped there). A disk is kept when c +- r,
  /// rounded in double, reaches +-FLT_MAX: rounding is monotone and FLT_MAX a double, so
  /// every disk whose exact extent goes beyond is among them.
  void find_edge_circles(const Scene& scene) {
    constexpr double top = std::numeric_limits<float>::max();
    if (extent.min.x > -top && extent.min.y > -top && extent.max.x < top && extent.max.y < top) return;
    for (std::uint32_t i = 0; i < scene.circle_count(); ++i) {
      const Circle c = scene.circle(i);
      const double x = c.c.x, y = c.c.y, r = c.r;
      if (x - r <= -top || y - r <= -top || x + r >= top || y + r >= top)
        edge_circles.push_back({grid.kinds.circles_begin + i, {c.c.x, c.c.y, c.r, 0.0f}});
    }
  }

  void columns() {
    if (column_table_ready.load(std::memory_order_acquire)) return;
    std::call_once(column_table_built, [this] {
      build_column_table();
      column_table_ready.store(true, std::memory_order_release);
    });
  }

  /// The queries in the order of their boxes' lower-left home cells in this grid (low 32
  /// bits: the query's index): consecutive queries then read nearby rows and columns, where
  /// queries in their own order would fetch a far part of the grid from memory each time.
  /// The answer does not depend on the order (it is sorted at the end).
  UninitializedVector<std::uint64_t> grid_order(const Scene& queries, const KindRanges& kinds) const {
    UninitializedVector<std::uint64_t> order(queries.size());
    const HomeGrid& home = grid.home;
    const bool cells = !grid.tiled_only && home.small_count() != 0;
    detail::parallel_for(tbb::blocked_range<std::size_t>(0, queries.size(), queries_per_task), [&](const auto& r) {
      for (std::size_t q = r.begin(); q != r.end(); ++q) {
        std::uint64_t cell = 0;
        if (cells) {
          const Aabb box = record_of(queries, kinds, static_cast<std::uint32_t>(q)).box;
          // Clamped to the grid (one more on each side for everything outside it).
          auto clamped = [](double v, double lo, double hi) { return std::clamp(v, lo, hi); };
          const double x = clamped(box.min.x, extent.min.x, extent.max.x),
                       y = clamped(box.min.y, extent.min.y, extent.max.y);
          const auto row = static_cast<std::uint64_t>(home.cells().index(y) - home.row0() + 1);
          const auto col = static_cast<std::uint64_t>(home.cells().index(x) - home.col0() + 1);
          cell = row * (home.cols() + 2) + col;
        }
        order[q] = cell << 32 | q;
      }
    });
    radix_sort(order, 64);
    for (std::uint64_t& o : order) o &= 0xffffffffu;
    return order;
  }

  void build_column_table() {
    const HomeGrid& home = grid.home;
    const std::uint64_t width = home.cols() + 1;
    if (grid.tiled_only || home.rows().empty() ||
        home.rows().size() * width > column_table_per_shape * home.small_count() + column_table_slack)
      return;
    column_table.resize(home.rows().size() * width);
    for (std::size_t k = 0; k < home.rows().size(); ++k) {
      const HomeGrid::Row& row = home.rows()[k];
      std::uint32_t* entry = column_table.data() + k * width;
      std::uint32_t p = row.begin;
      for (std::uint64_t c = 0; c < width; ++c) {
        const std::int64_t col = home.col0() + static_cast<std::int64_t>(c);
        while (p < row.end && home.col_of(p) < col) ++p;
        entry[c] = p;
      }
    }
  }
  Isa isa = Isa::scalar;
  GridKernels kernels{};

  /// Per-thread state of the pass. The query shapes are a scene's, or one shape.
  struct Scratch {
    const Impl* index = nullptr;
    const Scene* queries = nullptr;  // null: the one shape `single`
    KindRanges query_kinds;
    ShapeRecord single{};
    ShapeKind single_kind = ShapeKind::segment;
    float margin = 0.0f;         // pairs within this distance count
    CandidateBuffer candidates;  // (query, position in the home grid's columns)
    CachedVector<TiledGrid::NearShape> near;
    PairKeyList keys;  // query << 32 | shape (global indices)
    /// Set: every candidate is kept here, with its geometry, and nothing is tested
    /// exactly (GridIndex::candidates).
    std::vector<IndexedShape>* candidates_out = nullptr;
    /// A ray or line query instead of a shape: its exact test on a packed shape.
    const void* line = nullptr;
    bool (*line_test)(const void* line, ShapeKind kind, const float* g) = nullptr;

    bool hits(std::uint32_t q, ShapeKind kind, const float* g) const {
      return line_test ? line_test(line, kind, g) : touches(this->kind(q), record(q).g, kind, g, margin);
    }

    ShapeRecord record(std::uint32_t q) const { return queries ? record_of(*queries, query_kinds, q) : single; }
    ShapeKind kind(std::uint32_t q) const { return queries ? query_kinds.kind(q) : single_kind; }
  };

  /// CandidateBuffer::flush: the exact tests of the gathered candidates.
  static void flush(void* context) {
    Scratch& t = *static_cast<Scratch*>(context);
    const HomeGrid& home = t.index->grid.home;
    const KindRanges& kinds = t.index->grid.kinds;
    for (std::uint32_t i = 0; i < t.candidates.count; ++i) {
      const std::uint32_t q = t.candidates.a[i];
      const HomeGrid::Item& item = home.item_at(t.candidates.b[i]);
      if (t.candidates_out)
        t.candidates_out->push_back(indexed(kinds, item.shape, item.g));
      else if (t.hits(q, kinds.kind(item.shape), item.g))
        t.keys.push_back(std::uint64_t{q} << 32 | item.shape);
    }
    t.candidates.count = 0;
  }

  static IndexedShape indexed(const KindRanges& kinds, std::uint32_t shape, const float* g) {
    return {kinds.id(shape), {g[0], g[1], g[2], g[3]}};
  }

  /// A ray's or a line's pass over edge_circles (a segment cast stays in the float range,
  /// where the cells hold every disk's part): tested into t.keys, or as candidates. The
  /// walk may have listed them too; the callers drop the repeats.
  void beyond_float_candidates(Scratch& t) const {
    for (const TiledGrid::NearShape& c : edge_circles) {
      if (t.candidates_out)
        t.candidates_out->push_back(indexed(grid.kinds, c.shape, c.g));
      else if (t.hits(0, ShapeKind::circle, c.g))
        t.keys.push_back(c.shape);
    }
  }

  /// The home cells where a small shape meeting `box` can have its home: the box's rows
  /// and columns and one more below and to the left (see the file comment).
  void small_in_box(const Aabb& box, const RangeSearch& s, std::uint32_t q, Scratch& t) const {
    const BoxCells c = cells_of(box);
    for (std::size_t k = c.first; k < c.last; ++k) search_row(k, c.col_lo, c.col_hi, s, q, t);
  }

  /// A segment (within the indexed extent) walks its cells instead: the home row r can
  /// hold a shape meeting it only in the columns of its footprint in rows r and r + 1 and
  /// one more to their left (a shape spans at most its home column and the next, its home
  /// row and the next), so a long segment costs its rows and columns, not its box.
  void small_along_segment(const Segment& seg, const RangeSearch& s, std::uint32_t q, Scratch& t) const {
    const GridCells& cells = grid.home.cells();
    small_along(
        cells.span(std::min(seg.a.y, seg.b.y), std::max(seg.a.y, seg.b.y)), s, q, t,
        [&](std::int64_t r_lo, std::int64_t r_hi, auto&& f) { cells.for_each_segment_row(seg, r_lo, r_hi, f); });
  }

  /// The home rows that hold shapes within `rows` (a segment's or a line's rows) and one
  /// below, each searched in the columns the piece touches in it and the row above (and
  /// one more to the left), which walk(r_lo, r_hi, f) gives row by row. Only rows that hold
  /// shapes are walked: a long cast over a sparse grid costs its shapes' rows, not its own.
  template <class Walk>
  void small_along(CellSpan rows, const RangeSearch& s, std::uint32_t q, Scratch& t, Walk&& walk) const {
    const HomeGrid& home = grid.home;
    if (rows.size() == 0) return;
    const std::span<const HomeGrid::Row> home_rows = home.rows();
    std::size_t k = home.row_range(rows.lo - 1 - home.row0(), rows.hi - home.row0()).first;
    for (; k < home_rows.size() && home_rows[k].row + home.row0() <= rows.hi; ++k) {
      const std::int64_t r = home_rows[k].row + home.row0();
      CellSpan here, above;
      walk(r, r + 1, [&](std::int64_t row, CellSpan cols) { (row == r ? here : above) = cols; });
      const std::int64_t lo = std::min(here.size() ? here.lo : above.lo, above.size() ? above.lo : here.lo) - 1;
      const std::int64_t hi = std::max(here.size() ? here.hi : above.hi, above.size() ? above.hi : here.hi);
      if (here.size() || above.size()) search_row(k, lo, hi, s, q, t);
    }
  }

  /// A piece of a line (a ray's, a line's or a segment's, through the float point p with
  /// direction (dx, dy), within the float ranges `piece`) cut to the indexed extent and to
  /// `window`: the cells along it and the large shapes near its box, each candidate
  /// through t.line_test.
  void query_line(Vec2 p, double dx, double dy, const Aabb& piece, const Aabb& window, Scratch& t,
                  const float* side_segment = nullptr) const {
    const float x_lo = std::max({piece.min.x, extent.min.x, window.min.x});
    const float x_hi = std::min({piece.max.x, extent.max.x, window.max.x});
    const float y_lo = std::max({piece.min.y, extent.min.y, window.min.y});
    const float y_hi = std::min({piece.max.y, extent.max.y, window.max.y});
    if (!(x_lo <= x_hi && y_lo <= y_hi)) return;
    const Aabb box{{x_lo, y_lo}, {x_hi, y_hi}};
    if (!grid.tiled_only && grid.home.small_count() != 0) {
      const HomeGrid::Columns at = grid.home.columns();
      constexpr float no_segment[4] = {};
      // A segment's piece: the boxes wholly on one side of its line dropped too.
      const RangeSearch s{at.minx,
                          at.miny,
                          at.maxx,
                          at.maxy,
                          box,
                          side_segment != nullptr,
                          SegmentSideFilter(side_segment ? side_segment : no_segment)};
      const bool level = dy == 0.0;
      const double slope = line_slope(dx, dy);
      const GridCells& cells = grid.home.cells();
      small_along(cells.span(y_lo, y_hi), s, 0, t, [&](std::int64_t r_lo, std::int64_t r_hi, auto&& f) {
        cells.for_each_line_row(p, slope, level, y_lo, y_hi, x_lo, x_hi, r_lo, r_hi, f);
      });
    }
    large_along(p, dx, dy, box, 0, t);
  }

  /// Row k's shapes with home columns in [col_lo, col_hi] (absolute) through the range
  /// search.
  void search_row(std::size_t k, std::int64_t col_lo, std::int64_t col_hi, const RangeSearch& s, std::uint32_t q,
                  Scratch& t) const {
    const auto [begin, end] = row_positions(k, col_lo, col_hi);
    if (begin < end) kernels.range_pairs(s, q, begin, end, t.candidates);
  }

  /// The positions in the columns of row k's shapes with home columns in [col_lo,
  /// col_hi] (absolute).
  std::pair<std::uint32_t, std::uint32_t> row_positions(std::size_t k, std::int64_t col_lo, std::int64_t col_hi) const {
    if (!column_table.empty()) {
      const auto [lo, hi] = column_entries(k, col_lo, col_hi);
      return {*lo, *hi};
    }
    const HomeGrid& home = grid.home;
    const HomeGrid::Row& row = home.rows()[k];
    const std::uint32_t begin = home.first_col_at_least(row.begin, row.end, col_lo);
    return {begin, home.first_col_at_least(begin, row.end, col_hi + 1)};
  }

  /// `box` within the indexed shapes' extent (which holds every one of them: a shape
  /// meets the box iff it meets this part), so that its cell indices stay in range however
  /// far the box reaches; nothing when the box misses the extent.
  std::optional<Aabb> within_extent(const Aabb& box) const {
    if (box.min.x > extent.max.x || box.max.x < extent.min.x || box.min.y > extent.max.y || box.max.y < extent.min.y)
      return std::nullopt;
    return Aabb{{std::max(box.min.x, extent.min.x), std::max(box.min.y, extent.min.y)},
                {std::min(box.max.x, extent.max.x), std::min(box.max.y, extent.max.y)}};
  }

  /// The home-grid rows (positions in rows()) and absolute columns small_in_box searches
  /// for a box within the extent.
  struct BoxCells {
    std::size_t first, last;
    std::int64_t col_lo, col_hi;
  };
  BoxCells cells_of(const Aabb& box) const {
    const HomeGrid& home = grid.home;
    const GridCells& cells = home.cells();
    const auto [first, last] =
        home.row_range(cells.index(box.min.y) - 1 - home.row0(), cells.index(box.max.y) - home.row0());
    return {first, last, cells.index(box.min.x) - 1, cells.index(box.max.x)};
  }

  /// Row k's entries of the column table for columns [col_lo, col_hi + 1] (absolute),
  /// clamped to the table (columns outside the grid hold nothing).
  std::pair<const std::uint32_t*, const std::uint32_t*> column_entries(std::size_t k, std::int64_t col_lo,
                                                                       std::int64_t col_hi) const {
    const HomeGrid& home = grid.home;
    const auto width = static_cast<std::int64_t>(home.cols() + 1);
    const std::uint32_t* entry = column_table.data() + static_cast<std::int64_t>(k) * width;
    return {entry + std::clamp<std::int64_t>(col_lo - home.col0(), 0, width - 1),
            entry + std::clamp<std::int64_t>(col_hi + 1 - home.col0(), 0, width - 1)};
  }

  /// GridIndex::prefetch_rows (shapes = false) and prefetch_shapes (true): what
  /// small_candidates will read for `box` (the column table, the rows' items).
  void prefetch(const Aabb& query_box, bool shapes) const {
    const std::optional<Aabb> box = within_extent(query_box);
    if (!box || grid.tiled_only || grid.home.small_count() == 0 || column_table.empty()) return;
    const HomeGrid& home = grid.home;
    const BoxCells c = cells_of(*box);
    for (std::size_t k = c.first; k < c.last; ++k) {
      const auto [lo, hi] = column_entries(k, c.col_lo, c.col_hi);
      if (!shapes) {
        __builtin_prefetch(lo);
        __builtin_prefetch(hi);
        continue;
      }
      const std::uint32_t begin = *lo, end = *hi;
      if (begin >= end) continue;
      __builtin_prefetch(&home.item_at(begin));
      __builtin_prefetch(&home.item_at(end - 1) + 1);  // an item may end on the next line
    }
  }

  /// The small shapes whose bounds meet `box`, with their geometry, into `out`: the home
  /// cells a small shape meeting the box can have (small_in_box's), each shape's bounds
  /// from its item (bounds_of: the columns' boxes), so that the query reads a row's items
  /// and not its four columns too (a query of a large index waits on memory, line by line).
  void small_candidates(const Aabb& query_box, std::vector<IndexedShape>& out) const {
    const std::optional<Aabb> within = within_extent(query_box);
    if (!within || grid.tiled_only || grid.home.small_count() == 0) return;
    const Aabb& box = *within;
    const HomeGrid& home = grid.home;
    const BoxCells c = cells_of(box);
    for (std::size_t k = c.first; k < c.last; ++k) {
      const auto [begin, end] = row_positions(k, c.col_lo, c.col_hi);
      for (std::uint32_t p = begin; p < end; ++p) {
        const HomeGrid::Item& item = home.item_at(p);
        if (overlaps(bounds_of(grid.kinds.kind(item.shape), item.g), box))
          out.push_back(indexed(grid.kinds, item.shape, item.g));
      }
    }
  }

  /// Query shape q: its candidates among the small shapes into the buffer, its pairs
  /// with the large ones into t.keys.
  void query(std::uint32_t q, Scratch& t) const {
    ShapeRecord query = t.record(q);
    const ShapeKind kind = t.kind(q);
    query.box = grown(query.box, t.margin);  // a shape within the margin meets this box
    const std::optional<Aabb> within = within_extent(query.box);
    if (!within) return;
    const Aabb box = *within;
    if (!grid.tiled_only && grid.home.small_count() != 0) {
      const HomeGrid::Columns at = grid.home.columns();
      // (The side filter drops boxes wholly on one side of a segment's line: only for
      // pairs that must intersect, not for pairs within a margin.)
      const RangeSearch s{at.minx,
                          at.miny,
                          at.maxx,
                          at.maxy,
                          box,
                          kind == ShapeKind::segment && t.margin == 0.0f,
                          SegmentSideFilter(query.g)};
      const bool clipped = !(box == query.box);
      if (kind == ShapeKind::segment && !clipped && t.margin == 0.0f)
        small_along_segment(as_segment(query.g), s, q, t);
      else
        small_in_box(box, s, q, t);
    }
    if (kind == ShapeKind::segment && t.margin == 0.0f) {
      // The segment within `box` (its bounds, maybe cut to the extent) is its line's piece
      // there: the large shapes along it, not all of its box's.
      const Segment seg = as_segment(query.g);
      large_along(seg.a, double{seg.b.x} - seg.a.x, double{seg.b.y} - seg.a.y, box, q, t);
    } else {
      large_near(box, q, t);
    }
  }

  /// One query shape's pairs into t.keys (or its candidates into t.candidates_out), all
  /// tested.
  void query_one(const ShapeRecord& shape, ShapeKind kind, Scratch& t) const {
    t.index = this;
    t.single = shape;
    t.single_kind = kind;
    t.candidates.flush = &flush;
    t.candidates.context = &t;
    query(0, t);
    flush(&t);
  }

  /// Query q's pairs with the large shapes whose boxes meet `box`, into t.keys.
  void large_near(const Aabb& box, std::uint32_t q, Scratch& t) const {
    t.near.clear();
    if (grid.tiled.entries() != 0)
      grid.tiled.shapes_near(box, t.near);
    else
      few_large_near(box, t);
    test_near(q, t);
  }

  /// The same for the piece within `box` of the line through p with direction (dx, dy)
  /// (TiledGrid::shapes_along_line).
  void large_along(Vec2 p, double dx, double dy, const Aabb& box, std::uint32_t q, Scratch& t) const {
    t.near.clear();
    if (grid.tiled.entries() != 0)
      grid.tiled.shapes_along_line(p, dx, dy, box, t.near);
    else
      few_large_near(box, t);
    test_near(q, t);
  }

  /// With fewer than two large shapes (no tiled grid): those whose boxes meet `box`, into
  /// t.near.
  void few_large_near(const Aabb& box, Scratch& t) const {
    const HomeGrid& home = grid.home;
    for (std::size_t l = 0; l < home.large_ids().size(); ++l) {
      const ShapeRecord& r = home.large_records()[l];
      if (r.box.min.x <= box.max.x && box.min.x <= r.box.max.x && r.box.min.y <= box.max.y && box.min.y <= r.box.max.y)
        t.near.push_back({home.large_ids()[l], {r.g[0], r.g[1], r.g[2], r.g[3]}});
    }
  }

  /// The large shapes in t.near, each once (a shape comes once per tile it spans), as
  /// candidates or through query q's exact test into t.keys.
  void test_near(std::uint32_t q, Scratch& t) const {
    std::sort(t.near.begin(), t.near.end(), [](const auto& a, const auto& b) { return a.shape < b.shape; });
    for (std::size_t i = 0; i < t.near.size(); ++i) {
      if (i > 0 && t.near[i].shape == t.near[i - 1].shape) continue;
      if (t.candidates_out)
        t.candidates_out->push_back(indexed(grid.kinds, t.near[i].shape, t.near[i].g));
      else if (t.hits(q, grid.kinds.kind(t.near[i].shape), t.near[i].g))
        t.keys.push_back(std::uint64_t{q} << 32 | t.near[i].shape);
    }
  }
};

void GridIndex::ImplDelete::operator()(Impl* p) const noexcept { CachedDelete<Impl>()(p); }

GridIndex::GridIndex() = default;
GridIndex::~GridIndex() = default;
GridIndex::GridIndex(GridIndex&&) noexcept = default;
GridIndex& GridIndex::operator=(GridIndex&& other) noexcept {
  // The old grid first, into the blocks' owner it came with (still held), then the owner.
  impl_ = std::move(other.impl_);
  blocks_owner_ = std::move(other.blocks_owner_);
  return *this;
}

namespace {

/// The grid of `scene` for an index (the options checked first).
Grid index_grid(const Scene& scene, const FindPairsOptions& options) {
  check_cell_sizes(options);
  StageClock clock(nullptr);
  return build_grid(scene, options, resolve_isa(options.isa), clock);
}

}  // namespace

GridIndex::GridIndex(const Scene& scene, const FindPairsOptions& options)
    : GridIndex(index_grid(scene, options), scene, resolve_isa(options.isa)) {}

GridIndex::GridIndex(Grid&& grid, const Scene& scene, Isa isa) : blocks_owner_(BlockCache::current()) {
  CachedPtr<Impl> impl = make_cached<Impl>();
  impl->isa = isa;
  impl->kernels = grid_kernels(isa);
  impl->grid = std::move(grid);
  impl->extent = scene.bounds();
  impl->find_edge_circles(scene);
  impl_.reset(impl.release());
}

std::size_t GridIndex::size() const { return impl_ ? impl_->grid.shapes : 0; }

float GridIndex::cell_size() const {
  if (size() == 0) return 0.0f;
  const Grid& g = impl_->grid;
  return static_cast<float>(g.tiled_only ? g.tiled.cell_size() : g.home.cells().cell_size());
}

template <class S>
void GridIndex::touching_shape(const S& shape, ShapeKind kind, std::vector<ShapeId>& out) const {
  out.clear();
  if (size() == 0) return;
  impl_->columns();
  const Impl& index = *impl_;
  ShapeRecord record{bounds(shape), {}};
  const float* g = reinterpret_cast<const float*>(&shape);  // Segment, Circle, Box: their floats in ShapeRecord order
  std::copy(g, g + sizeof(S) / sizeof(float), record.g);
  Impl::Scratch t;
  index.query_one(record, kind, t);
  std::sort(t.keys.begin(), t.keys.end());
  out.resize(t.keys.size());
  for (std::size_t i = 0; i < t.keys.size(); ++i) out[i] = index.grid.kinds.id(static_cast<std::uint32_t>(t.keys[i]));
}

void GridIndex::prefetch_rows(const Aabb& box) const {
  if (size() == 0) return;
  impl_->columns();
  impl_->prefetch(box, false);
}

void GridIndex::prefetch_shapes(const Aabb& box) const {
  if (size() == 0) return;
  impl_->columns();
  impl_->prefetch(box, true);
}

void GridIndex::candidates(const Aabb& box, std::vector<IndexedShape>& out) const {
  out.clear();
  if (size() == 0) return;
  impl_->columns();
  impl_->small_candidates(box, out);
  Impl::Scratch t;
  t.candidates_out = &out;
  if (const std::optional<Aabb> within = impl_->within_extent(box)) impl_->large_near(*within, 0, t);
  // (Each shape is found once: a small one in its home cell, a large one once however
  // many tiles it spans.)
  std::sort(out.begin(), out.end(), [](const IndexedShape& a, const IndexedShape& b) { return a.id < b.id; });
}

void GridIndex::touching(const Segment& s, std::vector<ShapeId>& out) const {
  touching_shape(s, ShapeKind::segment, out);
}
void GridIndex::touching(const Circle& c, std::vector<ShapeId>& out) const {
  touching_shape(c, ShapeKind::circle, out);
}
void GridIndex::touching(const Box& b, std::vector<ShapeId>& out) const { touching_shape(b, ShapeKind::box, out); }

namespace {

/// The exact test of a ray or line L against a packed shape (Scratch::line_test).
template <class L>
bool line_meets(const void* line, ShapeKind kind, const float* g) {
  const L& l = *static_cast<const L*>(line);
  switch (kind) {
    case ShapeKind::segment:
      if constexpr (std::is_same_v<L, Segment>)
        return intersects_packed(ShapeKind::segment, reinterpret_cast<const float*>(&l), kind, g);
      else
        return intersects(l, as_segment(g));
    case ShapeKind::circle:
      return intersects(l, as_circle(g));
    case ShapeKind::box:
      break;
  }
  return intersects(l, as_box(g));
}

constexpr float infinity = std::numeric_limits<float>::infinity();
constexpr Aabb everywhere{{-infinity, -infinity}, {infinity, infinity}};

/// The range of one coordinate along a ray from o in direction d: from o on.
std::pair<float, float> ray_range(float o, float d) {
  if (d == 0.0f) return {o, o};
  return d > 0.0f ? std::pair{o, infinity} : std::pair{-infinity, o};
}

}  // namespace

template <class L>
void GridIndex::line_query(const L& line, const Aabb& window, void* scratch) const {
  const Impl& index = *impl_;
  Impl::Scratch& t = *static_cast<Impl::Scratch*>(scratch);
  t.index = &index;
  t.line = &line;
  t.line_test = &line_meets<L>;
  t.candidates.flush = &Impl::flush;
  t.candidates.context = &t;
  if constexpr (!std::is_same_v<L, Segment>) index.beyond_float_candidates(t);
  if (!intersects(line, Box{index.extent.min, index.extent.max})) return;  // exact
  if constexpr (std::is_same_v<L, Segment>) {
    const float g[4] = {line.a.x, line.a.y, line.b.x, line.b.y};
    index.query_line(line.a, double{line.b.x} - line.a.x, double{line.b.y} - line.a.y, bounds(line), window, t, g);
  } else if constexpr (std::is_same_v<L, Ray>) {
    const auto [x_lo, x_hi] = ray_range(line.origin.x, line.direction.x);
    const auto [y_lo, y_hi] = ray_range(line.origin.y, line.direction.y);
    index.query_line(line.origin, line.direction.x, line.direction.y, {{x_lo, y_lo}, {x_hi, y_hi}}, window, t);
  } else {
    const Vec2 p = line.point, d = line.direction;
    const Aabb piece{{d.x == 0.0f ? p.x : -infinity, d.y == 0.0f ? p.y : -infinity},
                     {d.x == 0.0f ? p.x : infinity, d.y == 0.0f ? p.y : infinity}};
    index.query_line(p, d.x, d.y, piece, window, t);
  }
  Impl::flush(&t);
}

template <class L>
void GridIndex::touching_line(const L& line, const Aabb& window, std::vector<ShapeId>& out) const {
  out.clear();
  if (size() == 0) return;
  impl_->columns();
  Impl::Scratch t;
  line_query(line, window, &t);
  std::sort(t.keys.begin(), t.keys.end());
  if (!impl_->edge_circles.empty())  // found by the walk too
    t.keys.erase(std::unique(t.keys.begin(), t.keys.end()), t.keys.end());
  out.resize(t.keys.size());
  for (std::size_t i = 0; i < t.keys.size(); ++i) out[i] = impl_->grid.kinds.id(static_cast<std::uint32_t>(t.keys[i]));
}

template <class L>
void GridIndex::line_candidates(const L& cast, const Aabb& window, std::vector<IndexedShape>& out) const {
  out.clear();
  if (size() == 0) return;
  impl_->columns();
  Impl::Scratch t;
  t.candidates_out = &out;
  line_query(cast, window, &t);
  if (!impl_->edge_circles.empty()) {  // each once: the walk may have listed them too
    const KindRanges& kinds = impl_->grid.kinds;
    auto global = [&](const IndexedShape& s) { return kinds.global(s.id); };
    std::sort(out.begin(), out.end(), [&](const auto& a, const auto& b) { return global(a) < global(b); });
    out.erase(std::unique(out.begin(), out.end(), [&](const auto& a, const auto& b) { return global(a) == global(b); }),
              out.end());
  }
}

void GridIndex::touching(const Ray& r, std::vector<ShapeId>& out) const { touching_line(r, everywhere, out); }
void GridIndex::touching(const Line& l, std::vector<ShapeId>& out) const { touching_line(l, everywhere, out); }
void GridIndex::touching(const Ray& r, const Aabb& window, std::vector<ShapeId>& out) const {
  touching_line(r, window, out);
}
void GridIndex::touching(const Segment& s, const Aabb& window, std::vector<ShapeId>& out) const {
  touching_line(s, window, out);
}
void GridIndex::candidates(const Ray& ray, const Aabb& window, std::vector<IndexedShape>& out) const {
  line_candidates(ray, window, out);
}
void GridIndex::candidates(const Segment& cast, const Aabb& window, std::vector<IndexedShape>& out) const {
  line_candidates(cast, window, out);
}

void GridIndex::pairs_with(const Scene& queries, std::vector<CrossPair>& out, float margin) const {
  if (!valid_margin(margin)) throw Error("pairs_with: the margin must be finite and >= 0");
  out.clear();
  if (size() == 0 || queries.empty()) return;
  impl_->columns();
  const Impl& index = *impl_;
  const KindRanges query_kinds = KindRanges::of(queries);
  tbb::enumerable_thread_specific<Impl::Scratch> scratch([&] {
    Impl::Scratch t;
    t.index = &index;
    t.queries = &queries;
    t.query_kinds = query_kinds;
    t.margin = margin;
    return t;
  });
  const UninitializedVector<std::uint64_t> order = index.grid_order(queries, query_kinds);
  detail::parallel_for(tbb::blocked_range<std::size_t>(0, queries.size(), queries_per_task), [&](const auto& r) {
    Impl::Scratch& t = scratch.local();
    // The buffer refers to this thread's scratch, which has its place now.
    t.candidates.flush = &Impl::flush;
    t.candidates.context = &t;
    for (std::size_t i = r.begin(); i != r.end(); ++i) index.query(static_cast<std::uint32_t>(order[i]), t);
    Impl::flush(&t);
  });
  PairKeyList keys;
  std::size_t total = 0;
  for (const Impl::Scratch& t : scratch) total += t.keys.size();
  keys.reserve(total);  // one block, not a doubling series
  for (Impl::Scratch& t : scratch) keys.insert(keys.end(), t.keys.begin(), t.keys.end());
  // Each pair is found once (a small shape lies in one cell, large repeats are dropped):
  // sorting makes the order independent of the threads.
  radix_sort(keys, 32 + bits_for(queries.size()));
  out.resize(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i)
    out[i] = {query_kinds.id(static_cast<std::uint32_t>(keys[i] >> 32)),
              index.grid.kinds.id(static_cast<std::uint32_t>(keys[i]))};
}

}  // namespace hitgrid
