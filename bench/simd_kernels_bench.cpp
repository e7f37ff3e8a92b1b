// Throughput of the batched exact pair tests (simd/pair_kernels.hpp): pair tests per
// second (items_per_second) for each kernel on each ISA this machine supports, scalar
// included, so that the SIMD / scalar ratio of every kernel can be read off one run.
//
// Two inputs per kernel, 16,384 pairs each (columns of 64 KiB per side: L2-resident, like a
// batch of candidate pairs of the grid):
//   random   float coordinates in a 2 x 2 world, segments and boxes about 1 long, radii
//            up to 0.6: the bounding boxes overlap often and a realistic fraction of the
//            pairs intersects (counter hit_fraction); the filter decides nearly every lane.
//   lattice  small integer coordinates and radii (0..3): collinear, touching, tangent and
//            zero-size pairs everywhere, so many lanes fall through the filter to the
//            exactness check, and some to the scalar cold path.
// Counter cold_fraction: the share of pairs that called core's exact expansion arithmetic.
// Label: the batch's pair list, that is the lanes whose pair intersects, as a count and an
// FNV-1a hash of their indices: the same on every ISA (the kernels must agree).
//
//   build-rel/bench/simd_kernels_bench --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <vector>

#include "hitgrid/core/detail/fnv1a.hpp"
#include "hitgrid/core/detail/predicate_counters.hpp"
#include "hitgrid/core/predicates.hpp"
#include "hitgrid/simd/isa.hpp"
#include "hitgrid/simd/pair_kernels.hpp"

namespace {

using hitgrid::Isa;
using hitgrid::simd::PairKind;

constexpr std::size_t pair_count = 1 << 14;

struct Columns {
  std::vector<float> g[4];
  hitgrid::simd::ShapeColumns view() const { return {{g[0].data(), g[1].data(), g[2].data(), g[3].data()}}; }
};

class Draw {
 public:
  Draw(bool lattice, std::uint64_t seed) : lattice_(lattice), state_(seed) {}
  double unit() {
    state_ = state_ * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(state_ >> 11) * 0x1p-53;
  }
  float coord() { return lattice_ ? static_cast<float>(static_cast<int>(unit() * 4)) : static_cast<float>(unit() * 2); }
  float length() {
    return lattice_ ? static_cast<float>(static_cast<int>(unit() * 3) - 1) : static_cast<float>(unit() * 2 - 1);
  }
  float radius() {
    return lattice_ ? static_cast<float>(static_cast<int>(unit() * 3)) : static_cast<float>(unit() * 0.6);
  }
  float size() { return lattice_ ? static_cast<float>(static_cast<int>(unit() * 3)) : static_cast<float>(unit()); }

  void shape(bool segment, bool circle, Columns& c) {
    const float x = coord(), y = coord();
    if (segment) {
      push(c, x, y, x + length(), y + length());
    } else if (circle) {
      push(c, x, y, radius(), 0.0f);
    } else {
      push(c, x, y, x + size(), y + size());
    }
  }

 private:
  static void push(Columns& c, float a, float b, float d, float e) {
    c.g[0].push_back(a), c.g[1].push_back(b), c.g[2].push_back(d), c.g[3].push_back(e);
  }
  bool lattice_;
  std::uint64_t state_;
};

void kinds_of(PairKind kind, int& first, int& second) {  // 0 segment, 1 circle, 2 box
  const int table[6][2] = {{0, 0}, {0, 1}, {0, 2}, {1, 1}, {1, 2}, {2, 2}};
  first = table[static_cast<int>(kind)][0];
  second = table[static_cast<int>(kind)][1];
}

void run(benchmark::State& state, Isa isa, PairKind kind, bool lattice) {
  int ka = 0, kb = 0;
  kinds_of(kind, ka, kb);
  Columns a, b;
  Draw draw(lattice, 12345 + static_cast<std::uint64_t>(kind));
  for (std::size_t i = 0; i < pair_count; ++i) {
    draw.shape(ka == 0, ka == 1, a);
    draw.shape(kb == 0, kb == 1, b);
  }
  std::vector<std::uint8_t> out(pair_count);
  const std::uint64_t before = hitgrid::predicate_counters().exact_calls;
  for (auto _ : state) {
    hitgrid::simd::test_pairs(isa, kind, pair_count, a.view(), b.view(), out.data());
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  const auto pairs = static_cast<double>(state.iterations()) * pair_count;
  state.SetItemsProcessed(static_cast<std::int64_t>(pairs));
  std::size_t hits = 0;
  hitgrid::Fnv1a hash;
  for (std::size_t i = 0; i < pair_count; ++i)
    if (out[i] != 0) ++hits, hash.add_u64(i);
  state.counters["hit_fraction"] = static_cast<double>(hits) / pair_count;
  state.SetLabel(fmt::format("hits={} hash={:016x}", hits, hash.value()));
  state.counters["cold_fraction"] =
      static_cast<double>(hitgrid::predicate_counters().exact_calls - before) / (pairs > 0 ? pairs : 1.0);
}

// Registered at start-up for the ISAs this machine supports (a static initialiser: the
// library's main comes from benchmark_main).
const bool registered = [] {
  for (const bool lattice : {false, true})
    for (const PairKind kind : hitgrid::simd::all_pair_kinds)
      for (const Isa isa : hitgrid::supported_isas()) {
        const std::string name = std::string(hitgrid::simd::pair_kind_name(kind)) + "/" +
                                 (lattice ? "lattice/" : "random/") + std::string(hitgrid::isa_name(isa));
        benchmark::RegisterBenchmark(name.c_str(), run, isa, kind, lattice);
      }
  return true;
}();

}  // namespace
