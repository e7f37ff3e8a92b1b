// Shared by the tests of the geometry functions (test_segment_intersection, test_distance,
// test_ray_box, test_ray_circle, test_ray_segment, test_time_of_impact, test_swept_circle,
// test_point_in_polygon, test_winding, test_adaptive_eval, test_exact_sum): exact rational references with GMP, a
// seeded generator, and input families that exercise the degenerate cases.
//
// The references are written from the definitions (solve for rational parameters, clip
// rational intervals, minimise a quadratic at a rational point), not from the library's
// formulations, so a shared mistake is unlikely.
#pragma once

#include <gmpxx.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "hitgrid/core/shapes.hpp"
#include "hitgrid/core/vec2.hpp"

namespace hitgrid::geomtest {

// --- exact numbers ---------------------------------------------------------------------

inline mpq_class Q(double v) { return mpq_class(v); }  // exact: GMP converts doubles exactly
inline mpq_class Q(float v) { return mpq_class(static_cast<double>(v)); }

inline int sign_of(const mpq_class& v) {
  const int s = mpq_sgn(v.get_mpq_t());
  return (s > 0) - (s < 0);
}
inline mpq_class qabs(const mpq_class& v) { return sign_of(v) < 0 ? mpq_class(-v) : v; }
inline mpq_class qmax(const mpq_class& a, const mpq_class& b) { return a < b ? b : a; }
inline mpq_class qmin(const mpq_class& a, const mpq_class& b) { return a < b ? a : b; }
/// 2^k as an exact rational.
inline mpq_class pow2(int k) {
  mpq_class r(1);
  if (k >= 0)
    mpz_mul_2exp(r.get_num_mpz_t(), r.get_num_mpz_t(), static_cast<mp_bitcnt_t>(k));
  else
    mpz_mul_2exp(r.get_den_mpz_t(), r.get_den_mpz_t(), static_cast<mp_bitcnt_t>(-k));
  r.canonicalize();
  return r;
}

struct QVec {
  mpq_class x, y;
};
inline QVec QV(Vec2 v) { return {Q(v.x), Q(v.y)}; }
inline QVec QV(Vec2d v) { return {Q(v.x), Q(v.y)}; }
inline mpq_class cross(const QVec& a, const QVec& b) { return a.x * b.y - a.y * b.x; }
inline mpq_class dot(const QVec& a, const QVec& b) { return a.x * b.x + a.y * b.y; }
inline QVec sub(const QVec& a, const QVec& b) { return {a.x - b.x, a.y - b.y}; }
inline QVec add(const QVec& a, const QVec& b) { return {a.x + b.x, a.y + b.y}; }
inline QVec scale(const mpq_class& s, const QVec& a) { return {s * a.x, s * a.y}; }
inline bool operator==(const QVec& a, const QVec& b) { return a.x == b.x && a.y == b.y; }
inline mpq_class norm_inf(const QVec& a) { return qmax(qabs(a.x), qabs(a.y)); }

/// |x - y| <= bound, exactly.
inline bool within(const mpq_class& x, const mpq_class& y, const mpq_class& bound) { return qabs(x - y) <= bound; }
inline bool within(double x, const mpq_class& y, const mpq_class& bound) { return within(Q(x), y, bound); }

/// A rational number type for instantiating the library's polynomial templates
/// (geometry_polynomials.hpp) exactly, to test the number types that evaluate them.
/// (A wrapper because gmpxx's expression templates dangle when captured by `auto`.)
struct QN {
  mpq_class v;
  QN() = default;
  explicit QN(double d) : v(d) {}
  explicit QN(mpq_class q) : v(std::move(q)) {}
};
inline QN operator+(const QN& a, const QN& b) { return QN(mpq_class(a.v + b.v)); }
inline QN operator-(const QN& a, const QN& b) { return QN(mpq_class(a.v - b.v)); }
inline QN operator*(const QN& a, const QN& b) { return QN(mpq_class(a.v * b.v)); }
inline QN operator-(const QN& a) { return QN(mpq_class(-a.v)); }

/// Exact squared distance from p to the closed segment [a, b].
inline mpq_class dist2_to_segment(const QVec& p, const QVec& a, const QVec& b) {
  const QVec r = sub(b, a);
  const mpq_class rr = dot(r, r);
  mpq_class t = 0;
  if (rr != 0) t = qmin(mpq_class(1), qmax(mpq_class(0), mpq_class(dot(sub(p, a), r) / rr)));
  const QVec d = sub(p, add(a, scale(t, r)));
  return dot(d, d);
}

// --- seeded inputs -----------------------------------------------------------------------

/// SplitMix64, local to the tests so that inputs never change with library code.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double unit() { return static_cast<double>(next() >> 11) * 0x1p-53; }
  int between(int lo, int hi) {
    return lo + static_cast<int>(next() % static_cast<std::uint64_t>(hi - lo + 1));
  }
  bool chance(double p) { return unit() < p; }

