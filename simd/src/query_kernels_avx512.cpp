// The query kernels for Isa::avx512, compiled with this ISA's flags only (simd/CMakeLists.txt).
// GCC 12's AVX-512 intrinsics (_mm512_max_pd, _mm512_cvtps_pd, ...) pass a deliberately
// undefined vector (_mm512_undefined_pd, initialised from itself) as the unused merge
// source; once inlined, -Wuninitialized reports it (GCC bug 105593, fixed in GCC 13).
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include "query_kernels_body.hpp"

namespace hitgrid::simd {

HITGRID_QUERY_KERNELS(, Avx512Arch)

}  // namespace hitgrid::simd
