// The grid kernels for Isa::sse2, compiled with this ISA's flags only
// (broadphase/CMakeLists.txt).
#include "grid_kernels_body.hpp"

namespace hitgrid {

GridKernels grid_kernels_sse2() { return Kernels<BoxFilterSse2>::table(); }

}  // namespace hitgrid
