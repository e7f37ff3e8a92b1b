#include "shape_bounds.hpp"

#include <tbb/parallel_for.h>

namespace hitgrid {

std::vector<BoundedShape> collect_bounds(const Scene& scene) {
  const std::size_t ns = scene.segment_count();
  const std::size_t nc = scene.circle_count();
  std::vector<BoundedShape> out(scene.size());
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, out.size(), 4096), [&](const auto& range) {
    for (std::size_t i = range.begin(); i != range.end(); ++i) {
      if (i < ns) {
        const auto k = static_cast<std::uint32_t>(i);
        out[i] = {bounds(scene.segment(k)), ShapeId(ShapeKind::segment, k)};
      } else if (i < ns + nc) {
        const auto k = static_cast<std::uint32_t>(i - ns);
        out[i] = {bounds(scene.circle(k)), ShapeId(ShapeKind::circle, k)};
      } else {
        const auto k = static_cast<std::uint32_t>(i - ns - nc);
        out[i] = {bounds(scene.box(k)), ShapeId(ShapeKind::box, k)};
      }
    }
  });
  return out;
}

}  // namespace hitgrid
