// Number types for the lanes: the two stages that decide a predicate's sign in SIMD.
//
// Stage 1, FilteredLanes: the double value and a running bound on its error, the same
// arithmetic as core/src/filtered.hpp's Filtered (Higham's running error analysis, u =
// 2^-53 per operation; see that header for why the bound holds for hitgrid's polynomials
// and why certain() inflates it by 2^-40). The orientation uses Shewchuk's cheaper static
// bound instead (static_orient below), as core/src/orient2d_filter.hpp does, and so do the
// dot product and the circle polynomials of segment_circle.hpp (static_dot,
// static_distance, static_line_distance).
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

/// Static bounds for the circle polynomials (poly::distance, poly::line_distance), from
/// the forward error of a polynomial evaluated in floating point. Written out, the
/// computed value is the sum of the exact polynomial's monomials in the exact coordinate
/// differences, each multiplied by one factor (1 + d), |d| <= u = 2^-53, per rounding on
/// its way up the expression: a difference of inputs gives one, a sum one more than its
/// operand, a product one more than its two operands together. With at most n factors a
/// monomial, the error is at most gamma_n = nu / (1 - nu) times the sum of the monomials'
/// magnitudes, that is the polynomial evaluated on the differences' magnitudes with every
/// minus a plus (Higham, Accuracy and Stability of Numerical Algorithms, 3.1). That
/// magnitude, computed in double from the rounded differences, has every monomial
/// positive and at most n factors (1 - u) low, so the exact one is at most (1 - u)^-n
/// times it. The model needs round to nearest without flush to zero, and no underflow or
/// overflow, which float inputs give in double: a nonzero difference of two floats is at
/// least 2^-149 and at most 2^129, a product of two at least 2^-298, a nonzero difference
/// of two such products (cr below) a multiple of 2^-350, its square at least 2^-700, and
/// nothing exceeds about 2^520 (a sum that did underflow would be exact anyway). A
/// magnitude of 0 means every monomial is 0, and so is the computed value, exactly.
/// Near tangency, where a sign can be wrong, the final difference is exact (its operands
/// within a factor 2 of each other) and the errors stay below about 2u (distance) and 7u
/// (line distance) times the magnitude; tests/simd/test_pair_kernels.cpp has pairs on
/// which bounds of 1.5u and 5u fail.
///
/// poly::distance, (dx dx + dy dy) - r r: n = 5 (dx 1, dx dx 3, the sum 4, the difference
/// 5; r r is exact). Bound 6u times (dx dx + dy dy + r r): 6u (1 - u) > gamma_5 (1 - u)^-5
/// with the bound's own rounding.
template <class A>
[[gnu::always_inline]] inline LaneSign<A> static_distance(const Doubles<A>& px, const Doubles<A>& py,
                                                          const Doubles<A>& qx, const Doubles<A>& qy,
                                                          const Doubles<A>& r) {
  const Doubles<A> dx = px - qx, dy = py - qy;
  const Doubles<A> squares = dx * dx + dy * dy, rr = r * r;
  const Doubles<A> v = squares - rr;
  const Doubles<A> bound = Doubles<A>(6.0 * 0x1p-53) * (squares + rr);
  return {v, (bound == Doubles<A>(0.0)) | (xsimd::abs(v) > bound)};
}

/// poly::line_distance, cr cr - (r r)(ux ux + uy uy) with cr = ux wy - uy wx: n = 10 (cr
/// has 4, cr cr 9, the difference 10; the other side 6: ux ux + uy uy 4, times r r 5, the
/// difference 6; r r itself is exact). Magnitude (|ux| |wy| +
/// |uy| |wx|)^2 + (r r)(ux ux + uy uy), bound 11u times it: 11u (1 - u) > gamma_10
/// (1 - u)^-10.
template <class A>
[[gnu::always_inline]] inline LaneSign<A> static_line_distance(const Doubles<A>& ax, const Doubles<A>& ay,
                                                               const Doubles<A>& bx, const Doubles<A>& by,
                                                               const Doubles<A>& px, const Doubles<A>& py,
                                                               const Doubles<A>& r) {
  const Doubles<A> ux = bx - ax, uy = by - ay, wx = px - ax, wy = py - ay;
  const Doubles<A> l = ux * wy, m = uy * wx;
  const Doubles<A> cr = l - m;
  const Doubles<A> far = (r * r) * (ux * ux + uy * uy);
  const Doubles<A> v = cr * cr - far;
  const Doubles<A> magnitude = xsimd::abs(l) + xsimd::abs(m);
  const Doubles<A> bound = Doubles<A>(11.0 * 0x1p-53) * (magnitude * magnitude + far);
  return {v, (bound == Doubles<A>(0.0)) | (xsimd::abs(v) > bound)};
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
