// find_pairs: every colliding pair of a scene, exact, sorted, each pair once.
//
//   hitgrid::Scene scene = ...;
//   hitgrid::PairList pairs = hitgrid::find_pairs(scene);             // defaults: all cores
//   hitgrid::FindPairsOptions opt; opt.threads = 1;
//   hitgrid::FindPairsReport report;
//   pairs = hitgrid::find_pairs(scene, opt, &report);                 // with stage timings
//
// The result is the same sorted list whatever the options (threads, ISA, cell size): the
// options change only how fast it comes. Pairs are ordered by (kind, id) of the lower
// shape, then of the higher one, with kinds ordered segment < circle < box.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hitgrid/core/scene.hpp"
#include "hitgrid/core/shape_id.hpp"
#include "hitgrid/simd/isa.hpp"

namespace hitgrid {

enum class BroadPhase {
  automatic,        // the fastest method available
  grid,             // the uniform grid (uniform_grid.hpp)
  sweep_and_prune,  // sort on x, sweep: the simple correct method
  brute_force,      // all pairs: the reference, O(n^2), for tests and small scenes
};

struct FindPairsOptions {
  /// Worker threads; 0 means every hardware thread.
  unsigned threads = 0;
  /// Narrow-phase instruction set; automatic picks the best the CPU and OS support.
  Isa isa = Isa::automatic;
  /// Grid cell size in world units; 0 means chosen from the shapes' sizes. Must be finite
  /// and >= 0.
  float cell_size = 0.0f;
  BroadPhase method = BroadPhase::automatic;
};

struct StageTime {
  std::string name;
  double ms = 0.0;
};

/// What a find_pairs call did, for reports and benchmarks.
struct FindPairsReport {
  BroadPhase method = BroadPhase::automatic;
  Isa isa = Isa::scalar;  // the narrow-phase ISA that actually ran
  unsigned threads = 1;
  std::uint64_t candidates = 0;   // pairs whose exact test ran
  double cell_size = 0.0;         // grid cell side used (grid only)
  std::vector<StageTime> stages;  // in pipeline order
  double total_ms = 0.0;          // scene in memory to sorted pair list in memory
};

/// Throws hitgrid::Error on invalid options (an unsupported ISA, a negative cell size).
PairList find_pairs(const Scene& scene, const FindPairsOptions& options = {}, FindPairsReport* report = nullptr);

std::string_view broad_phase_name(BroadPhase method);

}  // namespace hitgrid
