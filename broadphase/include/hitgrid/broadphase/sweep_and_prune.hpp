// Sweep and prune on x: shapes sorted by the left edge of their bounding box; each shape
// is compared with the shapes whose left edge lies within its own x extent, then by y
// extent, then by the exact test. Correct for any layout, O(n log n + n k) for k shapes
// per x window: fine up to a few hundred thousand shapes, slow for dense huge scenes.
// A simple second method beside the grid, used to cross-check it at scale.
#pragma once

#include <cstdint>

#include "hitgrid/broadphase/find_pairs.hpp"
#include "hitgrid/core/scene.hpp"
#include "hitgrid/core/shape_id.hpp"

namespace hitgrid {

/// All colliding pairs, sorted. Parallel over the calling TBB arena. With a report: its
/// candidates and stages (bounds, sort, sweep_and_test, merge).
PairList sweep_and_prune_pairs(const Scene& scene, FindPairsReport* report = nullptr);

}  // namespace hitgrid
