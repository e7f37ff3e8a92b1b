#include "grid.hpp"

#include <algorithm>
#include <limits>

#include "cell_size.hpp"
#include "home_grid_pairs.hpp"
#include "sorted_pairs.hpp"
#include "uninitialized_vector.hpp"

namespace hitgrid {

Grid build_grid(const Scene& scene, const FindPairsOptions& options, Isa isa, StageClock& clock,
                HomeGrid::RowListener* rows) {
  Grid g;
  g.kinds = KindRanges::of(scene);
  g.shapes = scene.size();
  const SceneExtent extent = scene_extent(scene);
  const HomeCells home = choose_home_cells(scene, extent, options.cell_size);
  clock.lap("plan");
  if (home.many_large) {
    g.tiled_only = true;
    const UninitializedVector<ShapeRecord> shapes = pack_shapes(scene);
    g.tiled = TiledGrid::build(shapes, nullptr, g.kinds,
                               choose_log2_cell(shapes, scene_extent(shapes), options.large_cell_size));
  } else {
    g.home = HomeGrid::build(scene, g.kinds, home.log2_cell, extent, isa, rows);
    g.spans = LargeSpans::build(g.home, g.kinds);
    const UninitializedVector<ShapeRecord>& large = g.home.large_records();
    if (large.size() >= 2) {
      // Never finer than the home cells: the large shapes span more than two of those.
      const int log2_cell =
          std::max(home.log2_cell, choose_log2_cell(large, scene_extent(large), options.large_cell_size));
      g.tiled = TiledGrid::build(large, g.home.large_ids().data(), g.kinds, log2_cell);
    }
  }
  clock.lap("build");
  return g;
}

namespace {

/// Count bins per counting pass.
constexpr int count_bin_bits = 16;

void describe(const Grid& g, const Scene& scene, FindPairsReport& r) {
  r.cell_size = g.tiled_only ? g.tiled.cell_size() : g.home.cells().cell_size();
  r.large_cell_size = g.tiled.cell_size();
  r.small_shapes = g.home.small_count();
  r.large_shapes = g.tiled_only ? scene.size() : g.home.large_ids().size();
  r.tiled_entries = g.tiled.entries();
}

/// The passes after the build (the small-pairs pass `small` may have listened to it), into
/// `keys` or counted (tests.counts). Returns the exact tests run.
std::uint64_t run_passes(const Grid& grid, const PairTestContext& tests, SmallPairs& small, PairKeys& keys,
                         StageClock* clock) {
  std::uint64_t candidates = small.finish(grid.home, keys);
  if (clock) clock->lap("small_pairs");
  candidates += large_small_pairs(grid.home, grid.spans, tests, keys);
  if (clock) clock->lap("large_small_pairs");
  candidates += large_large_pairs(grid.tiled, tests, keys);
  if (clock) clock->lap("large_large_pairs");
  return candidates;
}

/// The count bins over keys [lo, hi): at most 2^count_bin_bits bins of 2^shift keys.
KeyCounts count_bins(KeyRange range) {
  const int shift = std::max(0, bits_for(range.hi - range.lo) - count_bin_bits);
  return KeyCounts(range.lo, shift, static_cast<std::size_t>(((range.hi - range.lo - 1) >> shift) + 1));
}

/// The streamed form's passes over one built grid.
class BandStream {
 public:
  BandStream(const Grid& grid, const PairTestContext& tests, std::size_t band_keys, const PairSink& sink,
             FindPairsReport& report)
      : grid_(grid), tests_(tests), band_keys_(band_keys), sink_(sink), report_(report) {}

  /// Hands over the keys of `range` in bands, given their counts.
  void stream(KeyRange range, const KeyCounts& counts) {
    const CachedVector<std::uint64_t> bins = counts.total();
    std::uint64_t band_lo = range.lo, band_n = 0;
    for (std::size_t b = 0; b < bins.size(); ++b) {
      const std::uint64_t lo = range.lo + (std::uint64_t{b} << counts.shift());
      const std::uint64_t hi = std::min(range.hi, lo + (std::uint64_t{1} << counts.shift()));
      if (band_n != 0 && band_n + bins[b] > band_keys_) {
        collect({band_lo, lo});
        band_lo = lo;
        band_n = 0;
      }
      if (bins[b] > band_keys_ && hi - lo > 1) {
        // One bin alone is too much: counted again, finer.
        KeyCounts finer = count_bins({lo, hi});
        count({lo, hi}, finer);
        stream({lo, hi}, finer);
        band_lo = hi;
        continue;
      }
      band_n += bins[b];
    }
    if (band_n != 0) collect({band_lo, range.hi});
  }

  /// The passes, counting the keys of `range` into `counts`.
  void count(KeyRange range, KeyCounts& counts) {
    PairTestContext t = tests_;
    t.band = range;
    t.counts = &counts;
    SmallPairs small(t);
    PairKeys none;
    report_.candidates += run_passes(grid_, t, small, none, nullptr);
    ++report_.key_passes;
  }

 private:
  /// The passes keeping the keys of `range`, and their merge to the sink.
  void collect(KeyRange range) {
    PairTestContext t = tests_;
    t.band = range;
    PairKeys keys;
    {
      SmallPairs small(t);
      report_.candidates += run_passes(grid_, t, small, keys, nullptr);
    }
    ++report_.key_passes;
    sorted_unique_pairs(keys, t.codec, t.kinds, piece_, sink_);
  }

  const Grid& grid_;
  PairTestContext tests_;
  std::size_t band_keys_;
  const PairSink& sink_;
  FindPairsReport& report_;
  PairList piece_;
};

}  // namespace

void find_grid_pairs(const Scene& scene, const FindPairsOptions& options, Isa isa, StageClock& clock,
                     FindPairsReport& report, PairList& out, Grid* kept, PairOrder order) {
  const KindRanges kinds = KindRanges::of(scene);
  const PairTestContext tests{isa, kinds, PairKeyCodec{bits_for(scene.size())}};
  PairKeys keys;
  {
    SmallPairs small(tests);
    Grid grid = build_grid(scene, options, isa, clock, &small);
    report.candidates += run_passes(grid, tests, small, keys, &clock);
    describe(grid, scene, report);
    if (kept) *kept = std::move(grid);
  }
  report.key_passes = 1;
  if (order == PairOrder::sorted)
    sorted_unique_pairs(keys, tests.codec, kinds, out);
  else
    unsorted_pairs(keys, tests.codec, kinds, out);
  clock.lap("merge");
}

void stream_grid_pairs(const Scene& scene, const FindPairsOptions& options, Isa isa, StageClock& clock,
                       FindPairsReport& report, const PairSink& sink) {
  const KindRanges kinds = KindRanges::of(scene);
  const PairKeyCodec codec{bits_for(scene.size())};
  const KeyRange all{0, std::uint64_t{1} << codec.key_bits()};
  KeyCounts counts = count_bins(all);
  PairTestContext tests{isa, kinds, codec};
  tests.counts = &counts;
  SmallPairs small(tests);
  const Grid grid = build_grid(scene, options, isa, clock, &small);
  describe(grid, scene, report);
  PairKeys none;
  report.candidates += run_passes(grid, tests, small, none, nullptr);
  report.key_passes = 1;
  clock.lap("count");
  tests.counts = nullptr;
  const std::size_t band_keys = std::max<std::size_t>(1, options.stream_band_bytes / sizeof(std::uint64_t));
  BandStream(grid, tests, band_keys, sink, report).stream(all, counts);
  clock.lap("bands");
}

}  // namespace hitgrid
