// The query kernels for Isa::avx2, compiled with this ISA's flags only (simd/CMakeLists.txt).
#include "query_kernels_body.hpp"

namespace hitgrid::simd {

HITGRID_QUERY_KERNELS(, Avx2Arch)

}  // namespace hitgrid::simd
