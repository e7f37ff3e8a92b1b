// within_distance (core/within_distance.hpp) against exact GMP references written from the
// definition: the distance between two closed shapes is the minimum of |x - y| over their
// points, computed here as an exact rational squared distance and compared with m^2.
//
// The reference shares no formulation with the library's feature tests:
//   - a disk is its centre grown by r, so the distance of a disk to a shape is
//     max(0, D - r) with D the centre's distance; "<= m" is D^2 <= (r + m)^2;
//   - point to box: the per-axis gaps; point to segment: the clamped projection;
//   - segment to segment and segment to box: the squared distance from the moving point
//     a + t (b - a) to the other shape, a convex piecewise quadratic in t, minimised
//     exactly piece by piece between its rational breakpoints.
//
// Inputs: the adversarial families of tests/support/adversarial with margins at, one ulp
// around and far from each pair's distance; and constructions whose distance is exactly m
// (axis-aligned gaps, Pythagorean directions, tangents, shared directions, zero sizes)
// in frames from subnormal to near FLT_MAX, checked at m, one ulp below and above, and
// with one coordinate one ulp away. Every case also checks m = 0 against intersects().
//
// HITGRID_TEST_VERBOSE prints per-family counts, including how many exact fallbacks
// (predicate_counters) each set of cases took.
#include "hitgrid/core/within_distance.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "geometry_reference.hpp"
#include "hitgrid/core/detail/predicate_counters.hpp"
#include "hitgrid/core/intersects.hpp"
#include "support/adversarial.hpp"

namespace hitgrid {
namespace {

using geomtest::Q;
using geomtest::QV;
using geomtest::QVec;
using test::Family;

// --- The exact reference ------------------------------------------------------------------

/// f(t) = c2 t^2 + c1 t + c0, built as a weighted sum of squares of linear functions of t.
struct Quadratic {
  mpq_class c2 = 0, c1 = 0, c0 = 0;

  /// Adds w (alpha + beta t)^2.
  void add_square(const mpq_class& alpha, const mpq_class& beta, const mpq_class& w = 1) {
    c2 += w * beta * beta;
    c1 += 2 * w * alpha * beta;
    c0 += w * alpha * alpha;
  }
  mpq_class at(const mpq_class& t) const { return (c2 * t + c1) * t + c0; }

