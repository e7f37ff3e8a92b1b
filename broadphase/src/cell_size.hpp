// The grid's cell size: chosen from the shapes (or given), always a power of two, never
// so small that cell indices could lose exactness.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>

#include "grid_cells.hpp"
#include "hitgrid/broadphase/find_pairs.hpp"
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
/// Throws hitgrid::Error unless both requested cell sides are finite and >= 0.
void check_cell_sizes(const FindPairsOptions& options);

SceneExtent scene_extent(const UninitializedVector<ShapeRecord>& shapes);
SceneExtent scene_extent(const Scene& scene);

/// The smallest cell side the world allows: cell indices must stay exact and small
/// (columns and rows < 2^30, |coordinate| / side < 2^50).
double minimum_cell(const SceneExtent& ext);

/// Large shapes crossing more rows of cells than this per shape of the scene make the
/// home-cell grid a poor choice: each large shape tests nearly every shape of every row it
/// crosses (its bounding box filters little), where the tiled grid alone tests a pair only
/// in a cell both occupy.
inline constexpr std::uint64_t many_large_rows_per_shape = 4;

/// The home-cell grid's cells, and whether to use it at all.
struct HomeCells {
  int log2_cell;  // log2 of the cell side
  /// The large shapes (spanning more than two cells either way) would cross more than
  /// many_large_rows_per_shape rows per shape, estimated from the same sample: the scene
  /// goes to the tiled grid alone. For a requested cell size, which is obeyed otherwise:
  /// only when the large shapes could have more spans over the rows of small shapes than
  /// max(2^20, 16 n), counted in a pass over the shapes (bounded memory whatever cell is
  /// asked for: points in a million rows and a thousand world-long segments would
  /// otherwise take a billion spans).
  bool many_large;
};

/// The home-cell grid's cells (home_grid.hpp). Automatic: the 95th percentile of the
/// shapes' extents (from a sample), rounded up to a power of two, so that nearly every
/// shape is small and stored once; the few larger ones (long_tail's 1% of world-sized
/// segments) go to the tiled grid. No smaller than a quarter of the mean spacing of the
/// shapes, so that points and tiny shapes do not make long segments walk through mostly
/// empty rows. A requested size is rounded down to a power of two.
HomeCells choose_home_cells(const Scene& scene, const SceneExtent& ext, float requested);

/// log2 of the tiled grid's cell side. Automatic: 2.5 times the median shape extent (a
/// robust typical size: 1% of huge segments must not inflate it), but no more than four
/// times the mean spacing of the shapes (long shapes cost rows + columns entries whatever
/// the cell size, and smaller cells let fewer of their pairs meet in a cell by chance) and
/// no smaller than the spacing (points and tiny shapes must not make a grid of mostly
/// empty cells), to the nearest power of two. Either way no smaller than the world allows:
/// cell indices must stay exact and small.
int choose_log2_cell(const UninitializedVector<ShapeRecord>& shapes, const SceneExtent& ext, float requested);

}  // namespace hitgrid
