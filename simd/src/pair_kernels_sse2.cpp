// The pair kernels for Isa::sse2, compiled with this ISA's flags only (simd/CMakeLists.txt).
#include "pair_kernels_body.hpp"

namespace hitgrid::simd {

template void PairKernels::operator()<Sse2Arch>(Sse2Arch, PairKind, std::size_t, const ShapeColumns&,
                                                const ShapeColumns&, std::uint8_t*) const;

}  // namespace hitgrid::simd
