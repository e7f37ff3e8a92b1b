// The large shapes' spans over the home-cell grid, grouped by row: part of the grid's
// build, read by the large-with-small pass (home_grid_pairs.cpp).
//
// A large shape L meets a small shape S only in a cell both hold; S's cells are its home
// cell and the three cells right of and above it, so S's home cell is one of L's footprint
// cells or the cell left of, below, or below-left of one. L's span in a row of home cells
// is therefore the columns of its footprint in that row and the row above, and one more to
// their left (segments: the cells they cross, conservatively; grid_cells.hpp). Each (row,
// span) is listed once, so no pair is met twice. Listing every span and grouping them by
// row lets the pass search each row once, its shapes warm in the cache for every span that
// crosses it; visiting the rows shape by shape would jump to a cold row at every step.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "home_grid.hpp"
#include "packed_shapes.hpp"
#include "uninitialized_vector.hpp"

namespace hitgrid {

struct LargeSpan {
  std::uint32_t large;   // index into HomeGrid::large_ids() and large_records()
  std::uint32_t lo, hi;  // home columns [lo, hi], relative to HomeGrid::col0(); empty if lo > hi
};

class LargeSpans {
 public:
  LargeSpans() = default;
  /// The spans of every large shape of `grid` over the rows holding small shapes.
  static LargeSpans build(const HomeGrid& grid, const KindRanges& kinds);

  std::size_t row_count() const { return start_.empty() ? 0 : start_.size() - 1; }
  /// The spans crossing grid.rows()[k] (some may be empty).
  std::span<const LargeSpan> row(std::size_t k) const { return {spans_.data() + start_[k], start_[k + 1] - start_[k]}; }

 private:
  CachedVector<std::uint64_t> start_;  // per row of the grid, then the end
  UninitializedVector<LargeSpan> spans_;
};

}  // namespace hitgrid
