// The grid kernels' definitions, included by the per-ISA translation units
// (grid_kernels_{sse2,avx2,avx512}.cpp), each with its box filter BoxFilter<A>
// (box_filter.hpp) as `Filter`, and by grid_kernels.cpp with the scalar twin (Isa::scalar,
// and every ISA off x86-64). Everything here has internal linkage and the entry points are flattened; what
// they are built from is templates on the unit's arch, so an out-of-line copy the object
// file holds of one carries that arch in its name and is no other unit's function
// (grid_kernels.hpp).
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

#include "box_filter.hpp"
#include "grid_kernels.hpp"

namespace hitgrid {
namespace {

/// The home column of a box whose left edge is x: floor(x / h), exact (h is a power of
/// two), as GridCells::index computes it.
inline std::int64_t column_of(double x, double inv_h) {
  const double q = x * inv_h;
  const auto i = static_cast<std::int64_t>(q);  // truncates toward zero
  return i - (static_cast<double>(i) > q);
}

template <class Filter>
struct Kernels {
  /// The flush of a full buffer: its tests run, its count is 0 again.
  static void flush(CandidateBuffer& out, std::uint32_t count) {
    out.count = count;
    out.flush(out.context);
  }

  /// Shape a against the shapes from `begin` (in column order, before `end`), eight at a
  /// time, until the last of an eight starts right of `stop` (past it no shape can meet
  /// a; see row_pairs): the boxes are tested into a bit mask, without branches (most
  /// shapes have one or two candidates, and a loop that stops at the first shape past the
  /// window would mispredict its exit nearly every time). `count` stands for out.count,
  /// kept by the caller in a local: the candidate stores may alias the member (both are
  /// uint32_t), which would make every append wait for the last one's count to reach
  /// memory and back.
  static void sweep(const RowSearch& s, std::uint32_t a, std::uint32_t begin, std::uint32_t end, float stop,
                    CandidateBuffer& out, std::uint32_t& count) {
    const float *minx = s.minx, *maxx = s.maxx, *miny = s.miny, *maxy = s.maxy;
    const float x0 = minx[a], x1 = maxx[a], y0 = miny[a], y1 = maxy[a];
    for (std::uint32_t b = begin; b < end; b += 8) {
      // The columns are padded by 8, so b + i may run past `end` (the mask drops those).
      std::uint32_t mask = Filter::overlap8(minx + b, maxx + b, miny + b, maxy + b, x0, x1, y0, y1);
      if (end - b < 8) mask &= (1u << (end - b)) - 1;
      count = Filter::append(mask, a, b, out.a, out.b, count);
      if (count > CandidateBuffer::limit()) {
        flush(out, count);
        count = 0;
      }
      if (b + 8 >= end || minx[b + 7] > stop) break;
    }
  }

  /// Pairs of a row's shapes with each other and with the row above, by sweeps. Rows are
  /// in column order (home column ascending; within a cell sorted by left edge or not at
  /// all, see HomeGrid::Row::by_left), and a small shape spans at most two columns, so
  /// shape a of column c meets, in its own row, only the later shapes of columns c and
  /// c + 1 and, in the row above, only shapes of columns c - 1 to c + 1; the bounding-box
  /// test rejects every other shape of these windows (a shape of column c + 2 or beyond
  /// starts right of a's right edge, one of column c - 2 or before ends left of its left
  /// edge), so each window only needs to be wide enough: from a + 1, and from a pointer
  /// into the row above that only moves forward, past shapes that end left of every later
  /// shape of the row, up to a bound past which no shape can meet a. A crowded cell is
  /// searched on its own (s.crowded_cell): all of its shapes' pairs with its own and later
  /// cells are found there.
  [[gnu::flatten]] static void row_pairs(const RowSearch& s, const RowRange& row, const RowRange* up,
                                         CandidateBuffer& out) {
    if constexpr (Filter::tile_lanes != 0) {
      if (!row.crowded) return row_pairs_by_tiles(s, row, up, out);
    }
    row_pairs_by_shape(s, row, up, out);
  }

  /// row_pairs shape by shape: each shape's windows swept (shape_pairs), each crowded
  /// cell handed to s.crowded_cell whole.
  static void row_pairs_by_shape(const RowSearch& s, const RowRange& row_in, const RowRange* up, CandidateBuffer& out) {
    // Locals, not references: the candidate stores (uint32_t) may alias a row's fields,
    // and the out-of-line flush may change anything, so they would be loaded again per
    // shape.
    const RowRange row = row_in;
    const bool above = up != nullptr;
    const std::uint32_t up_begin = above ? up->begin : row.end, up_end = above ? up->end : row.end;
    const double inv_h = 1.0 / s.cell_size;  // exact: a power of two
    const Windows w{row.end, up_end, static_cast<float>(s.cell_size), row.by_left, above && up->by_left};
    std::uint32_t lo = up_begin;
    std::uint32_t count = out.count;  // see sweep
    for (std::uint32_t a = row.begin; a < row.end;) {
      if (row.crowded && starts_crowded_cell(s.minx, a, row, inv_h)) {
        out.count = count;
        a = s.crowded_cell(s.context, a, row.end, up_begin, up_end);
        count = out.count;
        continue;
      }
      shape_pairs(s, a, w, lo, count, out);
      ++a;
    }
    out.count = count;
  }

