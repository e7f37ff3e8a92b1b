// The last step of the grid: the pair keys of every part (per thread, per stage) become
// one sorted PairList without repeats, or sorted pieces of it handed over in order.
//
// Memory: up to 2^22 keys are sorted at once, with a second array of their size and the
// output beside them. A larger set is first split, chunk by chunk, into pieces of at most
// 2^20 keys by their top bits (each chunk given back once read, so the keys move rather
// than double), and the pieces are sorted and handed over one at a time, in order, each
// piece's keys given back as it goes; the in-memory form appends them to the output list
// (reserved, so its pages are touched only as it is written). Beyond the keys and the
// output, that is at most 2^8 partly filled chunks per thread and one piece's sort.
#pragma once

#include "hitgrid/broadphase/find_pairs.hpp"
#include "hitgrid/core/shape_id.hpp"
#include "packed_shapes.hpp"
#include "pair_keys.hpp"

namespace hitgrid {

/// The keys (given back), sorted, each once, as (kind, id) pairs, into `out` (its old
/// contents replaced, its capacity reused). Runs in the calling TBB arena; the result does
/// not depend on how the keys are split into parts or chunks.
void sorted_unique_pairs(PairKeys& keys, PairKeyCodec codec, const KindRanges& kinds, PairList& out);

/// The keys (given back) as (kind, id) pairs into `out` (its old contents replaced), in no
/// particular order and a pair as often as its key came (the tiled grid repeats a few):
/// for a caller that sorts them its own way. Runs in the calling TBB arena.
void unsorted_pairs(PairKeys& keys, PairKeyCodec codec, const KindRanges& kinds, PairList& out);

/// The same pairs handed to `sink` in sorted pieces, in order (none empty); `piece` is the
/// pieces' buffer (its capacity reused).
void sorted_unique_pairs(PairKeys& keys, PairKeyCodec codec, const KindRanges& kinds, PairList& piece,
                         const PairSink& sink);

}  // namespace hitgrid
