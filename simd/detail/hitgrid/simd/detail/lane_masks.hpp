// The grid's arches, and the few lane operations xsimd 8.1 lacks, one form per arch: a
// lane mask as bits, the count of those bits, the list of the set lanes packed to the
// front (a compress), and loads of only some lanes. Everything else in the grid's lane
// code (box_filter.hpp, segment_side_filter.hpp, segment_home_rows.hpp) is xsimd; these
// are the only raw intrinsics in broadphase, kept here so that each lives in one place.
//
// The arches, as simd/ names them, and where each is compiled:
//   Sse2Arch        xsimd::sse2             grid_kernels_sse2.cpp, and baseline code (SSE2
//                                           is x86-64's baseline)
//   Avx2Arch        xsimd::fma3<avx2>       grid_kernels_avx2.cpp
//   Avx512Arch      xsimd::avx512f          grid_kernels_avx512.cpp: sixteen lanes
//   Avx512HalfArch  AVX2's 8-lane registers grid_kernels_avx512.cpp: eight lanes
// The grid searches boxes eight at a time, and xsimd's AVX-512 batch has sixteen lanes;
// Avx512HalfArch gives the AVX-512 unit eight-lane batches under a name of its own. Plain
// xsimd::avx2 there would be the same functions, by name, as those of other units
// compiled for AVX2 alone, and the linker could keep the AVX-512 unit's copies for them
// (docs/simd.md, the one-definition rule): every function instantiated here carries its
// unit's arch in its name, which the CTest case kernel_objects_keep_their_isa_to_themselves
// checks.
//
// Every helper is a template on the arch and is only instantiated where that arch's flags
// are on. Why each is not xsimd: 8.1 has no batch_bool::mask(), no popcount, no compress
// and no masked load (docs/simd.md).
#pragma once

#include <xsimd/xsimd.hpp>

#include "hitgrid/simd/detail/lane_arches.hpp"

#if XSIMD_WITH_SSE2
#include <immintrin.h>

#include <cstdint>
#include <type_traits>

namespace hitgrid {

// Sse2Arch, Avx2Arch and Avx512Arch are simd/'s (hitgrid/simd/detail/lane_arches.hpp).
/// Eight float lanes in the AVX-512 unit (see above). Plain AVX2 underneath: no FMA (the
/// AVX-512 flags do not enable it, and nothing here needs it).
struct Avx512HalfArch : xsimd::avx2 {
  static constexpr char const* name() noexcept { return "avx512 half"; }
};

}  // namespace hitgrid

// Its registers are AVX2's; declared only where the AVX-512 flags are on, so that no other
// unit can instantiate anything for it.
#if XSIMD_WITH_AVX512F
namespace xsimd::types {
XSIMD_DECLARE_SIMD_REGISTER_ALIAS(hitgrid::Avx512HalfArch, avx2);
}  // namespace xsimd::types
#endif

