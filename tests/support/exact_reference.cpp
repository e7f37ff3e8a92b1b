#include "exact_reference.hpp"

#include <gmpxx.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>

namespace hitgrid::reference {

Dyadic decompose(float f) {
  const auto bits = std::bit_cast<std::uint32_t>(f);
  const auto biased = static_cast<int>((bits >> 23) & 0xffu);
  const std::uint32_t fraction = bits & 0x7fffffu;
  if (biased == 0xff) std::abort();  // inf or NaN: the reference is defined for finite inputs only
  // Normal: (2^23 + fraction) * 2^(biased - 150); subnormal (biased == 0): fraction * 2^-149.
  std::uint32_t m = biased == 0 ? fraction : (fraction | 0x800000u);
  int e = biased == 0 ? -149 : biased - 150;
  if (m == 0) return {};
  // Strip trailing zeros so the common scale of a call is as small as it can be.
  const int tz = std::countr_zero(m);
  m >>= tz;
  e += tz;
  const long sm = static_cast<long>(m);
  return {(bits >> 31) != 0 ? -sm : sm, e};
}

namespace {

// Scratch integers reused across calls: gmpxx statements of the form x = y op z evaluate
// in place into x's existing limbs, so after warm-up a call allocates nothing (an mpz per
// temporary would cost more than the arithmetic itself at one or two limbs).
struct Scratch {
  mpz_class in[8];
  mpz_class t[12];
};

Scratch& scratch() {
  thread_local Scratch s;
  return s;
}

/// Loads the floats as integers sharing one power-of-two scale (see the header).
void load(std::initializer_list<float> values, mpz_class* out) {
  Dyadic d[8];
  int min_e = 0;
  bool any = false;
  std::size_t n = 0;
  for (float v : values) {
    d[n] = decompose(v);
    if (d[n].m != 0) {
      min_e = any ? std::min(min_e, d[n].e) : d[n].e;
      any = true;
    }
    ++n;
  }
  for (std::size_t i = 0; i < n; ++i) {
    mpz_set_si(out[i].get_mpz_t(), d[i].m);
    // m == 0 has e == 0; shifting zero is harmless but the count must not be negative.
    if (d[i].m != 0) mpz_mul_2exp(out[i].get_mpz_t(), out[i].get_mpz_t(), static_cast<mp_bitcnt_t>(d[i].e - min_e));
  }
}

int sign(const mpz_class& v) {
  const int s = sgn(v);
  return (s > 0) - (s < 0);
}

/// n1 / d1 <= n2 / d2 for positive denominators, by cross-multiplication.
bool fraction_le(const mpz_class& n1, const mpz_class& d1, const mpz_class& n2, const mpz_class& d2, mpz_class& l,
                 mpz_class& r) {
  l = n1 * d2;
  r = n2 * d1;
  return l <= r;
}

}  // namespace

int orient2d(Vec2 a, Vec2 b, Vec2 c) {
  Scratch& s = scratch();
  load({a.x, a.y, b.x, b.y, c.x, c.y}, s.in);
  const mpz_class &ax = s.in[0], &ay = s.in[1], &bx = s.in[2], &by = s.in[3], &cx = s.in[4], &cy = s.in[5];
  mpz_class &acc = s.t[0], &d = s.t[1], &p = s.t[2];
  // Cofactor expansion ax (by - cy) + bx (cy - ay) + cx (ay - by): the same polynomial as
  // cross(b - a, c - a), grouped differently from the library's.
  d = by - cy;
  acc = ax * d;
  d = cy - ay;
  p = bx * d;
  acc += p;
  d = ay - by;
  p = cx * d;
  acc += p;
  return sign(acc);
}

int orient_along(Vec2 o, Vec2 d, Vec2 p) {
  Scratch& s = scratch();
  load({o.x, o.y, d.x, d.y, p.x, p.y}, s.in);
  const mpz_class &ox = s.in[0], &oy = s.in[1], &dx = s.in[2], &dy = s.in[3], &px = s.in[4], &py = s.in[5];
  mpz_class &acc = s.t[0], &u = s.t[1], &q = s.t[2];
  // dx py - dy px - (dx oy - dy ox): expanded, not as the library's differences.
  acc = dx * py;
  q = dy * px;
  acc -= q;
  u = dx * oy;
  acc -= u;
  u = dy * ox;
  acc += u;
  return sign(acc);
}

int dot_sign(Vec2 a, Vec2 b, Vec2 c) {
  Scratch& s = scratch();
  load({a.x, a.y, b.x, b.y, c.x, c.y}, s.in);
  const mpz_class &ax = s.in[0], &ay = s.in[1], &bx = s.in[2], &by = s.in[3], &cx = s.in[4], &cy = s.in[5];
  mpz_class &u = s.t[0], &v = s.t[1], &acc = s.t[2], &p = s.t[3];
  u = bx - ax;
  v = cx - ax;
  acc = u * v;
  u = by - ay;
  v = cy - ay;
  p = u * v;
  acc += p;
  return sign(acc);
}

int compare_distance(Vec2 p, Vec2 q, float r) {
  Scratch& s = scratch();
  load({p.x, p.y, q.x, q.y, r}, s.in);
  mpz_class &d = s.t[0], &acc = s.t[1], &sq = s.t[2];
  d = s.in[0] - s.in[2];
  acc = d * d;
  d = s.in[1] - s.in[3];
  sq = d * d;
  acc += sq;
  sq = s.in[4] * s.in[4];
  return cmp(acc, sq) > 0 ? 1 : (cmp(acc, sq) < 0 ? -1 : 0);
}

int compare_center_distance(Vec2 p, Vec2 q, float r1, float r2) {
  Scratch& s = scratch();
  load({p.x, p.y, q.x, q.y, r1, r2}, s.in);
  mpz_class &d = s.t[0], &acc = s.t[1], &sq = s.t[2];
  d = s.in[0] - s.in[2];
  acc = d * d;
  d = s.in[1] - s.in[3];
  sq = d * d;
  acc += sq;
  d = s.in[4] + s.in[5];
  sq = d * d;
  acc -= sq;
  return sign(acc);
}

int compare_line_distance(Vec2 a, Vec2 b, Vec2 p, float r) {
  Scratch& s = scratch();
  load({a.x, a.y, b.x, b.y, p.x, p.y, r}, s.in);
  const mpz_class &ax = s.in[0], &ay = s.in[1], &bx = s.in[2], &by = s.in[3], &px = s.in[4], &py = s.in[5],
                  &rr = s.in[6];
  mpz_class &ux = s.t[0], &uy = s.t[1], &w = s.t[2], &cr = s.t[3], &tmp = s.t[4], &len2 = s.t[5], &lhs = s.t[6],
            &rhs = s.t[7];
  ux = bx - ax;
  uy = by - ay;
  w = py - ay;
  cr = ux * w;
  w = px - ax;
  tmp = uy * w;
  cr -= tmp;
  lhs = cr * cr;
  len2 = ux * ux;
  tmp = uy * uy;
  len2 += tmp;
  tmp = rr * rr;
  rhs = tmp * len2;
  return cmp(lhs, rhs) > 0 ? 1 : (cmp(lhs, rhs) < 0 ? -1 : 0);
}

bool intersects(const Segment& s, const Segment& t) {
  Scratch& sc = scratch();
  load({s.a.x, s.a.y, s.b.x, s.b.y, t.a.x, t.a.y, t.b.x, t.b.y}, sc.in);
  const mpz_class &ax = sc.in[0], &ay = sc.in[1], &bx = sc.in[2], &by = sc.in[3], &cx = sc.in[4], &cy = sc.in[5],
                  &dx = sc.in[6], &dy = sc.in[7];
  // s: A + t r, t in [0, 1];  t: C + u q, u in [0, 1];  w = C - A.
  mpz_class &rx = sc.t[0], &ry = sc.t[1], &qx = sc.t[2], &qy = sc.t[3], &wx = sc.t[4], &wy = sc.t[5];
  mpz_class &den = sc.t[6], &tn = sc.t[7], &un = sc.t[8], &tmp = sc.t[9], &lo = sc.t[10], &hi = sc.t[11];
  rx = bx - ax;
  ry = by - ay;
  qx = dx - cx;
  qy = dy - cy;
  wx = cx - ax;
  wy = cy - ay;
  const bool s_point = sgn(rx) == 0 && sgn(ry) == 0;
  const bool t_point = sgn(qx) == 0 && sgn(qy) == 0;
  if (s_point && t_point) return sgn(wx) == 0 && sgn(wy) == 0;
  if (s_point || t_point) {
    // A point P on a proper segment E + v e: cross(P - E, e) == 0 and 0 <= dot(P - E, e) <= |e|^2.
    // With w = C - A: for s a point, P - E = A - C = -w; for t a point, P - E = C - A = w.
    const mpz_class& ex = s_point ? qx : rx;
    const mpz_class& ey = s_point ? qy : ry;
    if (s_point) {
      wx = -wx;
      wy = -wy;
    }
    tn = wx * ey;
    tmp = wy * ex;
    if (tn != tmp) return false;
    tn = wx * ex;
    tmp = wy * ey;
    tn += tmp;  // dot(P - E, e)
    hi = ex * ex;
    tmp = ey * ey;
    hi += tmp;  // |e|^2
    return sgn(tn) >= 0 && tn <= hi;
  }
  // den = cross(r, q); t = cross(w, q) / den, u = cross(w, r) / den.
  den = rx * qy;
  tmp = ry * qx;
  den -= tmp;
  if (sgn(den) != 0) {
    tn = wx * qy;
    tmp = wy * qx;
    tn -= tmp;
    un = wx * ry;
    tmp = wy * rx;
    un -= tmp;
    if (sgn(den) < 0) {
      den = -den;
      tn = -tn;
      un = -un;
    }
    return sgn(tn) >= 0 && tn <= den && sgn(un) >= 0 && un <= den;
  }
  // Parallel. Distinct lines iff C is off s's line: cross(w, r) != 0.
  un = wx * ry;
  tmp = wy * rx;
  if (un != tmp) return false;
  // Collinear: the parameters of C and D along s, times |r|^2, against [0, |r|^2].
  lo = wx * rx;
  tmp = wy * ry;
  lo += tmp;  // dot(C - A, r)
  wx = dx - ax;
  wy = dy - ay;
  hi = wx * rx;
  tmp = wy * ry;
  hi += tmp;  // dot(D - A, r)
  if (lo > hi) lo.swap(hi);
  den = rx * rx;
  tmp = ry * ry;
  den += tmp;
  return sgn(hi) >= 0 && lo <= den;
}

bool intersects(const Segment& s, const Circle& c) {
  Scratch& sc = scratch();
  load({s.a.x, s.a.y, s.b.x, s.b.y, c.c.x, c.c.y, c.r}, sc.in);
  const mpz_class &ax = sc.in[0], &ay = sc.in[1], &bx = sc.in[2], &by = sc.in[3], &cx = sc.in[4], &cy = sc.in[5],
                  &rad = sc.in[6];
  mpz_class &rx = sc.t[0], &ry = sc.t[1], &wx = sc.t[2], &wy = sc.t[3], &den = sc.t[4], &num = sc.t[5];
  mpz_class &tmp = sc.t[6], &px = sc.t[7], &py = sc.t[8], &lhs = sc.t[9], &rhs = sc.t[10];
  // f(t) = |w + t r|^2 with w = A - C is minimal at t* = -dot(w, r) / |r|^2 = num / den.
  rx = bx - ax;
  ry = by - ay;
  wx = ax - cx;
  wy = ay - cy;
  den = rx * rx;
  tmp = ry * ry;
  den += tmp;
  num = wx * rx;
  tmp = wy * ry;
  num += tmp;
  num = -num;
  rhs = rad * rad;
  if (sgn(den) == 0 || sgn(num) <= 0) {
    // t clamped to 0: the distance to A.
    lhs = wx * wx;
    tmp = wy * wy;
    lhs += tmp;
    return lhs <= rhs;
  }
  if (num >= den) {
    // t clamped to 1: the distance to B.
    wx = bx - cx;
    wy = by - cy;
    lhs = wx * wx;
    tmp = wy * wy;
    lhs += tmp;
    return lhs <= rhs;
  }
  // Interior: |w + (num/den) r|^2 <= R^2  <=>  |den w + num r|^2 <= R^2 den^2.
  px = den * wx;
  tmp = num * rx;
  px += tmp;
  py = den * wy;
  tmp = num * ry;
  py += tmp;
  lhs = px * px;
  tmp = py * py;
  lhs += tmp;
  tmp = den * den;
  rhs *= tmp;
  return lhs <= rhs;
}

bool intersects(const Segment& s, const Box& b) {
  Scratch& sc = scratch();
  load({s.a.x, s.a.y, s.b.x, s.b.y, b.min.x, b.min.y, b.max.x, b.max.y}, sc.in);
  // Liang-Barsky: clip t in [0, 1] against each slab lo <= A + t r <= hi. The running
  // interval [t0, t1] is kept as fractions with positive denominators.
  mpz_class &t0n = sc.t[0], &t0d = sc.t[1], &t1n = sc.t[2], &t1d = sc.t[3], &r = sc.t[4];
  mpz_class &en = sc.t[5], &xn = sc.t[6], &dd = sc.t[7], &l = sc.t[8], &rr = sc.t[9];
  t0n = 0;
  t0d = 1;
  t1n = 1;
  t1d = 1;
  for (int axis = 0; axis < 2; ++axis) {
    const mpz_class& a = sc.in[axis];
    const mpz_class& e = sc.in[2 + axis];
    const mpz_class& lo = sc.in[4 + axis];
    const mpz_class& hi = sc.in[6 + axis];
    r = e - a;
    if (sgn(r) == 0) {
      if (a < lo || a > hi) return false;  // parallel to the slab and outside it
      continue;
    }
    // Entering and leaving parameters (enter <= leave since lo <= hi).
    if (sgn(r) > 0) {
      en = lo - a;
      xn = hi - a;
      dd = r;
    } else {
      en = a - hi;
      xn = a - lo;
      dd = -r;
    }
    if (!fraction_le(en, dd, t0n, t0d, l, rr)) {
      t0n = en;
      t0d = dd;
    }
    if (!fraction_le(t1n, t1d, xn, dd, l, rr)) {
      t1n = xn;
      t1d = dd;
    }
  }
  return fraction_le(t0n, t0d, t1n, t1d, l, rr);
}

bool intersects(const Circle& c, const Circle& d) {
  Scratch& sc = scratch();
  load({c.c.x, c.c.y, d.c.x, d.c.y, c.r, d.r}, sc.in);
  mpz_class &v = sc.t[0], &dist = sc.t[1], &sq = sc.t[2];
  v = sc.in[0] - sc.in[2];
  dist = v * v;
  v = sc.in[1] - sc.in[3];
  sq = v * v;
  dist += sq;
  v = sc.in[4] + sc.in[5];
  sq = v * v;
  return dist <= sq;
}

bool intersects(const Circle& c, const Box& b) {
  Scratch& sc = scratch();
  load({c.c.x, c.c.y, b.min.x, b.min.y, b.max.x, b.max.y, c.r}, sc.in);
  mpz_class &gap = sc.t[0], &dist = sc.t[1], &sq = sc.t[2];
  dist = 0;
  for (int axis = 0; axis < 2; ++axis) {
    // The gap along this axis between the centre and the slab [lo, hi]: max(lo - c, 0, c - hi).
    const mpz_class& v = sc.in[axis];
    const mpz_class& lo = sc.in[2 + axis];
    const mpz_class& hi = sc.in[4 + axis];
    if (v < lo) {
      gap = lo - v;
    } else if (v > hi) {
      gap = v - hi;
    } else {
      continue;
    }
    sq = gap * gap;
    dist += sq;
  }
  sq = sc.in[6] * sc.in[6];
  return dist <= sq;
}

bool intersects(const Box& a, const Box& b) {
  // The intersection of two closed boxes is the box [max of mins, min of maxes]; it is
  // nonempty iff that is not inverted on either axis. Float comparisons are exact (and
  // treat -0 and +0 as the equal rationals they are).
  return std::max(a.min.x, b.min.x) <= std::min(a.max.x, b.max.x) &&
         std::max(a.min.y, b.min.y) <= std::min(a.max.y, b.max.y);
}

namespace {

template <class F>
bool with_shape(const Scene& scene, ShapeId id, F&& f) {
  switch (id.kind()) {
    case ShapeKind::segment:
      return f(scene.segment(id.index()));
    case ShapeKind::circle:
      return f(scene.circle(id.index()));
    default:
      return f(scene.box(id.index()));
  }
}

}  // namespace

bool intersects(const Scene& scene, ShapeId a, ShapeId b) {
  return with_shape(scene, a, [&](const auto& x) {
    return with_shape(scene, b, [&](const auto& y) {
      if constexpr (requires { intersects(x, y); })
        return intersects(x, y);
      else
        return intersects(y, x);
    });
  });
}

}  // namespace hitgrid::reference
