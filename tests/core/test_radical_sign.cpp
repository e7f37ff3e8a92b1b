// Signs of numbers with square roots (core/src/radical_sign.hpp) against references that
// do not square: a + b sqrt(d) through GMP's integer square root (the floor of sqrt(b^2 d)
// bounds the root to an open interval of width one, which decides the sign of an integer
// plus it), and p + q sqrt(e) through 4,000-bit floating point; on random numbers, on
// numbers built to cancel exactly (zero), and one unit away from cancelling.
#include "radical_sign.hpp"

#include <catch2/catch.hpp>
#include <gmpxx.h>

#include "geometry_reference.hpp"

namespace hitgrid::exact {
namespace {

using geomtest::Rng;

BigInt from_mpz(const mpz_class& x) {
  std::vector<std::uint32_t> limbs((mpz_sizeinbase(x.get_mpz_t(), 2) + 31) / 32 + 1, 0);
  std::size_t n = 0;
  mpz_export(limbs.data(), &n, -1, sizeof(std::uint32_t), 0, 0, x.get_mpz_t());
  BigInt r;
  for (std::size_t i = n; i-- > 0;) r = r.shifted(32) + BigInt(std::int64_t{limbs[i]});
  return sgn(x) < 0 ? -r : r;
}

/// sign(a + b sqrt(d)) without squaring the sum: r = floor(sqrt(b^2 d)) puts b sqrt(d)
/// within (r, r + 1) (or at r exactly), and a is an integer.
int reference(const mpz_class& a, const mpz_class& b, const mpz_class& d) {
  if (sgn(b) == 0 || sgn(d) == 0) return sgn(a);
  const mpz_class t = b * b * d;
  mpz_class r;
  mpz_sqrt(r.get_mpz_t(), t.get_mpz_t());
  if (r * r == t) return sgn(b) > 0 ? sgn(a + r) : sgn(a - r);
  if (sgn(b) > 0) return a + r >= 0 ? 1 : -1;  // a + r <= -1 puts the sum below a + r + 1 <= 0
  return a - r <= 0 ? -1 : 1;
}

/// A random integer of up to `bits` bits, either sign, often small.
mpz_class random_integer(Rng& rng, int bits) {
  if (rng.chance(0.1)) return rng.between(-3, 3);
  mpz_class r = 0;
  const int n = rng.between(1, bits);
  for (int i = 0; i < n; i += 32) r = (r << 32) + static_cast<unsigned long>(rng.next() & 0xffffffffu);
  r >>= (n % 32 == 0 ? 0 : 32 - n % 32);
  return rng.chance(0.5) ? mpz_class(-r) : r;
}
mpz_class random_natural(Rng& rng, int bits) { return abs(random_integer(rng, bits)); }

/// floor(sqrt(x)), x >= 0.
mpz_class isqrt(const mpz_class& x) {
  mpz_class r;
  mpz_sqrt(r.get_mpz_t(), x.get_mpz_t());
  return r;
}

}  // namespace

TEST_CASE("sign of a + b sqrt(d): hand-worked", "[exact][radical_sign]") {
  CHECK(sign_of(WithRoot{3, 1}, BigInt(4)) == 1);
  CHECK(sign_of(WithRoot{-3, 1}, BigInt(9)) == 0);
  CHECK(sign_of(WithRoot{-3, 1}, BigInt(8)) == -1);
  CHECK(sign_of(WithRoot{-3, 1}, BigInt(10)) == 1);
  CHECK(sign_of(WithRoot{3, -1}, BigInt(10)) == -1);
  CHECK(sign_of(WithRoot{0, -1}, BigInt(2)) == -1);
  CHECK(sign_of(WithRoot{-2, 5}, BigInt(0)) == -1);
  // sqrt(2) + sqrt(3) > 0; (1 + sqrt(2)) - sqrt(2) = 1.
  CHECK(sign_of(WithRoot{0, 1}, WithRoot{1, 0}, BigInt(2), BigInt(3)) == 1);
  CHECK(sign_of(WithRoot{1, 1}, WithRoot{-1, 0}, BigInt(2), BigInt(2)) == 1);
  // Both roots mixed: (sqrt 2 - 1) + (sqrt 2 - 1) sqrt 3 = 1.13 > 0; (1 - sqrt 2) +
  // (sqrt 2 - 1) sqrt 3 = 0.30 > 0 (the parts' signs differ); and its negation.
  CHECK(sign_of(WithRoot{-1, 1}, WithRoot{-1, 1}, BigInt(2), BigInt(3)) == 1);
  CHECK(sign_of(WithRoot{1, -1}, WithRoot{-1, 1}, BigInt(2), BigInt(3)) == 1);
  CHECK(sign_of(WithRoot{-1, 1}, WithRoot{1, -1}, BigInt(2), BigInt(3)) == -1);
  // sqrt(2) * 3 - sqrt(18) = 0 and sqrt(2) * 3 - sqrt(17) > 0, sqrt(2) * 3 - sqrt(19) < 0.
  CHECK(sign_of(WithRoot{0, 3}, WithRoot{-1, 0}, BigInt(2), BigInt(18)) == 0);
  CHECK(sign_of(WithRoot{0, 3}, WithRoot{-1, 0}, BigInt(2), BigInt(17)) == 1);
  CHECK(sign_of(WithRoot{0, 3}, WithRoot{-1, 0}, BigInt(2), BigInt(19)) == -1);
}

TEST_CASE("sign of a + b sqrt(d) agrees with the integer square root", "[exact][radical_sign]") {
  Rng rng(11);
  for (int i = 0; i < 20000; ++i) {
    const mpz_class d = rng.chance(0.05) ? mpz_class(0) : random_natural(rng, 600);
    mpz_class b = random_integer(rng, 300), a = random_integer(rng, 600);
    switch (rng.between(0, 2)) {
      case 0: break;
      case 1: {  // close to cancelling: a = -/+ floor(sqrt(b^2 d)) + small
        a = (sgn(b) > 0 ? -1 : 1) * isqrt(b * b * d) + rng.between(-2, 2);
        break;
      }
      default: {  // exactly cancelling: d a square
        const mpz_class s = random_natural(rng, 250);
        const mpz_class dd = s * s;
        a = -b * s + (rng.chance(0.5) ? 0 : rng.between(-1, 1));
        REQUIRE(sign_of(WithRoot{from_mpz(a), from_mpz(b)}, from_mpz(dd)) == reference(a, b, dd));
        continue;
      }
    }
    INFO("a " << a << " b " << b << " d " << d);
    REQUIRE(sign_of(WithRoot{from_mpz(a), from_mpz(b)}, from_mpz(d)) == reference(a, b, d));
  }
}

TEST_CASE("sign of p + q sqrt(e) with p, q in Z[sqrt(d)] agrees with 4000-bit floating point",
          "[exact][radical_sign]") {
  Rng rng(12);
  const mp_bitcnt_t precision = 4000;
  int zeros = 0;
  for (int i = 0; i < 6000; ++i) {
    const mpz_class d = random_natural(rng, 200), e0 = random_natural(rng, 200);
    const mpz_class pa = random_integer(rng, 200), pb = random_integer(rng, 100);
    const mpz_class qa = random_integer(rng, 100), qb = random_integer(rng, 50);
    mpz_class e = e0, pa_used = pa;
    int want = 0;
    switch (rng.between(0, 2)) {
      case 0: break;
      case 1: {
        // Exactly zero: e = d s^2 for a natural s, p = -(qa s sqrt(d) + qb s d), so that
        // q sqrt(e) = (qa + qb sqrt d) s sqrt(d) = qa s sqrt(d) + qb s d = -p.
        const mpz_class s = random_natural(rng, 60) + 1;
        e = d * s * s;
        const WithRoot p{from_mpz(mpz_class(-qb * s * d)), from_mpz(mpz_class(-qa * s))};
        REQUIRE(sign_of(p, WithRoot{from_mpz(qa), from_mpz(qb)}, from_mpz(d), from_mpz(e)) == 0);
        ++zeros;
        continue;
      }
      default: {
        // Near cancelling: pa chosen so that p + q sqrt(e) is within a few units of zero.
        const mpf_class qv = (mpf_class(qa, precision) + mpf_class(qb, precision) * sqrt(mpf_class(d, precision))) *
                             sqrt(mpf_class(e, precision));
        const mpf_class rest = mpf_class(pb, precision) * sqrt(mpf_class(d, precision)) + qv;
        mpf_class f = floor(mpf_class(-rest, precision));
        pa_used = mpz_class(f) + rng.between(-1, 1);
        break;
      }
    }
    const mpf_class value = mpf_class(pa_used, precision) + mpf_class(pb, precision) * sqrt(mpf_class(d, precision)) +
                            (mpf_class(qa, precision) + mpf_class(qb, precision) * sqrt(mpf_class(d, precision))) *
                                sqrt(mpf_class(e, precision));
    // The inputs have at most 200 bits, so a nonzero value of this form (an algebraic
    // integer of degree 4 whose conjugates are below 2^300) is above 2^-900, while the
    // 4000-bit evaluation errs by less than 2^-3000: below that it is zero.
    const mpf_class tiny = mpf_class(1, precision) >> 3000;
    want = abs(value) < tiny ? 0 : sgn(value);
    INFO("p " << pa_used << " + " << pb << " sqrt(" << d << "), q " << qa << " + " << qb << ", e " << e);
    REQUIRE(sign_of(WithRoot{from_mpz(pa_used), from_mpz(pb)}, WithRoot{from_mpz(qa), from_mpz(qb)}, from_mpz(d),
                    from_mpz(e)) == want);
  }
  CHECK(zeros > 1000);
}

}  // namespace hitgrid::exact
