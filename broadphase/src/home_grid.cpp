#include "home_grid.hpp"

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <numeric>

#include "hitgrid/core/stopwatch.hpp"
#include "radix_sort.hpp"

namespace hitgrid {
namespace {

/// A shape and its home cell (row-major index), for the sort; large shapes get a key past
/// every cell, which sorts them to the end.
struct SortItem {
  std::uint64_t key;
  std::uint32_t shape;
};

// Candidates are filtered in chunks of this many (a buffer on the stack).
constexpr std::uint32_t chunk = 64;
// A cell with at least this many shapes is searched on its own, along its better axis.
constexpr std::uint32_t crowded_shapes = 32;

/// Sorts each run of equal cell(order[i]) in order[0, size) with `before`: insertion sort
/// for the usual few shapes per cell, std::sort for a crowded one.
template <class CellOf, class Before>
void sort_cells(std::uint32_t* order, std::size_t size, CellOf cell_of, Before before) {
  for (std::size_t b = 0; b < size;) {
    std::size_t e = b + 1;
    while (e < size && cell_of(order[e]) == cell_of(order[b])) ++e;
    if (e - b > 16) {
      std::sort(order + b, order + e, before);
    } else {
      for (std::size_t i = b + 1; i < e; ++i) {
        const std::uint32_t x = order[i];
        std::size_t j = i;
        for (; j > b && before(x, order[j - 1]); --j) order[j] = order[j - 1];
        order[j] = x;
      }
    }
    b = e;
  }
}

/// Bit i set when box i of the eight at (minx, maxx, miny, maxy) overlaps [x0, x1] x
/// [y0, y1] (closed). SSE2 is the x86-64 baseline; the scalar loop serves elsewhere.
inline std::uint32_t overlap_mask8(const float* minx, const float* maxx, const float* miny, const float* maxy, float x0,
                                   float x1, float y0, float y1) {
#if defined(__SSE2__)
  const __m128 vx0 = _mm_set1_ps(x0), vx1 = _mm_set1_ps(x1), vy0 = _mm_set1_ps(y0), vy1 = _mm_set1_ps(y1);
  auto four = [&](std::size_t i) {
    const __m128 hit =
        _mm_and_ps(_mm_and_ps(_mm_cmple_ps(_mm_loadu_ps(minx + i), vx1), _mm_cmple_ps(vx0, _mm_loadu_ps(maxx + i))),
                   _mm_and_ps(_mm_cmple_ps(_mm_loadu_ps(miny + i), vy1), _mm_cmple_ps(vy0, _mm_loadu_ps(maxy + i))));
    return static_cast<std::uint32_t>(_mm_movemask_ps(hit));
  };
  return four(0) | four(4) << 4;
#else
  std::uint32_t mask = 0;
  for (std::uint32_t i = 0; i < 8; ++i)
    mask |= static_cast<std::uint32_t>((minx[i] <= x1) & (x0 <= maxx[i]) & (miny[i] <= y1) & (y0 <= maxy[i])) << i;
  return mask;
#endif
}

}  // namespace

struct HomeGrid::Scratch {
  std::vector<std::uint64_t> pairs;
  std::vector<std::uint32_t> own, others;  // a crowded cell's shapes and its neighbours', sorted
  std::uint32_t candidates[chunk];
  std::uint64_t tested = 0;
};

HomeGrid::HomeGrid(const UninitializedVector<ShapeRecord>& shapes, KindRanges kinds, PairKeyCodec keys, int log2_cell,
                   const SceneExtent& extent, std::vector<std::uint32_t>& large, HomeGridStats& stats)
    : kinds_(kinds), keys_(keys), cells_(log2_cell), stats_(stats) {
  Stopwatch clock;
  large.clear();
  const std::size_t n = shapes.size();
  if (n != 0) {
    const CellSpan cols = cells_.span(extent.minx, extent.maxx), rows = cells_.span(extent.miny, extent.maxy);
    col0_ = cols.lo;
    row0_ = rows.lo;
    cols_ = static_cast<std::uint64_t>(cols.size());
    const auto row_count = static_cast<std::uint64_t>(rows.size());
    const std::size_t blocks = std::clamp<std::size_t>(n >> 14, 1, 256);
    if ((row_count + 1) * blocks <= (std::uint64_t{1} << 22) && row_count <= 4 * std::uint64_t{n})
      bucket_by_rows(shapes, row_count, blocks, large);
    else
      bucket_by_cells(shapes, row_count, large);
  }
  stats_.small = shape_.size();
  stats_.rows = rows_.size();
  stats_.bucket_ms = clock.lap_ms();
}

/// Dense worlds: a parallel counting sort by row (fixed blocks of shapes count their rows,
/// a prefix sum over (row, block) gives each block its own ranges, each block writes its
/// shapes straight to their places, large shapes into one more "row" past the last), then
/// per row, in parallel, a counting sort by column into the final columns. Both steps
/// write in streams (one per row, then within one row's range), where sorting indices and
/// gathering the shapes afterwards would miss the cache on every shape.
void HomeGrid::bucket_by_rows(const UninitializedVector<ShapeRecord>& shapes, std::uint64_t row_count,
                              std::size_t blocks, std::vector<std::uint32_t>& large) {
  struct Item {
    std::uint32_t shape;
    ShapeRecord record;
  };
  const std::size_t n = shapes.size();
  const std::size_t block_size = (n + blocks - 1) / blocks;
  const std::size_t buckets = row_count + 1;  // the last one holds the large shapes
  auto row_of = [&](const Aabb& b) {
    return is_small(cells_, b) ? static_cast<std::uint64_t>(cells_.index(b.min.y) - row0_) : row_count;
  };
  std::vector<std::uint32_t> place(blocks * buckets, 0);
  tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t k) {
    std::uint32_t* count = place.data() + k * buckets;
    for (std::size_t i = k * block_size; i < std::min(n, (k + 1) * block_size); ++i) ++count[row_of(shapes[i].box)];
  });
  // Row starts, then each block's start within each row; every loop runs along a block's
  // own counters (walking one row across the blocks' tables strides by a table per step).
  std::vector<std::uint32_t> row_begin(buckets + 1, 0);
  for (std::size_t k = 0; k < blocks; ++k)
    for (std::size_t r = 0; r < buckets; ++r) row_begin[r + 1] += place[k * buckets + r];
  for (std::size_t r = 0; r < buckets; ++r) row_begin[r + 1] += row_begin[r];
  std::vector<std::uint32_t> start(row_begin.begin(), row_begin.end() - 1);
  for (std::size_t k = 0; k < blocks; ++k)
    for (std::size_t r = 0; r < buckets; ++r) start[r] += std::exchange(place[k * buckets + r], start[r]);
  UninitializedVector<Item> items(n);
  tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t k) {
    std::uint32_t* next = place.data() + k * buckets;
    for (std::size_t i = k * block_size; i < std::min(n, (k + 1) * block_size); ++i)
      items[next[row_of(shapes[i].box)]++] = {static_cast<std::uint32_t>(i), shapes[i]};
  });
  const std::uint32_t small = row_begin[row_count];
  large.resize(n - small);
  for (std::size_t p = small; p < n; ++p) large[p - small] = items[p].shape;  // ascending: the scatter is stable

  resize(small);
  rows_.clear();
  for (std::uint64_t r = 0; r < row_count; ++r)
    if (row_begin[r + 1] > row_begin[r])
      rows_.push_back({static_cast<std::int64_t>(r), row_begin[r], row_begin[r + 1]});
  struct RowScratch {
    std::vector<std::uint32_t> col, count, order;
    std::vector<float> left;
  };
  tbb::enumerable_thread_specific<RowScratch> scratch;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, rows_.size(), 8), [&](const auto& range) {
    RowScratch& t = scratch.local();
    for (std::size_t k = range.begin(); k != range.end(); ++k) {
      const Row& row = rows_[k];
      const std::uint32_t size = row.end - row.begin;
      t.col.resize(size);
      t.left.resize(size);
      std::uint32_t lo = std::numeric_limits<std::uint32_t>::max(), hi = 0;
      for (std::uint32_t j = 0; j < size; ++j) {
        t.left[j] = items[row.begin + j].record.box.min.x;
        t.col[j] = static_cast<std::uint32_t>(cells_.index(t.left[j]) - col0_);
        lo = std::min(lo, t.col[j]);
        hi = std::max(hi, t.col[j]);
      }
      // order[rank] = j, by left edge, ties by j (global order). A counting sort by column
      // leaves only the inversions within each cell, which an insertion sort then removes
      // in about one step per shape; a crowded cell (or a row much wider than it is full)
      // is sorted outright.
      t.order.resize(size);
      if (hi - lo <= 4 * std::uint64_t{size} + 64) {
        t.count.assign(hi - lo + 2, 0);
        for (std::uint32_t j = 0; j < size; ++j) ++t.count[t.col[j] - lo + 1];
        const std::uint32_t most = *std::max_element(t.count.begin(), t.count.end());
        for (std::size_t c = 1; c < t.count.size(); ++c) t.count[c] += t.count[c - 1];
        for (std::uint32_t j = 0; j < size; ++j) t.order[t.count[t.col[j] - lo]++] = j;
        if (most <= 16) {
          for (std::uint32_t i = 1; i < size; ++i) {
            const std::uint32_t x = t.order[i];
            const float key = t.left[x];
            std::uint32_t j = i;
            for (; j > 0 && t.left[t.order[j - 1]] > key; --j) t.order[j] = t.order[j - 1];
            t.order[j] = x;
          }
          goto sorted;
        }
      }
      for (std::uint32_t j = 0; j < size; ++j) t.order[j] = j;
      std::sort(t.order.begin(), t.order.end(), [&](std::uint32_t x, std::uint32_t y) {
        return t.left[x] < t.left[y] || (t.left[x] == t.left[y] && x < y);
      });
    sorted:
      for (std::uint32_t rank = 0; rank < size; ++rank) {
        const std::uint32_t j = t.order[rank];
        const Item& it = items[row.begin + j];
        store(row.begin + rank, it.shape, it.record, t.col[j]);
      }
    }
  });
}

