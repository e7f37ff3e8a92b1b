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

SceneExtent scene_extent(const Scene& scene) {
  SceneExtent e;
  if (!scene.empty()) e.add(scene.bounds());  // kept by Scene::add: no pass over the shapes
  return e;
}

namespace {

/// The k-th smallest, k = rank(count), of the extents (larger side of the bounding box)
/// of up to 4096 of the n shapes: all of them, or 64 runs of 64 consecutive shapes spread
/// evenly through them (runs, not single shapes: each sample spread alone missed the cache
/// in every coordinate array, 0.3 ms of uniform 1M's 20 ms on two threads).
template <class Rank, class BoxOf>
double sampled_extent(std::size_t n, Rank rank, BoxOf box_of) {
  constexpr std::size_t runs = 64, run_length = 64;
  std::vector<float> extents;
  extents.reserve(std::min(n, runs * run_length));
  auto add = [&](std::size_t i) {
    const Aabb b = box_of(i);
    extents.push_back(std::max(b.max.x - b.min.x, b.max.y - b.min.y));
  };
  if (n <= runs * run_length) {
    for (std::size_t i = 0; i < n; ++i) add(i);
  } else {
    for (std::size_t r = 0; r < runs; ++r)
      for (std::size_t i = r * n / runs, end = i + run_length; i < end; ++i) add(i);
  }
  if (extents.empty()) return 0.0;
  const std::size_t k = rank(extents.size());
  std::nth_element(extents.begin(), extents.begin() + static_cast<std::ptrdiff_t>(k), extents.end());
  return extents[k];
}

double mean_spacing(const SceneExtent& ext, std::size_t n) {
  return std::sqrt((ext.maxx - ext.minx) * (ext.maxy - ext.miny) / static_cast<double>(std::max<std::size_t>(n, 1)));
}

/// log2 of the power of two at or above x > 0.
int log2_at_or_above(double x) {
  const int e = std::ilogb(x);
  return std::ldexp(1.0, e) < x ? e + 1 : e;
}

}  // namespace

double minimum_cell(const SceneExtent& ext) {
  const double width = ext.maxx - ext.minx, height = ext.maxy - ext.miny;
  const double max_abs = std::max({std::fabs(ext.minx), std::fabs(ext.maxx), std::fabs(ext.miny), std::fabs(ext.maxy)});
  return std::max({width * 0x1p-30, height * 0x1p-30, max_abs * 0x1p-50, 0x1p-149});
}

int choose_home_log2_cell(const Scene& scene, const SceneExtent& ext, float requested) {
  const double min_cell = minimum_cell(ext);
  if (requested > 0.0f) return std::ilogb(std::max<double>(requested, min_cell));
  const KindRanges kinds = KindRanges::of(scene);
  const auto q95_rank = [](std::size_t count) { return (count - 1) * 95 / 100; };
  const double q95 = sampled_extent(scene.size(), q95_rank, [&](std::size_t i) {
    return record_of(scene, kinds, static_cast<std::uint32_t>(i)).box;
  });
  double cell = std::max({q95, mean_spacing(ext, scene.size()) / 4, min_cell});
  if (!std::isfinite(cell)) cell = min_cell;
  return log2_at_or_above(cell);
}

int choose_log2_cell(const UninitializedVector<ShapeRecord>& shapes, const SceneExtent& ext, float requested) {
  const double min_cell = minimum_cell(ext);
  if (requested > 0.0f) return std::ilogb(std::max<double>(requested, min_cell));
  const double median = sampled_extent(
      shapes.size(), [](std::size_t count) { return count / 2; }, [&](std::size_t i) { return shapes[i].box; });
  // Long shapes (long_tail's segments a quarter of the world long) cost rows + columns
  // entries whatever the cell size, and smaller cells let fewer of their pairs meet in a
  // cell by chance: for them the spacing, not the extent, sets the size (cells of 4x the
  // spacing took 120 ms against 285 ms with 2.5x the median extent, 512, for long_tail's
  // 10,000 long segments).
  const double spacing = mean_spacing(ext, shapes.size());
  double cell = std::max(std::min(2.5 * median, 4 * spacing), spacing);
  if (!(cell > 0.0) || !std::isfinite(cell)) cell = 1.0;
  cell = std::max(cell, min_cell);
  return static_cast<int>(std::lround(std::log2(cell)));
}

}  // namespace hitgrid
