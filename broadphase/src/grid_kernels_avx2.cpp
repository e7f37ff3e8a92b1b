// The grid kernels for Isa::avx2, compiled with this ISA's flags only
// (broadphase/CMakeLists.txt).
#include "grid_kernels_body.hpp"

namespace hitgrid {

GridKernels grid_kernels_avx2() { return Kernels<BoxFilter<Avx2Arch>>::table(); }
LaneProbe lane_probe_avx2() { return Kernels<BoxFilter<Avx2Arch>>::probe(); }

}  // namespace hitgrid