/// Sparse worlds, whose rows range far beyond the number of shapes: a radix sort on the
/// exact home cell ids, so memory follows the shapes, never the world's area.
void HomeGrid::bucket_by_cells(const UninitializedVector<ShapeRecord>& shapes, std::uint64_t row_count,
                               std::vector<std::uint32_t>& large) {
  const std::size_t n = shapes.size();
  const std::uint64_t large_key = cols_ * row_count;
  UninitializedVector<SortItem> items(n);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 1 << 14), [&](const auto& r) {
    for (std::size_t i = r.begin(); i != r.end(); ++i) {
      const Aabb& b = shapes[i].box;
      const auto col = static_cast<std::uint64_t>(cells_.index(b.min.x) - col0_);
      const auto row = static_cast<std::uint64_t>(cells_.index(b.min.y) - row0_);
      items[i] = {is_small(cells_, b) ? row * cols_ + col : large_key, static_cast<std::uint32_t>(i)};
    }
  });
  radix_sort_items(
      items, [](const SortItem& s) { return s.key; }, bits_for(large_key + 1));
  const auto small = static_cast<std::size_t>(
      std::partition_point(items.begin(), items.end(), [&](const SortItem& s) { return s.key < large_key; }) -
      items.begin());
  large.resize(n - small);
  for (std::size_t p = small; p < n; ++p) large[p - small] = items[p].shape;  // ascending: the sort is stable
  // Within each cell by left edge, then global index.
  std::vector<std::uint32_t> order(small);
  std::iota(order.begin(), order.end(), 0u);
  auto left = [&](std::uint32_t p) { return shapes[items[p].shape].box.min.x; };
  sort_cells(
      order.data(), small, [&](std::uint32_t p) { return items[p].key; },
      [&](std::uint32_t x, std::uint32_t y) { return left(x) < left(y) || (left(x) == left(y) && x < y); });

  resize(small);
  UninitializedVector<std::uint32_t> row(small);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, small, 1 << 14), [&](const auto& r) {
    for (std::size_t p = r.begin(); p != r.end(); ++p) {
      const SortItem& item = items[order[p]];
      const ShapeRecord& s = shapes[item.shape];
      store(p, item.shape, s, static_cast<std::uint32_t>(cells_.index(s.box.min.x) - col0_));
      row[p] = static_cast<std::uint32_t>(cells_.index(s.box.min.y) - row0_);
    }
  });
  rows_.clear();
  for (std::size_t p = 0; p < small; ++p) {
    if (p == 0 || row[p] != row[p - 1]) {
      if (!rows_.empty()) rows_.back().end = static_cast<std::uint32_t>(p);
      rows_.push_back({row[p], static_cast<std::uint32_t>(p), 0});
    }
  }
  if (!rows_.empty()) rows_.back().end = static_cast<std::uint32_t>(small);
}

