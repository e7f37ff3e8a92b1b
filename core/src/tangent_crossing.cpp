#include "hitgrid/core/tangent_crossing.hpp"

#include <cassert>
#include <cmath>
#include <limits>

#include "big_int.hpp"
#include "hitgrid/core/line_crossing.hpp"
#include "hitgrid/core/predicates.hpp"
#include "radical_sign.hpp"

namespace hitgrid {
namespace {

using exact::BigInt;
using exact::multiply;
using exact::WithRoot;

/// A double with a bound on its error, |exact - v| <= e: the floating-point filter in
/// front of the big integers. Each operation adds its own rounding, at most |v| 2^-52 (half
/// an ulp of the rounded result, with room), and 2^-1074 for a result that may be
/// subnormal; the products of the bounds round too, which the margin of sign_of covers.
/// Overflow gives infinity or NaN, which no sign is read from.
struct Approx {
  double v = 0.0, e = 0.0;

  static Approx of(float x) { return {x, 0.0}; }
  static double round_off(double x) { return std::fabs(x) * 0x1p-52 + 0x1p-1074; }
  Approx twice() const { return {2 * v, 2 * e}; }
  Approx operator-() const { return {-v, e}; }
  friend Approx operator+(const Approx& a, const Approx& b) {
    const double s = a.v + b.v;
    return {s, a.e + b.e + round_off(s)};
  }
  friend Approx operator-(const Approx& a, const Approx& b) { return a + -b; }
  friend Approx operator*(const Approx& a, const Approx& b) {
    const double p = a.v * b.v;
    return {p, std::fabs(a.v) * b.e + std::fabs(b.v) * a.e + a.e * b.e + round_off(p)};
  }
};

/// sqrt(d), or an unbounded error when d may be 0 or below (no bound on the root there).
Approx root(const Approx& d) {
  if (!(d.v - d.e > 0.0)) return {0.0, std::numeric_limits<double>::infinity()};
  const double r = std::sqrt(d.v), low = std::sqrt((d.v - d.e) * (1 - 0x1p-50));
  return {r, d.e / (low + r) * (1 + 0x1p-50) + Approx::round_off(r)};
}

/// The sign of x when its bound decides it; `decided` false otherwise.
int sign_of(const Approx& x, bool& decided) {
  const double margin = x.e * (1 + 0x1p-40);
  decided = std::isfinite(x.v) && std::isfinite(margin) && std::fabs(x.v) > margin;
  return x.v > 0 ? 1 : -1;
}

BigInt of(float x, const BigInt*) { return BigInt::scaled(x); }
Approx of(float x, const Approx*) { return Approx::of(x); }
BigInt twice(const BigInt& x) { return x.shifted(1); }
Approx twice(const Approx& x) { return x.twice(); }

/// a + b sqrt(D) for either number type (WithRoot for big integers).
template <class N>
struct Rooted {
  N a, b;
  friend Rooted operator+(const Rooted& x, const Rooted& y) { return {x.a + y.a, x.b + y.b}; }
  friend Rooted operator-(const Rooted& x, const Rooted& y) { return {x.a - y.a, x.b - y.b}; }
  Rooted times(const N& k) const { return {a * k, b * k}; }
};

template <class N>
struct Point {
  N x, y;
};
template <class N>
Point<N> point(Vec2 p) {
  return {of(p.x, static_cast<const N*>(nullptr)), of(p.y, static_cast<const N*>(nullptr))};
}

/// A line's parts: e = b - a, rho = kb - ka, |e|^2, D = |e|^2 - rho^2, and ka, as
/// big integers (the inputs scaled to integers: x 2^149, big_int.hpp; every product below
/// is homogeneous in them, so the scale does not change a sign) or as filtered doubles.
/// One polynomial for both: the filter answers when its bound decides, the integers
/// otherwise.
template <class N>
struct Parts {
  N ax, ay, bx, by, ex, ey, rho, length2, d, own;
  bool mirrored;

  explicit Parts(const TangentLine& l)
      : ax(of(l.a.c.x, static_cast<const N*>(nullptr))),
        ay(of(l.a.c.y, static_cast<const N*>(nullptr))),
        bx(of(l.b.c.x, static_cast<const N*>(nullptr))),
        by(of(l.b.c.y, static_cast<const N*>(nullptr))),
        ex(bx - ax),
        ey(by - ay),
        rho(signed_radius(l.sb, l.b.r, l.grow_b) - signed_radius(l.sa, l.a.r, l.grow_a)),
        length2(ex * ex + ey * ey),
        d(length2 - rho * rho),
        own(signed_radius(l.sa, l.a.r, l.grow_a)),
        mirrored(l.mirrored) {}

  /// side r + grow, exactly for big integers (both are multiples of 2^-149).
  static N signed_radius(int side, float r, float grow) {
    const N v = of(r, static_cast<const N*>(nullptr));
    const N k = side > 0 ? v : -v;
    return grow == 0.0f ? k : k + of(grow, static_cast<const N*>(nullptr));
  }

