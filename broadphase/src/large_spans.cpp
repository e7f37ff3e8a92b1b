#include "large_spans.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <tuple>

#include "counting_sort.hpp"
#include "hitgrid/broadphase/detail/parallel.hpp"
#include "uninitialized_vector.hpp"

namespace hitgrid {
namespace {

/// Large shapes per block at least, and at most this many blocks (counting_sort.hpp: at
/// most max_block_counters counters in all): large shapes are few, and each has many spans.
constexpr int large_shapes_per_block_log2 = 6;
constexpr std::size_t max_large_blocks = 64;

/// The rows holding small shapes that large shape i can reach: its footprint's rows and
/// the row below them (home_row_range), as indices [first, last) into grid.rows().
std::pair<std::size_t, std::size_t> home_row_range(const HomeGrid& grid, std::size_t i) {
  const ShapeRecord& r = grid.large_records()[i];
  const CellSpan foot_rows = grid.cells().span(r.box.min.y, r.box.max.y);
  return grid.row_range(foot_rows.lo - 1 - grid.row0(), foot_rows.hi - grid.row0());
}

/// The home cells large shape i can share a cell with, row by row: in row r, the columns
/// of its footprint in rows r and r + 1, and one more to their left. Calls f(k, lo, hi)
/// for each row grid.rows()[k] holding shapes (so a long segment across an empty region
/// costs nothing there), with the columns relative to col0().
template <class F>
void for_each_home_span(const HomeGrid& grid, const KindRanges& kinds, std::size_t i, F&& f) {
  const std::span<const HomeGrid::Row> rows = grid.rows();
  const GridCells& cells = grid.cells();
  const ShapeRecord& r = grid.large_records()[i];
  const std::int64_t row0 = grid.row0(), col0 = grid.col0();
  const CellSpan foot_rows = cells.span(r.box.min.y, r.box.max.y);
  const CellSpan foot_cols = cells.span(r.box.min.x, r.box.max.x);
  const std::int64_t last = foot_rows.hi - row0;
  // (Not a structured binding: the lambdas below capture k, which clang 14, the
  // ThreadSanitizer and fuzz builds' compiler, does not allow for bindings.)
  std::size_t k, k_end;
  std::tie(k, k_end) = home_row_range(grid, i);
  auto emit = [&](CellSpan span) {
    const std::int64_t lo = std::max<std::int64_t>(span.lo - 1 - col0, 0);
    const std::int64_t hi = std::min<std::int64_t>(span.hi - col0, static_cast<std::int64_t>(grid.cols()) - 1);
    if (hi >= lo) f(k, static_cast<std::uint32_t>(lo), static_cast<std::uint32_t>(hi));
  };
  auto join = [](CellSpan a, CellSpan b) {
    if (a.size() == 0) return b;
    if (b.size() == 0) return a;
    return CellSpan{std::min(a.lo, b.lo), std::max(a.hi, b.hi)};
  };
  if (kinds.kind(grid.large_ids()[i]) != ShapeKind::segment) {
    for (; k < k_end; ++k) emit(foot_cols);
    return;
  }
  const Segment seg = as_segment(r.g);
  const auto rows_here = static_cast<std::int64_t>(k_end - k);
  const std::int64_t first = foot_rows.lo - 1 - row0;
  if (2 * rows_here < last - first + 1) {
    // Mostly empty rows (a long segment across a sparse world): only those holding shapes,
    // each with its own span computation.
    for (; k < k_end; ++k) {
      const std::int64_t row = rows[k].row + row0;
      CellSpan span;
      cells.for_each_segment_row(seg, row, row + 1, [&](std::int64_t, CellSpan c) { span = join(span, c); });
      emit(span);
    }
    return;
  }
  // One walk along the segment's rows: home row h joins the footprint's rows h and h + 1.
  CellSpan below;  // the footprint in the row before the current one (none before the first)
  auto home_row = [&](std::int64_t h, CellSpan span) {
    while (k < k_end && rows[k].row < h - row0) ++k;
    if (k < k_end && rows[k].row == h - row0) emit(span);
  };
  cells.for_each_segment_row(seg, [&](std::int64_t row, CellSpan c) {
    home_row(row - 1, join(below, c));
    below = c;
  });
  home_row(foot_rows.hi, below);
}

}  // namespace

/// The block-parallel counting sort of the spans by row (counting_sort.hpp). The count
/// step does not walk the shapes: a shape has at most one span in each row holding shapes
/// within its home-row range, so each block counts +1 at the first such row and -1 past
/// the last, and the slots a shape leaves unused hold empty spans. Should a shape ever
/// have more spans in a row than that bound, its block stops writing there and the spans
/// are listed again, counted by walking the shapes.
LargeSpans LargeSpans::build(const HomeGrid& grid, const KindRanges& kinds) {
  LargeSpans out;
  const std::size_t large = grid.large_ids().size(), rows = grid.rows().size();
  if (large == 0 || rows == 0) return out;
  const Blocks blocks = Blocks::at_least(large, large_shapes_per_block_log2,
                                         std::min<std::uint64_t>(max_large_blocks, max_block_counters / rows));
  for (const bool walk : {false, true}) {
    BlockCounts<std::uint64_t> counts(blocks.count, rows);
    detail::parallel_for(std::size_t{0}, blocks.count, [&](std::size_t b) {
      std::uint64_t* count = counts.table(b);
      if (walk) {
        for (std::size_t i = blocks.begin(b), end = blocks.end(b); i < end; ++i)
          for_each_home_span(grid, kinds, i, [&](std::size_t k, std::uint32_t, std::uint32_t) { ++count[k]; });
        return;
      }
      CachedVector<std::int64_t> change(rows + 1, 0);
      for (std::size_t i = blocks.begin(b), end = blocks.end(b); i < end; ++i) {
        const auto [first, last] = home_row_range(grid, i);
        ++change[first];
        --change[last];
      }
      std::int64_t running = 0;
      for (std::size_t k = 0; k < rows; ++k) count[k] = static_cast<std::uint64_t>(running += change[k]);
    });
    // Each block's slots in row k end where the next block's begin (or the row ends).
    CachedVector<std::uint64_t> limit(blocks.count * rows);
    out.start_ = counts.place();
    for (std::size_t b = 0; b < blocks.count; ++b)
      for (std::size_t k = 0; k < rows; ++k)
        limit[b * rows + k] = b + 1 < blocks.count ? counts.table(b + 1)[k] : out.start_[k + 1];
    out.spans_.resize(out.start_[rows]);
    std::atomic<bool> overflow{false};
    detail::parallel_for(std::size_t{0}, blocks.count, [&](std::size_t b) {
      std::uint64_t* next = counts.table(b);
      const std::uint64_t* end = limit.data() + b * rows;
      bool full = false;
      for (std::size_t i = blocks.begin(b), stop = blocks.end(b); i < stop; ++i)
        for_each_home_span(grid, kinds, i, [&](std::size_t k, std::uint32_t lo, std::uint32_t hi) {
          if (next[k] < end[k])
            out.spans_[next[k]++] = {static_cast<std::uint32_t>(i), lo, hi};
          else
            full = true;
        });
      for (std::size_t k = 0; k < rows; ++k)
        for (std::uint64_t q = next[k]; q < end[k]; ++q) out.spans_[q] = {0, 1, 0};  // columns [1, 0]: empty
      if (full) overflow = true;
    });
    if (!overflow) break;
  }
  return out;
}

}  // namespace hitgrid
