#include "hitgrid/broadphase/uniform_grid.hpp"

#include <tbb/combinable.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>
#include <tbb/parallel_scan.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <numeric>

#include "hitgrid/broadphase/grid_cells.hpp"
#include "hitgrid/core/error.hpp"
#include "hitgrid/core/intersects.hpp"
#include "hitgrid/core/stopwatch.hpp"
#include "radix_sort.hpp"
#include "uninitialized_vector.hpp"

namespace hitgrid {
namespace {

// A cell with more entries than this is searched by a sweep on x instead of all pairs.
constexpr std::size_t all_pairs_limit = 32;

int bits_for(std::uint64_t n) { return n <= 1 ? 0 : 64 - std::countl_zero(n - 1); }

/// A shape's bounds and geometry packed in 32 bytes, so that gathering a shape into cell
/// order touches one cache line instead of one per SoA column. Geometry: segment
/// (ax, ay, bx, by); circle (cx, cy, r, 0); box (minx, miny, maxx, maxy).
struct ShapeRecord {
  Aabb box;
  float g[4];
};
static_assert(sizeof(ShapeRecord) == 32);

/// The kind of the shape at a global index (segments, then circles, then boxes).
struct KindRanges {
  std::uint32_t circles_begin = 0, boxes_begin = 0;
  ShapeKind kind(std::uint32_t i) const {
    return i < circles_begin ? ShapeKind::segment : (i < boxes_begin ? ShapeKind::circle : ShapeKind::box);
  }
  ShapeId id(std::uint32_t i) const {
    switch (kind(i)) {
      case ShapeKind::segment:
        return {ShapeKind::segment, i};
      case ShapeKind::circle:
        return {ShapeKind::circle, i - circles_begin};
      case ShapeKind::box:
        break;
    }
    return {ShapeKind::box, i - boxes_begin};
  }
};

Segment as_segment(const float* g) { return {{g[0], g[1]}, {g[2], g[3]}}; }
Circle as_circle(const float* g) { return {{g[0], g[1]}, g[2]}; }
Box as_box(const float* g) { return {{g[0], g[1]}, {g[2], g[3]}}; }

/// The exact test on two packed shapes, kinds ordered ka <= kb.
bool intersects_packed(ShapeKind ka, const float* a, ShapeKind kb, const float* b) {
  switch (ka) {
    case ShapeKind::segment:
      switch (kb) {
        case ShapeKind::segment:
          return intersects(as_segment(a), as_segment(b));
        case ShapeKind::circle:
          return intersects(as_segment(a), as_circle(b));
        case ShapeKind::box:
          return intersects(as_segment(a), as_box(b));
      }
      break;
    case ShapeKind::circle:
      return kb == ShapeKind::circle ? intersects(as_circle(a), as_circle(b)) : intersects(as_circle(a), as_box(b));
    case ShapeKind::box:
      return intersects(as_box(a), as_box(b));
  }
  return false;
}

UninitializedVector<ShapeRecord> pack_shapes(const Scene& scene) {
  const std::size_t ns = scene.segment_count(), nc = scene.circle_count();
  UninitializedVector<ShapeRecord> out(scene.size());
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, out.size(), 1 << 14), [&](const auto& range) {
    for (std::size_t i = range.begin(); i != range.end(); ++i) {
      ShapeRecord& r = out[i];
      if (i < ns) {
        const Segment s = scene.segment(static_cast<std::uint32_t>(i));
        r = {bounds(s), {s.a.x, s.a.y, s.b.x, s.b.y}};
      } else if (i < ns + nc) {
        const Circle c = scene.circle(static_cast<std::uint32_t>(i - ns));
        r = {bounds(c), {c.c.x, c.c.y, c.r, 0.0f}};
      } else {
        const Box b = scene.box(static_cast<std::uint32_t>(i - ns - nc));
        r = {b.min, b.max, {b.min.x, b.min.y, b.max.x, b.max.y}};
      }
    }
  });
  return out;
}

