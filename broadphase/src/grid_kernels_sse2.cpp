// The grid kernels for Isa::sse2, compiled with this ISA's flags only
// (broadphase/CMakeLists.txt).
#include "grid_kernels_body.hpp"

namespace hitgrid {

GridKernels grid_kernels_sse2() { return Kernels<BoxFilter<Sse2Arch>>::table(); }
LaneProbe lane_probe_sse2() { return Kernels<BoxFilter<Sse2Arch>>::probe(); }

}  // namespace hitgrid
