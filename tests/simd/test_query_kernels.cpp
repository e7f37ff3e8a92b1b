// The batched query kernels (simd/query_kernels.hpp) against their scalar twins in core:
// raycast(Segment|Ray, Box) and time_of_impact(), compared bit for bit (hit, kind, and the
// doubles t_near, t_far, t through their bit patterns) on every supported ISA, with
// unaligned columns and every length of the last partial batch.
//
// Inputs: the segment-box pairs of the adversarial families (tests/support) as segments
// and as rays (direction b - a, exact in float for these families only where it is;
// otherwise simply another ray), a "small world" of random queries and boxes, and swept
// circles built from the circle-circle families with random and lattice velocities,
// including zero relative velocity, touching starts and grazing passes.
#include <bit>
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "hitgrid/core/error.hpp"
#include "hitgrid/core/ray_box.hpp"
#include "hitgrid/core/time_of_impact.hpp"
#include "hitgrid/simd/isa.hpp"
#include "hitgrid/simd/query_kernels.hpp"
#include "support/adversarial.hpp"

using namespace hitgrid;
using simd::QueryKind;

namespace {

#ifdef HITGRID_SANITIZED_BUILD
constexpr std::size_t cases = 50'000;
#else
constexpr std::size_t cases = 600'000;
#endif

struct Columns {
  std::vector<float> g[5];
  void push(std::initializer_list<float> v) {
    int k = 0;
    for (float f : v) g[k++].push_back(f);
  }
  /// Copy whose column k starts shift + k floats into its buffer (unaligned starts, a
  /// different misalignment per column); read it back with at(k, shift).
  Columns shifted(std::size_t shift) const {
    Columns c;
    for (int k = 0; k < 5; ++k) {
      c.g[k].assign(shift + static_cast<std::size_t>(k), 0.0f);
      c.g[k].insert(c.g[k].end(), g[k].begin(), g[k].end());
    }
    return c;
  }
  const float* at(int k, std::size_t shift) const { return g[k].data() + shift + static_cast<std::size_t>(k); }
};

simd::ShapeColumns view(const Columns& c, std::size_t shift, std::size_t first) {
  return {{c.at(0, shift) + first, c.at(1, shift) + first, c.at(2, shift) + first, c.at(3, shift) + first}};
}

std::uint64_t bits(double d) { return std::bit_cast<std::uint64_t>(d); }

void make_slab_cases(std::size_t n, Columns& q, Columns& b) {
  std::vector<test::Generator> gens;
  for (const test::Family f : test::all_families) gens.emplace_back(f, test::test_seed(5100));
  test::CaseRng rng(test::test_seed(5101));
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t g = i % (gens.size() + 1);
    if (g < gens.size()) {
      const auto [s, box] = gens[g].segment_box();
      q.push({s.a.x, s.a.y, s.b.x, s.b.y});
      b.push({box.min.x, box.min.y, box.max.x, box.max.y});
    } else {
      const auto c = [&] { return static_cast<float>(rng.unit() * 4.0 - 2.0); };
      const float x = c(), y = c();
      q.push({c(), c(), c(), c()});
      b.push({x, y, x + static_cast<float>(rng.unit()), y + static_cast<float>(rng.unit())});
    }
  }
}

