// The arches hitgrid compiles its lane code for, and the lane operation that both the
// exact kernels (simd/) and the grid's searches (broadphase/) need and xsimd 8.1 lacks: a
// lane mask as bits (8.1 has no batch_bool::mask()). Every raw intrinsic of the library is
// in this folder (a CTest, tests/check_raw_intrinsics.cmake, fails on one anywhere else):
// this header for what both layers use, arch_ops.hpp for the exact kernels' own,
// lane_masks.hpp for the grid searches'. Not installed: reached through
// hitgrid_simd_detail.
//
//   Sse2Arch    xsimd::sse2          Isa::sse2, and baseline code (SSE2 is x86-64's baseline)
//   Avx2Arch    xsimd::fma3<avx2>    Isa::avx2   (-mavx2 -mfma -mbmi2)
//   Avx512Arch  xsimd::avx512f       Isa::avx512 (-mavx512f -mavx512bw -mavx512dq -mavx512vl)
//
// Every helper is a template on the arch, instantiated only where that arch's flags are on
// (docs/simd.md, the one-definition rule).
#pragma once

#include <xsimd/xsimd.hpp>

#if XSIMD_WITH_SSE2
#include <immintrin.h>

#include <cstdint>
#include <type_traits>

namespace hitgrid {

using Sse2Arch = xsimd::sse2;
using Avx2Arch = xsimd::fma3<xsimd::avx2>;
using Avx512Arch = xsimd::avx512f;

namespace lanes {

/// Bit k set iff lane k of m is true. On AVX-512 a batch_bool is a k-mask already; on SSE
/// and AVX (any arch built on avx, such as the grid's eight-lane AVX-512 arch) it is a
/// vector whose sign bits movemask collects.
template <class A>
[[gnu::always_inline]] inline std::uint32_t mask_bits(const xsimd::batch_bool<float, A>& m) {
  if constexpr (std::is_base_of_v<xsimd::avx512f, A>) {
    return static_cast<__mmask16>(m);
  } else if constexpr (std::is_base_of_v<xsimd::avx, A>) {
    return static_cast<std::uint32_t>(_mm256_movemask_ps(m));
  } else {
    static_assert(std::is_base_of_v<xsimd::sse2, A>);
    return static_cast<std::uint32_t>(_mm_movemask_ps(m));
  }
}

template <class A>
[[gnu::always_inline]] inline std::uint32_t mask_bits(const xsimd::batch_bool<double, A>& m) {
  if constexpr (std::is_base_of_v<xsimd::avx512f, A>) {
    return static_cast<__mmask8>(m);
  } else if constexpr (std::is_base_of_v<xsimd::avx, A>) {
    return static_cast<std::uint32_t>(_mm256_movemask_pd(m));
  } else {
    static_assert(std::is_base_of_v<xsimd::sse2, A>);
    return static_cast<std::uint32_t>(_mm_movemask_pd(m));
  }
}

}  // namespace lanes
}  // namespace hitgrid
#endif