  /// The minimum over [t0, t1]. A sum of squares has c2 >= 0, and c2 == 0 makes it constant.
  mpq_class min_on(const mpq_class& t0, const mpq_class& t1) const {
    if (c2 == 0) return at(t0);
    const mpq_class vertex = -c1 / (2 * c2);
    return at(geomtest::qmin(t1, geomtest::qmax(t0, vertex)));
  }
};

/// The points a + t r, t in [0, 1].
struct Path {
  QVec a, r;
  QVec at(const mpq_class& t) const { return {a.x + t * r.x, a.y + t * r.y}; }
};

/// Where alpha + beta t == value, if beta != 0 and the solution lies in (0, 1).
void add_breakpoint(std::vector<mpq_class>& ts, const mpq_class& alpha, const mpq_class& beta, const mpq_class& value) {
  if (beta == 0) return;
  const mpq_class t = (value - alpha) / beta;
  if (t > 0 && t < 1) ts.push_back(t);
}

/// Minimum over t in [0, 1] of a function that is one quadratic between consecutive
/// breakpoints: piece(t0, t1, tm) returns the quadratic that holds on [t0, t1] (tm is its
/// midpoint, where the regime is read). Continuity makes the pieces' closed ends exact.
template <class Piece>
mpq_class piecewise_min(std::vector<mpq_class> ts, Piece&& piece) {
  ts.push_back(0);
  ts.push_back(1);
  std::sort(ts.begin(), ts.end());
  ts.erase(std::unique(ts.begin(), ts.end()), ts.end());
  mpq_class best = -1;
  for (std::size_t i = 0; i + 1 < ts.size(); ++i) {
    const mpq_class tm = (ts[i] + ts[i + 1]) / 2;
    const mpq_class v = piece(tm).min_on(ts[i], ts[i + 1]);
    if (best < 0 || v < best) best = v;
  }
  return best;
}

mpq_class dist2_point_point(const QVec& p, const QVec& q) {
  const QVec d = geomtest::sub(p, q);
  return geomtest::dot(d, d);
}

/// The gap between the closed interval [lo, hi] and the value x (0 inside).
mpq_class interval_gap(const mpq_class& x, const mpq_class& lo, const mpq_class& hi) {
  if (x < lo) return lo - x;
  if (x > hi) return x - hi;
  return 0;
}

mpq_class dist2_point_box(const QVec& p, const Box& b) {
  const mpq_class gx = interval_gap(p.x, Q(b.min.x), Q(b.max.x));
  const mpq_class gy = interval_gap(p.y, Q(b.min.y), Q(b.max.y));
  return gx * gx + gy * gy;
}

Path path_of(const Segment& s) { return {QV(s.a), geomtest::sub(QV(s.b), QV(s.a))}; }

/// Squared distance from segment s to segment t: minimise over s's parameter the squared
/// distance from s(x) to t, which is |s(x) - c|^2, |s(x) - d|^2 or cross^2 / |d - c|^2
/// according to where s(x) projects onto t's line.
mpq_class dist2_segment_segment(const Segment& s, const Segment& t) {
  const Path p = path_of(s);
  const QVec c = QV(t.a), d = QV(t.b);
  const QVec q = geomtest::sub(d, c);
  const mpq_class qq = geomtest::dot(q, q);
  const QVec ac = geomtest::sub(p.a, c), ad = geomtest::sub(p.a, d);
  const auto to_point = [&p](const QVec& from_point) {  // |s(x) - point|^2, from_point = a - point
    Quadratic f;
    f.add_square(from_point.x, p.r.x);
    f.add_square(from_point.y, p.r.y);
    return f;
  };
  if (qq == 0) return to_point(ac).min_on(0, 1);
  // The projection parameter of s(x) onto t, times qq: proj0 + x proj1.
  const mpq_class proj0 = geomtest::dot(ac, q), proj1 = geomtest::dot(p.r, q);
  std::vector<mpq_class> ts;
  add_breakpoint(ts, proj0, proj1, 0);
  add_breakpoint(ts, proj0, proj1, qq);
  return piecewise_min(std::move(ts), [&](const mpq_class& tm) {
    const mpq_class proj = proj0 + tm * proj1;
    if (proj <= 0) return to_point(ac);
    if (proj >= qq) return to_point(ad);
    Quadratic f;
    f.add_square(geomtest::cross(q, ac), geomtest::cross(q, p.r), 1 / qq);
    return f;
  });
}

/// Squared distance from segment s to box b: minimise over s's parameter the squared
/// per-axis gaps of s(x), each 0 or linear in x between the breakpoints where s(x) crosses
/// a side's line.
mpq_class dist2_segment_box(const Segment& s, const Box& b) {
  const Path p = path_of(s);
  const QVec lo = QV(b.min), hi = QV(b.max);
  std::vector<mpq_class> ts;
  add_breakpoint(ts, p.a.x, p.r.x, lo.x);
  add_breakpoint(ts, p.a.x, p.r.x, hi.x);
  add_breakpoint(ts, p.a.y, p.r.y, lo.y);
  add_breakpoint(ts, p.a.y, p.r.y, hi.y);
  const auto axis = [](Quadratic& f, const mpq_class& v, const mpq_class& a, const mpq_class& r, const mpq_class& l,
                       const mpq_class& h) {
    if (v < l) f.add_square(l - a, -r);
    if (v > h) f.add_square(a - h, r);
  };
  return piecewise_min(std::move(ts), [&](const mpq_class& tm) {
    const QVec at = p.at(tm);
    Quadratic f;
    axis(f, at.x, p.a.x, p.r.x, lo.x, hi.x);
    axis(f, at.y, p.a.y, p.r.y, lo.y, hi.y);
    return f;
  });
}

/// The exact question, from the cores' squared distance d2 and the radii's sum: the
/// distance max(0, sqrt(d2) - radii) is <= m iff d2 <= (radii + m)^2.
bool within_reach(const mpq_class& d2, const mpq_class& radii, float m) {
  const mpq_class reach = radii + Q(m);
  return d2 <= reach * reach;
}

/// One pair's exact geometry: the cores' squared distance and the sum of the radii.
struct Exact {
  mpq_class d2, radii;
  bool within(float m) const { return within_reach(d2, radii, m); }
  /// The distance between the shapes, rounded (to choose margins near it).
  double distance() const { return std::max(0.0, std::sqrt(d2.get_d()) - radii.get_d()); }
};

Exact exact(const Segment& s, const Segment& t) { return {dist2_segment_segment(s, t), 0}; }
Exact exact(const Segment& s, const Circle& c) {
  return {geomtest::dist2_to_segment(QV(c.c), QV(s.a), QV(s.b)), Q(c.r)};
}
Exact exact(const Segment& s, const Box& b) { return {dist2_segment_box(s, b), 0}; }
Exact exact(const Circle& c, const Circle& d) {
  return {dist2_point_point(QV(c.c), QV(d.c)), mpq_class(Q(c.r) + Q(d.r))};
}
Exact exact(const Circle& c, const Box& b) { return {dist2_point_box(QV(c.c), b), Q(c.r)}; }
Exact exact(const Box& a, const Box& b) {
  const mpq_class gx = geomtest::qmax(0, geomtest::qmax(Q(b.min.x) - Q(a.max.x), Q(a.min.x) - Q(b.max.x)));
  const mpq_class gy = geomtest::qmax(0, geomtest::qmax(Q(b.min.y) - Q(a.max.y), Q(a.min.y) - Q(b.max.y)));
  return {gx * gx + gy * gy, 0};
}

// --- The library, every argument order -------------------------------------------------

Segment reversed(const Segment& s) { return {s.b, s.a}; }

/// The other argument order and, for segments, the other orientation give `answer` too.
template <class A, class B>
bool consistent(const A& a, const B& b, float m, bool answer) {
  bool same = answer == within_distance(b, a, m);
  if constexpr (std::is_same_v<A, Segment>) same = same && answer == within_distance(reversed(a), b, m);
  if constexpr (std::is_same_v<B, Segment>) same = same && answer == within_distance(a, reversed(b), m);
  return same;
}

float up(float v) { return std::nextafter(v, std::numeric_limits<float>::infinity()); }
float down(float v) { return std::nextafter(v, -std::numeric_limits<float>::infinity()); }
constexpr float float_max = std::numeric_limits<float>::max();

/// A float margin near d >= 0 (rounded to float, FLT_MAX if larger).
float margin_near(double d) { return d >= double{float_max} ? float_max : static_cast<float>(d); }

/// Tallies of one set of cases; mismatches keep the first few, reproducible as hex floats.
/// Exact fallbacks are counted on the first call of each case only (not on the calls that
/// check the other argument orders): fallbacks is how many predicate evaluations fell
/// through the filter, fallback_calls how many calls had at least one.
struct Tally {
  std::size_t cases = 0, within = 0, mismatches = 0, inconsistent = 0, zero_mismatches = 0, not_monotone = 0;
  std::uint64_t fallbacks = 0, fallback_calls = 0;
  std::vector<std::string> first;

