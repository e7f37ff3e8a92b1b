// The grid broad phase, hitgrid's main method: a build step that turns a scene into an
// immutable grid, passes that read it, and the merge of what they found.
//
//   plan     the home-cell grid's cell side, from a sample of the shapes, and the layout:
//            the home-cell grid for the small shapes with the tiled grid for the large
//            ones, or (when the large shapes would cross too many rows) the tiled grid
//            alone; decided once, before anything is packed (cell_size.hpp)
//   build    HomeGrid::build (small shapes by home cell, rows sorted; large shapes aside),
//            LargeSpans::build (the large shapes' spans over the home cells, by row),
//            TiledGrid::build (the large shapes, or all of them, by tile)
//   passes   small_pairs, large_small_pairs (home_grid_pairs.hpp) and large_large_pairs
//            (tiled_grid.hpp): each reads the grid, appends pair keys, changes nothing.
//            find_grid_pairs has the small-pairs pass listen to the build and search
//            each row as soon as it and the row above are final, while they are in the
//            cache (its time then counts in "build"); what it finds is the same.
//   merge    sorted_unique_pairs: the keys sorted, repeats dropped, as (kind, id) pairs
//            (the grid is given back first: the merge has its memory)
//   stream   stream_grid_pairs: the passes count the keys, then run once per band of
//            keys, each band merged and handed over in order
// The answer does not depend on the cell sizes, the layout, the ISA or the thread count.
#pragma once

#include "hitgrid/broadphase/find_pairs.hpp"
#include "home_grid.hpp"
#include "home_grid_pairs.hpp"
#include "large_spans.hpp"
#include "pair_keys.hpp"
#include "stage_clock.hpp"
#include "tiled_grid.hpp"

namespace hitgrid {

struct Grid {
  KindRanges kinds;
  std::size_t shapes = 0;
  bool tiled_only = false;  // every shape in the tiled grid; home and spans empty
  HomeGrid home;
  LargeSpans spans;
  TiledGrid tiled;  // the large shapes (or every shape), if at least two
};

/// The build step. options: the cell sizes (0: automatic); isa: concrete, for the build's
/// vector code (the grid's answer does not depend on it); rows: told of the home grid's
/// rows as they are final (HomeGrid::RowListener), if given. Laps "plan" and "build".
Grid build_grid(const Scene& scene, const FindPairsOptions& options, Isa isa, StageClock& clock,
                HomeGrid::RowListener* rows = nullptr);

/// The build, the passes and the merge: the pairs into `out` (its capacity reused), in
/// `order` (the merge sorts them, or only turns the keys into pairs). Laps one stage each.
/// Fills the report's grid fields and adds the exact tests run to its candidates. The grid
/// is given back before the merge, which then has its memory, or moved into `kept` when
/// given (PairFinder keeps it as a GridIndex for queries).
void find_grid_pairs(const Scene& scene, const FindPairsOptions& options, Isa isa, StageClock& clock,
                     FindPairsReport& report, PairList& out, Grid* kept = nullptr, PairOrder order = PairOrder::sorted);

/// Streamed: the build; the passes once, counting the keys by their top bits; then per
/// band of at most options.stream_band_bytes of keys (consecutive key ranges, in order)
/// the passes again, keeping that band's keys, and their merge to `sink`. A band of one
/// count bin that alone holds too many keys is counted again in finer bins. Laps "plan",
/// "build", "count" (the passes that count) and "bands" (the others and the merges).
void stream_grid_pairs(const Scene& scene, const FindPairsOptions& options, Isa isa, StageClock& clock,
                       FindPairsReport& report, const PairSink& sink);

}  // namespace hitgrid
