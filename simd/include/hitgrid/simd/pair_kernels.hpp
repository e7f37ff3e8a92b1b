// Batched exact pair tests: n pairs of shapes as columns (structure of arrays), one
// boolean per pair, on the instruction set the caller picks.
//
// Contract: out[i] == intersects(a_i, b_i) of core/intersects.hpp, bit for bit, on every
// ISA (docs/contracts.md, contracts 1 and 2). The kernels evaluate each predicate in
// double-precision lanes with a floating-point filter, certify what they can exactly in
// lanes, and send the lanes that neither stage decides to the scalar exact test (see
// docs/simd.md).
//
// Conventions
//   - Each shape is four floats, its packed geometry:
//       segment (ax, ay, bx, by), circle (cx, cy, r, unused), box (minx, miny, maxx, maxy).
//     Column k holds float k of every shape: g[k][i]. A circle's g[3] is never read (it may
//     be null); every other column of the two kinds must hold n floats.
//   - Columns need no alignment and n is any size: the last partial batch is padded
//     internally with neutral values. Inputs must be valid shapes (finite, r >= 0,
//     min <= max), which Scene guarantees.
//   - The ISA must be concrete (scalar, sse2, avx2, avx512) and supported here: resolve
//     Isa::automatic with resolve_isa() first. Anything else throws hitgrid::Error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "hitgrid/simd/isa.hpp"

namespace hitgrid::simd {

/// The first kind of a pair is never "larger" than the second (order s < c < b).
enum class PairKind : std::uint8_t { segment_segment, segment_circle, segment_box, circle_circle, circle_box, box_box };

inline constexpr PairKind all_pair_kinds[] = {PairKind::segment_segment, PairKind::segment_circle,
                                              PairKind::segment_box,     PairKind::circle_circle,
                                              PairKind::circle_box,      PairKind::box_box};

std::string_view pair_kind_name(PairKind kind);

/// n shapes as columns: g[k][i] is float k of shape i's packed geometry.
struct ShapeColumns {
  const float* g[4];
};

/// out[i] = 1 if shape a_i (first kind of `kind`) intersects b_i (second kind), else 0.
/// Exact; identical on every ISA.
void test_pairs(Isa isa, PairKind kind, std::size_t n, ShapeColumns a, ShapeColumns b, std::uint8_t* out);

/// The scalar twin of one lane: intersects() of core on shapes a_i and b_i.
bool test_pair_scalar(PairKind kind, const ShapeColumns& a, const ShapeColumns& b, std::size_t i);

}  // namespace hitgrid::simd
