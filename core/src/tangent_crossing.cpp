#include "hitgrid/core/tangent_crossing.hpp"

#include "big_int.hpp"
#include "radical_sign.hpp"

namespace hitgrid {
namespace {

using exact::BigInt;
using exact::WithRoot;

/// A line's parts on the inputs scaled to integers (x 2^149, big_int.hpp): e = b - a,
/// rho = sb rb - sa ra, |e|^2, D = |e|^2 - rho^2, and sa ra. Every product below is
/// homogeneous in these, so the scale does not change a sign.
struct Parts {
  BigInt ax, ay, ex, ey, rho, length2, d, own;

  explicit Parts(const TangentLine& l)
      : ax(BigInt::scaled(l.a.c.x)),
        ay(BigInt::scaled(l.a.c.y)),
        ex(BigInt::scaled(l.b.c.x) - ax),
        ey(BigInt::scaled(l.b.c.y) - ay),
        rho(signed_radius(l.sb, l.b.r) - signed_radius(l.sa, l.a.r)),
        length2(ex * ex + ey * ey),
        d(length2 - rho * rho),
        own(signed_radius(l.sa, l.a.r)) {}

  static BigInt signed_radius(int side, float r) { return side > 0 ? BigInt::scaled(r) : -BigInt::scaled(r); }

  /// |e|^2 f(x) = rho (e . w) + sa ra |e|^2 + sqrt(D) (perp(e) . w), w = x - a.
  WithRoot at(Vec2 x) const {
    const BigInt wx = BigInt::scaled(x.x) - ax, wy = BigInt::scaled(x.y) - ay;
    return {rho * (ex * wx + ey * wy) + own * length2, ex * wy - ey * wx};
  }

  /// |e|^2 (f(p) - f(q)) = rho (e . v) + sqrt(D) (perp(e) . v), v = p - q: the sign of a
  /// crossing time's denominator (0: parallel to the path).
  WithRoot approach(Vec2 p, Vec2 q) const {
    const BigInt vx = BigInt::scaled(p.x) - BigInt::scaled(q.x), vy = BigInt::scaled(p.y) - BigInt::scaled(q.y);
    return {rho * (ex * vx + ey * vy), ex * vy - ey * vx};
  }
};

}  // namespace

bool tangent_exists(const TangentLine& line) { return Parts(line).d.sign() > 0; }

int side_of(const TangentLine& line, Vec2 x) {
  const Parts l(line);
  return exact::sign_of(l.at(x), l.d);
}

int compare_tangent_crossings(Vec2 p, Vec2 q, const TangentLine& line1, const TangentLine& line2) {
  const Parts l1(line1), l2(line2);
  const WithRoot g1 = l1.approach(p, q), g2 = l2.approach(p, q);
  const int d1 = exact::sign_of(g1, l1.d), d2 = exact::sign_of(g2, l2.d);
  if (d1 == 0 || d2 == 0) return (d1 == 0) - (d2 == 0);  // never crossed: last
  // t1 - t2 = (F1 G2 - F2 G1) / (G1 G2) with F = |e|^2 f(p), G = |e|^2 (f(p) - f(q)); as
  // P + Q sqrt(D2) with P, Q in Z[sqrt(D1)]:
  //   P = F1 G2.a - F2.a G1,  Q = F1 G2.b - F2.b G1.
  const WithRoot f1 = l1.at(p), f2 = l2.at(p);
  auto times = [](const WithRoot& x, const BigInt& k) { return WithRoot{x.a * k, x.b * k}; };
  const WithRoot big_p = times(f1, g2.a) - times(g1, f2.a);
  const WithRoot big_q = times(f1, g2.b) - times(g1, f2.b);
  return exact::sign_of(big_p, big_q, l1.d, l2.d) * d1 * d2;
}

}  // namespace hitgrid
