#include "hitgrid/broadphase/uniform_grid.hpp"

#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include "cell_size.hpp"
#include "hitgrid/core/stopwatch.hpp"
#include "home_grid.hpp"
#include "radix_sort.hpp"
#include "tiled_grid.hpp"

namespace hitgrid {
namespace {

/// The pairs of every part, joined, sorted and as (kind, id) pairs. Repeats (rare, from
/// the tiled grid's first-cell rule) are removed.
PairList sorted_unique_pairs(PairKeys& parts, PairKeyCodec codec, const KindRanges& kinds) {
  std::size_t total = 0;
  for (const auto& p : parts.parts()) total += p.size();
  std::vector<std::uint64_t> keys;
  keys.reserve(total);
  for (auto& p : parts.parts()) {
    keys.insert(keys.end(), p.begin(), p.end());
    std::vector<std::uint64_t>().swap(p);
  }
  radix_sort(keys, 2 * codec.id_bits);
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  PairList out(keys.size());
  const std::uint64_t mask = (std::uint64_t{1} << codec.id_bits) - 1;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, keys.size(), 1 << 14), [&](const auto& r) {
    for (std::size_t k = r.begin(); k != r.end(); ++k)
      out[k] = Pair(kinds.id(static_cast<std::uint32_t>(keys[k] >> codec.id_bits)),
                    kinds.id(static_cast<std::uint32_t>(keys[k] & mask)));
  });
  return out;
}

/// Rows of home cells the large shapes (those spanning more than two cells either way)
/// cross: the work of visiting them.
std::uint64_t large_rows(const UninitializedVector<ShapeRecord>& shapes, int log2_home) {
  const GridCells cells(log2_home);
  return tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, shapes.size(), 1 << 14), std::uint64_t{0},
      [&](const auto& r, std::uint64_t sum) {
        for (std::size_t i = r.begin(); i != r.end(); ++i) {
          const Aabb& b = shapes[i].box;
          if (!HomeGrid::is_small(cells, b)) sum += static_cast<std::uint64_t>(cells.span(b.min.y, b.max.y).size());
        }
        return sum;
      },
      std::plus<>());
}

/// Pairs among `records` (global indices in `global`, or 0, 1, ... if null) on the tiled
/// grid, with cells no smaller than 2^min_log2.
void tiled_pairs(const UninitializedVector<ShapeRecord>& records, const std::uint32_t* global, const KindRanges& kinds,
                 PairKeyCodec codec, int min_log2, const GridOptions& options, PairKeys& out, GridStats& stats) {
  const int log2_cell = std::max(min_log2, choose_log2_cell(records, scene_extent(records), options.large_cell_size));
  stats.large_cell_size = std::ldexp(1.0, log2_cell);
  TiledGridStats tiled;
  tiled_grid_pairs({records, global, kinds, codec, log2_cell}, out, tiled);
  stats.bucket_ms += tiled.bucket_ms;
  stats.large_ms += tiled.pairs_ms;
  stats.entries = tiled.entries;
  stats.candidates += tiled.candidates;
}

}  // namespace

PairList uniform_grid_pairs(const Scene& scene, const GridOptions& options, GridStats* stats_out) {
  GridStats stats;
  Stopwatch clock;
  const KindRanges kinds = KindRanges::of(scene);
  const PairKeyCodec codec{bits_for(scene.size())};
  const UninitializedVector<ShapeRecord> shapes = pack_shapes(scene);
  const SceneExtent extent = scene_extent(shapes);
  const int log2_home = choose_home_log2_cell(shapes, extent, options.cell_size);
  stats.cell_size = std::ldexp(1.0, log2_home);
  stats.bounds_ms = clock.lap_ms();

  PairKeys keys;
  std::vector<std::uint32_t> large;
  if (options.cell_size == 0.0f && large_rows(shapes, log2_home) > shapes.size() / 4) {
    // Many long shapes (long_tail: 1% of segments a quarter of the world long): each would
    // visit the home cells of every row it crosses and test nearly every shape there (its
    // bounding box filters nothing), which measured 1.6x slower on long_tail N = 1,000,000
    // than putting every shape on the tiled grid, where a pair is tested only in a cell
    // both occupy.
    stats.large_shapes = shapes.size();
    tiled_pairs(shapes, nullptr, kinds, codec, std::numeric_limits<int>::min(), options, keys, stats);
    stats.cell_size = stats.large_cell_size;
  } else {
    HomeGridStats home_stats;
    HomeGrid home(shapes, kinds, codec, log2_home, extent, large, home_stats);
    home.pairs_among(keys);
    home.pairs_with(shapes, large, keys);
    stats.bucket_ms = home_stats.bucket_ms;
    stats.pairs_ms = home_stats.pairs_ms;
    stats.large_ms = home_stats.large_ms;
    stats.small_shapes = home_stats.small;
    stats.candidates = home_stats.candidates;
    stats.large_shapes = large.size();
    if (large.size() >= 2) {
      UninitializedVector<ShapeRecord> records(large.size());
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, large.size(), 1 << 12), [&](const auto& r) {
        for (std::size_t k = r.begin(); k != r.end(); ++k) records[k] = shapes[large[k]];
      });
      tiled_pairs(records, large.data(), kinds, codec, log2_home, options, keys, stats);
    }
  }
  clock.lap_ms();
  PairList out = sorted_unique_pairs(keys, codec, kinds);
  stats.merge_ms = clock.lap_ms();
  if (stats_out) *stats_out = stats;
  return out;
}

}  // namespace hitgrid
