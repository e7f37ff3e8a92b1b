// The last step of the grid: the pair keys of every part (per thread, per stage) become
// one sorted PairList without repeats.
#pragma once

#include "hitgrid/core/shape_id.hpp"
#include "packed_shapes.hpp"
#include "pair_keys.hpp"

namespace hitgrid {

/// The keys of all parts (emptied), sorted, each once, as (kind, id) pairs, into `out`
/// (its old contents replaced, its capacity reused). Runs in the calling TBB arena; the
/// result does not depend on how the keys are split into parts.
void sorted_unique_pairs(PairKeys& parts, PairKeyCodec codec, const KindRanges& kinds, PairList& out);

}  // namespace hitgrid
