// Building the home-cell grid: the small shapes sorted by home cell (row-major) and,
// within each row, by the left edges of their boxes; the large shapes kept aside.

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#if defined(__SSE2__)
#include <emmintrin.h>
#include <xmmintrin.h>
#endif

#include "hitgrid/core/detail/fnv1a.hpp"
#include "hitgrid/core/detail/stopwatch.hpp"
#include "home_grid.hpp"
#include "radix_sort.hpp"
#include "segment_home_rows.hpp"

namespace hitgrid {
namespace {

/// A shape and its home cell (row-major index), for the sparse sort; large shapes get a
/// key past every cell, which sorts them to the end.
struct KeyedShape {
  std::uint64_t key;
  std::uint32_t shape;
};

}  // namespace

HomeGrid::HomeGrid(const Scene& scene, KindRanges kinds, PairKeyCodec keys, int log2_cell, const SceneExtent& extent,
                   bool may_give_up, Isa isa, HomeGridStats& stats)
    : kinds_(kinds), keys_(keys), cells_(log2_cell), isa_(isa), stats_(stats) {
  Stopwatch clock;
  const std::size_t n = scene.size();
  if (n != 0) {
    const CellSpan cols = cells_.span(extent.minx, extent.maxx), rows = cells_.span(extent.miny, extent.maxy);
    col0_ = cols.lo;
    row0_ = rows.lo;
    cols_ = static_cast<std::uint64_t>(cols.size());
    const auto row_count = static_cast<std::uint64_t>(rows.size());
    if (row_count <= 4 * std::uint64_t{n} + 1024 && row_count < (std::uint64_t{1} << 31))  // rows fit 32 bits
      bucket_by_rows(scene, row_count, may_give_up);
    else
      bucket_by_cells(scene, row_count);
  }
  stats_.small = item_.size();
  stats_.rows = rows_.size();
  stats_.bucket_ms = clock.lap_ms();
}

/// Dense worlds: a parallel counting sort by row (fixed blocks of shapes count their rows,
/// a prefix sum over (row, block) gives each block its own ranges, each block writes its
/// shapes straight to their places, large shapes into one more "row" past the last), then
/// per row a sort by left edge into the final columns (sort_row, which pairs_among runs
/// block by block just before searching those rows). Both steps write in
/// streams (one per row, then within one row's range), where sorting indices and gathering
/// the shapes afterwards would miss the cache on every shape. The fixed blocks and stable
/// steps make the order independent of the thread count.
void HomeGrid::bucket_by_rows(const Scene& scene, std::uint64_t row_count, bool may_give_up) {
  const std::size_t n = scene.size();
  const std::size_t blocks =
      std::clamp<std::size_t>(std::min(n >> 14, (std::size_t{1} << 22) / (row_count + 1)), 1, 256);
  const std::size_t block_size = (n + blocks - 1) / blocks;
  const std::size_t buckets = row_count + 1;  // the last one holds the large shapes (row_count < 2^32: see caller)
  auto row_of = [&](const Aabb& b) {
    return is_small(cells_, b) ? static_cast<std::uint64_t>(cells_.index(b.min.y) - row0_) : row_count;
  };
  std::vector<std::uint32_t> place(blocks * buckets, 0);
  std::vector<std::uint64_t> large_rows(blocks, 0);
  // Each shape's row, kept for the scatter (reading 4 bytes is cheaper than deriving the
  // bounds and the row again).
  UninitializedVector<std::uint32_t> shape_row(n);
  const SegmentHomeRows segment_rows(cells_, row0_);
  using CountRows = std::size_t (SegmentHomeRows::*)(const float*, const float*, const float*, const float*,
                                                     std::size_t, std::size_t, std::uint32_t*, std::uint32_t*) const;
  CountRows count_rows = &SegmentHomeRows::count_rows_sse2;
#if defined(HITGRID_SEGMENT_ROWS_X86)
  if (isa_ == Isa::avx512)
    count_rows = &SegmentHomeRows::count_rows_avx512;
  else if (isa_ == Isa::avx2)
    count_rows = &SegmentHomeRows::count_rows_avx2;
#endif
  const SegmentArrays& segments = scene.segments();
  tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t k) {
    std::uint32_t* count = place.data() + k * buckets;
    std::uint64_t crossed = 0;
    auto one = [&](std::size_t i) {
      const Aabb b = record_of(scene, kinds_, static_cast<std::uint32_t>(i)).box;
      const std::uint64_t r = row_of(b);
      shape_row[i] = static_cast<std::uint32_t>(r);
      ++count[r];
      if (r == row_count) crossed += static_cast<std::uint64_t>(cells_.span(b.min.y, b.max.y).size());
    };
    const std::size_t end = std::min(n, (k + 1) * block_size);
    std::size_t i = k * block_size;
    // Segments in groups (see SegmentHomeRows), as wide as the ISA allows, then four at a
    // time after a group that needs the scalar path, one at a time for a group of four
    // that holds a large one; everything else one at a time.
    const std::size_t segments_end = segment_rows.usable() ? std::min<std::size_t>(end, kinds_.circles_begin) : i;
    const float *ax = segments.ax.data(), *ay = segments.ay.data(), *bx = segments.bx.data(), *by = segments.by.data();
    std::uint32_t* row = shape_row.data();
    while (i + 4 <= segments_end) {
      i = (segment_rows.*count_rows)(ax, ay, bx, by, i, segments_end, row, count);
      if (i + 4 > segments_end) break;
      if (segment_rows.rows4(ax + i, ay + i, bx + i, by + i, row + i))
        for (std::size_t j = i; j < i + 4; ++j) ++count[row[j]];
      else
        for (std::size_t j = i; j < i + 4; ++j) one(j);
      i += 4;
    }
    for (; i < end; ++i) one(i);
    large_rows[k] = crossed;
  });
  if (may_give_up && std::accumulate(large_rows.begin(), large_rows.end(), std::uint64_t{0}) > 4 * std::uint64_t{n}) {
    many_large_ = true;
    return;
  }
  // Row starts, then each block's start within each row; every loop runs along a block's
  // own counters (walking one row across the blocks' tables strides by a table per step).
  std::vector<std::uint32_t> row_begin(buckets + 1, 0);
  for (std::size_t k = 0; k < blocks; ++k)
    for (std::size_t r = 0; r < buckets; ++r) row_begin[r + 1] += place[k * buckets + r];
  for (std::size_t r = 0; r < buckets; ++r) row_begin[r + 1] += row_begin[r];
  {
    std::vector<std::uint32_t> start(row_begin.begin(), row_begin.end() - 1);
    for (std::size_t k = 0; k < blocks; ++k)
      for (std::size_t r = 0; r < buckets; ++r) start[r] += std::exchange(place[k * buckets + r], start[r]);
  }
  UninitializedVector<Item>& items = items_;
  items.resize(n);
  tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t k) {
    std::uint32_t* next = place.data() + k * buckets;
    const std::size_t block_end = std::min(n, (k + 1) * block_size);
    // Locals for the loop (its uint32_t stores may alias members, which would be loaded
    // again per shape), and segments read from their columns directly.
    Item* to = items.data();
    const std::uint32_t* row = shape_row.data();
    auto put = [&](std::size_t i, const float(&g)[4]) {
      const std::uint32_t at = next[row[i]]++;
      // The row's stream will write eight items on: its line is asked for now, so that
      // the stores do not wait for it (a thousand streams miss the cache at every line).
      __builtin_prefetch(to + std::min<std::size_t>(at + 8, n - 1), 1);
      to[at] = {static_cast<std::uint32_t>(i), {g[0], g[1], g[2], g[3]}};
    };
    std::size_t i = k * block_size;
    const std::size_t segments_end = std::min<std::size_t>(block_end, kinds_.circles_begin);
    const float *ax = segments.ax.data(), *ay = segments.ay.data(), *bx = segments.bx.data(), *by = segments.by.data();
    for (; i < segments_end; ++i) put(i, {ax[i], ay[i], bx[i], by[i]});
    for (; i < block_end; ++i) {
      const ShapeRecord s = record_of(scene, kinds_, static_cast<std::uint32_t>(i));
      put(i, s.g);
    }
  });
  const std::uint32_t small = row_begin[row_count];
  large_ids_.resize(n - small);
  large_records_.resize(n - small);
  for (std::size_t p = small; p < n; ++p) {  // ascending: the scatter is stable
    const Item& it = items[p];
    large_ids_[p - small] = it.shape;
    large_records_[p - small] = {bounds_of(kinds_.kind(it.shape), it.g), {it.g[0], it.g[1], it.g[2], it.g[3]}};
  }

  resize(small);
  rows_.clear();
  for (std::uint64_t r = 0; r < row_count; ++r)
    if (row_begin[r + 1] > row_begin[r])
      rows_.push_back({static_cast<std::int64_t>(r), row_begin[r], row_begin[r + 1], true, true});
  rows_sorted_ = false;  // sort_row does it, as pairs_among reaches each row
}

