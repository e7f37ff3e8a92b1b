// What a kernel returns for one batch of lanes.
#pragma once

#include <cstdint>

#include "hitgrid/simd/detail/arch_ops.hpp"

namespace hitgrid::simd::kernels {

/// hit: the lanes whose pairs intersect, exact in every lane that is not `unsure`;
/// unsure: lanes neither stage could decide, for the scalar exact test (the driver).
template <class Mask>
struct Verdict {
  Mask hit;
  Mask unsure;
};

/// Lanes as bits (lane k is bit k), for a kernel that assembles its verdict from parts
/// of different widths (segment_segment.hpp: float lanes, some batches in double lanes).
struct LaneBits {
  std::uint32_t bits;
};

template <class A>
[[gnu::always_inline]] inline std::uint32_t mask_bits(LaneBits b) {
  return b.bits;
}

}  // namespace hitgrid::simd::kernels
