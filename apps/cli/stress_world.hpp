// The world part of a `hitgrid stress` round: a hitgrid::World driven through a few
// frames, its pairs, events and queries checked against brute force after every step.
//
// The world starts with the shapes of a scene (one in four static, filters drawn from
// three category bits) and then, each frame, each shape stays, moves by a multiple of its
// own size (lattice scenes stay on their lattice, so exact touching survives), switches
// body, changes filter, or is destroyed and created again (with a new handle) a frame
// later. What happens to a shape depends only on the seed, the frame and the shape's own
// coordinates, never on the other shapes or on its position in the scene, so a failing
// world shrinks like a failing scene (stress_shrink.hpp): a subset of the shapes replays
// the same history for each shape it keeps.
//
// After each step, the expected answers are brute force over the live shapes with the
// exact pair test:
//   - pairs(): every two live shapes, not both static, whose filters accept each other,
//     that intersect (contracts 1 and 3);
//   - begin_events() / end_events(): the difference of consecutive pair sets (contract 6);
//   - query() of a few shapes and points (zero-size boxes) with a random mask, and the hit
//     set of cast() for segments, which must be the query's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "hitgrid/core/scene.hpp"
#include "hitgrid/world/world.hpp"
#include "stress_checks.hpp"

namespace hitgrid::stress {

struct WorldChecks {
  WorldOptions options;  // threads, ISA, cell sizes (margin 0: the exact touching rule)
  std::uint64_t seed = 1;
  unsigned frames = 4;
  unsigned queries = 4;  // per frame
};

struct WorldCounts {
  std::uint64_t steps = 0, pairs = 0, events = 0, queries = 0;
};

/// The first disagreement ("frame 2: pairs: missing ..."), or nothing.
std::optional<std::string> check_world(const Scene& shapes, const WorldChecks& checks, const PairTestFn& test,
                                       WorldCounts* counts = nullptr);

}  // namespace hitgrid::stress
