// Signs and rounded values of polynomials in float32 inputs, for the geometry functions
// (segment_intersection, distance, ray_box, ray_circle, ray_segment, time_of_impact,
// swept_circle).
//
// A polynomial is written once as a generic lambda over the number type (as
// predicate_polynomials.hpp does) and evaluated here:
//
//   adaptive_sign(poly, x...)   the exact sign: Filtered first, Expansion when the filter
//                               cannot decide (the same scheme as predicates.cpp);
//   adaptive_value(poly, x...)  a double within relative error rho of the exact value
//                               (rho = 2^-48 (1 + 2^-47), see below), with the exact sign,
//                               and 0 exactly when the value is 0.
//
// Why a relative bound: the rounded outputs (intersection parameters, times, distances)
// are quotients and square roots of such values. A plain double evaluation has an error
// relative to the size of the *terms*, which is unbounded relative to the value when they
// cancel (nearly parallel segments, a point nearly on a line); then the quotient can be
// wrong in every digit. Bounding each value relatively makes every derived error bound a
// small multiple of u = 2^-53 regardless of the configuration.
//
// estimate(e) turns an exact expansion into one double: Shewchuk's COMPRESS, whose
// largest component approximates the sum with relative error below 2^-52 (Shewchuk 1997,
// section 2.8). tests/core/test_adaptive_eval.cpp checks this against GMP, including
// cancelling expansions.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>

#include "hitgrid/core/detail/predicate_counters.hpp"
#include "expansion.hpp"
#include "filtered.hpp"
#include "hitgrid/core/predicates.hpp"

namespace hitgrid::exact {

/// The value of a nonoverlapping expansion as one double, relative error below 2^-52;
/// the sign is exact and the result is 0 only for the zero expansion.
template <std::size_t N>
double estimate(const Expansion<N>& e) {
  if (e.n == 0) return 0.0;
  // COMPRESS, pass 1 (top down): carry the running sum downwards, storing a partial sum
  // whenever the addition leaves a roundoff term. two_sum rather than fast_two_sum: it has
  // no magnitude precondition, and this is the cold path.
  std::array<double, N> g;
  std::size_t bottom = e.n - 1;
  double q = e.c[e.n - 1];
  for (std::size_t i = e.n - 1; i-- > 0;) {
    double sum, err;
    two_sum(q, e.c[i], sum, err);
    if (err != 0.0) {
      g[bottom--] = sum;
      q = err;
    } else {
      q = sum;
    }
  }
  g[bottom] = q;
  // Pass 2 (bottom up): sum upwards; the roundoff terms left behind are the lower
  // components of the compressed expansion and are not needed, only the top one is.
  q = g[bottom];
  for (std::size_t i = bottom + 1; i < e.n; ++i) {
    double sum, err;
    two_sum(g[i], q, sum, err);
    q = sum;
  }
  return q;
}

/// Relative accuracy demanded of the filtered value by adaptive_value before it is used.
/// The filter's error bound is about 3u-4u of the terms' size for a product or a
/// difference of products, so 2^-48 = 32u lets every non-cancelling evaluation through
/// and sends the cancelling ones (where the exact value is what matters) to the exact path.
inline constexpr double adaptive_relative_threshold = 0x1p-48;

/// Upper bound on the relative error of adaptive_value: 2^-48 / (1 - 2^-48) from the
/// filtered path, 2^-52 / (1 - 2^-52) from the exact one.
inline constexpr double adaptive_rho = 0x1p-48 * (1.0 + 0x1p-47);

[[gnu::cold, gnu::noinline]] inline void count_exact_evaluation() { ++predicate_counters().exact_calls; }

/// The exact sign of poly(x...), where x are float32 inputs (taken as exact).
template <class Poly, class... Floats>
int adaptive_sign(const Poly& poly, Floats... x) {
  const Filtered f = poly(Filtered(static_cast<double>(x))...);
  if (f.certain()) return f.sign();
  count_exact_evaluation();
  return poly(Expansion<1>(static_cast<double>(x))...).sign();
}

/// The exact sign of poly(x...) from expansions alone, for a caller that has filtered it
/// in its own way: swept_circle's degree-6 corner test, beyond the degree for which
/// filtered.hpp states its bound (expansion.hpp covers degree 6).
template <class Poly, class... Floats>
int exact_sign(const Poly& poly, Floats... x) {
  count_exact_evaluation();
  return poly(Expansion<1>(static_cast<double>(x))...).sign();
}

/// poly(x...) within relative error adaptive_rho; exact sign; exactly 0 iff the value is 0.
template <class Poly, class... Floats>
double adaptive_value(const Poly& poly, Floats... x) {
  const Filtered f = poly(Filtered(static_cast<double>(x))...);
  // f.e * (1 + 2^-40) bounds the true error of f.v (filtered.hpp). If it is at most
  // 2^-48 |f.v|, then |f.v - exact| <= 2^-48 |f.v|, hence <= 2^-48 / (1 - 2^-48) |exact|.
  // This also accepts f.v == 0 with f.e == 0 (an exact zero).
  if (f.e * (1.0 + 0x1p-40) <= adaptive_relative_threshold * std::fabs(f.v)) return f.v;
  count_exact_evaluation();
  return estimate(poly(Expansion<1>(static_cast<double>(x))...));
}

}  // namespace hitgrid::exact
