// The grid's cell size: chosen from the shapes (or given), always a power of two, never
// so small that cell indices could lose exactness.
#pragma once

#include <algorithm>
#include <limits>

#include "packed_shapes.hpp"

namespace hitgrid {

struct SceneExtent {
  double minx = std::numeric_limits<double>::infinity(), miny = minx;
  double maxx = -std::numeric_limits<double>::infinity(), maxy = maxx;
  void add(const Aabb& b) {
    minx = std::min<double>(minx, b.min.x);
    miny = std::min<double>(miny, b.min.y);
    maxx = std::max<double>(maxx, b.max.x);
    maxy = std::max<double>(maxy, b.max.y);
  }
  void add(const SceneExtent& o) {
    minx = std::min(minx, o.minx);
    miny = std::min(miny, o.miny);
    maxx = std::max(maxx, o.maxx);
    maxy = std::max(maxy, o.maxy);
  }
};

/// The bounding rectangle of all the shapes. Parallel over the calling arena.
SceneExtent scene_extent(const UninitializedVector<ShapeRecord>& shapes);
SceneExtent scene_extent(const Scene& scene);

/// The smallest cell side the world allows: cell indices must stay exact and small
/// (columns and rows < 2^30, |coordinate| / side < 2^50).
double minimum_cell(const SceneExtent& ext);

/// log2 of the home-cell grid's cell side (home_grid.hpp). Automatic: the 95th percentile
/// of the shapes' extents, rounded up to a power of two, so that nearly every shape is
/// small and stored once; the few larger ones (long_tail's 1% of world-sized segments)
/// go to the tiled grid. No smaller than a quarter of the mean spacing of the shapes, so
/// that points and tiny shapes do not make long segments walk through mostly empty rows.
/// A requested size is rounded down to a power of two.
int choose_home_log2_cell(const Scene& scene, const SceneExtent& ext, float requested);

/// log2 of the tiled grid's cell side. Automatic: 2.5 times the median shape extent (a robust typical
/// size: 1% of huge segments must not inflate it), to the nearest power of two, but no
/// smaller than the mean spacing of the shapes, so that points and tiny shapes do not make
/// a grid of mostly empty cells. Measured on uniform N = 1,000,000 (median extent 0.71):
/// cells of 0.5, 1, 2, 4 took 250, 195, 140, 210 ms on one thread (see the issue notes).
/// Either way no smaller than the world allows: cell indices must stay exact and small.
int choose_log2_cell(const UninitializedVector<ShapeRecord>& shapes, const SceneExtent& ext, float requested);

}  // namespace hitgrid
