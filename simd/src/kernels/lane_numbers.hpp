// Number types for the lanes: the two stages that decide a predicate's sign in SIMD.
//
// Stage 1, FilteredLanes: the double value and a running bound on its error, the same
// arithmetic as core/src/filtered.hpp's Filtered (Higham's running error analysis, u =
// 2^-53 per operation; see that header for why the bound holds for hitgrid's polynomials
// and why certain() inflates it by 2^-40). The orientation uses Shewchuk's cheaper static
// bound instead (static_orient below), as core/src/orient2d_filter.hpp does.
//
// Stage 2, CheckedLanes: the value again, plus a mask of the lanes in which no operation
// rounded at all, checked with error-free transformations (two-sum, two-product). In
// those lanes the double result *is* the exact value, so its sign is exact. This is what
// keeps lattice input (small integers, exactly collinear or tangent, where stage 1 can
// never decide) in the lanes: only lanes that are both degenerate-looking and inexact
// reach the scalar cold path.
//
// Both are templates over the arch A and are plugged into the polynomials of
// core/src/predicate_polynomials.hpp, so the lanes evaluate the very expressions the
// scalar predicates evaluate.
#pragma once

#include "hitgrid/simd/detail/arch_ops.hpp"

namespace hitgrid::simd::kernels {

// ---- Stage 1 ------------------------------------------------------------------------

template <class A>
struct FilteredLanes {
  Doubles<A> v;  // the rounded value
  Doubles<A> e;  // |v - exact| <= e (up to the factor certain() allows for)

  FilteredLanes(const Doubles<A>& value) : v(value), e(0.0) {}  // NOLINT: inputs are exact
  FilteredLanes(const Doubles<A>& value, const Doubles<A>& err) : v(value), e(err) {}

  /// Lanes where v has the sign of the exact value (Filtered::certain).
  DoubleMask<A> certain() const { return (e == Doubles<A>(0.0)) | (xsimd::abs(v) > e * Doubles<A>(1.0 + 0x1p-40)); }
};

template <class A>
[[gnu::always_inline]] inline FilteredLanes<A> operator+(const FilteredLanes<A>& a, const FilteredLanes<A>& b) {
  const Doubles<A> v = a.v + b.v;
  return {v, a.e + b.e + Doubles<A>(0x1p-53) * xsimd::abs(v)};
}

template <class A>
[[gnu::always_inline]] inline FilteredLanes<A> operator-(const FilteredLanes<A>& a, const FilteredLanes<A>& b) {
  const Doubles<A> v = a.v - b.v;
  return {v, a.e + b.e + Doubles<A>(0x1p-53) * xsimd::abs(v)};
}

template <class A>
[[gnu::always_inline]] inline FilteredLanes<A> operator*(const FilteredLanes<A>& a, const FilteredLanes<A>& b) {
  const Doubles<A> v = a.v * b.v;
  return {v, xsimd::abs(a.v) * b.e + xsimd::abs(b.v) * a.e + a.e * b.e + Doubles<A>(0x1p-53) * xsimd::abs(v)};
}

/// A sign known in some lanes: where `known`, v has the sign of the exact value.
template <class A>
struct LaneSign {
  Doubles<A> v;
  DoubleMask<A> known;
};

/// orient2d's polynomial cross(b - a, c - a) with Shewchuk's static bound: for l, r the
/// two rounded products, |fl(l - r) - (l - r)*| <= (3u + 16u^2)(|l| + |r|) (his
/// ccwerrboundA; core's two_product_bound). The same polynomial serves the dot product
/// (l + r) with r negated, which changes nothing in the bound.
template <class A>
[[gnu::always_inline]] inline LaneSign<A> static_orient(const Doubles<A>& ax, const Doubles<A>& ay,
                                                        const Doubles<A>& bx, const Doubles<A>& by,
                                                        const Doubles<A>& cx, const Doubles<A>& cy) {
  const Doubles<A> l = (bx - ax) * (cy - ay);
  const Doubles<A> r = (by - ay) * (cx - ax);
  const Doubles<A> det = l - r;
  const Doubles<A> bound = Doubles<A>((3.0 + 16.0 * 0x1p-53) * 0x1p-53) * (xsimd::abs(l) + xsimd::abs(r));
  return {det, xsimd::abs(det) > bound};
}

/// dot(b - a, c - a) with the same static bound (core's dot_sign filter).
template <class A>
[[gnu::always_inline]] inline LaneSign<A> static_dot(const Doubles<A>& ax, const Doubles<A>& ay, const Doubles<A>& bx,
                                                     const Doubles<A>& by, const Doubles<A>& cx, const Doubles<A>& cy) {
  const Doubles<A> l = (bx - ax) * (cx - ax);
  const Doubles<A> r = (by - ay) * (cy - ay);
  const Doubles<A> s = l + r;
  const Doubles<A> bound = Doubles<A>((3.0 + 16.0 * 0x1p-53) * 0x1p-53) * (xsimd::abs(l) + xsimd::abs(r));
  return {s, xsimd::abs(s) > bound};
}

template <class A>
[[gnu::always_inline]] inline LaneSign<A> sign_of(const FilteredLanes<A>& f) {
  return {f.v, f.certain()};
}

// ---- Stage 2 ------------------------------------------------------------------------

/// In double lanes (T = double) or float lanes (T = float, float_lane_numbers.hpp says
/// where that is exact enough).
template <class A, class T = double>
struct CheckedLanes {
  xsimd::batch<T, A> v;             // the rounded value
  xsimd::batch_bool<T, A> inexact;  // lanes in which some operation rounded

