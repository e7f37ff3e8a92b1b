// The SIMD pair kernels (simd/pair_kernels.hpp) against their scalar twins, the exact
// tests of core/intersects.hpp: identical booleans on every supported ISA
// (docs/contracts.md, contracts 1 and 2).
//
// Inputs: the adversarial families of tests/support (lattice, shared endpoints,
// collinear, one-ulp near-parallel, tangent, zero size, 1e7, 1e-7, mixed scales, huge,
// subnormal, random bit patterns) plus a "small world" of unit-size shapes where about
// half of the pairs overlap, interleaved case by case so that every batch mixes lanes the
// filter decides with lanes that need the exactness check or the scalar cold path. Every
// drawn pair also comes scaled by a power of two (exact, and the scalar answer stays
// the same up to under- and overflow): the float lanes' stages have thresholds in
// magnitude (products that underflow, integers whose products exceed 24 bits, the range
// of their exactness check), and the families alone sit at a few scales. Segment pairs
// also come from a "large lattice" (integer points on or one step off a line, coordinates
// up to 2^17: orientation products need more than float's 24 bits) and from tiny segments
// with points next to their lines (products that underflow in float).
// Each kind gets pairs_per_kind pairs; every SIMD ISA runs them twice (aligned and with
// every column shifted off alignment by a different amount), once interleaved and once
// grouped by generator, so a kernel sees 3 ISAs x 2 x 2 x 2,000,000 = 24,000,000 lanes on
// an AVX-512 machine. Tails of every length
// 0 .. 2 x (widest lane count) are checked at every start offset, with sentinels after
// the end. Under the sanitizers the count drops 20-fold; HITGRID_TEST_SCALE scales it.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <numeric>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "hitgrid/core/error.hpp"
#include "hitgrid/core/intersects.hpp"
#include "hitgrid/simd/isa.hpp"
#include "hitgrid/simd/pair_kernels.hpp"
#include "support/adversarial.hpp"

using namespace hitgrid;
using simd::PairKind;
using simd::ShapeColumns;

