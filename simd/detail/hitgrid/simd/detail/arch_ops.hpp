// The few operations xsimd 8.1 lacks or gets wrong for the kernels, one per arch:
// loading float32 columns widened to double, a float lane's sign bits, and the exact
// rounding error of a product. (A lane mask as bits, which the grid's searches need too,
// and the arches: hitgrid/simd/detail/lane_arches.hpp.)
//
// Everything here is a template on the arch A (docs/simd.md, one definition rule: a
// non-template helper compiled into the AVX-512 translation unit could be the copy the
// linker keeps for the SSE2 one). The arches hitgrid compiles for:
//   Isa::sse2   xsimd::sse2           (baseline x86-64 flags)
//   Isa::avx2   xsimd::fma3<avx2>     (-mavx2 -mfma -mbmi2)
//   Isa::avx512 xsimd::avx512f        (-mavx512f -mavx512bw -mavx512dq -mavx512vl)
#pragma once

#include <immintrin.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <xsimd/xsimd.hpp>

#include "hitgrid/simd/detail/lane_arches.hpp"

namespace hitgrid::simd::kernels {

template <class A>
using Doubles = xsimd::batch<double, A>;
template <class A>
using DoubleMask = xsimd::batch_bool<double, A>;
template <class A>
using Floats = xsimd::batch<float, A>;
template <class A>
using FloatMask = xsimd::batch_bool<float, A>;

template <class A>
inline constexpr bool is_avx512 = std::is_base_of_v<xsimd::avx512f, A>;
template <class A>
inline constexpr bool is_avx2 = std::is_base_of_v<xsimd::avx2, A> && !is_avx512<A>;
template <class A>
inline constexpr bool is_sse2 = std::is_base_of_v<xsimd::sse2, A> && !is_avx2<A> && !is_avx512<A>;

/// Doubles<A>::size floats from p (any alignment), each widened to double (exact).
/// xsimd 8.1's converting load goes through a scalar buffer; the widening instructions
/// (cvtps2pd) do it in one step.
template <class A>
[[gnu::always_inline]] inline Doubles<A> load_widened(const float* p) {
  if constexpr (is_avx512<A>) {
    return _mm512_cvtps_pd(_mm256_loadu_ps(p));
  } else if constexpr (is_avx2<A>) {
    return _mm256_cvtps_pd(_mm_loadu_ps(p));
  } else {
    static_assert(is_sse2<A>);
    return _mm_cvtps_pd(_mm_castsi128_ps(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p))));
  }
}

/// Bit k set iff lane k is true (shared with the grid's searches: lane_arches.hpp).
using hitgrid::lanes::mask_bits;

/// Bit k set iff lane k's sign bit is set (whatever the rest of the lane holds).
template <class A>
[[gnu::always_inline]] inline std::uint32_t sign_bits(const Floats<A>& x) {
  if constexpr (is_avx512<A>) {
    return static_cast<std::uint32_t>(_mm512_movepi32_mask(_mm512_castps_si512(x)));  // AVX-512 DQ
  } else if constexpr (is_avx2<A>) {
    return static_cast<std::uint32_t>(_mm256_movemask_ps(x));
  } else {
    return static_cast<std::uint32_t>(_mm_movemask_ps(x));
  }
}

/// The exact error p - a b of the rounded product p = fl(a b), for the exactness checks of
/// the second stage (lane_numbers.hpp). With FMA hardware one fused multiply-subtract
/// gives it; elsewhere Dekker's product (Veltkamp split), as core/src/expansion.hpp does.
/// Both are exact (no overflow or underflow for hitgrid's degree <= 4 polynomials in
/// float32 inputs, see expansion.hpp), so the result is the same value on every arch.
/// On AVX2 (fma3<avx2>) xsimd::fms is the fused instruction; on AVX-512 an intrinsic,
/// because 8.1 implements fms there as an unfused a * b - c.
template <class A>
[[gnu::always_inline]] inline Doubles<A> product_error(const Doubles<A>& a, const Doubles<A>& b, const Doubles<A>& p) {
  if constexpr (is_avx512<A>) {
    return _mm512_fmsub_pd(a, b, p);  // a b - p, rounded once: exact here
  } else if constexpr (is_avx2<A>) {
    return xsimd::fms(a, b, p);
  } else {
    const Doubles<A> splitter(134217729.0);  // 2^27 + 1
    const Doubles<A> ca = splitter * a, cb = splitter * b;
    const Doubles<A> a_hi = ca - (ca - a), b_hi = cb - (cb - b);
    const Doubles<A> a_lo = a - a_hi, b_lo = b - b_hi;
    // a b = p + (a_lo b_lo - e), every step exact (Dekker 1971; Shewchuk's Two-Product).
    const Doubles<A> e = ((p - a_hi * b_hi) - a_lo * b_hi) - a_hi * b_lo;
    return a_lo * b_lo - e;
  }
}

/// The same in float lanes: exact, or at least nonzero exactly when the error is, for
/// the range float_lane_numbers.hpp allows. Dekker's split for float is 12 bits (4097).
template <class A>
[[gnu::always_inline]] inline Floats<A> product_error(const Floats<A>& a, const Floats<A>& b, const Floats<A>& p) {
  if constexpr (is_avx512<A>) {
    return _mm512_fmsub_ps(a, b, p);
  } else if constexpr (is_avx2<A>) {
    return xsimd::fms(a, b, p);
  } else {
    const Floats<A> splitter(4097.0f);
    const Floats<A> ca = splitter * a, cb = splitter * b;
    const Floats<A> a_hi = ca - (ca - a), b_hi = cb - (cb - b);
    const Floats<A> a_lo = a - a_hi, b_lo = b - b_hi;
    const Floats<A> e = ((p - a_hi * b_hi) - a_lo * b_hi) - a_hi * b_lo;
    return a_lo * b_lo - e;
  }
}

/// bytes_of_bits[m]: byte k is bit k of m (0 or 1), for storing eight results at once.
inline constexpr std::array<std::uint64_t, 256> bytes_of_bits = [] {
  std::array<std::uint64_t, 256> t{};
  for (std::size_t m = 0; m < 256; ++m)
    for (std::size_t k = 0; k < 8; ++k) t[m] |= static_cast<std::uint64_t>((m >> k) & 1u) << (8 * k);
  return t;
}();

}  // namespace hitgrid::simd::kernels