void make_toi_cases(std::size_t n, Columns& c1, Columns& c2) {
  std::vector<test::Generator> gens;
  for (const test::Family f : test::all_families) gens.emplace_back(f, test::test_seed(5200));
  test::CaseRng rng(test::test_seed(5201));
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t g = i % (gens.size() + 1);
    Circle a, d;
    if (g < gens.size()) {
      std::tie(a, d) = gens[g].circle_circle();
    } else {
      const auto c = [&] { return static_cast<float>(rng.unit() * 8.0); };
      a = {{c(), c()}, static_cast<float>(rng.unit())};
      d = {{c(), c()}, static_cast<float>(rng.unit())};
    }
    // Velocities: random, small integers (exact contacts), zero, or one aimed at the other.
    const double u = rng.unit();
    Vec2 v1{}, v2{};
    if (u < 0.35) {
      v1 = {static_cast<float>(rng.unit() * 8 - 4), static_cast<float>(rng.unit() * 8 - 4)};
      v2 = {static_cast<float>(rng.unit() * 8 - 4), static_cast<float>(rng.unit() * 8 - 4)};
    } else if (u < 0.7) {
      v1 = {static_cast<float>(rng.between(-3, 3)), static_cast<float>(rng.between(-3, 3))};
      v2 = {static_cast<float>(rng.between(-3, 3)), static_cast<float>(rng.between(-3, 3))};
    } else if (u < 0.8) {
      v1 = v2 = {static_cast<float>(rng.between(-3, 3)), 1.0f};
    } else {
      v1 = {d.c.x - a.c.x, d.c.y - a.c.y};  // rounded: towards d
    }
    c1.push({a.c.x, a.c.y, a.r, v1.x, v1.y});
    c2.push({d.c.x, d.c.y, d.r, v2.x, v2.y});
  }
}

}  // namespace

TEST_CASE("raycast_boxes equals raycast() bit for bit on every ISA", "[simd][query_kernels]") {
  const std::size_t n = test::scaled_count(cases);
  Columns q0, b0;
  make_slab_cases(n, q0, b0);
  const Columns q = q0.shifted(0), b = b0.shifted(0);  // at() expects the shifted layout
  for (const QueryKind kind : {QueryKind::segment, QueryKind::ray}) {
    std::vector<std::uint8_t> want_hit(n);
    std::vector<double> want_near(n), want_far(n);
    simd::raycast_boxes(Isa::scalar, kind, n, view(q, 0, 0), view(b, 0, 0),
                        {want_hit.data(), want_near.data(), want_far.data()});
    std::size_t hits = 0;
    for (std::uint8_t h : want_hit) hits += h;
    CHECK(hits > n / 20);
    CHECK(hits < n - n / 20);
    for (const Isa isa : supported_isas()) {
      for (const std::size_t shift : {0u, 3u}) {
        const Columns qs = q0.shifted(shift), bs = b0.shifted(shift);
        std::vector<std::uint8_t> hit(n + 1, 0xAB);
        std::vector<double> t_near(n + 1, -7.0), t_far(n + 1, -7.0);
        simd::raycast_boxes(isa, kind, n, view(qs, shift, 0), view(bs, shift, 0),
                            {hit.data(), t_near.data(), t_far.data()});
        std::size_t bad = 0, first = n;
        for (std::size_t i = 0; i < n; ++i) {
          if (hit[i] != want_hit[i] || bits(t_near[i]) != bits(want_near[i]) || bits(t_far[i]) != bits(want_far[i])) {
            if (bad++ == 0) first = i;
          }
        }
        INFO((kind == QueryKind::segment ? "segment" : "ray")
             << " on " << isa_name(isa) << ", shift " << shift << ": " << bad << " mismatches, first lane " << first);
        CHECK(bad == 0);
        CHECK((hit[n] == 0xAB && t_near[n] == -7.0 && t_far[n] == -7.0));
      }
    }
  }
}

