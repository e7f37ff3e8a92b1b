#include "hitgrid/broadphase/uniform_grid.hpp"

#include <tbb/combinable.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>
#include <tbb/parallel_scan.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <numeric>

#include "hitgrid/broadphase/grid_cells.hpp"
#include "hitgrid/core/error.hpp"
#include "hitgrid/core/intersects.hpp"
#include "hitgrid/core/stopwatch.hpp"
#include "radix_sort.hpp"

namespace hitgrid {
namespace {

// A cell with more entries than this is searched by a sweep on x instead of all pairs.
constexpr std::size_t all_pairs_limit = 32;

int bits_for(std::uint64_t n) { return n <= 1 ? 0 : 64 - std::countl_zero(n - 1); }

/// A shape's bounds and geometry packed in 32 bytes, so that gathering a shape into cell
/// order touches one cache line instead of one per SoA column. Geometry: segment
/// (ax, ay, bx, by); circle (cx, cy, r, 0); box (minx, miny, maxx, maxy).
struct ShapeRecord {
  Aabb box;
  float g[4];
};
static_assert(sizeof(ShapeRecord) == 32);

/// The kind of the shape at a global index (segments, then circles, then boxes).
struct KindRanges {
  std::uint32_t circles_begin = 0, boxes_begin = 0;
  ShapeKind kind(std::uint32_t i) const {
    return i < circles_begin ? ShapeKind::segment : (i < boxes_begin ? ShapeKind::circle : ShapeKind::box);
  }
  ShapeId id(std::uint32_t i) const {
    switch (kind(i)) {
      case ShapeKind::segment:
        return {ShapeKind::segment, i};
      case ShapeKind::circle:
        return {ShapeKind::circle, i - circles_begin};
      case ShapeKind::box:
        break;
    }
    return {ShapeKind::box, i - boxes_begin};
  }
};

Segment as_segment(const float* g) { return {{g[0], g[1]}, {g[2], g[3]}}; }
Circle as_circle(const float* g) { return {{g[0], g[1]}, g[2]}; }
Box as_box(const float* g) { return {{g[0], g[1]}, {g[2], g[3]}}; }

/// The exact test on two packed shapes, kinds ordered ka <= kb.
bool intersects_packed(ShapeKind ka, const float* a, ShapeKind kb, const float* b) {
  switch (ka) {
    case ShapeKind::segment:
      switch (kb) {
        case ShapeKind::segment:
          return intersects(as_segment(a), as_segment(b));
        case ShapeKind::circle:
          return intersects(as_segment(a), as_circle(b));
        case ShapeKind::box:
          return intersects(as_segment(a), as_box(b));
      }
      break;
    case ShapeKind::circle:
      return kb == ShapeKind::circle ? intersects(as_circle(a), as_circle(b)) : intersects(as_circle(a), as_box(b));
    case ShapeKind::box:
      return intersects(as_box(a), as_box(b));
  }
  return false;
}

std::vector<ShapeRecord> pack_shapes(const Scene& scene) {
  const std::size_t ns = scene.segment_count(), nc = scene.circle_count();
  std::vector<ShapeRecord> out(scene.size());
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, out.size(), 1 << 14), [&](const auto& range) {
    for (std::size_t i = range.begin(); i != range.end(); ++i) {
      ShapeRecord& r = out[i];
      if (i < ns) {
        const Segment s = scene.segment(static_cast<std::uint32_t>(i));
        r = {bounds(s), {s.a.x, s.a.y, s.b.x, s.b.y}};
      } else if (i < ns + nc) {
        const Circle c = scene.circle(static_cast<std::uint32_t>(i - ns));
        r = {bounds(c), {c.c.x, c.c.y, c.r, 0.0f}};
      } else {
        const Box b = scene.box(static_cast<std::uint32_t>(i - ns - nc));
        r = {b.min, b.max, {b.min.x, b.min.y, b.max.x, b.max.y}};
      }
    }
  });
  return out;
}

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

