// ExactSum (core/src/exact_sum.hpp): the exact sum of many doubles, against GMP, with the
// expansion invariants (nonoverlapping, increasing magnitude) checked after every add.
#include "exact_sum.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "geometry_reference.hpp"

namespace hitgrid {
namespace {

using namespace geomtest;

mpq_class value_of(const exact::ExactSum& s) {
  mpq_class v = 0;
  for (const double c : s.components()) v += Q(c);
  return v;
}

/// Components nonzero and strictly increasing in magnitude, each at least twice the
/// previous (a consequence of nonoverlapping: the smaller one fits below the larger one's
/// lowest set bit).
bool invariants_hold(const exact::ExactSum& s) {
  const auto& h = s.components();
  for (std::size_t i = 0; i < h.size(); ++i) {
    if (h[i] == 0.0) return false;
    if (i > 0 && !(std::fabs(h[i]) >= 2.0 * std::fabs(h[i - 1]))) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("ExactSum: hand-worked sums", "[geometry][exact_sum]") {
  exact::ExactSum s;
  CHECK(s.sign() == 0);
  s.add(1.0);
  s.add(0x1p-80);
  s.add(-1.0);
  CHECK(s.sign() == 1);
  CHECK(s.size() == 1);
  CHECK(s.components()[0] == 0x1p-80);
  s.add(-0x1p-80);
  CHECK(s.sign() == 0);
  CHECK(s.size() == 0);
  // 1e300 + 1 - 1e300 - 1 + 2^-1000 = 2^-1000
  s.add(1e300);
  s.add(1.0);
  s.add(-1e300);
  s.add(-1.0);
  s.add(0x1p-1000);
  CHECK(s.sign() == 1);
  CHECK(value_of(s) == pow2(-1000));
  // add_product: (2^27 + 1)^2 = 2^54 + 2^28 + 1 is not a double; the sum keeps it exactly.
  exact::ExactSum p;
  p.add_product(134217729.0, 134217729.0);
  p.add(-0x1p54);
  p.add(-0x1p28);
  CHECK(value_of(p) == 1);
}

TEST_CASE("ExactSum: random sums with cancellation against GMP", "[geometry][exact_sum]") {
  Rng rng(99);
  int failures = 0;
  std::size_t longest = 0;
  for (int trial = 0; trial < 400 && failures < 5; ++trial) {
    exact::ExactSum s;
    mpq_class ref = 0;
    std::vector<double> added;
    const int n = rng.between(1, 300);
    for (int i = 0; i < n; ++i) {
      double x;
      if (!added.empty() && rng.chance(0.4)) {
        x = -added[static_cast<std::size_t>(rng.between(0, static_cast<int>(added.size()) - 1))];  // cancel one
      } else {
        x = std::ldexp(rng.unit() - 0.5, rng.between(-300, 300));
      }
      added.push_back(x);
      s.add(x);
      ref += Q(x);
      if (!invariants_hold(s)) {
        ++failures;
        FAIL_CHECK("invariants broken, trial " << trial << " step " << i);
        break;
      }
    }
    longest = std::max(longest, s.size());
    if (value_of(s) != ref || s.sign() != sign_of(ref)) {
      ++failures;
      FAIL_CHECK("trial " << trial << ": wrong sum");
    }
  }
  CHECK(failures == 0);
  CHECK(longest > 3);  // the family does produce multi-component sums
}

}  // namespace hitgrid
