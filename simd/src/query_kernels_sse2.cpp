// The query kernels for Isa::sse2, compiled with this ISA's flags only (simd/CMakeLists.txt).
#include "query_kernels_body.hpp"

namespace hitgrid::simd {

HITGRID_QUERY_KERNELS(, Sse2Arch)

}  // namespace hitgrid::simd
