// The grid kernels for Isa::avx512, compiled with this ISA's flags only
// (broadphase/CMakeLists.txt).
#include "grid_kernels_body.hpp"

namespace hitgrid {

GridKernels grid_kernels_avx512() { return Kernels<BoxFilterAvx512>::table(); }

}  // namespace hitgrid
