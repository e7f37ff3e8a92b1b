// BigInt (core/src/big_int.hpp): scaled floats and sums, differences and products of any
// size against GMP integers, over every kind of float (zeros, subnormals, the largest
// float, both signs) and products up to degree 24.
#include "big_int.hpp"

#include <catch2/catch.hpp>
#include <gmpxx.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "geometry_reference.hpp"

namespace hitgrid::exact {
namespace {

using geomtest::Rng;

mpz_class to_mpz(const BigInt& x) {
  mpz_class r;
  const auto& limbs = x.limbs();
  if (!limbs.empty()) mpz_import(r.get_mpz_t(), limbs.size(), -1, sizeof(std::uint32_t), 0, 0, limbs.data());
  return x.sign() < 0 ? mpz_class(-r) : r;
}

/// x * 2^149 through double and frexp: independent of scaled()'s reading of the bits.
mpz_class scaled_reference(float x) {
  int e = 0;
  const double f = std::frexp(static_cast<double>(x), &e);  // x = f 2^e, |f| in [0.5, 1)
  const mpz_class m(static_cast<long>(std::ldexp(f, 53)));  // x = m 2^(e - 53), exactly
  const int shift = e - 53 + 149;
  mpz_class r = m;
  if (shift >= 0) {
    mpz_mul_2exp(r.get_mpz_t(), m.get_mpz_t(), static_cast<mp_bitcnt_t>(shift));
  } else {
    REQUIRE(mpz_divisible_2exp_p(m.get_mpz_t(), static_cast<mp_bitcnt_t>(-shift)));
    mpz_tdiv_q_2exp(r.get_mpz_t(), m.get_mpz_t(), static_cast<mp_bitcnt_t>(-shift));
  }
  return r;
}

float any_float(Rng& rng) {
  switch (rng.between(0, 5)) {
    case 0: return geomtest::random_float(rng);
    case 1: {  // any bits that make a finite float
      for (;;) {
        const auto bits = static_cast<std::uint32_t>(rng.next());
        float f;
        std::memcpy(&f, &bits, sizeof f);
        if (std::isfinite(f)) return f;
      }
    }
    case 2: return rng.chance(0.5) ? std::numeric_limits<float>::max() : -std::numeric_limits<float>::max();
    case 3: return (rng.chance(0.5) ? 1 : -1) * std::numeric_limits<float>::denorm_min() * static_cast<float>(rng.between(1, 9));
    case 4: return rng.chance(0.5) ? 0.0f : -0.0f;
    default: return static_cast<float>(rng.between(-3, 3));
  }
}

}  // namespace

TEST_CASE("BigInt: hand-worked", "[exact][big_int]") {
  CHECK(BigInt().sign() == 0);
  CHECK(BigInt(-5).sign() == -1);
  CHECK((BigInt(7) - BigInt(7)).sign() == 0);
  CHECK((BigInt(7) - BigInt(7)) == BigInt());  // zero is never negative
  CHECK((-BigInt(0)) == BigInt());
  CHECK(to_mpz(BigInt(std::numeric_limits<std::int64_t>::min())) == mpz_class("-9223372036854775808"));
  CHECK(to_mpz(BigInt(1).shifted(200)) == mpz_class("1606938044258990275541962092341162602522202993782792835301376"));
  CHECK(to_mpz(BigInt::scaled(1.0f)) == mpz_class(1) << 149);
  CHECK(to_mpz(BigInt::scaled(-0.0f)) == 0);
  CHECK(BigInt::scaled(-0.0f).sign() == 0);
  CHECK(to_mpz(BigInt::scaled(std::numeric_limits<float>::denorm_min())) == 1);
  CHECK(compare(BigInt(3), BigInt(-4)) == 1);
  CHECK(compare(BigInt(-3), BigInt(-3)) == 0);
  // Carries and borrows across every limb.
  const BigInt ones = BigInt(1).shifted(256) - BigInt(1);
  CHECK(to_mpz(ones + BigInt(1)) == mpz_class(1) << 256);
  CHECK(to_mpz(BigInt(1).shifted(256) - ones) == 1);
  CHECK(to_mpz(ones * ones) == (mpz_class(1) << 512) - (mpz_class(1) << 257) + 1);
}

TEST_CASE("BigInt: scaled floats are x * 2^149, exactly", "[exact][big_int]") {
  Rng rng(20261126);
  for (int i = 0; i < 20000; ++i) {
    const float x = any_float(rng);
    INFO(geomtest::hex(x));
    REQUIRE(to_mpz(BigInt::scaled(x)) == scaled_reference(x));
  }
}

TEST_CASE("BigInt: sums, differences, products and shifts agree with GMP", "[exact][big_int]") {
  Rng rng(7);
  for (int round = 0; round < 3000; ++round) {
    // A random polynomial-like expression: products of up to 24 scaled floats, summed.
    BigInt acc;
    mpz_class want;
    const int terms = rng.between(1, 6);
    for (int t = 0; t < terms; ++t) {
      BigInt p(1);
      mpz_class q = 1;
      const int degree = rng.between(0, 24);
      for (int k = 0; k < degree; ++k) {
        const float x = any_float(rng);
        p = p * BigInt::scaled(x);
        q *= scaled_reference(x);
      }
      const int shift = rng.between(0, 130);
      p = p.shifted(shift);
      q <<= shift;
      if (rng.chance(0.5)) {
        acc = acc + p;
        want += q;
      } else {
        acc = acc - p;
        want -= q;
      }
      REQUIRE(to_mpz(acc) == want);
      REQUIRE(acc.sign() == sgn(want));
    }
    // Cancellation: x - x, and (x + y) - y.
    const BigInt y = BigInt::scaled(any_float(rng)) * BigInt::scaled(any_float(rng));
    REQUIRE((acc - acc).sign() == 0);
    REQUIRE(((acc + y) - y) == acc);
    REQUIRE(compare(acc + y, acc) == y.sign());
  }
}

}  // namespace hitgrid::exact