  /// What shape_pairs reads of a row and the row above, besides the boxes.
  struct Windows {
    std::uint32_t row_end, up_end;
    float h;  // the cell side
    bool own_by_left, up_by_left;
  };

  /// Whether shape a is the first of its home column in the row and that column holds at
  /// least crowded_cell_shapes shapes (a crowded cell, searched on its own).
  static bool starts_crowded_cell(const float* minx, std::uint32_t a, const RowRange& row, double inv_h) {
    constexpr std::uint32_t crowd = crowded_cell_shapes;
    return a + crowd <= row.end && column_of(minx[a + crowd - 1], inv_h) == column_of(minx[a], inv_h) &&
           (a == row.begin || column_of(minx[a - 1], inv_h) != column_of(minx[a], inv_h));
  }

  /// Shape a's candidates (see row_pairs): the later shapes of its own row, and those of
  /// the row above from `lo` on, each up to its window's bound; `lo` first moves past the
  /// shapes above that end left of a's column (it only ever moves forward along the row).
  static void shape_pairs(const RowSearch& s, std::uint32_t a, const Windows& w, std::uint32_t& lo,
                          std::uint32_t& count, CandidateBuffer& out) {
    const float *minx = s.minx, *maxx = s.maxx, *miny = s.miny, *maxy = s.maxy;
    const float x0 = minx[a];
    // The windows' bounds. In a row sorted by left edge, every later shape starts at or
    // right of x0, and the shapes from the first that starts right of x1 on cannot meet
    // a. In column order they are bounds from x0 in [c h, (c + 1) h), with two roundings
    // (monotone): x0 - h < c h, so every later shape of the row starts at or right of
    // `column`; every shape of columns up to c + 1 starts below (c + 2) h <= x0 + 2 h, so
    // at or left of its stop. (Cheaper than the exact edges from the column's index.)
    const float x1 = maxx[a];
    const float column = w.own_by_left ? x0 : x0 - w.h, two_on = x0 + 2 * w.h;
    const float own_stop = w.own_by_left ? x1 : two_on, up_stop = w.up_by_left ? x1 : two_on;
    // Usually a step of zero to three, counted from one compare of the next lanes, with a
    // loop only when all of them are passed (a plain loop would mispredict its exit about
    // once per shape).
    lo = first_not_below(maxx, lo, w.up_end, column);
    if constexpr (Filter::sixteen) {
      // Both sweeps' first eight in one step; the rare longer sweeps go on from there.
      const std::uint32_t own = a + 1;
      std::uint32_t mask = Filter::overlap16(minx, maxx, miny, maxy, own, lo, x0, x1, miny[a], maxy[a]);
      mask &= first_lanes(w.row_end - own) | first_lanes(w.up_end - lo) << 8;
      count = Filter::append16(mask, a, own, lo, out.a, out.b, count);
      if (count > CandidateBuffer::limit()) {
        flush(out, count);
        count = 0;
      }
      if (own + 8 < w.row_end && minx[own + 7] <= own_stop) sweep(s, a, own + 8, w.row_end, own_stop, out, count);
      if (lo + 8 < w.up_end && minx[lo + 7] <= up_stop) sweep(s, a, lo + 8, w.up_end, up_stop, out, count);
    } else {
      sweep(s, a, a + 1, w.row_end, own_stop, out, count);
      sweep(s, a, lo, w.up_end, up_stop, out, count);
    }
  }

  /// The first position at or after p, before end, whose value in v is not below x (or
  /// end), Filter::skip_lanes compares at a time: for values that are below x up to some
  /// position and not after it (a row's left edges against a column's edge: the row is
  /// in column order).
  static std::uint32_t first_not_below(const float* v, std::uint32_t p, std::uint32_t end, float x) {
    for (;;) {
      const std::uint32_t step = Filter::skip_below(v + p, x, end - p);
      p += step;
      if (step < Filter::skip_lanes) return p;
    }
  }

  /// The left edge of the column holding x, `step` columns on, as a float bound: the
  /// edge, floor(x / h) h + step h, is exact in double (h is a power of two, and a float
  /// times one is a double without rounding), and float_at_least rounds it up to the
  /// bound a float is below exactly when it is below the edge. No integer column: the
  /// conversions to and from integers cost more than the rest.
  static float column_edge(float x, int step, double h, double inv_h) {
    return float_at_least((std::floor(static_cast<double>(x) * inv_h) + step) * h);
  }

