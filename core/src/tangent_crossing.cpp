#include "hitgrid/core/tangent_crossing.hpp"

#include <cmath>

#include "big_int.hpp"
#include "hitgrid/core/line_crossing.hpp"
#include "hitgrid/core/predicates.hpp"
#include "radical_sign.hpp"

namespace hitgrid {
namespace {

using exact::BigInt;
using exact::multiply;
using exact::WithRoot;

/// A point scaled to integers (x 2^149, big_int.hpp).
struct BigPoint {
  BigInt x, y;
  explicit BigPoint(Vec2 p) : x(BigInt::scaled(p.x)), y(BigInt::scaled(p.y)) {}
  BigPoint(BigInt x_, BigInt y_) : x(std::move(x_)), y(std::move(y_)) {}
};

/// A line's parts on the inputs scaled to integers: e = b - a, rho = sb rb - sa ra, |e|^2,
/// D = |e|^2 - rho^2, and sa ra. Every product below is homogeneous in these, so the scale
/// does not change a sign.
struct Parts {
  BigInt ax, ay, bx, by, ex, ey, rho, length2, d, own;
  bool mirrored;

  explicit Parts(const TangentLine& l)
      : ax(BigInt::scaled(l.a.c.x)),
        ay(BigInt::scaled(l.a.c.y)),
        bx(BigInt::scaled(l.b.c.x)),
        by(BigInt::scaled(l.b.c.y)),
        ex(bx - ax),
        ey(by - ay),
        rho(signed_radius(l.sb, l.b.r) - signed_radius(l.sa, l.a.r)),
        length2(ex * ex + ey * ey),
        d(length2 - rho * rho),
        own(signed_radius(l.sa, l.a.r)),
        mirrored(l.mirrored) {}

  static BigInt signed_radius(int side, float r) { return side > 0 ? BigInt::scaled(r) : -BigInt::scaled(r); }

  /// Where f is evaluated for x: x itself, or its image through b's centre when the line is
  /// mirrored (f_mirrored(x) = f(2 b - x)).
  BigPoint image(Vec2 x) const {
    BigPoint p(x);
    if (!mirrored) return p;
    return {bx.shifted(1) - p.x, by.shifted(1) - p.y};
  }

  /// |e|^2 f(x) = rho (e . w) + sa ra |e|^2 + sqrt(D) (perp(e) . w), w = x - a.
  WithRoot at(Vec2 x) const {
    const BigPoint p = image(x);
    const BigInt wx = p.x - ax, wy = p.y - ay;
    return {rho * (ex * wx + ey * wy) + own * length2, ex * wy - ey * wx};
  }

  /// |e|^2 (f(p) - f(q)): the sign of a crossing time's denominator (0: parallel to the
  /// path).
  WithRoot approach(Vec2 p, Vec2 q) const {
    const BigPoint u = image(p), v = image(q);
    const BigInt vx = u.x - v.x, vy = u.y - v.y;
    return {rho * (ex * vx + ey * vy), ex * vy - ey * vx};
  }

  /// |e|^2 times the line's unit direction, (sqrt(D) e - rho perp(e)): its components. The
  /// left normal n turned a quarter clockwise; reversed for a mirrored line.
  WithRoot dir_x() const { return mirrored ? WithRoot{-(rho * ey), -ex} : WithRoot{rho * ey, ex}; }
  WithRoot dir_y() const { return mirrored ? WithRoot{rho * ex, -ey} : WithRoot{-(rho * ex), ey}; }