 private:
  std::uint64_t state_;
};

/// A coordinate frame x = offset + scale * k. Every frame maps small integers k to floats
/// exactly, so degenerate configurations built from integers stay exactly degenerate:
/// around 1 (lattice), around 1e7 (ulp 1), and around 1e-7 (powers of two).
struct Frame {
  double offset_x, offset_y, scale;
  const char* name;
};
inline constexpr Frame frames[] = {
    {0.0, 0.0, 1.0, "lattice"},
    {0.0, 0.0, 0.25, "quarter"},
    {1.0e7, -1.0e7, 1.0, "near 1e7"},
    {0.0, 0.0, 0x1p-26, "near 1e-7"},
    {0x1p-20, 0x1p-21, 0x1p-28, "offset 1e-7"},
};

/// Frames beyond those: around 1e6 (ulp 1/16), and lattices of pitch 2^-100 (~1e-30) and
/// 2^100 (~1e30). Small integers map to floats exactly.
inline constexpr Frame extreme_frames[] = {
    {1.0e6, 1.0e6, 1.0, "near 1e6"},
    {0.0, 0.0, 0x1p-100, "near 1e-30"},
    {0.0, 0.0, 0x1p100, "near 1e30"},
    {0x1p100, -0x1p100, 0x1p80, "offset 1e30"},
};

/// One of frames and extreme_frames, at random.
inline const Frame& any_frame(Rng& rng) {
  const int k = rng.between(0, 8);
  return k < 5 ? frames[k] : extreme_frames[k - 5];
}

inline float pitch(const Frame& f, int k) { return static_cast<float>(f.scale * k); }

inline float frame_coord(double offset, double scale, int k) {
  const double v = offset + scale * k;
  return static_cast<float>(v);  // exact for the frames above and |k| <= 64
}
inline Vec2 frame_point(const Frame& f, int i, int j) {
  return {frame_coord(f.offset_x, f.scale, i), frame_coord(f.offset_y, f.scale, j)};
}

/// A random float of a random family: uniform in [-100, 100], random magnitude over many
/// binades, or a small integer.
inline float random_float(Rng& rng) {
  switch (rng.between(0, 3)) {
    case 0: return static_cast<float>(rng.unit() * 200.0 - 100.0);
    case 1: {
      const double m = 1.0 + rng.unit();
      const int e = rng.between(-30, 30);
      return static_cast<float>((rng.chance(0.5) ? -m : m) * std::ldexp(1.0, e));
    }
    case 2: return static_cast<float>(rng.between(-8, 8));
    default: return static_cast<float>(1.0e7 + rng.between(-20, 20));
  }
}

/// One ulp away from v, either way, sometimes.
inline float nudge(Rng& rng, float v) {
  if (!rng.chance(0.15)) return v;
  return std::nextafter(v, rng.chance(0.5) ? 1e30f : -1e30f);
}

inline std::string hex(float v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%a", static_cast<double>(v));
  return buf;
}
// (snprintf rather than string concatenation: GCC 12 at -O3 reports a false -Wrestrict
// on operator+ of std::string temporaries.)
inline std::string hex(Vec2 v) {
  char buf[100];
  std::snprintf(buf, sizeof buf, "(%a, %a)", static_cast<double>(v.x), static_cast<double>(v.y));
  return buf;
}

}  // namespace hitgrid::geomtest
