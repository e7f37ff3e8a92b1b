// grid_kernels(isa): the one place the grid's kernels are chosen, with baseline flags.
#include "grid_kernels.hpp"

#if !defined(HITGRID_X86_KERNELS)
// Elsewhere the SSE2 filter is its own scalar twin (box_filter.hpp), compiled here.
#include "grid_kernels_body.hpp"
#endif

namespace hitgrid {

#if defined(HITGRID_X86_KERNELS)
// Defined in grid_kernels_{sse2,avx2,avx512}.cpp.
GridKernels grid_kernels_sse2();
GridKernels grid_kernels_avx2();
GridKernels grid_kernels_avx512();
#endif

GridKernels grid_kernels(Isa isa) {
  require_concrete_isa(isa, "grid_kernels");
#if defined(HITGRID_X86_KERNELS)
  switch (isa) {
    case Isa::avx512:
      return grid_kernels_avx512();
    case Isa::avx2:
      return grid_kernels_avx2();
    case Isa::automatic:
    case Isa::scalar:
    case Isa::sse2:
      break;
  }
  return grid_kernels_sse2();
#else
  return Kernels<BoxFilterSse2>::table();
#endif
}

}  // namespace hitgrid
