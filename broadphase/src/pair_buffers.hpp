// Per-thread pair buffers and their one merge: workers append to their own list without
// locks; at the end the lists are joined and sorted, which makes the result independent
// of the thread count and of the order in which work ran.
#pragma once

#include <tbb/enumerable_thread_specific.h>

#include "hitgrid/core/shape_id.hpp"

namespace hitgrid {

using PairBuffers = tbb::enumerable_thread_specific<PairList>;

/// Joins and sorts the buffers (which must not share a pair) into one sorted list.
PairList merge_pair_buffers(PairBuffers& buffers);

}  // namespace hitgrid
