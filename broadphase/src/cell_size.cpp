#include "cell_size.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace hitgrid {

SceneExtent scene_extent(const UninitializedVector<ShapeRecord>& shapes) {
  return tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, shapes.size(), 1 << 14), SceneExtent{},
      [&](const auto& r, SceneExtent e) {
        for (std::size_t i = r.begin(); i != r.end(); ++i) e.add(shapes[i].box);
        return e;
      },
      [](SceneExtent a, const SceneExtent& b) {
        a.add(b);
        return a;
      });
}

int choose_log2_cell(const UninitializedVector<ShapeRecord>& shapes, const SceneExtent& ext, float requested) {
  const double width = ext.maxx - ext.minx, height = ext.maxy - ext.miny;
  const double max_abs = std::max({std::fabs(ext.minx), std::fabs(ext.maxx), std::fabs(ext.miny), std::fabs(ext.maxy)});
  // Columns and rows < 2^30 and |coordinate| / h < 2^50.
  const double min_cell = std::max({width * 0x1p-30, height * 0x1p-30, max_abs * 0x1p-50, 0x1p-149});
  double cell = requested;
  if (cell == 0.0) {
    const std::size_t samples = std::min<std::size_t>(shapes.size(), 4096);
    std::vector<float> extents(samples);
    for (std::size_t k = 0; k < samples; ++k) {
      const Aabb& b = shapes[k * shapes.size() / samples].box;
      extents[k] = std::max(b.max.x - b.min.x, b.max.y - b.min.y);
    }
    std::nth_element(extents.begin(), extents.begin() + static_cast<std::ptrdiff_t>(samples / 2), extents.end());
    const double median = samples ? extents[samples / 2] : 0.0;
    const double spacing = std::sqrt(width * height / static_cast<double>(std::max<std::size_t>(shapes.size(), 1)));
    cell = std::max(2.5 * median, spacing);
    if (!(cell > 0.0) || !std::isfinite(cell)) cell = 1.0;
    cell = std::max(cell, min_cell);
    return static_cast<int>(std::lround(std::log2(cell)));
  }
  cell = std::max(cell, min_cell);
  return std::ilogb(cell);  // a requested size: the power of two at or below
}

}  // namespace hitgrid
