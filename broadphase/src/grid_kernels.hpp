// The grid's vector kernels: the searches that turn a built home-cell grid's columns into
// candidate pairs, and the count of segments' home rows in its build. One set per
// instruction set, each compiled in its own translation unit with that ISA's flags
// (grid_kernels_{sse2,avx2,avx512}.cpp, as simd/ does for the exact tests), chosen once
// per call by grid_kernels(isa). The kernels see plain columns and buffers only: the
// exact tests, the crowded-cell sweep and everything else run in baseline code, reached
// through the function pointers below, so no inline function shared with baseline code
// is compiled for a wider ISA (docs/simd.md, the one-definition-rule hazard; the test
// tests/broadphase/test_grid_kernels.cpp checks the kernels' object files define no such
// function).
//
// Every ISA finds the same candidates (the pairs of shapes whose closed boxes overlap in
// the windows the grid defines), in its own order; the box filters they are built from
// (box_filter.hpp) are tested lane for lane against their scalar twins.
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
/// have room for sixteen lanes past limit(): the kernels store whole vectors.
struct CandidateBuffer {
  static constexpr std::uint32_t capacity = 256;
  static constexpr std::uint32_t lanes = 16;  // the widest store a kernel makes
  static constexpr std::uint32_t limit() { return capacity - 8; }
  std::uint32_t a[capacity - 8 + lanes]{}, b[capacity - 8 + lanes]{};  // limit() + lanes
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

/// The kernels for a concrete ISA. Isa::scalar gets the SSE2 ones on x86-64 (the
/// baseline: the grid's searches decide nothing, only the exact tests' ISA is the user's
/// choice) and the scalar twins elsewhere.
GridKernels grid_kernels(Isa isa);

}  // namespace hitgrid
