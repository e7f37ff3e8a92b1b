// The definition of PairKernels::operator(), included only by the per-ISA translation
// units (pair_kernels_{sse2,avx2,avx512}.cpp).
#pragma once

#include "kernels/box_box.hpp"
#include "kernels/circle_box.hpp"
#include "kernels/circle_circle.hpp"
#include "kernels/pair_driver.hpp"
#include "kernels/segment_box.hpp"
#include "kernels/segment_circle.hpp"
#include "kernels/segment_segment.hpp"
#include "pair_kernels_impl.hpp"

namespace hitgrid::simd {

template <class A>
void PairKernels::operator()(A, PairKind kind, std::size_t n, const ShapeColumns& a, const ShapeColumns& b,
                             std::uint8_t* out) const {
  using namespace kernels;
  switch (kind) {
    case PairKind::segment_segment:
      return PairDriver<SegmentSegmentKernel, A>::run(kind, n, a, b, out);
    case PairKind::segment_circle:
      return PairDriver<SegmentCircleKernel, A>::run(kind, n, a, b, out);
    case PairKind::segment_box:
      return PairDriver<SegmentBoxKernel, A>::run(kind, n, a, b, out);
    case PairKind::circle_circle:
      return PairDriver<CircleCircleKernel, A>::run(kind, n, a, b, out);
    case PairKind::circle_box:
      return PairDriver<CircleBoxKernel, A>::run(kind, n, a, b, out);
    case PairKind::box_box:
      return PairDriver<BoxBoxKernel, A>::run(kind, n, a, b, out);
  }
}

}  // namespace hitgrid::simd