namespace {

#ifdef HITGRID_SANITIZED_BUILD
constexpr std::size_t pairs_per_kind = 100'000;
#else
constexpr std::size_t pairs_per_kind = 2'000'000;
#endif

/// The widest lane count of any kernel: 16 float lanes (box-box on AVX-512).
constexpr std::size_t widest_lanes = 16;

void put(std::vector<float>* col, const Segment& s) {
  col[0].push_back(s.a.x), col[1].push_back(s.a.y), col[2].push_back(s.b.x), col[3].push_back(s.b.y);
}
void put(std::vector<float>* col, const Circle& c) {
  // g[3] is unused for circles: fill it with NaN to prove the kernels never read it.
  col[0].push_back(c.c.x), col[1].push_back(c.c.y), col[2].push_back(c.r), col[3].push_back(__builtin_nanf(""));
}
void put(std::vector<float>* col, const Box& b) {
  col[0].push_back(b.min.x), col[1].push_back(b.min.y), col[2].push_back(b.max.x), col[3].push_back(b.max.y);
}

/// n pairs as eight float columns (four per side), and the scalar twin's answers.
struct PairSet {
  PairKind kind;
  std::vector<float> a[4], b[4];
  std::vector<std::uint8_t> want;
  std::vector<std::uint8_t> source;  // which generator drew the pair
  std::size_t size() const { return want.size(); }
};

// The "small world": shapes of size about 1 in a 16 x 16 square, float coordinates.
struct World {
  test::CaseRng rng;
  float coord() { return static_cast<float>(rng.unit() * 16.0); }
  float offset() { return static_cast<float>(rng.unit() * 2.0 - 1.0); }
  Segment segment() {
    const Vec2 a{coord(), coord()};
    return {a, {a.x + offset(), a.y + offset()}};
  }
  Circle circle() { return {{coord(), coord()}, static_cast<float>(rng.unit() * 0.6)}; }
  Box box() {
    const float x = coord(), y = coord();
    return {{x, y}, {x + static_cast<float>(rng.unit()), y + static_cast<float>(rng.unit())}};
  }
  std::pair<Segment, Segment> segment_segment() { return {segment(), segment()}; }
  std::pair<Segment, Circle> segment_circle() { return {segment(), circle()}; }
  std::pair<Segment, Box> segment_box() { return {segment(), box()}; }
  std::pair<Circle, Circle> circle_circle() { return {circle(), circle()}; }
  std::pair<Circle, Box> circle_box() { return {circle(), box()}; }
  std::pair<Box, Box> box_box() { return {box(), box()}; }
};

/// Powers of two each pair is also scaled by: around the float lanes' thresholds (2^-20
/// and 2^40 for their exactness check, products underflowing below about 2^-63, integers
/// past 2^11), and far out on both sides.
constexpr int scale_exponents[] = {-110, -90, -70, -64, -60, -50, -41, -21, -20, -19,
                                   -1,   1,   2,   11,  12,  20,  39,  40,  41,  60};

/// Ranges of large_lattice_segments, one per run of pairs.
constexpr long lattice_ranges[] = {600, 1000, 1024, 1500, 2048, 3000, 4096, 16384, 65536};

float scaled(float x, int e) { return std::ldexp(x, e); }
Segment scaled(const Segment& s, int e) {
  return {{scaled(s.a.x, e), scaled(s.a.y, e)}, {scaled(s.b.x, e), scaled(s.b.y, e)}};
}
Circle scaled(const Circle& c, int e) { return {{scaled(c.c.x, e), scaled(c.c.y, e)}, scaled(c.r, e)}; }
Box scaled(const Box& b, int e) {
  return {{scaled(b.min.x, e), scaled(b.min.y, e)}, {scaled(b.max.x, e), scaled(b.max.y, e)}};
}
bool finite(const Segment& s) {
  return std::isfinite(s.a.x) && std::isfinite(s.a.y) && std::isfinite(s.b.x) && std::isfinite(s.b.y);
}
bool finite(const Circle& c) { return std::isfinite(c.c.x) && std::isfinite(c.c.y) && std::isfinite(c.r); }
bool finite(const Box& b) {
  return std::isfinite(b.min.x) && std::isfinite(b.min.y) && std::isfinite(b.max.x) && std::isfinite(b.max.y);
}

/// A segment between integer points in [-range, range]^2 and a second one whose endpoints
/// lie on its line or one Bezout step off it, near its ends: orientations 0 or +-1, while
/// the products inside them reach 4 range^2 (2^34 for range 2^16; coordinates up to about
/// 3 range, exact in float). Ranges around 2^10 to 2^12 put pairs on both sides of the
/// float lanes' small-integer limit.
std::pair<Segment, Segment> large_lattice_segments(test::CaseRng& g, long range) {
  double ax = 0, ay = 0;
  long p = 0, q = 0, u = 0, v = 0;  // b - a = (p, q), and p v - q u = 1
  for (;;) {
    ax = g.integer(-range, range), ay = g.integer(-range, range);
    p = static_cast<long>(g.integer(-range, range) - ax), q = static_cast<long>(g.integer(-range, range) - ay);
    // Extended Euclid on (|p|, |q|): s0 |p| + t0 |q| = r0 = gcd.
    long r0 = std::labs(p), r1 = std::labs(q), s0 = 1, s1 = 0, t0 = 0, t1 = 1;
    while (r1 != 0) {
      const long k = r0 / r1;
      r0 -= k * r1, std::swap(r0, r1);
      s0 -= k * s1, std::swap(s0, s1);
      t0 -= k * t1, std::swap(t0, t1);
    }
    if (r0 != 1) continue;  // not coprime (or a point)
    v = p < 0 ? -s0 : s0, u = q < 0 ? t0 : -t0;
    if (p * v - q * u == 1) break;
  }
  const auto dp = static_cast<double>(p), dq = static_cast<double>(q);  // exact: below 2^18
  const auto du = static_cast<double>(u), dv = static_cast<double>(v);
  auto point = [&] {
    const double f = g.integer(-1, 2), side = g.integer(-1, 1);  // near a (f 0), b (f 1), or beyond
    return Vec2{static_cast<float>(ax + f * dp + side * du), static_cast<float>(ay + f * dq + side * dv)};
  };
  const Segment s{{static_cast<float>(ax), static_cast<float>(ay)},
                  {static_cast<float>(ax + dp), static_cast<float>(ay + dq)}};
  return {s, {point(), point()}};
}

/// Tiny segments (coordinates about 2^-60 to 2^-80) and points next to their lines: the
/// products in the orientations underflow in float while the differences round, which
/// is where float lanes need their bound's absolute term.
std::pair<Segment, Segment> tiny_near_collinear_segments(test::CaseRng& g) {
  const int e = -60 - static_cast<int>(g.integer(0, 20));
  auto coord = [&] { return std::ldexp(static_cast<float>(g.unit()), e); };
  const Segment s{{coord(), coord()}, {coord(), coord()}};
  auto near_line = [&] {
    const double t = g.unit() * 2 - 0.5;
    Vec2 c{static_cast<float>(s.a.x + t * (double{s.b.x} - s.a.x)),
           static_cast<float>(s.a.y + t * (double{s.b.y} - s.a.y))};
    if (g.chance(0.5)) c.x = std::nextafter(c.x, 1.0f);
    return c;
  };
  return {s, {near_line(), g.chance(0.5) ? near_line() : Vec2{coord(), coord()}}};
}

template <class A, class B>
PairSet make_pairs(PairKind kind, std::size_t n, std::uint64_t seed, std::pair<A, B> (test::Generator::*draw)(),
                   std::pair<A, B> (World::*world_draw)()) {
  PairSet set{kind, {}, {}, {}, {}};
  std::vector<test::Generator> gens;
  for (const test::Family f : test::all_families) gens.emplace_back(f, test::test_seed(seed));
  World world{test::CaseRng(test::test_seed(seed) ^ 0x77)};
  test::CaseRng extra(test::test_seed(seed) ^ 0x99);
  const std::size_t sources = gens.size() + 3;
  // Each source's pairs come in runs of 64 that share their parameters (scale, range), so
  // that in the grouped order (grouped_by_source) whole batches share them.
  std::vector<std::size_t> drawn_by(sources, 0);
  for (std::size_t i = 0; set.size() < n; ++i) {
    const std::size_t g = i % sources;
    const std::size_t run = drawn_by[g]++ / 64;
    std::pair<A, B> drawn;
    if (g < gens.size()) {
      drawn = (gens[g].*draw)();
    } else if (g == gens.size()) {
      drawn = (world.*world_draw)();
    } else {
      // Two more sources for segment pairs; the world again for the other kinds.
      if constexpr (std::is_same_v<A, Segment> && std::is_same_v<B, Segment>)
        drawn = g == gens.size() + 1 ? large_lattice_segments(extra, lattice_ranges[run % std::size(lattice_ranges)])
                                     : tiny_near_collinear_segments(extra);
      else
        drawn = (world.*world_draw)();
    }
    // The pair as drawn, then scaled (where both stay finite).
    const int e = scale_exponents[run % std::size(scale_exponents)];
    const std::pair<A, B> big{scaled(drawn.first, e), scaled(drawn.second, e)};
    for (const bool is_scaled : {false, true}) {
      const auto& [x, y] = is_scaled ? big : drawn;
      if (set.size() == n || !finite(x) || !finite(y)) continue;
      put(set.a, x);
      put(set.b, y);
      set.want.push_back(intersects(x, y) ? 1 : 0);
      set.source.push_back(static_cast<std::uint8_t>(is_scaled ? sources + g : g));
    }
  }
  return set;
}

PairSet make_pairs(PairKind kind, std::size_t n, std::uint64_t seed) {
  using G = test::Generator;
  switch (kind) {
    case PairKind::segment_segment:
      return make_pairs(kind, n, seed, &G::segment_segment, &World::segment_segment);
    case PairKind::segment_circle:
      return make_pairs(kind, n, seed, &G::segment_circle, &World::segment_circle);
    case PairKind::segment_box:
      return make_pairs(kind, n, seed, &G::segment_box, &World::segment_box);
    case PairKind::circle_circle:
      return make_pairs(kind, n, seed, &G::circle_circle, &World::circle_circle);
    case PairKind::circle_box:
      return make_pairs(kind, n, seed, &G::circle_box, &World::circle_box);
    case PairKind::box_box:
      break;
  }
  return make_pairs(kind, n, seed, &G::box_box, &World::box_box);
}

/// The same pairs grouped by generator, so that batches are of one family: a kernel's
/// shortcut for a batch whose lanes are all of one kind (all small integers, say) is
/// taken only there.
PairSet grouped_by_source(const PairSet& set) {
  std::vector<std::size_t> order(set.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t x, std::size_t y) { return set.source[x] < set.source[y]; });
  PairSet out{set.kind, {}, {}, {}, {}};
  for (const std::size_t i : order) {
    for (int k = 0; k < 4; ++k) out.a[k].push_back(set.a[k][i]), out.b[k].push_back(set.b[k][i]);
    out.want.push_back(set.want[i]);
    out.source.push_back(set.source[i]);
  }
  return out;
}