void HomeGrid::resize(std::size_t small) {
  // Eight more bounds than shapes: sweep reads the boxes eight at a time. The padding box
  // is empty (min > max), so it never overlaps anything.
  for (auto* v : {&minx_, &miny_}) {
    v->resize(small + 8);
    std::fill(v->end() - 8, v->end(), HUGE_VALF);
  }
  for (auto* v : {&maxx_, &maxy_}) {
    v->resize(small + 8);
    std::fill(v->end() - 8, v->end(), -HUGE_VALF);
  }
  geometry_.resize(small);
  shape_.resize(small);
  col_.resize(small);
}

void HomeGrid::store(std::size_t p, std::uint32_t shape, const ShapeRecord& s, std::uint32_t col) {
  minx_[p] = s.box.min.x;
  miny_[p] = s.box.min.y;
  maxx_[p] = s.box.max.x;
  maxy_[p] = s.box.max.y;
  geometry_[p] = {{s.g[0], s.g[1], s.g[2], s.g[3]}};
  shape_[p] = shape;
  col_[p] = col;
}

void HomeGrid::pairs_among(PairKeys& out) {
  Stopwatch clock;
  tbb::enumerable_thread_specific<Scratch> scratch;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, rows_.size(), 4), [&](const auto& r) {
    Scratch& t = scratch.local();
    for (std::size_t k = r.begin(); k != r.end(); ++k) row_pairs(k, t);
  });
  for (Scratch& t : scratch) {
    stats_.candidates += t.tested;
    out.append(t.pairs);
  }
  stats_.pairs_ms = clock.lap_ms();
}

