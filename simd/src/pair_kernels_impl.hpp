// The pair kernels as a functor templated on the xsimd arch: defined here, instantiated
// once per ISA in pair_kernels_{sse2,avx2,avx512}.cpp (each compiled with its own -m
// flags), declared extern for the dispatcher (pair_kernels.cpp), which includes only the
// declarations and never compiles kernel code with the baseline flags by accident.
#pragma once

#include <cstddef>
#include <cstdint>
#include <xsimd/xsimd.hpp>

#include "hitgrid/simd/detail/lane_arches.hpp"
#include "hitgrid/simd/pair_kernels.hpp"

namespace hitgrid::simd {

struct PairKernels {
  template <class A>
  void operator()(A, PairKind kind, std::size_t n, const ShapeColumns& a, const ShapeColumns& b,
                  std::uint8_t* out) const;
};

/// The arches, best first, and the Isa each one implements.
// (Sse2Arch, Avx2Arch, Avx512Arch: hitgrid/simd/detail/lane_arches.hpp.)

extern template void PairKernels::operator()<Sse2Arch>(Sse2Arch, PairKind, std::size_t, const ShapeColumns&,
                                                       const ShapeColumns&, std::uint8_t*) const;
extern template void PairKernels::operator()<Avx2Arch>(Avx2Arch, PairKind, std::size_t, const ShapeColumns&,
                                                       const ShapeColumns&, std::uint8_t*) const;
extern template void PairKernels::operator()<Avx512Arch>(Avx512Arch, PairKind, std::size_t, const ShapeColumns&,
                                                         const ShapeColumns&, std::uint8_t*) const;

}  // namespace hitgrid::simd
