// What a kernel returns for one batch of lanes.
#pragma once

#include "arch_ops.hpp"

namespace hitgrid::simd::kernels {

/// hit: the lanes whose pairs intersect, exact in every lane that is not `unsure`;
/// unsure: lanes neither stage could decide, for the scalar exact test (the driver).
template <class Mask>
struct Verdict {
  Mask hit;
  Mask unsure;
};

}  // namespace hitgrid::simd::kernels
