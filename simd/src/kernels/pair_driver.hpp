// The loop shared by the six pair kernels: load a batch of lanes from the columns, run the
// kernel, store one byte per lane, and send the lanes the kernel left unsure to the scalar
// exact test (the cold path, out of line in a baseline translation unit).
//
// Pad instead of remainder loops (docs/simd.md): the last partial batch is copied into a
// zero-filled local block, so the kernel always sees full batches of finite values (zero
// is a valid coordinate and radius: a point at the origin); results of the padding lanes
// are never stored and never sent to the scalar test.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "hitgrid/simd/detail/arch_ops.hpp"
#include "hitgrid/simd/pair_kernels.hpp"

namespace hitgrid::simd::kernels {

template <class Kernel, class A>
struct PairDriver {
  using Lanes = std::conditional_t<Kernel::float_lanes, Floats<A>, Doubles<A>>;
  static constexpr std::size_t width = Lanes::size;

  static Lanes load(const float* p) {
    if constexpr (Kernel::float_lanes)
      return Lanes::load_unaligned(p);
    else
      return load_widened<A>(p);
  }

  /// Stores one byte per lane from the mask bits: full batches with constant-size stores,
  /// which compile to plain moves (a variable-length memcpy is a library call per batch).
  static void store(std::uint32_t hit, std::size_t count, std::uint8_t* out) {
    if (count == width) {
      for (std::size_t k = 0; k < width; k += 8) {
        const std::uint64_t bytes = bytes_of_bits[(hit >> k) & 0xffu];
        std::memcpy(out + k, &bytes, width < 8 ? width : 8);
      }
      return;
    }
    for (std::size_t k = 0; k < count; ++k) out[k] = static_cast<std::uint8_t>((hit >> k) & 1u);
  }

  /// Stores `count` (<= width) results, then decides the unsure lanes with the scalar test.
  static void finish(std::uint32_t hit, std::uint32_t unsure, std::size_t count, std::size_t first, PairKind kind,
                     const ShapeColumns& a, const ShapeColumns& b, std::uint8_t* out) {
    store(hit, count, out + first);
    if (count < 32) unsure &= (1u << count) - 1u;
    while (unsure != 0) {
      const auto k = static_cast<std::size_t>(__builtin_ctz(unsure));
      out[first + k] = test_pair_scalar(kind, a, b, first + k) ? 1 : 0;
      unsure &= unsure - 1;
    }
  }

  // flatten: inline the kernel's lane arithmetic (xsimd's small functions, the polynomials
  // of core/src) into the loop; without it GCC keeps some of it out of line, and every
  // batch passed to those calls goes through memory.
  [[gnu::flatten]] static void run(PairKind kind, std::size_t n, const ShapeColumns& a, const ShapeColumns& b,
                                   std::uint8_t* out) {
    // Local copies of the column pointers: `out` is a byte pointer, which may alias
    // anything, so members read through a and b would be reloaded after every store.
    const float* ga[4];
    const float* gb[4];
    for (int k = 0; k < 4; ++k) ga[k] = a.g[k], gb[k] = b.g[k];
    Lanes la[4], lb[4];
    std::size_t i = 0;
    for (; i + width <= n; i += width) {
      for (int k = 0; k < Kernel::columns_a; ++k) la[k] = load(ga[k] + i);
      for (int k = 0; k < Kernel::columns_b; ++k) lb[k] = load(gb[k] + i);
      const auto v = Kernel::template block<A>(la, lb);
      finish(mask_bits<A>(v.hit), mask_bits<A>(v.unsure), width, i, kind, a, b, out);
    }
    if (i == n) return;
    const std::size_t rest = n - i;
    alignas(64) float pad_a[4][width] = {}, pad_b[4][width] = {};
    for (int k = 0; k < Kernel::columns_a; ++k) {
      std::memcpy(pad_a[k], ga[k] + i, rest * sizeof(float));
      la[k] = load(pad_a[k]);
    }
    for (int k = 0; k < Kernel::columns_b; ++k) {
      std::memcpy(pad_b[k], gb[k] + i, rest * sizeof(float));
      lb[k] = load(pad_b[k]);
    }
    const auto v = Kernel::template block<A>(la, lb);
    finish(mask_bits<A>(v.hit), mask_bits<A>(v.unsure), rest, i, kind, a, b, out);
  }
};

}  // namespace hitgrid::simd::kernels
