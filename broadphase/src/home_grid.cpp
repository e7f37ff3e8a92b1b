#include "home_grid.hpp"

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <limits>
#include <numeric>

#include "box_filter.hpp"
#include "hitgrid/core/detail/stopwatch.hpp"
#include "pair_batch.hpp"
#include "segment_side_filter.hpp"

namespace hitgrid {
namespace {

// Candidate pairs gathered before their exact tests run.
constexpr std::uint32_t candidate_capacity = 256;

/// The smallest float at or above v: for a float x, x < v iff x < float_at_least(v).
inline float float_at_least(double v) {
  float e = static_cast<float>(v);
  if (static_cast<double>(e) < v) e = std::nextafter(e, HUGE_VALF);
  return e;
}

/// Bit i set when v[i] < edge, for the eight floats from v (the padding past the last
/// shape is fine: the callers mask it off).
inline std::uint32_t below_edge8(const float* v, double edge) { return BoxFilterSse2::below8(v, float_at_least(edge)); }

/// The mask of the first min(n, 8) lanes.
inline std::uint32_t first_lanes(std::uint32_t n) { return n >= 8 ? 0xffu : (1u << n) - 1; }

}  // namespace

struct HomeGrid::Scratch {
  explicit Scratch(const PairBatch& b) : batch(b) {}
  // Candidate pairs (positions in home-cell order) waiting to be queued for the exact test
  // (8 more slots: the box filters store eight lanes, or sixteen, from a count of at most
  // candidate_capacity - 8; box_filter.hpp).
  std::uint32_t candidate_a[candidate_capacity + 8]{}, candidate_b[candidate_capacity + 8]{};
  std::uint32_t candidate_count = 0;
  // The same for a large shape (index into large_ids_) and small shapes (positions).
  std::uint32_t large_a[candidate_capacity + 8]{}, large_b[candidate_capacity + 8]{};
  std::uint32_t large_count = 0;
  PairBatch batch;
  std::vector<std::uint64_t> pairs;
  std::vector<std::uint32_t> own, others;  // a crowded cell's shapes and its neighbours', sorted
  std::vector<std::uint32_t> col_start;    // where each column's shapes begin in one row
  RowSorter sorter;
  Columns at{};  // the columns the candidates' positions index
};

/// Per-thread scratch, each with an empty batch for this grid's ISA.
class HomeGrid::ScratchSet : public tbb::enumerable_thread_specific<Scratch> {
 public:
  explicit ScratchSet(HomeGrid& g) : tbb::enumerable_thread_specific<Scratch>(make(g)) {}
  /// Runs the queued tests and hands the pairs over.
  void collect(PairKeys& out, HomeGridStats& stats) {
    for (Scratch& t : *this) {
      t.batch.flush(t.pairs);
      stats.candidates += t.batch.tested();
      out.append(t.pairs);
    }
  }

