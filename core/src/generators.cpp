#include "hitgrid/core/generators.hpp"

#include <algorithm>
#include <charconv>
#include <cfloat>
#include <cmath>
#include <string>
#include <vector>

#include "hitgrid/core/error.hpp"
#include "hitgrid/core/splitmix64.hpp"

// Bit-exactness needs every double operation rounded to double. x87 code (FLT_EVAL_METHOD
// 2) keeps intermediates in 80-bit registers and would change the scenes.
#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "hitgrid's generators need FLT_EVAL_METHOD == 0 (SSE2 or another IEEE double unit, not x87)"
#endif

namespace hitgrid {
namespace {

// Why this exists: docs/scenes.md defines e.g. `ax + dx` with dx = t * L rounded first. A
// compiler allowed to contract (GCC's default -ffp-contract=fast, clang's =on) may turn
// `a + t * L` into fma(t, L, a), which skips the rounding of the product and changes the
// scene. The project builds with -ffp-contract=off for that reason (and because the exact
// predicates rely on separately rounded operations), but a flag can be lost when someone
// compiles this file another way. So every product that feeds an addition passes through
// rounded(): the empty asm makes the value opaque to the optimizer, so it has to exist as
// a rounded double in a register, and no fused operation can span it. It costs nothing:
// the value is in that register anyway. Products left unwrapped are exact (2 * u(), and
// the 2^-53 scaling inside u()), so fusing them changes nothing: built with
// -march=native -ffp-contract=fast, this file gives the same scene hashes. (Without
// the barrier a fused result differs from the rounded one in the last bits of a double,
// which survives the final rounding to float only near a float rounding boundary, about
// once in 2^28 coordinates: too rare for a small test to see, likely in the biggest
// scenes, and enough to break "bit-identical everywhere".)
inline double rounded(double v) {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
  asm("" : "+x"(v));
#elif defined(__GNUC__) && defined(__aarch64__)
  asm("" : "+w"(v));
#else
  volatile double opaque = v;
  v = opaque;
#endif
  return v;
}

inline float f32(double v) { return static_cast<float>(v); }

// Shortest round-trip text of a double ("0.5", "1e-300", "nan"), for error messages.
std::string text(double v) {
  char buf[32];
  return std::string(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
}

void check(const GeneratorParams& p) {
  if (p.n > ShapeId::max_count)
    throw Error("generator: n = " + std::to_string(p.n) + " exceeds the limit of " +
                std::to_string(ShapeId::max_count) + " shapes");
  if (!(std::isfinite(p.density) && p.density > 0.0))
    throw Error("generator: density must be a positive finite number, got " + text(p.density));
  if (!(std::isfinite(p.length) && p.length >= 0.0))
    throw Error("generator: length must be a non-negative finite number, got " + text(p.length));
  if (p.per_cluster == 0) throw Error("generator: per_cluster must be at least 1");
}

// S = sqrt(N / density). N <= 2^30 converts to double exactly.
double world_side(const GeneratorParams& p) { return std::sqrt(static_cast<double>(p.n) / p.density); }

// One uniform segment: ax, ay, dx, dy drawn in that order (uniform, long_tail, mixed).
inline void add_uniform_segment(Scene& scene, SplitMix64& rng, double s, double len) {
  const double ax = rng.u() * s;
  const double ay = rng.u() * s;
  const double dx = rounded((2.0 * rng.u() - 1.0) * len);
  const double dy = rounded((2.0 * rng.u() - 1.0) * len);
  scene.add(Segment{{f32(ax), f32(ay)}, {f32(ax + dx), f32(ay + dy)}});
}

Scene uniform(const GeneratorParams& p) {
  Scene scene;
  scene.reserve(p.n, 0, 0);
  SplitMix64 rng(p.seed);
  const double s = world_side(p);
  for (std::uint64_t i = 0; i < p.n; ++i) add_uniform_segment(scene, rng, s, p.length);
  return scene;
}

Scene clustered(const GeneratorParams& p) {
  Scene scene;
  scene.reserve(p.n, 0, 0);
  SplitMix64 rng(p.seed);
  const double s = world_side(p);
  const std::uint64_t k_count = std::max<std::uint64_t>(1, p.n / p.per_cluster);
  const auto kd = static_cast<double>(k_count);  // k_count <= 2^30: exact
  std::vector<double> cx(k_count), cy(k_count);
  for (std::uint64_t k = 0; k < k_count; ++k) {
    cx[k] = rng.u() * s;
    cy[k] = rng.u() * s;
  }
  const double sigma = s / (4.0 * std::sqrt(kd));
  for (std::uint64_t i = 0; i < p.n; ++i) {
    // u() * K < K, and floor of it is an exact small integer; min() guards the spec's clamp.
    const auto k = std::min(k_count - 1, static_cast<std::uint64_t>(std::floor(rng.u() * kd)));
    // Sums left to right, as docs/scenes.md says; the named temporaries fix the draw order.
    const double u1 = rng.u();
    const double u2 = rng.u();
    const double u3 = rng.u();
    const double mx = cx[k] + rounded(((u1 + u2) + u3 - 1.5) * sigma);
    const double v1 = rng.u();
    const double v2 = rng.u();
    const double v3 = rng.u();
    const double my = cy[k] + rounded(((v1 + v2) + v3 - 1.5) * sigma);
    const double dx = rounded((2.0 * rng.u() - 1.0) * p.length);
    const double dy = rounded((2.0 * rng.u() - 1.0) * p.length);
    scene.add(Segment{{f32(mx), f32(my)}, {f32(mx + dx), f32(my + dy)}});
  }
  return scene;
}

Scene long_tail(const GeneratorParams& p) {
  Scene scene;
  scene.reserve(p.n, 0, 0);
  SplitMix64 rng(p.seed);
  const double s = world_side(p);
  const double long_length = s / 4.0;
  for (std::uint64_t i = 0; i < p.n; ++i) {
    const double pick = rng.u();
    add_uniform_segment(scene, rng, s, pick < 0.01 ? long_length : p.length);
  }
  return scene;
}

// 0.1 + 0.9 * u() * L, i.e. 0.1 + ((0.9 * u()) * L).
inline double half_extent(SplitMix64& rng, double len) { return 0.1 + rounded(0.9 * rng.u() * len); }

Scene mixed(const GeneratorParams& p) {
  // Count the kinds first so that each column is allocated once, at its final size. The
  // counting pass skips the draws it does not need (a segment takes 4 after its kind draw,
  // a circle 3, a box 4), which costs one draw per shape.
  std::size_t counts[3] = {0, 0, 0};
  {
    SplitMix64 rng(p.seed);
    for (std::uint64_t i = 0; i < p.n; ++i) {
      const double k = rng.u();
      const int kind = k < 0.5 ? 0 : k < 0.75 ? 1 : 2;
      ++counts[kind];
      rng.skip(kind == 1 ? 3 : 4);
    }
  }
  Scene scene;
  scene.reserve(counts[0], counts[1], counts[2]);
  SplitMix64 rng(p.seed);
  const double s = world_side(p);
  for (std::uint64_t i = 0; i < p.n; ++i) {
    const double k = rng.u();
    if (k < 0.5) {
      add_uniform_segment(scene, rng, s, p.length);
    } else if (k < 0.75) {
      const double cx = rng.u() * s;
      const double cy = rng.u() * s;
      const double r = half_extent(rng, p.length);
      scene.add(Circle{{f32(cx), f32(cy)}, f32(r)});
    } else {
      const double x = rng.u() * s;
      const double y = rng.u() * s;
      const double hx = half_extent(rng, p.length);
      const double hy = half_extent(rng, p.length);
      scene.add(Box{{f32(x - hx), f32(y - hy)}, {f32(x + hx), f32(y + hy)}});
    }
  }
  return scene;
}

Scene lattice(const GeneratorParams& p) {
  Scene scene;
  scene.reserve(p.n, 0, 0);
  SplitMix64 rng(p.seed);
  // Every value below is a small integer, exact in double and in float.
  const double g = std::max(4.0, std::floor(std::sqrt(static_cast<double>(p.n))));
  for (std::uint64_t i = 0; i < p.n; ++i) {
    const double ax = std::floor(rng.u() * g);
    const double ay = std::floor(rng.u() * g);
    const double bx = ax + std::floor(rng.u() * 5.0) - 2.0;
    const double by = ay + std::floor(rng.u() * 5.0) - 2.0;
    scene.add(Segment{{f32(ax), f32(ay)}, {f32(bx), f32(by)}});
  }
  return scene;
}

}  // namespace

std::string_view family_name(Family family) {
  switch (family) {
    case Family::uniform: return "uniform";
    case Family::clustered: return "clustered";
    case Family::long_tail: return "long_tail";
    case Family::mixed: return "mixed";
    case Family::lattice: return "lattice";
  }
  return "unknown";
}

std::optional<Family> parse_family(std::string_view name) {
  for (Family f : all_families)
    if (family_name(f) == name) return f;
  return std::nullopt;
}

Scene generate(Family family, const GeneratorParams& params) {
  check(params);
  switch (family) {
    case Family::uniform: return uniform(params);
    case Family::clustered: return clustered(params);
    case Family::long_tail: return long_tail(params);
    case Family::mixed: return mixed(params);
    case Family::lattice: return lattice(params);
  }
  throw Error("generator: unknown family");
}

}  // namespace hitgrid