  /// Where f is evaluated for x: x itself, or its image through b's centre when the line is
  /// mirrored (f_mirrored(x) = f(2 b - x)).
  Point<N> image(Vec2 x) const {
    Point<N> p = point<N>(x);
    if (!mirrored) return p;
    return {twice(bx) - p.x, twice(by) - p.y};
  }

  /// |e|^2 f(x) = rho (e . w) + ka |e|^2 + sqrt(D) (perp(e) . w), w = x - a.
  Rooted<N> at(Vec2 x) const {
    const Point<N> p = image(x);
    const N wx = p.x - ax, wy = p.y - ay;
    return {rho * (ex * wx + ey * wy) + own * length2, ex * wy - ey * wx};
  }

  /// |e|^2 (f(p) - f(q)): the sign of a crossing time's denominator (0: parallel to the
  /// path).
  Rooted<N> approach(Vec2 p, Vec2 q) const {
    const Point<N> u = image(p), v = image(q);
    const N vx = u.x - v.x, vy = u.y - v.y;
    return {rho * (ex * vx + ey * vy), ex * vy - ey * vx};
  }

  /// |e|^2 times the line's unit direction, (sqrt(D) e - rho perp(e)): its components. The
  /// left normal n turned a quarter clockwise; reversed for a mirrored line.
  Rooted<N> dir_x() const { return mirrored ? Rooted<N>{-(rho * ey), -ex} : Rooted<N>{rho * ey, ex}; }
  Rooted<N> dir_y() const { return mirrored ? Rooted<N>{rho * ex, -ey} : Rooted<N>{-(rho * ex), ey}; }