 private:
  static Scratch make(HomeGrid& g) {
    Scratch t(PairBatch(g.isa_, g.kinds_, g.keys_));
    t.at = g.whole();
    return t;
  }
};

HomeGrid::Columns HomeGrid::RowSorter::block(std::size_t n) {
  size_columns(minx, miny, maxx, maxy, n);
  item.resize(n);
  return {minx.data(), miny.data(), maxx.data(), maxy.data(), item.data()};
}

/// Rows not sorted yet are sorted here, a block of rows at a time, and searched while
/// they are still in the cache (writing the sorted rows out and reading them back later
/// was a round trip to memory for every shape). Without large shapes, which search the
/// sorted rows afterwards (pairs_with_large), a block's rows are sorted into the thread's
/// own buffers, reused block after block, so that they never leave the cache at all
/// (uniform 1M: 20 MB less written to memory, 19 MB less peak memory; small-pair stage
/// on two threads 13.5 -> 12.8 ms), with the next block's first row sorted once more,
/// for the block's last row to search. Otherwise the rows are sorted into the
/// grid's columns, and a block's last row, which needs the first row of the next block
/// sorted by another task, is searched afterwards.
void HomeGrid::pairs_among(PairKeys& out) {
  Stopwatch clock;
  ScratchSet scratch(*this);
  // The row search for the narrow phase's ISA (box_filter.hpp); SSE2 is the x86-64
  // baseline, so it also serves Isa::scalar.
  void (HomeGrid::*search)(const Row&, const Row*, Scratch&) const = &HomeGrid::row_pairs_sse2;
#if defined(HITGRID_BOX_FILTER_X86)
  if (isa_ == Isa::avx512)
    search = &HomeGrid::row_pairs_avx512;
  else if (isa_ == Isa::avx2)
    search = &HomeGrid::row_pairs_avx2;
#endif
  const std::size_t rows = rows_.size();
  auto adjacent = [&](std::size_t k) { return k + 1 < rows && rows_[k + 1].row == rows_[k].row + 1; };
  if (!rows_sorted_ && large_ids_.empty()) {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, rows, 8), [&](const auto& r) {
      Scratch& t = scratch.local();
      const std::size_t last = adjacent(r.end() - 1) ? r.end() + 1 : r.end();  // rows to sort
      const std::uint32_t base = rows_[r.begin()].begin;
      t.at = t.sorter.block(rows_[last - 1].end - base);
      // The rows as they are in the block's columns.
      Row local[2];
      auto sorted = [&](std::size_t k) {
        const RowOrder o = sort_row(k, t.sorter, t.at, base);
        Row w = rows_[k];
        w.begin -= base;
        w.end -= base;
        w.crowded = o.crowded;
        w.by_left = o.by_left;
        return w;
      };
      std::size_t unsorted = r.begin();  // the first row not sorted yet
      for (std::size_t k = r.begin(); k != r.end(); ++k) {
        if (k == unsorted) local[k & 1] = sorted(unsorted++);
        const bool above = adjacent(k);
        if (above) local[(k + 1) & 1] = sorted(unsorted++);
        (this->*search)(local[k & 1], above ? &local[(k + 1) & 1] : nullptr, t);
      }
      flush(t);
    });
    scratch.collect(out, stats_);
    stats_.pairs_ms = clock.lap_ms();
    return;
  }
  std::vector<std::uint8_t> searched(rows, 0);
  const bool sorting = !rows_sorted_;
  auto search_row = [&](std::size_t k, Scratch& t) {
    (this->*search)(rows_[k], adjacent(k) ? &rows_[k + 1] : nullptr, t);
  };
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, rows, 8), [&](const auto& r) {
    Scratch& t = scratch.local();
    if (sorting)
      for (std::size_t k = r.begin(); k != r.end(); ++k) sort_row_in_place(k, t.sorter);
    for (std::size_t k = r.begin(); k != r.end(); ++k) {
      if (sorting && adjacent(k) && k + 1 == r.end()) continue;
      search_row(k, t);
      searched[k] = 1;
    }
    flush(t);
  });
  if (sorting) rows_sorted_ = true;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, rows, 64), [&](const auto& r) {
    Scratch& t = scratch.local();
    for (std::size_t k = r.begin(); k != r.end(); ++k)
      if (!searched[k]) search_row(k, t);
    flush(t);
  });
  scratch.collect(out, stats_);
  stats_.pairs_ms = clock.lap_ms();
}

/// Shape a against the shapes from `begin` (in column order, before `end`), eight at a
/// time, until the last of an eight starts right of `stop` (past it no shape can meet a;
/// see row_pairs): bounding boxes, then the exact test. The boxes are tested into a bit
/// mask, without branches: most shapes have one or two candidates, and a loop that stops
/// at the first shape past the window mispredicts its exit nearly every time. `count`
/// stands for t.candidate_count, kept by the caller in a local: the candidate stores may
/// alias the member (both are uint32_t), which would make every append wait for the last
/// one's count to reach memory and back.
template <class Filter>
inline void HomeGrid::sweep(std::uint32_t a, std::uint32_t begin, std::uint32_t end, float stop, Scratch& t,
                            std::uint32_t& count) const {
  const float *minx = t.at.minx, *maxx = t.at.maxx, *miny = t.at.miny, *maxy = t.at.maxy;
  const float x0 = minx[a], x1 = maxx[a], y0 = miny[a], y1 = maxy[a];
  for (std::uint32_t b = begin; b < end; b += 8) {
    // The arrays are padded by 8, so b + i may run past `end` (the mask drops those).
    std::uint32_t mask = Filter::overlap8(minx + b, maxx + b, miny + b, maxy + b, x0, x1, y0, y1);
    if (end - b < 8) mask &= (1u << (end - b)) - 1;
    count = Filter::append(mask, a, b, t.candidate_a, t.candidate_b, count);
    if (count > candidate_capacity - 8) {
      t.candidate_count = count;
      flush(t);
      count = 0;
    }
    if (b + 8 >= end || minx[b + 7] > stop) break;
  }
}

