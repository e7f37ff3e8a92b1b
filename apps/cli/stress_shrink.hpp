// Shrinking a failing scene to a minimal reproducer: delta debugging (Zeller and
// Hildebrandt's ddmin) over the shapes.
//
// `fails(scene)` says whether a scene still shows the disagreement. The result is a
// subset of the shapes that still fails and is 1-minimal (removing any one shape makes it
// pass) unless the budget ran out first. Before the general search it tries the
// `suspects` (the shapes of the disputed pairs, which is where an exactness bug lives):
// when they fail on their own, the search starts from them and is over in a few tests.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "hitgrid/core/scene.hpp"

namespace hitgrid::stress {

/// The shapes `keep` (sorted ids of `scene`) as a scene of their own: kind order kept,
/// each kind's ids renumbered from 0 in the same order.
Scene subscene(const Scene& scene, std::span<const ShapeId> keep);

using FailsFn = std::function<bool(const Scene&)>;

struct ShrinkResult {
  Scene scene;                 // the smallest failing scene found
  std::vector<ShapeId> kept;   // its shapes' ids in the original scene
  std::uint64_t tests = 0;     // calls of fails()
  bool minimal = false;        // 1-minimal: the search finished within its budget
};

/// `scene` must fail. Stops searching after `max_seconds` (the best found so far is kept).
ShrinkResult shrink_scene(const Scene& scene, const FailsFn& fails, std::span<const ShapeId> suspects,
                          double max_seconds);

}  // namespace hitgrid::stress
