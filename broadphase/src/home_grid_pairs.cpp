#include "home_grid_pairs.hpp"

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <span>
#include <vector>

#include "box_filter.hpp"
#include "crowded_sweep.hpp"
#include "segment_side_filter.hpp"

namespace hitgrid {
namespace {

// Candidate pairs gathered before their exact tests run.
constexpr std::uint32_t candidate_capacity = 256;
// Rows per task of the passes' parallel loops.
constexpr std::size_t rows_per_task = 8;
constexpr std::size_t large_rows_per_task = 4;
// A row crossed by at least this many spans gets a table of where each column's shapes
// begin, when the table is no more than four entries per span and shape.
constexpr std::uint64_t column_table_spans = 16;

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

/// Per-thread state of a pass.
struct Scratch {
  explicit Scratch(const PairTestContext& tests) : batch(tests) {}
  // Candidate pairs (positions in the grid's columns) waiting to be queued for the exact
  // test (8 more slots: the box filters store eight lanes, or sixteen, from a count of at
  // most candidate_capacity - 8; box_filter.hpp).
  std::uint32_t candidate_a[candidate_capacity + 8]{}, candidate_b[candidate_capacity + 8]{};
  std::uint32_t candidate_count = 0;
  // The same for a large shape (index into large_ids()) and small shapes (positions).
  std::uint32_t large_a[candidate_capacity + 8]{}, large_b[candidate_capacity + 8]{};
  std::uint32_t large_count = 0;
  PairBatch batch;
  PairKeyList pairs;
  std::vector<std::uint32_t> crowded;  // a crowded cell's shapes, then its neighbours'
  CrowdedSweep sweep;
  std::vector<std::uint32_t> col_start;  // where each column's shapes begin in one row
};

/// Per-thread scratch, each with an empty batch.
class ScratchSet : public tbb::enumerable_thread_specific<Scratch> {
 public:
  explicit ScratchSet(const PairTestContext& tests) : tbb::enumerable_thread_specific<Scratch>(Scratch(tests)) {}
  /// Runs the queued tests and hands the pairs over; returns the tests run.
  std::uint64_t collect(PairKeys& out) {
    std::uint64_t tested = 0;
    for (Scratch& t : *this) {
      t.batch.flush(t.pairs);
      tested += t.batch.tested();
      out.append(t.pairs);
    }
    return tested;
  }
};

}  // namespace

/// The searches of both passes over one grid.
class HomeSearch {
 public:
  HomeSearch(const HomeGrid& g, const PairTestContext& tests) : g_(g), tests_(tests), at_(g.columns()) {}

  std::uint64_t small_pairs(PairKeys& out) const;
  std::uint64_t large_small_pairs(const LargeSpans& spans, PairKeys& out) const;

 private:
  template <class Filter>
  void row_pairs(const HomeGrid::Row& row, const HomeGrid::Row* up, Scratch& t) const;
  template <class Filter>
  void row_pairs_by_tiles(const HomeGrid::Row& row, const HomeGrid::Row* up, Scratch& t) const;
  template <class Filter>
  std::uint32_t skip_left_of(const float* minx, std::uint32_t p, std::uint32_t end, std::int64_t col) const;
  void row_pairs_sse2(const HomeGrid::Row& row, const HomeGrid::Row* up, Scratch& t) const;
  void row_pairs_avx2(const HomeGrid::Row& row, const HomeGrid::Row* up, Scratch& t) const;
  void row_pairs_avx512(const HomeGrid::Row& row, const HomeGrid::Row* up, Scratch& t) const;
  // (Out of line: rare, and kept out of the per-ISA searches, which inline everything else.)
  [[gnu::noinline]] std::uint32_t crowded_cell(std::uint32_t cb, std::uint32_t row_end, std::uint32_t up_begin,
                                               std::uint32_t up_end, Scratch& t) const;
  [[gnu::noinline]] void flush(Scratch& t) const;
  template <class Filter>
  void sweep(std::uint32_t a, std::uint32_t begin, std::uint32_t end, float stop, Scratch& t,
             std::uint32_t& count) const;
  template <class Filter>
  void test_range(std::uint32_t large, std::uint32_t begin, std::uint32_t end, Scratch& t) const;
  void test_range_sse2(std::uint32_t large, std::uint32_t begin, std::uint32_t end, Scratch& t) const;
  void test_range_avx2(std::uint32_t large, std::uint32_t begin, std::uint32_t end, Scratch& t) const;
  void test_range_avx512(std::uint32_t large, std::uint32_t begin, std::uint32_t end, Scratch& t) const;
  [[gnu::noinline]] void flush_large(Scratch& t) const;