SceneExtent scene_extent(const std::vector<ShapeRecord>& shapes) {
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

/// log2 of the cell side. Automatic: about the median shape extent (a robust typical size:
/// 1% of huge segments must not inflate it), but no smaller than half the mean spacing of
/// the shapes, so that points and tiny shapes do not make a grid of mostly empty cells.
/// Either way no smaller than the world allows: cell indices must stay exact and small.
int choose_log2_cell(const std::vector<ShapeRecord>& shapes, const SceneExtent& ext, float requested) {
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
    cell = std::max(median, 0.5 * spacing);
    if (!(cell > 0.0) || !std::isfinite(cell)) cell = 1.0;
  }
  cell = std::max(cell, min_cell);
  return std::ilogb(cell);  // the power of two at or below
}

/// Where the entries of a cell go: a dense row-major index when the grid has few enough
/// cells, else a hash of (row, column) into a table of about as many buckets as entries.
struct CellTable {
  std::int64_t col0 = 0, row0 = 0, ncols = 1;
  bool hashed = false;
  int bits = 0;  // the table has 2^bits buckets

  std::uint32_t bucket(std::int64_t row, std::int64_t col) const {
    if (!hashed) return static_cast<std::uint32_t>((row - row0) * ncols + (col - col0));
    std::uint64_t h = static_cast<std::uint64_t>(row) * 0x9E3779B97F4A7C15ull;
    h ^= static_cast<std::uint64_t>(col) + 0x632BE59BD9B4E019ull + (h << 6) + (h >> 2);
    h *= 0xBF58476D1CE4E5B9ull;
    return static_cast<std::uint32_t>(h >> (64 - bits));
  }
};

class Grid {
 public:
  Grid(const Scene& scene, const GridOptions& options, GridStats& stats) : scene_(scene), stats_(stats) {
    Stopwatch clock;
    kinds_.circles_begin = static_cast<std::uint32_t>(scene.segment_count());
    kinds_.boxes_begin = static_cast<std::uint32_t>(scene.segment_count() + scene.circle_count());
    shapes_ = pack_shapes(scene);
    const SceneExtent ext = scene_extent(shapes_);
    cells_ = GridCells(choose_log2_cell(shapes_, ext, options.cell_size));
    stats_.cell_size = cells_.cell_size();
    count_footprints();
    plan_table(ext);
    stats_.bounds_ms = clock.lap_ms();
    fill_and_sort_entries();
    stats_.bucket_ms = clock.lap_ms();
  }

  PairList find_pairs() {
    Stopwatch clock;
    std::vector<std::uint64_t> keys = candidate_pairs();
    stats_.pairs_ms = clock.lap_ms();
    PairList out = sorted_unique_pairs(keys);
    stats_.merge_ms = clock.lap_ms();
    return out;
  }

 private:
  template <class F>
  void for_each_cell(std::size_t i, F&& f) const {
    const ShapeRecord& s = shapes_[i];
    if (kinds_.kind(static_cast<std::uint32_t>(i)) == ShapeKind::segment) {
      cells_.for_each_segment_row(as_segment(s.g), [&](std::int64_t row, CellSpan cols) {
        for (std::int64_t c = cols.lo; c <= cols.hi; ++c) f(row, c);
      });
    } else {
      CellSpan cols, rows;
      cells_.box_cells(s.box, cols, rows);
      for (std::int64_t r = rows.lo; r <= rows.hi; ++r)
        for (std::int64_t c = cols.lo; c <= cols.hi; ++c) f(r, c);
    }
  }

  std::uint64_t footprint(std::size_t i) const {
    const ShapeRecord& s = shapes_[i];
    if (kinds_.kind(static_cast<std::uint32_t>(i)) == ShapeKind::segment)
      return static_cast<std::uint64_t>(cells_.segment_cell_count(as_segment(s.g)));
    CellSpan cols, rows;
    cells_.box_cells(s.box, cols, rows);
    return static_cast<std::uint64_t>(cols.size()) * static_cast<std::uint64_t>(rows.size());
  }

