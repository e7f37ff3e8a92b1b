// The grid kernels for Isa::avx2, compiled with this ISA's flags only
// (broadphase/CMakeLists.txt).
#include "grid_kernels_body.hpp"

namespace hitgrid {

GridKernels grid_kernels_avx2() { return Kernels<BoxFilterAvx2>::table(); }

}  // namespace hitgrid
