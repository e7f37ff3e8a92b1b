// Deterministic adversarial inputs for the predicate and intersection tests.
//
// A family is a way of building inputs that a floating-point implementation gets wrong:
// exactly degenerate configurations (collinear, touching, tangent, zero-size), their
// one-ulp neighbours (nextafter), and magnitudes where double arithmetic on float32 inputs
// stops being exact (1e7 next to 1e-7, values near FLT_MAX, subnormals).
//
// Most families are built in integer "units" and mapped to floats by an exact affine frame
// x = ox + sx * i, y = oy + sy * j (powers of two sx, sy and offsets chosen so every
// coordinate stays representable). Uniform scaling and translation keep every degeneracy
// exact, so one construction (a T-junction, a tangent circle) appears at 1, at 1e7, at
// 1e-7, near 1e38 and among subnormals. Then, with some probability, one or two floats
// of the pair are moved by one ulp, which turns "exactly touching" into "one ulp apart"
// or "one ulp overlapping".
//
// Everything is seeded (SplitMix64), so a failure reproduces from its family and seed;
// the tests also print failing inputs as hex floats.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "hitgrid/core/detail/predicate_counters.hpp"
#include "hitgrid/core/shapes.hpp"

namespace hitgrid::test {

/// SplitMix64 (Steele, Lea, Flood 2014), the project's generator, kept local to the tests
/// so that test inputs never change when library code changes.
class CaseRng {
 public:
  explicit CaseRng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  /// Uniform integer in [lo, hi] (inclusive; the tiny modulo bias does not matter here).
  long between(long lo, long hi);
  /// The same integer as a double (unit-space coordinates are small integers held in doubles).
  double integer(long lo, long hi) { return static_cast<double>(between(lo, hi)); }
  /// Uniform double in [0, 1).
  double unit();
  bool chance(double p) { return unit() < p; }

 private:
  std::uint64_t state_;
};

enum class Family : std::uint8_t {
  uniform,          // random floats, shapes of one size in a square of four sizes: never degenerate
  full_range,       // random bit patterns: every finite float, subnormals to 3.4e38, mixed
  lattice,          // small integer coordinates and radii
  shared_endpoint,  // shapes that share exactly one point (endpoint, corner, boundary point)
  t_junction,       // a point exactly on the other shape's boundary (dyadic, exact)
  collinear,        // chains a + k d on many slopes: consecutive, overlapping, disjoint
  near_parallel,    // random float segments and copies one ulp off; near-tangent circles
  tangent,          // Pythagorean-triple circles tangent to circles, segments, edges, corners
  zero_size,        // point segments, zero radii, flat and point boxes
  near_1e7,         // the constructions above around 1e7 (ulp 1)
  near_1e_7,        // ... around 1e-7 (ulp 2^-47)
  mixed_scale,      // tiny next to large: 2^-120 and 2^96 on one line, per-axis scales,
                    // values half an ulp (of double) apart
  huge,             // the constructions in units of 2^90 .. 2^104; random floats to FLT_MAX
  subnormal,        // the constructions in units of 2^-149 .. 2^-130; random subnormals
};

inline constexpr std::array<Family, 14> all_families = {
    Family::uniform,   Family::full_range, Family::lattice,   Family::shared_endpoint, Family::t_junction,
    Family::collinear, Family::near_parallel, Family::tangent, Family::zero_size,    Family::near_1e7,
    Family::near_1e_7, Family::mixed_scale, Family::huge,      Family::subnormal,
};

std::string_view family_name(Family f);

/// True for the families built to contain exactly degenerate inputs: the library's exact
/// cold path must run on them (the tests assert it through predicate_counters()).
bool family_is_degenerate(Family f);

struct OrientCase {  // orient2d and dot_sign
  Vec2 a, b, c;
};
struct DistanceCase {  // compare_distance
  Vec2 p, q;
  float r;
};
struct CenterCase {  // compare_center_distance
  Vec2 p, q;
  float r1, r2;
};
struct LineCase {  // compare_line_distance
  Vec2 a, b, p;
  float r;
};

/// Inputs of one family, drawn from one seed. Every call returns a fresh case.
class Generator {
 public:
  Generator(Family family, std::uint64_t seed);

  std::pair<Segment, Segment> segment_segment();
  std::pair<Segment, Circle> segment_circle();
  std::pair<Segment, Box> segment_box();
  std::pair<Circle, Circle> circle_circle();
  std::pair<Circle, Box> circle_box();
  std::pair<Box, Box> box_box();

  // Predicate inputs, taken from the shape pairs above (the predicates are what the pair
  // tests evaluate on them), in random argument order and with radii sometimes negated
  // (the predicates are defined for every finite float).
  OrientCase orient_case();
  DistanceCase distance_case();
  CenterCase center_case();
  LineCase line_case();

 private:
  Family family_;
  CaseRng rng_;
};

/// Test size: base * HITGRID_TEST_SCALE (environment, a positive number, default 1; 0.25
/// in the ASan build, which looks for bad accesses, not rare values:
/// support/sanitizer_builds.hpp). The defaults give the contract's 1,000,000 cases per
/// predicate and per pair kind.
std::size_t scaled_count(std::size_t base);

/// The seed of a test: base, mixed with HITGRID_TEST_SEED (environment, an integer,
/// default 0) so that a soak run can explore other inputs; 0 keeps the pinned defaults.
std::uint64_t test_seed(std::uint64_t base);

/// True if HITGRID_TEST_VERBOSE is set: the tests then print per-family statistics.
bool verbose();

// Reproducible descriptions of inputs: hex floats (%a), exact and pasteable into C++.
std::string hex(float v);
std::string describe(Vec2 v);
std::string describe(const Segment& s);
std::string describe(const Circle& c);
std::string describe(const Box& b);

/// `rounds` rounds of one pair of each kind from g (segment-segment, segment-circle,
/// segment-box, circle-circle, circle-box, box-box), each handed to place(a, b).
template <class Place>
void place_pairs(Generator& g, int rounds, Place&& place) {
  for (int i = 0; i < rounds; ++i) {
    const auto ss = g.segment_segment();
    place(ss.first, ss.second);
    const auto sc = g.segment_circle();
    place(sc.first, sc.second);
    const auto sb = g.segment_box();
    place(sb.first, sb.second);
    const auto cc = g.circle_circle();
    place(cc.first, cc.second);
    const auto cb = g.circle_box();
    place(cb.first, cb.second);
    const auto bb = g.box_box();
    place(bb.first, bb.second);
  }
}

}  // namespace hitgrid::test
