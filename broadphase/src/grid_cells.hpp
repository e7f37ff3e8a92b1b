// Which cells of a uniform grid a shape occupies.
//
// The grid's cells are closed squares of side h = 2^log2_cell: cell (i, j) is
// [i h, (i + 1) h] x [j h, (j + 1) h]. Because h is a power of two, x / h is exact for
// every float x, so the cell range of a coordinate interval is computed exactly:
// the closed interval [lo, hi] touches columns ceil(lo / h) - 1 (whose right edge may equal
// lo) through floor(hi / h). Neighbouring closed cells share their edges, so a shape that
// touches a cell only along an edge or at a corner is in that cell's list too.
//
// Boxes and circles occupy every cell their bounding box touches. A segment occupies, row
// by row, the columns its part within that row's closed band touches: about
// rows + columns cells instead of rows x columns, which is what lets a grid beat a
// bounding-volume tree on long thin segments. The row spans are computed in double and
// widened by a bound on their rounding error, so they are conservative: every cell the
// closed segment touches is listed (tests/broadphase/test_grid_cells checks it exactly); a
// cell it only nearly touches may be listed too, which costs a candidate, never a pair.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "hitgrid/core/aabb.hpp"
#include "hitgrid/core/shapes.hpp"

namespace hitgrid {

/// floor and ceil of |x| < 2^62 as integers. Inline: on the x86-64 baseline (SSE2, no
/// ROUNDSD) std::floor is a library call, and these run for every cell of every shape.
inline std::int64_t floor_to_int(double x) {
  const auto i = static_cast<std::int64_t>(x);  // truncates toward zero
  return i - (static_cast<double>(i) > x);
}
inline std::int64_t ceil_to_int(double x) {
  const auto i = static_cast<std::int64_t>(x);
  return i + (static_cast<double>(i) < x);
}

/// Inclusive range of cell indices along one axis.
struct CellSpan {
  std::int64_t lo = 0;
  std::int64_t hi = -1;
  std::int64_t size() const { return hi >= lo ? hi - lo + 1 : 0; }
};

class GridCells {
 public:
  /// Cells of side 2^log2_cell. Indices are exact as long as |coordinate| / h < 2^53; the
  /// grid builder chooses log2_cell so that they stay far below that.
  explicit GridCells(int log2_cell)
      : log2_cell_(log2_cell), h_(std::ldexp(1.0, log2_cell)), inv_h_(std::ldexp(1.0, -log2_cell)) {}

  int log2_cell() const { return log2_cell_; }
  double cell_size() const { return h_; }

  /// Columns (or rows) whose closed extent touches the closed interval [lo, hi].
  CellSpan span(double lo, double hi) const { return {ceil_to_int(lo * inv_h_) - 1, floor_to_int(hi * inv_h_)}; }
  /// The cell whose closed extent [i h, (i + 1) h] contains x and whose index is largest.
  std::int64_t index(double x) const { return floor_to_int(x * inv_h_); }

  /// Rows and columns touched by a closed box.
  void box_cells(const Aabb& b, CellSpan& cols, CellSpan& rows) const {
    cols = span(b.min.x, b.max.x);
    rows = span(b.min.y, b.max.y);
  }

  /// Calls f(row, columns) for every row the closed segment touches, bottom to top, with
  /// the columns it touches in that row. Spans are conservative (see the header comment).
  template <class F>
  void for_each_segment_row(const Segment& s, F&& f) const {
    for_each_segment_row(s, std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max(), f);
  }
  /// The same, for the rows in [row_lo, row_hi] only: a long segment visited tile by tile
  /// costs the rows of each tile, not all of its rows every time.
  template <class F>
  void for_each_segment_row(const Segment& s, std::int64_t row_lo, std::int64_t row_hi, F&& f) const;

  /// The same for a piece of a line (a ray's or a line's part within a box): the line
  /// through the float point p with dx/dy = slope (0 for a vertical line; `level` for a
  /// horizontal one, whose only y is p.y), between heights y_lo <= y_hi and within
  /// x_lo <= x_hi. Conservative like the segment's spans: every cell of the exact piece is
  /// listed. slope may carry a few roundings (it is dx / dy of floats).
  template <class F>
  void for_each_line_row(Vec2 p, double slope, bool level, double y_lo, double y_hi, double x_lo, double x_hi,
                         std::int64_t row_lo, std::int64_t row_hi, F&& f) const;

  /// Number of cells the segment occupies (the sum of its row spans).
  std::int64_t segment_cell_count(const Segment& s) const {
    std::int64_t n = 0;
    for_each_segment_row(s, [&](std::int64_t, CellSpan cols) { n += cols.size(); });
    return n;
  }

