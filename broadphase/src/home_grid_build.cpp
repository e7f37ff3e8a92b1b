// Building the home-cell grid (home_grid.hpp), in stages:
//   1. bucket: the shapes grouped by home row (dense worlds: the block-parallel counting
//      sort; sparse worlds: a radix sort on exact home cell ids), the large shapes aside;
//   2. sort: each row into column order, its boxes written into the grid's columns.
// Fixed blocks and stable steps make the order independent of the thread count.

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "counting_sort.hpp"
#include "grid_kernels.hpp"
#include "hitgrid/broadphase/detail/parallel.hpp"
#include "hitgrid/core/detail/fnv1a.hpp"
#include "home_grid.hpp"
#include "pair_keys.hpp"
#include "radix_sort.hpp"
#include "segment_home_rows.hpp"
#include "uninitialized_vector.hpp"

namespace hitgrid {
namespace {

/// Rows (of the scene's extent) per shape above which the world is sparse: it is bucketed
/// by exact cell id instead, so that memory follows the shapes, not the world's area.
constexpr std::uint64_t dense_rows_per_shape = 4;
constexpr std::uint64_t dense_rows_slack = 1024;

/// A row's cells are sorted by left edge when a shape shares its cell with this many on
/// average, counting itself (the sum of the squared cell counts over the shapes).
constexpr std::uint32_t by_left_sharing = 3;
/// A row whose columns range over more than this many per shape (plus a constant) is
/// sorted by comparisons instead of counting.
constexpr std::uint64_t counted_columns_per_shape = 24;
constexpr std::uint64_t counted_columns_slack = 512;
/// A cell with more shapes than this is sorted by left edge with std::sort before the
/// insertion pass (which is linear only for nearly sorted cells).
constexpr std::uint32_t insertion_cell_limit = 32;
/// How far ahead of its next item a row's stream of the scatter asks for its line: a
/// little over the items of a cache line (20 bytes each).
constexpr std::size_t items_ahead = 8;
/// Rows per task of the row sort's parallel loop.
constexpr std::size_t rows_per_task = 8;

/// A shape and its home cell (row-major index), for the sparse sort; large shapes get a
/// key past every cell, which sorts them to the end.
struct KeyedShape {
  std::uint64_t key;
  std::uint32_t shape;
};

}  // namespace

class HomeGrid::Builder {
 public:
  Builder(HomeGrid& g, const Scene& scene, const KindRanges& kinds, Isa isa)
      : g_(g), scene_(scene), kinds_(kinds), isa_(isa), kernels_(grid_kernels(isa)) {}

  void bucket_by_rows(std::uint64_t row_count);
  void bucket_by_cells(std::uint64_t row_count);
  void sort_rows(RowListener* listener);

 private:
  /// Per-thread scratch of the row sort.
  struct RowScratch {
    CachedVector<Aabb> box;
    CachedVector<std::uint32_t> col, count, order;
    CachedVector<Item> items;  // the row's items as bucketed, while they are put in order
  };
  /// A row's shapes in column order: what column_order found out.
  struct ColumnOrder {
    std::uint32_t most;  // shapes in the row's fullest cell
    bool shared;         // a shape shares its cell with by_left_sharing or more on average
  };

  void count_block_rows(std::size_t b, const Blocks& blocks, std::uint64_t row_count, std::uint32_t* shape_row,
                        std::uint32_t* count) const;
  // bucket_by_cells' stages.
  UninitializedVector<KeyedShape> sort_by_cell(std::uint64_t large_key) const;
  void keep_large(const UninitializedVector<KeyedShape>& keyed, std::size_t small);
  UninitializedVector<std::uint32_t> store_by_cell(const UninitializedVector<KeyedShape>& keyed, std::size_t small);
  void list_cell_rows(const UninitializedVector<std::uint32_t>& row);
  void order_rows_by_left_edge();
  void set_aside_large(std::uint32_t small);
  void list_rows(const CachedVector<std::uint32_t>& row_begin, std::uint64_t row_count);

