// The standard scenes, bit for bit. Every pinned value below was computed, not by this
// library, but by tools/scenes_reference.py, an independent Python implementation of
// docs/scenes.md (Python floats are IEEE doubles with separately rounded operations).
#include <catch2/catch.hpp>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <string>

#include "hitgrid/core/error.hpp"
#include "hitgrid/core/generators.hpp"

using namespace hitgrid;

namespace {

using Bits4 = std::array<std::uint32_t, 4>;
using Bits3 = std::array<std::uint32_t, 3>;

std::uint32_t bits(float f) { return std::bit_cast<std::uint32_t>(f); }
Bits4 bits(const Segment& s) { return {bits(s.a.x), bits(s.a.y), bits(s.b.x), bits(s.b.y)}; }
Bits3 bits(const Circle& c) { return {bits(c.c.x), bits(c.c.y), bits(c.r)}; }
Bits4 bits(const Box& b) { return {bits(b.min.x), bits(b.min.y), bits(b.max.x), bits(b.max.y)}; }

Scene make(Family f, std::uint64_t n, std::uint64_t seed = 1) {
  GeneratorParams p;
  p.n = n;
  p.seed = seed;
  return generate(f, p);
}

}  // namespace

TEST_CASE("family names round trip", "[generators]") {
  CHECK(all_families.size() == 5);
  CHECK(family_name(Family::uniform) == "uniform");
  CHECK(family_name(Family::clustered) == "clustered");
  CHECK(family_name(Family::long_tail) == "long_tail");
  CHECK(family_name(Family::mixed) == "mixed");
  CHECK(family_name(Family::lattice) == "lattice");
  for (Family f : all_families) CHECK(parse_family(family_name(f)) == f);
  CHECK_FALSE(parse_family("Uniform").has_value());
  CHECK_FALSE(parse_family("long-tail").has_value());
  CHECK_FALSE(parse_family("").has_value());
}

TEST_CASE("default parameters are docs/scenes.md's", "[generators]") {
  const GeneratorParams p;
  CHECK(p.n == 1'000'000);
  CHECK(p.seed == 1);
  CHECK(p.length == 1.0);
  CHECK(p.density == 1.0);
  CHECK(p.per_cluster == 1000);
}

TEST_CASE("uniform: first shapes and scene hash are pinned", "[generators]") {
  const Scene s = make(Family::uniform, 10000);
  REQUIRE(s.segment_count() == 10000);
  CHECK(s.circle_count() == 0);
  CHECK(s.box_count() == 0);
  CHECK(bits(s.segment(0)) == Bits4{0x42629fe8, 0x42952807, 0x42666485, 0x4294ef0d});
  CHECK(bits(s.segment(1)) == Bits4{0x4231b4b5, 0x42989431, 0x4234b984, 0x4298abd0});
  CHECK(bits(s.segment(2)) == Bits4{0x41e4682e, 0x429ecca0, 0x41e2df8b, 0x429f3894});
  // The same first segment as exactly printed floats, for the human reader.
  CHECK(s.segment(0).a.x == 56.656158447265625f);
  CHECK(scene_hash(s) == 0x5b79304b2b9ef955ull);
}

TEST_CASE("clustered: first shapes and scene hash are pinned", "[generators]") {
  const Scene s = make(Family::clustered, 10000);
  REQUIRE(s.segment_count() == 10000);
  CHECK(bits(s.segment(0)) == Bits4{0x424956d4, 0x428ae25b, 0x424b0ca1, 0x42890f28});
  CHECK(bits(s.segment(1)) == Bits4{0x4289a1a8, 0x42ac7839, 0x4289ce60, 0x42ad766a});
  CHECK(bits(s.segment(2)) == Bits4{0x428cbeb3, 0x42a73473, 0x428e1a2d, 0x42a680ab});
  CHECK(scene_hash(s) == 0x1ff7feb403b14a91ull);
}

TEST_CASE("long_tail: first shapes and scene hash are pinned", "[generators]") {
  const Scene s = make(Family::long_tail, 10000);
  REQUIRE(s.segment_count() == 10000);
  CHECK(bits(s.segment(0)) == Bits4{0x42952807, 0x42c23357, 0x4294ef0d, 0x42c1fa45});
  CHECK(bits(s.segment(1)) == Bits4{0x42af7841, 0x42513a14, 0x42ae9c9d, 0x4253942f});
  CHECK(bits(s.segment(2)) == Bits4{0x42722b0c, 0x4235f9a4, 0x427268a6, 0x42357680});
  CHECK(scene_hash(s) == 0x9956aaa14edd71ddull);
  // About 1% of the segments have L = S / 4 = 25 and are longer than the default's sqrt(2).
  int long_ones = 0;
  for (std::uint32_t i = 0; i < s.segment_count(); ++i) {
    const Segment g = s.segment(i);
    if (std::hypot(double(g.b.x) - g.a.x, double(g.b.y) - g.a.y) > 1.5) ++long_ones;
  }
  CHECK(long_ones == 90);
}