/// Copies of the columns starting `shift` floats into their buffers (shift 0 keeps the
/// vectors' own alignment, 16 bytes or more from operator new).
struct ShiftedColumns {
  std::vector<float> store[8];
  ShapeColumns a{}, b{};
  ShiftedColumns(const PairSet& set, const std::size_t (&shift)[8]) {
    for (int k = 0; k < 8; ++k) {
      const std::vector<float>& src = k < 4 ? set.a[k] : set.b[k - 4];
      store[k].assign(shift[k], 0.0f);
      store[k].insert(store[k].end(), src.begin(), src.end());
      (k < 4 ? a.g[k] : b.g[k - 4]) = store[k].data() + shift[k];
    }
  }
};

ShapeColumns offset(const ShapeColumns& c, std::size_t first) {
  return {{c.g[0] + first, c.g[1] + first, c.g[2] + first, c.g[3] + first}};
}

std::string describe_lane(const PairSet& set, std::size_t i) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "lane %zu: a = {%a, %a, %a, %a}, b = {%a, %a, %a, %a}, scalar %d", i,
                double{set.a[0][i]}, double{set.a[1][i]}, double{set.a[2][i]}, double{set.a[3][i]}, double{set.b[0][i]},
                double{set.b[1][i]}, double{set.b[2][i]}, double{set.b[3][i]}, set.want[i]);
  return buf;
}