/// The exact tests of the gathered candidates.
void HomeGrid::flush(Scratch& t) const {
  // Each item is reached through item_, two dependent loads: the ones eight candidates
  // ahead are asked for early.
  for (std::uint32_t c = 0; c < t.candidate_count; ++c) {
    if (c + 8 < t.candidate_count) {
      __builtin_prefetch(&item(t.at, t.candidate_a[c + 8]));
      __builtin_prefetch(&item(t.at, t.candidate_b[c + 8]));
    }
    const Item &a = item(t.at, t.candidate_a[c]), &b = item(t.at, t.candidate_b[c]);
    exact(a.shape, a.g, b.shape, b.g, t);
  }
  t.candidate_count = 0;
}

/// Pairs of a row's shapes with each other and with the row above, by sweeps. Rows are
/// in column order (home column ascending; within a cell sorted by left edge or not at
/// all, see Row::by_left), and a small shape spans at most two columns, so shape a of
/// column c meets, in its own row, only the later shapes of columns c and c + 1 and, in
/// the row above, only shapes of columns c - 1 to c + 1; the bounding-box test rejects
/// every other shape of these windows (a shape of column c + 2 or beyond starts right of
/// a's right edge, one of column c - 2 or before ends left of its left edge), so each
/// window only needs to be wide enough: from a + 1, and from a pointer into the row above
/// that only moves forward, past shapes that end left of every later shape of the row,
/// up to a bound past which no shape can meet a. A crowded cell is searched on its own
/// (crowded_cell): all of its shapes' pairs with its own and later cells are found there.
template <class Filter>
inline void HomeGrid::row_pairs(const Row& row_in, const Row* up, Scratch& t) const {
  if constexpr (Filter::tile_lanes != 0) {
    if (!row_in.crowded) {
      row_pairs_by_tiles<Filter>(row_in, up, t);
      return;
    }
  }
  // Locals, not references or members: the candidate stores (uint32_t) may alias a Row's
  // fields, and the out-of-line flush may change anything, so they would be loaded again
  // per shape.
  const Row row = row_in;
  const bool above = up != nullptr;
  const std::uint32_t up_begin = above ? up->begin : row.end, up_end = above ? up->end : row.end;
  const Columns at = t.at;
  const float *minx = at.minx, *maxx = at.maxx, *miny = at.miny, *maxy = at.maxy;
  const auto h = static_cast<float>(cells_.cell_size());
  const bool own_by_left = row.by_left, up_by_left = above && up->by_left;
  std::uint32_t lo = up_begin;
  std::uint32_t count = t.candidate_count;  // see sweep
  for (std::uint32_t a = row.begin; a < row.end;) {
    if (row.crowded && a + crowded_shapes <= row.end && col_of(at, a + crowded_shapes - 1) == col_of(at, a) &&
        (a == row.begin || col_of(at, a - 1) != col_of(at, a))) {
      a = crowded_cell(a, row.end, up_begin, up_end, t);
      continue;
    }
    const float x0 = minx[a];
    // The windows' bounds. In a row sorted by left edge, every later shape starts at or
    // right of x0, and the shapes from the first that starts right of x1 on cannot meet a.
    // In column order they are bounds from x0 in [c h, (c + 1) h), with two roundings
    // (monotone): x0 - h < c h, so every later shape of the row starts at or right of
    // `column`; every shape of columns up to c + 1 starts below (c + 2) h <= x0 + 2 h, so
    // at or left of its stop. (The exact edges, from the column's index, cost a tenth of
    // the search.)
    const float x1 = maxx[a];
    const float column = own_by_left ? x0 : x0 - h, two_on = x0 + 2 * h;
    const float own_stop = own_by_left ? x1 : two_on, up_stop = up_by_left ? x1 : two_on;
    // Move lo past the shapes above that end left of a's column: it usually moves by zero
    // to three, counted from one compare of the next eight (maxx is padded past the last
    // shape), with a loop only when all eight are passed. (A plain loop mispredicted its
    // exit about once per shape, and a chain of dependent steps stalled on each load.)
    for (;;) {
      const auto step =
          static_cast<std::uint32_t>(std::countr_one(Filter::below8(maxx + lo, column) & first_lanes(up_end - lo)));
      lo += step;
      if (step < 8) break;
    }
    if constexpr (Filter::sixteen) {
      // Both sweeps' first eight in one step; the rare longer sweeps go on from there.
      const std::uint32_t own = a + 1;
      std::uint32_t mask = Filter::overlap16(minx, maxx, miny, maxy, own, lo, x0, x1, miny[a], maxy[a]);
      mask &= first_lanes(row.end - own) | first_lanes(up_end - lo) << 8;
      count = Filter::append16(mask, a, own, lo, t.candidate_a, t.candidate_b, count);
      if (count > candidate_capacity - 8) {
        t.candidate_count = count;
        flush(t);
        count = 0;
      }
      if (own + 8 < row.end && minx[own + 7] <= own_stop) sweep<Filter>(a, own + 8, row.end, own_stop, t, count);
      if (lo + 8 < up_end && minx[lo + 7] <= up_stop) sweep<Filter>(a, lo + 8, up_end, up_stop, t, count);
    } else {
      sweep<Filter>(a, a + 1, row.end, own_stop, t, count);
      sweep<Filter>(a, lo, up_end, up_stop, t, count);
    }
    ++a;
  }
  t.candidate_count = count;
}

