// The rounds of `hitgrid stress`: what each round draws, and running one.
//
// Round r of seed s is a pure function of (s, r) and the options: its layout, size, scene
// seed, ISA, thread counts, cell sizes and windows, so a round replays anywhere (the
// --seconds limit only decides how many rounds run). A round that finds a disagreement
// shrinks the scene to a minimal reproducer (stress_shrink.hpp) before it returns.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hitgrid/simd/isa.hpp"
#include "stress_checks.hpp"
#include "stress_scenes.hpp"
#include "stress_world.hpp"

namespace hitgrid::stress {

struct StressOptions {
  std::uint64_t max_n = 100'000;            // largest scene
  std::optional<Isa> isa;                   // the ISA under test; nothing: each round draws one
  unsigned max_threads = 4;                 // thread counts drawn from 1..max_threads
  std::uint64_t seed = 1;
  std::vector<Layout> layouts{all_layouts.begin(), all_layouts.end()};
  bool world = true;                        // also drive a World each round
  double shrink_seconds = 120.0;            // budget of the shrinker
};

/// What round `round` draws.
struct RoundPlan {
  std::uint64_t round = 0;
  Layout layout = Layout::uniform;
  std::uint64_t n = 0;
  std::uint64_t scene_seed = 0;
  FinderConfig tested;
  unsigned other_threads = 1;
  std::uint64_t window_seed = 0;
  WorldChecks world;
  bool run_world = false;
};

RoundPlan plan_round(const StressOptions& options, std::uint64_t round);
/// "round 12: near_1e7 n=4031 seed=... isa avx2, 2 threads, ..."
std::string describe(const RoundPlan& plan);

/// The checks of a planned round on its scene: the windows depend on the scene's shapes.
SceneChecks scene_checks(const RoundPlan& plan, const Scene& scene);

struct RoundResult {
  std::uint64_t shapes = 0;
  CheckCounts counts;
  WorldCounts world;
  /// Set when the round found a disagreement: what, and the shrunk scene that shows it.
  std::optional<std::string> failure;
  Scene reproducer;
  /// For a failure in the world: the world checks that replay it on the reproducer.
  std::optional<WorldChecks> world_failure;
  bool reproducer_minimal = false;
  std::uint64_t shrink_tests = 0;
};

/// The comment line that names a world failure's checks in a reproducer file, and back.
/// "# world: seed=... frames=4 queries=4 threads=2 isa=avx2 cell=0x0p+0 large_cell=0x0p+0"
std::string world_line(const WorldChecks& checks);
std::optional<WorldChecks> parse_world_line(const std::string& line);

RoundResult run_round(const RoundPlan& plan, const PairFinderFn& finder, const PairTestFn& test,
                      double shrink_seconds);

}  // namespace hitgrid::stress