TEST_CASE("raycast_boxes: tails of every length", "[simd][query_kernels]") {
  Columns q0, b0;
  make_slab_cases(64, q0, b0);
  const Columns q = q0.shifted(0), b = b0.shifted(0);
  for (const QueryKind kind : {QueryKind::segment, QueryKind::ray}) {
    std::vector<std::uint8_t> want_hit(64);
    std::vector<double> want_near(64), want_far(64);
    simd::raycast_boxes(Isa::scalar, kind, 64, view(q, 0, 0), view(b, 0, 0),
                        {want_hit.data(), want_near.data(), want_far.data()});
    for (const Isa isa : supported_isas())
      for (std::size_t first = 0; first < 5; ++first)
        for (std::size_t n = 0; n <= 32; ++n) {
          std::vector<std::uint8_t> hit(n + 4, 0xAB);
          std::vector<double> t_near(n + 4, -7.0), t_far(n + 4, -7.0);
          simd::raycast_boxes(isa, kind, n, view(q, 0, first), view(b, 0, first),
                              {hit.data(), t_near.data(), t_far.data()});
          std::size_t bad = 0;
          for (std::size_t i = 0; i < n; ++i)
            bad += hit[i] != want_hit[first + i] || bits(t_near[i]) != bits(want_near[first + i]) ||
                   bits(t_far[i]) != bits(want_far[first + i]);
          for (std::size_t i = n; i < n + 4; ++i) bad += hit[i] != 0xAB || t_near[i] != -7.0 || t_far[i] != -7.0;
          INFO(isa_name(isa) << ", first " << first << ", n " << n);
          CHECK(bad == 0);
        }
  }
}

TEST_CASE("time_of_impact_batch equals time_of_impact() bit for bit on every ISA", "[simd][query_kernels]") {
  const std::size_t n = test::scaled_count(cases);
  Columns c1_raw, c2_raw;
  make_toi_cases(n, c1_raw, c2_raw);
  const Columns c1 = c1_raw.shifted(0), c2 = c2_raw.shifted(0);
  const auto cols = [](const Columns& c, std::size_t shift, std::size_t first) {
    return simd::MovingCircleColumns{c.at(0, shift) + first, c.at(1, shift) + first, c.at(2, shift) + first,
                                     c.at(3, shift) + first, c.at(4, shift) + first};
  };
  std::vector<std::uint8_t> want_kind(n);
  std::vector<double> want_t(n);
  simd::time_of_impact_batch(Isa::scalar, n, cols(c1, 0, 0), cols(c2, 0, 0), {want_kind.data(), want_t.data()});
  std::size_t per_kind[4] = {};
  for (std::uint8_t k : want_kind) ++per_kind[k];
  for (std::size_t k = 0; k < 4; ++k) CHECK(per_kind[k] > 0);  // every kind occurs (touching: rare)
  CHECK(per_kind[static_cast<int>(ToiKind::impact)] > n / 20);
  for (const Isa isa : supported_isas()) {
    for (const std::size_t shift : {0u, 1u}) {
      const Columns s1 = c1_raw.shifted(shift), s2 = c2_raw.shifted(shift);
      for (const std::size_t tail : {std::size_t{0}, std::size_t{1}, std::size_t{5}, std::size_t{13}}) {
        const std::size_t m = n - tail;
        std::vector<std::uint8_t> kind(m + 1, 0xAB);
        std::vector<double> t(m + 1, -7.0);
        simd::time_of_impact_batch(isa, m, cols(s1, shift, 0), cols(s2, shift, 0), {kind.data(), t.data()});
        std::size_t bad = 0, first = m;
        for (std::size_t i = 0; i < m; ++i)
          if (kind[i] != want_kind[i] || bits(t[i]) != bits(want_t[i])) {
            if (bad++ == 0) first = i;
          }
        INFO(isa_name(isa) << ", shift " << shift << ", n " << m << ": " << bad << " mismatches, first lane " << first);
        CHECK(bad == 0);
        CHECK((kind[m] == 0xAB && t[m] == -7.0));
      }
    }
  }
}

TEST_CASE("query kernels reject an unresolved ISA", "[simd][query_kernels]") {
  const float z = 0.0f;
  std::uint8_t h = 0;
  double t0 = 0, t1 = 0;
  const simd::ShapeColumns c{{&z, &z, &z, &z}};
  CHECK_THROWS_AS(simd::raycast_boxes(Isa::automatic, QueryKind::ray, 1, c, c, {&h, &t0, &t1}), hitgrid::Error);
  const simd::MovingCircleColumns m{&z, &z, &z, &z, &z};
  CHECK_THROWS_AS(simd::time_of_impact_batch(Isa::automatic, 1, m, m, {&h, &t0}), hitgrid::Error);
}
