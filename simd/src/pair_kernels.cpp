// test_pairs: run-time dispatch on hitgrid's own Isa (never xsimd's CPU detection, see
// docs/simd.md), and the scalar twin that both Isa::scalar and every kernel's cold path
// use. Compiled with the baseline flags, so the cold path runs on any x86-64.
#include "hitgrid/simd/pair_kernels.hpp"


#include "hitgrid/core/intersects.hpp"
#ifdef HITGRID_X86_KERNELS
#include "pair_kernels_impl.hpp"
#endif

namespace hitgrid::simd {

std::string_view pair_kind_name(PairKind kind) {
  switch (kind) {
    case PairKind::segment_segment:
      return "segment_segment";
    case PairKind::segment_circle:
      return "segment_circle";
    case PairKind::segment_box:
      return "segment_box";
    case PairKind::circle_circle:
      return "circle_circle";
    case PairKind::circle_box:
      return "circle_box";
    case PairKind::box_box:
      return "box_box";
  }
  return "?";
}

bool test_pair_scalar(PairKind kind, const ShapeColumns& a, const ShapeColumns& b, std::size_t i) {
  const auto segment = [i](const ShapeColumns& c) { return Segment{{c.g[0][i], c.g[1][i]}, {c.g[2][i], c.g[3][i]}}; };
  const auto circle = [i](const ShapeColumns& c) { return Circle{{c.g[0][i], c.g[1][i]}, c.g[2][i]}; };
  const auto box = [i](const ShapeColumns& c) { return Box{{c.g[0][i], c.g[1][i]}, {c.g[2][i], c.g[3][i]}}; };
  switch (kind) {
    case PairKind::segment_segment:
      return intersects(segment(a), segment(b));
    case PairKind::segment_circle:
      return intersects(segment(a), circle(b));
    case PairKind::segment_box:
      return intersects(segment(a), box(b));
    case PairKind::circle_circle:
      return intersects(circle(a), circle(b));
    case PairKind::circle_box:
      return intersects(circle(a), box(b));
    case PairKind::box_box:
      return intersects(box(a), box(b));
  }
  return false;
}

void test_pairs(Isa isa, PairKind kind, std::size_t n, ShapeColumns a, ShapeColumns b, std::uint8_t* out) {
  // Checked here, outside the kernels: nothing below may throw.
  require_concrete_isa(isa, "test_pairs");
#ifdef HITGRID_X86_KERNELS
  switch (isa) {
    case Isa::sse2:
      return PairKernels{}(Sse2Arch{}, kind, n, a, b, out);
    case Isa::avx2:
      return PairKernels{}(Avx2Arch{}, kind, n, a, b, out);
    case Isa::avx512:
      return PairKernels{}(Avx512Arch{}, kind, n, a, b, out);
    case Isa::automatic:
    case Isa::scalar:
      break;
  }
#endif
  for (std::size_t i = 0; i < n; ++i) out[i] = test_pair_scalar(kind, a, b, i) ? 1 : 0;
}

}  // namespace hitgrid::simd
