// ExactSum: the exact sum of any number of doubles, as a growing expansion.
//
// The fixed-capacity Expansion<N> of expansion.hpp sizes its storage from its operands at
// compile time, which cannot express "the sum of n terms" for a run-time n (a polygon's
// signed area). ExactSum keeps its components in a vector and adds one double at a time
// with Shewchuk's GROW-EXPANSION plus zero elimination (Shewchuk 1997, Theorem 10): the
// components stay nonoverlapping and in increasing magnitude, so the largest one carries
// the sign of the exact sum.
//
// Memory stays small whatever n is: nonoverlapping components occupy disjoint bit ranges,
// so for terms that are products of two float32s (multiples of 2^-298 below 2^256) plus
// carries, there can never be more than about 600 components; in practice there are one
// to three. Each add costs O(components).
//
// Exact as long as no partial sum overflows: for products of float32s that needs more than
// 2^700 terms.
#pragma once

#include <cstddef>
#include <vector>

#include "expansion.hpp"

namespace hitgrid::exact {

class ExactSum {
 public:
  /// Add x (finite) exactly.
  void add(double x) {
    if (x == 0.0) return;
    // GROW-EXPANSION in place: the carry q absorbs each component in increasing order; the
    // roundoff of each step is a new, smaller component. The write index never passes the
    // read index, so one array suffices.
    double q = x;
    std::size_t out = 0;
    for (std::size_t i = 0; i < h_.size(); ++i) {
      double sum, err;
      two_sum(q, h_[i], sum, err);
      q = sum;
      if (err != 0.0) h_[out++] = err;
    }
    h_.resize(out);
    if (q != 0.0) h_.push_back(q);
  }

  /// Add a * b exactly (two_product: the rounded product and its roundoff).
  void add_product(double a, double b) {
    double p, err;
    two_product(a, b, p, err);
    add(err);
    add(p);
  }

  /// -1, 0 or +1: the sign of the exact sum.
  int sign() const { return h_.empty() ? 0 : (h_.back() > 0.0 ? 1 : -1); }

  /// Number of live components (for tests and for reasoning about cost).
  std::size_t size() const { return h_.size(); }
  const std::vector<double>& components() const { return h_; }

 private:
  std::vector<double> h_;  // nonzero, nonoverlapping, increasing magnitude
};

}  // namespace hitgrid::exact
