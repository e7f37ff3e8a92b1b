#include "adversarial.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <limits>
#include <type_traits>
#include <utility>

#include "sanitizer_builds.hpp"

namespace hitgrid::test {

std::uint64_t CaseRng::next() {
  state_ += 0x9E3779B97F4A7C15ull;
  std::uint64_t z = state_;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

long CaseRng::between(long lo, long hi) {
  const auto span = static_cast<std::uint64_t>(hi - lo) + 1;
  return lo + static_cast<long>(next() % span);
}

double CaseRng::unit() { return static_cast<double>(next() >> 11) * 0x1p-53; }

namespace {

// ---------------------------------------------------------------------------------------
// Unit space: small integers held in doubles (all arithmetic on them below is exact).

struct UP {
  double x = 0.0;
  double y = 0.0;
};
UP operator+(UP a, UP b) { return {a.x + b.x, a.y + b.y}; }
UP operator-(UP a, UP b) { return {a.x - b.x, a.y - b.y}; }
UP operator*(double k, UP a) { return {k * a.x, k * a.y}; }
UP perp(UP d) { return {-d.y, d.x}; }

struct USeg {
  UP a, b;
};
struct UCircle {
  UP c;
  double r = 0.0;
};
struct UBox {
  UP lo, hi;
};

UBox box_of(UP p, UP q) { return {{std::min(p.x, q.x), std::min(p.y, q.y)}, {std::max(p.x, q.x), std::max(p.y, q.y)}}; }

UP lattice_point(CaseRng& g, long range) { return {g.integer(-range, range), g.integer(-range, range)}; }

UP small_dir(CaseRng& g, long range) {
  for (;;) {
    const UP d = lattice_point(g, range);
    if (d.x != 0.0 || d.y != 0.0) return d;
  }
}

double sign(CaseRng& g) { return g.chance(0.5) ? 1.0 : -1.0; }

struct Triple {
  long a, b, c;
};
// Primitive Pythagorean triples (plus the axis direction): directions of integer length,
// so that distances along them, and circles through their points, are exact.
constexpr Triple triples[] = {{1, 0, 1},    {3, 4, 5},    {5, 12, 13},  {8, 15, 17},  {7, 24, 25},  {20, 21, 29},
                              {12, 35, 37}, {9, 40, 41},  {28, 45, 53}, {11, 60, 61}, {33, 56, 65}, {48, 55, 73}};

/// A direction (a, b) of integer length len, in one of the eight symmetric orientations.
UP pyth_dir(CaseRng& g, double& len, bool axis_ok = true) {
  const Triple t = triples[g.between(axis_ok ? 0 : 1, static_cast<long>(std::size(triples)) - 1)];
  UP d{static_cast<double>(t.a), static_cast<double>(t.b)};
  if (g.chance(0.5)) std::swap(d.x, d.y);
  d.x *= sign(g);
  d.y *= sign(g);
  len = static_cast<double>(t.c);
  return d;
}

/// -1, 0 or +1 unit: overlapping by one unit, exactly touching (the likeliest), one unit apart.
double gap(CaseRng& g) {
  const double u = g.unit();
  return u < 0.5 ? 0.0 : (u < 0.75 ? -1.0 : 1.0);
}

double nonneg(double v) { return std::max(v, 0.0); }

UBox random_box(CaseRng& g, long range, long width) {
  const UP lo = lattice_point(g, range);
  return {lo, lo + UP{g.integer(0, width), g.integer(0, width)}};
}

/// Corner k (0..3) of b; out receives the outward signs of the quadrant beyond it.
UP corner(const UBox& b, long k, UP& out) {
  out = {(k & 1) != 0 ? 1.0 : -1.0, (k & 2) != 0 ? 1.0 : -1.0};
  return {(k & 1) != 0 ? b.hi.x : b.lo.x, (k & 2) != 0 ? b.hi.y : b.lo.y};
}

/// A point of side k (0..3) of b (integer position along it) and the side's outward normal.
UP side_point(CaseRng& g, const UBox& b, long k, UP& normal) {
  switch (k) {
    case 0:
      normal = {1, 0};
      return {b.hi.x, g.integer(static_cast<long>(b.lo.y), static_cast<long>(b.hi.y))};
    case 1:
      normal = {-1, 0};
      return {b.lo.x, g.integer(static_cast<long>(b.lo.y), static_cast<long>(b.hi.y))};
    case 2:
      normal = {0, 1};
      return {g.integer(static_cast<long>(b.lo.x), static_cast<long>(b.hi.x)), b.hi.y};
    default:
      normal = {0, -1};
      return {g.integer(static_cast<long>(b.lo.x), static_cast<long>(b.hi.x)), b.lo.y};
  }
}

USeg maybe_reversed(CaseRng& g, USeg s) { return g.chance(0.5) ? USeg{s.b, s.a} : s; }

template <class A, class B>
std::pair<A, B> maybe_swapped(CaseRng& g, const A& a, const B& b) {
  if constexpr (std::is_same_v<A, B>) {
    if (g.chance(0.5)) return {b, a};
  }
  return {a, b};
}

/// Two circles tangent at t: centres c1 and c2 = c1 + m d, radii m1 len and (m - m1) len.
/// The scale multiplies m by a power of two (Pythagorean triples scaled by 2^k).
struct Tangent {
  UP c1, c2, t, d;
  double r1 = 0, r2 = 0, len = 0, m = 0;
};
Tangent tangent_pair(CaseRng& g, double scale) {
  Tangent tp;
  tp.d = pyth_dir(g, tp.len);
  tp.m = scale * g.integer(1, 8);
  const double m1 = g.integer(0, static_cast<long>(tp.m));
  tp.c1 = lattice_point(g, 8);
  tp.c2 = tp.c1 + tp.m * tp.d;
  tp.t = tp.c1 + m1 * tp.d;
  tp.r1 = m1 * tp.len;
  tp.r2 = (tp.m - m1) * tp.len;
  return tp;
}

double tangent_scale(CaseRng& g) { return std::ldexp(1.0, static_cast<int>(g.between(0, 8))); }

// ---------------------------------------------------------------------------------------
// Constructions in unit space. Each returns exactly degenerate configurations (touching,
// tangent, collinear, zero-size) mixed with their one-unit-off neighbours.

enum class Build { lattice, shared_endpoint, t_junction, collinear, tangent, zero_size };

std::pair<USeg, USeg> unit_segment_segment(Build build, CaseRng& g) {
  switch (build) {
    case Build::lattice: {
      const long r = g.between(2, 8);
      return {{lattice_point(g, r), lattice_point(g, r)}, {lattice_point(g, r), lattice_point(g, r)}};
    }
    case Build::shared_endpoint: {
      const UP p = lattice_point(g, 8), q = lattice_point(g, 8);
      UP r;
      switch (g.between(0, 3)) {
        case 0: r = lattice_point(g, 8); break;
        case 1: r = p - (q - p); break;        // collinear, opposite sides: touch only at p
        case 2: r = p + 2.0 * (q - p); break;  // collinear, overlapping all of s
        default: r = q; break;                 // the same segment
      }
      USeg t{p, r};
      if (g.chance(0.25)) {  // moved one unit: usually disjoint now
        const UP e = g.chance(0.5) ? UP{sign(g), 0} : UP{0, sign(g)};
        t = {t.a + e, t.b + e};
      }
      return maybe_swapped(g, maybe_reversed(g, {p, q}), maybe_reversed(g, t));
    }
    case Build::t_junction: {
      // t starts at a + k d, on s's line; on s for 0 <= k <= n, just beyond it otherwise.
      const UP d = small_dir(g, 3);
      const long n = g.between(1, 6);
      const UP a = lattice_point(g, 8);
      const USeg s{a, a + static_cast<double>(n) * d};
      const UP p = a + g.integer(-1, n + 1) * d;
      const UP e = g.chance(0.5) ? (sign(g) * g.integer(1, 3)) * perp(d) : small_dir(g, 4);
      return maybe_swapped(g, maybe_reversed(g, s), maybe_reversed(g, {p, p + e}));
    }
    case Build::collinear: {
      double len = 0;
      const UP d = g.chance(0.5) ? small_dir(g, 4) : pyth_dir(g, len);
      const UP a = lattice_point(g, 6);
      auto at = [&](long k) { return a + static_cast<double>(k) * d; };
      const USeg s{at(g.between(-6, 6)), at(g.between(-6, 6))};
      USeg t{at(g.between(-6, 6)), at(g.between(-6, 6))};
      if (g.chance(0.2)) {  // a parallel neighbour one unit off the line
        const UP e = g.chance(0.5) ? UP{sign(g), 0} : UP{0, sign(g)};
        t = {t.a + e, t.b + e};
      }
      return maybe_swapped(g, s, t);
    }
    case Build::tangent: {
      const Tangent tp = tangent_pair(g, tangent_scale(g));
      const UP p = perp(tp.d);
      const long u1 = g.between(-3, 3), u2 = g.between(-3, 3);
      const USeg tangent_seg{tp.t + static_cast<double>(u1) * p, tp.t + static_cast<double>(u2) * p};
      switch (g.between(0, 2)) {
        case 0:  // centre to tangent point, tangent point to the other centre: collinear, touching
          return maybe_swapped(g, maybe_reversed(g, {tp.c1, tp.t}), maybe_reversed(g, {tp.t, tp.c2}));
        case 1:  // a radius and the tangent line there: perpendicular, touching iff t on it
          return maybe_swapped(g, maybe_reversed(g, {tp.c1, tp.t}), maybe_reversed(g, tangent_seg));
        default:
          return maybe_swapped(g, maybe_reversed(g, {tp.c1, tp.c2}), maybe_reversed(g, tangent_seg));
      }
    }
    case Build::zero_size: {
      USeg s{lattice_point(g, 3), lattice_point(g, 3)};
      USeg t{lattice_point(g, 3), lattice_point(g, 3)};
      if (g.chance(0.5)) {  // a point on (or just past) s's line
        const UP d = small_dir(g, 3);
        const long n = g.between(1, 4);
        s = {s.a, s.a + static_cast<double>(n) * d};
        t.a = s.a + g.integer(-1, n + 1) * d;
        t.b = t.a;
      }
      if (g.chance(0.5)) t.b = t.a;
      if (g.chance(0.3)) s.b = s.a;
      return maybe_swapped(g, s, t);
    }
  }
  std::abort();
}

std::pair<USeg, UCircle> unit_segment_circle(Build build, CaseRng& g) {
  switch (build) {
    case Build::lattice: {
      const long r = g.between(2, 8);
      return {{lattice_point(g, r), lattice_point(g, r)}, {lattice_point(g, r), g.integer(0, r)}};
    }
    case Build::shared_endpoint: {
      // An endpoint on the circle (Pythagorean offset); the other end mostly outward.
      double len = 0;
      const UP d = pyth_dir(g, len);
      const double m = g.integer(1, 3);
      const UP c = lattice_point(g, 6);
      const UP a = c + m * d;
      const UP b = a + g.integer(0, 3) * d + g.integer(-3, 3) * perp(d);
      return {maybe_reversed(g, {a, b}), {c, nonneg(m * len + gap(g))}};
    }
    case Build::t_junction: {
      // On the tangent line at t = c + m d: touching iff t lies on the segment.
      double len = 0;
      const UP d = pyth_dir(g, len);
      const double m = g.integer(1, 3);
      const UP c = lattice_point(g, 6);
      const UP t = c + m * d;
      const UP p = perp(d);
      long u1 = g.between(-3, 3), u2 = g.between(-3, 3);
      if (u1 > u2) std::swap(u1, u2);
      const USeg s{t + static_cast<double>(u1) * p, t + static_cast<double>(u2) * p};
      return {maybe_reversed(g, s), {c, nonneg(m * len + gap(g))}};
    }
    case Build::collinear: {
      double len = 0;
      const UP d = pyth_dir(g, len);
      const UP a = lattice_point(g, 6);
      auto at = [&](long k) { return a + static_cast<double>(k) * d; };
      const UCircle c{at(g.between(-4, 4)), nonneg(g.integer(0, 4) * len + gap(g))};
      return {{at(g.between(-6, 6)), at(g.between(-6, 6))}, c};
    }
    case Build::tangent: {
      const double scale = tangent_scale(g);
      double len = 0;
      const UP d = pyth_dir(g, len);
      const UP c = lattice_point(g, 8);
      const double m = scale * g.integer(1, 3);
      const UP t = c + m * d;
      const UP p = perp(d);
      switch (g.between(0, 2)) {
        case 0: {  // slanted tangent line, touching in its interior, at an endpoint, or missing
          long u1 = g.between(-3, 3), u2 = g.between(-3, 3);
          if (u1 > u2) std::swap(u1, u2);
          const double k = g.chance(0.5) ? 1.0 : scale;
          const USeg s{t + (k * static_cast<double>(u1)) * p, t + (k * static_cast<double>(u2)) * p};
          return {maybe_reversed(g, s), {c, nonneg(m * len + gap(g))}};
        }
        case 1: {  // axis-aligned tangent line x = cx +- r or y = cy +- r
          const double r = scale * g.integer(0, 8);
          const double off = sign(g) * (r + gap(g));
          const double v1 = g.integer(-8, 8) * (g.chance(0.5) ? 1.0 : scale);
          const double v2 = g.integer(-8, 8) * (g.chance(0.5) ? 1.0 : scale);
          const USeg s = g.chance(0.5) ? USeg{{c.x + off, c.y + v1}, {c.x + off, c.y + v2}}
                                       : USeg{{c.x + v1, c.y + off}, {c.x + v2, c.y + off}};
          return {s, {c, r}};
        }
        default: {  // an endpoint on the circle, the segment leaving outward or along the tangent
          const UP b = t + g.integer(0, 3) * d + g.integer(-3, 3) * p;
          return {maybe_reversed(g, {t, b}), {c, nonneg(m * len + gap(g))}};
        }
      }
    }
    case Build::zero_size: {
      switch (g.between(0, 2)) {
        case 0: {  // a zero-radius circle on (or just past) the segment
          const UP d = small_dir(g, 3);
          const long n = g.between(1, 4);
          const UP a = lattice_point(g, 4);
          const UP p = a + g.integer(-1, n + 1) * d;
          const UP q = g.chance(0.8) ? p : p + UP{sign(g), 0};
          return {maybe_reversed(g, {a, a + static_cast<double>(n) * d}), {q, 0.0}};
        }
        case 1: {  // a point segment on the circle's boundary
          double len = 0;
          const UP d = pyth_dir(g, len);
          const double m = g.integer(1, 3);
          const UP c = lattice_point(g, 4);
          const UP p = c + m * d;
          return {{p, p}, {c, nonneg(m * len + gap(g))}};
        }
        default: {  // both degenerate
          const UP p = lattice_point(g, 2);
          const UP q = g.chance(0.5) ? p : lattice_point(g, 2);
          return {{p, g.chance(0.5) ? p : lattice_point(g, 2)}, {q, g.chance(0.7) ? 0.0 : g.integer(0, 2)}};
        }
      }
    }
  }
  std::abort();
}

std::pair<USeg, UBox> unit_segment_box(Build build, CaseRng& g) {
  switch (build) {
    case Build::lattice: {
      const long r = g.between(2, 8);
      return {{lattice_point(g, r), lattice_point(g, r)}, random_box(g, r, r)};
    }
    case Build::shared_endpoint: {
      // An endpoint at a corner; the other end outward (touching at the corner only) or
      // anywhere; the segment moved one unit outward or inward.
      const UBox b = random_box(g, 6, 4);
      UP out;
      const UP k = corner(b, g.between(0, 3), out);
      UP e = g.chance(0.5) ? UP{k.x + g.integer(0, 3) * out.x, k.y + g.integer(0, 3) * out.y} : lattice_point(g, 8);
      USeg s{k, e};
      const double shift = gap(g);
      const UP m = g.chance(0.5) ? UP{shift * out.x, 0} : UP{0, shift * out.y};
      s = {s.a + m, s.b + m};
      return {maybe_reversed(g, s), b};
    }
    case Build::t_junction: {
      const UBox b = random_box(g, 6, 4);
      if (g.chance(0.5)) {
        // From a point of a side: outward, along the side's line, or back across the box.
        UP n;
        const UP p = side_point(g, b, g.between(0, 3), n);
        const UP q = p + g.integer(-1, 3) * n + g.integer(-3, 3) * perp(n);
        const UP m = gap(g) * n;
        return {maybe_reversed(g, {p + m, q + m}), b};
      }
      // Through a corner along the line that touches the box only there.
      UP out;
      const UP k = corner(b, g.between(0, 3), out);
      const UP d{out.x, -out.y};
      long u1 = g.between(-3, 3), u2 = g.between(-3, 3);
      if (u1 > u2) std::swap(u1, u2);
      const UP m = gap(g) * (g.chance(0.5) ? UP{out.x, 0} : UP{0, out.y});
      return {maybe_reversed(g, {k + static_cast<double>(u1) * d + m, k + static_cast<double>(u2) * d + m}), b};
    }
    case Build::collinear: {
      // A segment on a chain, a box spanned by two other chain points: the chain passes
      // exactly through the box's corners.
      double len = 0;
      const UP d = g.chance(0.5) ? small_dir(g, 4) : pyth_dir(g, len);
      const UP a = lattice_point(g, 6);
      auto at = [&](long k) { return a + static_cast<double>(k) * d; };
      return {{at(g.between(-6, 6)), at(g.between(-6, 6))}, box_of(at(g.between(-6, 6)), at(g.between(-6, 6)))};
    }
    case Build::tangent: {
      const double scale = tangent_scale(g);
      if (g.chance(0.5)) {  // a tangent of a circle against the circle's bounding box
        double len = 0;
        const UP d = pyth_dir(g, len);
        const UP c = lattice_point(g, 8);
        const double m = scale * g.integer(1, 3);
        const UP t = c + m * d;
        const double r = m * len;
        const UP p = perp(d);
        const USeg s{t + g.integer(-3, 3) * scale * p, t + g.integer(-3, 3) * scale * p};
        return {s, {{c.x - r, c.y - r}, {c.x + r, c.y + r}}};
      }
      // Along the line of a side, one unit either way or on it.
      const UBox b{lattice_point(g, 8), lattice_point(g, 8) + UP{scale * g.integer(0, 4), scale * g.integer(0, 4)}};
      const UBox bb = box_of(b.lo, b.hi);
      const double x = bb.hi.x + gap(g);
      const USeg s{{x, bb.lo.y + scale * g.integer(-4, 4)}, {x, bb.lo.y + scale * g.integer(-4, 8)}};
      return {maybe_reversed(g, s), bb};
    }
    case Build::zero_size: {
      USeg s{lattice_point(g, 3), lattice_point(g, 3)};
      if (g.chance(0.5)) s.b = s.a;
      UBox b = random_box(g, 3, 3);
      const double u = g.unit();
      if (u < 0.3) {
        b.hi.x = b.lo.x;
      } else if (u < 0.6) {
        b.hi.y = b.lo.y;
      } else if (u < 0.8) {
        b.hi = b.lo;
      }
      return {s, b};
    }
  }
  std::abort();
}

std::pair<UCircle, UCircle> unit_circle_circle(Build build, CaseRng& g) {
  switch (build) {
    case Build::lattice: {
      const long r = g.between(2, 8);
      return {{lattice_point(g, r), g.integer(0, r)}, {lattice_point(g, r), g.integer(0, r)}};
    }
    case Build::shared_endpoint: {
      // Both circles through one point p: tangent there if the centres are on opposite
      // sides along one direction, crossing otherwise.
      const UP p = lattice_point(g, 6);
      double len1 = 0, len2 = 0;
      const UP d1 = pyth_dir(g, len1);
      const double m1 = g.integer(1, 3), m2 = g.integer(1, 3);
      const UCircle c1{p + m1 * d1, m1 * len1};
      if (g.chance(0.6)) return maybe_swapped(g, c1, UCircle{p - m2 * d1, nonneg(m2 * len1 + gap(g))});
      const UP d2 = pyth_dir(g, len2);
      return maybe_swapped(g, c1, UCircle{p + m2 * d2, nonneg(m2 * len2 + gap(g))});
    }
    case Build::t_junction: {
      const Tangent tp = tangent_pair(g, 1.0);
      return maybe_swapped(g, UCircle{tp.c1, tp.r1}, UCircle{tp.c2, nonneg(tp.r2 + gap(g))});
    }
    case Build::collinear: {
      double len = 0;
      const UP d = pyth_dir(g, len);
      const UP a = lattice_point(g, 6);
      const long i = g.between(-4, 4), j = g.between(-4, 4);
      const double total = nonneg(static_cast<double>(std::labs(i - j)) * len + gap(g));
      const double r1 = g.integer(0, static_cast<long>(total));
      return {{a + static_cast<double>(i) * d, r1}, {a + static_cast<double>(j) * d, total - r1}};
    }
    case Build::tangent: {
      const Tangent tp = tangent_pair(g, tangent_scale(g));
      if (g.chance(0.25)) {  // internally tangent: c1 inside the disk around c2, touching it
        return maybe_swapped(g, UCircle{tp.c1, tp.r1}, UCircle{tp.c2, nonneg(tp.r1 + tp.m * tp.len + gap(g))});
      }
      return maybe_swapped(g, UCircle{tp.c1, tp.r1}, UCircle{tp.c2, nonneg(tp.r2 + gap(g))});
    }
    case Build::zero_size: {
      if (g.chance(0.5)) {  // a zero-radius circle on (or one unit off) the other's boundary
        double len = 0;
        const UP d = pyth_dir(g, len);
        const double m = g.integer(1, 3);
        const UP c = lattice_point(g, 4);
        return maybe_swapped(g, UCircle{c + m * d, 0.0}, UCircle{c, nonneg(m * len + gap(g))});
      }
      const UP p = lattice_point(g, 2);
      return {{p, 0.0}, {g.chance(0.5) ? p : lattice_point(g, 2), g.chance(0.7) ? 0.0 : 1.0}};
    }
  }
  std::abort();
}

std::pair<UCircle, UBox> unit_circle_box(Build build, CaseRng& g) {
  switch (build) {
    case Build::lattice: {
      const long r = g.between(2, 8);
      return {{lattice_point(g, r), g.integer(0, r)}, random_box(g, r, r)};
    }
    case Build::shared_endpoint: {
      // Through a corner: the centre beyond the corner along a Pythagorean direction.
      const UBox b = random_box(g, 6, 4);
      UP out;
      const UP k = corner(b, g.between(0, 3), out);
      double len = 0;
      const UP d0 = pyth_dir(g, len, /*axis_ok=*/false);
      const UP d{std::fabs(d0.x) * out.x, std::fabs(d0.y) * out.y};
      const double m = g.integer(1, 3);
      return {{k + m * d, nonneg(m * len + gap(g))}, b};
    }
    case Build::t_junction: {
      // Tangent to a side (or one unit off).
      const UBox b = random_box(g, 6, 4);
      UP n;
      const UP p = side_point(g, b, g.between(0, 3), n);
      const double r = g.integer(0, 5);
      return {{p + (r + gap(g)) * n, r}, b};
    }
    case Build::collinear: {
      // Centre and box corners on one Pythagorean chain, the box beyond the nearer corner.
      double len = 0;
      const UP d = pyth_dir(g, len, /*axis_ok=*/false);
      const UP a = lattice_point(g, 6);
      const long i = g.between(-4, 4);
      const long dir = g.chance(0.5) ? 1 : -1;
      const long j = i + dir * g.between(0, 3);
      const long k = j + dir * g.between(0, 3);
      auto at = [&](long t) { return a + static_cast<double>(t) * d; };
      return {{at(i), nonneg(static_cast<double>(std::labs(j - i)) * len + gap(g))}, box_of(at(j), at(k))};
    }
    case Build::tangent: {
      const double scale = tangent_scale(g);
      const UP lo = lattice_point(g, 8);
      const UBox b{lo, lo + UP{scale * g.integer(0, 4), scale * g.integer(0, 4)}};
      if (g.chance(0.5)) {
        UP n;
        const UP p = side_point(g, b, g.between(0, 3), n);
        const double r = scale * g.integer(0, 5);
        return {{p + (r + gap(g)) * n, r}, b};
      }
      UP out;
      const UP k = corner(b, g.between(0, 3), out);
      double len = 0;
      const UP d0 = pyth_dir(g, len, /*axis_ok=*/false);
      const UP d{std::fabs(d0.x) * out.x, std::fabs(d0.y) * out.y};
      const double m = scale * g.integer(1, 3);
      return {{k + m * d, nonneg(m * len + gap(g))}, b};
    }
    case Build::zero_size: {
      UBox b = random_box(g, 3, 3);
      const double u = g.unit();
      if (u < 0.25) {
        b.hi.x = b.lo.x;
      } else if (u < 0.5) {
        b.hi.y = b.lo.y;
      } else if (u < 0.7) {
        b.hi = b.lo;
      }
      if (g.chance(0.5)) {  // a zero radius at a corner, on a side, inside or outside
        UP out;
        const UP k = corner(b, g.between(0, 3), out);
        const UP c = g.chance(0.5) ? k : lattice_point(g, 4);
        return {{c, 0.0}, b};
      }
      // A point box on (or one unit off) a circle's boundary.
      double len = 0;
      const UP d = pyth_dir(g, len);
      const UP c = lattice_point(g, 4);
      const double m = g.integer(1, 3);
      const UP p = c + m * d;
      return {{c, nonneg(m * len + gap(g))}, {p, p}};
    }
  }
  std::abort();
}

std::pair<UBox, UBox> unit_box_box(Build build, CaseRng& g) {
  switch (build) {
    case Build::lattice: {
      const long r = g.between(2, 8);
      return {random_box(g, r, r), random_box(g, r, r)};
    }
    case Build::shared_endpoint: {  // corner to corner
      const UBox a = random_box(g, 6, 4);
      UP out;
      const UP k = corner(a, g.between(0, 3), out) + gap(g) * (g.chance(0.5) ? UP{out.x, 0} : UP{0, out.y});
      return maybe_swapped(g, a, box_of(k, k + UP{out.x * g.integer(0, 4), out.y * g.integer(0, 4)}));
    }
    case Build::t_junction: {  // side against side
      const UBox a = random_box(g, 6, 4);
      UP n;
      const UP p = side_point(g, a, g.between(0, 3), n) + gap(g) * n;
      const UP q = p + g.integer(0, 4) * n + g.integer(-4, 4) * perp(n);
      return maybe_swapped(g, a, box_of(p, q));
    }
    case Build::collinear: {
      double len = 0;
      const UP d = g.chance(0.5) ? small_dir(g, 4) : pyth_dir(g, len);
      const UP a = lattice_point(g, 6);
      auto at = [&](long k) { return a + static_cast<double>(k) * d; };
      return {box_of(at(g.between(-6, 6)), at(g.between(-6, 6))), box_of(at(g.between(-6, 6)), at(g.between(-6, 6)))};
    }
    case Build::tangent: {  // bounding boxes of tangent circles
      const Tangent tp = tangent_pair(g, tangent_scale(g));
      const double r2 = nonneg(tp.r2 + gap(g));
      return {box_of(tp.c1 - UP{tp.r1, tp.r1}, tp.c1 + UP{tp.r1, tp.r1}), box_of(tp.c2 - UP{r2, r2}, tp.c2 + UP{r2, r2})};
    }
    case Build::zero_size: {
      auto flat = [&](UBox b) {
        const double u = g.unit();
        if (u < 0.3) {
          b.hi.x = b.lo.x;
        } else if (u < 0.6) {
          b.hi.y = b.lo.y;
        } else if (u < 0.8) {
          b.hi = b.lo;
        }
        return b;
      };
      return {flat(random_box(g, 3, 3)), flat(random_box(g, 3, 3))};
    }
  }
  std::abort();
}

// ---------------------------------------------------------------------------------------
// Frames: exact maps from unit space to float32.

struct Frame {
  double ox = 0, oy = 0, sx = 1, sy = 1, sr = 1;  // sr scales radii
};

Frame uniform_frame(double ox, double oy, double s) { return {ox, oy, s, s, s}; }

Frame small_frame(CaseRng& g) {
  if (g.chance(0.5)) return {};
  const double s = std::ldexp(1.0, static_cast<int>(g.between(-12, 12)));
  return uniform_frame(g.integer(-4096, 4096) * s, g.integer(-4096, 4096) * s, s);
}

Frame family_frame(Family f, CaseRng& g) {
  switch (f) {
    case Family::near_1e7: {
      // [2^23, 2^24) has ulp 1, so integers there are exact: 1e7 +- 1e6 plus the
      // constructions' few thousand units stays inside.
      const double s = g.chance(0.7) ? 1.0 : 2.0;
      const double ox = sign(g) * (1e7 + g.integer(-1000000, 1000000));
      const double oy = g.chance(0.5) ? sign(g) * (1e7 + g.integer(-1000000, 1000000)) : g.integer(-100, 100);
      return uniform_frame(ox, oy, s);
    }
    case Family::near_1e_7: {
      // float(1e-7) lies in [2^-24, 2^-23), where the ulp is 2^-47, about 5.6e6 ulps above
      // 2^-24 and 2.7e6 below 2^-23: multiples of 2^-47 around it are exact.
      const double ulp = 0x1p-47;
      const double base = static_cast<double>(1e-7f);
      const double s = ulp * (g.chance(0.7) ? 1.0 : 2.0);
      const double ox = sign(g) * (base + g.integer(-65536, 65536) * ulp);
      const double oy = g.chance(0.5) ? sign(g) * (base + g.integer(-65536, 65536) * ulp) : 0.0;
      return uniform_frame(ox, oy, s);
    }
    case Family::huge: {
      const double s = std::ldexp(1.0, static_cast<int>(g.between(90, 104)));
      return uniform_frame(g.integer(-4096, 4096) * s, g.integer(-4096, 4096) * s, s);
    }
    case Family::subnormal: {
      const double s = std::ldexp(1.0, static_cast<int>(g.between(-149, -130)));
      return uniform_frame(g.integer(-256, 256) * s, g.integer(-256, 256) * s, s);
    }
    case Family::mixed_scale: {
      // Different scales per axis (an exact affine map: lines, incidences and boxes keep
      // their exact relations; circles become other circles, which is fine).
      double sx = std::ldexp(1.0, static_cast<int>(g.between(-140, -60)));
      double sy = std::ldexp(1.0, static_cast<int>(g.between(20, 100)));
      if (g.chance(0.5)) std::swap(sx, sy);
      return {g.integer(-4096, 4096) * sx, g.integer(-4096, 4096) * sy, sx, sy, g.chance(0.5) ? sx : sy};
    }
    default:
      return small_frame(g);
  }
}

float to_float(double v) { return static_cast<float>(v); }
Vec2 map(const Frame& f, UP p) { return {to_float(f.ox + f.sx * p.x), to_float(f.oy + f.sy * p.y)}; }
Segment map(const Frame& f, const USeg& s) { return {map(f, s.a), map(f, s.b)}; }
Circle map(const Frame& f, const UCircle& c) { return {map(f, c.c), to_float(f.sr * c.r)}; }
Box map(const Frame& f, const UBox& b) { return {map(f, b.lo), map(f, b.hi)}; }

template <class A, class B>
auto map(const Frame& f, const std::pair<A, B>& p) {
  return std::make_pair(map(f, p.first), map(f, p.second));
}

Build build_for(Family f, CaseRng& g) {
  switch (f) {
    case Family::lattice: return Build::lattice;
    case Family::shared_endpoint: return Build::shared_endpoint;
    case Family::t_junction: return Build::t_junction;
    case Family::collinear: return Build::collinear;
    case Family::tangent: return Build::tangent;
    case Family::zero_size: return Build::zero_size;
    default: return static_cast<Build>(g.between(0, 5));
  }
}

// ---------------------------------------------------------------------------------------
// Float-level sources: inputs that are not images of a unit-space construction.

enum class Source { units, uniform, full_range, near_parallel, scale_chain, scale_mix, rounding_edge, huge_floats, subnormal_floats };

Source source_for(Family f, CaseRng& g) {
  switch (f) {
    case Family::uniform: return Source::uniform;
    case Family::full_range: return Source::full_range;
    case Family::near_parallel: return Source::near_parallel;
    case Family::mixed_scale: {
      const double u = g.unit();
      return u < 0.35 ? Source::scale_chain : (u < 0.55 ? Source::scale_mix : (u < 0.8 ? Source::rounding_edge : Source::units));
    }
    case Family::huge: return g.chance(0.25) ? Source::huge_floats : Source::units;
    case Family::subnormal: return g.chance(0.25) ? Source::subnormal_floats : Source::units;
    default: return Source::units;
  }
}

float any_finite_float(CaseRng& g) {
  for (;;) {
    const auto bits = static_cast<std::uint32_t>(g.next());
    if (((bits >> 23) & 0xffu) != 0xffu) return std::bit_cast<float>(bits);
  }
}

float huge_float(CaseRng& g) {
  if (g.chance(0.05)) return static_cast<float>(sign(g)) * std::numeric_limits<float>::max();
  if (g.chance(0.05)) return 0.0f;
  // Biased exponents 217..254: 2^90 .. 2^127.
  const auto bits = static_cast<std::uint32_t>((g.next() & 0x807fffffu) | (static_cast<std::uint32_t>(g.between(217, 254)) << 23));
  return std::bit_cast<float>(bits);
}

float subnormal_float(CaseRng& g) {
  if (g.chance(0.05)) return 0.0f;
  // Biased exponents 0 and 1: the subnormals and the smallest normal binade.
  const auto bits = static_cast<std::uint32_t>((g.next() & 0x807fffffu) | (static_cast<std::uint32_t>(g.between(0, 1)) << 23));
  return std::bit_cast<float>(bits);
}

/// A small pool of magnitudes from 2^-100 to 2^100, 1e7 and 1e-7 with integer ulp offsets,
/// and small integers: equal values recur, so exact coincidences happen across scales.
float mixed_float(CaseRng& g) {
  const double s = sign(g);
  switch (g.between(0, 5)) {
    case 0: return to_float(s * (1e7 + g.integer(-8, 8)));
    case 1: return to_float(s * (static_cast<double>(1e-7f) + g.integer(-8, 8) * 0x1p-47));
    case 2: return to_float(s * g.integer(0, 8));
    case 3: return to_float(s * g.integer(0, 8) * 0x1p-100);
    case 4: return to_float(s * g.integer(0, 8) * 0x1p100);
    default: return to_float(s * g.integer(0, 8) * std::ldexp(1.0, static_cast<int>(g.between(-140, 120))));
  }
}

/// Values whose sums and differences in double round at the last bit: a few small odd
/// multiples of 2^E next to multiples of 2^(E-52), 2^(E-53), 2^(E-54) (half an ulp of the
/// large ones, ties and near-ties) and 2^(E-24). The filters' error bounds are tightest
/// against such inputs: a filter that underestimates its rounding error shows up here.
float rounding_edge_float(CaseRng& g, int e) {
  static constexpr int below[] = {0, 0, 24, 52, 53, 53, 54};
  const int k = below[g.between(0, 6)];
  return to_float(sign(g) * g.integer(0, 15) * std::ldexp(1.0, e - k));
}

template <class Coord>
Segment random_segment(Coord&& coord) {
  const float ax = coord(), ay = coord(), bx = coord(), by = coord();
  return {{ax, ay}, {bx, by}};
}
template <class Coord>
Circle random_circle(Coord&& coord) {
  const float cx = coord(), cy = coord(), r = coord();
  return {{cx, cy}, std::fabs(r)};
}
template <class Coord>
Box random_box_f(Coord&& coord) {
  const float x0 = coord(), y0 = coord(), x1 = coord(), y1 = coord();
  return {{std::min(x0, x1), std::min(y0, y1)}, {std::max(x0, x1), std::max(y0, y1)}};
}

// Uniform: sizes 2^-4 .. 2^5 in a square of side four sizes around a random offset, so
// that a few percent of the pairs intersect whatever the size.
struct UniformShapes {
  CaseRng& g;
  double size = std::ldexp(1.0, static_cast<int>(g.between(-4, 5)));
  double offset = (2.0 * g.unit() - 1.0) * 100.0;
  double coord() { return offset + (2.0 * g.unit() - 1.0) * 2.0 * size; }
  double delta() { return (2.0 * g.unit() - 1.0) * size; }
  Segment segment() {
    const double ax = coord(), ay = coord();
    return {{to_float(ax), to_float(ay)}, {to_float(ax + delta()), to_float(ay + delta())}};
  }
  Circle circle() { return {{to_float(coord()), to_float(coord())}, to_float(g.unit() * size)}; }
  Box box() {
    const double x = coord(), y = coord(), hx = g.unit() * size, hy = g.unit() * size;
    return {{to_float(x - hx), to_float(y - hy)}, {to_float(x + hx), to_float(y + hy)}};
  }
};

// Scale chains: points t d on lines through the origin with t = m 2^e for e from -120 to 96
// (every such point is exact), so a segment from 2^-120 to 2^96 passes exactly through
// points of every magnitude, and circles through the origin are tangent there exactly.
struct ScaleChain {
  CaseRng& g;
  double t() {
    if (g.chance(0.1)) return 0.0;
    return sign(g) * g.integer(1, 7) * std::ldexp(1.0, static_cast<int>(g.between(-120, 96)));
  }
  double tpos() { return std::fabs(t()); }
  static Vec2 at(double k, UP d) { return {to_float(k * d.x), to_float(k * d.y)}; }
  UBox quadrant_box(UP q) {  // corner at the origin, extent of mixed magnitudes
    return box_of({0, 0}, {q.x * tpos(), q.y * tpos()});
  }
  static Box to_box(const UBox& b) { return {{to_float(b.lo.x), to_float(b.lo.y)}, {to_float(b.hi.x), to_float(b.hi.y)}}; }
  UP quadrant() { return {sign(g), sign(g)}; }

  std::pair<Segment, Segment> segment_segment() {
    const UP d1 = small_dir(g, 5);
    const Segment s{at(t(), d1), at(t(), d1)};
    const UP d2 = g.chance(0.5) ? d1 : small_dir(g, 5);
    return {s, {at(t(), d2), at(t(), d2)}};
  }
  std::pair<Segment, Circle> segment_circle() {
    double len = 0;
    const UP d = pyth_dir(g, len);
    const double k = tpos();
    const UP d2 = small_dir(g, 5);
    return {{at(t(), d2), at(t(), d2)}, {at(k, d), to_float(k * len)}};
  }
  std::pair<Segment, Box> segment_box() {
    const UP d = small_dir(g, 5);
    return {{at(t(), d), at(t(), d)}, to_box(quadrant_box(quadrant()))};
  }
  std::pair<Circle, Circle> circle_circle() {
    double len = 0;
    const UP d = pyth_dir(g, len);
    const double k1 = tpos(), k2 = tpos();
    return {{at(k1, d), to_float(k1 * len)}, {at(g.chance(0.7) ? -k2 : k2, d), to_float(k2 * len)}};
  }
  std::pair<Circle, Box> circle_box() {
    double len = 0;
    const UP d = pyth_dir(g, len, /*axis_ok=*/false);
    const double k = tpos();
    const UP q = g.chance(0.6) ? UP{d.x > 0 ? -1.0 : 1.0, d.y > 0 ? -1.0 : 1.0} : quadrant();
    return {{at(k, d), to_float(k * len)}, to_box(quadrant_box(q))};
  }
  std::pair<Box, Box> box_box() {
    UBox a = quadrant_box(quadrant());
    const UBox b = quadrant_box(quadrant());
    if (g.chance(0.3)) {
      const double s = t();
      a = {a.lo + UP{s, 0}, a.hi + UP{s, 0}};
    }
    return {to_box(a), to_box(b)};
  }
};

float step(float v, bool up) {
  const float n = std::nextafter(v, up ? std::numeric_limits<float>::infinity() : -std::numeric_limits<float>::infinity());
  return std::isfinite(n) ? n : v;
}

// Near-parallel and near-tangent configurations of arbitrary (non-lattice) floats: the
// second shape is derived from the first by rounding a point of it, or by one-ulp steps.
struct NearParallel {
  CaseRng& g;
  double scale = std::ldexp(1.0, static_cast<int>(g.between(-20, 20)));
  double coord() { return (2.0 * g.unit() - 1.0) * scale; }
  Segment segment() {
    return {{to_float(coord()), to_float(coord())}, {to_float(coord()), to_float(coord())}};
  }
  static Vec2 point_on(const Segment& s, double u) {
    return {to_float(s.a.x + u * (double{s.b.x} - s.a.x)), to_float(s.a.y + u * (double{s.b.y} - s.a.y))};
  }
  Vec2 ulps(Vec2 p) {
    const long n = g.between(0, 2);
    for (long i = 0; i < n; ++i) {
      if (g.chance(0.5)) {
        p.x = step(p.x, g.chance(0.5));
      } else {
        p.y = step(p.y, g.chance(0.5));
      }
    }
    return p;
  }
  /// A unit direction rounded to double (sqrt is correctly rounded, so this is reproducible).
  UP direction() {
    for (;;) {
      const double x = 2.0 * g.unit() - 1.0, y = 2.0 * g.unit() - 1.0;
      const double n = std::sqrt(x * x + y * y);
      if (n > 0.1 && n <= 1.0) return {x / n, y / n};
    }
  }
  std::pair<Segment, Segment> segment_segment() {
    const Segment s = segment();
    Segment t = s;
    switch (g.between(0, 4)) {
      case 0: t = {ulps(s.a), ulps(s.b)}; break;
      case 1: t = {s.a, ulps(point_on(s, g.unit()))}; break;
      case 2: t = {point_on(s, 2.0 * g.unit() - 0.5), point_on(s, 2.0 * g.unit() - 0.5)}; break;
      case 3: {
        // Perpendicular at s.a: a + perp(b - a), rounded to float (often exact, then
        // dot(b - a, c - a) is exactly 0), then perhaps one ulp off.
        const double dx = double{s.b.x} - s.a.x, dy = double{s.b.y} - s.a.y;
        t = {s.a, ulps({to_float(s.a.x - dy), to_float(s.a.y + dx)})};
        break;
      }
      default: break;  // the same segment (exactly collinear)
    }
    if (g.chance(0.5)) t = {t.b, t.a};
    return {s, t};
  }
  /// The midpoint of s rounded to float: exactly on s whenever it is representable.
  static Vec2 midpoint(const Segment& s) {
    return {to_float(0.5 * (double{s.a.x} + s.b.x)), to_float(0.5 * (double{s.a.y} + s.b.y))};
  }
  /// A radius with few significant bits at about the scale of v's ulp: sums of such radii
  /// and coordinates near v are often exact.
  float coarse_radius(float v) {
    const int e = std::ilogb(v == 0.0f ? 1.0f : v) - 23 + static_cast<int>(g.between(0, 6));
    return to_float(std::ldexp(g.integer(0, 4095), e));
  }
  std::pair<Segment, Circle> segment_circle() {
    const Segment s = segment();
    if (g.chance(0.3)) {  // a zero (or tiny) radius at the segment's rounded midpoint
      const Vec2 m = ulps(midpoint(s));
      return {s, {m, g.chance(0.7) ? 0.0f : coarse_radius(m.x)}};
    }
    const double r = g.chance(0.2) ? 0.0 : g.unit() * scale;
    const Vec2 p = point_on(s, 1.4 * g.unit() - 0.2);
    // Centre at distance ~r from the line (rounded, so just inside or just outside).
    const double dx = double{s.b.x} - s.a.x, dy = double{s.b.y} - s.a.y;
    const double n = std::sqrt(dx * dx + dy * dy);
    const double k = n > 0 ? sign(g) * r / n : 0.0;
    return {s, {ulps({to_float(p.x - k * dy), to_float(p.y + k * dx)}), to_float(r)}};
  }
  std::pair<Segment, Box> segment_box() {
    const Segment s = segment();
    const Vec2 p = ulps(g.chance(0.3) ? (g.chance(0.5) ? s.a : s.b) : point_on(s, g.unit()));
    const float w = to_float(g.unit() * scale), h = to_float(g.unit() * scale);
    const float x0 = g.chance(0.5) ? p.x : to_float(p.x - w), y0 = g.chance(0.5) ? p.y : to_float(p.y - h);
    return {s, {{x0, y0}, {std::max(x0, to_float(x0 + w)), std::max(y0, to_float(y0 + h))}}};
  }
  std::pair<Circle, Circle> circle_circle() {
    if (g.chance(0.4)) {
      // Tangent along x with coarse radii: c2.x = c1.x + r1 + r2 is often exact.
      const Vec2 c1{to_float(coord()), to_float(coord())};
      const float r1 = coarse_radius(c1.x), r2 = coarse_radius(c1.x);
      return {{c1, r1}, {ulps({to_float(double{c1.x} + r1 + r2), c1.y}), r2}};
    }
    const Vec2 c1{to_float(coord()), to_float(coord())};
    const float r1 = to_float(g.unit() * scale), r2 = to_float(g.unit() * scale);
    const UP d = direction();
    const double rs = double{r1} + r2;
    return {{c1, r1}, {ulps({to_float(c1.x + rs * d.x), to_float(c1.y + rs * d.y)}), r2}};
  }
  std::pair<Circle, Box> circle_box() {
    const float x0 = to_float(coord()), y0 = to_float(coord());
    const Box b{{x0, y0}, {std::max(x0, to_float(x0 + g.unit() * scale)), std::max(y0, to_float(y0 + g.unit() * scale))}};
    const float r = to_float(g.unit() * scale);
    if (g.chance(0.5)) {  // beyond the max corner, at distance ~r
      const UP d = direction();
      return {{ulps({to_float(b.max.x + r * std::fabs(d.x)), to_float(b.max.y + r * std::fabs(d.y))}), r}, b};
    }
    return {{ulps({to_float(double{b.max.x} + r), to_float(0.5 * (double{b.min.y} + b.max.y))}), r}, b};
  }
  std::pair<Box, Box> box_box() {
    const float x0 = to_float(coord()), y0 = to_float(coord());
    const Box a{{x0, y0}, {std::max(x0, to_float(x0 + g.unit() * scale)), std::max(y0, to_float(y0 + g.unit() * scale))}};
    const float bx = g.chance(0.3) ? a.max.x : step(a.max.x, g.chance(0.5));
    const float by = to_float(a.min.y + (g.unit() - 0.5) * scale);
    return {a, {{bx, by}, {std::max(bx, to_float(bx + g.unit() * scale)), std::max(by, to_float(by + g.unit() * scale))}}};
  }
};

template <class Coord>
struct RandomShapes {
  Coord coord;
  std::pair<Segment, Segment> segment_segment() { return {random_segment(coord), random_segment(coord)}; }
  std::pair<Segment, Circle> segment_circle() { return {random_segment(coord), random_circle(coord)}; }
  std::pair<Segment, Box> segment_box() { return {random_segment(coord), random_box_f(coord)}; }
  std::pair<Circle, Circle> circle_circle() { return {random_circle(coord), random_circle(coord)}; }
  std::pair<Circle, Box> circle_box() { return {random_circle(coord), random_box_f(coord)}; }
  std::pair<Box, Box> box_box() { return {random_box_f(coord), random_box_f(coord)}; }
};
template <class Coord>
RandomShapes<Coord> random_shapes(Coord c) {
  return {c};
}

struct UniformPairs {
  UniformShapes u;
  std::pair<Segment, Segment> segment_segment() { return {u.segment(), u.segment()}; }
  std::pair<Segment, Circle> segment_circle() { return {u.segment(), u.circle()}; }
  std::pair<Segment, Box> segment_box() { return {u.segment(), u.box()}; }
  std::pair<Circle, Circle> circle_circle() { return {u.circle(), u.circle()}; }
  std::pair<Circle, Box> circle_box() { return {u.circle(), u.box()}; }
  std::pair<Box, Box> box_box() { return {u.box(), u.box()}; }
};

/// Calls kind(source) on the float-level source s.
template <class Kind>
auto float_level(Source s, CaseRng& g, Kind&& kind) {
  switch (s) {
    case Source::uniform: {
      UniformPairs p{UniformShapes{g}};
      return kind(p);
    }
    case Source::full_range: {
      auto p = random_shapes([&g] { return any_finite_float(g); });
      return kind(p);
    }
    case Source::near_parallel: {
      NearParallel p{g};
      return kind(p);
    }
    case Source::scale_chain: {
      ScaleChain p{g};
      return kind(p);
    }
    case Source::scale_mix: {
      auto p = random_shapes([&g] { return mixed_float(g); });
      return kind(p);
    }
    case Source::rounding_edge: {
      const int e = static_cast<int>(g.between(-60, 100));
      auto p = random_shapes([&g, e] { return rounding_edge_float(g, e); });
      return kind(p);
    }
    case Source::huge_floats: {
      auto p = random_shapes([&g] { return huge_float(g); });
      return kind(p);
    }
    default: {
      auto p = random_shapes([&g] { return subnormal_float(g); });
      return kind(p);
    }
  }
}

// ---------------------------------------------------------------------------------------
// One-ulp moves.

void nudge(Segment& s, CaseRng& g) {
  float* f[] = {&s.a.x, &s.a.y, &s.b.x, &s.b.y};
  float& v = *f[g.between(0, 3)];
  v = step(v, g.chance(0.5));
}

void nudge(Circle& c, CaseRng& g) {
  switch (g.between(0, 2)) {
    case 0: c.c.x = step(c.c.x, g.chance(0.5)); break;
    case 1: c.c.y = step(c.c.y, g.chance(0.5)); break;
    default:
      // Radii stay >= 0; a zero radius sometimes becomes -0, which is valid (-0 >= 0).
      if (c.r == 0.0f && g.chance(0.3)) {
        c.r = -0.0f;
      } else {
        c.r = step(c.r, c.r == 0.0f || g.chance(0.5));
      }
      break;
  }
}

void nudge(Box& b, CaseRng& g) {
  float* f[] = {&b.min.x, &b.min.y, &b.max.x, &b.max.y};
  const long k = g.between(0, 3);
  const float old = *f[k];
  *f[k] = step(old, g.chance(0.5));
  if (b.min.x > b.max.x || b.min.y > b.max.y) *f[k] = old;  // keep the box valid
}

double nudge_probability(Family f) {
  switch (f) {
    case Family::uniform:
    case Family::full_range: return 0.0;
    case Family::lattice:
    case Family::zero_size: return 0.2;
    case Family::near_parallel: return 0.5;
    default: return 0.3;
  }
}

template <class A, class B>
void maybe_nudge(Family f, CaseRng& g, std::pair<A, B>& p) {
  if (!g.chance(nudge_probability(f))) return;
  const int n = g.chance(0.25) ? 2 : 1;
  for (int i = 0; i < n; ++i) {
    if (g.chance(0.5)) {
      nudge(p.first, g);
    } else {
      nudge(p.second, g);
    }
  }
}

template <class UnitFn, class FloatFn>
auto generate(Family f, CaseRng& g, UnitFn&& unit_fn, FloatFn&& float_fn) {
  const Source s = source_for(f, g);
  decltype(float_fn(std::declval<UniformPairs&>())) p;
  if (s == Source::units) {
    const Build b = build_for(f, g);
    const Frame frame = family_frame(f, g);
    p = map(frame, unit_fn(b, g));
  } else {
    p = float_level(s, g, float_fn);
  }
  maybe_nudge(f, g, p);
  return p;
}

}  // namespace

std::string_view family_name(Family f) {
  switch (f) {
    case Family::uniform: return "uniform";
    case Family::full_range: return "full_range";
    case Family::lattice: return "lattice";
    case Family::shared_endpoint: return "shared_endpoint";
    case Family::t_junction: return "t_junction";
    case Family::collinear: return "collinear";
    case Family::near_parallel: return "near_parallel";
    case Family::tangent: return "tangent";
    case Family::zero_size: return "zero_size";
    case Family::near_1e7: return "near_1e7";
    case Family::near_1e_7: return "near_1e-7";
    case Family::mixed_scale: return "mixed_scale";
    case Family::huge: return "huge";
    case Family::subnormal: return "subnormal";
  }
  return "?";
}

bool family_is_degenerate(Family f) { return f != Family::uniform && f != Family::full_range; }

Generator::Generator(Family family, std::uint64_t seed)
    : family_(family), rng_(seed ^ (0x5DEECE66Dull * (static_cast<std::uint64_t>(family) + 1))) {}

std::pair<Segment, Segment> Generator::segment_segment() {
  return generate(family_, rng_, unit_segment_segment, [](auto& p) { return p.segment_segment(); });
}
std::pair<Segment, Circle> Generator::segment_circle() {
  return generate(family_, rng_, unit_segment_circle, [](auto& p) { return p.segment_circle(); });
}
std::pair<Segment, Box> Generator::segment_box() {
  return generate(family_, rng_, unit_segment_box, [](auto& p) { return p.segment_box(); });
}
std::pair<Circle, Circle> Generator::circle_circle() {
  return generate(family_, rng_, unit_circle_circle, [](auto& p) { return p.circle_circle(); });
}
std::pair<Circle, Box> Generator::circle_box() {
  return generate(family_, rng_, unit_circle_box, [](auto& p) { return p.circle_box(); });
}
std::pair<Box, Box> Generator::box_box() {
  return generate(family_, rng_, unit_box_box, [](auto& p) { return p.box_box(); });
}

namespace {
Vec2 box_corner(const Box& b, long k) { return {(k & 1) != 0 ? b.max.x : b.min.x, (k & 2) != 0 ? b.max.y : b.min.y}; }

float maybe_negated(CaseRng& g, float r) { return g.chance(0.1) ? -r : r; }
}  // namespace

OrientCase Generator::orient_case() {
  Vec2 v[3];
  if (rng_.chance(0.7)) {
    const auto [s, t] = segment_segment();
    switch (rng_.between(0, 3)) {
      case 0: v[0] = s.a, v[1] = s.b, v[2] = t.a; break;
      case 1: v[0] = s.a, v[1] = s.b, v[2] = t.b; break;
      case 2: v[0] = t.a, v[1] = t.b, v[2] = s.a; break;
      default: v[0] = t.a, v[1] = t.b, v[2] = s.b; break;
    }
  } else {
    const auto [s, b] = segment_box();
    v[0] = s.a, v[1] = s.b, v[2] = box_corner(b, rng_.between(0, 3));
  }
  // All six orders: orient2d changes sign with odd permutations, and dot_sign's first
  // argument is special.
  static constexpr int order[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  const int* o = order[rng_.between(0, 5)];
  return {v[o[0]], v[o[1]], v[o[2]]};
}

DistanceCase Generator::distance_case() {
  DistanceCase d{};
  const double u = rng_.unit();
  if (u < 0.4) {
    const auto [s, c] = segment_circle();
    d = {c.c, rng_.chance(0.5) ? s.a : s.b, c.r};
  } else if (u < 0.7) {
    const auto [c, b] = circle_box();
    const Vec2 q{std::clamp(c.c.x, b.min.x, b.max.x), std::clamp(c.c.y, b.min.y, b.max.y)};
    d = {c.c, q, c.r};
  } else {
    // The sum of the radii, rounded to float: exact for the constructions, so tangent
    // circles give distance == r exactly.
    const auto [c1, c2] = circle_circle();
    const float sum = to_float(double{c1.r} + c2.r);
    d = {c1.c, c2.c, std::isfinite(sum) ? sum : c1.r};  // the sum can overflow near FLT_MAX
  }
  if (rng_.chance(0.5)) std::swap(d.p, d.q);
  d.r = maybe_negated(rng_, d.r);
  return d;
}

CenterCase Generator::center_case() {
  const auto [c1, c2] = circle_circle();
  CenterCase c{c1.c, c2.c, c1.r, c2.r};
  if (rng_.chance(0.5)) std::swap(c.p, c.q);
  if (rng_.chance(0.5)) std::swap(c.r1, c.r2);
  c.r1 = maybe_negated(rng_, c.r1);
  c.r2 = maybe_negated(rng_, c.r2);
  return c;
}

LineCase Generator::line_case() {
  LineCase l{};
  const double u = rng_.unit();
  if (u < 0.6) {
    const auto [s, c] = segment_circle();
    l = {s.a, s.b, c.c, c.r};
  } else if (u < 0.8) {
    // A side of the box as the line: tangency to box sides.
    const auto [c, b] = circle_box();
    const long k = rng_.between(0, 3);
    const Vec2 p = box_corner(b, k);
    const Vec2 q = box_corner(b, k ^ (rng_.chance(0.5) ? 1 : 2));
    l = {p, q, c.c, c.r};
  } else {
    const auto [s, t] = segment_segment();
    l = {s.a, s.b, rng_.chance(0.5) ? t.a : t.b, 0.0f};
  }
  if (rng_.chance(0.5)) std::swap(l.a, l.b);
  l.r = maybe_negated(rng_, l.r);
  return l;
}

std::size_t scaled_count(std::size_t base) {
  const char* env = std::getenv("HITGRID_TEST_SCALE");
  double scale = test::asan_build ? 0.25 : 1.0;
  if (env != nullptr && *env != '\0') scale = std::strtod(env, nullptr);
  if (!(scale > 0.0)) return base;
  return std::max<std::size_t>(1, static_cast<std::size_t>(static_cast<double>(base) * scale));
}

std::uint64_t test_seed(std::uint64_t base) {
  const char* env = std::getenv("HITGRID_TEST_SEED");
  if (env == nullptr || *env == '\0') return base;
  return base ^ (std::strtoull(env, nullptr, 0) * 0x9E3779B97F4A7C15ull);
}

bool verbose() {
  const char* env = std::getenv("HITGRID_TEST_VERBOSE");
  return env != nullptr && *env != '\0' && *env != '0';
}

// Formatted with snprintf rather than operator+ chains: GCC 12 reports a false
// -Wrestrict in inlined std::string concatenation at -O3.
std::string hex(float v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%af", static_cast<double>(v));
  return buf;
}

std::string describe(Vec2 v) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "{%af, %af}", static_cast<double>(v.x), static_cast<double>(v.y));
  return buf;
}

std::string describe(const Segment& s) {
  char buf[192];
  std::snprintf(buf, sizeof buf, "Segment{{%af, %af}, {%af, %af}}", static_cast<double>(s.a.x),
                static_cast<double>(s.a.y), static_cast<double>(s.b.x), static_cast<double>(s.b.y));
  return buf;
}

std::string describe(const Circle& c) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "Circle{{%af, %af}, %af}", static_cast<double>(c.c.x), static_cast<double>(c.c.y),
                static_cast<double>(c.r));
  return buf;
}

std::string describe(const Box& b) {
  char buf[192];
  std::snprintf(buf, sizeof buf, "Box{{%af, %af}, {%af, %af}}", static_cast<double>(b.min.x),
                static_cast<double>(b.min.y), static_cast<double>(b.max.x), static_cast<double>(b.max.y));
  return buf;
}

}  // namespace hitgrid::test