struct SceneExtent {
  double minx = std::numeric_limits<double>::infinity(), miny = minx;
  double maxx = -std::numeric_limits<double>::infinity(), maxy = maxx;
  void add(const Aabb& b) {
    minx = std::min<double>(minx, b.min.x);
    miny = std::min<double>(miny, b.min.y);
    maxx = std::max<double>(maxx, b.max.x);
    maxy = std::max<double>(maxy, b.max.y);
  }
  void add(const SceneExtent& o) {
    minx = std::min(minx, o.minx);
    miny = std::min(miny, o.miny);
    maxx = std::max(maxx, o.maxx);
    maxy = std::max(maxy, o.maxy);
  }
};

SceneExtent scene_extent(const UninitializedVector<ShapeRecord>& shapes) {
  return tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, shapes.size(), 1 << 14), SceneExtent{},
      [&](const auto& r, SceneExtent e) {
        for (std::size_t i = r.begin(); i != r.end(); ++i) e.add(shapes[i].box);
        return e;
      },
      [](SceneExtent a, const SceneExtent& b) {
        a.add(b);
        return a;
      });
}

/// log2 of the cell side. Automatic: 2.5 times the median shape extent (a robust typical
/// size: 1% of huge segments must not inflate it), to the nearest power of two, but no
/// smaller than the mean spacing of the shapes, so that points and tiny shapes do not make
/// a grid of mostly empty cells. Measured on uniform N = 1,000,000 (median extent 0.71):
/// cells of 0.5, 1, 2, 4 took 250, 195, 140, 210 ms on one thread (see the issue notes).
/// Either way no smaller than the world allows: cell indices must stay exact and small.
int choose_log2_cell(const UninitializedVector<ShapeRecord>& shapes, const SceneExtent& ext, float requested) {
  const double width = ext.maxx - ext.minx, height = ext.maxy - ext.miny;
  const double max_abs = std::max({std::fabs(ext.minx), std::fabs(ext.maxx), std::fabs(ext.miny), std::fabs(ext.maxy)});
  // Columns and rows < 2^30 and |coordinate| / h < 2^50.
  const double min_cell = std::max({width * 0x1p-30, height * 0x1p-30, max_abs * 0x1p-50, 0x1p-149});
  double cell = requested;
  if (cell == 0.0) {
    const std::size_t samples = std::min<std::size_t>(shapes.size(), 4096);
    std::vector<float> extents(samples);
    for (std::size_t k = 0; k < samples; ++k) {
      const Aabb& b = shapes[k * shapes.size() / samples].box;
      extents[k] = std::max(b.max.x - b.min.x, b.max.y - b.min.y);
    }
    std::nth_element(extents.begin(), extents.begin() + static_cast<std::ptrdiff_t>(samples / 2), extents.end());
    const double median = samples ? extents[samples / 2] : 0.0;
    const double spacing = std::sqrt(width * height / static_cast<double>(std::max<std::size_t>(shapes.size(), 1)));
    cell = std::max(2.5 * median, spacing);
    if (!(cell > 0.0) || !std::isfinite(cell)) cell = 1.0;
    cell = std::max(cell, min_cell);
    return static_cast<int>(std::lround(std::log2(cell)));
  }
  cell = std::max(cell, min_cell);
  return std::ilogb(cell);  // a requested size: the power of two at or below
}

/// One shape in one tile: the tile's id, the shape's global index and the shape itself, so
/// that sorting the entries by tile also brings every tile's shapes together in memory.
struct TileEntry {
  std::uint64_t tile;
  std::uint32_t shape;
  ShapeRecord rec;
};

/// Per-thread scratch of the tile pass, reused from tile to tile.
/// An entry in one cell of a tile, with the first column of its footprint in that row
/// (relative to the tile; -1 stands for any column left of the tile).
struct CellHit {
  std::uint32_t entry;
  std::int32_t first_col;
};

struct TileScratch {
  std::vector<std::uint32_t> cell_count;                // per cell of the tile, then cell starts
  std::vector<std::pair<std::uint32_t, CellHit>> hits;  // (cell, hit) in entry order
  std::vector<CellHit> by_cell;                         // hits in cell order
  std::vector<std::int64_t> first_row;                  // per entry of the tile: its footprint's first row
  std::vector<CellHit> order;                           // a crowded cell's hits sorted on the sweep axis
  std::vector<CellSpan> spans_a, spans_b;               // rows of two footprints, for the first-cell rule
  std::vector<std::uint64_t> pairs;                     // found pairs (global index keys)
  std::uint64_t tested = 0;
  // The cell being searched.
  std::size_t tile_begin = 0;
  std::int64_t row0 = 0;
  std::int32_t row = 0, col = 0;
};

