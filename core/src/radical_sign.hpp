// Exact signs of numbers with square roots in them: a + b sqrt(d), and p + q sqrt(e) where
// p and q are themselves of the form a + b sqrt(d).
//
// Lines tangent to circles have coefficients with a square root (the tangent from a point
// to a circle, the common tangents of two circles); the order in which a moving point
// crosses two such lines is the sign of a number with two of them, and its product. Each
// square root is removed by the usual step: when a and b sqrt(d) have the same sign (or one
// is zero) that is the sign; otherwise a + b sqrt(d) has the sign of a, times the sign of
// a^2 - b^2 d (the product of a + b sqrt(d) and a - b sqrt(d), whose second factor has the
// sign of a). Everything is exact on BigInt (big_int.hpp).
#pragma once

#include "big_int.hpp"

namespace hitgrid::exact {

/// a + b sqrt(d), d >= 0 (the root is known only through d).
struct WithRoot {
  BigInt a, b;
};

/// The sign of a + b sqrt(d), d >= 0.
inline int sign_of(const WithRoot& x, const BigInt& d) {
  const int sa = x.a.sign(), sb = d.sign() == 0 ? 0 : x.b.sign();
  if (sb == 0) return sa;
  if (sa == 0 || sa == sb) return sb;
  return sa * (x.a * x.a - x.b * x.b * d).sign();
}

inline WithRoot operator+(const WithRoot& x, const WithRoot& y) { return {x.a + y.a, x.b + y.b}; }
inline WithRoot operator-(const WithRoot& x, const WithRoot& y) { return {x.a - y.a, x.b - y.b}; }
/// The product of two numbers with the same root sqrt(d).
inline WithRoot multiply(const WithRoot& x, const WithRoot& y, const BigInt& d) {
  return {x.a * y.a + x.b * y.b * d, x.a * y.b + x.b * y.a};
}

/// The sign of p + q sqrt(e), where p and q are numbers with the root sqrt(d); d, e >= 0.
inline int sign_of(const WithRoot& p, const WithRoot& q, const BigInt& d, const BigInt& e) {
  const int sp = sign_of(p, d), sq = e.sign() == 0 ? 0 : sign_of(q, d);
  if (sq == 0) return sp;
  if (sp == 0 || sp == sq) return sq;
  // p^2 - q^2 e, again with the root sqrt(d).
  const WithRoot pp = multiply(p, p, d), qq = multiply(q, q, d);
  return sp * sign_of(WithRoot{pp.a - qq.a * e, pp.b - qq.b * e}, d);
}

}  // namespace hitgrid::exact
