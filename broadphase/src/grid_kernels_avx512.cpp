// The grid kernels for Isa::avx512, compiled with this ISA's flags only
// (broadphase/CMakeLists.txt). GCC 12's AVX-512 intrinsics (_mm512_min_ps, _mm512_max_ps,
// ...) pass a deliberately undefined vector (_mm512_undefined_ps, initialised from itself)
// as the unused merge source; once inlined, -Wuninitialized reports it (GCC bug 105593,
// fixed in GCC 13), as in simd/src/pair_kernels_avx512.cpp.
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include "grid_kernels_body.hpp"

namespace hitgrid {

GridKernels grid_kernels_avx512() { return Kernels<BoxFilter<Avx512Arch>>::table(); }
LaneProbe lane_probe_avx512() { return Kernels<BoxFilter<Avx512Arch>>::probe(); }

}  // namespace hitgrid
