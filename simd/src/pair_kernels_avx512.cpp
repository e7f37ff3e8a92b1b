// The pair kernels for Isa::avx512, compiled with this ISA's flags only (simd/CMakeLists.txt).
// GCC 12's AVX-512 intrinsics (_mm512_max_pd, _mm512_cvtps_pd, ...) pass a deliberately
// undefined vector (_mm512_undefined_pd, initialised from itself) as the unused merge
// source; once inlined, -Wuninitialized reports it (GCC bug 105593, fixed in GCC 13).
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include "pair_kernels_body.hpp"

namespace hitgrid::simd {

template void PairKernels::operator()<Avx512Arch>(Avx512Arch, PairKind, std::size_t, const ShapeColumns&,
                                                  const ShapeColumns&, std::uint8_t*) const;

}  // namespace hitgrid::simd
