#include "cell_size.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "hitgrid/broadphase/detail/parallel.hpp"
#include "hitgrid/core/error.hpp"
#include "uninitialized_vector.hpp"

namespace hitgrid {
namespace {

/// Shapes per task of the plan's parallel passes over the scene (extent, large spans).
/// A requested cell is refused for the home grid when its large shapes could make more
/// spans than max(large_span_floor, large_spans_per_shape n) (large_spans_exceed).
constexpr std::uint64_t large_span_floor = std::uint64_t{1} << 20;
constexpr std::uint64_t large_spans_per_shape = 16;

}  // namespace

void check_cell_sizes(const FindPairsOptions& options) {
  auto check = [](float size, const char* what) {
    if (!std::isfinite(size) || size < 0.0f)
      throw Error(std::string(what) + " must be a finite number >= 0 (0 chooses it automatically)");
  };
  check(options.cell_size, "cell size");
  check(options.large_cell_size, "large cell size");
}

SceneExtent scene_extent(const UninitializedVector<ShapeRecord>& shapes) {
  return detail::parallel_reduce(
      shapes.size(), detail::shapes_per_task, SceneExtent{},
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

// The tiled grid's automatic cell side (choose_log2_cell): this many median extents, but
// at most this many mean spacings.
constexpr double tiled_cell_per_median_extent = 2.5;
constexpr double tiled_cell_max_spacings = 4.0;
// The home grid's automatic cell side (choose_home_cells): the extent at this percentile,
// but at least the mean spacing over this.
constexpr std::size_t home_cell_percentile = 95;
constexpr double home_cell_min_spacing_fraction = 4.0;

/// The bounding boxes of up to 4096 of the n shapes: all of them, or 64 runs of 64
/// consecutive shapes spread evenly through them (runs, not single shapes: a sample spread
/// one shape at a time misses the cache in every coordinate array).
template <class BoxOf>
CachedVector<Aabb> sampled_boxes(std::size_t n, BoxOf box_of) {
  constexpr std::size_t runs = 64, run_length = 64;
  CachedVector<Aabb> boxes;
  boxes.reserve(std::min(n, runs * run_length));
  if (n <= runs * run_length) {
    for (std::size_t i = 0; i < n; ++i) boxes.push_back(box_of(i));
  } else {
    for (std::size_t r = 0; r < runs; ++r)
      for (std::size_t i = r * n / runs, end = i + run_length; i < end; ++i) boxes.push_back(box_of(i));
  }
  return boxes;
}

/// The k-th smallest, k = rank(count), of the boxes' extents (larger side).
template <class Rank>
double ranked_extent(const CachedVector<Aabb>& boxes, Rank rank) {
  if (boxes.empty()) return 0.0;
  CachedVector<float> extents;
  extents.reserve(boxes.size());
  for (const Aabb& b : boxes) extents.push_back(std::max(b.max.x - b.min.x, b.max.y - b.min.y));
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

/// A requested cell side rounded down to a power of two, but never below the world's
/// minimum (rounded up to one).
int requested_log2(float requested, double min_cell) {
  return std::max(std::ilogb(requested), log2_at_or_above(min_cell));
}

std::uint64_t saturated_sum(std::uint64_t a, std::uint64_t b) {
  return a > std::numeric_limits<std::uint64_t>::max() - b ? std::numeric_limits<std::uint64_t>::max() : a + b;
}

/// Whether the home grid on cells of side 2^log2_cell could hold more large spans
/// (large_spans.hpp: a large shape's columns in each row of small shapes it crosses) than
/// max(large_span_floor, large_spans_per_shape n): at most min(rows crossed, small shapes)
/// for each large shape, summed.
/// One pass over the shapes, for a requested cell only (an automatic one is chosen so
/// that large shapes are few and short).
bool large_spans_exceed(const Scene& scene, const KindRanges& kinds, int log2_cell) {
  struct Counts {
    std::uint64_t small = 0, large = 0, rows = 0;
  };
  const GridCells cells(log2_cell);
  const Counts c = detail::parallel_reduce(
      scene.size(), detail::shapes_per_task, Counts{},
      [&](const auto& r, Counts t) {
        for (std::size_t i = r.begin(); i != r.end(); ++i) {
          const Aabb box = record_of(scene, kinds, static_cast<std::uint32_t>(i)).box;
          if (is_small(cells, box)) {
            ++t.small;
          } else {
            ++t.large;
            t.rows = saturated_sum(t.rows, static_cast<std::uint64_t>(cells.span(box.min.y, box.max.y).size()));
          }
        }
        return t;
      },
      [](Counts a, const Counts& b) {
        return Counts{a.small + b.small, a.large + b.large, saturated_sum(a.rows, b.rows)};
      });
  const std::uint64_t budget = std::max(large_span_floor, large_spans_per_shape * std::uint64_t{scene.size()});
  // Saturated, like the rows: past 2^32 shapes the product could wrap.
  const std::uint64_t most = std::numeric_limits<std::uint64_t>::max();
  const std::uint64_t pairs = c.large != 0 && c.small > most / c.large ? most : c.large * c.small;
  return std::min(c.rows, pairs) > budget;
}

}  // namespace

double minimum_cell(const SceneExtent& ext) {
  const double width = ext.maxx - ext.minx, height = ext.maxy - ext.miny;
  const double max_abs = std::max({std::fabs(ext.minx), std::fabs(ext.maxx), std::fabs(ext.miny), std::fabs(ext.maxy)});
  return std::max({width * 0x1p-30, height * 0x1p-30, max_abs * 0x1p-50, 0x1p-149});
}

HomeCells choose_home_cells(const Scene& scene, const SceneExtent& ext, float requested) {
  const double min_cell = minimum_cell(ext);
  const KindRanges kinds = KindRanges::of(scene);
  if (requested > 0.0f) {
    const int log2_cell = requested_log2(requested, min_cell);
    return {log2_cell, large_spans_exceed(scene, kinds, log2_cell)};
  }
  const CachedVector<Aabb> sample = sampled_boxes(
      scene.size(), [&](std::size_t i) { return record_of(scene, kinds, static_cast<std::uint32_t>(i)).box; });
  const double q95 = ranked_extent(sample, [](std::size_t count) { return (count - 1) * home_cell_percentile / 100; });
  double cell = std::max({q95, mean_spacing(ext, scene.size()) / home_cell_min_spacing_fraction, min_cell});
  if (!std::isfinite(cell)) cell = min_cell;
  const int log2_cell = log2_at_or_above(cell);
  // The rows the sample's large shapes cross, against many_large_rows_per_shape per
  // sampled shape.
  const GridCells cells(log2_cell);
  std::uint64_t crossed = 0;
  for (const Aabb& b : sample)
    if (!is_small(cells, b)) crossed += static_cast<std::uint64_t>(cells.span(b.min.y, b.max.y).size());
  return {log2_cell, crossed > many_large_rows_per_shape * sample.size()};
}

int choose_log2_cell(const UninitializedVector<ShapeRecord>& shapes, const SceneExtent& ext, float requested) {
  const double min_cell = minimum_cell(ext);
  if (requested > 0.0f) return requested_log2(requested, min_cell);
  const double median = ranked_extent(sampled_boxes(shapes.size(), [&](std::size_t i) { return shapes[i].box; }),
                                      [](std::size_t count) { return count / 2; });
  const double spacing = mean_spacing(ext, shapes.size());
  double cell = std::max(std::min(tiled_cell_per_median_extent * median, tiled_cell_max_spacings * spacing), spacing);
  if (!(cell > 0.0) || !std::isfinite(cell)) cell = 1.0;
  // The nearest power of two, but never below the world's minimum.
  return std::max(static_cast<int>(std::lround(std::log2(cell))), log2_at_or_above(min_cell));
}

}  // namespace hitgrid