/// Runs the whole set through one ISA with the given column shifts; returns mismatches.
std::size_t run_all(const PairSet& set, Isa isa, const std::size_t (&shift)[8], std::string& first) {
  const ShiftedColumns cols(set, shift);
  std::vector<std::uint8_t> out(set.size() + 1, 0xAB);
  simd::test_pairs(isa, set.kind, set.size(), cols.a, cols.b, out.data());
  std::size_t bad = 0;
  for (std::size_t i = 0; i < set.size(); ++i) {
    if (out[i] != set.want[i]) {
      if (bad++ == 0) first = describe_lane(set, i) + ", got " + std::to_string(out[i]);
    }
  }
  if (out[set.size()] != 0xAB) ++bad, first += " (wrote past the end)";
  return bad;
}

void check_kind(PairKind kind, std::uint64_t seed, bool grouped) {
  const PairSet drawn = make_pairs(kind, test::scaled_count(pairs_per_kind), seed);
  const PairSet set = grouped ? grouped_by_source(drawn) : drawn;
  std::size_t hits = 0;
  for (std::uint8_t w : set.want) hits += w;
  CHECK(hits > set.size() / 20);  // both answers are common
  CHECK(hits < set.size() - set.size() / 20);
  std::size_t lanes = 0;
  for (const Isa isa : supported_isas()) {
    for (const auto& shift : {std::initializer_list<std::size_t>{0, 0, 0, 0, 0, 0, 0, 0},
                              std::initializer_list<std::size_t>{1, 2, 3, 5, 7, 6, 1, 3}}) {
      std::size_t s[8];
      std::copy(shift.begin(), shift.end(), s);
      std::string first;
      const std::size_t bad = run_all(set, isa, s, first);
      INFO(simd::pair_kind_name(kind) << (grouped ? " (grouped)" : "") << " on " << isa_name(isa) << ", shift " << s[0]
                                      << ": " << bad << " mismatches; first: " << first);
      CHECK(bad == 0);
      if (isa != Isa::scalar) lanes += set.size();
    }
  }
  if (test::verbose())
    std::printf("%-16s %zu pairs, %zu true; %zu SIMD lanes checked\n", std::string(simd::pair_kind_name(kind)).c_str(),
                set.size(), hits, lanes);
}

}  // namespace

