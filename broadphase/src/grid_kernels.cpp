// grid_kernels(isa) and lane_probe(isa): the one place the grid's kernels are chosen, with
// baseline flags.
#include "grid_kernels.hpp"

// Isa::scalar, and every ISA where there is no x86 unit, runs the kernels on the scalar
// twin of the box filter (box_filter.hpp), instantiated here: the vector kernels' twin,
// which the tests compare with every ISA's.
#include "grid_kernels_body.hpp"

namespace hitgrid {

#if defined(HITGRID_X86_KERNELS)
// Defined in grid_kernels_{sse2,avx2,avx512}.cpp.
GridKernels grid_kernels_sse2();
GridKernels grid_kernels_avx2();
GridKernels grid_kernels_avx512();
LaneProbe lane_probe_sse2();
LaneProbe lane_probe_avx2();
LaneProbe lane_probe_avx512();
#endif

GridKernels grid_kernels(Isa isa) {
  require_concrete_isa(isa, "grid_kernels");
#if defined(HITGRID_X86_KERNELS)
  switch (isa) {
    case Isa::avx512:
      return grid_kernels_avx512();
    case Isa::avx2:
      return grid_kernels_avx2();
    case Isa::scalar:
      return Kernels<BoxFilterScalar>::table();
    case Isa::automatic:
    case Isa::sse2:
      break;
  }
  return grid_kernels_sse2();
#else
  return Kernels<BoxFilterScalar>::table();
#endif
}

LaneProbe lane_probe(Isa isa) {
  require_concrete_isa(isa, "lane_probe");
#if defined(HITGRID_X86_KERNELS)
  switch (isa) {
    case Isa::avx512:
      return lane_probe_avx512();
    case Isa::avx2:
      return lane_probe_avx2();
    case Isa::scalar:
      return Kernels<BoxFilterScalar>::probe();
    case Isa::automatic:
    case Isa::sse2:
      break;
  }
  return lane_probe_sse2();
#else
  return Kernels<BoxFilterScalar>::probe();
#endif
}

}  // namespace hitgrid
