// Sweep and prune on x: shapes sorted by the left edge of their bounding box; each shape
// is compared with the shapes whose left edge lies within its own x extent, then by y
// extent, then by the exact test. Correct for any layout, O(n log n + n k) for k shapes
// per x window: fine up to a few hundred thousand shapes, slow for dense huge scenes.
// A simple second method beside the grid, used to cross-check it at scale.
#pragma once

#include <cstdint>

#include "hitgrid/core/scene.hpp"
#include "hitgrid/core/shape_id.hpp"

namespace hitgrid {

struct SweepStats {
  double bounds_ms = 0.0;
  double sort_ms = 0.0;
  double sweep_ms = 0.0;  // broad phase and exact tests
  double merge_ms = 0.0;  // per-thread lists joined and sorted
  std::uint64_t candidates = 0;
};

/// All colliding pairs, sorted. Parallel over the calling TBB arena.
PairList sweep_and_prune_pairs(const Scene& scene, SweepStats* stats = nullptr);

}  // namespace hitgrid