template <class Filter>
inline std::uint32_t HomeGrid::skip_left_of(const float* minx, std::uint32_t p, std::uint32_t end,
                                            std::int64_t col) const {
  const float edge = float_at_least(static_cast<double>(col) * cells_.cell_size());  // see first_col_at_least
  for (;;) {
    const auto step =
        static_cast<std::uint32_t>(std::countr_one(Filter::below8(minx + p, edge) & first_lanes(end - p)));
    p += step;
    if (step < 8) return p;
  }
}

/// row_pairs on AVX-512 and AVX2 for a row without crowded cells, sixteen or eight
/// shapes at a time (a tile, Filter::tile_lanes): the tile's boxes stay in registers and
/// each candidate's box is tested against all of them at once. The candidates of a tile
/// whose home columns run from c to d are the shapes of columns c - 1 to d + 1 in the row
/// above and, in its own row, its own later shapes and those after it up to column d + 1
/// (see row_pairs: a small shape two columns away cannot overlap), in whatever order the
/// shapes of a cell are. Shape by shape, each cost a sixteen-lane test, its two windows'
/// loads and a step of the pointer into the row above, most lanes empty; here each costs
/// about two broadcast tests. Small-pair stage at 1M on one thread (medians of 8, old and
/// new run side by side), AVX-512: uniform 21.4 -> 19.4 ms, clustered 60.5 -> 47.7 (its
/// rows no longer sorted by left edge too, see sort_row), lattice 91.8 -> 83.6; AVX2
/// (eight-shape tiles): uniform 21.0 -> 20.8, clustered 59.1 -> 44.5, lattice 95.9 -> 82.3.
template <class Filter>
inline void HomeGrid::row_pairs_by_tiles(const Row& row_in, const Row* up, Scratch& t) const {
  const Row row = row_in;  // (locals: see row_pairs)
  const std::uint32_t up_begin = up ? up->begin : row.end, up_end = up ? up->end : row.end;
  const Columns at = t.at;
  const float *minx = at.minx, *maxx = at.maxx, *miny = at.miny, *maxy = at.maxy;
  std::uint32_t lo = up_begin, hi = up_begin, own_end = row.begin;
  std::uint32_t count = t.candidate_count;  // see sweep
  auto full = [&](std::uint32_t n) {
    t.candidate_count = n;
    flush(t);
    return 0u;
  };
  for (std::uint32_t tile = row.begin; tile < row.end; tile += Filter::tile_lanes) {
    const std::uint32_t n = std::min<std::uint32_t>(Filter::tile_lanes, row.end - tile);
    const std::int64_t first = col_of(at, tile), last = col_of(at, tile + n - 1);
    lo = skip_left_of<Filter>(minx, lo, up_end, first - 1);
    hi = skip_left_of<Filter>(minx, std::max(hi, lo), up_end, last + 2);
    own_end = skip_left_of<Filter>(minx, std::max(own_end, tile + n), row.end, last + 2);
    count = Filter::tile_pairs(minx, maxx, miny, maxy, tile, n, tile + 1, own_end, lo, hi, t.candidate_a, t.candidate_b,
                               count, candidate_capacity - 8, full);
  }
  t.candidate_count = count;
}

