// The query kernels as a functor templated on the xsimd arch, instantiated once per ISA in
// query_kernels_{sse2,avx2,avx512}.cpp (same pattern as pair_kernels_impl.hpp).
#pragma once

#include <cstddef>

#include "hitgrid/simd/query_kernels.hpp"
#include "pair_kernels_impl.hpp"  // the arch aliases

namespace hitgrid::simd {

struct QueryKernels {
  template <class A>
  void raycast(A, QueryKind kind, std::size_t n, const ShapeColumns& q, const ShapeColumns& b,
               const SlabOutput& out) const;
  template <class A>
  void time_of_impact(A, std::size_t n, const MovingCircleColumns& c1, const MovingCircleColumns& c2,
                      const ToiOutput& out) const;
};

#define HITGRID_QUERY_KERNELS(prefix, Arch)                                                              \
  prefix template void QueryKernels::raycast<Arch>(Arch, QueryKind, std::size_t, const ShapeColumns&,    \
                                                   const ShapeColumns&, const SlabOutput&) const;        \
  prefix template void QueryKernels::time_of_impact<Arch>(Arch, std::size_t, const MovingCircleColumns&, \
                                                          const MovingCircleColumns&, const ToiOutput&) const;

HITGRID_QUERY_KERNELS(extern, Sse2Arch)
HITGRID_QUERY_KERNELS(extern, Avx2Arch)
HITGRID_QUERY_KERNELS(extern, Avx512Arch)

}  // namespace hitgrid::simd