  template <class A, class B>
  void note(const A& a, const B& b, float m, const std::string& what) {
    if (first.size() < 6)
      first.push_back(what + ": within_distance(" + test::describe(a) + ", " + test::describe(b) + ", " + test::hex(m) +
                      ")");
  }

  /// One margin: the library against the reference, and monotonicity in m.
  template <class A, class B>
  void check(const A& a, const B& b, float m, const Exact& e) {
    ++cases;
    const std::uint64_t before = predicate_counters().exact_calls;
    const bool got = within_distance(a, b, m);
    const std::uint64_t cold = predicate_counters().exact_calls - before;
    fallbacks += cold;
    fallback_calls += cold > 0;
    const bool want = e.within(m);
    within += want;
    if (got != want) {
      ++mismatches;
      note(a, b, m, want ? "library false, reference true" : "library true, reference false");
    }
    if (!consistent(a, b, m, got)) {
      ++inconsistent;
      note(a, b, m, "overloads disagree");
    }
    if (got && m < float_max && !within_distance(a, b, up(m))) {
      ++not_monotone;
      note(a, b, m, "true here, false one ulp above");
    }
  }

  /// m = 0 is the touching rule: the library's intersects(), and the reference's.
  template <class A, class B>
  void check_zero(const A& a, const B& b, const Exact& e) {
    check(a, b, 0.0f, e);
    if (within_distance(a, b, 0.0f) != intersects(a, b)) {
      ++zero_mismatches;
      note(a, b, 0.0f, "m = 0 differs from intersects");
    }
  }

