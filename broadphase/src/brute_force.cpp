#include "hitgrid/broadphase/brute_force.hpp"

#include <tbb/parallel_for.h>

#include "hitgrid/broadphase/detail/parallel.hpp"
#include "hitgrid/core/shape_pair_test.hpp"
#include "packed_shapes.hpp"
#include "pair_buffers.hpp"

namespace hitgrid {

PairList brute_force_pairs(const Scene& scene) {
  // Deliberately no pre-filter of its own and no packed copies: the reference depends on
  // nothing but the scene and the exact tests.
  const KindRanges kinds = KindRanges::of(scene);
  const auto n = static_cast<std::uint32_t>(scene.size());
  PairBuffers buffers;
  detail::parallel_for(tbb::blocked_range<std::uint32_t>(0, n, 16), [&](const auto& range) {
    PairList& out = buffers.local();
    for (std::uint32_t i = range.begin(); i != range.end(); ++i)
      for (std::uint32_t j = i + 1; j < n; ++j)
        if (intersects(scene, kinds.id(i), kinds.id(j))) out.emplace_back(kinds.id(i), kinds.id(j));
  });
  return merge_pair_buffers(buffers);
}

}  // namespace hitgrid
