// The segment-segment decision of the scalar test (core/src/intersects.cpp) from the four
// orientations, for the double-lane and the float-lane kernels:
//
//   one segment strictly on one side of the other's line (o1 o2 > 0 or o3 o4 > 0) -> false
//   proper crossing (o1 o2 < 0 and o3 o4 < 0)                                      -> true
//   an endpoint with o == 0 within the other segment's box                         -> true
//   all four o == 0 (collinear; the caller's boxes overlap)                        -> true
//
// with o1 = orient(s.a, s.b, t.a), o2 = orient(s.a, s.b, t.b), o3 = orient(t.a, t.b, s.a),
// o4 = orient(t.a, t.b, s.b). As bits (lane k = bit k), so that the many and / or are
// integer instructions (xsimd 8.1 moves AVX-512 masks through integer registers for each).
#pragma once

#include <cstdint>

#include "hitgrid/simd/detail/arch_ops.hpp"
#include "verdict.hpp"

namespace hitgrid::simd::kernels {

/// Lanes whose two segments' bounding intervals overlap on x and on y (exact comparisons:
/// the scalar test's first step).
template <class Lanes>
[[gnu::always_inline]] inline auto segment_boxes_overlap(const Lanes* s, const Lanes* t) {
  return (xsimd::max(s[0], s[2]) >= xsimd::min(t[0], t[2])) & (xsimd::max(t[0], t[2]) >= xsimd::min(s[0], s[2])) &
         (xsimd::max(s[1], s[3]) >= xsimd::min(t[1], t[3])) & (xsimd::max(t[1], t[3]) >= xsimd::min(s[1], s[3]));
}

/// Lanes (of Floats<A> or Doubles<A>) that intersect, given orientations whose signs and
/// zeros are exact in the lanes that count; the caller masks the rest.
template <class A, class Lanes>
[[gnu::always_inline]] inline std::uint32_t segment_decision(const Lanes* s, const Lanes* t, const Lanes* o) {
  const Lanes zero(0);
  std::uint32_t p[4], n[4], z[4];
  for (int k = 0; k < 4; ++k) {
    p[k] = mask_bits<A>(o[k] > zero);
    n[k] = mask_bits<A>(o[k] < zero);
    z[k] = mask_bits<A>(o[k] == zero);
  }
  const std::uint32_t one_side = (p[0] & p[1]) | (n[0] & n[1]) | (p[2] & p[3]) | (n[2] & n[3]);
  const std::uint32_t crossing = ((p[0] & n[1]) | (n[0] & p[1])) & ((p[2] & n[3]) | (n[2] & p[3]));
  const std::uint32_t collinear = z[0] & z[1] & z[2] & z[3];
  // collinear_point_on_segment: an endpoint on the other's line, within its box.
  auto on = [](const Lanes& x, const Lanes& y, const Lanes* seg) {
    return mask_bits<A>((xsimd::min(seg[0], seg[2]) <= x) & (x <= xsimd::max(seg[0], seg[2])) &
                        (xsimd::min(seg[1], seg[3]) <= y) & (y <= xsimd::max(seg[1], seg[3])));
  };
  std::uint32_t touching = 0;
  if ((z[0] | z[1] | z[2] | z[3]) != 0)
    touching = (z[0] & on(t[0], t[1], s)) | (z[1] & on(t[2], t[3], s)) | (z[2] & on(s[0], s[1], t)) |
               (z[3] & on(s[2], s[3], t));
  return ~one_side & (crossing | touching | collinear);
}

}  // namespace hitgrid::simd::kernels
