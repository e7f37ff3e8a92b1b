// Fuzz target: the batched exact pair tests (simd/pair_kernels.hpp). Random bytes as
// coordinates, every finite float32 possible (subnormals, +-0, up to FLT_MAX), made into
// valid shapes (finite, r >= 0, min <= max, as Scene guarantees): every ISA this machine
// runs must give, lane for lane, the scalar twin's answer (contract 2), with no undefined
// behaviour on the way (the fuzz build has UBSan).
//
// Bytes: the pair kind, the lane count (0 to 63, so partial batches and the padding of
// every ISA's width are met), then per lane the two shapes' floats. Half of the lanes
// take small integers times a power of two instead of raw bits (byte 1 picks which), so
// exactly touching, collinear and tangent lanes are common.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "fuzz_input.hpp"
#include "hitgrid/simd/isa.hpp"
#include "hitgrid/simd/pair_kernels.hpp"

namespace {

using hitgrid::simd::PairKind;

/// A finite float from the bytes: raw bits with non-finite ones replaced, or a small
/// integer (-8..7) times 2^scale.
float coordinate(hitgrid::fuzz::Bytes& in, bool lattice, int scale) {
  if (lattice) return std::ldexp(static_cast<float>(static_cast<int>(in.u8() % 16) - 8), scale);
  const float f = in.raw_float();
  return std::isfinite(f) ? f : 0.0f;
}

/// Which of the kind's two shapes is a circle (its g[2] a radius) or a box (g[0] <= g[2],
/// g[1] <= g[3]); segments take any four floats.
enum class Kind { segment, circle, box };
Kind first_kind(PairKind k) {
  return k <= PairKind::segment_box ? Kind::segment : k <= PairKind::circle_box ? Kind::circle : Kind::box;
}
Kind second_kind(PairKind k) {
  switch (k) {
    case PairKind::segment_segment: return Kind::segment;
    case PairKind::segment_circle:
    case PairKind::circle_circle: return Kind::circle;
    default: return Kind::box;
  }
}

void make_valid(Kind kind, float g[4]) {
  if (kind == Kind::circle) {
    g[2] = std::fabs(g[2]);
    g[3] = 0.0f;
  } else if (kind == Kind::box) {
    if (g[2] < g[0]) std::swap(g[0], g[2]);
    if (g[3] < g[1]) std::swap(g[1], g[3]);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace hitgrid;
  fuzz::Bytes in(data, size);
  const auto kind = static_cast<PairKind>(in.u8() % 6);
  const std::uint8_t style = in.u8();
  const std::size_t n = in.u8() % 64;
  const int scale = static_cast<int>(in.u8() % 255) - 149;  // 2^-149 .. 2^105: subnormal to near FLT_MAX
  std::vector<float> a[4], b[4];
  for (auto* cols : {a, b})
    for (int k = 0; k < 4; ++k) cols[k].resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const bool lattice = (style >> (i % 8)) & 1;
    float ga[4], gb[4];
    for (float& v : ga) v = coordinate(in, lattice, scale);
    for (float& v : gb) v = coordinate(in, lattice, scale);
    make_valid(first_kind(kind), ga);
    make_valid(second_kind(kind), gb);
    for (int k = 0; k < 4; ++k) {
      a[k][i] = ga[k];
      b[k][i] = gb[k];
    }
  }
  const simd::ShapeColumns ca{{a[0].data(), a[1].data(), a[2].data(), a[3].data()}};
  const simd::ShapeColumns cb{{b[0].data(), b[1].data(), b[2].data(), b[3].data()}};
  std::vector<std::uint8_t> want(n), got(n);
  for (std::size_t i = 0; i < n; ++i) want[i] = simd::test_pair_scalar(kind, ca, cb, i) ? 1 : 0;
  for (Isa isa : supported_isas()) {
    std::fill(got.begin(), got.end(), std::uint8_t{2});
    simd::test_pairs(isa, kind, n, ca, cb, got.data());
    if (got != want) fuzz::fail("a SIMD kernel disagrees with its scalar twin");
  }
  return 0;
}
