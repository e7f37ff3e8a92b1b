// Exact arithmetic on floating-point expansions (Shewchuk, "Adaptive Precision
// Floating-Point Arithmetic and Fast Robust Geometric Predicates", 1997).
//
// An expansion is a sum of doubles, ordered by increasing magnitude and nonoverlapping;
// its value is the exact sum. Sums and products of expansions are exact as long as no
// operation overflows or underflows. That holds for every polynomial hitgrid evaluates:
// the inputs are float32 values (multiples of 2^-149, below 2^128 in magnitude) and the
// polynomials have degree <= 6 (all but swept_circle's corner test have degree <= 4). A
// partial result of degree k is a multiple of 2^(-149 k), and so is every rounding error
// term computed along with it (two_sum's and two_product's error terms are differences of
// such multiples), so every nonzero component lies between 2^-894 and 2^800, inside
// double's normal range [2^-1022, 2^1024). No assumption on the magnitude of the inputs is
// needed beyond "finite float32".
//
// The capacity of each result is fixed at compile time from its operands
// (sum: N + M, product: 2 N M), so the storage can never overflow; zero elimination keeps
// the live length short (for integer or nearby inputs, one or two components).
//
// Requires IEEE double with round-to-nearest-even and no contraction of a*b+c into an FMA
// (the project compiles with -ffp-contract=off).
#pragma once

#include <array>
#include <cstddef>

namespace hitgrid::exact {

/// x + y == a + b exactly, x = fl(a + b).
inline void two_sum(double a, double b, double& x, double& y) {
  x = a + b;
  const double bv = x - a;
  const double av = x - bv;
  y = (a - av) + (b - bv);
}

/// x + y == a + b exactly, x = fl(a + b); requires |a| >= |b| or a == 0.
inline void fast_two_sum(double a, double b, double& x, double& y) {
  x = a + b;
  y = b - (x - a);
}

/// hi + lo == a, each half with at most 26 significant bits (Dekker / Veltkamp).
inline void split(double a, double& hi, double& lo) {
  constexpr double splitter = 134217729.0;  // 2^27 + 1
  const double c = splitter * a;
  const double big = c - a;
  hi = c - big;
  lo = a - hi;
}

/// x + y == a * b exactly, x = fl(a * b).
inline void two_product(double a, double b, double& x, double& y) {
  x = a * b;
  double ahi, alo, bhi, blo;
  split(a, ahi, alo);
  split(b, bhi, blo);
  const double err1 = x - ahi * bhi;
  const double err2 = err1 - alo * bhi;
  const double err3 = err2 - ahi * blo;
  y = alo * blo - err3;
}

template <std::size_t N>
struct Expansion {
  static_assert(N >= 1);
  std::array<double, N> c;  // nonzero components, increasing magnitude, nonoverlapping
  std::size_t n = 0;

  Expansion() = default;
  explicit Expansion(double v) requires(N == 1) {
    if (v != 0.0) c[n++] = v;
  }

  /// -1, 0 or +1: the sign of the largest component is the sign of the sum.
  int sign() const { return n == 0 ? 0 : (c[n - 1] > 0.0 ? 1 : -1); }

  void push(double v) {
    if (v != 0.0) c[n++] = v;
  }
};

template <std::size_t N>
Expansion<N> operator-(const Expansion<N>& e) {
  Expansion<N> r = e;
  for (std::size_t i = 0; i < r.n; ++i) r.c[i] = -r.c[i];
  return r;
}

/// Exact sum (Shewchuk's EXPANSION-SUM: f's components grown into e one at a time;
/// O(n m), which is cheaper than the linear merge for the one- to four-component operands
/// that zero elimination leaves in practice).
template <std::size_t N, std::size_t M>
Expansion<N + M> operator+(const Expansion<N>& e, const Expansion<M>& f) {
  std::array<double, N + M> h;
  std::size_t len = e.n;
  for (std::size_t i = 0; i < e.n; ++i) h[i] = e.c[i];
  for (std::size_t j = 0; j < f.n; ++j) {
    double q = f.c[j];
    std::size_t out = 0;
    for (std::size_t i = 0; i < len; ++i) {
      double sum, err;
      two_sum(q, h[i], sum, err);
      q = sum;
      if (err != 0.0) h[out++] = err;
    }
    if (q != 0.0) h[out++] = q;
    len = out;
  }
  Expansion<N + M> r;
  for (std::size_t i = 0; i < len; ++i) r.c[i] = h[i];
  r.n = len;
  return r;
}

template <std::size_t N, std::size_t M>
Expansion<N + M> operator-(const Expansion<N>& e, const Expansion<M>& f) {
  return e + (-f);
}

/// Exact e * b for one double b (Shewchuk's SCALE-EXPANSION with zero elimination).
template <std::size_t N>
Expansion<2 * N> scale(const Expansion<N>& e, double b) {
  Expansion<2 * N> h;
  if (e.n == 0 || b == 0.0) return h;
  double q, err;
  two_product(e.c[0], b, q, err);
  h.push(err);
  for (std::size_t i = 1; i < e.n; ++i) {
    double p1, p0, sum;
    two_product(e.c[i], b, p1, p0);
    two_sum(q, p0, sum, err);
    h.push(err);
    fast_two_sum(p1, sum, q, err);
    h.push(err);
  }
  h.push(q);
  return h;
}

/// Exact product: the sum of e scaled by each component of f.
template <std::size_t N, std::size_t M>
Expansion<2 * N * M> operator*(const Expansion<N>& e, const Expansion<M>& f) {
  Expansion<2 * N * M> r;
  for (std::size_t j = 0; j < f.n; ++j) {
    const Expansion<2 * N> part = scale(e, f.c[j]);
    // Accumulate in place: r holds at most 2 N j components before this step.
    const auto sum = r + part;
    for (std::size_t i = 0; i < sum.n; ++i) r.c[i] = sum.c[i];
    r.n = sum.n;
  }
  return r;
}

}  // namespace hitgrid::exact
