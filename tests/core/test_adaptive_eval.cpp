// The private arithmetic behind the geometry functions (core/src/adaptive_eval.hpp):
// estimate() of an expansion, adaptive_value() and adaptive_sign(), against GMP, on
// inputs built to cancel (so that the exact path really runs).
#include "adaptive_eval.hpp"

#include <catch2/catch.hpp>

#include <cmath>

#include "hitgrid/core/detail/geometry_polynomials.hpp"
#include "geometry_reference.hpp"
#include "hitgrid/core/detail/predicate_counters.hpp"

namespace hitgrid {
namespace {

using namespace geomtest;

template <std::size_t N>
mpq_class value_of(const exact::Expansion<N>& e) {
  mpq_class s = 0;
  for (std::size_t i = 0; i < e.n; ++i) s += Q(e.c[i]);
  return s;
}

/// estimate(e) has the exact sign and relative error below 2^-52.
template <std::size_t N>
bool estimate_ok(const exact::Expansion<N>& e) {
  const mpq_class x = value_of(e);
  const double est = exact::estimate(e);
  const int s = (est > 0) - (est < 0);
  return s == sign_of(x) && within(est, x, pow2(-52) * qabs(x));
}

const auto cross3 = [](auto ax, auto ay, auto bx, auto by, auto cx, auto cy) {
  return poly::cross3(ax, ay, bx, by, cx, cy);
};
// The segment form (direction b - a) of the line-circle discriminant: degree 4.
const auto seg_disc = [](auto ax, auto ay, auto bx, auto by, auto cx, auto cy, auto r) {
  return poly::line_circle_discriminant(ax, ay, bx - ax, by - ay, cx, cy, r);
};
const auto toi_disc = [](auto c1x, auto c1y, auto r1, auto v1x, auto v1y, auto c2x, auto c2y, auto r2, auto v2x,
                         auto v2y) { return poly::toi_discriminant(c1x, c1y, r1, v1x, v1y, c2x, c2y, r2, v2x, v2y); };

/// Checks adaptive_value and adaptive_sign of poly at float inputs x against GMP.
template <class Poly, class... F>
bool adaptive_ok(const Poly& poly, F... x) {
  const mpq_class exact = poly(QN(static_cast<double>(x))...).v;
  const double v = exact::adaptive_value(poly, x...);
  const int s = exact::adaptive_sign(poly, x...);
  const int vs = (v > 0) - (v < 0);
  const bool ok = s == sign_of(exact) && vs == s && within(v, exact, Q(exact::adaptive_rho) * qabs(exact));
  // The expansion path on its own must be exact, and its estimate good.
  const auto e = poly(exact::Expansion<1>(static_cast<double>(x))...);
  return ok && value_of(e) == exact && estimate_ok(e);
}

}  // namespace

TEST_CASE("estimate: hand-built expansions", "[geometry][adaptive_eval]") {
  using E1 = exact::Expansion<1>;
  CHECK(exact::estimate(exact::Expansion<4>{}) == 0.0);
  CHECK(exact::estimate(E1(3.0)) == 3.0);
  // 1 + 2^-60 - 2^-120: the estimate is the double nearest to the sum, 1.
  const auto e = E1(1.0) + E1(0x1p-60) + E1(-0x1p-120);
  CHECK(e.n == 3);
  CHECK(exact::estimate(e) == 1.0);
  CHECK(estimate_ok(e));
  // 2^100 - 2^40 + 2^-10: heavy cancellation between the top components is impossible in
  // a nonoverlapping expansion, but close magnitudes are not.
  const auto f = E1(0x1p100) + E1(-0x1p40) + E1(0x1p-10) + E1(-0x1p-80);
  CHECK(estimate_ok(f));
  // x - x + tiny: only the tiny remains.
  const auto g = E1(12345.678) + E1(0x1p-900) - E1(12345.678);
  CHECK(exact::estimate(g) == 0x1p-900);
}

TEST_CASE("estimate: random expansions with cancellation", "[geometry][adaptive_eval]") {
  using E1 = exact::Expansion<1>;
  Rng rng(5);
  int failures = 0;
  for (int i = 0; i < 20000 && failures < 10; ++i) {
    // Terms at random binades, each next one cancelling part of the running sum.
    const double a = std::ldexp(1.0 + rng.unit(), rng.between(-200, 200));
    const double b = -a * (1.0 - std::ldexp(rng.unit(), -rng.between(0, 60)));
    const double c = std::ldexp(rng.unit() - 0.5, rng.between(-300, 100));
    const double d = std::ldexp(rng.unit() - 0.5, rng.between(-400, 0));
    const auto e = ((E1(a) + E1(b)) + E1(c)) + E1(d);
    const auto p = e * (E1(c) + E1(a));
    if (!estimate_ok(e) || !estimate_ok(p)) {
      ++failures;
      FAIL_CHECK("a " << a << " b " << b << " c " << c << " d " << d);
    }
  }
  CHECK(failures == 0);
}

TEST_CASE("adaptive_value / adaptive_sign against GMP", "[geometry][adaptive_eval]") {
  Rng rng(11);
  int failures = 0;
  const auto before = predicate_counters().exact_calls;
  for (int i = 0; i < 30000 && failures < 10; ++i) {
    const Frame& f = frames[rng.between(0, 4)];
    bool ok = true;
    switch (i % 4) {
      case 0: {  // random floats
        ok = adaptive_ok(cross3, random_float(rng), random_float(rng), random_float(rng), random_float(rng),
                         random_float(rng), random_float(rng));
        break;
      }
      case 1: {  // collinear lattice points (exact zero) and their one-ulp neighbours
        const int dx = rng.between(-3, 3), dy = rng.between(-3, 3);
        const Vec2 a = frame_point(f, 0, 0);
        const Vec2 b = frame_point(f, dx, dy);
        const Vec2 c = frame_point(f, rng.between(-3, 3) * dx, rng.between(-3, 3) * dy);
        ok = adaptive_ok(cross3, a.x, a.y, b.x, b.y, nudge(rng, c.x), nudge(rng, c.y));
        break;
      }
      case 2: {  // a segment tangent to a circle (3-4-5), sometimes one ulp off
        const int k = rng.between(1, 3);
        const Vec2 a = frame_point(f, -4 * k, 3 * k + rng.between(-1, 1));
        const Vec2 b = frame_point(f, 4 * k, 3 * k);
        const Vec2 c = frame_point(f, 0, 0);
        const float r = static_cast<float>(f.scale * 3 * k);
        ok = adaptive_ok(seg_disc, a.x, a.y, nudge(rng, b.x), b.y, c.x, c.y, nudge(rng, r));
        break;
      }
      default: {  // two circles passing at exactly touching distance, sometimes off by an ulp
        const float s = static_cast<float>(f.scale);
        ok = adaptive_ok(toi_disc, 0.0f, 0.0f, 2.0f * s, 1.0f * s, 0.0f, 0.0f, 5.0f * s, 1.0f * s, nudge(rng, 3.0f * s),
                         rng.chance(0.5) ? 0.0f : random_float(rng));
        break;
      }
    }
    if (!ok) {
      ++failures;
      FAIL_CHECK("case " << i);
    }
  }
  CHECK(failures == 0);
  // The degenerate families must have driven the exact path.
  CHECK(predicate_counters().exact_calls - before > 3000);
}

}  // namespace hitgrid