namespace hitgrid {

/// The arch of the eight-box steps (box_filter.hpp) in a unit of arch A: the unit's own
/// batches (four lanes, two steps, on SSE2), or Avx512HalfArch.
template <class A>
struct EightBoxes {
  using type = A;
};
template <>
struct EightBoxes<Avx512Arch> {
  using type = Avx512HalfArch;
};
template <class A>
using EightBoxArch = typename EightBoxes<A>::type;

namespace lane_detail {

template <class A>
inline constexpr bool is_sse2 = std::is_same_v<A, Sse2Arch>;
template <class A>
inline constexpr bool is_avx2 = std::is_same_v<A, Avx2Arch>;
template <class A>
inline constexpr bool is_avx512_half = std::is_same_v<A, Avx512HalfArch>;
template <class A>
inline constexpr bool is_avx512 = std::is_same_v<A, Avx512Arch>;
template <class A>
inline constexpr bool is_grid_arch = is_sse2<A> || is_avx2<A> || is_avx512_half<A> || is_avx512<A>;

/// For each 4-bit mask, the positions of its set bits packed to the front (lanes past
/// their count are never read) and that count.
struct SetBits4 {
  alignas(16) std::uint32_t position[16][4];
  std::uint32_t count[16];
};
constexpr SetBits4 make_set_bits4() {
  SetBits4 t{};
  for (std::uint32_t m = 0; m < 16; ++m) {
    std::uint32_t n = 0;
    for (std::uint32_t i = 0; i < 4; ++i)
      if (m >> i & 1) t.position[m][n++] = i;
    t.count[m] = n;
  }
  return t;
}
inline constexpr SetBits4 set_bits4 = make_set_bits4();

/// For each 8-bit mask, the positions of its set bits packed to the front, one byte each
/// (a quarter of the cache lines of 32-bit entries; AVX2 widens them in one instruction).
struct SetBits8 {
  alignas(8) std::uint8_t position[256][8];
};
constexpr SetBits8 make_set_bits8() {
  SetBits8 t{};
  for (int m = 0; m < 256; ++m) {
    int n = 0;
    for (int i = 0; i < 8; ++i)
      if (m >> i & 1) t.position[m][n++] = static_cast<std::uint8_t>(i);
  }
  return t;
}
inline constexpr SetBits8 set_bits8 = make_set_bits8();

}  // namespace lane_detail

/// Bit k set iff lane k of m is true (shared with simd/'s kernels: lane_arches.hpp).
using lanes::mask_bits;

/// mask_bits(m) & bits. On AVX-512 the and is one of k-masks (kand), which keeps the
/// result in a mask register for a compress; GCC would otherwise move m to a general
/// register for the and and the result back.
template <class A>
[[gnu::always_inline]] inline std::uint32_t mask_bits(const xsimd::batch_bool<float, A>& m, std::uint32_t bits) {
  if constexpr (lane_detail::is_avx512<A>) {
    return _cvtmask16_u32(_kand_mask16(_cvtu32_mask16(bits), m));
  } else {
    return mask_bits<A>(m) & bits;
  }
}

/// The number of set bits of a mask of A's lanes (bits < 2^lanes). SSE2 has no popcnt
/// instruction (and libgcc's fallback is a call): its four lanes take the table.
template <class A>
[[gnu::always_inline]] inline std::uint32_t bit_count(std::uint32_t bits) {
  static_assert(lane_detail::is_grid_arch<A>);
  if constexpr (lane_detail::is_sse2<A>) {
    return lane_detail::set_bits4.count[bits];
  } else {
    return static_cast<std::uint32_t>(_mm_popcnt_u32(bits));
  }
}

/// The lanes of v at the set bits of `bits` (a mask of A's lanes), packed to the front in
/// lane order; the lanes past their count are zero. AVX-512 only: vpcompressd into a
/// register (the form that stores straight to memory is microcoded on some cores, AMD Zen
/// 4 among them).
template <class A>
[[gnu::always_inline]] inline xsimd::batch<std::uint32_t, A> compress(std::uint32_t bits,
                                                                      const xsimd::batch<std::uint32_t, A>& v) {
  static_assert(lane_detail::is_avx512<A> || lane_detail::is_avx512_half<A>, "compress: AVX-512 only");
  if constexpr (lane_detail::is_avx512<A>) {
    return _mm512_maskz_compress_epi32(static_cast<__mmask16>(bits), v);
  } else {
    return _mm256_maskz_compress_epi32(static_cast<__mmask8>(bits), v);
  }
}

/// first + k for each set bit k of `bits` (a mask of A's lanes), packed to the front in
/// increasing k; lanes past the count are unspecified. The positions come from a table
/// (SSE2: 16 entries of four; AVX2: 256 of eight bytes) where there is no compress.
template <class A>
[[gnu::always_inline]] inline xsimd::batch<std::uint32_t, A> set_lanes(std::uint32_t bits, std::uint32_t first) {
  static_assert(lane_detail::is_grid_arch<A>);
  using U = xsimd::batch<std::uint32_t, A>;
  if constexpr (lane_detail::is_sse2<A>) {
    return U(first) + U::load_aligned(lane_detail::set_bits4.position[bits]);
  } else if constexpr (lane_detail::is_avx2<A>) {
    const __m128i bytes = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(lane_detail::set_bits8.position[bits]));
    return U(first) + U(_mm256_cvtepu8_epi32(bytes));
  } else if constexpr (lane_detail::is_avx512_half<A>) {
    return compress<A>(bits, U(first) + U(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)));
  } else {
    return compress<A>(bits, U(first) + U(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)));
  }
}

/// p[0 .. n) in the first n lanes, `fill` in the rest, reading nothing past p + n
/// (n <= 16). AVX-512 only: the other arches' loads stay within the grid columns' padding.
template <class A>
[[gnu::always_inline]] inline xsimd::batch<float, A> load_first(const float* p, std::uint32_t n, float fill) {
  static_assert(lane_detail::is_avx512<A>, "load_first: AVX-512 only");
  return _mm512_mask_loadu_ps(_mm512_set1_ps(fill), static_cast<__mmask16>((1u << n) - 1), p);
}

/// p[0 .. 8) in the low eight lanes and q[0 .. 8) in the high eight. AVX-512 only.
template <class A>
[[gnu::always_inline]] inline xsimd::batch<float, A> load_halves(const float* p, const float* q) {
  static_assert(lane_detail::is_avx512<A>, "load_halves: AVX-512 only");
  // (Zero-masked forms throughout: g++ 12's unmasked insert, shuffle and zero-extension
  // read an undefined vector, which -Werror=maybe-uninitialized rejects.)
  return _mm512_maskz_shuffle_f32x4(0xffff, _mm512_maskz_loadu_ps(0x00ff, p), _mm512_maskz_loadu_ps(0x00ff, q), 0x44);
}

}  // namespace hitgrid

#endif  // XSIMD_WITH_SSE2