// The row search per ISA: each compiles row_pairs, and what it inlines, for its target
// (flatten; see box_filter.hpp for why attributes and not per-file flags).
[[gnu::flatten]] void HomeGrid::row_pairs_sse2(const Row& row, const Row* up, Scratch& t) const {
  row_pairs<BoxFilterSse2>(row, up, t);
}
#if defined(HITGRID_BOX_FILTER_X86)
[[gnu::target("avx2,popcnt"), gnu::flatten]] void HomeGrid::row_pairs_avx2(const Row& row, const Row* up,
                                                                           Scratch& t) const {
  row_pairs<BoxFilterAvx2>(row, up, t);
}
[[gnu::target("avx512f,avx512vl,popcnt"), gnu::flatten]] void HomeGrid::row_pairs_avx512(const Row& row, const Row* up,
                                                                                         Scratch& t) const {
  row_pairs<BoxFilterAvx512>(row, up, t);
}
#endif

/// A crowded cell starting at cb (its row ends at row_end, the row above is [up_begin,
/// up_end)): a sweep among its own shapes and a two-list sweep between them and the shapes
/// of the cells after it (the next cell of its row and the three above; neighbour with
/// neighbour is left to the neighbours), along the axis on which the boxes overlap least
/// (total extent relative to the spread of their lower edges: a stack of parallel segments
/// overlaps completely along its length and not at all across it). Returns the cell's end.
std::uint32_t HomeGrid::crowded_cell(std::uint32_t cb, std::uint32_t row_end, std::uint32_t up_begin,
                                     std::uint32_t up_end, Scratch& t) const {
  const Columns at = t.at;
  const float *minx = at.minx, *maxx = at.maxx, *miny = at.miny, *maxy = at.maxy;
  const std::int64_t c = col_of(at, cb);
  const std::uint32_t ce = first_col_at_least(at, cb, row_end, c + 1);
  const std::uint32_t same_end = first_col_at_least(at, ce, row_end, c + 2);
  const std::uint32_t lo = first_col_at_least(at, up_begin, up_end, c - 1);
  const std::uint32_t hi = first_col_at_least(at, lo, up_end, c + 2);
  t.own.clear();
  t.others.clear();
  for (std::uint32_t p = cb; p < ce; ++p) t.own.push_back(p);
  for (std::uint32_t p = ce; p < same_end; ++p) t.others.push_back(p);
  for (std::uint32_t p = lo; p < hi; ++p) t.others.push_back(p);
  double extent[2] = {0.0, 0.0}, low[2] = {HUGE_VAL, HUGE_VAL}, high[2] = {-HUGE_VAL, -HUGE_VAL};
  auto measure = [&](const std::vector<std::uint32_t>& list) {
    for (std::uint32_t p : list) {
      extent[0] += double{maxx[p]} - minx[p];
      extent[1] += double{maxy[p]} - miny[p];
      low[0] = std::min<double>(low[0], minx[p]);
      high[0] = std::max<double>(high[0], minx[p]);
      low[1] = std::min<double>(low[1], miny[p]);
      high[1] = std::max<double>(high[1], miny[p]);
    }
  };
  measure(t.own);
  measure(t.others);
  // extent[0] / spread[0] against extent[1] / spread[1], without dividing by zero.
  const bool along_y = extent[1] * (high[0] - low[0]) < extent[0] * (high[1] - low[1]);
  const float* mins = along_y ? miny : minx;
  const float* maxs = along_y ? maxy : maxx;
  auto by_min = [&](std::uint32_t a, std::uint32_t b) { return mins[a] < mins[b] || (mins[a] == mins[b] && a < b); };
  std::sort(t.own.begin(), t.own.end(), by_min);
  std::sort(t.others.begin(), t.others.end(), by_min);
  auto overlap = [&](std::uint32_t a, std::uint32_t b) {
    return minx[a] <= maxx[b] && minx[b] <= maxx[a] && miny[a] <= maxy[b] && miny[b] <= maxy[a];
  };
  auto test = [&](std::uint32_t a, std::uint32_t b) {
    if (overlap(a, b)) exact(item(at, a).shape, item(at, a).g, item(at, b).shape, item(at, b).g, t);
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

/// Large shape `large` (index into large_ids_) against the small shapes [begin, end):
/// boxes eight at a time, as in sweep; the exact tests run in flush_large.
template <class Filter>
inline void HomeGrid::test_range(std::uint32_t large, std::uint32_t begin, std::uint32_t end, Scratch& t) const {
  const Aabb& box = large_records_[large].box;
  // A long segment's box holds nearly every shape along its path: those wholly on one
  // side of its line are dropped too.
  const bool segment = kinds_.kind(large_ids_[large]) == ShapeKind::segment;
  const SegmentSideFilter side(large_records_[large].g);
  const float *minx = minx_.data(), *maxx = maxx_.data(), *miny = miny_.data(), *maxy = maxy_.data();
  for (std::uint32_t b = begin; b < end; b += 8) {
    std::uint32_t mask =
        Filter::overlap8(minx + b, maxx + b, miny + b, maxy + b, box.min.x, box.max.x, box.min.y, box.max.y);
    if (end - b < 8) mask &= (1u << (end - b)) - 1;
    if (segment) mask &= Filter::side8(side, minx + b, maxx + b, miny + b, maxy + b);
    t.large_count = Filter::append(mask, large, b, t.large_a, t.large_b, t.large_count);
    if (t.large_count > candidate_capacity - 8) flush_large(t);
  }
}

// The large-small search per ISA, as the row search (see row_pairs_sse2).
[[gnu::flatten]] void HomeGrid::test_range_sse2(std::uint32_t large, std::uint32_t begin, std::uint32_t end,
                                                Scratch& t) const {
  test_range<BoxFilterSse2>(large, begin, end, t);
}
#if defined(HITGRID_BOX_FILTER_X86)
[[gnu::target("avx2,popcnt"), gnu::flatten]] void HomeGrid::test_range_avx2(std::uint32_t large, std::uint32_t begin,
                                                                            std::uint32_t end, Scratch& t) const {
  test_range<BoxFilterAvx2>(large, begin, end, t);
}
[[gnu::target("avx512f,avx512vl,popcnt"), gnu::flatten]] void HomeGrid::test_range_avx512(std::uint32_t large,
                                                                                          std::uint32_t begin,
                                                                                          std::uint32_t end,
                                                                                          Scratch& t) const {
  test_range<BoxFilterAvx512>(large, begin, end, t);
}
#endif

void HomeGrid::flush_large(Scratch& t) const {
  for (std::uint32_t c = 0; c < t.large_count; ++c) {
    // A small shape's item is two dependent loads away (item_, then items_), and the
    // search read neither: item_ is asked for 32 candidates ahead, the item 16 ahead. (The
    // large shape's record is the same for a run of candidates.) long_tail 1M's
    // large-small stage: 69.5 -> 63.3 ms on one thread, 38.6 -> 32.5 on two. (flush keeps
    // its single prefetch: the same two steps there made no difference.)
    if (c + 32 < t.large_count) __builtin_prefetch(&item_[t.large_b[c + 32]]);
    if (c + 16 < t.large_count) __builtin_prefetch(&item(t.at, t.large_b[c + 16]));
    const std::uint32_t l = t.large_a[c];
    const Item& s = item(t.at, t.large_b[c]);
    exact(large_ids_[l], large_records_[l].g, s.shape, s.g, t);
  }
  t.large_count = 0;
}

void HomeGrid::exact(std::uint32_t a, const float* ga, std::uint32_t b, const float* gb, Scratch& t) const {
  t.batch.add(a, ga, b, gb, t.pairs);
}

/// The rows holding shapes within large shape i's home-row range, as indices [first,
/// last) into rows_: the rows for_each_home_span visits.
std::pair<std::size_t, std::size_t> HomeGrid::home_row_range(std::size_t i) const {
  const ShapeRecord& r = large_records_[i];
  const CellSpan foot_rows = cells_.span(r.box.min.y, r.box.max.y);
  const std::int64_t first = foot_rows.lo - 1 - row0_, last = foot_rows.hi - row0_;
  const auto a =
      std::lower_bound(rows_.begin(), rows_.end(), first, [](const Row& w, std::int64_t v) { return w.row < v; });
  const auto b = std::upper_bound(a, rows_.end(), last, [](std::int64_t v, const Row& w) { return v < w.row; });
  return {static_cast<std::size_t>(a - rows_.begin()), static_cast<std::size_t>(b - rows_.begin())};
}

/// A large shape's home cells in one row: columns [lo, hi] (relative to col0_).
struct HomeGrid::LargeSpan {
  std::uint32_t large;   // index into large_ids_ and large_records_
  std::uint32_t lo, hi;  // relative to col0_
};

/// The large shapes visit the home cells near their footprints row by row. Visiting them
/// shape by shape would jump to a new row's data (cold in the cache) at every step; instead
/// every (row, columns) span of every large shape is listed, the spans are grouped by row
/// with a parallel counting sort, and each row is then searched once, in parallel, its
/// shapes warm in the cache for all the spans that cross it.
void HomeGrid::pairs_with_large(PairKeys& out) {
  const std::vector<std::uint32_t>& large = large_ids_;
  const UninitializedVector<ShapeRecord>& records = large_records_;
  Stopwatch clock;
  if (!rows_.empty() && !large.empty()) {
    sort_rows();  // (pairs_among left them sorted unless it ran first)
    const std::size_t rows = rows_.size();
    const std::size_t blocks =
        std::clamp<std::size_t>(std::min(large.size() >> 6, (std::size_t{1} << 22) / rows), 1, 64);
    const std::size_t block_size = (large.size() + blocks - 1) / blocks;
    // The spans per (block, row) are counted without walking the shapes: a shape has at
    // most one span in each row holding shapes within its home-row range (see
    // for_each_home_span), so each block counts +1 at the first such row and -1 past the
    // last; the slots a shape leaves unused hold empty spans. Should a shape ever have
    // more spans in a row than that bound, its block stops writing there and the spans
    // are listed again, counted by walking the shapes.
    std::vector<std::uint32_t> place(blocks * rows);
    std::vector<std::uint64_t> start(rows + 1);
    UninitializedVector<LargeSpan> spans;
    for (const bool walk : {false, true}) {
      std::fill(place.begin(), place.end(), 0u);
      tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t b) {
        std::uint32_t* count = place.data() + b * rows;
        const std::size_t end = std::min(large.size(), (b + 1) * block_size);
        if (walk) {
          for (std::size_t i = b * block_size; i < end; ++i)
            for_each_home_span(large[i], records[i], [&](std::size_t k, std::uint32_t, std::uint32_t) { ++count[k]; });
          return;
        }
        std::vector<std::int64_t> change(rows + 1, 0);
        for (std::size_t i = b * block_size; i < end; ++i) {
          const auto [first, last] = home_row_range(i);
          ++change[first];
          --change[last];
        }
        std::int64_t running = 0;
        for (std::size_t k = 0; k < rows; ++k) count[k] = static_cast<std::uint32_t>(running += change[k]);
      });
      std::fill(start.begin(), start.end(), 0u);
      for (std::size_t b = 0; b < blocks; ++b)
        for (std::size_t k = 0; k < rows; ++k) start[k + 1] += place[b * rows + k];
      for (std::size_t k = 0; k < rows; ++k) start[k + 1] += start[k];
      spans.resize(start[rows]);
      std::vector<std::uint64_t> next(start.begin(), start.end() - 1);
      std::vector<std::uint64_t> block_next(blocks * rows), block_end(blocks * rows);
      for (std::size_t b = 0; b < blocks; ++b)
        for (std::size_t k = 0; k < rows; ++k) {
          block_next[b * rows + k] = next[k];
          next[k] += place[b * rows + k];
          block_end[b * rows + k] = next[k];
        }
      std::atomic<bool> overflow{false};
      tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t b) {
        std::uint64_t* at = block_next.data() + b * rows;
        const std::uint64_t* end = block_end.data() + b * rows;
        bool full = false;
        for (std::size_t i = b * block_size; i < std::min(large.size(), (b + 1) * block_size); ++i)
          for_each_home_span(large[i], records[i], [&](std::size_t k, std::uint32_t lo, std::uint32_t hi) {
            if (at[k] < end[k])
              spans[at[k]++] = {static_cast<std::uint32_t>(i), lo, hi};
            else
              full = true;
          });
        for (std::size_t k = 0; k < rows; ++k)
          for (std::uint64_t q = at[k]; q < end[k]; ++q) spans[q] = {0, 1, 0};  // columns [1, 0]: empty
        if (full) overflow = true;
      });
      if (!overflow) break;
    }
    ScratchSet scratch(*this);
    void (HomeGrid::*test)(std::uint32_t, std::uint32_t, std::uint32_t, Scratch&) const = &HomeGrid::test_range_sse2;