  void sort_row(std::size_t k, RowScratch& t);
  void row_boxes(const Row& row, RowScratch& t, std::uint32_t& lo, std::uint32_t& hi) const;
  std::uint32_t segment_boxes_by_four(const Row& row, RowScratch& t, std::uint32_t& lo, std::uint32_t& hi) const;
  void boxes_one_by_one(const Row& row, RowScratch& t, std::uint32_t from, std::uint32_t& lo, std::uint32_t& hi) const;
  ColumnOrder column_order(RowScratch& t, std::uint32_t lo, std::uint32_t hi) const;
  static void order_by_left_edge(RowScratch& t, std::uint32_t lo, std::uint32_t hi, std::uint32_t most);
  void store_row(const Row& row, RowScratch& t);
  std::uint32_t store_boxes_by_four(const Row& row, const RowScratch& t);

  void size_columns(std::size_t small);
  void store(std::size_t p, const Aabb& box) {
    g_.minx_[p] = box.min.x;
    g_.miny_[p] = box.min.y;
    g_.maxx_[p] = box.max.x;
    g_.maxy_[p] = box.max.y;
  }

  HomeGrid& g_;
  const Scene& scene_;
  const KindRanges& kinds_;
  Isa isa_;
  GridKernels kernels_;
};

HomeGrid HomeGrid::build(const Scene& scene, const KindRanges& kinds, int log2_cell, const SceneExtent& extent, Isa isa,
                         RowListener* listener) {
  HomeGrid g;
  g.cells_ = GridCells(log2_cell);
  const std::size_t n = scene.size();
  if (n == 0) return g;
  const CellSpan cols = g.cells_.span(extent.minx, extent.maxx), rows = g.cells_.span(extent.miny, extent.maxy);
  g.col0_ = cols.lo;
  g.row0_ = rows.lo;
  g.cols_ = static_cast<std::uint64_t>(cols.size());
  const auto row_count = static_cast<std::uint64_t>(rows.size());
  Builder b(g, scene, kinds, isa);
  if (row_count <= dense_rows_per_shape * std::uint64_t{n} + dense_rows_slack &&
      row_count < (std::uint64_t{1} << 31)) {  // rows fit 32 bits
    b.bucket_by_rows(row_count);
    b.sort_rows(listener);
  } else {
    b.bucket_by_cells(row_count);  // leaves the rows sorted
  }
  return g;
}

/// Dense worlds: the counting sort by row (counting_sort.hpp), the large shapes into one
/// more "row" past the last. The scatter writes one stream per row, where sorting indices
/// and gathering the shapes afterwards would miss the cache on every shape.
void HomeGrid::Builder::bucket_by_rows(std::uint64_t row_count) {
  const std::size_t n = scene_.size();
  const std::size_t buckets = row_count + 1;  // the last one holds the large shapes (row_count < 2^32)
  const Blocks blocks = Blocks::at_least(n, shapes_per_block_log2, max_block_counters / buckets);
  // Each shape's row, kept for the scatter (reading 4 bytes is cheaper than deriving the
  // bounds and the row again).
  UninitializedVector<std::uint32_t> shape_row(n);
  // Scattered straight into the grid's items: each row is then sorted in place (store_row).
  UninitializedVector<Item>& items = g_.items_;
  const SegmentArrays& segments = scene_.segments();
  const CachedVector<std::uint32_t> row_begin = counting_sort<std::uint32_t>(
      blocks.count, buckets,
      [&](std::size_t b, std::uint32_t* count) { count_block_rows(b, blocks, row_count, shape_row.data(), count); },
      [&](const CachedVector<std::uint32_t>&) { items.resize(n); },
      [&](std::size_t b, std::uint32_t* next) {
        // Locals for the loop (its uint32_t stores may alias members, which would be
        // loaded again per shape), and segments read from their columns directly.
        Item* to = items.data();
        const std::uint32_t* row = shape_row.data();
        auto put = [&](std::size_t i, const float(&geometry)[4]) {
          const std::uint32_t at = next[row[i]]++;
          // The row's stream will write items_ahead items on: its line is asked for now, so
          // that the stores do not wait for it (a thousand streams miss the cache at every
          // line).
          __builtin_prefetch(to + std::min<std::size_t>(at + items_ahead, n - 1), 1);
          to[at] = {static_cast<std::uint32_t>(i), {geometry[0], geometry[1], geometry[2], geometry[3]}};
        };
        std::size_t i = blocks.begin(b);
        const std::size_t end = blocks.end(b);
        const std::size_t segments_end = std::min<std::size_t>(end, kinds_.circles_begin);
        const float *ax = segments.ax.data(), *ay = segments.ay.data(), *bx = segments.bx.data(),
                    *by = segments.by.data();
        for (; i < segments_end; ++i) put(i, {ax[i], ay[i], bx[i], by[i]});
        for (; i < end; ++i) put(i, record_of(scene_, kinds_, static_cast<std::uint32_t>(i)).g);
      });
  set_aside_large(row_begin[row_count]);
  list_rows(row_begin, row_count);
}

/// The count step of bucket_by_rows for block b: each shape's home row into shape_row (or
/// row_count for a large shape) and counted. Segments in groups (SegmentHomeRows), as wide
/// as the ISA allows, then four at a time after a group that needs the scalar path, one at
/// a time for a group of four that holds a large one; everything else one at a time.
void HomeGrid::Builder::count_block_rows(std::size_t b, const Blocks& blocks, std::uint64_t row_count,
                                         std::uint32_t* shape_row, std::uint32_t* count) const {
  const GridCells& cells = g_.cells_;
  const std::int64_t row0 = g_.row0_;
  auto one = [&](std::size_t i) {
    const Aabb box = record_of(scene_, kinds_, static_cast<std::uint32_t>(i)).box;
    const std::uint64_t r =
        is_small(cells, box) ? static_cast<std::uint64_t>(cells.index(box.min.y) - row0) : row_count;
    shape_row[i] = static_cast<std::uint32_t>(r);
    ++count[r];
  };
  const SegmentHomeRows segment_rows(cells, row0);
  const auto count_rows = kernels_.count_segment_rows;
  const SegmentArrays& segments = scene_.segments();
  std::size_t i = blocks.begin(b);
  const std::size_t end = blocks.end(b);
  const std::size_t segments_end = segment_rows.usable() ? std::min<std::size_t>(end, kinds_.circles_begin) : i;
  const float *ax = segments.ax.data(), *ay = segments.ay.data(), *bx = segments.bx.data(), *by = segments.by.data();
  while (i + 4 <= segments_end) {
    i = count_rows(segment_rows, ax, ay, bx, by, i, segments_end, shape_row, count);
    if (i + 4 > segments_end) break;
    if (segment_rows.rows4(ax + i, ay + i, bx + i, by + i, shape_row + i))
      for (std::size_t j = i; j < i + 4; ++j) ++count[shape_row[j]];
    else
      for (std::size_t j = i; j < i + 4; ++j) one(j);
    i += 4;
  }
  for (; i < end; ++i) one(i);
}

/// The items past the first `small` are the large shapes, in global order (the scatter is
/// stable): their ids and records go aside, and the items keep only the small shapes.
void HomeGrid::Builder::set_aside_large(std::uint32_t small) {
  const std::size_t n = g_.items_.size();
  g_.large_ids_.resize(n - small);
  g_.large_records_.resize(n - small);
  for (std::size_t p = small; p < n; ++p) {
    const Item& it = g_.items_[p];
    g_.large_ids_[p - small] = it.shape;
    g_.large_records_[p - small] = {bounds_of(kinds_.kind(it.shape), it.g), {it.g[0], it.g[1], it.g[2], it.g[3]}};
  }
  size_columns(small);
}

void HomeGrid::Builder::list_rows(const CachedVector<std::uint32_t>& row_begin, std::uint64_t row_count) {
  g_.rows_.clear();
  for (std::uint64_t r = 0; r < row_count; ++r)
    if (row_begin[r + 1] > row_begin[r])
      g_.rows_.push_back({static_cast<std::int64_t>(r), row_begin[r], row_begin[r + 1], false, false});
}

/// Every row sorted, in parallel over blocks of rows; the listener told of each row as
/// soon as it is done, by the thread that sorted it (rows in ascending order within a
/// block).
void HomeGrid::Builder::sort_rows(RowListener* listener) {
  if (listener) listener->rows_listed(g_);
  tbb::enumerable_thread_specific<RowScratch> scratch;
  detail::parallel_for(tbb::blocked_range<std::size_t>(0, g_.rows_.size(), rows_per_task), [&](const auto& range) {
    RowScratch& t = scratch.local();
    // Where the next task's rows start (or the columns' end, padding included): up to
    // there nothing is written by another task while this one runs (RowListener).
    const std::size_t readable_end = range.end() < g_.rows_.size() ? g_.rows_[range.end()].begin : g_.minx_.size();
    for (std::size_t k = range.begin(); k != range.end(); ++k) {
      sort_row(k, t);
      if (listener) listener->rows_final(k, k + 1, readable_end);
    }
  });
}

/// Row k into column order, its boxes into the grid's columns at the row's positions, and
/// its flags: crowded when a cell holds crowded_shapes or more; by_left when its cells are
/// full enough that sorting each by left edge pays for itself in the search (then the
/// search can stop at a shape's right edge instead of two columns on). The AVX-512 and AVX2
/// row searches take a row's shapes in tiles, from windows of whole columns, whatever the
/// order within a cell: for them only crowded rows are sorted by left edge.
void HomeGrid::Builder::sort_row(std::size_t k, RowScratch& t) {
  Row& row = g_.rows_[k];
  const std::uint32_t size = row.end - row.begin;
  t.box.resize(size);
  t.col.resize(size);
  t.order.resize(size);
  std::uint32_t lo = std::numeric_limits<std::uint32_t>::max(), hi = 0;
  row_boxes(row, t, lo, hi);
  const auto before = [&](std::uint32_t x, std::uint32_t y) {
    return t.box[x].min.x < t.box[y].min.x || (t.box[x].min.x == t.box[y].min.x && x < y);
  };
  if (hi - lo <= counted_columns_per_shape * std::uint64_t{size} + counted_columns_slack) {
    const ColumnOrder o = column_order(t, lo, hi);
    row.crowded = o.most >= crowded_shapes;
    const bool tiles = isa_ == Isa::avx512 || isa_ == Isa::avx2;  // see the comment above
    row.by_left = o.shared && (!tiles || row.crowded);
    if (row.by_left) order_by_left_edge(t, lo, hi, o.most);
  } else {
    // A row much wider than it is full: sorted outright by left edge (one of the column
    // orders), by comparisons.
    std::iota(t.order.begin(), t.order.end(), 0u);
    std::sort(t.order.begin(), t.order.end(), before);
    row.crowded = true;
    row.by_left = true;
  }
  store_row(row, t);
}

/// The row's boxes (t.box), their home columns relative to col0 (t.col), and the least and
/// greatest of those columns: segments four at a time in SSE2 lanes (x86-64's baseline),
/// the rest one at a time. The scalar stage is the vector one's twin, and Isa::scalar runs
/// it for every shape (tests/broadphase/test_home_grid.cpp compares the two grids).
void HomeGrid::Builder::row_boxes(const Row& row, RowScratch& t, std::uint32_t& lo, std::uint32_t& hi) const {
  const std::uint32_t vec = isa_ == Isa::scalar ? 0 : segment_boxes_by_four(row, t, lo, hi);
  boxes_one_by_one(row, t, vec, lo, hi);
}

/// row_boxes' vector stage: returns how many items it bounded (lo and hi set from them when
/// any). Segments come first in a row (its items are in global order); each box from one
/// batch of endpoints, the columns of four left edges by one exact conversion
/// (SegmentHomeRows::columns), the least and greatest left edges kept for lo and hi (floor
/// is monotone). Stops at the first item that is not a segment or a group of four whose
/// columns need the scalar path.
std::uint32_t HomeGrid::Builder::segment_boxes_by_four(const Row& row, RowScratch& t, std::uint32_t& lo,
                                                       std::uint32_t& hi) const {
  std::uint32_t vec = 0;
#if defined(__SSE2__)
  const GridCells& cells = g_.cells_;
  const std::int64_t col0 = g_.col0_;
  const std::uint32_t size = row.end - row.begin;
  using F = xsimd::batch<float, xsimd::sse2>;
  using D = xsimd::batch<double, xsimd::sse2>;  // a float pair per lane, to move pairs
  // Lanes 0 and 1 of a, then lanes 0 and 1 of b.
  const auto low_pairs = [](const F& a, const F& b) {
    return xsimd::bitwise_cast<F>(xsimd::zip_lo(xsimd::bitwise_cast<D>(a), xsimd::bitwise_cast<D>(b)));
  };
  const SegmentHomeRows columns(cells, 0);
  if (!columns.usable()) return 0;
  F least(HUGE_VALF), greatest(-HUGE_VALF);
  const Item* it = g_.items_.data() + row.begin;
  const std::uint32_t segments_end = kinds_.circles_begin;
  for (; vec + 4 <= size && it[vec + 3].shape < segments_end; vec += 4) {
    F low[4], box[4];
    for (int i = 0; i < 4; ++i) {
      // (bx, by, ax, ay) against (ax, ay, bx, by), in the operand order of std::min and
      // std::max (bounds()), so that even the sign of a zero is the same.
      const F g = F::load_unaligned(it[vec + i].g);
      const F swapped =
          xsimd::swizzle(g, xsimd::batch_constant<xsimd::batch<std::uint32_t, xsimd::sse2>, 2, 3, 0, 1>());
      low[i] = xsimd::min(swapped, g);
      box[i] = low_pairs(low[i], xsimd::max(swapped, g));
    }
    const F left = low_pairs(xsimd::zip_lo(low[0], low[1]), xsimd::zip_lo(low[2], low[3]));
    if (!columns.columns(left, col0, t.col.data() + vec)) break;
    for (int i = 0; i < 4; ++i) box[i].store_unaligned(&t.box[vec + i].min.x);
    least = xsimd::min(least, left);
    greatest = xsimd::max(greatest, left);
  }
  if (vec != 0) {
    float l[4], g[4];
    least.store_unaligned(l);
    greatest.store_unaligned(g);
    lo = static_cast<std::uint32_t>(cells.index(std::min({l[0], l[1], l[2], l[3]})) - col0);
    hi = static_cast<std::uint32_t>(cells.index(std::max({g[0], g[1], g[2], g[3]})) - col0);
  }
#else
  (void)row, (void)t, (void)lo, (void)hi;
#endif
  return vec;
}

/// row_boxes' scalar stage, for the row's items from `from` on.
void HomeGrid::Builder::boxes_one_by_one(const Row& row, RowScratch& t, std::uint32_t from, std::uint32_t& lo,
                                         std::uint32_t& hi) const {
  const GridCells& cells = g_.cells_;
  const std::int64_t col0 = g_.col0_;
  const std::uint32_t size = row.end - row.begin;
  for (std::uint32_t j = from; j < size; ++j) {
    const Item& it = g_.items_[row.begin + j];
    t.box[j] = bounds_of(kinds_.kind(it.shape), it.g);
    t.col[j] = static_cast<std::uint32_t>(cells.index(t.box[j].min.x) - col0);
    lo = std::min(lo, t.col[j]);
    hi = std::max(hi, t.col[j]);
  }
}

/// t.order[rank] = j by home column, ties by j (global order): a counting sort over the
/// columns [lo, hi]. Leaves t.count[c] at the end of column lo + c. Counts the sharing as
/// the sum over cells of (shapes in the cell)^2, that is the sum of 2 m + 1 over the m
/// shapes counted before each.
HomeGrid::Builder::ColumnOrder HomeGrid::Builder::column_order(RowScratch& t, std::uint32_t lo,
                                                               std::uint32_t hi) const {
  const auto size = static_cast<std::uint32_t>(t.col.size());
  const std::uint32_t* col = t.col.data();
  std::uint32_t* order = t.order.data();
  std::uint32_t most = 0;
  std::uint64_t seen = size;
  t.count.resize(hi - lo + 1);
  counting_sort_in_task(
      t.count.data(), t.count.size(),
      [&](std::uint32_t* count) {
        for (std::uint32_t j = 0; j < size; ++j) {
          const std::uint32_t m = count[col[j] - lo]++;
          seen += 2 * std::uint64_t{m};
          most = std::max(most, m + 1);
        }
      },
      [&](std::uint32_t* next) {
        for (std::uint32_t j = 0; j < size; ++j) order[next[col[j] - lo]++] = j;
      });
  return {most, seen >= by_left_sharing * std::uint64_t{size}};
}

/// Each cell of a row in column order sorted by left edge: std::sort for a cell larger
/// than insertion_cell_limit, then one insertion pass over the whole row for the rest (a
/// shape never moves past the start of its cell, since every earlier cell's left edges are
/// smaller, and a sorted cell costs one comparison per shape; a loop per cell would
/// mispredict its exit at nearly every cell of a sparse row).
void HomeGrid::Builder::order_by_left_edge(RowScratch& t, std::uint32_t lo, std::uint32_t hi, std::uint32_t most) {
  auto left = [&](std::uint32_t j) { return t.box[j].min.x; };
  auto before = [&](std::uint32_t x, std::uint32_t y) { return left(x) < left(y) || (left(x) == left(y) && x < y); };
  std::uint32_t* order = t.order.data();
  const std::size_t size = t.order.size();
  if (most > insertion_cell_limit)
    for (std::size_t c = 0, b = 0; c <= hi - lo; b = t.count[c++])
      if (t.count[c] - b > insertion_cell_limit) std::sort(order + b, order + t.count[c], before);
  // The insertion pass takes its first step, a swap with the previous shape, without a
  // branch (a cell of two in the wrong order is the common case, and a branch on it
  // mispredicts), keeping the larger of the two in registers for the next comparison;
  // only a shape that moves two places or more takes the loop.
  std::uint32_t p = order[0];
  float lp = left(p);
  for (std::size_t i = 1; i < size; ++i) {
    const std::uint32_t x = order[i];
    const float lx = left(x);
    const bool swap = lp > lx;
    const std::uint32_t flip = (x ^ p) & (0u - static_cast<std::uint32_t>(swap));
    order[i - 1] = p ^ flip;
    p = x ^ flip;
    order[i] = p;
    lp = std::max(lp, lx);
    const bool further = swap & (i >= 2) & (left(order[i >= 2 ? i - 2 : 0]) > lx);  // no branch on swap
    if (further) {
      std::size_t j = i - 1;
      for (; j > 0 && left(order[j - 1]) > lx; --j) order[j] = order[j - 1];
      order[j] = x;
    }
  }
}

/// The row's items and boxes in sorted order: the items in place (through the thread's
/// scratch and back into the lines they came from, which are still in the cache: row_boxes
/// read them), the boxes into the grid's columns, four at a time in SSE2 lanes, then one at
/// a time (Isa::scalar: all one at a time, the vector stage's twin).
void HomeGrid::Builder::store_row(const Row& row, RowScratch& t) {
  const auto size = static_cast<std::uint32_t>(t.order.size());
  const std::uint32_t* order = t.order.data();
  Item* items = g_.items_.data() + row.begin;
  t.items.assign(items, items + size);
  for (std::uint32_t rank = 0; rank < size; ++rank) items[rank] = t.items[order[rank]];
  std::uint32_t rank = isa_ == Isa::scalar ? 0 : store_boxes_by_four(row, t);
  for (; rank < size; ++rank) store(row.begin + rank, t.box[order[rank]]);
}

/// store_row's vector stage: the boxes of ranks [0, 4 k) into the columns (four boxes
/// transposed into four columns at a time); returns 4 k, the ranks it stored.
std::uint32_t HomeGrid::Builder::store_boxes_by_four(const Row& row, const RowScratch& t) {
  std::uint32_t rank = 0;
#if defined(__SSE2__)
  const auto size = static_cast<std::uint32_t>(t.order.size());
  const std::uint32_t* order = t.order.data();
  static_assert(sizeof(Aabb) == 4 * sizeof(float), "Aabb is min.x, min.y, max.x, max.y");
  using F = xsimd::batch<float, xsimd::sse2>;
  using D = xsimd::batch<double, xsimd::sse2>;  // a float pair per lane, to move pairs
  float *minx = g_.minx_.data() + row.begin, *miny = g_.miny_.data() + row.begin;
  float *maxx = g_.maxx_.data() + row.begin, *maxy = g_.maxy_.data() + row.begin;
  const Aabb* box = t.box.data();
  for (; rank + 4 <= size; rank += 4) {
    const F r0 = F::load_unaligned(&box[order[rank]].min.x), r1 = F::load_unaligned(&box[order[rank + 1]].min.x),
            r2 = F::load_unaligned(&box[order[rank + 2]].min.x), r3 = F::load_unaligned(&box[order[rank + 3]].min.x);
    // The 4 x 4 transpose: lanes interleaved two boxes at a time, then pairs of lanes.
    const D mins01 = xsimd::bitwise_cast<D>(xsimd::zip_lo(r0, r1));  // minx0 minx1 miny0 miny1
    const D mins23 = xsimd::bitwise_cast<D>(xsimd::zip_lo(r2, r3));
    const D maxs01 = xsimd::bitwise_cast<D>(xsimd::zip_hi(r0, r1));  // maxx0 maxx1 maxy0 maxy1
    const D maxs23 = xsimd::bitwise_cast<D>(xsimd::zip_hi(r2, r3));
    xsimd::bitwise_cast<F>(xsimd::zip_lo(mins01, mins23)).store_unaligned(minx + rank);
    xsimd::bitwise_cast<F>(xsimd::zip_hi(mins01, mins23)).store_unaligned(miny + rank);
    xsimd::bitwise_cast<F>(xsimd::zip_lo(maxs01, maxs23)).store_unaligned(maxx + rank);
    xsimd::bitwise_cast<F>(xsimd::zip_hi(maxs01, maxs23)).store_unaligned(maxy + rank);
  }
#else
  (void)row, (void)t;
#endif
  return rank;
}

/// Sparse worlds, whose rows range far beyond the number of shapes: a radix sort on the
/// exact home cell ids, so memory follows the shapes, never the world's area; then each
/// row by left edge (the cells are in order already; ties keep global order). The gathers
/// here miss the cache, which only sparse worlds pay.
void HomeGrid::Builder::bucket_by_cells(std::uint64_t row_count) {
  const std::uint64_t large_key = g_.cols_ * row_count;
  const UninitializedVector<KeyedShape> keyed = sort_by_cell(large_key);
  const auto small = static_cast<std::size_t>(
      std::partition_point(keyed.begin(), keyed.end(), [&](const KeyedShape& s) { return s.key < large_key; }) -
      keyed.begin());
  keep_large(keyed, small);
  list_cell_rows(store_by_cell(keyed, small));
  order_rows_by_left_edge();
}

/// Every shape keyed by its home cell (row * cols + column; large_key for a large shape),
/// sorted by key, stably (so by global index within a cell).
UninitializedVector<KeyedShape> HomeGrid::Builder::sort_by_cell(std::uint64_t large_key) const {
  const std::size_t n = scene_.size();
  const GridCells& cells = g_.cells_;
  UninitializedVector<KeyedShape> keyed(n);
  detail::parallel_for(tbb::blocked_range<std::size_t>(0, n, detail::shapes_per_task), [&](const auto& r) {
    for (std::size_t i = r.begin(); i != r.end(); ++i) {
      const Aabb b = record_of(scene_, kinds_, static_cast<std::uint32_t>(i)).box;
      const auto col = static_cast<std::uint64_t>(cells.index(b.min.x) - g_.col0_);
      const auto row = static_cast<std::uint64_t>(cells.index(b.min.y) - g_.row0_);
      keyed[i] = {is_small(cells, b) ? row * g_.cols_ + col : large_key, static_cast<std::uint32_t>(i)};
    }
  });
  radix_sort_items(
      keyed, [](const KeyedShape& s) { return s.key; }, bits_for(large_key + 1));
  return keyed;
}

/// The large shapes (keyed[small, n), ascending: the sort is stable) set aside.
void HomeGrid::Builder::keep_large(const UninitializedVector<KeyedShape>& keyed, std::size_t small) {
  const std::size_t n = keyed.size();
  g_.large_ids_.resize(n - small);
  g_.large_records_.resize(n - small);
  for (std::size_t p = small; p < n; ++p) {
    g_.large_ids_[p - small] = keyed[p].shape;
    g_.large_records_[p - small] = record_of(scene_, kinds_, keyed[p].shape);
  }
}

/// The small shapes' items and boxes in cell order; returns each one's row.
UninitializedVector<std::uint32_t> HomeGrid::Builder::store_by_cell(const UninitializedVector<KeyedShape>& keyed,
                                                                    std::size_t small) {
  const GridCells& cells = g_.cells_;
  size_columns(small);
  UninitializedVector<std::uint32_t> row(small);
  detail::parallel_for(tbb::blocked_range<std::size_t>(0, small, detail::shapes_per_task), [&](const auto& r) {
    for (std::size_t p = r.begin(); p != r.end(); ++p) {
      const ShapeRecord s = record_of(scene_, kinds_, keyed[p].shape);
      g_.items_[p] = {keyed[p].shape, {s.g[0], s.g[1], s.g[2], s.g[3]}};
      store(p, s.box);
      row[p] = static_cast<std::uint32_t>(cells.index(s.box.min.y) - g_.row0_);
    }
  });
  return row;
}

/// The rows that hold shapes, from each shape's row (ascending), every one flagged crowded
/// and by_left (sparse rows: searched by sweeps, sorted by left edge next).
void HomeGrid::Builder::list_cell_rows(const UninitializedVector<std::uint32_t>& row) {
  CachedVector<Row>& rows = g_.rows_;
  rows.clear();
  for (std::size_t p = 0; p < row.size(); ++p) {
    if (p == 0 || row[p] != row[p - 1]) {
      if (!rows.empty()) rows.back().end = static_cast<std::uint32_t>(p);
      rows.push_back({row[p], static_cast<std::uint32_t>(p), 0, true, true});
    }
  }
  if (!rows.empty()) rows.back().end = static_cast<std::uint32_t>(row.size());
}

/// Each row by left edge (its cells are in order already; ties keep global order), boxes
/// and items together.
void HomeGrid::Builder::order_rows_by_left_edge() {
  const CachedVector<Row>& rows = g_.rows_;
  detail::parallel_for(tbb::blocked_range<std::size_t>(0, rows.size(), rows_per_task), [&](const auto& range) {
    CachedVector<std::uint32_t> order;
    CachedVector<float> v;
    CachedVector<Item> at;
    auto by_left = [&](std::uint32_t x, std::uint32_t y) { return g_.minx_[x] < g_.minx_[y]; };
    for (std::size_t k = range.begin(); k != range.end(); ++k) {
      const Row& w = rows[k];
      order.resize(w.end - w.begin);
      std::iota(order.begin(), order.end(), w.begin);
      if (std::is_sorted(order.begin(), order.end(), by_left)) continue;
      std::stable_sort(order.begin(), order.end(), by_left);
      for (auto* column : {&g_.minx_, &g_.miny_, &g_.maxx_, &g_.maxy_}) {
        v.clear();
        for (std::uint32_t p : order) v.push_back((*column)[p]);
        std::copy(v.begin(), v.end(), column->begin() + w.begin);
      }
      at.clear();
      for (std::uint32_t p : order) at.push_back(g_.items_[p]);
      std::copy(at.begin(), at.end(), g_.items_.begin() + w.begin);
    }
  });
}

/// Columns for `small` shapes and the padding past them: empty boxes (min > max), which
/// never overlap anything.
void HomeGrid::Builder::size_columns(std::size_t small) {
  for (auto* v : {&g_.minx_, &g_.miny_}) {
    v->resize(small + column_padding);
    std::fill(v->end() - column_padding, v->end(), HUGE_VALF);
  }
  for (auto* v : {&g_.maxx_, &g_.maxy_}) {
    v->resize(small + column_padding);
    std::fill(v->end() - column_padding, v->end(), -HUGE_VALF);
  }
  g_.items_.resize(small);
}

std::uint64_t HomeGrid::order_hash() const {
  Fnv1a hash;
  for (std::uint32_t p = 0; p < items_.size(); ++p) hash.add_u64(shape_at(p));
  return hash.value();
}

std::uint32_t HomeGrid::first_col_at_least(std::uint32_t begin, std::uint32_t end, std::int64_t col) const {
  const double x = static_cast<double>(col) * cells_.cell_size();  // exact: a power of two times an integer
  const float* minx = minx_.data();
  return static_cast<std::uint32_t>(
      std::lower_bound(minx + begin, minx + end, x, [](float v, double t) { return v < t; }) - minx);
}

std::size_t HomeGrid::first_row_at_least(std::int64_t row) const {
  // Rows are distinct and from 0 on, so row v, if held, is at index v at most, and at v
  // exactly where every row below it holds shapes (a dense grid's every row): tried first,
  // since the world's queries ask about a few rows at a time.
  if (row <= 0) return 0;
  const auto v = static_cast<std::uint64_t>(row);
  if (v < rows_.size() && rows_[v].row == row) return v;
  if (v >= rows_.size() && !rows_.empty() && rows_.back().row == static_cast<std::int64_t>(rows_.size()) - 1)
    return rows_.size();
  return static_cast<std::size_t>(
      std::lower_bound(rows_.begin(), rows_.end(), row, [](const Row& w, std::int64_t r) { return w.row < r; }) -
      rows_.begin());
}

std::pair<std::size_t, std::size_t> HomeGrid::row_range(std::int64_t first, std::int64_t last) const {
  const std::size_t a = first_row_at_least(first);
  if (last < first) return {a, a};
  return {a, last == std::numeric_limits<std::int64_t>::max() ? rows_.size() : first_row_at_least(last + 1)};
}

}  // namespace hitgrid
