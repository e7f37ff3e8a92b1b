// The definitions of QueryKernels' members, included only by the per-ISA translation units.
#pragma once

#include "kernels/query_driver.hpp"
#include "query_kernels_impl.hpp"

namespace hitgrid::simd {

template <class A>
void QueryKernels::raycast(A, QueryKind kind, std::size_t n, const ShapeColumns& q, const ShapeColumns& b,
                           const SlabOutput& out) const {
  kernels::QueryDriver<A>::raycast(kind, n, q, b, out);
}

template <class A>
void QueryKernels::time_of_impact(A, std::size_t n, const MovingCircleColumns& c1, const MovingCircleColumns& c2,
                                  const ToiOutput& out) const {
  kernels::QueryDriver<A>::time_of_impact(n, c1, c2, out);
}

}  // namespace hitgrid::simd
