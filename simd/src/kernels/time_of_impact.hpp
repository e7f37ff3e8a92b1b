// Swept circle against swept circle in lanes: kind and time of first contact. Scalar twin:
// time_of_impact() in core/src/time_of_impact.cpp. With g(t) = A t^2 + 2 B t + C:
//   C < 0 -> overlapping, C == 0 -> touching (t = 0);
//   contact iff g(1) <= 0, or B < 0 and A + B > 0 and B^2 - A C >= 0 (short-circuit order);
//   impact time t = min(C / (-B + sqrt(B^2 - A C)), 1).
// Signs: FilteredLanes, the same running bound as the scalar adaptive_sign's filter. Values:
// adaptive_value takes the filtered value when f.e (1 + 2^-40) <= 2^-48 |f.v|, else an exact
// estimate; the lanes repeat the filtered evaluation operation for operation (same value,
// same bound, so the same acceptance) and send every lane the scalar code would have
// computed exactly, or whose sign is undecided, to time_of_impact() itself.
#pragma once

#include "hitgrid/core/detail/geometry_polynomials.hpp"
#include "lane_numbers.hpp"

namespace hitgrid::simd::kernels {

template <class A>
struct ToiLanes {
  Doubles<A> kind;  // ToiKind as a double: 0 none, 1 overlapping, 2 touching, 3 impact
  Doubles<A> t;
  DoubleMask<A> unsure;
};

/// adaptive_value's acceptance test on the filtered value.
template <class A>
[[gnu::always_inline]] inline DoubleMask<A> accurate(const FilteredLanes<A>& f) {
  return f.e * Doubles<A>(1.0 + 0x1p-40) <= Doubles<A>(0x1p-48) * xsimd::abs(f.v);
}

/// c1 and c2: cx, cy, r, vx, vy.
template <class A>
[[gnu::always_inline]] inline ToiLanes<A> toi_lanes(const Doubles<A>* c1, const Doubles<A>* c2) {
  using D = Doubles<A>;
  using M = DoubleMask<A>;
  using F = FilteredLanes<A>;
  const F c1x(c1[0]), c1y(c1[1]), r1(c1[2]), v1x(c1[3]), v1y(c1[4]);
  const F c2x(c2[0]), c2y(c2[1]), r2(c2[2]), v2x(c2[3]), v2y(c2[4]);
  const F gap0 = poly::toi_start_gap(c1x, c1y, r1, c2x, c2y, r2);
  const F gap1 = poly::toi_end_gap(c1x, c1y, r1, v1x, v1y, c2x, c2y, r2, v2x, v2y);
  const F b = poly::toi_b(c1x, c1y, v1x, v1y, c2x, c2y, v2x, v2y);
  const F ab = poly::toi_a_plus_b(c1x, c1y, v1x, v1y, c2x, c2y, v2x, v2y);
  const F disc = poly::toi_discriminant(c1x, c1y, r1, v1x, v1y, c2x, c2y, r2, v2x, v2y);
  const D zero(0.0);
  const M c_known = gap0.certain();
  const M overlapping = gap0.v<zero, touching = gap0.v == zero, apart = gap0.v> zero;
  // Apart: the contact decision with the scalar code's short-circuit order.
  const M end_contact = gap1.v <= zero;
  const M b_neg = b.v<zero, ab_pos = ab.v> zero, disc_ok = disc.v >= zero;
  const M b_known = b.certain(), ab_known = ab.certain(), disc_known = disc.certain();
  const M chain_known = b_known & (~b_neg | (ab_known & (~ab_pos | disc_known)));
  const M contact = end_contact | (b_neg & ab_pos & disc_ok);
  const M contact_known = gap1.certain() & (end_contact | chain_known);
  // Impact: the three values must pass adaptive_value's test.
  const M impact = apart & contact;
  const M values_ok = accurate(gap0) & accurate(b) & accurate(disc);
  const M known = c_known & (~apart | (contact_known & (~contact | values_ok)));
  const D t = gap0.v / (-b.v + xsimd::sqrt(disc.v));
  const D t_clamped = xsimd::select(D(1.0) < t, D(1.0), t);  // std::min(t, 1.0)
  const D kind =
      xsimd::select(overlapping, D(1.0), xsimd::select(touching, D(2.0), xsimd::select(impact, D(3.0), zero)));
  return {kind, xsimd::select(impact, t_clamped, zero), ~known};
}

}  // namespace hitgrid::simd::kernels
