// Fuzz target: find_pairs on small scenes (up to 48 shapes) against the brute-force
// reference (broadphase/brute_force.hpp: every pair through the exact test), on every ISA,
// one and three threads, and cell sizes from the bytes (contracts 1 to 3).
//
// Bytes: a scale exponent, a cell choice, then per shape a kind byte and its floats, each
// either a small integer times the scale (shared endpoints, collinear chains, tangency,
// one cell holding everything) or raw bits (any finite float32).
#include <algorithm>
#include <cmath>
#include <vector>

#include "fuzz_input.hpp"
#include "hitgrid/broadphase/brute_force.hpp"
#include "hitgrid/broadphase/find_pairs.hpp"
#include "hitgrid/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace hitgrid;
  fuzz::Bytes in(data, size);
  const int scale = static_cast<int>(in.u8() % 255) - 149;
  const std::uint8_t cell_choice = in.u8();
  Scene scene;
  while (in.left() > 0 && scene.size() < 48) {
    const std::uint8_t kind = in.u8();
    float g[4];
    for (float& v : g) {
      if (kind & 0x80) {
        const float f = in.raw_float();
        v = std::isfinite(f) ? f : 0.0f;
      } else {
        v = std::ldexp(static_cast<float>(static_cast<int>(in.u8() % 32) - 16), scale);
      }
    }
    switch (kind % 3) {
      case 0:
        scene.add(Segment{{g[0], g[1]}, {g[2], g[3]}});
        break;
      case 1:
        scene.add(Circle{{g[0], g[1]}, std::fabs(g[2])});
        break;
      default:
        scene.add(Box{{std::fmin(g[0], g[2]), std::fmin(g[1], g[3])}, {std::fmax(g[0], g[2]), std::fmax(g[1], g[3])}});
        break;
    }
  }
  const PairList want = brute_force_pairs(scene);
  FindPairsOptions o;
  // 0: automatic; otherwise a power of two near the scale, from far too small to far too large.
  if (cell_choice % 4 != 0) o.cell_size = std::ldexp(1.0f, std::clamp(scale + cell_choice % 32 - 12, -149, 127));
  if (cell_choice & 0x80) o.large_cell_size = std::ldexp(1.0f, std::clamp(scale + (cell_choice >> 2) % 16 - 4, -149, 127));
  // Every ISA on one thread, the best on three (the merges of per-thread lists).
  for (Isa isa : supported_isas()) {
    o.isa = isa;
    o.threads = 1;
    if (find_pairs(scene, o) != want) fuzz::fail("find_pairs disagrees with the brute-force reference");
  }
  o.threads = 3;
  if (find_pairs(scene, o) != want) fuzz::fail("find_pairs on 3 threads disagrees with the brute-force reference");
  o.method = BroadPhase::sweep_and_prune;
  if (find_pairs(scene, o) != want) fuzz::fail("sweep and prune disagrees with the brute-force reference");
  return 0;
}
