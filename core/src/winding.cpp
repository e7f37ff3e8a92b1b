#include "hitgrid/core/winding.hpp"

#include <cmath>
#include <cstddef>

#include "exact_sum.hpp"
#include "filtered.hpp"
#include "hitgrid/core/predicates.hpp"
#include "hitgrid/core/detail/predicate_polynomials.hpp"
#include "hitgrid/core/detail/predicate_counters.hpp"

namespace hitgrid {
namespace {

using exact::Filtered;

/// The sign of 2A from a double evaluation with a running error bound, or 2 if the bound
/// cannot decide it.
///
/// 2A = sum_{i=1}^{n-2} cross(v_i - v_0, v_{i+1} - v_0) (the fan from v_0, equal to the
/// shoelace sum exactly). Relative to v_0 the terms are as small as the polygon, not as
/// large as its distance from the origin, so the bound stays tight far from the origin.
///
/// Error (u = 2^-53): each fan term is a Filtered value (v_i, e_i) whose true error is at
/// most e_i (1 + 2^-40) (filtered.hpp). Summing the v_i adds at most u |s_k| per partial sum
/// s_k. So the error of the sum is at most (1 + 2^-40) * E, E = sum e_i + u sum |s_k|. E is
/// itself a floating-point sum of m <= 2n nonnegative terms, so the computed E_c is at
/// least E (1 - u)^m >= E / (1 + 4 n u) for n <= 2^32. Then
///   (1 + 2^-40)(1 + 4 n u) <= 1 + 2^-39 + n 2^-50,
/// and the factor below, 1 + 2^-38 + n 2^-49, leaves room for the two roundings in forming
/// and applying it.
int filtered_area_sign(std::span<const Vec2> v) {
  const std::size_t n = v.size();
  using F = Filtered;
  const F x0(v[0].x), y0(v[0].y);
  double sum = 0.0;
  double err = 0.0;
  for (std::size_t i = 1; i + 1 < n; ++i) {
    const F term = poly::orient(x0, y0, F(v[i].x), F(v[i].y), F(v[i + 1].x), F(v[i + 1].y));
    sum += term.v;
    err += term.e + Filtered::u * std::fabs(sum);
  }
  const int s = (sum > 0.0) - (sum < 0.0);
  if (err == 0.0) return s;  // every term and every partial sum exact
  const double factor = 1.0 + (0x1p-38 + static_cast<double>(n) * 0x1p-49);
  if (std::fabs(sum) > err * factor) return s;
  return 2;
}

/// The exact sign of sum_i cross(v_i, v_{i+1}). A product of two floats is exact in double
/// (24 + 24 significant bits, exponents far inside double's range), so the sum is a sum
/// of 2n exact doubles: accumulated without error.
int exact_area_sign(std::span<const Vec2> v) {
  const std::size_t n = v.size();
  exact::ExactSum acc;
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2 p = v[i];
    const Vec2 q = v[i + 1 == n ? 0 : i + 1];
    acc.add(double{p.x} * q.y);
    acc.add(-(double{q.x} * p.y));
  }
  return acc.sign();
}

}  // namespace

int signed_area_sign(std::span<const Vec2> polygon) {
  if (polygon.size() < 3) return 0;
  if (polygon.size() <= (std::size_t{1} << 32)) {
    const int s = filtered_area_sign(polygon);
    if (s != 2) return s;
  }
  ++predicate_counters().exact_calls;
  return exact_area_sign(polygon);
}

Winding winding(std::span<const Vec2> polygon) {
  const int s = signed_area_sign(polygon);
  return s > 0 ? Winding::counter_clockwise : s < 0 ? Winding::clockwise : Winding::degenerate;
}

}  // namespace hitgrid