HomeGrid::RowOrder HomeGrid::sort_row(std::size_t k, RowSorter& t, const Columns& to, std::uint32_t base) const {
  const Row row = rows_[k];
  RowOrder result{true, true};
  const std::uint32_t size = row.end - row.begin;
  t.box.resize(size);
  t.col.resize(size);
  std::uint32_t lo = std::numeric_limits<std::uint32_t>::max(), hi = 0;
  std::uint32_t vec = 0;  // items bounded four at a time
#if defined(__SSE2__)
  // Segments four at a time (a row's items are in global order, so segments come first):
  // each box from one vector of endpoints, the columns of the four left edges by one
  // exact conversion (SegmentHomeRows::columns4), the row's least and greatest left edges
  // kept for lo and hi (floor is monotone). The scalar loop below takes the rest.
  const SegmentHomeRows columns(cells_, 0);
  if (columns.usable()) {
    __m128 least = _mm_set1_ps(HUGE_VALF), greatest = _mm_set1_ps(-HUGE_VALF);
    const Item* it = items_.data() + row.begin;
    const std::uint32_t segments_end = kinds_.circles_begin;
    for (; vec + 4 <= size && it[vec + 3].shape < segments_end; vec += 4) {
      __m128 low[4], box[4];
      for (int i = 0; i < 4; ++i) {
        // (bx, by, ax, ay) against (ax, ay, bx, by), in the operand order of std::min and
        // std::max (bounds()), so that even the sign of a zero is the same.
        const __m128 g = _mm_loadu_ps(it[vec + i].g), swapped = _mm_shuffle_ps(g, g, _MM_SHUFFLE(1, 0, 3, 2));
        low[i] = _mm_min_ps(swapped, g);
        box[i] = _mm_movelh_ps(low[i], _mm_max_ps(swapped, g));
      }
      const __m128 left = _mm_movelh_ps(_mm_unpacklo_ps(low[0], low[1]), _mm_unpacklo_ps(low[2], low[3]));
      if (!columns.columns4(left, col0_, t.col.data() + vec)) break;
      for (int i = 0; i < 4; ++i) _mm_storeu_ps(&t.box[vec + i].min.x, box[i]);
      least = _mm_min_ps(least, left);
      greatest = _mm_max_ps(greatest, left);
    }
    if (vec != 0) {
      float l[4], g[4];
      _mm_storeu_ps(l, least);
      _mm_storeu_ps(g, greatest);
      lo = static_cast<std::uint32_t>(cells_.index(std::min({l[0], l[1], l[2], l[3]})) - col0_);
      hi = static_cast<std::uint32_t>(cells_.index(std::max({g[0], g[1], g[2], g[3]})) - col0_);
    }
  }
#endif
  for (std::uint32_t j = vec; j < size; ++j) {
    const Item& it = items_[row.begin + j];
    t.box[j] = bounds_of(kinds_.kind(it.shape), it.g);
    t.col[j] = static_cast<std::uint32_t>(cells_.index(t.box[j].min.x) - col0_);
    lo = std::min(lo, t.col[j]);
    hi = std::max(hi, t.col[j]);
  }
  // order[rank] = j, by home column, ties by j (global order): a counting sort. Within a
  // cell the shapes stay unsorted unless the row's cells are full (see by_left; the row
  // search allows both orders). A row much wider than it is full is sorted outright, by
  // left edge (one of the column orders).
  auto left = [&](std::uint32_t j) { return t.box[j].min.x; };
  auto before = [&](std::uint32_t x, std::uint32_t y) { return left(x) < left(y) || (left(x) == left(y) && x < y); };
  t.order.resize(size);
  if (hi - lo <= 4 * std::uint64_t{size} + 64) {
    t.count.assign(hi - lo + 2, 0);
    // Counted with the sum over cells of (shapes in the cell)^2, as the sum of 2 m + 1
    // over the m shapes counted before each, and the largest count.
    std::uint32_t most = 0;
    std::uint64_t seen = size;
    for (std::uint32_t j = 0; j < size; ++j) {
      const std::uint32_t m = t.count[t.col[j] - lo + 1]++;
      seen += 2 * std::uint64_t{m};
      most = std::max(most, m + 1);
    }
    result.crowded = most >= crowded_shapes;
    for (std::size_t c = 1; c < t.count.size(); ++c) t.count[c] += t.count[c - 1];
    for (std::uint32_t j = 0; j < size; ++j) t.order[t.count[t.col[j] - lo]++] = j;
    // Now count[c] is where column lo + c ends. The shapes are in column order. Sorting
    // each cell by left edge as well lets the row search stop at a shape's right edge
    // instead of two columns on: worth it when a shape shares its cell with several
    // others on average (clustered scenes), not in a row of cells holding about one shape
    // each (uniform: it was a quarter of this function, and gained the search nothing).
    // (Not for the AVX-512 and AVX2 row searches unless the row is crowded: they search
    // tiles of shapes, from windows of whole columns, whatever the order within a cell.)
    const bool tiles = isa_ == Isa::avx512 || isa_ == Isa::avx2;  // row_pairs_by_tiles
    result.by_left = seen >= by_left_sharing * std::uint64_t{size} && (!tiles || result.crowded);
    if (result.by_left) {
      // std::sort for a crowded cell, then one insertion pass over the whole row for the
      // rest (a shape never moves past the start of its cell, since every earlier cell's
      // left edges are smaller, and a sorted cell costs one comparison per shape). A loop
      // per cell would mispredict its exit at nearly every cell of a sparse row.
      std::uint32_t* order = t.order.data();
      if (most > 32)
        for (std::size_t c = 0, b = 0; c <= hi - lo; b = t.count[c++])
          if (t.count[c] - b > 32) std::sort(order + b, order + t.count[c], before);
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
  } else {
    std::iota(t.order.begin(), t.order.end(), 0u);
    std::sort(t.order.begin(), t.order.end(), before);
  }
  // The boxes into the columns in sorted order, four at a time: four boxes transposed
  // into four columns (scalar stores were a fifth of the sort's time).
  std::uint32_t rank = 0;
#if defined(__SSE2__)
  static_assert(sizeof(Aabb) == 4 * sizeof(float), "Aabb is min.x, min.y, max.x, max.y");
  const std::uint32_t at = row.begin - base;
  float *minx = to.minx + at, *miny = to.miny + at, *maxx = to.maxx + at, *maxy = to.maxy + at;
  std::uint32_t* item = to.item + at;
  const std::uint32_t* order = t.order.data();
  const Aabb* box = t.box.data();
  const __m128i first = _mm_set1_epi32(static_cast<std::int32_t>(row.begin));
  for (; rank + 4 <= size; rank += 4) {
    __m128 r0 = _mm_loadu_ps(&box[order[rank]].min.x), r1 = _mm_loadu_ps(&box[order[rank + 1]].min.x),
           r2 = _mm_loadu_ps(&box[order[rank + 2]].min.x), r3 = _mm_loadu_ps(&box[order[rank + 3]].min.x);
    _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
    _mm_storeu_ps(minx + rank, r0);
    _mm_storeu_ps(miny + rank, r1);
    _mm_storeu_ps(maxx + rank, r2);
    _mm_storeu_ps(maxy + rank, r3);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(item + rank),
                     _mm_add_epi32(first, _mm_loadu_si128(reinterpret_cast<const __m128i*>(order + rank))));
  }
#endif
  for (; rank < size; ++rank) {
    const std::uint32_t j = t.order[rank];
    store(to, row.begin - base + rank, t.box[j], row.begin + j);
  }
  return result;
}

