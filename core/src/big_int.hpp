// BigInt: exact signed integers of any size, for the signs that expansions cannot reach.
//
// Expansions (expansion.hpp) are exact up to degree 6 in float32 inputs; past that a
// product can leave double's exponent range (a float32 is below 2^128, and 2^(128 k)
// overflows double for k >= 8). The rope's circle pegs need signs of polynomials of degree
// about 20 (the order in which a moving point crosses two lines tangent to circles: two
// square roots, removed by squaring twice, docs/rope.md). Those are evaluated on integers:
// every finite float32 is a multiple of 2^-149, so x * 2^149 (scaled()) is an integer of at
// most 277 bits, and a homogeneous polynomial of degree k in the scaled inputs is the
// polynomial in the inputs times 2^(149 k): the same sign. (Terms of lower degree are
// brought to the same scale with shifted().)
//
// Sign and magnitude, the magnitude in 32-bit limbs (their products and carries fit in 64
// bits, in standard C++), least significant first, with no leading zero limb (zero: no
// limbs, never negative). Plain schoolbook arithmetic: these numbers have at most two
// hundred limbs, and they are used only where a floating-point filter could not decide.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

namespace hitgrid::exact {

class BigInt {
 public:
  BigInt() = default;
  BigInt(std::int64_t v) : negative_(v < 0) {  // NOLINT: implicit, as an integer literal is
    const std::uint64_t m = v < 0 ? ~static_cast<std::uint64_t>(v) + 1 : static_cast<std::uint64_t>(v);
    if (m != 0) limbs_.push_back(static_cast<std::uint32_t>(m));
    if ((m >> 32) != 0) limbs_.push_back(static_cast<std::uint32_t>(m >> 32));
  }

  /// x * 2^149 (x a finite float): an integer, since every float is a multiple of 2^-149.
  static BigInt scaled(float x) {
    std::uint32_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    const std::uint32_t biased = (bits >> 23) & 0xffu;
    std::uint64_t mantissa = bits & 0x7fffffu;
    // x = mantissa * 2^(e - 149) with e = biased - 1 (normal, with the hidden bit) or 0
    // (subnormal); so x * 2^149 = mantissa * 2^e.
    int e = 0;
    if (biased != 0) {
      mantissa |= 0x800000u;
      e = static_cast<int>(biased) - 1;
    }
    BigInt r(static_cast<std::int64_t>(mantissa));
    r = r.shifted(e);
    if ((bits >> 31) != 0 && r.sign() != 0) r.negative_ = true;
    return r;
  }

  int sign() const { return limbs_.empty() ? 0 : (negative_ ? -1 : 1); }

  /// The value times 2^-bits, rounded to a double (within 2^-52 relatively: the top 64
  /// bits, truncated, then rounded once more), for the few values that are reported and
  /// not compared. Values past double's range give infinity or 0.
  double to_double(int bits) const {
    if (limbs_.empty()) return 0.0;
    const std::size_t n = limbs_.size();
    std::uint64_t top = limbs_[n - 1];
    int shift = 32 * static_cast<int>(n - 1);
    if (n >= 2) {
      top = top << 32 | limbs_[n - 2];
      shift -= 32;
    }
    const double v = std::ldexp(static_cast<double>(top), shift - bits);
    return negative_ ? -v : v;
  }
  const std::vector<std::uint32_t>& limbs() const { return limbs_; }

  /// *this * 2^bits (bits >= 0).
  BigInt shifted(int bits) const {
    if (limbs_.empty() || bits == 0) return *this;
    const auto whole = static_cast<std::size_t>(bits / 32);
    const int part = bits % 32;
    BigInt r;
    r.negative_ = negative_;
    r.limbs_.assign(whole, 0);
    std::uint32_t carry = 0;
    for (std::uint32_t l : limbs_) {
      r.limbs_.push_back(part == 0 ? l : (l << part) | carry);
      carry = part == 0 ? 0 : l >> (32 - part);
    }
    if (carry != 0) r.limbs_.push_back(carry);
    return r;
  }