TEST_CASE("pair kernels equal the scalar exact tests on every ISA", "[simd][pair_kernels]") {
  std::uint64_t seed = 4000;
  for (const PairKind kind : simd::all_pair_kinds) {
    SECTION(std::string(simd::pair_kind_name(kind))) {
      check_kind(kind, seed, false);
      check_kind(kind, seed, true);
    }
    ++seed;
  }
}

TEST_CASE("pair kernels: tails of every length at every offset", "[simd][pair_kernels]") {
  for (const PairKind kind : simd::all_pair_kinds) {
    const PairSet set = make_pairs(kind, 4 * widest_lanes + 8, 4100 + static_cast<std::uint64_t>(kind));
    const std::size_t shift[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    const ShiftedColumns cols(set, shift);
    for (const Isa isa : supported_isas()) {
      for (std::size_t first = 0; first < 8; ++first) {
        for (std::size_t n = 0; n <= 2 * widest_lanes; ++n) {
          std::vector<std::uint8_t> out(n + 8, 0xAB);
          simd::test_pairs(isa, kind, n, offset(cols.a, first), offset(cols.b, first), out.data());
          std::size_t bad = 0;
          for (std::size_t i = 0; i < n; ++i) bad += out[i] != set.want[first + i];
          for (std::size_t i = n; i < n + 8; ++i) bad += out[i] != 0xAB;
          INFO(simd::pair_kind_name(kind) << " on " << isa_name(isa) << ", first " << first << ", n " << n);
          CHECK(bad == 0);
        }
      }
    }
  }
}

TEST_CASE("pair kernels: exactly degenerate lanes are decided", "[simd][pair_kernels]") {
  // A T-junction, a shared endpoint, collinear overlap and a point segment, each next to
  // its one-ulp-off twin, in one batch: filter-undecidable lanes next to easy ones.
  const float up1 = std::nextafter(1.0f, 2.0f);
  const std::vector<std::pair<Segment, Segment>> cases = {
      {{{0, 0}, {2, 0}}, {{1, 0}, {1, 5}}},
      {{{0, 0}, {2, 0}}, {{1, 1e-30f}, {1, 5}}},
      {{{0, 0}, {1, 1}}, {{1, 1}, {2, 0}}},
      {{{0, 0}, {1, 1}}, {{up1, 1}, {2, 0}}},
      {{{0, 0}, {2, 2}}, {{1, 1}, {3, 3}}},
      {{{0, 0}, {1, 1}}, {{up1, up1}, {3, 3}}},
      {{{0, 0}, {4, 2}}, {{2, 1}, {2, 1}}},
      {{{0, 0}, {4, 2}}, {{2, up1}, {2, up1}}},
      {{{1e7f, 1e7f}, {1e7f + 4, 1e7f + 2}}, {{1e7f + 2, 1e7f + 1}, {0, 0}}},
      {{{1e7f, 1e7f}, {1e7f + 4, 1e7f + 2}}, {{1e7f + 2, 1e7f + 2}, {1e7f + 3, 1e7f + 9}}},
  };
  PairSet set{PairKind::segment_segment, {}, {}, {}, {}};
  for (const auto& [s, t] : cases) {
    put(set.a, s);
    put(set.b, t);
    set.want.push_back(intersects(s, t) ? 1 : 0);
  }
  const std::size_t shift[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  for (const Isa isa : supported_isas()) {
    std::string first;
    INFO(isa_name(isa));
    CHECK(run_all(set, isa, shift, first) == 0);
  }
  CHECK(set.want == std::vector<std::uint8_t>{1, 0, 1, 0, 1, 0, 1, 0, 1, 0});
}

TEST_CASE("pair kernels: batches of one hard case", "[simd][pair_kernels]") {
  // Found by searching for inputs on which a weaker float-lane kernel answers wrongly, then
  // run as whole batches of copies, so that no easier lane sends the batch down another
  // path. Tiny segments whose orientation products underflow in float: a bound without
  // its absolute term certifies wrong signs in all four orientations. Integer and
  // negative half-integer coordinates within 2048, whose products need more than 24 bits:
  // a small-integer test that let those pass would trust rounded orientations.
  const std::vector<std::pair<Segment, Segment>> cases = {
      {{{0x1.a995a8p-65f, 0x1.c43e24p-65f}, {0x1.f8fcacp-67f, 0x1.2df59ap-66f}},
       {{0x1.5ce856p-66f, 0x1.8efe58p-66f}, {0x1.f37276p-65f, 0x1.076d74p-65f}}},
      {{{0x1.a4963p-77f, 0x1.b1d984p-66f}, {0x1.4307e2p-66f, 0x1.277c2ep-68f}},
       {{0x1.bfe498p-73f, 0x1.d7f5fap-67f}, {0x1.db2168p-68f, 0x1.2da03p-66f}}},
      {{{0x1.2c9fdp-63f, 0x1.3cdf74p-66f}, {0x1.ed389ep-64f, 0x1.5f345ep-64f}},
       {{0x1.106584p-63f, 0x1.bab7ep-65f}, {0x1.3c99ap-66f, 0x1.8d6fb8p-64f}}},
      {{{0x1.45766ap-64f, 0x1.5220c2p-64f}, {0x1.02bdap-64f, 0x1.c58a0ap-67f}},
       {{0x1.d1661p-69f, 0x1.e3af6cp-69f}, {0x1.05bcdep-64f, 0x1.155612p-66f}}},
      {{{0x1.f4cp+10f, -0x1.f92p+10f}, {-0x1.9c4p+9f, 0x1.958p+9f}},
       {{-0x1.d6p+6f, 0x1.9cp+6f}, {-0x1.762p+10f, 0x1.a6cp+10f}}},
      {{{-0x1.1cap+10f, 0x1.144p+10f}, {0x1.f68p+10f, -0x1.fdep+10f}},
       {{0x1.31cp+10f, -0x1.396p+10f}, {-0x1.966p+10f, -0x1.6fep+10f}}},
      {{{-0x1.d9ep+10f, -0x1.304p+9f}, {0x1.adcp+10f, 0x1.864p+10f}},
       {{0x1.98p+9f, 0x1.fd8p+9f}, {-0x1.88ap+10f, -0x1.c94p+9f}}},
      {{{0x1.dep+9f, -0x1.464p+9f}, {-0x1.a42p+10f, 0x1.efp+10f}},
       {{-0x1.fecp+9f, 0x1.4a8p+10f}, {0x1.1a8p+10f, 0x1.f8p+10f}}},
  };
  const std::size_t shift[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  for (const auto& [s, t] : cases) {
    PairSet set{PairKind::segment_segment, {}, {}, {}, {}};
    for (std::size_t i = 0; i < 4 * widest_lanes; ++i) {
      put(set.a, s);
      put(set.b, t);
      set.want.push_back(intersects(s, t) ? 1 : 0);
    }
    for (const Isa isa : supported_isas()) {
      std::string first;
      INFO(isa_name(isa));
      CHECK(run_all(set, isa, shift, first) == 0);
    }
  }
}

/// Segment-circle pairs whose polynomials' rounding errors come close to the static
/// bounds of the segment-circle kernel (simd/src/kernels/lane_numbers.hpp: 6u and 11u times
/// the magnitude), at tangency, where the computed sign may be wrong: with a bound of 1.5u
/// (distance) or 4u (line distance) the kernel gets some of them wrong (and with 5u, the
/// two pairs the test adds, found by a search). The shapes are
/// Pythagorean (a thin triple a < b / 8, so that mantissas are near 1 and relative
/// roundings largest), scaled by 2^s, with one coordinate a "tie": an odd multiple of half
/// a double ulp of another coordinate, so that their difference rounds in double.
class NearStaticBounds {
 public:
  explicit NearStaticBounds(std::uint64_t seed) : g_(seed) {
    for (long m = 2; m < 64; ++m)
      for (long q = 1; q < m; ++q) {
        if ((m - q) % 2 == 0 || std::gcd(m, q) != 1) continue;
        const long a = std::min(m * m - q * q, 2 * m * q), b = std::max(m * m - q * q, 2 * m * q), c = m * m + q * q;
        if (8 * a < b && c < 4096) thin_.push_back({a, b, c});
      }
  }

  /// A circle whose centre is a Pythagorean point off the segment's end a, radius the
  /// hypotenuse, a moved by a tie: the endpoint distance is 0 to first order. Nine steps of
  /// a.y, each with the segment both ways (endpoint a's branch and endpoint b's).
  void endpoint_cases(std::vector<std::pair<Segment, Circle>>& out) {
    const Triple t = thin_[static_cast<std::size_t>(g_.between(0, static_cast<long>(thin_.size()) - 1))];
    const int s = static_cast<int>(g_.between(-60, 40));
    const float cx = std::ldexp(static_cast<float>(t.b), s), cy = std::ldexp(static_cast<float>(t.a), s);
    const float r = std::ldexp(static_cast<float>(t.c), s);
    const double moved = g_.chance(0.5) ? tie(std::ilogb(cx))
                                        : std::ldexp(static_cast<double>(g_.between(0, (1 << 23) - 1) * 2 + 1),
                                                     std::ilogb(cx) - static_cast<int>(g_.between(45, 90)));
    const auto ax = static_cast<float>(moved);
    const auto ay0 = static_cast<float>(-static_cast<double>(t.b) * ax / static_cast<double>(t.a));
    for (int d = -4; d <= 4; ++d) {
      const float ay = ulps_from(ay0, d);
      const Vec2 a{ax, ay}, b{static_cast<float>(2.0 * ax - cx), static_cast<float>(2.0 * ay - cy)};
      out.push_back(mirrored({{a, b}, {{cx, cy}, r}}));
      out.push_back(mirrored({{b, a}, {{cx, cy}, r}}));
    }
  }

  /// A segment along a thin direction (D a, D b), its start a moved by ties on both axes,
  /// and a circle above it tangent to its line to first order: nine steps of c.x.
  void line_cases(std::vector<std::pair<Segment, Circle>>& out) {
    for (;;) {
      const Triple t = thin_[static_cast<std::size_t>(g_.between(0, static_cast<long>(thin_.size()) - 1))];
      const long k = 1L << g_.between(0, 6);
      if (k * t.c * t.c >= (1L << 24) || k * t.a * t.c >= (1L << 24)) continue;
      long d = 1;
      while (d <= k * t.b) d <<= 1;
      d <<= g_.between(0, 2);
      if (d * t.b >= (1L << 24)) continue;
      const int s = static_cast<int>(g_.between(-60, 40));
      const Vec2 b{std::ldexp(static_cast<float>(d * t.a), s), std::ldexp(static_cast<float>(d * t.b), s)};
      const float cy = std::ldexp(static_cast<float>(k * t.c * t.c), s);
      const float r = std::ldexp(static_cast<float>(k * t.a * t.c), s);
      const Vec2 a{static_cast<float>(tie(std::ilogb(b.x))), static_cast<float>(tie(std::ilogb(cy)))};
      const double wx = -static_cast<double>(a.x) * static_cast<double>(k * t.b) / static_cast<double>(d) +
                        static_cast<double>(a.y) * static_cast<double>(t.a) * static_cast<double>(k * t.b - d) /
                            static_cast<double>(d * t.b);
      const auto cx0 = static_cast<float>(a.x + wx);
      for (int step = -4; step <= 4; ++step) out.push_back(mirrored({{a, b}, {{ulps_from(cx0, step), cy}, r}}));
      return;
    }
  }

 private:
  struct Triple {
    long a, b, c;
  };
  /// +-(2j + 1) 2^(e - 53): half a double ulp of a number in [2^e, 2^(e + 1)), times an odd number.
  double tie(int e) {
    const double v = std::ldexp(static_cast<double>(2 * g_.between(0, 2047) + 1), e - 53);
    return g_.chance(0.5) ? -v : v;
  }
  static float ulps_from(float x, int steps) {
    for (int i = 0; i < std::abs(steps); ++i) x = std::nextafter(x, steps < 0 ? -INFINITY : INFINITY);
    return x;
  }
  /// The pair negated on x, on y, and with the axes swapped, each or not: symmetries of
  /// both polynomials, exact.
  std::pair<Segment, Circle> mirrored(std::pair<Segment, Circle> p) {
    auto& [sg, c] = p;
    if (g_.chance(0.5)) sg.a.x = -sg.a.x, sg.b.x = -sg.b.x, c.c.x = -c.c.x;
    if (g_.chance(0.5)) sg.a.y = -sg.a.y, sg.b.y = -sg.b.y, c.c.y = -c.c.y;
    if (g_.chance(0.5)) {
      std::swap(sg.a.x, sg.a.y), std::swap(sg.b.x, sg.b.y);
      std::swap(c.c.x, c.c.y);
    }
    return p;
  }
  test::CaseRng g_;
  std::vector<Triple> thin_;
};

TEST_CASE("pair kernels: segments tangent to circles within a few units of the static bounds", "[simd][pair_kernels]") {
  NearStaticBounds near(test::test_seed(4200));
  for (const bool line : {false, true}) {
    std::vector<std::pair<Segment, Circle>> cases;
    while (cases.size() < test::scaled_count(line ? 90'000 : 72'000))
      line ? near.line_cases(cases) : near.endpoint_cases(cases);
    if (line) {
      // Wrong with a line-distance bound of 5u.
      cases.push_back({{{-0x1.91cp-63f, -0x1.14ep-61f}, {0x1.08p-20f, 0x1.1p-16f}},
                       {{-0x1.2221e4p-63f, 0x1.22104p-19f}, 0x1.1904p-23f}});
      cases.push_back({{{-0x1.3a8p-14f, -0x1.d2cb68p+0f}, {-0x1.08p+30f, -0x1.1p+34f}},
                       {{0x1.4c7e86p-4f, -0x1.22104p+32f}, 0x1.1904p+28f}});
    }
    PairSet set{PairKind::segment_circle, {}, {}, {}, {}};
    for (const auto& [sg, c] : cases) {
      put(set.a, sg);
      put(set.b, c);
      set.want.push_back(intersects(sg, c) ? 1 : 0);
    }
    std::size_t hits = 0;
    for (std::uint8_t w : set.want) hits += w;
    CHECK(hits > set.size() / 10);  // both answers are common
    CHECK(hits < set.size() - set.size() / 10);
    const std::size_t shift[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    for (const Isa isa : supported_isas()) {
      std::string first;
      const std::size_t bad = run_all(set, isa, shift, first);
      INFO((line ? "line" : "endpoint") << " distance on " << isa_name(isa) << ": " << bad
                                        << " mismatches; first: " << first);
      CHECK(bad == 0);
    }
  }
}

TEST_CASE("test_pairs rejects an unresolved ISA", "[simd][pair_kernels]") {
  const float z = 0.0f;
  const ShapeColumns c{{&z, &z, &z, &z}};
  std::uint8_t out = 0;
  CHECK_THROWS_AS(simd::test_pairs(Isa::automatic, PairKind::box_box, 1, c, c, &out), hitgrid::Error);
  for (const Isa isa : {Isa::sse2, Isa::avx2, Isa::avx512})
    if (!isa_supported(isa)) CHECK_THROWS_AS(simd::test_pairs(isa, PairKind::box_box, 1, c, c, &out), hitgrid::Error);
}
