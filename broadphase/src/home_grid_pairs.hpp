// The passes over a built home-cell grid (home_grid.hpp): pairs of small shapes, and
// pairs of a large shape and a small one. Each reads the grid and appends the keys of the
// intersecting pairs it finds; neither changes the grid or depends on the other.
#pragma once

#include <cstdint>

#include "home_grid.hpp"
#include "large_spans.hpp"
#include "pair_batch.hpp"
#include "pair_keys.hpp"

namespace hitgrid {

/// Every intersecting pair of two small shapes, each once. Returns the exact tests run.
/// Parallel over the calling TBB arena.
std::uint64_t small_pairs(const HomeGrid& grid, const PairTestContext& tests, PairKeys& out);

/// Every intersecting pair of a large shape and a small one, each once, from the large
/// shapes' spans over the grid. Returns the exact tests run.
std::uint64_t large_small_pairs(const HomeGrid& grid, const LargeSpans& spans, const PairTestContext& tests,
                                PairKeys& out);

}  // namespace hitgrid
