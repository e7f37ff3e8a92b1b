// The crowded-cell sweep: the overlapping boxes among the shapes of one crowded cell (a
// cell of the home grid holding crowded_shapes or more, a cell of the tiled grid holding
// more than its all-pairs limit), in time that follows the overlaps, not the square of
// the count.
//
// The boxes are sorted along the axis on which they overlap least (their total extent
// relative to the spread of their lower edges: a stack of parallel segments overlaps
// completely along its length and not at all across it), and each box is tested against
// the boxes after it until one starts past its end, eight at a time into a bit mask
// without a branch per pair (in crowded cells the boxes overlap unpredictably, and a
// branch per test mispredicts more often than not). Only pairs with at least one marked
// box are reported: the home grid marks the cell's own shapes (its neighbours' pairs are
// their cells' business), the tiled grid the shapes whose footprint starts in the cell's
// column (the first-cell rule).
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "box_filter.hpp"
#include "hitgrid/core/aabb.hpp"
#include "uninitialized_vector.hpp"

namespace hitgrid {

class CrowdedSweep {
 public:
  /// Calls visit(i, j) for every pair of the n boxes box(0), ..., box(n - 1) whose closed
  /// boxes overlap and of which marked(i) or marked(j) holds, each pair once (i and j are
  /// input indices, in either order).
  template <class BoxOf, class MarkedOf, class Visit>
  void run(std::uint32_t n, BoxOf&& box, MarkedOf&& marked, Visit&& visit) {
    if (n < 2) return;
    const bool along_y = sweep_along_y(n, box);
    auto low = [&](std::uint32_t i) { return along_y ? box(i).min.y : box(i).min.x; };
    order_.resize(n);
    for (std::uint32_t i = 0; i < n; ++i) order_[i] = i;
    std::sort(order_.begin(), order_.end(),
              [&](std::uint32_t a, std::uint32_t b) { return low(a) < low(b) || (low(a) == low(b) && a < b); });
    // Sorted columns padded by eight empty boxes (min > max: they overlap nothing).
    for (auto* v : {&minx_, &miny_}) v->assign(n + padding, HUGE_VALF);
    for (auto* v : {&maxx_, &maxy_}) v->assign(n + padding, -HUGE_VALF);
    marked_.assign(n + padding, 0);
    for (std::uint32_t x = 0; x < n; ++x) {
      const Aabb b = box(order_[x]);
      minx_[x] = b.min.x;
      miny_[x] = b.min.y;
      maxx_[x] = b.max.x;
      maxy_[x] = b.max.y;
      marked_[x] = marked(order_[x]) ? 1 : 0;
    }
    const float* sweep_min = along_y ? miny_.data() : minx_.data();
    const float* sweep_max = along_y ? maxy_.data() : maxx_.data();
    for (std::uint32_t x = 0; x + 1 < n; ++x) {
      const float end = sweep_max[x];
      for (std::uint32_t y = x + 1; y < n; y += 8) {
        std::uint32_t mask = BaselineBoxFilter::overlap8(minx_.data() + y, maxx_.data() + y, miny_.data() + y,
                                                         maxy_.data() + y, minx_[x], maxx_[x], miny_[x], maxy_[x]);
        if (!marked_[x]) mask &= marked8(y);
        for (; mask != 0; mask &= mask - 1)
          visit(order_[x], order_[y + static_cast<std::uint32_t>(std::countr_zero(mask))]);
        if (sweep_min[y + 7] > end) break;  // sorted: the rest start past x's end
      }
    }
  }

 private:
  static constexpr std::uint32_t padding = 8;

  /// Whether extent_x / spread_x > extent_y / spread_y, compared without dividing by zero.
  template <class BoxOf>
  static bool sweep_along_y(std::uint32_t n, BoxOf& box) {
    double extent[2] = {0.0, 0.0}, lo[2] = {HUGE_VAL, HUGE_VAL}, hi[2] = {-HUGE_VAL, -HUGE_VAL};
    for (std::uint32_t i = 0; i < n; ++i) {
      const Aabb b = box(i);
      extent[0] += double{b.max.x} - b.min.x;
      extent[1] += double{b.max.y} - b.min.y;
      lo[0] = std::min<double>(lo[0], b.min.x);
      hi[0] = std::max<double>(hi[0], b.min.x);
      lo[1] = std::min<double>(lo[1], b.min.y);
      hi[1] = std::max<double>(hi[1], b.min.y);
    }
    return extent[1] * (hi[0] - lo[0]) < extent[0] * (hi[1] - lo[1]);
  }

  /// Bit i set when the box at sorted position y + i is marked.
  std::uint32_t marked8(std::uint32_t y) const {
    std::uint32_t mask = 0;
    for (std::uint32_t i = 0; i < 8; ++i) mask |= std::uint32_t{marked_[y + i]} << i;
    return mask;
  }

  CachedVector<std::uint32_t> order_;  // input indices in sweep order
  CachedVector<float> minx_, miny_, maxx_, maxy_;
  CachedVector<std::uint8_t> marked_;
};

}  // namespace hitgrid
