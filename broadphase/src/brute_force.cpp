#include "hitgrid/broadphase/brute_force.hpp"

#include <tbb/parallel_for.h>

#include "hitgrid/core/shape_pair_test.hpp"
#include "pair_buffers.hpp"
#include "shape_bounds.hpp"

namespace hitgrid {

PairList brute_force_pairs(const Scene& scene) {
  // Deliberately no bounding-box pre-filter: the reference should depend on nothing but
  // the exact tests.
  const std::vector<BoundedShape> shapes = collect_bounds(scene);
  PairBuffers buffers;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, shapes.size(), 16), [&](const auto& range) {
    PairList& out = buffers.local();
    for (std::size_t i = range.begin(); i != range.end(); ++i)
      for (std::size_t j = i + 1; j < shapes.size(); ++j)
        if (intersects(scene, shapes[i].id, shapes[j].id)) out.emplace_back(shapes[i].id, shapes[j].id);
  });
  return merge_pair_buffers(buffers);
}

}  // namespace hitgrid