/// Pairs of a row's shapes with each other and with the row above, by sweeps: the row
/// is sorted by the left edges of the shapes' boxes (by home column, then within each
/// cell), so a shape meets the later shapes of its row up to its right edge, and the
/// shapes of the row above from the first one that still reaches its left edge, a
/// pointer that only moves forward. Small shapes are narrower than two cells, so each
/// sweep sees a few shapes. A crowded cell is searched on its own (crowded_cell): all
/// of its shapes' pairs with its own and later cells are found there.
void HomeGrid::row_pairs(std::size_t k, Scratch& t) const {
  const Row& row = rows_[k];
  const bool above = k + 1 < rows_.size() && rows_[k + 1].row == row.row + 1;
  const std::uint32_t up_begin = above ? rows_[k + 1].begin : row.end, up_end = above ? rows_[k + 1].end : row.end;
  const float* maxx = maxx_.data();
  std::uint32_t lo = up_begin;
  for (std::uint32_t a = row.begin; a < row.end;) {
    const std::uint32_t c = col_[a];
    if (a + crowded_shapes <= row.end && col_[a + crowded_shapes - 1] == c && (a == row.begin || col_[a - 1] != c)) {
      a = crowded_cell(a, row.end, up_begin, up_end, t);
      continue;
    }
    const float x0 = minx_[a];
    sweep(a, a + 1, row.end, t);
    // Usually lo moves by zero or one: two steps without branches, then a loop that is
    // rarely entered (a data-dependent loop exit mispredicts about once per shape).
    lo += (lo < up_end) && maxx[lo] < x0;
    lo += (lo < up_end) && maxx[lo] < x0;
    while (lo < up_end && maxx[lo] < x0) ++lo;
    sweep(a, lo, up_end, t);
    ++a;
  }
}