  /// |e|^2 d . (v - u).
  Rooted<N> along(const Point<N>& u, const Point<N>& v) const {
    const N wx = v.x - u.x, wy = v.y - u.y;
    const Rooted<N> x = dir_x(), y = dir_y();
    return {x.a * wx + y.a * wy, x.b * wx + y.b * wy};
  }
};

WithRoot exact_of(Rooted<BigInt>&& x) { return {std::move(x.a), std::move(x.b)}; }

/// The value of a + b sqrt(D) in the filter.
Approx value(const Rooted<Approx>& x, const Approx& root_d) { return x.a + x.b * root_d; }

/// A line through two points: the point predicates answer for it.
bool points_only(const TangentLine& l) {
  return l.a.r == 0.0f && l.b.r == 0.0f && l.grow_a == 0.0f && l.grow_b == 0.0f;
}

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

TangentLine moved_left(TangentLine line, float s) {
  assert(line.grow_a == 0.0f && line.grow_b == 0.0f);
  line.grow_a -= s;
  line.grow_b -= s;
  return line;
}

bool tangent_exists(const TangentLine& line) {
  bool decided;
  const int s = sign_of(Parts<Approx>(line).d, decided);
  if (decided) return s > 0;
  return Parts<BigInt>(line).d.sign() > 0;
}

int side_of(const TangentLine& line, Vec2 x) {
  if (points_only(line)) return (line.mirrored ? -1 : 1) * orient2d(line.a.c, line.b.c, x);
  {
    const Parts<Approx> l(line);
    bool decided;
    const int s = sign_of(value(l.at(x), root(l.d)), decided);
    if (decided) return s;
  }
  const Parts<BigInt> l(line);
  return exact::sign_of(exact_of(l.at(x)), l.d);
}

int compare_tangent_crossings(Vec2 p, Vec2 q, const TangentLine& line1, const TangentLine& line2) {
  // A mirrored line of points is the line itself; only where it is matters here.
  if (points_only(line1) && points_only(line2))
    return compare_crossings(p, q, line1.a.c, line1.b.c, line2.a.c, line2.b.c);
  {
    // t1 - t2 = (F1 G2 - F2 G1) / (G1 G2), F = |e|^2 f(p), G = |e|^2 (f(p) - f(q)).
    const Parts<Approx> l1(line1), l2(line2);
    const Approx r1 = root(l1.d), r2 = root(l2.d);
    const Approx g1 = value(l1.approach(p, q), r1), g2 = value(l2.approach(p, q), r2);
    bool k1, k2, k3;
    const int d1 = sign_of(g1, k1), d2 = sign_of(g2, k2);
    if (k1 && k2) {
      const int s = sign_of(value(l1.at(p), r1) * g2 - value(l2.at(p), r2) * g1, k3);
      if (k3) return s * d1 * d2;
    }
  }
  const Parts<BigInt> l1(line1), l2(line2);
  const WithRoot g1 = exact_of(l1.approach(p, q)), g2 = exact_of(l2.approach(p, q));
  const int d1 = exact::sign_of(g1, l1.d), d2 = exact::sign_of(g2, l2.d);
  if (d1 == 0 || d2 == 0) return (d1 == 0) - (d2 == 0);  // never crossed: last
  // As P + Q sqrt(D2) with P, Q in Z[sqrt(D1)]:
  //   P = F1 G2.a - F2.a G1,  Q = F1 G2.b - F2.b G1.
  const WithRoot f1 = exact_of(l1.at(p)), f2 = exact_of(l2.at(p));
  const WithRoot big_p = times(f1, g2.a) - times(g1, f2.a);
  const WithRoot big_q = times(f1, g2.b) - times(g1, f2.b);
  return exact::sign_of(big_p, big_q, l1.d, l2.d) * d1 * d2;
}

int along(const TangentLine& line, Vec2 u, Vec2 v) {
  if (points_only(line) && !line.mirrored) {
    if (u == line.a.c) return dot_sign(u, line.b.c, v);   // (b - u) . (v - u)
    if (u == line.b.c) return -dot_sign(u, line.a.c, v);  // (b - a) . (v - b) = -(a - u) . (v - u)
  }
  {
    const Parts<Approx> l(line);
    bool decided;
    const int s = sign_of(value(l.along(point<Approx>(u), point<Approx>(v)), root(l.d)), decided);
    if (decided) return s;
  }
  const Parts<BigInt> l(line);
  return exact::sign_of(exact_of(l.along(point<BigInt>(u), point<BigInt>(v))), l.d);
}

namespace {

/// cross (dot = false) or dot (true) of the two lines' directions.
int direction_product(const TangentLine& line1, const TangentLine& line2, bool dot) {
  {
    const Parts<Approx> l1(line1), l2(line2);
    const Approx r1 = root(l1.d), r2 = root(l2.d);
    const Approx x1 = value(l1.dir_x(), r1), y1 = value(l1.dir_y(), r1);
    const Approx x2 = value(l2.dir_x(), r2), y2 = value(l2.dir_y(), r2);
    bool decided;
    const int s = sign_of(dot ? x1 * x2 + y1 * y2 : x1 * y2 - y1 * x2, decided);
    if (decided) return s;
  }
  const Parts<BigInt> l1(line1), l2(line2);
  const WithRoot x1 = exact_of(l1.dir_x()), y1 = exact_of(l1.dir_y());
  const WithRoot x2 = exact_of(l2.dir_x()), y2 = exact_of(l2.dir_y());
  const Mixed m = dot ? product(x1, x2) + product(y1, y2) : product(x1, y2) - product(y1, x2);
  return exact::sign_of(m.p, m.q, l1.d, l2.d);
}

}  // namespace

int direction_cross(const TangentLine& line1, const TangentLine& line2) {
  if (points_only(line1) && points_only(line2) && line1.a.c == line2.a.c)
    return (line1.mirrored != line2.mirrored ? -1 : 1) * orient2d(line1.a.c, line1.b.c, line2.b.c);
  return direction_product(line1, line2, false);
}

int direction_dot(const TangentLine& line1, const TangentLine& line2) {
  if (points_only(line1) && points_only(line2) && line1.a.c == line2.a.c)
    return (line1.mirrored != line2.mirrored ? -1 : 1) * dot_sign(line1.a.c, line1.b.c, line2.b.c);
  return direction_product(line1, line2, true);
}

int crossing_beyond_tangent_point(Vec2 p, Vec2 q, const TangentLine& line) {
  // |e|^2 d . (X - T) = A1 + t A2 with t = F / G (d is perpendicular to n, so the tangent
  // point T = b - sb rb n may be replaced by b): A1 = |e|^2 d . (p - b), A2 = |e|^2 d . (q - p).
  {
    const Parts<Approx> l(line);
    const Approx r = root(l.d);
    bool k1, k2;
    const int gs = sign_of(value(l.approach(p, q), r), k1);
    if (k1) {
      const Point<Approx> bp = point<Approx>(p), bq = point<Approx>(q), bb{l.bx, l.by};
      const Approx a1 = value(l.along(bb, bp), r), a2 = value(l.along(bp, bq), r), f = value(l.at(p), r);
      const int s = sign_of(a1 * value(l.approach(p, q), r) + f * a2, k2);
      if (k2) return s * gs;
    }
  }
  const Parts<BigInt> l(line);
  const WithRoot g = exact_of(l.approach(p, q));
  const int gs = exact::sign_of(g, l.d);
  if (gs == 0) return 0;
  const Point<BigInt> bp = point<BigInt>(p), bq = point<BigInt>(q), bb{l.bx, l.by};
  const WithRoot a1 = exact_of(l.along(bb, bp)), a2 = exact_of(l.along(bp, bq)), f = exact_of(l.at(p));
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
    const double root = std::sqrt(Parts<BigInt>(line).d.to_double(298));
    const double ka = line.sa * static_cast<double>(line.a.r) + line.grow_a,
                 kb = line.sb * static_cast<double>(line.b.r) + line.grow_b;
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