  CheckedLanes(const xsimd::batch<T, A>& value) : v(value), inexact(false) {}  // NOLINT: inputs are exact
  CheckedLanes(const xsimd::batch<T, A>& value, const xsimd::batch_bool<T, A>& rounded) : v(value), inexact(rounded) {}
};

/// s = fl(a + b) is exact iff the two-sum error (Knuth) is zero.
template <class A, class T>
[[gnu::always_inline]] inline CheckedLanes<A, T> checked_sum(const CheckedLanes<A, T>& a, const xsimd::batch<T, A>& bv,
                                                             const xsimd::batch_bool<T, A>& b_inexact) {
  using V = xsimd::batch<T, A>;
  const V s = a.v + bv;
  const V b_virtual = s - a.v;
  const V a_virtual = s - b_virtual;
  const V err = (a.v - a_virtual) + (bv - b_virtual);
  return {s, a.inexact | b_inexact | (err != V(T(0)))};
}

template <class A, class T>
[[gnu::always_inline]] inline CheckedLanes<A, T> operator+(const CheckedLanes<A, T>& a, const CheckedLanes<A, T>& b) {
  return checked_sum(a, b.v, b.inexact);
}

template <class A, class T>
[[gnu::always_inline]] inline CheckedLanes<A, T> operator-(const CheckedLanes<A, T>& a, const CheckedLanes<A, T>& b) {
  return checked_sum(a, -b.v, b.inexact);  // negation is exact
}

template <class A, class T>
[[gnu::always_inline]] inline CheckedLanes<A, T> operator*(const CheckedLanes<A, T>& a, const CheckedLanes<A, T>& b) {
  using V = xsimd::batch<T, A>;
  const V p = a.v * b.v;
  return {p, a.inexact | b.inexact | (product_error<A>(a.v, b.v, p) != V(T(0)))};
}

/// Merges stage 2 into stage 1: lanes stage 1 knew keep their value; lanes computed
/// without rounding are known now.
template <class A>
[[gnu::always_inline]] inline LaneSign<A> refine(const LaneSign<A>& s, const CheckedLanes<A>& c) {
  return {xsimd::select(s.known, s.v, c.v), s.known | ~c.inexact};
}

}  // namespace hitgrid::simd::kernels