  /// |e|^2 d . (v - u).
  WithRoot along(const BigPoint& u, const BigPoint& v) const {
    const BigInt wx = v.x - u.x, wy = v.y - u.y;
    const WithRoot x = dir_x(), y = dir_y();
    return {x.a * wx + y.a * wy, x.b * wx + y.b * wy};
  }
};

bool points_only(const TangentLine& l) { return l.a.r == 0.0f && l.b.r == 0.0f; }

WithRoot times(const WithRoot& x, const BigInt& k) { return {x.a * k, x.b * k}; }

/// The sign of x y' - x' y... for two numbers x (root d1) and y (root d2): x y as
/// p + q sqrt(d2) with p, q in Z[sqrt(d1)].
struct Mixed {
  WithRoot p, q;
};
Mixed product(const WithRoot& x, const WithRoot& y) { return {times(x, y.a), times(x, y.b)}; }
Mixed operator-(const Mixed& u, const Mixed& v) { return {u.p - v.p, u.q - v.q}; }
Mixed operator+(const Mixed& u, const Mixed& v) { return {u.p + v.p, u.q + v.q}; }

}  // namespace

bool tangent_exists(const TangentLine& line) { return Parts(line).d.sign() > 0; }

int side_of(const TangentLine& line, Vec2 x) {
  if (points_only(line)) return (line.mirrored ? -1 : 1) * orient2d(line.a.c, line.b.c, x);
  const Parts l(line);
  return exact::sign_of(l.at(x), l.d);
}

int compare_tangent_crossings(Vec2 p, Vec2 q, const TangentLine& line1, const TangentLine& line2) {
  // A mirrored line of points is the line itself; only where it is matters here.
  if (points_only(line1) && points_only(line2))
    return compare_crossings(p, q, line1.a.c, line1.b.c, line2.a.c, line2.b.c);
  const Parts l1(line1), l2(line2);
  const WithRoot g1 = l1.approach(p, q), g2 = l2.approach(p, q);
  const int d1 = exact::sign_of(g1, l1.d), d2 = exact::sign_of(g2, l2.d);
  if (d1 == 0 || d2 == 0) return (d1 == 0) - (d2 == 0);  // never crossed: last
  // t1 - t2 = (F1 G2 - F2 G1) / (G1 G2) with F = |e|^2 f(p), G = |e|^2 (f(p) - f(q)); as
  // P + Q sqrt(D2) with P, Q in Z[sqrt(D1)]:
  //   P = F1 G2.a - F2.a G1,  Q = F1 G2.b - F2.b G1.
  const WithRoot f1 = l1.at(p), f2 = l2.at(p);
  const WithRoot big_p = times(f1, g2.a) - times(g1, f2.a);
  const WithRoot big_q = times(f1, g2.b) - times(g1, f2.b);
  return exact::sign_of(big_p, big_q, l1.d, l2.d) * d1 * d2;
}

int along(const TangentLine& line, Vec2 u, Vec2 v) {
  if (points_only(line) && !line.mirrored) {
    if (u == line.a.c) return dot_sign(u, line.b.c, v);   // (b - u) . (v - u)
    if (u == line.b.c) return -dot_sign(u, line.a.c, v);  // (b - a) . (v - b) = -(a - u) . (v - u)
  }
  const Parts l(line);
  return exact::sign_of(l.along(BigPoint(u), BigPoint(v)), l.d);
}

int direction_cross(const TangentLine& line1, const TangentLine& line2) {
  if (points_only(line1) && points_only(line2) && line1.a.c == line2.a.c)
    return (line1.mirrored != line2.mirrored ? -1 : 1) * orient2d(line1.a.c, line1.b.c, line2.b.c);
  const Parts l1(line1), l2(line2);
  const Mixed m = product(l1.dir_x(), l2.dir_y()) - product(l1.dir_y(), l2.dir_x());
  return exact::sign_of(m.p, m.q, l1.d, l2.d);
}

int direction_dot(const TangentLine& line1, const TangentLine& line2) {
  if (points_only(line1) && points_only(line2) && line1.a.c == line2.a.c)
    return (line1.mirrored != line2.mirrored ? -1 : 1) * dot_sign(line1.a.c, line1.b.c, line2.b.c);
  const Parts l1(line1), l2(line2);
  const Mixed m = product(l1.dir_x(), l2.dir_x()) + product(l1.dir_y(), l2.dir_y());
  return exact::sign_of(m.p, m.q, l1.d, l2.d);
}

int crossing_beyond_tangent_point(Vec2 p, Vec2 q, const TangentLine& line) {
  const Parts l(line);
  const WithRoot g = l.approach(p, q);
  const int gs = exact::sign_of(g, l.d);
  if (gs == 0) return 0;
  // |e|^2 d . (X - T) = A1 + t A2 with t = F / G (d is perpendicular to n, so the tangent
  // point T = b - sb rb n may be replaced by b): A1 = |e|^2 d . (p - b), A2 = |e|^2 d . (q - p).
  const BigPoint bp(p), bq(q), bb(l.bx, l.by);
  const WithRoot a1 = l.along(bb, bp), a2 = l.along(bp, bq), f = l.at(p);
  const WithRoot x = multiply(a1, g, l.d), y = multiply(f, a2, l.d);
  return exact::sign_of(WithRoot{x.a + y.a, x.b + y.b}, l.d) * gs;
}

TangentGeometry tangent_geometry(const TangentLine& line) {
  const double ax = line.a.c.x, ay = line.a.c.y, bx = line.b.c.x, by = line.b.c.y;
  const double ex = bx - ax, ey = by - ay;
  TangentGeometry g{};
  if (points_only(line)) {
    g.length = std::sqrt(ex * ex + ey * ey);
    g = {ax, ay, bx, by, ex / g.length, ey / g.length, g.length};
  } else {
    // D exactly (in units of 2^-298, big_int.hpp), so that the root of a small D (circles
    // nearly touching) is as accurate as any other.
    const double root = std::sqrt(Parts(line).d.to_double(298));
    const double ka = line.sa * static_cast<double>(line.a.r), kb = line.sb * static_cast<double>(line.b.r);
    const double rho = kb - ka, length2 = ex * ex + ey * ey;
    // n = (rho e + sqrt(D) perp(e)) / |e|^2 and d = (sqrt(D) e - rho perp(e)) / |e|^2: sums of
    // two orthogonal vectors, so no cancellation.
    const double nx = (rho * ex - root * ey) / length2, ny = (rho * ey + root * ex) / length2;
    g = {ax - ka * nx, ay - ka * ny, bx - kb * nx, by - kb * ny, ny, -nx, root};
  }
  if (line.mirrored) {
    // Through b's centre, the other way.
    g = {2 * bx - g.ax, 2 * by - g.ay, 2 * bx - g.bx, 2 * by - g.by, -g.dx, -g.dy, g.length};
  }
  return g;
}

}  // namespace hitgrid