/// Shape a against the shapes from `begin` (sorted by left edge, before `end`) whose left
/// edge is at most a's right edge: bounding boxes, then the exact test. The boxes are
/// tested eight at a time into a bit mask, without branches: most shapes have one or two
/// candidates, and a loop that stops at the first left edge past a's right edge
/// mispredicts its exit nearly every time.
void HomeGrid::sweep(std::uint32_t a, std::uint32_t begin, std::uint32_t end, Scratch& t) const {
  const float x0 = minx_[a], x1 = maxx_[a], y0 = miny_[a], y1 = maxy_[a];
  const float* minx = minx_.data();
  const float* maxx = maxx_.data();
  const float* miny = miny_.data();
  const float* maxy = maxy_.data();
  for (std::uint32_t b = begin; b < end; b += 8) {
    // The arrays are padded by 8, so b + i may run past `end` (the mask drops those).
    std::uint32_t mask = overlap_mask8(minx + b, maxx + b, miny + b, maxy + b, x0, x1, y0, y1);
    if (end - b < 8) mask &= (1u << (end - b)) - 1;
    while (mask != 0) {
      const std::uint32_t q = b + static_cast<std::uint32_t>(std::countr_zero(mask));
      mask &= mask - 1;
      exact(shape_[a], geometry_[a].v, shape_[q], geometry_[q].v, t);
    }
    if (b + 8 >= end || minx[b + 7] > x1) break;
  }
}

/// A crowded cell starting at cb (its row ends at row_end, the row above is [up_begin,
/// up_end)): a sweep among its own shapes and a two-list sweep between them and the shapes
/// of the cells after it (the next cell of its row and the three above; neighbour with
/// neighbour is left to the neighbours), along the axis on which the boxes overlap least
/// (total extent relative to the spread of their lower edges: a stack of parallel segments
/// overlaps completely along its length and not at all across it). Returns the cell's end.
std::uint32_t HomeGrid::crowded_cell(std::uint32_t cb, std::uint32_t row_end, std::uint32_t up_begin,
                                     std::uint32_t up_end, Scratch& t) const {
  const std::uint32_t c = col_[cb];
  auto first_at_least = [&](std::uint32_t begin, std::uint32_t end, std::int64_t col) {
    return static_cast<std::uint32_t>(
        std::lower_bound(col_.begin() + begin, col_.begin() + end, col,
                         [](std::uint32_t x, std::int64_t v) { return static_cast<std::int64_t>(x) < v; }) -
        col_.begin());
  };
  const std::uint32_t ce = first_at_least(cb, row_end, std::int64_t{c} + 1);
  const std::uint32_t same_end = first_at_least(ce, row_end, std::int64_t{c} + 2);
  const std::uint32_t lo = first_at_least(up_begin, up_end, std::int64_t{c} - 1);
  const std::uint32_t hi = first_at_least(lo, up_end, std::int64_t{c} + 2);
  t.own.clear();
  t.others.clear();
  for (std::uint32_t p = cb; p < ce; ++p) t.own.push_back(p);
  for (std::uint32_t p = ce; p < same_end; ++p) t.others.push_back(p);
  for (std::uint32_t p = lo; p < hi; ++p) t.others.push_back(p);
  double extent[2] = {0.0, 0.0}, low[2] = {HUGE_VAL, HUGE_VAL}, high[2] = {-HUGE_VAL, -HUGE_VAL};
  auto measure = [&](const std::vector<std::uint32_t>& list) {
    for (std::uint32_t p : list) {
      extent[0] += double{maxx_[p]} - minx_[p];
      extent[1] += double{maxy_[p]} - miny_[p];
      low[0] = std::min<double>(low[0], minx_[p]);
      high[0] = std::max<double>(high[0], minx_[p]);
      low[1] = std::min<double>(low[1], miny_[p]);
      high[1] = std::max<double>(high[1], miny_[p]);
    }
  };
  measure(t.own);
  measure(t.others);
  // extent[0] / spread[0] against extent[1] / spread[1], without dividing by zero.
  const bool along_y = extent[1] * (high[0] - low[0]) < extent[0] * (high[1] - low[1]);
  const float* mins = along_y ? miny_.data() : minx_.data();
  const float* maxs = along_y ? maxy_.data() : maxx_.data();
  auto by_min = [&](std::uint32_t a, std::uint32_t b) { return mins[a] < mins[b] || (mins[a] == mins[b] && a < b); };
  std::sort(t.own.begin(), t.own.end(), by_min);
  std::sort(t.others.begin(), t.others.end(), by_min);
  auto overlap = [&](std::uint32_t a, std::uint32_t b) {
    return minx_[a] <= maxx_[b] && minx_[b] <= maxx_[a] && miny_[a] <= maxy_[b] && miny_[b] <= maxy_[a];
  };
  auto test = [&](std::uint32_t a, std::uint32_t b) {
    if (overlap(a, b)) exact(shape_[a], geometry_[a].v, shape_[b], geometry_[b].v, t);
  };
  const std::vector<std::uint32_t>& own = t.own;
  const std::vector<std::uint32_t>& others = t.others;
  for (std::size_t x = 0; x < own.size(); ++x)
    for (std::size_t y = x + 1; y < own.size() && mins[own[y]] <= maxs[own[x]]; ++y) test(own[x], own[y]);
  // Two lists: each overlapping pair is met from whichever of the two starts first.
  std::size_t i = 0, j = 0;
  while (i < own.size() && j < others.size()) {
    if (mins[own[i]] <= mins[others[j]]) {
      for (std::size_t q = j; q < others.size() && mins[others[q]] <= maxs[own[i]]; ++q) test(own[i], others[q]);
      ++i;
    } else {
      for (std::size_t q = i; q < own.size() && mins[own[q]] <= maxs[others[j]]; ++q) test(others[j], own[q]);
      ++j;
    }
  }
  return ce;
}