  const HomeGrid& g_;
  PairTestContext tests_;
  HomeGrid::Columns at_;
};

std::uint64_t small_pairs(const HomeGrid& grid, const PairTestContext& tests, PairKeys& out) {
  return HomeSearch(grid, tests).small_pairs(out);
}

std::uint64_t large_small_pairs(const HomeGrid& grid, const LargeSpans& spans, const PairTestContext& tests,
                                PairKeys& out) {
  return HomeSearch(grid, tests).large_small_pairs(spans, out);
}

/// Each row is searched against itself and the row above, in parallel over blocks of
/// rows.
std::uint64_t HomeSearch::small_pairs(PairKeys& out) const {
  ScratchSet scratch(tests_);
  // The row search for the narrow phase's ISA (box_filter.hpp); SSE2 is the x86-64
  // baseline, so it also serves Isa::scalar.
  void (HomeSearch::*search)(const HomeGrid::Row&, const HomeGrid::Row*, Scratch&) const = &HomeSearch::row_pairs_sse2;
#if defined(HITGRID_BOX_FILTER_X86)
  if (tests_.isa == Isa::avx512)
    search = &HomeSearch::row_pairs_avx512;
  else if (tests_.isa == Isa::avx2)
    search = &HomeSearch::row_pairs_avx2;
#endif
  const std::span<const HomeGrid::Row> rows = g_.rows();
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, rows.size(), rows_per_task), [&](const auto& r) {
    Scratch& t = scratch.local();
    for (std::size_t k = r.begin(); k != r.end(); ++k) {
      const bool above = k + 1 < rows.size() && rows[k + 1].row == rows[k].row + 1;
      (this->*search)(rows[k], above ? &rows[k + 1] : nullptr, t);
    }
    flush(t);
  });
  return scratch.collect(out);
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
inline void HomeSearch::sweep(std::uint32_t a, std::uint32_t begin, std::uint32_t end, float stop, Scratch& t,
                              std::uint32_t& count) const {
  const float *minx = at_.minx, *maxx = at_.maxx, *miny = at_.miny, *maxy = at_.maxy;
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
void HomeSearch::flush(Scratch& t) const {
  // The items eight candidates ahead are asked for early.
  for (std::uint32_t c = 0; c < t.candidate_count; ++c) {
    if (c + 8 < t.candidate_count) {
      __builtin_prefetch(&g_.item_at(t.candidate_a[c + 8]));
      __builtin_prefetch(&g_.item_at(t.candidate_b[c + 8]));
    }
    const HomeGrid::Item &a = g_.item_at(t.candidate_a[c]), &b = g_.item_at(t.candidate_b[c]);
    t.batch.add(a.shape, a.g, b.shape, b.g, t.pairs);
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
inline void HomeSearch::row_pairs(const HomeGrid::Row& row_in, const HomeGrid::Row* up, Scratch& t) const {
  if constexpr (Filter::tile_lanes != 0) {
    if (!row_in.crowded) {
      row_pairs_by_tiles<Filter>(row_in, up, t);
      return;
    }
  }
  // Locals, not references or members: the candidate stores (uint32_t) may alias a Row's
  // fields, and the out-of-line flush may change anything, so they would be loaded again
  // per shape.
  const HomeGrid::Row row = row_in;
  const bool above = up != nullptr;
  const std::uint32_t up_begin = above ? up->begin : row.end, up_end = above ? up->end : row.end;
  const HomeGrid::Columns at = at_;
  const float *minx = at.minx, *maxx = at.maxx, *miny = at.miny, *maxy = at.maxy;
  const auto h = static_cast<float>(g_.cells().cell_size());
  const bool own_by_left = row.by_left, up_by_left = above && up->by_left;
  std::uint32_t lo = up_begin;
  std::uint32_t count = t.candidate_count;  // see sweep
  for (std::uint32_t a = row.begin; a < row.end;) {
    if (row.crowded && a + HomeGrid::crowded_shapes <= row.end &&
        g_.col_of(a + HomeGrid::crowded_shapes - 1) == g_.col_of(a) &&
        (a == row.begin || g_.col_of(a - 1) != g_.col_of(a))) {
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
inline std::uint32_t HomeSearch::skip_left_of(const float* minx, std::uint32_t p, std::uint32_t end,
                                              std::int64_t col) const {
  const float edge = float_at_least(static_cast<double>(col) * g_.cells().cell_size());  // see first_col_at_least
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
/// about two broadcast tests.
template <class Filter>
inline void HomeSearch::row_pairs_by_tiles(const HomeGrid::Row& row_in, const HomeGrid::Row* up, Scratch& t) const {
  const HomeGrid::Row row = row_in;  // (locals: see row_pairs)
  const std::uint32_t up_begin = up ? up->begin : row.end, up_end = up ? up->end : row.end;
  const HomeGrid::Columns at = at_;
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
    const std::int64_t first = g_.col_of(tile), last = g_.col_of(tile + n - 1);
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
[[gnu::flatten]] void HomeSearch::row_pairs_sse2(const HomeGrid::Row& row, const HomeGrid::Row* up, Scratch& t) const {
  row_pairs<BoxFilterSse2>(row, up, t);
}
#if defined(HITGRID_BOX_FILTER_X86)
[[gnu::target("avx2,popcnt"), gnu::flatten]] void HomeSearch::row_pairs_avx2(const HomeGrid::Row& row,
                                                                             const HomeGrid::Row* up,
                                                                             Scratch& t) const {
  row_pairs<BoxFilterAvx2>(row, up, t);
}
[[gnu::target("avx512f,avx512vl,popcnt"), gnu::flatten]] void HomeSearch::row_pairs_avx512(const HomeGrid::Row& row,
                                                                                           const HomeGrid::Row* up,
                                                                                           Scratch& t) const {
  row_pairs<BoxFilterAvx512>(row, up, t);
}
#endif

/// A crowded cell starting at cb (its row ends at row_end, the row above is [up_begin,
/// up_end)): the crowded-cell sweep over its own shapes and the shapes of the cells after
/// it (the next cell of its row and the three above), each pair with at least one of its
/// own (neighbour with neighbour is left to the neighbours). Returns the cell's end.
std::uint32_t HomeSearch::crowded_cell(std::uint32_t cb, std::uint32_t row_end, std::uint32_t up_begin,
                                       std::uint32_t up_end, Scratch& t) const {
  const std::int64_t c = g_.col_of(cb);
  const std::uint32_t ce = g_.first_col_at_least(cb, row_end, c + 1);
  const std::uint32_t same_end = g_.first_col_at_least(ce, row_end, c + 2);
  const std::uint32_t lo = g_.first_col_at_least(up_begin, up_end, c - 1);
  const std::uint32_t hi = g_.first_col_at_least(lo, up_end, c + 2);
  t.crowded.clear();
  for (std::uint32_t p = cb; p < same_end; ++p) t.crowded.push_back(p);
  for (std::uint32_t p = lo; p < hi; ++p) t.crowded.push_back(p);
  const std::uint32_t own = ce - cb;
  t.sweep.run(
      static_cast<std::uint32_t>(t.crowded.size()),
      [&](std::uint32_t i) {
        const std::uint32_t p = t.crowded[i];
        return Aabb{{at_.minx[p], at_.miny[p]}, {at_.maxx[p], at_.maxy[p]}};
      },
      [&](std::uint32_t i) { return i < own; },
      [&](std::uint32_t i, std::uint32_t j) {
        const HomeGrid::Item &a = g_.item_at(t.crowded[i]), &b = g_.item_at(t.crowded[j]);
        t.batch.add(a.shape, a.g, b.shape, b.g, t.pairs);
      });
  return ce;
}

/// Large shape `large` (index into large_ids()) against the small shapes [begin, end):
/// boxes eight at a time, as in sweep; the exact tests run in flush_large.
template <class Filter>
inline void HomeSearch::test_range(std::uint32_t large, std::uint32_t begin, std::uint32_t end, Scratch& t) const {
  const Aabb& box = g_.large_records()[large].box;
  // A long segment's box holds nearly every shape along its path: those wholly on one
  // side of its line are dropped too.
  const bool segment = tests_.kinds.kind(g_.large_ids()[large]) == ShapeKind::segment;
  const SegmentSideFilter side(g_.large_records()[large].g);
  const float *minx = at_.minx, *maxx = at_.maxx, *miny = at_.miny, *maxy = at_.maxy;
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
[[gnu::flatten]] void HomeSearch::test_range_sse2(std::uint32_t large, std::uint32_t begin, std::uint32_t end,
                                                  Scratch& t) const {
  test_range<BoxFilterSse2>(large, begin, end, t);
}
#if defined(HITGRID_BOX_FILTER_X86)
[[gnu::target("avx2,popcnt"), gnu::flatten]] void HomeSearch::test_range_avx2(std::uint32_t large, std::uint32_t begin,
                                                                              std::uint32_t end, Scratch& t) const {
  test_range<BoxFilterAvx2>(large, begin, end, t);
}
[[gnu::target("avx512f,avx512vl,popcnt"), gnu::flatten]] void HomeSearch::test_range_avx512(std::uint32_t large,
                                                                                            std::uint32_t begin,
                                                                                            std::uint32_t end,
                                                                                            Scratch& t) const {
  test_range<BoxFilterAvx512>(large, begin, end, t);
}
#endif

void HomeSearch::flush_large(Scratch& t) const {
  for (std::uint32_t c = 0; c < t.large_count; ++c) {
    // The search did not read the small shapes' items: each is asked for 16 candidates
    // ahead. (The large shape's record is the same for a run of candidates.)
    if (c + 16 < t.large_count) __builtin_prefetch(&g_.item_at(t.large_b[c + 16]));
    const std::uint32_t l = t.large_a[c];
    const HomeGrid::Item& s = g_.item_at(t.large_b[c]);
    t.batch.add(g_.large_ids()[l], g_.large_records()[l].g, s.shape, s.g, t.pairs);
  }
  t.large_count = 0;
}

/// Each row is searched once, in parallel, for every large shape's span that crosses it
/// (large_spans.hpp).
std::uint64_t HomeSearch::large_small_pairs(const LargeSpans& spans, PairKeys& out) const {
  const std::span<const HomeGrid::Row> rows = g_.rows();
  if (rows.empty() || spans.row_count() == 0) return 0;
  ScratchSet scratch(tests_);
  void (HomeSearch::*test)(std::uint32_t, std::uint32_t, std::uint32_t, Scratch&) const = &HomeSearch::test_range_sse2;
#if defined(HITGRID_BOX_FILTER_X86)
  if (tests_.isa == Isa::avx512)
    test = &HomeSearch::test_range_avx512;
  else if (tests_.isa == Isa::avx2)
    test = &HomeSearch::test_range_avx2;
#endif
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, rows.size(), large_rows_per_task), [&](const auto& r) {
    Scratch& t = scratch.local();
    for (std::size_t k = r.begin(); k != r.end(); ++k) {
      const HomeGrid::Row& row = rows[k];
      const std::span<const LargeSpan> crossing = spans.row(k);
      const std::uint64_t count = crossing.size();
      // Where each column's shapes begin in this row: a table when many spans cross the
      // row (a binary search per span would miss the cache at every step), else binary
      // searches.
      const bool table = count >= column_table_spans && g_.cols() <= 4 * (count + (row.end - row.begin));
      if (table) {
        t.col_start.resize(g_.cols() + 1);
        std::uint32_t p = row.begin;
        for (std::uint64_t c = 0; c <= g_.cols(); ++c) {
          // Past the shapes left of the column's edge, eight compares at a time (a loop
          // one shape at a time would mispredict its exit at nearly every column).
          const double edge = static_cast<double>(static_cast<std::int64_t>(c) + g_.col0()) * g_.cells().cell_size();
          for (;;) {
            const auto step =
                static_cast<std::uint32_t>(std::countr_one(below_edge8(at_.minx + p, edge) & first_lanes(row.end - p)));
            p += step;
            if (step < 8) break;
          }
          t.col_start[c] = p;
        }
      }
      for (const LargeSpan& span : crossing) {
        const std::uint32_t begin =
            table ? t.col_start[span.lo] : g_.first_col_at_least(row.begin, row.end, g_.col0() + span.lo);
        const std::uint32_t end =
            table ? t.col_start[span.hi + 1] : g_.first_col_at_least(begin, row.end, g_.col0() + span.hi + 1);
        (this->*test)(span.large, begin, end, t);
      }
    }
    flush_large(t);
  });
  return scratch.collect(out);
}

}  // namespace hitgrid