  /// row_pairs for a row without crowded cells, Filter::tile_lanes shapes at a time (a
  /// tile): the tile's boxes stay in registers and each candidate's box is tested against
  /// all of them at once. The candidates of a tile whose home columns run from c to d are
  /// the shapes of columns c - 1 to d + 1 in the row above and, in its own row, its own
  /// later shapes and those after it up to column d + 1 (see row_pairs: a small shape two
  /// columns away cannot overlap), in whatever order the shapes of a cell are. Shape by
  /// shape, each would cost a sixteen-lane test, its two windows' loads and a step of the
  /// pointer into the row above, most lanes empty; here each costs about two broadcast
  /// tests.
  static void row_pairs_by_tiles(const RowSearch& s, const RowRange& row_in, const RowRange* up, CandidateBuffer& out) {
    const RowRange row = row_in;  // (locals: see row_pairs_by_shape)
    const std::uint32_t up_begin = up ? up->begin : row.end, up_end = up ? up->end : row.end;
    const float *minx = s.minx, *maxx = s.maxx, *miny = s.miny, *maxy = s.maxy;
    const double inv_h = 1.0 / s.cell_size, h = s.cell_size;
    std::uint32_t lo = up_begin, hi = up_begin, own_end = row.begin;
    std::uint32_t count = out.count;  // see sweep
    auto full = [&](std::uint32_t n) {
      flush(out, n);
      return 0u;
    };
    for (std::uint32_t tile = row.begin; tile < row.end; tile += Filter::tile_lanes) {
      const std::uint32_t n = std::min<std::uint32_t>(Filter::tile_lanes, row.end - tile);
      const float past = column_edge(minx[tile + n - 1], 2, h, inv_h);
      lo = first_not_below(minx, lo, up_end, column_edge(minx[tile], -1, h, inv_h));
      hi = first_not_below(minx, std::max(hi, lo), up_end, past);
      own_end = first_not_below(minx, std::max(own_end, tile + n), row.end, past);
      count = Filter::tile_pairs(minx, maxx, miny, maxy, tile, n, tile + 1, own_end, lo, hi, out.a, out.b, count,
                                 CandidateBuffer::limit(), full);
    }
    out.count = count;
  }

  /// Large shape `large` against the small shapes [begin, end): boxes eight at a time, as
  /// in sweep. A long segment's box holds nearly every shape along its path: those wholly
  /// on one side of its line are dropped too.
  [[gnu::flatten]] static void range_pairs(const RangeSearch& s, std::uint32_t large, std::uint32_t begin,
                                           std::uint32_t end, CandidateBuffer& out) {
    const Aabb box = s.box;
    const float *minx = s.minx, *maxx = s.maxx, *miny = s.miny, *maxy = s.maxy;
    std::uint32_t count = out.count;  // see sweep
    for (std::uint32_t b = begin; b < end; b += 8) {
      std::uint32_t mask =
          Filter::overlap8(minx + b, maxx + b, miny + b, maxy + b, box.min.x, box.max.x, box.min.y, box.max.y);
      if (end - b < 8) mask &= (1u << (end - b)) - 1;
      if (s.segment) mask &= Filter::side8(s.side, minx + b, maxx + b, miny + b, maxy + b);
      count = Filter::append(mask, large, b, out.a, out.b, count);
      if (count > CandidateBuffer::limit()) {
        flush(out, count);
        count = 0;
      }
    }
    out.count = count;
  }

  [[gnu::flatten]] static std::size_t count_segment_rows(const SegmentHomeRows& rows, const float* ax, const float* ay,
                                                         const float* bx, const float* by, std::size_t i,
                                                         std::size_t end, std::uint32_t* out, std::uint32_t* count) {
    constexpr std::size_t group = Filter::segment_rows_lanes;
    for (; i + group <= end && Filter::segment_rows(rows, ax + i, ay + i, bx + i, by + i, out + i); i += group)
      for (std::size_t j = i; j < i + group; ++j) ++count[out[j]];
    return i;
  }

  static GridKernels table() { return {&row_pairs, &range_pairs, &count_segment_rows}; }

  /// tile_pairs for the probe, its `full` a function pointer.
  static std::uint32_t probe_tile_pairs(const float* minx, const float* maxx, const float* miny, const float* maxy,
                                        std::uint32_t tile, std::uint32_t n, std::uint32_t own, std::uint32_t own_end,
                                        std::uint32_t up, std::uint32_t up_end, std::uint32_t* as, std::uint32_t* bs,
                                        std::uint32_t count, std::uint32_t room,
                                        std::uint32_t (*full)(void*, std::uint32_t), void* context) {
    return Filter::tile_pairs(minx, maxx, miny, maxy, tile, n, own, own_end, up, up_end, as, bs, count, room,
                              [&](std::uint32_t c) { return full(context, c); });
  }

  static LaneProbe probe() {
    LaneProbe p{};
    p.overlap8 = &Filter::overlap8;
    p.side8 = &Filter::side8;
    p.below8 = &Filter::below8;
    p.skip_lanes = Filter::skip_lanes;
    p.skip_below = &Filter::skip_below;
    p.append = &Filter::append;
    if constexpr (Filter::sixteen) {
      p.overlap16 = &Filter::overlap16;
      p.append16 = &Filter::append16;
    }
    p.tile_lanes = Filter::tile_lanes;
    if constexpr (Filter::tile_lanes != 0) p.tile_pairs = &probe_tile_pairs;
    p.segment_rows_lanes = Filter::segment_rows_lanes;
    p.segment_rows = &Filter::segment_rows;
    return p;
  }
};

}  // namespace
}  // namespace hitgrid