/// A large shape against the small shapes [begin, end).
void HomeGrid::test_range(std::uint32_t shape, const ShapeRecord& r, std::uint32_t begin, std::uint32_t end,
                          Scratch& t) const {
  const float x0 = r.box.min.x, y0 = r.box.min.y, x1 = r.box.max.x, y1 = r.box.max.y;
  while (begin < end) {
    const std::uint32_t stop = std::min(end, begin + chunk);
    std::uint32_t n = 0;
    for (std::uint32_t b = begin; b < stop; ++b) {
      t.candidates[n] = b;
      n += (minx_[b] <= x1) & (x0 <= maxx_[b]) & (miny_[b] <= y1) & (y0 <= maxy_[b]);
    }
    for (std::uint32_t c = 0; c < n; ++c) {
      const std::uint32_t b = t.candidates[c];
      exact(shape, r.g, shape_[b], geometry_[b].v, t);
    }
    begin = stop;
  }
}

void HomeGrid::exact(std::uint32_t a, const float* ga, std::uint32_t b, const float* gb, Scratch& t) const {
  if (b < a) {
    std::swap(a, b);
    std::swap(ga, gb);
  }
  ++t.tested;
  if (intersects_packed(kinds_.kind(a), ga, kinds_.kind(b), gb)) t.pairs.push_back(keys_.key(a, b));
}

std::uint32_t HomeGrid::first_col_at_least(const Row& row, std::int64_t col) const {
  return static_cast<std::uint32_t>(
      std::lower_bound(col_.begin() + row.begin, col_.begin() + row.end, col,
                       [](std::uint32_t c, std::int64_t v) { return static_cast<std::int64_t>(c) < v; }) -
      col_.begin());
}

/// A large shape's home cells in one row: columns [lo, hi] (relative to col0_).
struct HomeGrid::LargeSpan {
  std::uint32_t shape;
  std::uint32_t lo, hi;
};

