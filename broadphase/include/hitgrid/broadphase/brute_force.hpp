// BruteForce: the reference broad phase. Runs the exact test on every pair of shapes and
// returns the sorted list. O(n^2): for tests, cross-checks and small scenes. Every other
// broad phase is tested against it.
#pragma once

#include <cstdint>

#include "hitgrid/core/scene.hpp"
#include "hitgrid/core/shape_id.hpp"

namespace hitgrid {

/// All colliding pairs, sorted. Parallel over the calling TBB arena; the result does not
/// depend on the thread count.
PairList brute_force_pairs(const Scene& scene);

}  // namespace hitgrid