#if defined(HITGRID_BOX_FILTER_X86)
    if (isa_ == Isa::avx512)
      test = &HomeGrid::test_range_avx512;
    else if (isa_ == Isa::avx2)
      test = &HomeGrid::test_range_avx2;
#endif
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, rows, 4), [&](const auto& r) {
      Scratch& t = scratch.local();
      for (std::size_t k = r.begin(); k != r.end(); ++k) {
        const Row& row = rows_[k];
        const std::uint64_t count = start[k + 1] - start[k];
        // Where each column's shapes begin in this row: a table when many spans cross the
        // row (a binary search per span missed the cache at every step and took most of
        // long_tail's time), else binary searches.
        const bool table = count >= 16 && cols_ <= 4 * (count + (row.end - row.begin));
        if (table) {
          t.col_start.resize(cols_ + 1);
          std::uint32_t p = row.begin;
          for (std::uint64_t c = 0; c <= cols_; ++c) {
            // Past the shapes left of the column's edge, eight compares at a time (a loop
            // one shape at a time mispredicted its exit at nearly every column).
            const double edge = static_cast<double>(static_cast<std::int64_t>(c) + col0_) * cells_.cell_size();
            for (;;) {
              const auto step = static_cast<std::uint32_t>(
                  std::countr_one(below_edge8(minx_.data() + p, edge) & first_lanes(row.end - p)));
              p += step;
              if (step < 8) break;
            }
            t.col_start[c] = p;
          }
        }
        for (std::uint64_t q = start[k]; q < start[k + 1]; ++q) {
          const LargeSpan& span = spans[q];
          const std::uint32_t begin =
              table ? t.col_start[span.lo] : first_col_at_least(t.at, row.begin, row.end, col0_ + span.lo);
          const std::uint32_t end =
              table ? t.col_start[span.hi + 1] : first_col_at_least(t.at, begin, row.end, col0_ + span.hi + 1);
          (this->*test)(span.large, begin, end, t);
        }
      }
      flush_large(t);
    });
    scratch.collect(out, stats_);
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
  auto emit = [&](CellSpan span) {
    const std::int64_t lo = std::max<std::int64_t>(span.lo - 1 - col0_, 0);
    const std::int64_t hi = std::min<std::int64_t>(span.hi - col0_, static_cast<std::int64_t>(cols_) - 1);
    if (hi >= lo) f(k, static_cast<std::uint32_t>(lo), static_cast<std::uint32_t>(hi));
  };
  auto join = [](CellSpan a, CellSpan b) {
    if (a.size() == 0) return b;
    if (b.size() == 0) return a;
    return CellSpan{std::min(a.lo, b.lo), std::max(a.hi, b.hi)};
  };
  if (kind != ShapeKind::segment) {
    for (; k < rows_.size() && rows_[k].row <= last; ++k) emit(foot_cols);
    return;
  }
  const Segment seg = as_segment(r.g);
  const std::int64_t rows_here =
      static_cast<std::int64_t>(std::upper_bound(rows_.begin() + static_cast<std::ptrdiff_t>(k), rows_.end(), last,
                                                 [](std::int64_t v, const Row& w) { return v < w.row; }) -
                                (rows_.begin() + static_cast<std::ptrdiff_t>(k)));
  if (2 * rows_here < last - first + 1) {
    // Mostly empty rows (a long segment across a sparse world): only those holding shapes,
    // each with its own span computation.
    for (; k < rows_.size() && rows_[k].row <= last; ++k) {
      const std::int64_t row = rows_[k].row + row0_;
      CellSpan span;
      cells_.for_each_segment_row(seg, row, row + 1, [&](std::int64_t, CellSpan c) { span = join(span, c); });
      emit(span);
    }
    return;
  }
  // One walk along the segment's rows: home row h joins the footprint's rows h and h + 1.
  CellSpan below;  // the footprint in the row before the current one (none before the first)
  auto home_row = [&](std::int64_t h, CellSpan span) {
    while (k < rows_.size() && rows_[k].row < h - row0_) ++k;
    if (k < rows_.size() && rows_[k].row == h - row0_) emit(span);
  };
  cells_.for_each_segment_row(seg, [&](std::int64_t row, CellSpan c) {
    home_row(row - 1, join(below, c));
    below = c;
  });
  home_row(foot_rows.hi, below);
}

}  // namespace hitgrid