/// The large shapes visit the home cells near their footprints row by row. Visiting them
/// shape by shape would jump to a new row's data (cold in the cache) at every step; instead
/// every (row, columns) span of every large shape is listed, the spans are grouped by row
/// with a parallel counting sort, and each row is then searched once, in parallel, its
/// shapes warm in the cache for all the spans that cross it.
void HomeGrid::pairs_with(const UninitializedVector<ShapeRecord>& shapes, const std::vector<std::uint32_t>& large,
                          PairKeys& out) {
  Stopwatch clock;
  if (!rows_.empty() && !large.empty()) {
    const std::size_t rows = rows_.size();
    const std::size_t blocks =
        std::clamp<std::size_t>(std::min(large.size() >> 6, (std::size_t{1} << 22) / rows), 1, 64);
    const std::size_t block_size = (large.size() + blocks - 1) / blocks;
    std::vector<std::uint32_t> place(blocks * rows, 0);
    tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t b) {
      std::uint32_t* count = place.data() + b * rows;
      for (std::size_t i = b * block_size; i < std::min(large.size(), (b + 1) * block_size); ++i)
        for_each_home_span(large[i], shapes[large[i]],
                           [&](std::size_t k, std::uint32_t, std::uint32_t) { ++count[k]; });
    });
    std::vector<std::uint64_t> start(rows + 1, 0);
    for (std::size_t b = 0; b < blocks; ++b)
      for (std::size_t k = 0; k < rows; ++k) start[k + 1] += place[b * rows + k];
    for (std::size_t k = 0; k < rows; ++k) start[k + 1] += start[k];
    UninitializedVector<LargeSpan> spans(start[rows]);
    {
      std::vector<std::uint64_t> next(start.begin(), start.end() - 1);
      std::vector<std::uint64_t> block_next(blocks * rows);
      for (std::size_t b = 0; b < blocks; ++b)
        for (std::size_t k = 0; k < rows; ++k) {
          block_next[b * rows + k] = next[k];
          next[k] += place[b * rows + k];
        }
      tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t b) {
        std::uint64_t* at = block_next.data() + b * rows;
        for (std::size_t i = b * block_size; i < std::min(large.size(), (b + 1) * block_size); ++i)
          for_each_home_span(large[i], shapes[large[i]], [&](std::size_t k, std::uint32_t lo, std::uint32_t hi) {
            spans[at[k]++] = {large[i], lo, hi};
          });
      });
    }
    tbb::enumerable_thread_specific<Scratch> scratch;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, rows, 4), [&](const auto& r) {
      Scratch& t = scratch.local();
      for (std::size_t k = r.begin(); k != r.end(); ++k)
        for (std::uint64_t q = start[k]; q < start[k + 1]; ++q) {
          const LargeSpan& span = spans[q];
          const std::uint32_t begin = first_col_at_least(rows_[k], span.lo);
          const std::uint32_t end = first_col_at_least(rows_[k], std::int64_t{span.hi} + 1);
          test_range(span.shape, shapes[span.shape], begin, end, t);
        }
    });
    for (Scratch& t : scratch) {
      stats_.candidates += t.tested;
      out.append(t.pairs);
    }
  }
  stats_.large_ms = clock.lap_ms();
}

/// The home cells a large shape can share a cell with, row by row: in row r, the columns
/// of its footprint in rows r and r + 1, and one more to their left. Calls f(k, lo, hi)
/// for each row rows_[k] holding shapes (so a long segment across an empty region costs
/// nothing there), with the columns relative to col0_.
template <class F>
void HomeGrid::for_each_home_span(std::uint32_t shape, const ShapeRecord& r, F&& f) const {
  const ShapeKind kind = kinds_.kind(shape);
  const CellSpan foot_rows = cells_.span(r.box.min.y, r.box.max.y);
  const CellSpan foot_cols = cells_.span(r.box.min.x, r.box.max.x);
  const std::int64_t first = foot_rows.lo - 1 - row0_, last = foot_rows.hi - row0_;
  auto k = static_cast<std::size_t>(
      std::lower_bound(rows_.begin(), rows_.end(), first, [](const Row& w, std::int64_t v) { return w.row < v; }) -
      rows_.begin());
  for (; k < rows_.size() && rows_[k].row <= last; ++k) {
    const std::int64_t row = rows_[k].row + row0_;
    CellSpan span = foot_cols;
    if (kind == ShapeKind::segment) {
      span = {std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::min()};
      cells_.for_each_segment_row(as_segment(r.g), row, row + 1, [&](std::int64_t, CellSpan c) {
        span.lo = std::min(span.lo, c.lo);
        span.hi = std::max(span.hi, c.hi);
      });
      if (span.hi < span.lo) continue;
    }
    const std::int64_t lo = std::max<std::int64_t>(span.lo - 1 - col0_, 0);
    const std::int64_t hi = std::min<std::int64_t>(span.hi - col0_, static_cast<std::int64_t>(cols_) - 1);
    if (hi >= lo) f(k, static_cast<std::uint32_t>(lo), static_cast<std::uint32_t>(hi));
  }
}

}  // namespace hitgrid
