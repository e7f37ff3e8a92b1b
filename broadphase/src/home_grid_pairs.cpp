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
#include "grid_kernels.hpp"
#include "hitgrid/broadphase/detail/parallel.hpp"
#include "uninitialized_vector.hpp"

namespace hitgrid {
namespace {

// Rows per task of the passes' parallel loops.
constexpr std::size_t rows_per_task = 8;
constexpr std::size_t large_rows_per_task = 4;
// A row crossed by at least this many spans gets a table of where each column's shapes
// begin, when the table is no more than four entries per span and shape.
constexpr std::uint64_t column_table_spans = 16;
constexpr std::uint64_t column_table_per_entry = 4;
// How many candidates ahead the exact tests' queueing asks for the items it will read:
// the small pairs' items were just read by the search; the large pass's were not.
constexpr std::uint32_t small_items_ahead = 8;
constexpr std::uint32_t large_items_ahead = 16;

class HomeSearch;

constexpr std::size_t no_row = static_cast<std::size_t>(-1);

/// Per-thread state of a pass.
struct Scratch {
  Scratch(const PairTestContext& tests, const HomeSearch& search);
  Scratch(const Scratch& other) : Scratch(other.tests, *other.search) {}
  PairTestContext tests;
  const HomeSearch* search;
  CandidateBuffer small;  // positions in the grid's columns
  CandidateBuffer large;  // a large shape (index into large_ids()) and positions
  PairBatch batch;
  PairKeys pairs;
  CachedVector<std::uint32_t> crowded;  // a crowded cell's shapes, then its neighbours'
  CrowdedSweep sweep;
  CachedVector<std::uint32_t> col_start;  // where each column's shapes begin in one row
  // SmallPairs::rows_final: rows [pending_begin, pending_end) wait for rows that are not
  // final or not readable yet (none when pending_end is no_row).
  std::size_t pending_begin = no_row, pending_end = no_row;
};

/// Per-thread scratch, each with empty buffers.
class ScratchSet : public tbb::enumerable_thread_specific<Scratch> {
 public:
  ScratchSet(const PairTestContext& tests, const HomeSearch& search)
      : tbb::enumerable_thread_specific<Scratch>(Scratch(tests, search)) {}
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

/// Both passes over one grid: the kernels (grid_kernels.hpp) find the candidates, and
/// the exact tests and the crowded cells are done here. Bound to a grid by bind(): the
/// small-pairs pass binds the grid being built, then the built one (the same buffers).
class HomeSearch {
 public:
  explicit HomeSearch(const PairTestContext& tests) : tests_(tests), kernels_(grid_kernels(tests.isa)) {}
  HomeSearch(const HomeGrid& g, const PairTestContext& tests) : HomeSearch(tests) { bind(g); }

  void bind(const HomeGrid& g) {
    g_ = &g;
    at_ = g.columns();
  }
  const HomeGrid& grid() const { return *g_; }
  const PairTestContext& tests() const { return tests_; }

  /// Row k against itself and the row above it (if that holds shapes); the candidates
  /// into t.small, tested when it fills.
  void search_row(std::size_t k, Scratch& t) const;
  std::uint64_t large_small_pairs(const LargeSpans& spans, PairKeys& out) const;

  /// CandidateBuffer::flush of Scratch::small: the exact tests of the gathered candidates.
  static void flush_small(void* scratch);
  /// CandidateBuffer::flush of Scratch::large.
  static void flush_large(void* scratch);
  /// RowSearch::crowded_cell.
  static std::uint32_t crowded_cell(void* scratch, std::uint32_t cb, std::uint32_t row_end, std::uint32_t up_begin,
                                    std::uint32_t up_end);

 private:
  static void exact(const HomeGrid::Item* items, std::uint32_t a, std::uint32_t b, Scratch& t) {
    const HomeGrid::Item &x = items[a], &y = items[b];
    t.batch.add(x.shape, x.g, y.shape, y.g, t.pairs);
  }