  void count_footprints() {
    const std::size_t n = shapes_.size();
    offsets_.assign(n + 1, 0);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 1 << 12), [&](const auto& r) {
      for (std::size_t i = r.begin(); i != r.end(); ++i) offsets_[i + 1] = footprint(i);
    });
    std::partial_sum(offsets_.begin(), offsets_.end(), offsets_.begin());
    stats_.entries = offsets_.back();
    if (offsets_.back() > std::numeric_limits<std::uint32_t>::max())
      throw Error("grid: too many (cell, shape) entries; use a larger --cell");
  }

  void plan_table(const SceneExtent& ext) {
    const std::uint64_t entries = offsets_.back();
    if (shapes_.empty()) return;
    const CellSpan cols = cells_.span(ext.minx, ext.maxx), rows = cells_.span(ext.miny, ext.maxy);
    const double cell_count = static_cast<double>(cols.size()) * static_cast<double>(rows.size());
    table_.col0 = cols.lo;
    table_.row0 = rows.lo;
    table_.ncols = cols.size();
    // Dense while the cell array is no more than a few times the entry list (and fits 32
    // bits); a sparse world hashes instead, so memory never follows the world's area.
    table_.hashed = cell_count > std::max(4.0 * static_cast<double>(entries), 65536.0) || cell_count > 0x1p31;
    table_.bits = table_.hashed ? std::max(bits_for(entries), 10) : bits_for(static_cast<std::uint64_t>(cell_count));
    stats_.hashed = table_.hashed;
    stats_.buckets = std::uint64_t{1} << table_.bits;
  }

  void fill_and_sort_entries() {
    const std::size_t n = shapes_.size();
    std::vector<std::uint32_t> keys(offsets_.back()), owners(offsets_.back());
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 1 << 12), [&](const auto& r) {
      for (std::size_t i = r.begin(); i != r.end(); ++i) {
        std::uint64_t e = offsets_[i];
        for_each_cell(i, [&](std::int64_t row, std::int64_t col) {
          keys[e] = table_.bucket(row, col);
          owners[e] = static_cast<std::uint32_t>(i);
          ++e;
        });
      }
    });
    std::vector<std::uint64_t>().swap(offsets_);
    radix_sort(keys, owners, table_.bits);

    // Runs of equal keys are the cells; remember where each run starts.
    const std::size_t m = keys.size();
    run_starts_.clear();
    for (std::size_t e = 0; e < m; ++e)
      if (e == 0 || keys[e] != keys[e - 1]) run_starts_.push_back(static_cast<std::uint32_t>(e));
    run_starts_.push_back(static_cast<std::uint32_t>(m));

    // Shapes in cell order: a cell's shapes are contiguous for the pair search and the
    // exact tests, which then read no memory outside the cell's range.
    owner_ = std::move(owners);
    cell_shapes_.resize(m);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, m, 1 << 14), [&](const auto& r) {
      for (std::size_t e = r.begin(); e != r.end(); ++e) cell_shapes_[e] = shapes_[owner_[e]];
    });
  }

  /// The exact test on entries i and j (positions in cell order).
  void test_pair(std::size_t i, std::size_t j, std::vector<std::uint64_t>& out, std::uint64_t& tested) const {
    std::uint32_t a = owner_[i], b = owner_[j];
    if (a == b) return;  // one shape in two cells that hash to the same bucket
    if (b < a) {
      std::swap(a, b);
      std::swap(i, j);
    }
    ++tested;
    if (!intersects_packed(kinds_.kind(a), cell_shapes_[i].g, kinds_.kind(b), cell_shapes_[j].g)) return;
    out.push_back((std::uint64_t{a} << id_bits_) | b);
  }

  void cell_pairs(std::size_t begin, std::size_t end, std::vector<std::uint64_t>& out, std::uint64_t& tested,
                  std::vector<std::uint32_t>& order) const {
    if (end - begin <= all_pairs_limit) {
      for (std::size_t i = begin; i < end; ++i) {
        const Aabb& bi = cell_shapes_[i].box;
        for (std::size_t j = i + 1; j < end; ++j)
          if (overlaps(bi, cell_shapes_[j].box)) test_pair(i, j, out, tested);
      }
      return;
    }
    // A crowded cell: sweep on x, so the work follows the overlaps, not the square.
    order.resize(end - begin);
    std::iota(order.begin(), order.end(), static_cast<std::uint32_t>(begin));
    auto box = [&](std::uint32_t e) -> const Aabb& { return cell_shapes_[e].box; };
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
      return box(a).min.x < box(b).min.x || (box(a).min.x == box(b).min.x && a < b);
    });
    for (std::size_t i = 0; i < order.size(); ++i) {
      const Aabb& bi = box(order[i]);
      for (std::size_t j = i + 1; j < order.size() && box(order[j]).min.x <= bi.max.x; ++j)
        if (overlaps(bi, box(order[j]))) test_pair(order[i], order[j], out, tested);
    }
  }

  std::vector<std::uint64_t> candidate_pairs() {
    id_bits_ = bits_for(shapes_.size());
    tbb::enumerable_thread_specific<std::vector<std::uint64_t>> buffers;
    tbb::enumerable_thread_specific<std::vector<std::uint32_t>> orders;
    tbb::combinable<std::uint64_t> tested;
    const std::size_t runs = run_starts_.size() - 1;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, runs, 1024), [&](const auto& r) {
      auto& out = buffers.local();
      auto& order = orders.local();
      std::uint64_t t = 0;
      for (std::size_t k = r.begin(); k != r.end(); ++k) cell_pairs(run_starts_[k], run_starts_[k + 1], out, t, order);
      tested.local() += t;
    });
    stats_.candidates = tested.combine(std::plus<>());
    std::size_t total = 0;
    for (const auto& b : buffers) total += b.size();
    std::vector<std::uint64_t> keys;
    keys.reserve(total);
    for (auto& b : buffers) {
      keys.insert(keys.end(), b.begin(), b.end());
      std::vector<std::uint64_t>().swap(b);
    }
    return keys;
  }

  PairList sorted_unique_pairs(std::vector<std::uint64_t>& keys) const {
    radix_sort(keys, 2 * id_bits_);
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    PairList out(keys.size());
    const std::uint64_t mask = (std::uint64_t{1} << id_bits_) - 1;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, keys.size(), 1 << 14), [&](const auto& r) {
      for (std::size_t k = r.begin(); k != r.end(); ++k)
        out[k] = Pair(kinds_.id(static_cast<std::uint32_t>(keys[k] >> id_bits_)),
                      kinds_.id(static_cast<std::uint32_t>(keys[k] & mask)));
    });
    return out;
  }

  const Scene& scene_;
  GridStats& stats_;
  GridCells cells_{0};
  KindRanges kinds_;
  std::vector<ShapeRecord> shapes_;  // in global order: segments, circles, boxes
  std::vector<std::uint64_t> offsets_;
  CellTable table_;
  std::vector<std::uint32_t> run_starts_;
  std::vector<std::uint32_t> owner_;      // per entry, in cell order: the shape's global index
  std::vector<ShapeRecord> cell_shapes_;  // per entry, in cell order: the shape itself
  int id_bits_ = 0;
};

}  // namespace

PairList uniform_grid_pairs(const Scene& scene, const GridOptions& options, GridStats* stats) {
  GridStats local;
  Grid grid(scene, options, stats ? *stats : local);
  return grid.find_pairs();
}

}  // namespace hitgrid