 private:
  int log2_cell_;
  double h_;
  double inv_h_;
};

/// dx / dy as GridCells::for_each_line_row takes it: 0 for a level or a vertical line.
inline double line_slope(double dx, double dy) { return dy == 0.0 || dx == 0.0 ? 0.0 : dx / dy; }

/// Whether the line through p with direction (dx, dy) (each within 2^-52 relative of the
/// exact direction) may meet the closed box b: false only when b's four corners lie
/// strictly on one side of it. Each corner's side, dx (y - p.y) - dy (x - p.x), is
/// computed within 2^-50 (|dx| |y - p.y| + |dy| |x - p.x|) of the exact line's (a few
/// roundings of 2^-53 each; no overflow or underflow in double for float coordinates); a
/// corner counts as on one side only beyond 2^-48 of that.
inline bool line_may_meet(Vec2 p, double dx, double dy, const Aabb& b) {
  int below = 0, above = 0;
  for (const Vec2 c : {b.min, b.max, Vec2{b.min.x, b.max.y}, Vec2{b.max.x, b.min.y}}) {
    const double u = double{c.y} - p.y, v = double{c.x} - p.x;
    const double side = dx * u - dy * v, margin = (std::fabs(dx * u) + std::fabs(dy * v)) * 0x1p-48;
    below += side < -margin;
    above += side > margin;
  }
  return below != 4 && above != 4;
}

/// Whether a shape with these bounds is small in a grid of these cells: its box spans at
/// most two columns and two rows (the home-cell grid stores it once, home_grid.hpp).
inline bool is_small(const GridCells& cells, const Aabb& box) {
  return cells.index(box.max.x) - cells.index(box.min.x) <= 1 && cells.index(box.max.y) - cells.index(box.min.y) <= 1;
}

template <class F>
void GridCells::for_each_segment_row(const Segment& s, std::int64_t row_lo, std::int64_t row_hi, F&& f) const {
  // Order the endpoints bottom to top.
  Vec2 p = s.a, q = s.b;
  if (q.y < p.y) std::swap(p, q);
  const bool level = p.y == q.y, vertical = p.x == q.x;
  const double slope = level || vertical ? 0.0 : (double{q.x} - p.x) / (double{q.y} - p.y);
  for_each_line_row(p, slope, level, p.y, q.y, std::min(p.x, q.x), std::max(p.x, q.x), row_lo, row_hi, f);
}

template <class F>
void GridCells::for_each_line_row(Vec2 p, double slope, bool level, double y_lo, double y_hi, double x_lo, double x_hi,
                                  std::int64_t row_lo, std::int64_t row_hi, F&& f) const {
  CellSpan rows = span(y_lo, y_hi);
  const bool straight = rows.size() == 1 || level || slope == 0.0;
  rows.lo = std::max(rows.lo, row_lo);
  rows.hi = std::min(rows.hi, row_hi);
  if (straight) {
    // One row, a level line or a vertical one: the bounding box's cells, exactly.
    const CellSpan cols = span(x_lo, x_hi);
    for (std::int64_t r = rows.lo; r <= rows.hi; ++r) f(r, cols);
    return;
  }
  // x as a function of y along the line. The rounding error of x(y) below is at most a
  // few units in the last place of |p.x| + |y - p.y| |slope| (the slope's subtraction and
  // division, then one subtraction, one multiplication, one addition, each relative
  // 2^-53); widening by 2^-48 of that magnitude covers it with a wide margin, and clamping
  // to the piece's exact x extent keeps the span within its bounding box.
  const double h = cell_size();
  // x at height y, and the bound on its error.
  auto x_at = [&](double y, double& x, double& err) {
    const double t = (y - p.y) * slope;
    x = p.x + t;
    err = (std::fabs(double{p.x}) + std::fabs(t)) * 0x1p-48;
  };
  if (rows.lo > rows.hi) return;
  // The closed band of row r, cut to the piece's y extent, is [max(r h, y_lo),
  // min((r + 1) h, y_hi)] (r h is exact: a power of two); a row's top is the next row's
  // bottom, so each boundary's x is computed once.
  double x0, err0;
  x_at(std::max(static_cast<double>(rows.lo) * h, y_lo), x0, err0);
  for (std::int64_t r = rows.lo; r <= rows.hi; ++r) {
    double x1, err1;
    x_at(std::min(static_cast<double>(r + 1) * h, y_hi), x1, err1);
    const double lo = std::max(x_lo, std::min(x0 - err0, x1 - err1));
    const double hi = std::min(x_hi, std::max(x0 + err0, x1 + err1));
    // Empty when the line's part in this row lies beyond [x_lo, x_hi]: then lo or hi may
    // be far outside the grid (a nearly level line runs past 2^62 cells within a row),
    // where span() must not go. Otherwise both lie in [x_lo, x_hi].
    f(r, lo <= hi ? span(lo, hi) : CellSpan{});
    x0 = x1;
    err0 = err1;
  }
}

}  // namespace hitgrid
