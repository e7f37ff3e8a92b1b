// The grid's vector kernels: the searches that turn a built home-cell grid's columns into
// candidate pairs, and the count of segments' home rows in its build. One set per
// instruction set, each compiled in its own translation unit with that ISA's flags
// (grid_kernels_{sse2,avx2,avx512}.cpp, as simd/ does for the exact tests), chosen once
// per call by grid_kernels(isa). The kernels see plain columns and buffers only: the
// exact tests, the crowded-cell sweep and everything else run in baseline code, reached
// through the function pointers below, so no inline function shared with baseline code
// is compiled for a wider ISA (docs/simd.md, the one-definition-rule hazard; the CTest
// case kernel_objects_keep_their_isa_to_themselves checks that every weak function the
// kernels' object files define names the object's own arch).
//
// Every ISA finds the same candidates (the pairs of shapes whose closed boxes overlap in
// the windows the grid defines), in its own order; the lane steps they are built from
// (box_filter.hpp and the segment filters) are reached through lane_probe(isa), so that
// the tests can hold each ISA's, from its own translation unit, to the scalar twin lane
// for lane.
#pragma once

#include <cstddef>
#include <cstdint>

#include "hitgrid/core/aabb.hpp"
#include "hitgrid/simd/isa.hpp"
#include "segment_home_rows.hpp"
#include "segment_side_filter.hpp"

namespace hitgrid {

/// A cell of the home-cell grid with at least this many shapes is searched on its own,
/// along its better axis (crowded_sweep.hpp).
inline constexpr std::uint32_t crowded_cell_shapes = 32;

/// Candidate pairs (positions in the grid's columns, or a large shape's index and a
/// position) waiting for their exact tests. A kernel appends while count <= limit() and
/// calls flush(context) past that, which runs the tests and sets count to 0. The arrays
/// have room for sixteen lanes past limit(): the kernels store whole vectors. Only the
/// first `count` entries are ever read, so the arrays are left uninitialized: a one-shape
/// query (GridIndex::candidates, a World's rebuilt static lists) makes a buffer per call,
/// and zeroing its 2 KB would be a large part of such a call.
struct CandidateBuffer {
  static constexpr std::uint32_t capacity = 256;
  static constexpr std::uint32_t lanes = 16;  // the widest store a kernel makes
  static constexpr std::uint32_t limit() { return capacity - 8; }
  std::uint32_t a[capacity - 8 + lanes], b[capacity - 8 + lanes];  // limit() + lanes
  std::uint32_t count = 0;
  void (*flush)(void* context) = nullptr;
  void* context = nullptr;
};

/// A row of the home-cell grid as the row search reads it (HomeGrid::Row).
struct RowRange {
  std::uint32_t begin, end;
  bool crowded, by_left;
};

/// What the row search reads: the sorted boxes (padded past the last shape by at least
/// eight empty boxes), the cell side, and the crowded-cell search, which it leaves to the
/// caller: crowded_cell(context, cb, row_end, up_begin, up_end) searches the crowded cell
/// starting at position cb and returns where the cell ends.
struct RowSearch {
  const float *minx, *miny, *maxx, *maxy;
  double cell_size;
  std::uint32_t (*crowded_cell)(void* context, std::uint32_t cb, std::uint32_t row_end, std::uint32_t up_begin,
                                std::uint32_t up_end);
  void* context;
};

/// A large shape against a range of the sorted boxes: its box, and for a segment the
/// filter that drops boxes strictly on one side of its line.
struct RangeSearch {
  const float *minx, *miny, *maxx, *maxy;
  Aabb box;
  bool segment;
  SegmentSideFilter side;
};

struct GridKernels {
  /// The candidates of a row's shapes with each other and with the row above (null when
  /// the next row up holds no shapes), a crowded row's crowded cells left to
  /// s.crowded_cell: each pair of overlapping boxes whose home cells are neighbours, once.
  void (*row_pairs)(const RowSearch& s, const RowRange& row, const RowRange* up, CandidateBuffer& out);
  /// Large shape `large` against the boxes [begin, end): (large, position) for each box
  /// that overlaps its box (and, for a segment, may touch its line).
  void (*range_pairs)(const RangeSearch& s, std::uint32_t large, std::uint32_t begin, std::uint32_t end,
                      CandidateBuffer& out);
  /// Segments' home rows from segment i on (SegmentHomeRows::rows4 and wider), counted,
  /// until fewer than a group are left before `end` or a group needs the scalar path;
  /// returns where it stopped.
  std::size_t (*count_segment_rows)(const SegmentHomeRows& rows, const float* ax, const float* ay, const float* bx,
                                    const float* by, std::size_t i, std::size_t end, std::uint32_t* out,
                                    std::uint32_t* count);
};

/// The lane steps of a kernel set (BoxFilter<A> in box_filter.hpp, and the segment
/// filters' lanes), as its translation unit compiled them, for the tests. Each does what
/// BoxFilterScalar's step of the same name does; a step the ISA's search does not use is
/// null (overlap16 and append16 without the 16-lane step; tile_pairs without tiles).
struct LaneProbe {
  std::uint32_t (*overlap8)(const float* minx, const float* maxx, const float* miny, const float* maxy, float x0,
                            float x1, float y0, float y1);
  std::uint32_t (*side8)(const SegmentSideFilter& f, const float* minx, const float* maxx, const float* miny,
                         const float* maxy);
  std::uint32_t (*below8)(const float* v, float x);
  /// The values skip_below tests at once, and skip_below.
  std::uint32_t skip_lanes;
  std::uint32_t (*skip_below)(const float* v, float x, std::uint32_t n);
  std::uint32_t (*append)(std::uint32_t mask, std::uint32_t a, std::uint32_t b, std::uint32_t* as, std::uint32_t* bs,
                          std::uint32_t n);
  std::uint32_t (*overlap16)(const float* minx, const float* maxx, const float* miny, const float* maxy,
                             std::uint32_t i, std::uint32_t j, float x0, float x1, float y0, float y1);
  std::uint32_t (*append16)(std::uint32_t mask, std::uint32_t a, std::uint32_t i, std::uint32_t j, std::uint32_t* as,
                            std::uint32_t* bs, std::uint32_t n);
  /// The shapes of a tile (0: no tiles), and tile_pairs with full(count) = full(context, count).
  std::uint32_t tile_lanes;
  std::uint32_t (*tile_pairs)(const float* minx, const float* maxx, const float* miny, const float* maxy,
                              std::uint32_t tile, std::uint32_t n, std::uint32_t own, std::uint32_t own_end,
                              std::uint32_t up, std::uint32_t up_end, std::uint32_t* as, std::uint32_t* bs,
                              std::uint32_t count, std::uint32_t room, std::uint32_t (*full)(void*, std::uint32_t),
                              void* context);
  /// Segments per segment_rows call (SegmentHomeRows::rows on the ISA's arch).
  std::size_t segment_rows_lanes;
  bool (*segment_rows)(const SegmentHomeRows& rows, const float* ax, const float* ay, const float* bx, const float* by,
                       std::uint32_t* out);
};

/// The kernels for a concrete ISA. Isa::scalar gets the SSE2 ones on x86-64 (the
/// baseline: the grid's searches decide nothing, only the exact tests' ISA is the user's
/// choice) and the scalar twins elsewhere.
GridKernels grid_kernels(Isa isa);
/// The lane steps of grid_kernels(isa), from the same translation unit.
LaneProbe lane_probe(Isa isa);

}  // namespace hitgrid