TEST_CASE("mixed: first shapes of each kind and scene hash are pinned", "[generators]") {
  const Scene s = make(Family::mixed, 10000);
  CHECK(s.segment_count() == 5066);
  CHECK(s.circle_count() == 2465);
  CHECK(s.box_count() == 2469);
  CHECK(bits(s.segment(0)) == Bits4{0x42989431, 0x42af7841, 0x4298abd0, 0x42ae9c9d});
  CHECK(bits(s.segment(1)) == Bits4{0x4185a0c4, 0x42811122, 0x418aac71, 0x4281cb33});
  CHECK(bits(s.circle(0)) == Bits3{0x42952807, 0x42c23357, 0x3efff5f2});
  CHECK(bits(s.circle(1)) == Bits3{0x42ac5d9c, 0x428da2c7, 0x3ea01d6c});
  CHECK(bits(s.box(0)) == Bits4{0x421f9e7d, 0x426fdc20, 0x4223b1d4, 0x427479f7});
  CHECK(bits(s.box(1)) == Bits4{0x40c1975e, 0x40fdc807, 0x40e48dd0, 0x4105a2df});
  CHECK(scene_hash(s) == 0x8a4a8a741285283aull);
}

TEST_CASE("lattice: first shapes and scene hash are pinned", "[generators]") {
  const Scene s = make(Family::lattice, 10000);
  REQUIRE(s.segment_count() == 10000);
  CHECK(s.segment(0) == Segment{{56, 74}, {58, 74}});
  CHECK(s.segment(1) == Segment{{44, 76}, {46, 76}});
  CHECK(s.segment(2) == Segment{{28, 79}, {28, 80}});
  CHECK(scene_hash(s) == 0xe5b48abc4d8aa4ccull);
  // G = 100: integer endpoints, a in [0, 100), b - a in [-2, 2] on each axis.
  for (std::uint32_t i = 0; i < s.segment_count(); ++i) {
    const Segment g = s.segment(i);
    REQUIRE(g.a.x == std::floor(g.a.x));
    REQUIRE(g.a.y == std::floor(g.a.y));
    REQUIRE((g.a.x >= 0 && g.a.x < 100 && g.a.y >= 0 && g.a.y < 100));
    REQUIRE(std::abs(g.b.x - g.a.x) <= 2);
    REQUIRE(std::abs(g.b.y - g.a.y) <= 2);
  }
}

TEST_CASE("non-default parameters are pinned too", "[generators]") {
  GeneratorParams p;
  p.n = 1000;
  p.seed = 3;
  p.length = 2.5;
  p.density = 0.5;
  CHECK(scene_hash(generate(Family::uniform, p)) == 0x960052ebf64cd274ull);
  CHECK(scene_hash(generate(Family::long_tail, p)) == 0x243a27848110ba65ull);
  const Scene m = generate(Family::mixed, p);
  CHECK(m.segment_count() == 488);
  CHECK(m.circle_count() == 254);
  CHECK(m.box_count() == 258);
  CHECK(scene_hash(m) == 0xf2186673a119608bull);

  GeneratorParams c;
  c.n = 5000;
  c.seed = 7;
  c.per_cluster = 100;  // K = 50 clusters
  CHECK(scene_hash(generate(Family::clustered, c)) == 0x169a68fd7bb86729ull);
  // n < per_cluster: K = max(1, 0) = 1.
  CHECK(scene_hash(make(Family::clustered, 999, 2)) == 0x222fedfc37a6b36aull);
  // Tiny lattice: G = max(4, 1) = 4.
  CHECK(scene_hash(make(Family::lattice, 3, 5)) == 0xd434ba4898b1dcb6ull);
  CHECK(scene_hash(make(Family::uniform, 10000, 0)) == 0x535263fd9341de87ull);
}

