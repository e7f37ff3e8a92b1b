// The SIMD pair kernels (simd/pair_kernels.hpp) against their scalar twins, the exact
// tests of core/intersects.hpp: identical booleans on every supported ISA (DESIGN.md
// contracts 1 and 2).
//
// Inputs: the adversarial families of tests/support (lattice, shared endpoints,
// collinear, one-ulp near-parallel, tangent, zero size, 1e7, 1e-7, mixed scales, huge,
// subnormal, random bit patterns) plus a "small world" of unit-size shapes where about
// half of the pairs overlap, interleaved case by case so that every batch mixes lanes the
// filter decides with lanes that need the exactness check or the scalar cold path.
// Each kind gets pairs_per_kind pairs; every SIMD ISA runs them twice (aligned and with
// every column shifted off alignment by a different amount), so a kernel sees
// 3 ISAs x 2 x 2,000,000 = 12,000,000 lanes on an AVX-512 machine. Tails of every length
// 0 .. 2 x (widest lane count) are checked at every start offset, with sentinels after
// the end. Under the sanitizers the count drops 20-fold; HITGRID_TEST_SCALE scales it.
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

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

template <class A, class B>
PairSet make_pairs(PairKind kind, std::size_t n, std::uint64_t seed, std::pair<A, B> (test::Generator::*draw)(),
                   std::pair<A, B> (World::*world_draw)()) {
  PairSet set{kind, {}, {}, {}};
  std::vector<test::Generator> gens;
  for (const test::Family f : test::all_families) gens.emplace_back(f, test::test_seed(seed));
  World world{test::CaseRng(test::test_seed(seed) ^ 0x77)};
  const std::size_t sources = gens.size() + 1;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t g = i % sources;
    const auto [x, y] = g < gens.size() ? (gens[g].*draw)() : (world.*world_draw)();
    put(set.a, x);
    put(set.b, y);
    set.want.push_back(intersects(x, y) ? 1 : 0);
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

void check_kind(PairKind kind, std::uint64_t seed) {
  const PairSet set = make_pairs(kind, test::scaled_count(pairs_per_kind), seed);
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
      INFO(simd::pair_kind_name(kind) << " on " << isa_name(isa) << ", shift " << s[0] << ": " << bad
                                      << " mismatches; first: " << first);
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
    SECTION(std::string(simd::pair_kind_name(kind))) { check_kind(kind, seed); }
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
  PairSet set{PairKind::segment_segment, {}, {}, {}};
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

TEST_CASE("test_pairs rejects an unresolved ISA", "[simd][pair_kernels]") {
  const float z = 0.0f;
  const ShapeColumns c{{&z, &z, &z, &z}};
  std::uint8_t out = 0;
  CHECK_THROWS_AS(simd::test_pairs(Isa::automatic, PairKind::box_box, 1, c, c, &out), std::invalid_argument);
  for (const Isa isa : {Isa::sse2, Isa::avx2, Isa::avx512})
    if (!isa_supported(isa))
      CHECK_THROWS_AS(simd::test_pairs(isa, PairKind::box_box, 1, c, c, &out), std::invalid_argument);
}