  BigInt operator-() const {
    BigInt r = *this;
    if (!r.limbs_.empty()) r.negative_ = !r.negative_;
    return r;
  }

  friend BigInt operator+(const BigInt& a, const BigInt& b) {
    if (a.negative_ == b.negative_) return signed_magnitude(a.negative_, add(a.limbs_, b.limbs_));
    // Opposite signs: the larger magnitude's sign, the difference of the magnitudes.
    const int c = compare_magnitudes(a.limbs_, b.limbs_);
    if (c == 0) return {};
    return c > 0 ? signed_magnitude(a.negative_, subtract(a.limbs_, b.limbs_))
                 : signed_magnitude(b.negative_, subtract(b.limbs_, a.limbs_));
  }
  friend BigInt operator-(const BigInt& a, const BigInt& b) { return a + (-b); }
  friend BigInt operator*(const BigInt& a, const BigInt& b) {
    if (a.limbs_.empty() || b.limbs_.empty()) return {};
    return signed_magnitude(a.negative_ != b.negative_, multiply(a.limbs_, b.limbs_));
  }
  friend bool operator==(const BigInt& a, const BigInt& b) = default;

  /// The sign of a - b.
  friend int compare(const BigInt& a, const BigInt& b) { return (a - b).sign(); }

 private:
  using Limbs = std::vector<std::uint32_t>;

  static BigInt signed_magnitude(bool negative, Limbs&& magnitude) {
    BigInt r;
    while (!magnitude.empty() && magnitude.back() == 0) magnitude.pop_back();
    r.limbs_ = std::move(magnitude);
    r.negative_ = negative && !r.limbs_.empty();
    return r;
  }

  static int compare_magnitudes(const Limbs& a, const Limbs& b) {
    if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
    for (std::size_t i = a.size(); i-- > 0;)
      if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    return 0;
  }

  static Limbs add(const Limbs& a, const Limbs& b) {
    const Limbs& longer = a.size() >= b.size() ? a : b;
    const Limbs& shorter = a.size() >= b.size() ? b : a;
    Limbs r(longer.size() + 1, 0);
    std::uint64_t carry = 0;
    for (std::size_t i = 0; i < longer.size(); ++i) {
      const std::uint64_t s = std::uint64_t{longer[i]} + (i < shorter.size() ? shorter[i] : 0u) + carry;
      r[i] = static_cast<std::uint32_t>(s);
      carry = s >> 32;
    }
    r[longer.size()] = static_cast<std::uint32_t>(carry);
    return r;
  }

  /// a - b, |a| >= |b|.
  static Limbs subtract(const Limbs& a, const Limbs& b) {
    Limbs r(a.size(), 0);
    std::uint64_t borrow = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
      const std::uint64_t need = std::uint64_t{i < b.size() ? b[i] : 0u} + borrow;
      borrow = a[i] < need ? 1 : 0;
      r[i] = static_cast<std::uint32_t>((std::uint64_t{a[i]} | borrow << 32) - need);
    }
    return r;
  }

  static Limbs multiply(const Limbs& a, const Limbs& b) {
    Limbs r(a.size() + b.size(), 0);
    for (std::size_t i = 0; i < a.size(); ++i) {
      std::uint64_t carry = 0;
      for (std::size_t j = 0; j < b.size(); ++j) {
        // At most (2^32 - 1)^2 + 2 (2^32 - 1) = 2^64 - 1: no overflow.
        const std::uint64_t p = std::uint64_t{a[i]} * b[j] + r[i + j] + carry;
        r[i + j] = static_cast<std::uint32_t>(p);
        carry = p >> 32;
      }
      r[i + b.size()] = static_cast<std::uint32_t>(carry);
    }
    return r;
  }

  bool negative_ = false;
  Limbs limbs_;
};

}  // namespace hitgrid::exact