void HomeGrid::sort_row_in_place(std::size_t k, RowSorter& t) {
  const RowOrder o = sort_row(k, t, whole(), 0);
  rows_[k].crowded = o.crowded;
  rows_[k].by_left = o.by_left;
}

void HomeGrid::sort_rows() {
  if (rows_sorted_) return;
  tbb::enumerable_thread_specific<RowSorter> scratch;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, rows_.size(), 8), [&](const auto& range) {
    for (std::size_t k = range.begin(); k != range.end(); ++k) sort_row_in_place(k, scratch.local());
  });
  rows_sorted_ = true;
}

/// Sparse worlds, whose rows range far beyond the number of shapes: a radix sort on the
/// exact home cell ids, so memory follows the shapes, never the world's area. (Rows are
/// sorted by left edge afterwards; the gathers here miss the cache, which only sparse
/// worlds pay.)
void HomeGrid::bucket_by_cells(const Scene& scene, std::uint64_t row_count) {
  const std::size_t n = scene.size();
  const std::uint64_t large_key = cols_ * row_count;
  UninitializedVector<KeyedShape> keyed(n);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 1 << 14), [&](const auto& r) {
    for (std::size_t i = r.begin(); i != r.end(); ++i) {
      const Aabb b = record_of(scene, kinds_, static_cast<std::uint32_t>(i)).box;
      const auto col = static_cast<std::uint64_t>(cells_.index(b.min.x) - col0_);
      const auto row = static_cast<std::uint64_t>(cells_.index(b.min.y) - row0_);
      keyed[i] = {is_small(cells_, b) ? row * cols_ + col : large_key, static_cast<std::uint32_t>(i)};
    }
  });
  radix_sort_items(
      keyed, [](const KeyedShape& s) { return s.key; }, bits_for(large_key + 1));
  const auto small = static_cast<std::size_t>(
      std::partition_point(keyed.begin(), keyed.end(), [&](const KeyedShape& s) { return s.key < large_key; }) -
      keyed.begin());
  large_ids_.resize(n - small);
  large_records_.resize(n - small);
  for (std::size_t p = small; p < n; ++p) {  // ascending: the sort is stable
    large_ids_[p - small] = keyed[p].shape;
    large_records_[p - small] = record_of(scene, kinds_, keyed[p].shape);
  }

  resize(small);
  items_.resize(small);
  UninitializedVector<std::uint32_t> row(small);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, small, 1 << 14), [&](const auto& r) {
    for (std::size_t p = r.begin(); p != r.end(); ++p) {
      const ShapeRecord s = record_of(scene, kinds_, keyed[p].shape);
      items_[p] = {keyed[p].shape, {s.g[0], s.g[1], s.g[2], s.g[3]}};
      store(whole(), p, s.box, static_cast<std::uint32_t>(p));
      row[p] = static_cast<std::uint32_t>(cells_.index(s.box.min.y) - row0_);
    }
  });
  rows_.clear();
  for (std::size_t p = 0; p < small; ++p) {
    if (p == 0 || row[p] != row[p - 1]) {
      if (!rows_.empty()) rows_.back().end = static_cast<std::uint32_t>(p);
      rows_.push_back({row[p], static_cast<std::uint32_t>(p), 0, true, true});
    }
  }
  if (!rows_.empty()) rows_.back().end = static_cast<std::uint32_t>(small);
  // Each row by left edge (the cells are in order already; ties keep global order).
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, rows_.size(), 8), [&](const auto& range) {
    std::vector<std::uint32_t> order;
    std::vector<float> v;
    std::vector<std::uint32_t> at;
    for (std::size_t k = range.begin(); k != range.end(); ++k) {
      const Row& w = rows_[k];
      order.resize(w.end - w.begin);
      std::iota(order.begin(), order.end(), w.begin);
      if (std::is_sorted(order.begin(), order.end(),
                         [&](std::uint32_t x, std::uint32_t y) { return minx_[x] < minx_[y]; }))
        continue;
      std::stable_sort(order.begin(), order.end(),
                       [&](std::uint32_t x, std::uint32_t y) { return minx_[x] < minx_[y]; });
      for (auto* column : {&minx_, &miny_, &maxx_, &maxy_}) {
        v.clear();
        for (std::uint32_t p : order) v.push_back((*column)[p]);
        std::copy(v.begin(), v.end(), column->begin() + w.begin);
      }
      at.clear();
      for (std::uint32_t p : order) at.push_back(item_[p]);
      std::copy(at.begin(), at.end(), item_.begin() + w.begin);
    }
  });
}

