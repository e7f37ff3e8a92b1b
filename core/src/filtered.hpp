// Filtered: a double together with a bound on its distance from the exact value
// (running error analysis, Higham, "Accuracy and Stability of Numerical Algorithms", 3.3).
//
// Each operation rounds once (round to nearest, u = 2^-53), so
//   a +- b:  |err| <= ea + eb + u |fl(a +- b)|
//   a * b :  |err| <= |a| eb + |b| ea + ea eb + u |fl(a b)|
// Inputs are float32 values, exact in double (e = 0). For hitgrid's polynomials (degree <= 4
// in float32 inputs) no step can overflow or underflow (see expansion.hpp), so these
// bounds hold for every finite input.
//
// The bound is itself computed in floating point. Every term is nonnegative and goes
// through at most 40 roundings before the final comparison, each raising it by at most a
// factor (1 + u), so the computed bound is at least (1 + u)^-40 of the true one;
// certain() inflates it by (1 + 2^-40), which covers that with a wide margin.
#pragma once

#include <cmath>

namespace hitgrid::exact {

struct Filtered {
  static constexpr double u = 0x1p-53;

  double v = 0.0;  // the rounded value
  double e = 0.0;  // |v - exact| <= e

  Filtered() = default;
  explicit Filtered(double value) : v(value) {}
  Filtered(double value, double err) : v(value), e(err) {}

  /// True if the sign of v is the sign of the exact value.
  bool certain() const { return e == 0.0 || std::fabs(v) > e * (1.0 + 0x1p-40); }
  int sign() const { return (v > 0.0) - (v < 0.0); }
};

inline Filtered operator+(Filtered a, Filtered b) {
  const double v = a.v + b.v;
  return {v, a.e + b.e + Filtered::u * std::fabs(v)};
}

inline Filtered operator-(Filtered a, Filtered b) {
  const double v = a.v - b.v;
  return {v, a.e + b.e + Filtered::u * std::fabs(v)};
}

inline Filtered operator*(Filtered a, Filtered b) {
  const double v = a.v * b.v;
  return {v, std::fabs(a.v) * b.e + std::fabs(b.v) * a.e + a.e * b.e + Filtered::u * std::fabs(v)};
}

}  // namespace hitgrid::exact