  const HomeGrid* g_ = nullptr;
  PairTestContext tests_;
  HomeGrid::Columns at_{};
  GridKernels kernels_;
};

Scratch::Scratch(const PairTestContext& t, const HomeSearch& s) : tests(t), search(&s), batch(t) {
  small.flush = &HomeSearch::flush_small;
  small.context = this;
  large.flush = &HomeSearch::flush_large;
  large.context = this;
}

/// Row k holds pairs with row k + 1 when that is the next row up.
bool has_row_above(std::span<const HomeGrid::Row> rows, std::size_t k) {
  return k + 1 < rows.size() && rows[k + 1].row == rows[k].row + 1;
}

void HomeSearch::search_row(std::size_t k, Scratch& t) const {
  const std::span<const HomeGrid::Row> rows = g_->rows();
  auto range = [](const HomeGrid::Row& r) { return RowRange{r.begin, r.end, r.crowded, r.by_left}; };
  const RowSearch s{at_.minx, at_.miny, at_.maxx, at_.maxy, g_->cells().cell_size(), &crowded_cell, &t};
  const bool above = has_row_above(rows, k);
  const RowRange row = range(rows[k]), up = above ? range(rows[k + 1]) : RowRange{};
  kernels_.row_pairs(s, row, above ? &up : nullptr, t.small);
}

void HomeSearch::flush_small(void* scratch) {
  Scratch& t = *static_cast<Scratch*>(scratch);
  // In a local: read through t.search, g++ loads the pointer again for every pair (the
  // batch's out-of-line test, when it runs, may have written anywhere).
  const HomeGrid::Item* items = t.search->g_->items();
  // The items small_items_ahead candidates ahead are asked for early.
  const CandidateBuffer& c = t.small;
  for (std::uint32_t i = 0; i < c.count; ++i) {
    if (i + small_items_ahead < c.count) {
      __builtin_prefetch(&items[c.a[i + small_items_ahead]]);
      __builtin_prefetch(&items[c.b[i + small_items_ahead]]);
    }
    exact(items, c.a[i], c.b[i], t);
  }
  t.small.count = 0;
}

/// A crowded cell starting at cb (its row ends at row_end, the row above is [up_begin,
/// up_end)): the crowded-cell sweep over its own shapes and the shapes of the cells after
/// it (the next cell of its row and the three above), each pair with at least one of its
/// own (neighbour with neighbour is left to the neighbours). Returns the cell's end.
std::uint32_t HomeSearch::crowded_cell(void* scratch, std::uint32_t cb, std::uint32_t row_end, std::uint32_t up_begin,
                                       std::uint32_t up_end) {
  Scratch& t = *static_cast<Scratch*>(scratch);
  const HomeSearch& self = *t.search;
  const HomeGrid& g = *self.g_;
  const HomeGrid::Columns& at = self.at_;
  const std::int64_t c = g.col_of(cb);
  const std::uint32_t ce = g.first_col_at_least(cb, row_end, c + 1);
  const std::uint32_t same_end = g.first_col_at_least(ce, row_end, c + 2);
  const std::uint32_t lo = g.first_col_at_least(up_begin, up_end, c - 1);
  const std::uint32_t hi = g.first_col_at_least(lo, up_end, c + 2);
  t.crowded.clear();
  for (std::uint32_t p = cb; p < same_end; ++p) t.crowded.push_back(p);
  for (std::uint32_t p = lo; p < hi; ++p) t.crowded.push_back(p);
  const std::uint32_t own = ce - cb;
  t.sweep.run(
      static_cast<std::uint32_t>(t.crowded.size()),
      [&](std::uint32_t i) {
        const std::uint32_t p = t.crowded[i];
        return Aabb{{at.minx[p], at.miny[p]}, {at.maxx[p], at.maxy[p]}};
      },
      [&](std::uint32_t i) { return i < own; },
      [&, items = g.items()](std::uint32_t i, std::uint32_t j) { exact(items, t.crowded[i], t.crowded[j], t); });
  return ce;
}

void HomeSearch::flush_large(void* scratch) {
  Scratch& t = *static_cast<Scratch*>(scratch);
  const HomeSearch& self = *t.search;
  const HomeGrid& g = *self.g_;
  const CandidateBuffer& c = t.large;
  for (std::uint32_t i = 0; i < c.count; ++i) {
    // The search did not read the small shapes' items: each is asked for large_items_ahead
    // candidates ahead. (The large shape's record is the same for a run of candidates.)
    if (i + large_items_ahead < c.count) __builtin_prefetch(&g.item_at(c.b[i + large_items_ahead]));
    const std::uint32_t l = c.a[i];
    const HomeGrid::Item& s = g.item_at(c.b[i]);
    t.batch.add(g.large_ids()[l], g.large_records()[l].g, s.shape, s.g, t.pairs);
  }
  t.large.count = 0;
}

/// Each row is searched once, in parallel, for every large shape's span that crosses it
/// (large_spans.hpp).
std::uint64_t HomeSearch::large_small_pairs(const LargeSpans& spans, PairKeys& out) const {
  const std::span<const HomeGrid::Row> rows = g_->rows();
  if (rows.empty() || spans.row_count() == 0) return 0;
  ScratchSet scratch(tests_, *this);
  detail::parallel_for(tbb::blocked_range<std::size_t>(0, rows.size(), large_rows_per_task), [&](const auto& r) {
    Scratch& t = scratch.local();
    for (std::size_t k = r.begin(); k != r.end(); ++k) {
      const HomeGrid::Row& row = rows[k];
      const std::span<const LargeSpan> crossing = spans.row(k);
      const std::uint64_t count = crossing.size();
      // Where each column's shapes begin in this row: a table when many spans cross the
      // row (a binary search per span would miss the cache at every step), else binary
      // searches.
      const bool table =
          count >= column_table_spans && g_->cols() <= column_table_per_entry * (count + (row.end - row.begin));
      if (table) {
        t.col_start.resize(g_->cols() + 1);
        std::uint32_t p = row.begin;
        for (std::uint64_t c = 0; c <= g_->cols(); ++c) {
          // Past the shapes left of the column's edge, eight compares at a time (a loop one
          // shape at a time would mispredict its exit at nearly every column).
          const float edge =
              float_at_least(static_cast<double>(static_cast<std::int64_t>(c) + g_->col0()) * g_->cells().cell_size());
          for (;;) {
            const auto step = static_cast<std::uint32_t>(
                std::countr_one(BaselineBoxFilter::below8(at_.minx + p, edge) & first_lanes(row.end - p)));
            p += step;
            if (step < 8) break;
          }
          t.col_start[c] = p;
        }
      }
      for (const LargeSpan& span : crossing) {
        const std::uint32_t begin =
            table ? t.col_start[span.lo] : g_->first_col_at_least(row.begin, row.end, g_->col0() + span.lo);
        const std::uint32_t end =
            table ? t.col_start[span.hi + 1] : g_->first_col_at_least(begin, row.end, g_->col0() + span.hi + 1);
        const ShapeRecord& large = g_->large_records()[span.large];
        const bool segment = tests_.kinds.kind(g_->large_ids()[span.large]) == ShapeKind::segment;
        const RangeSearch s{at_.minx, at_.miny, at_.maxx, at_.maxy, large.box, segment, SegmentSideFilter(large.g)};
        kernels_.range_pairs(s, span.large, begin, end, t.large);
      }
    }
    flush_large(&t);
  });
  return scratch.collect(out);
}

}  // namespace

struct SmallPairs::State {
  explicit State(const PairTestContext& tests) : search(tests), scratch(tests, search) {}
  HomeSearch search;
  ScratchSet scratch;                   // refers to search
  CachedVector<std::uint8_t> searched;  // per row; each written by one task
};

SmallPairs::SmallPairs(const PairTestContext& tests) : s_(make_cached<State>(tests)) {}
SmallPairs::~SmallPairs() = default;

void SmallPairs::rows_listed(const HomeGrid& grid) {
  s_->search.bind(grid);
  s_->searched.assign(grid.rows().size(), 0);
}

/// Each row whose row above is final and whose search reads only readable positions is
/// searched now. The search of row k reads from its start to the end of the row above (or
/// its own), and its eight-wide loads up to column_padding past that, into rows another
/// task of the build may be storing (HomeGrid::RowListener; a data race even though those
/// lanes are dropped, which ThreadSanitizer reported). The rows that must wait are a suffix
/// of the rows reported so far (a later row ends later), kept in the thread's scratch: if
/// the same thread next reports the rows that follow them (as a task's rows, and usually
/// the next task's, come), they are searched then, while their shapes are still in the
/// cache; otherwise they are left to finish().
void SmallPairs::rows_final(std::size_t first, std::size_t last, std::size_t readable_end) {
  const HomeSearch& search = s_->search;
  const std::span<const HomeGrid::Row> rows = search.grid().rows();
  Scratch& t = s_->scratch.local();
  const std::size_t from = t.pending_end == first ? t.pending_begin : first;
  t.pending_begin = t.pending_end = no_row;
  for (std::size_t k = from; k != last; ++k) {
    const bool above = has_row_above(rows, k);
    if ((above && k + 1 == last) ||
        std::size_t{rows[above ? k + 1 : k].end} + HomeGrid::column_padding > readable_end) {
      t.pending_begin = k;
      t.pending_end = last;
      break;
    }
    search.search_row(k, t);
    s_->searched[k] = 1;
  }
  HomeSearch::flush_small(&t);
}

std::uint64_t SmallPairs::finish(const HomeGrid& grid, PairKeys& out) {
  HomeSearch& search = s_->search;
  search.bind(grid);
  CachedVector<std::uint8_t>& searched = s_->searched;
  searched.resize(grid.rows().size(), 0);  // no rows reported: none searched
  detail::parallel_for(tbb::blocked_range<std::size_t>(0, searched.size(), rows_per_task), [&](const auto& r) {
    Scratch& t = s_->scratch.local();
    for (std::size_t k = r.begin(); k != r.end(); ++k)
      if (!searched[k]) search.search_row(k, t);
    HomeSearch::flush_small(&t);
  });
  searched.clear();
  return s_->scratch.collect(out);
}

std::uint64_t small_pairs(const HomeGrid& grid, const PairTestContext& tests, PairKeys& out) {
  return SmallPairs(tests).finish(grid, out);
}

std::uint64_t large_small_pairs(const HomeGrid& grid, const LargeSpans& spans, const PairTestContext& tests,
                                PairKeys& out) {
  return HomeSearch(grid, tests).large_small_pairs(spans, out);
}

}  // namespace hitgrid