  void report(const std::string& name) {
    if (test::verbose()) {
      std::printf("%-36s calls %7zu  within %7zu  exact fallbacks %7llu in %7llu calls\n", name.c_str(), cases, within,
                  static_cast<unsigned long long>(fallbacks), static_cast<unsigned long long>(fallback_calls));
    }
    std::string examples;
    for (const std::string& f : first) examples.append("\n  ").append(f);
    INFO(name << ": " << mismatches << " mismatches, " << inconsistent << " inconsistent, " << zero_mismatches
              << " differ from intersects at m = 0, " << not_monotone << " not monotone, in " << cases
              << " margins; first:" << examples);
    CHECK(mismatches == 0);
    CHECK(inconsistent == 0);
    CHECK(zero_mismatches == 0);
    CHECK(not_monotone == 0);
    CHECK(within > 0);  // both answers occur
    CHECK(within < cases);
  }
};

// --- The adversarial families with margins around each pair's distance ------------------

constexpr std::size_t family_pairs_per_kind = 140'000;

/// A random margin: any magnitude from 2^-149 to FLT_MAX, or 0.
float random_margin(test::CaseRng& rng) {
  if (rng.chance(0.05)) return 0.0f;
  const double v = std::ldexp(1.0 + rng.unit(), static_cast<int>(rng.between(-149, 127)));
  return margin_near(v);
}

template <class A, class B>
void check_families(const char* name, std::uint64_t seed, std::pair<A, B> (test::Generator::*draw)()) {
  const std::size_t total = test::scaled_count(family_pairs_per_kind);
  const std::size_t per_family = (total + test::all_families.size() - 1) / test::all_families.size();
  for (const Family family : test::all_families) {
    test::Generator gen(family, test::test_seed(seed));
    test::CaseRng rng(test::test_seed(seed) ^ (static_cast<std::uint64_t>(family) + 1) * 0x9E3779B97F4A7C15ull);
    Tally tally;
    for (std::size_t i = 0; i < per_family; ++i) {
      const auto [a, b] = (gen.*draw)();
      const Exact e = exact(a, b);
      tally.check_zero(a, b, e);
      // The float nearest the distance and its neighbours: exactly the distance when it is
      // a float (lattice gaps), else straddling it.
      const float near = margin_near(e.distance());
      tally.check(a, b, near, e);
      if (near < float_max) tally.check(a, b, up(near), e);
      if (near > 0.0f) tally.check(a, b, down(near), e);
      tally.check(a, b, random_margin(rng), e);
    }
    tally.report(std::string(name) + " " + std::string(test::family_name(family)));
  }
}

// --- Constructions whose distance is exactly m ------------------------------------------

/// Unit space: small integers held in doubles, all arithmetic on them exact.
struct U {
  double x = 0, y = 0;
};
U operator+(U a, U b) { return {a.x + b.x, a.y + b.y}; }
U operator-(U a, U b) { return {a.x - b.x, a.y - b.y}; }
U operator*(double k, U a) { return {k * a.x, k * a.y}; }
double dot(U a, U b) { return a.x * b.x + a.y * b.y; }
U perp(U d) { return {-d.y, d.x}; }

struct USeg {
  U a, b;
};
struct UCircle {
  U c;
  double r = 0;
};
struct UBox {
  U lo, hi;
};

/// A pair of unit-space shapes whose distance is exactly `gap` units.
template <class A, class B>
struct UCase {
  A a;
  B b;
  double gap = 0;
};

double integer(test::CaseRng& g, long lo, long hi) { return static_cast<double>(g.between(lo, hi)); }
U lattice_point(test::CaseRng& g, long range) { return {integer(g, -range, range), integer(g, -range, range)}; }

/// Integer directions of integer length: (len, 0) and scaled Pythagorean triples, in any
/// of the eight orientations.
U pythagorean(test::CaseRng& g, double& len) {
  static constexpr double triples[][3] = {{1, 0, 1}, {3, 4, 5}, {5, 12, 13}, {8, 15, 17}, {7, 24, 25}, {20, 21, 29}};
  const auto& t = triples[g.between(0, 5)];
  const double k = integer(g, 1, 2);
  U d{k * t[0], k * t[1]};
  if (g.chance(0.5)) std::swap(d.x, d.y);
  if (g.chance(0.5)) d.x = -d.x;
  if (g.chance(0.5)) d.y = -d.y;
  len = k * t[2];
  return d;
}

/// A small lattice direction d with dot(d, n) >= 0 (possibly zero: a point segment).
U away_from(test::CaseRng& g, U n) {
  U d = lattice_point(g, 8);
  if (dot(d, n) < 0) d = -1.0 * d;
  if (g.chance(0.1)) d = {0, 0};
  return d;
}

UBox random_box(test::CaseRng& g) {
  const U lo = lattice_point(g, 16);
  U size{integer(g, 0, 8), integer(g, 0, 8)};
  if (g.chance(0.15)) size.x = 0;  // flat boxes and points
  if (g.chance(0.15)) size.y = 0;
  return {lo, lo + size};
}

/// Corner k (0..3) of b; signs gets the directions of the quadrant outside it.
U corner(const UBox& b, long k, U& signs) {
  signs = {(k & 1) != 0 ? 1.0 : -1.0, (k & 2) != 0 ? 1.0 : -1.0};
  return {(k & 1) != 0 ? b.hi.x : b.lo.x, (k & 2) != 0 ? b.hi.y : b.lo.y};
}

/// A direction of integer length pointing into the quadrant of `signs`.
U into_quadrant(test::CaseRng& g, U signs, double& len) {
  const U d = pythagorean(g, len);
  return {signs.x * std::fabs(d.x), signs.y * std::fabs(d.y)};
}

/// A point on side k (0..3) of b and the side's outward normal.
U side_point(test::CaseRng& g, const UBox& b, long k, U& normal) {
  const double x = integer(g, static_cast<long>(b.lo.x), static_cast<long>(b.hi.x));
  const double y = integer(g, static_cast<long>(b.lo.y), static_cast<long>(b.hi.y));
  switch (k) {
    case 0:
      normal = {1, 0};
      return {b.hi.x, y};
    case 1:
      normal = {-1, 0};
      return {b.lo.x, y};
    case 2:
      normal = {0, 1};
      return {x, b.hi.y};
    default:
      normal = {0, -1};
      return {x, b.lo.y};
  }
}

/// Splits a reach of `gap` units into a radius and a margin of at least one unit (mostly).
double margin_part(test::CaseRng& g, double reach) {
  return g.chance(0.9) ? integer(g, 1, static_cast<long>(reach)) : 0.0;
}

// Why each construction's distance is exactly its gap: a separating line. The first shape
// lies in the half-plane n.(x - f) <= 0 and the second in n.(x - f) >= |n|^2, so they are
// at least |n| apart, and the two points named are exactly |n| apart.

UCase<USeg, USeg> segment_segment_at(test::CaseRng& g) {
  double len;
  const U f = lattice_point(g, 16), n = pythagorean(g, len), w = perp(n);
  const double p = integer(g, 0, 3), q = integer(g, 0, 3);
  switch (g.between(0, 3)) {
    case 0:  // an endpoint facing the other's interior (or endpoint, for p = q = 0)
      return {{f - p * w, f + q * w}, {f + n, f + n + away_from(g, n)}, len};
    case 1:  // endpoint to endpoint, each segment leaving the other
      return {{f, f - 1.0 * away_from(g, n)}, {f + n, f + n + away_from(g, n)}, len};
    case 2:  // collinear with a gap of |n|
      return {{f - p * n, f}, {f + n, f + n + q * n}, len};
    default:  // parallel, overlapping projections
      return {{f - p * w, f + q * w}, {f + n - integer(g, 0, 3) * w, f + n + integer(g, 0, 3) * w}, len};
  }
}

UCase<USeg, UCircle> segment_circle_at(test::CaseRng& g) {
  double len;
  const U c = lattice_point(g, 16), n = pythagorean(g, len), w = perp(n);
  const double m = margin_part(g, len);
  const U f = c + n;  // the segment's point closest to the centre
  if (g.chance(0.5)) return {{f - integer(g, 1, 3) * w, f + integer(g, 1, 3) * w}, {c, len - m}, m};  // tangent
  return {{f, f + away_from(g, n)}, {c, len - m}, m};  // an endpoint closest
}

UCase<USeg, UBox> segment_box_at(test::CaseRng& g) {
  const UBox b = random_box(g);
  const long k = g.between(0, 3);
  if (g.chance(0.5)) {  // a corner closest
    double len;
    U signs;
    const U corner_point = corner(b, k, signs);
    const U n = into_quadrant(g, signs, len), w = perp(n);
    const U f = corner_point + n;
    if (g.chance(0.5)) return {{f - integer(g, 0, 3) * w, f + integer(g, 0, 3) * w}, b, len};
    return {{f, f + away_from(g, n)}, b, len};
  }
  U normal;  // a side closest
  const U s = side_point(g, b, k, normal);
  const double gap = integer(g, 1, 20);
  const U f = s + gap * normal, along = perp(normal);
  if (g.chance(0.5)) return {{f - integer(g, 0, 3) * along, f + integer(g, 0, 3) * along}, b, gap};
  return {{f, f + away_from(g, normal)}, b, gap};
}

UCase<UCircle, UCircle> circle_circle_at(test::CaseRng& g) {
  double len;
  const U c = lattice_point(g, 16), n = pythagorean(g, len);
  const double m = margin_part(g, len);
  const double r1 = integer(g, 0, static_cast<long>(len - m));
  return {{c, r1}, {c + n, len - m - r1}, m};
}

UCase<UCircle, UBox> circle_box_at(test::CaseRng& g) {
  const UBox b = random_box(g);
  const long k = g.between(0, 3);
  double len;
  U centre;
  if (g.chance(0.5)) {  // beyond a corner
    U signs;
    const U corner_point = corner(b, k, signs);
    centre = corner_point + into_quadrant(g, signs, len);
  } else {  // beyond a side
    U normal;
    const U s = side_point(g, b, k, normal);
    len = integer(g, 1, 20);
    centre = s + len * normal;
  }
  const double m = margin_part(g, len);
  return {{centre, len - m}, b, m};
}

UCase<UBox, UBox> box_box_at(test::CaseRng& g) {
  const UBox a = random_box(g);
  const U size{integer(g, 0, 8), integer(g, 0, 8)};
  if (g.chance(0.5)) {  // corner to corner, the gaps a Pythagorean pair
    double len;
    const U d = pythagorean(g, len);
    const U lo = a.hi + U{std::fabs(d.x), std::fabs(d.y)};
    return {a, {lo, lo + size}, len};
  }
  const double gap = integer(g, 1, 20);  // side to side, overlapping in y
  const double y = integer(g, static_cast<long>(a.lo.y - size.y), static_cast<long>(a.hi.y));
  return {a, {{a.hi.x + gap, y}, {a.hi.x + gap + size.x, y + size.y}}, gap};
}

/// One of the eight symmetries of the square (distances and integrality kept).
struct Symmetry {
  bool swap_xy, flip_x, flip_y;
  U operator()(U p) const {
    if (swap_xy) std::swap(p.x, p.y);
    return {flip_x ? -p.x : p.x, flip_y ? -p.y : p.y};
  }
  USeg operator()(const USeg& s) const { return {(*this)(s.a), (*this)(s.b)}; }
  UCircle operator()(const UCircle& c) const { return {(*this)(c.c), c.r}; }
  UBox operator()(const UBox& b) const {
    const U p = (*this)(b.lo), q = (*this)(b.hi);
    return {{std::min(p.x, q.x), std::min(p.y, q.y)}, {std::max(p.x, q.x), std::max(p.y, q.y)}};
  }
};

/// x = offset + scale * unit, exact for every unit coordinate the constructions make
/// (|unit| < 400): each frame's offset is a multiple of the float spacing at its
/// coordinates, and the scale a power of two at least that spacing.
struct Frame {
  double ox, oy, scale;
  const char* name;
};
constexpr Frame frames[] = {
    {0, 0, 1, "lattice"},
    {0, 0, 0x1p-3, "eighths"},
    {0x1p20, -0x1p20, 0x1p-3, "near 1e6"},
    {1.0e6, 1.0e6, 0x1p-4, "at 1e6"},
    {0, 0, 0x1p-100, "near 1e-30"},
    {0x1p-90, -0x1p-90, 0x1p-110, "1e-27 offset"},
    {0, 0, 0x1p-140, "subnormal"},
    {0, 0, 0x1p100, "near 1e30"},
    {0x1p106, -0x1p106, 0x1p83, "1e32 offset"},
    {0, 0, 0x1p118, "near FLT_MAX"},
};

/// Maps unit space into floats, counting any coordinate that does not land exactly.
struct Mapper {
  const Frame& f;
  std::size_t& inexact;
  float exact_float(double v) const {
    const auto r = static_cast<float>(v);
    if (double{r} != v) ++inexact;
    return r;
  }
  Vec2 operator()(U p) const { return {exact_float(f.ox + f.scale * p.x), exact_float(f.oy + f.scale * p.y)}; }
  Segment operator()(const USeg& s) const { return {(*this)(s.a), (*this)(s.b)}; }
  Circle operator()(const UCircle& c) const { return {(*this)(c.c), exact_float(f.scale * c.r)}; }
  Box operator()(const UBox& b) const { return {(*this)(b.lo), (*this)(b.hi)}; }
  float length(double units) const { return exact_float(f.scale * units); }
};

/// One float of the shape moved by one ulp, up or down.
void nudge(test::CaseRng& g, float& v) { v = g.chance(0.5) ? up(v) : down(v); }
void nudge(test::CaseRng& g, Segment& s) {
  float* f[] = {&s.a.x, &s.a.y, &s.b.x, &s.b.y};
  nudge(g, *f[g.between(0, 3)]);
}
void nudge(test::CaseRng& g, Circle& c) {
  const long k = g.between(0, 2);
  if (k == 2)
    c.r = c.r > 0.0f && g.chance(0.5) ? down(c.r) : up(c.r);  // never below 0
  else
    nudge(g, k == 0 ? c.c.x : c.c.y);
}
void nudge(test::CaseRng& g, Box& b) {
  // A side moved outward or inward, keeping min <= max.
  float* f[] = {&b.min.x, &b.min.y, &b.max.x, &b.max.y};
  const long k = g.between(0, 3);
  const float old = *f[k];
  nudge(g, *f[k]);
  if (b.min.x > b.max.x || b.min.y > b.max.y) *f[k] = old;
}

constexpr std::size_t constructed_per_kind = 50'000;

template <class UA, class UB>
void check_constructed(const char* name, std::uint64_t seed, UCase<UA, UB> (*build)(test::CaseRng&)) {
  const std::size_t total = test::scaled_count(constructed_per_kind);
  const std::size_t per_frame = (total + std::size(frames) - 1) / std::size(frames);
  test::CaseRng g(test::test_seed(seed));
  for (const Frame& f : frames) {
    Tally tally;
    std::size_t inexact = 0, wrong_construction = 0;
    const Mapper map{f, inexact};
    for (std::size_t i = 0; i < per_frame; ++i) {
      const UCase<UA, UB> u = build(g);
      const Symmetry sym{g.chance(0.5), g.chance(0.5), g.chance(0.5)};
      auto a = map(sym(u.a));
      auto b = map(sym(u.b));
      if (g.chance(0.5)) {
        if constexpr (std::is_same_v<decltype(a), Segment>) a = reversed(a);
      }
      const float m = map.length(u.gap);
      const Exact e = exact(a, b);
      // The construction itself, checked by the reference: exactly m apart.
      if (!e.within(m) || (m > 0.0f && e.within(down(m)))) ++wrong_construction;
      tally.check(a, b, m, e);
      tally.check(a, b, up(m), e);
      if (m > 0.0f) tally.check(a, b, down(m), e);
      tally.check_zero(a, b, e);
      // One float one ulp off: now just inside or just outside the margin.
      auto na = a;
      auto nb = b;
      if (g.chance(0.5))
        nudge(g, na);
      else
        nudge(g, nb);
      tally.check(na, nb, m, exact(na, nb));
    }
    tally.report(std::string(name) + " exactly m, " + f.name);
    INFO(name << ", " << f.name << ": " << inexact << " coordinates not exact, " << wrong_construction
              << " constructions not exactly m apart");
    CHECK(inexact == 0);
    CHECK(wrong_construction == 0);
    // Distance exactly m is a tie that no floating-point filter can certify.
    CHECK(tally.fallback_calls > 0);
  }
}

/// A hand-worked case: the library (every argument order) and the reference must both give
/// the answer worked out by hand.
template <class A, class B>
void expect(const A& a, const B& b, float m, bool want) {
  INFO("within_distance(" << test::describe(a) << ", " << test::describe(b) << ", " << test::hex(m) << ") should be "
                          << (want ? "true" : "false"));
  const bool got = within_distance(a, b, m);
  CHECK(got == want);
  CHECK(consistent(a, b, m, got));
  CHECK(exact(a, b).within(m) == want);
}

constexpr float tiny = std::numeric_limits<float>::denorm_min();

}  // namespace

TEST_CASE("within_distance: valid margins", "[within_distance]") {
  CHECK(valid_margin(0.0f));
  CHECK(valid_margin(-0.0f));
  CHECK(valid_margin(tiny));
  CHECK(valid_margin(float_max));
  CHECK_FALSE(valid_margin(-tiny));
  CHECK_FALSE(valid_margin(std::numeric_limits<float>::infinity()));
  CHECK_FALSE(valid_margin(std::numeric_limits<float>::quiet_NaN()));
}

TEST_CASE("within_distance: hand-worked cases", "[within_distance]") {
  // Box gaps of exactly m on one axis, and a 3-4-5 corner gap; one ulp less is out.
  const Box unit{{0, 0}, {1, 1}};
  expect(unit, Box{{1.5f, 0}, {2, 1}}, 0.5f, true);
  expect(unit, Box{{1.5f, 0}, {2, 1}}, down(0.5f), false);
  expect(unit, Box{{4, 5}, {6, 6}}, 5.0f, true);
  expect(unit, Box{{4, 5}, {6, 6}}, down(5.0f), false);
  expect(unit, Box{{up(4), 5}, {6, 6}}, 5.0f, false);
  // Circles: r1 + r2 + m == |p - q| exactly, the same scaled by 2^100 and 2^-140.
  expect(Circle{{0, 0}, 1}, Circle{{3, 4}, 2}, 2.0f, true);
  expect(Circle{{0, 0}, 1}, Circle{{3, 4}, 2}, down(2.0f), false);
  expect(Circle{{0, 0}, 0x1p100f}, Circle{{3 * 0x1p100f, 4 * 0x1p100f}, 2 * 0x1p100f}, 2 * 0x1p100f, true);
  expect(Circle{{0, 0}, 0x1p100f}, Circle{{3 * 0x1p100f, 4 * 0x1p100f}, 2 * 0x1p100f}, down(2 * 0x1p100f), false);
  expect(Circle{{0, 0}, 0x1p-140f}, Circle{{3 * 0x1p-140f, 4 * 0x1p-140f}, 0}, 4 * 0x1p-140f, true);
  expect(Circle{{0, 0}, 0x1p-140f}, Circle{{3 * 0x1p-140f, 4 * 0x1p-140f}, 0}, 3 * 0x1p-140f, false);
  // Segment and circle: tangent at the margin through the interior and at an endpoint.
  expect(Segment{{-3, 6}, {3, 6}}, Circle{{0, 0}, 5}, 1.0f, true);
  expect(Segment{{-3, 6}, {3, 6}}, Circle{{0, 0}, 5}, down(1.0f), false);
  expect(Segment{{-1, 7}, {7, 1}}, Circle{{0, 0}, 3}, 2.0f, true);  // closest point (3, 4)
  expect(Segment{{-1, 7}, {7, 1}}, Circle{{0, 0}, 3}, down(2.0f), false);
  expect(Segment{{6, 8}, {9, 12}}, Circle{{0, 0}, 4}, 6.0f, true);  // endpoint (6, 8) at 10
  expect(Segment{{6, 8}, {9, 12}}, Circle{{0, 0}, 4}, down(6.0f), false);
  // Segment and segment: collinear with a gap, parallel, T at a distance, shared endpoint,
  // zero-length segments.
  expect(Segment{{0, 0}, {3, 4}}, Segment{{6, 8}, {9, 12}}, 5.0f, true);
  expect(Segment{{0, 0}, {3, 4}}, Segment{{6, 8}, {9, 12}}, down(5.0f), false);
  expect(Segment{{0, 0}, {4, 0}}, Segment{{1, 0.25f}, {3, 0.25f}}, 0.25f, true);
  expect(Segment{{0, 0}, {4, 0}}, Segment{{1, 0.25f}, {3, 0.25f}}, down(0.25f), false);
  expect(Segment{{0, 0}, {4, 0}}, Segment{{2, 3}, {2, 9}}, 3.0f, true);
  expect(Segment{{0, 0}, {4, 0}}, Segment{{2, 3}, {2, 9}}, down(3.0f), false);
  expect(Segment{{0, 0}, {1, 1}}, Segment{{1, 1}, {2, 0}}, 0.0f, true);
  expect(Segment{{1, 1}, {1, 1}}, Segment{{4, 5}, {4, 5}}, 5.0f, true);
  expect(Segment{{1, 1}, {1, 1}}, Segment{{4, 5}, {4, 5}}, down(5.0f), false);
  // Segment and box: parallel to a side, facing a corner along 3-4-5, an endpoint above a side.
  const Box b{{0, 0}, {2, 2}};
  expect(Segment{{-1, 2.5f}, {3, 2.5f}}, b, 0.5f, true);
  expect(Segment{{-1, 2.5f}, {3, 2.5f}}, b, down(0.5f), false);
  expect(Segment{{1, 9}, {9, 3}}, b, 5.0f, true);  // on 3x + 4y = 39, through (2, 2) + (3, 4)
  expect(Segment{{1, 9}, {9, 3}}, b, down(5.0f), false);
  expect(Segment{{1, 5}, {1, 9}}, b, 3.0f, true);
  expect(Segment{{1, 5}, {1, 9}}, b, down(3.0f), false);
  expect(Segment{{0, 0}, {2, 2}}, Box{{1, 1}, {1, 1}}, 0.0f, true);  // a point box on it
  // Circle and box: beyond a corner along 3-4-5, beyond a side; flat box.
  expect(Circle{{5, 6}, 1}, b, 4.0f, true);
  expect(Circle{{5, 6}, 1}, b, down(4.0f), false);
  expect(Circle{{1, 7}, 0}, Box{{-3, 2}, {3, 2}}, 5.0f, true);
  expect(Circle{{1, 7}, 0}, Box{{-3, 2}, {3, 2}}, down(5.0f), false);
}

TEST_CASE("within_distance: the radius and the margin are added exactly", "[within_distance]") {
  // |p - q| = 5 * 2^100 + 5 * 2^-100: the float sum r + m (or r1 + r2 + m) would drop m.
  const Vec2 p{-3 * 0x1p-100f, -4 * 0x1p-100f}, q{3 * 0x1p100f, 4 * 0x1p100f};
  const float big = 5 * 0x1p100f, small = 5 * 0x1p-100f;
  expect(Circle{p, 0}, Circle{q, big}, small, true);
  expect(Circle{p, 0}, Circle{q, big}, down(small), false);
  expect(Circle{p, small}, Circle{q, big}, 0.0f, true);
  expect(Circle{p, down(small)}, Circle{q, big}, 0.0f, false);
  expect(Circle{p, 0x1p-101f}, Circle{q, big}, small - 0x1p-101f, true);
  expect(Circle{p, 0x1p-101f}, Circle{q, big}, down(small - 0x1p-101f), false);
  expect(Segment{p, p}, Circle{q, big}, small, true);
  expect(Segment{p, p}, Circle{q, big}, down(small), false);
  // Closest: the endpoint p of a segment pointing straight away from q.
  expect(Segment{p, {-3 * 0x1p20f, -4 * 0x1p20f}}, Circle{q, big}, small, true);
  expect(Segment{p, {-3 * 0x1p20f, -4 * 0x1p20f}}, Circle{q, big}, down(small), false);
  // The tangent through the interior: the line through p perpendicular to q - p.
  expect(Segment{{p.x - 4 * 0x1p-90f, p.y + 3 * 0x1p-90f}, {p.x + 4 * 0x1p-90f, p.y - 3 * 0x1p-90f}}, Circle{q, big},
         small, true);
  expect(Segment{{p.x - 4 * 0x1p-90f, p.y + 3 * 0x1p-90f}, {p.x + 4 * 0x1p-90f, p.y - 3 * 0x1p-90f}}, Circle{q, big},
         down(small), false);
  expect(Circle{q, big}, Box{p, p}, small, true);
  expect(Circle{q, big}, Box{p, p}, down(small), false);
  // On one axis, the gap between the centres is 2^100 + 3 * 2^46 = r1 + r2 + m, and in
  // double it rounds up (to 2^100 + 2^48) while r1 + r2 + m summed in two steps rounds down
  // twice (to 2^100): the rejection on the bounding intervals must not call them apart.
  const float r = 3 * 0x1p45f;
  expect(Circle{{-2 * r, 0}, r}, Circle{{0x1p100f, 0}, 0x1p100f}, r, true);
  expect(Circle{{-2 * r, 0}, r}, Circle{{0x1p100f, 0}, 0x1p100f}, down(r), false);
}

TEST_CASE("within_distance: huge and tiny magnitudes", "[within_distance]") {
  // Near FLT_MAX: squares and fourth powers are far beyond float but inside double's range.
  const float h = 0x1p125f;
  expect(Circle{{-h, -h}, h}, Circle{{2 * h, 3 * h}, h}, 3 * h, true);  // centres 5h apart
  expect(Circle{{-h, -h}, h}, Circle{{2 * h, 3 * h}, h}, down(3 * h), false);
  expect(Segment{{-h, 2 * h}, {h, 2 * h}}, Box{{-h, -h}, {h, h}}, h, true);
  expect(Segment{{-h, 2 * h}, {h, 2 * h}}, Box{{-h, -h}, {h, h}}, down(h), false);
  expect(Segment{{-h, -h}, {h, h}}, Segment{{2 * h, 0}, {3 * h, 0}}, float_max, true);
  // Subnormal gaps.
  expect(Box{{0, 0}, {tiny, tiny}}, Box{{4 * tiny, 5 * tiny}, {4 * tiny, 5 * tiny}}, 5 * tiny, true);
  expect(Box{{0, 0}, {tiny, tiny}}, Box{{4 * tiny, 5 * tiny}, {4 * tiny, 5 * tiny}}, 4 * tiny, false);
  expect(Segment{{0, 0}, {0, 0}}, Segment{{3 * tiny, 4 * tiny}, {3 * tiny, 9 * tiny}}, 5 * tiny, true);
  expect(Segment{{0, 0}, {0, 0}}, Segment{{3 * tiny, 4 * tiny}, {3 * tiny, 9 * tiny}}, 4 * tiny, false);
}

TEST_CASE("within_distance: segment-segment at distance exactly m", "[within_distance]") {
  check_constructed("segment-segment", 301, &segment_segment_at);
}
TEST_CASE("within_distance: segment-circle at distance exactly m", "[within_distance]") {
  check_constructed("segment-circle", 302, &segment_circle_at);
}
TEST_CASE("within_distance: segment-box at distance exactly m", "[within_distance]") {
  check_constructed("segment-box", 303, &segment_box_at);
}
TEST_CASE("within_distance: circle-circle at distance exactly m", "[within_distance]") {
  check_constructed("circle-circle", 304, &circle_circle_at);
}
TEST_CASE("within_distance: circle-box at distance exactly m", "[within_distance]") {
  check_constructed("circle-box", 305, &circle_box_at);
}
TEST_CASE("within_distance: box-box at distance exactly m", "[within_distance]") {
  check_constructed("box-box", 306, &box_box_at);
}

TEST_CASE("within_distance: segment-segment on the adversarial families", "[within_distance]") {
  check_families("segment-segment", 311, &test::Generator::segment_segment);
}
TEST_CASE("within_distance: segment-circle on the adversarial families", "[within_distance]") {
  check_families("segment-circle", 312, &test::Generator::segment_circle);
}
TEST_CASE("within_distance: segment-box on the adversarial families", "[within_distance]") {
  check_families("segment-box", 313, &test::Generator::segment_box);
}
TEST_CASE("within_distance: circle-circle on the adversarial families", "[within_distance]") {
  check_families("circle-circle", 314, &test::Generator::circle_circle);
}
TEST_CASE("within_distance: circle-box on the adversarial families", "[within_distance]") {
  check_families("circle-box", 315, &test::Generator::circle_box);
}
TEST_CASE("within_distance: box-box on the adversarial families", "[within_distance]") {
  check_families("box-box", 316, &test::Generator::box_box);
}

}  // namespace hitgrid