class Grid {
 public:
  Grid(const Scene& scene, const GridOptions& options, GridStats& stats) : stats_(stats), cells_(0), tiles_(0) {
    Stopwatch clock;
    kinds_.circles_begin = static_cast<std::uint32_t>(scene.segment_count());
    kinds_.boxes_begin = static_cast<std::uint32_t>(scene.segment_count() + scene.circle_count());
    id_bits_ = bits_for(scene.size());
    UninitializedVector<ShapeRecord> shapes = pack_shapes(scene);
    const SceneExtent ext = scene_extent(shapes);
    const int log2_cell = choose_log2_cell(shapes, ext, options.cell_size);
    cells_ = GridCells(log2_cell);
    tiles_ = GridCells(log2_cell + tile_log2_cells);
    stats_.cell_size = cells_.cell_size();
    if (!shapes.empty()) {
      const CellSpan cols = tiles_.span(ext.minx, ext.maxx), rows = tiles_.span(ext.miny, ext.maxy);
      tile_col0_ = cols.lo;
      tile_row0_ = rows.lo;
      tile_cols_ = static_cast<std::uint64_t>(cols.size());
      tile_bits_ = bits_for(tile_cols_ * static_cast<std::uint64_t>(rows.size()));
    }
    std::vector<std::uint64_t> offsets = count_tile_entries(shapes);
    stats_.bounds_ms = clock.lap_ms();
    fill_tile_entries(shapes, offsets);
    stats_.bucket_ms = clock.lap_ms();
  }

  PairList find_pairs() {
    Stopwatch clock;
    std::vector<std::uint64_t> keys = tile_pairs();
    stats_.pairs_ms = clock.lap_ms();
    PairList out = sorted_unique_pairs(keys);
    stats_.merge_ms = clock.lap_ms();
    return out;
  }

 private:
  // Tiles of 16 x 16 cells: a tile's cell table (256 counters) and its entries stay in L1
  // while the tile is searched, where one global table of cells would miss the cache on
  // nearly every access.
  static constexpr int tile_log2_cells = 4;
  static constexpr std::int64_t tile_side = std::int64_t{1} << tile_log2_cells;
  // Rows the first-shared-cell rule looks back for a segment pair (see shares_row_below).
  static constexpr std::int64_t first_cell_rows = 4;

  /// Calls f(row, columns) for the rows in [row_lo, row_hi] of the shape's footprint in
  /// grid g (segments: conservative row spans; others: the bounding box).
  template <class F>
  void for_each_row(const GridCells& g, ShapeKind kind, const ShapeRecord& s, std::int64_t row_lo, std::int64_t row_hi,
                    F&& f) const {
    if (kind == ShapeKind::segment) {
      g.for_each_segment_row(as_segment(s.g), row_lo, row_hi, f);
      return;
    }
    CellSpan cols, rows;
    g.box_cells(s.box, cols, rows);
    for (std::int64_t r = std::max(rows.lo, row_lo); r <= std::min(rows.hi, row_hi); ++r) f(r, cols);
  }

  static constexpr std::int64_t all_rows_lo = std::numeric_limits<std::int64_t>::min();
  static constexpr std::int64_t all_rows_hi = std::numeric_limits<std::int64_t>::max();