TEST_CASE("small n: empty and one-shape scenes are pinned", "[generators]") {
  const std::uint64_t empty_hash = 0x81d23fd7003c2305ull;  // FNV-1a of three zero counts
  for (Family f : all_families) {
    CAPTURE(family_name(f));
    const Scene s = make(Family(f), 0);
    CHECK(s.empty());
    CHECK(scene_hash(s) == empty_hash);
  }
  CHECK(scene_hash(make(Family::uniform, 1)) == 0xabc949c67051feb8ull);
  CHECK(scene_hash(make(Family::clustered, 1)) == 0x22d3e457587f6753ull);
  CHECK(scene_hash(make(Family::long_tail, 1)) == 0x39a907e91031d39bull);
  CHECK(scene_hash(make(Family::mixed, 1)) == 0x885e61fd63023b0bull);
  CHECK(scene_hash(make(Family::lattice, 1)) == 0xf011af510c349924ull);
  CHECK(scene_hash(make(Family::uniform, 7)) == 0xf42d861eff3b2c25ull);
  CHECK(scene_hash(make(Family::clustered, 7)) == 0xcdc3342afb710abaull);
  CHECK(scene_hash(make(Family::long_tail, 7)) == 0x6f1a63a389e0760cull);
  CHECK(scene_hash(make(Family::mixed, 7)) == 0x8752a84d3ebea8feull);
  CHECK(scene_hash(make(Family::lattice, 7)) == 0x8634bd3a522247c2ull);
}

TEST_CASE("generators are deterministic and seed-sensitive", "[generators]") {
  for (Family f : all_families) {
    CAPTURE(family_name(f));
    const Scene a = make(f, 2000, 11);
    CHECK(a == make(f, 2000, 11));
    CHECK_FALSE(a == make(f, 2000, 12));
    CHECK(a.size() == 2000);
  }
}

TEST_CASE("uniform mean segment length is about 0.765 (docs/scenes.md)", "[generators]") {
  const Scene s = make(Family::uniform, 100000);
  double sum = 0.0;
  for (std::uint32_t i = 0; i < s.segment_count(); ++i) {
    const Segment g = s.segment(i);
    sum += std::hypot(double(g.b.x) - g.a.x, double(g.b.y) - g.a.y);
  }
  const double mean = sum / static_cast<double>(s.segment_count());
  CHECK(mean == Approx(0.765).margin(0.002));
  // The reference's value for this very scene.
  CHECK(mean == Approx(0.7655080991655993).epsilon(1e-12));
}

TEST_CASE("the world is [0, S]^2 with S = sqrt(n / density)", "[generators]") {
  GeneratorParams p;
  p.n = 4000;
  p.density = 0.25;  // S = 126.49...
  const Scene s = generate(Family::uniform, p);
  const double side = std::sqrt(4000 / 0.25);
  float max_a = 0;
  for (std::uint32_t i = 0; i < s.segment_count(); ++i) {
    const Segment g = s.segment(i);
    REQUIRE(g.a.x >= 0.0f);
    REQUIRE(g.a.y >= 0.0f);
    REQUIRE(double(g.a.x) <= side);
    REQUIRE(double(g.a.y) <= side);
    REQUIRE(std::abs(g.b.x - g.a.x) <= 1.0f);
    max_a = std::max({max_a, g.a.x, g.a.y});
  }
  CHECK(max_a > 0.99 * side);
}

TEST_CASE("generator parameters are validated", "[generators]") {
  const auto message = [](GeneratorParams p) {
    try {
      generate(Family::uniform, p);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  GeneratorParams p;
  p.n = (1u << 30) + 1;
  CHECK(message(p) == "generator: n = 1073741825 exceeds the limit of 1073741824 shapes");
  p = {};
  p.n = 10;
  p.density = 0.0;
  CHECK(message(p) == "generator: density must be a positive finite number, got 0");
  p.density = -1.0;
  CHECK(message(p) == "generator: density must be a positive finite number, got -1");
  p.density = std::nan("");
  CHECK(message(p) == "generator: density must be a positive finite number, got nan");
  p = {};
  p.n = 10;
  p.length = -0.5;
  CHECK(message(p) == "generator: length must be a non-negative finite number, got -0.5");
  p.length = INFINITY;
  CHECK(message(p) == "generator: length must be a non-negative finite number, got inf");
  p = {};
  p.n = 10;
  p.per_cluster = 0;
  CHECK(message(p) == "generator: per_cluster must be at least 1");
  p = {};
  p.n = 10;
  p.length = 0.0;  // zero-length segments are valid shapes
  CHECK(message(p) == "no error");
  // Parameters so extreme that coordinates overflow float32: a typed error, not a bad scene.
  p = {};
  p.n = 10;
  p.density = 1e-300;
  CHECK_THROWS_AS(generate(Family::uniform, p), InvalidShapeError);
}