std::uint64_t HomeGrid::order_hash() const {
  Fnv1a hash;
  for (std::size_t p = 0; p < item_.size(); ++p) hash.add_u64(items_[item_[p]].shape);
  return hash.value();
}

void HomeGrid::size_columns(UninitializedVector<float>& minx, UninitializedVector<float>& miny,
                            UninitializedVector<float>& maxx, UninitializedVector<float>& maxy, std::size_t n) {
  // Eight more bounds than shapes: sweep reads the boxes eight at a time. The padding box
  // is empty (min > max), so it never overlaps anything.
  for (auto* v : {&minx, &miny}) {
    v->resize(n + 8);
    std::fill(v->end() - 8, v->end(), HUGE_VALF);
  }
  for (auto* v : {&maxx, &maxy}) {
    v->resize(n + 8);
    std::fill(v->end() - 8, v->end(), -HUGE_VALF);
  }
}

void HomeGrid::resize(std::size_t small) {
  size_columns(minx_, miny_, maxx_, maxy_, small);
  item_.resize(small);
}

void HomeGrid::store(const Columns& to, std::size_t p, const Aabb& box, std::uint32_t item) {
  to.minx[p] = box.min.x;
  to.miny[p] = box.min.y;
  to.maxx[p] = box.max.x;
  to.maxy[p] = box.max.y;
  to.item[p] = item;
}

std::uint32_t HomeGrid::first_col_at_least(const Columns& c, std::uint32_t begin, std::uint32_t end,
                                           std::int64_t col) const {
  const double x = static_cast<double>(col) * cells_.cell_size();  // exact: a power of two times an integer
  return static_cast<std::uint32_t>(
      std::lower_bound(c.minx + begin, c.minx + end, x, [](float v, double t) { return v < t; }) - c.minx);
}

}  // namespace hitgrid
