#include "hitgrid/core/time_of_impact.hpp"

#include <algorithm>
#include <cmath>

#include "adaptive_eval.hpp"
#include "hitgrid/core/detail/geometry_polynomials.hpp"

namespace hitgrid {
namespace {

using exact::adaptive_sign;
using exact::adaptive_value;

// All the polynomials take the same ten float inputs in the same order, so that one
// argument list serves every sign and value below.
struct Inputs {
  float c1x, c1y, r1, v1x, v1y, c2x, c2y, r2, v2x, v2y;
};

template <class Poly>
int sign_of(const Poly& p, const Inputs& in) {
  return adaptive_sign(p, in.c1x, in.c1y, in.r1, in.v1x, in.v1y, in.c2x, in.c2y, in.r2, in.v2x, in.v2y);
}

template <class Poly>
double value_of(const Poly& p, const Inputs& in) {
  return adaptive_value(p, in.c1x, in.c1y, in.r1, in.v1x, in.v1y, in.c2x, in.c2y, in.r2, in.v2x, in.v2y);
}

// g(t) = A t^2 + 2 B t + C, see time_of_impact.hpp and geometry_polynomials.hpp.
const auto start_gap = [](auto c1x, auto c1y, auto r1, auto, auto, auto c2x, auto c2y, auto r2, auto, auto) {
  return poly::toi_start_gap(c1x, c1y, r1, c2x, c2y, r2);
};
const auto end_gap = [](auto c1x, auto c1y, auto r1, auto v1x, auto v1y, auto c2x, auto c2y, auto r2, auto v2x,
                        auto v2y) { return poly::toi_end_gap(c1x, c1y, r1, v1x, v1y, c2x, c2y, r2, v2x, v2y); };
const auto coeff_b = [](auto c1x, auto c1y, auto, auto v1x, auto v1y, auto c2x, auto c2y, auto, auto v2x, auto v2y) {
  return poly::toi_b(c1x, c1y, v1x, v1y, c2x, c2y, v2x, v2y);
};
const auto coeff_a_plus_b = [](auto c1x, auto c1y, auto, auto v1x, auto v1y, auto c2x, auto c2y, auto, auto v2x,
                               auto v2y) { return poly::toi_a_plus_b(c1x, c1y, v1x, v1y, c2x, c2y, v2x, v2y); };
const auto discriminant = [](auto c1x, auto c1y, auto r1, auto v1x, auto v1y, auto c2x, auto c2y, auto r2, auto v2x,
                             auto v2y) {
  return poly::toi_discriminant(c1x, c1y, r1, v1x, v1y, c2x, c2y, r2, v2x, v2y);
};

}  // namespace

TimeOfImpact time_of_impact(const Circle& c1, Vec2 v1, const Circle& c2, Vec2 v2) {
  const Inputs in{c1.c.x, c1.c.y, c1.r, v1.x, v1.y, c2.c.x, c2.c.y, c2.r, v2.x, v2.y};
  TimeOfImpact r;
  const int c_sign = sign_of(start_gap, in);
  if (c_sign < 0) {
    r.kind = ToiKind::overlapping;
    return r;
  }
  if (c_sign == 0) {
    r.kind = ToiKind::touching;
    return r;
  }
  // C > 0: apart at t = 0. g is convex (A >= 0); on [0, 1] it reaches <= 0 iff it does at
  // t = 1, or its minimum lies inside (0, 1) and is <= 0. The minimum is at -B / A, inside
  // iff B < 0 and A + B > 0, and its value is -(B^2 - A C) / A. Zero relative velocity
  // gives A = B = 0: no contact.
  bool contact = sign_of(end_gap, in) <= 0;
  if (!contact) {
    contact = sign_of(coeff_b, in) < 0 && sign_of(coeff_a_plus_b, in) > 0 && sign_of(discriminant, in) >= 0;
  }
  if (!contact) return r;
  r.kind = ToiKind::impact;
  // Contact after C > 0 implies B < 0 (if B >= 0, g(t) >= C > 0 for all t >= 0) and a real
  // root: the first root is C / (-B + sqrt(B^2 - A C)), a quotient of positive numbers.
  // Errors (u = 2^-53, rho ~ 2^-48 for each adaptive_value): sqrt adds rho / 2 + u, the sum
  // of two positives rho + 2u, the division 2 rho + 3u in all: < 2^-46.8 relative.
  const double cc = value_of(start_gap, in);
  const double b = value_of(coeff_b, in);
  const double disc = value_of(discriminant, in);
  const double t = cc / (-b + std::sqrt(disc));
  // t* lies in (0, 1]; clamping into it keeps the bound.
  r.t = std::min(t, 1.0);
  return r;
}

}  // namespace hitgrid
