// The passes over a built home-cell grid (home_grid.hpp): pairs of small shapes, and
// pairs of a large shape and a small one. Each reads the grid and appends the keys of the
// intersecting pairs it finds; neither changes the grid or depends on the other.
#pragma once

#include <cstdint>
#include <memory>

#include "home_grid.hpp"
#include "large_spans.hpp"
#include "pair_batch.hpp"
#include "pair_keys.hpp"
#include "uninitialized_vector.hpp"

namespace hitgrid {

/// Every intersecting pair of two small shapes, each once: the pass as an object, which
/// can search rows while the build finishes them (as the build's listener) and then
/// searches the rest on the built grid. Whether it listened changes when rows are
/// searched, never what is found. Parallel over the calling TBB arena.
class SmallPairs final : public HomeGrid::RowListener {
 public:
  explicit SmallPairs(const PairTestContext& tests);
  ~SmallPairs();
  SmallPairs(const SmallPairs&) = delete;
  SmallPairs& operator=(const SmallPairs&) = delete;

  void rows_listed(const HomeGrid& grid) override;
  void rows_final(std::size_t first, std::size_t last, std::size_t readable_end) override;
  /// The rows not searched yet, on the built grid (the one the listener was told of, or
  /// any grid if it was not), and the pairs of every row into `out`. Returns the exact
  /// tests run. Once per object.
  std::uint64_t finish(const HomeGrid& grid, PairKeys& out);

 private:
  struct State;
  CachedPtr<State> s_;
};

/// The pass on a built grid: SmallPairs(tests).finish(grid, out).
std::uint64_t small_pairs(const HomeGrid& grid, const PairTestContext& tests, PairKeys& out);

/// Every intersecting pair of a large shape and a small one, each once, from the large
/// shapes' spans over the grid. Returns the exact tests run.
std::uint64_t large_small_pairs(const HomeGrid& grid, const LargeSpans& spans, const PairTestContext& tests,
                                PairKeys& out);

}  // namespace hitgrid
