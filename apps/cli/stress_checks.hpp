// The cross-checks of one `hitgrid stress` round on one scene.
//
// A round finds the pairs of a scene with the configuration under test (an ISA, a thread
// count, a cell size) and requires, pair for pair:
//   - the same list from the scalar ISA, and from another thread count (contract 2);
//   - on windows of the scene, the exact reference: every pair with at least one shape
//     whose bounds (core/aabb.hpp) meet the window, found by testing that shape against
//     every shape of the scene (contracts 1 and 3);
//   - on small scenes, the exact reference on the whole scene.
//
// The pair finder and the exact pair test are parameters, so that the tests can plant a
// bug in the one and use the independent GMP reference for the other. The default
// reference is core's exact test (shape_pair_test.hpp), which tests/core checks against
// GMP rationals; it deliberately shares nothing with the broad phase.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "hitgrid/broadphase/find_pairs.hpp"
#include "hitgrid/core/aabb.hpp"
#include "hitgrid/core/pair_io.hpp"
#include "hitgrid/core/scene.hpp"

namespace hitgrid::stress {

/// What a pair finder is run with.
struct FinderConfig {
  Isa isa = Isa::scalar;  // concrete
  unsigned threads = 1;
  float cell_size = 0.0f;
  float large_cell_size = 0.0f;
};

/// "isa avx2, 3 threads, cell 0.25, large cell auto".
std::string describe(const FinderConfig& config);

using PairFinderFn = std::function<PairList(const Scene&, const FinderConfig&)>;
/// hitgrid::find_pairs with the configuration.
PairList library_finder(const Scene& scene, const FinderConfig& config);

using PairTestFn = std::function<bool(const Scene&, ShapeId, ShapeId)>;
/// core's exact test: hitgrid::intersects(scene, a, b).
bool library_pair_test(const Scene& scene, ShapeId a, ShapeId b);

/// Shapes whose bounds meet the closed window, in id order.
std::vector<ShapeId> shapes_in_window(const Scene& scene, const Aabb& window);
/// Every colliding pair with at least one shape in `focus` (sorted, no duplicates): each
/// shape of `focus` tested against every other shape of the scene, with no pre-filter.
PairList reference_pairs_touching(const Scene& scene, std::span<const ShapeId> focus, const PairTestFn& test);
/// All colliding pairs (focus = every shape).
PairList reference_pairs(const Scene& scene, const PairTestFn& test);
/// The pairs of a sorted list with at least one shape in the sorted `focus`.
PairList pairs_touching(const PairList& pairs, std::span<const ShapeId> focus);

/// What one round checks on its scene.
struct SceneChecks {
  FinderConfig tested;         // the configuration under test
  FinderConfig scalar;         // the same on the scalar ISA
  FinderConfig other_threads;  // the same on another thread count
  std::vector<Aabb> windows;   // checked against the exact reference
  bool whole_reference = false;  // also the exact reference on the whole scene
};

/// Two answers that should be equal and are not.
struct Mismatch {
  std::string what;           // "isa avx2, 2 threads, ... vs the exact reference on window 1"
  std::vector<Pair> missing;  // in the expected list only (at most a few kept)
  std::vector<Pair> extra;    // in the tested list only (at most a few kept)
  std::uint64_t missing_count = 0, extra_count = 0;
};

/// "missing s 3 c 1, extra ..." with counts.
std::string describe(const Mismatch& m);

/// The difference between an expected and a found list (both sorted), or nothing.
std::optional<Mismatch> compare_pairs(const PairList& expected, const PairList& found, std::string what);

/// What the checks cost and found, for the summary.
struct CheckCounts {
  std::uint64_t pairs = 0;             // pairs of the tested configuration
  std::uint64_t reference_tests = 0;   // exact tests run by the reference
  std::uint64_t window_shapes = 0;     // shapes in the windows
};

/// Runs every check; the first disagreement, or nothing.
std::optional<Mismatch> check_scene(const Scene& scene, const SceneChecks& checks, const PairFinderFn& finder,
                                    const PairTestFn& test, CheckCounts* counts = nullptr);

}  // namespace hitgrid::stress