  std::vector<std::uint64_t> count_tile_entries(const UninitializedVector<ShapeRecord>& shapes) const {
    const std::size_t n = shapes.size();
    std::vector<std::uint64_t> offsets(n + 1, 0);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 1 << 12), [&](const auto& r) {
      for (std::size_t i = r.begin(); i != r.end(); ++i) {
        std::uint64_t count = 0;
        for_each_row(tiles_, kinds_.kind(static_cast<std::uint32_t>(i)), shapes[i], all_rows_lo, all_rows_hi,
                     [&](std::int64_t, CellSpan cols) { count += static_cast<std::uint64_t>(cols.size()); });
        offsets[i + 1] = count;
      }
    });
    std::partial_sum(offsets.begin(), offsets.end(), offsets.begin());
    return offsets;
  }

  void fill_tile_entries(const UninitializedVector<ShapeRecord>& shapes, const std::vector<std::uint64_t>& offsets) {
    const std::size_t n = shapes.size();
    entries_.resize(offsets[n]);
    stats_.entries = offsets[n];
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 1 << 12), [&](const auto& r) {
      for (std::size_t i = r.begin(); i != r.end(); ++i) {
        std::uint64_t e = offsets[i];
        const auto shape = static_cast<std::uint32_t>(i);
        for_each_row(tiles_, kinds_.kind(shape), shapes[i], all_rows_lo, all_rows_hi,
                     [&](std::int64_t row, CellSpan cols) {
                       const std::uint64_t base = static_cast<std::uint64_t>(row - tile_row0_) * tile_cols_;
                       for (std::int64_t c = cols.lo; c <= cols.hi; ++c)
                         entries_[e++] = {base + static_cast<std::uint64_t>(c - tile_col0_), shape, shapes[i]};
                     });
      }
    });
    radix_sort_items(
        entries_, [](const TileEntry& t) { return t.tile; }, tile_bits_);
    tile_starts_.clear();
    for (std::size_t e = 0; e < entries_.size(); ++e)
      if (e == 0 || entries_[e].tile != entries_[e - 1].tile) tile_starts_.push_back(e);
    tile_starts_.push_back(entries_.size());
    stats_.buckets = tile_starts_.size() - 1;
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

  /// The rest, for a pair with a segment: whether any of the rows below this one holds
  /// both, looking down from the row below and stopping at the first shared row (usually
  /// the very next one). Past `first_cell_rows` rows it gives up and reports the pair,
  /// which then appears twice only if the two footprints share cells separated by more
  /// rows than that with none shared in between; the final sort removes such rare repeats.
  bool shares_row_below(const CellHit& a, const CellHit& b, const TileScratch& t) const {
    const std::int64_t r0 = std::max(t.first_row[a.entry - t.tile_begin], t.first_row[b.entry - t.tile_begin]);
    const std::int64_t row = t.row0 + t.row;
    const ShapeKind ka = kinds_.kind(entries_[a.entry].shape), kb = kinds_.kind(entries_[b.entry].shape);
    for (std::int64_t r = row - 1; r >= std::max(r0, row - first_cell_rows); --r) {
      CellSpan sa, sb;
      for_each_row(cells_, ka, entries_[a.entry].rec, r, r, [&](std::int64_t, CellSpan c) { sa = c; });
      for_each_row(cells_, kb, entries_[b.entry].rec, r, r, [&](std::int64_t, CellSpan c) { sb = c; });
      if (sa.lo <= sb.hi && sb.lo <= sa.hi) return true;
    }
    return false;
  }

  /// The exact test on two hits of the cell being searched, if it is their first shared
  /// cell. The row check runs after the exact test, only for pairs that do intersect:
  /// about ten long segments share each cell of long_tail and most of their pairs never
  /// meet, so walking rows first made that scene twice as slow.
  void test_pair(const CellHit& hi, const CellHit& hj, TileScratch& t) const {
    const FirstCell first = first_cell_quick(hi, hj, t);
    if (first == FirstCell::no) return;
    std::size_t i = hi.entry, j = hj.entry;
    std::uint32_t a = entries_[i].shape, b = entries_[j].shape;
    if (b < a) {
      std::swap(a, b);
      std::swap(i, j);
    }
    ++t.tested;
    if (!intersects_packed(kinds_.kind(a), entries_[i].rec.g, kinds_.kind(b), entries_[j].rec.g)) return;
    if (first == FirstCell::check_rows && shares_row_below(hi, hj, t)) return;
    t.pairs.push_back((std::uint64_t{a} << id_bits_) | b);
  }

  /// Candidate pairs among the entries of one cell.
  void cell_pairs(const CellHit* first, const CellHit* last, TileScratch& t) const {
    const auto k = static_cast<std::size_t>(last - first);
    if (k <= all_pairs_limit) {
      // The cell's boxes as small arrays; each box against the later ones with a
      // branch-free overlap test whose mask advances the candidate list (bounding boxes
      // overlap unpredictably, and a mispredicted branch per test cost more than the test).
      float minx[all_pairs_limit], miny[all_pairs_limit], maxx[all_pairs_limit], maxy[all_pairs_limit];
      for (std::size_t x = 0; x < k; ++x) {
        const Aabb& b = entries_[first[x].entry].rec.box;
        minx[x] = b.min.x;
        miny[x] = b.min.y;
        maxx[x] = b.max.x;
        maxy[x] = b.max.y;
      }
      std::uint32_t candidates[all_pairs_limit];
      for (std::size_t x = 0; x + 1 < k; ++x) {
        std::size_t n = 0;
        for (std::size_t y = x + 1; y < k; ++y) {
          const bool overlap =
              (minx[x] <= maxx[y]) & (minx[y] <= maxx[x]) & (miny[x] <= maxy[y]) & (miny[y] <= maxy[x]);
          candidates[n] = static_cast<std::uint32_t>(y);
          n += overlap;
        }
        for (std::size_t c = 0; c < n; ++c) test_pair(first[x], first[candidates[c]], t);
      }
      return;
    }
    // A crowded cell: sweep, so the work follows the overlaps, not k^2. Along the axis on
    // which the boxes overlap least (total extent relative to the spread of their left
    // edges): a stack of parallel segments overlaps completely along its length and not at
    // all across it.
    t.order.assign(first, last);
    auto box = [&](const CellHit& h) -> const Aabb& { return entries_[h.entry].rec.box; };
    double extent[2] = {0.0, 0.0}, lo[2] = {HUGE_VAL, HUGE_VAL}, hi[2] = {-HUGE_VAL, -HUGE_VAL};
    for (const CellHit& e : t.order) {
      const Aabb& b = box(e);
      extent[0] += double{b.max.x} - b.min.x;
      extent[1] += double{b.max.y} - b.min.y;
      lo[0] = std::min<double>(lo[0], b.min.x);
      hi[0] = std::max<double>(hi[0], b.min.x);
      lo[1] = std::min<double>(lo[1], b.min.y);
      hi[1] = std::max<double>(hi[1], b.min.y);
    }
    // Compare extent[0] / spread[0] with extent[1] / spread[1] without dividing by zero.
    const bool along_y = extent[1] * (hi[0] - lo[0]) < extent[0] * (hi[1] - lo[1]);
    auto min_of = [&](const CellHit& e) { return along_y ? box(e).min.y : box(e).min.x; };
    auto max_of = [&](const CellHit& e) { return along_y ? box(e).max.y : box(e).max.x; };
    std::sort(t.order.begin(), t.order.end(), [&](const CellHit& a, const CellHit& b) {
      return min_of(a) < min_of(b) || (min_of(a) == min_of(b) && a.entry < b.entry);
    });
    for (std::size_t x = 0; x < k; ++x) {
      const Aabb& bx = box(t.order[x]);
      const float end_x = max_of(t.order[x]);
      for (std::size_t y = x + 1; y < k && min_of(t.order[y]) <= end_x; ++y)
        if (overlaps(bx, box(t.order[y]))) test_pair(t.order[x], t.order[y], t);
    }
  }

  /// Buckets one tile's entries into its 16 x 16 cells (a counting sort in L1) and
  /// searches every cell.
  void search_tile(std::size_t begin, std::size_t end, TileScratch& t) const {
    const std::uint64_t tile = entries_[begin].tile;
    const std::int64_t row0 = (static_cast<std::int64_t>(tile / tile_cols_) + tile_row0_) * tile_side;
    const std::int64_t col0 = (static_cast<std::int64_t>(tile % tile_cols_) + tile_col0_) * tile_side;
    t.tile_begin = begin;
    t.row0 = row0;
    t.cell_count.assign(tile_side * tile_side + 1, 0);
    t.hits.clear();
    t.first_row.resize(end - begin);
    for (std::size_t e = begin; e < end; ++e) {
      const auto entry = static_cast<std::uint32_t>(e);
      const Aabb& box = entries_[e].rec.box;
      t.first_row[e - begin] = cells_.span(box.min.y, box.max.y).lo;
      for_each_row(cells_, kinds_.kind(entries_[e].shape), entries_[e].rec, row0, row0 + tile_side - 1,
                   [&](std::int64_t row, CellSpan cols) {
                     const std::int64_t lo = std::max(cols.lo, col0), hi = std::min(cols.hi, col0 + tile_side - 1);
                     const auto first_col = static_cast<std::int32_t>(std::max<std::int64_t>(cols.lo - col0, -1));
                     for (std::int64_t c = lo; c <= hi; ++c) {
                       const auto cell = static_cast<std::uint32_t>((row - row0) * tile_side + (c - col0));
                       t.hits.push_back({cell, CellHit{entry, first_col}});
                       ++t.cell_count[cell + 1];
                     }
                   });
    }
    if (t.hits.size() < 2) return;
    std::partial_sum(t.cell_count.begin(), t.cell_count.end(), t.cell_count.begin());
    t.by_cell.resize(t.hits.size());
    {
      // Scatter, keeping entry order within each cell; cell_count[c] ends as cell c's end.
      std::vector<std::uint32_t>& next = t.cell_count;
      for (const auto& [cell, hit] : t.hits) t.by_cell[next[cell]++] = hit;
    }
    std::uint32_t start = 0;
    for (std::size_t c = 0; c < static_cast<std::size_t>(tile_side * tile_side); ++c) {
      const std::uint32_t stop = t.cell_count[c];
      if (stop - start >= 2) {
        t.row = static_cast<std::int32_t>(c / tile_side);
        t.col = static_cast<std::int32_t>(c % tile_side);
        cell_pairs(t.by_cell.data() + start, t.by_cell.data() + stop, t);
      }
      start = stop;
    }
  }

  std::vector<std::uint64_t> tile_pairs() {
    tbb::enumerable_thread_specific<TileScratch> scratch;
    const std::size_t tiles = tile_starts_.size() - 1;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, tiles, 16), [&](const auto& r) {
      TileScratch& t = scratch.local();
      for (std::size_t k = r.begin(); k != r.end(); ++k) search_tile(tile_starts_[k], tile_starts_[k + 1], t);
    });
    std::size_t total = 0;
    stats_.candidates = 0;
    for (const TileScratch& t : scratch) {
      total += t.pairs.size();
      stats_.candidates += t.tested;
    }
    std::vector<std::uint64_t> keys;
    keys.reserve(total);
    for (TileScratch& t : scratch) {
      keys.insert(keys.end(), t.pairs.begin(), t.pairs.end());
      std::vector<std::uint64_t>().swap(t.pairs);
    }
    return keys;
  }

  PairList sorted_unique_pairs(std::vector<std::uint64_t>& keys) const {
    radix_sort(keys, 2 * id_bits_);
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());  // rare repeats: shares_row_below
    PairList out(keys.size());
    const std::uint64_t mask = (std::uint64_t{1} << id_bits_) - 1;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, keys.size(), 1 << 14), [&](const auto& r) {
      for (std::size_t k = r.begin(); k != r.end(); ++k)
        out[k] = Pair(kinds_.id(static_cast<std::uint32_t>(keys[k] >> id_bits_)),
                      kinds_.id(static_cast<std::uint32_t>(keys[k] & mask)));
    });
    return out;
  }

  GridStats& stats_;
  KindRanges kinds_;
  GridCells cells_;
  GridCells tiles_;
  std::int64_t tile_col0_ = 0, tile_row0_ = 0;
  std::uint64_t tile_cols_ = 1;
  int tile_bits_ = 0;
  int id_bits_ = 0;
  std::vector<TileEntry> entries_;        // sorted by tile
  std::vector<std::size_t> tile_starts_;  // where each tile's entries begin, then the end
};

}  // namespace

PairList uniform_grid_pairs(const Scene& scene, const GridOptions& options, GridStats* stats) {
  GridStats local;
  Grid grid(scene, options, stats ? *stats : local);
  return grid.find_pairs();
}

}  // namespace hitgrid
