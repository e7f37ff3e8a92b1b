// A reference for lines tangent to two circles (core/tangent_crossing.hpp) and for the rope
// around circle pegs: the line from its definition, its unit normal computed with a square
// root in 16,000-bit GMP floating point. Used by tests/core/test_tangent_crossing.cpp and
// tests/rope/test_rope.cpp.
//
// The library decides the same signs on big integers by removing the roots algebraically
// (core/src/radical_sign.hpp); here the root is simply computed, far more precisely than any
// nonzero quantity the tests compare can be small (sign_of_value), so the two share no
// formulation beyond the definition.
#pragma once

#include <gmpxx.h>

#include "hitgrid/core/tangent_crossing.hpp"

namespace hitgrid::reference {

constexpr mp_bitcnt_t tangent_precision = 16000;

inline mpf_class wide(float v) { return mpf_class(static_cast<double>(v), tangent_precision); }

/// Values this close to zero are zero: every nonzero quantity the tests compare (numbers of
/// degree up to about 20 in float inputs, with square roots) is above 2^-6000, and the
/// evaluation errs by less than 2^-15000.
inline int sign_of_value(const mpf_class& v) {
  static const mpf_class tiny = mpf_class(1, tangent_precision) >> 8000;
  return abs(v) < tiny ? 0 : sgn(v);
}

/// The line's unit normal n (to its left) and offset: f(x) = n . x + c; for a mirrored line,
/// f(2 b - x), by the definition; a grown line's signed radii include its growth. Its direction, and its tangent points
/// on a and b (for a mirrored line, their images through b).
struct TangentRef {
  mpf_class nx{0, tangent_precision}, ny{0, tangent_precision}, c{0, tangent_precision};
  mpf_class bx{0, tangent_precision}, by{0, tangent_precision};
  mpf_class ax_t{0, tangent_precision}, ay_t{0, tangent_precision};  // on a
  mpf_class tx{0, tangent_precision}, ty{0, tangent_precision};      // on b
  bool mirrored = false;

  explicit TangentRef(const TangentLine& l) : mirrored(l.mirrored) {
    const mpf_class ex = wide(l.b.c.x) - wide(l.a.c.x), ey = wide(l.b.c.y) - wide(l.a.c.y);
    const mpf_class ka = l.sa * wide(l.a.r) + wide(l.grow_a), kb0 = l.sb * wide(l.b.r) + wide(l.grow_b);
    const mpf_class rho = kb0 - ka;
    const mpf_class len2 = ex * ex + ey * ey;
    const mpf_class root = sqrt(mpf_class(len2 - rho * rho, tangent_precision));
    nx = (rho * ex - root * ey) / len2;
    ny = (rho * ey + root * ex) / len2;
    c = -(nx * wide(l.a.c.x) + ny * wide(l.a.c.y)) + ka;
    bx = wide(l.b.c.x);
    by = wide(l.b.c.y);
    const int m = mirrored ? -1 : 1;
    const mpf_class kb = m * kb0;
    tx = bx - kb * nx;
    ty = by - kb * ny;
    ax_t = wide(l.a.c.x) - ka * nx;
    ay_t = wide(l.a.c.y) - ka * ny;
    if (mirrored) {
      ax_t = 2 * bx - ax_t;
      ay_t = 2 * by - ay_t;
    }
  }
  mpf_class f(const mpf_class& x, const mpf_class& y) const {
    if (mirrored) return nx * (2 * bx - x) + ny * (2 * by - y) + c;
    return nx * x + ny * y + c;
  }
  mpf_class f(Vec2 x) const { return f(wide(x.x), wide(x.y)); }
  /// The direction: n turned a quarter clockwise, reversed when mirrored.
  mpf_class dx() const { return mirrored ? mpf_class(-ny) : ny; }
  mpf_class dy() const { return mirrored ? nx : mpf_class(-nx); }
};

}  // namespace hitgrid::reference
