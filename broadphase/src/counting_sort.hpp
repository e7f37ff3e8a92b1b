// The block-parallel counting sort: the one way the broad phase groups items by a small
// integer key (shapes by row, tile entries by tile, spans by row, pair keys by their top
// bits, and each digit pass of the radix sort), and its one-block form for the small
// sorts inside a task (counting_sort_in_task: a row's shapes by column, a tile's cell
// hits, the digits of a bucket sorted in the cache).
//
// Three steps over fixed blocks of the input:
//   1. count:   each block counts its items per bucket into its own table (in parallel);
//   2. place:   a prefix sum over (bucket, block) turns the tables into each block's own
//               output position in every bucket, and gives every bucket's start;
//   3. scatter: each block writes its items to their places (in parallel).
// Blocks are fixed by the input alone and each block scatters its items in input order,
// so the output is stable and the same on any thread count (tests/broadphase/
// test_counting_sort.cpp checks both). The caller chooses the blocks: a block's table has
// one counter per bucket, so blocks x buckets counters must fit in memory and, to be
// fast, a block's table should fit in the cache.
#pragma once

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "hitgrid/broadphase/detail/parallel.hpp"
#include "uninitialized_vector.hpp"

namespace hitgrid {

/// How the broad phase cuts its counting sorts into blocks: at most max_blocks of them,
/// and at most max_block_counters counters in all their tables together (a sort with more
/// buckets than that allows takes another path, or fewer blocks). Each sort sets how many
/// items a block holds at least: fewer would make a block's table cost more than its
/// items. Sorts of shapes by row or tile take blocks of at least 2^shapes_per_block_log2.
inline constexpr std::size_t max_blocks = 256;
inline constexpr std::uint64_t max_block_counters = std::uint64_t{1} << 22;
inline constexpr int shapes_per_block_log2 = 14;

/// Fixed blocks of n items: block b is [begin(b), end(b)). Only n and the block count
/// decide them, never the thread count.
struct Blocks {
  std::size_t n = 0, count = 1, size = 0;
  /// n items in `blocks` blocks (at least one).
  static Blocks of(std::size_t n, std::size_t blocks) {
    blocks = std::max<std::size_t>(blocks, 1);
    return {n, blocks, (n + blocks - 1) / blocks};
  }
  /// n items in blocks of at least 2^min_log2 items, at most `most` blocks (and at most
  /// max_blocks), at least one.
  static Blocks at_least(std::size_t n, int min_log2, std::size_t most = max_blocks) {
    return of(n, std::clamp<std::size_t>(std::min(n >> min_log2, most), 1, max_blocks));
  }
  std::size_t begin(std::size_t b) const { return std::min(n, b * size); }
  std::size_t end(std::size_t b) const { return std::min(n, (b + 1) * size); }
};

/// The counters of a block-parallel counting sort: one table of `buckets` counters per
/// block. Index: the position type (std::uint32_t when the output has fewer than 2^32
/// items, else std::uint64_t).
template <class Index>
class BlockCounts {
 public:
  /// The tables can take megabytes (a block per 2^14 shapes times a counter per row or
  /// tile): they come from the PairFinder's kept blocks (uninitialized_vector.hpp) and are
  /// zeroed here, not mapped afresh every call.
  BlockCounts(std::size_t blocks, std::size_t buckets) : blocks_(blocks), buckets_(buckets), table_(blocks * buckets) {
    std::fill(table_.begin(), table_.end(), Index{0});
  }

  std::size_t blocks() const { return blocks_; }
  std::size_t buckets() const { return buckets_; }
  /// Block b's table: its count per bucket (step 1), then, after place(), its next output
  /// position per bucket (step 3 advances it).
  Index* table(std::size_t b) { return table_.data() + b * buckets_; }
  const Index* table(std::size_t b) const { return table_.data() + b * buckets_; }

  /// Step 2. Returns the buckets' starts (buckets + 1 entries, the last is the total) and
  /// turns every block's counts into its first position in each bucket: block b's items
  /// of bucket k go after those of blocks 0 .. b - 1. Every loop runs along one block's
  /// own table (walking one bucket across all tables would stride by a table per step).
  CachedVector<Index> place() {
    CachedVector<Index> start(buckets_ + 1, 0);
    for (std::size_t b = 0; b < blocks_; ++b) {
      const Index* count = table(b);
      for (std::size_t k = 0; k < buckets_; ++k) start[k + 1] += count[k];
    }
    for (std::size_t k = 0; k < buckets_; ++k) start[k + 1] += start[k];
    CachedVector<Index> next(start.begin(), start.end() - 1);
    for (std::size_t b = 0; b < blocks_; ++b) {
      Index* count = table(b);
      for (std::size_t k = 0; k < buckets_; ++k) next[k] += std::exchange(count[k], next[k]);
    }
    return start;
  }

 private:
  std::size_t blocks_, buckets_;
  UninitializedVector<Index> table_;
};

/// Turns counts into starts: table[k] becomes the sum of the counts before k. Returns the
/// total.
template <class Index>
Index exclusive_prefix_sum(Index* table, std::size_t n) {
  Index sum = 0;
  for (std::size_t k = 0; k < n; ++k) sum += std::exchange(table[k], sum);
  return sum;
}

/// The counting sort as one block, on the calling thread, with the caller's table of
/// `buckets` counters (kept from call to call, so nothing is allocated): for the small
/// sorts inside one task (a row's shapes by column, a tile's cell hits by cell, a cached
/// bucket's keys by a digit), where blocks, their tables and tasks would cost more than
/// the items. count(Index* counts) adds one to counts[key] per item; scatter(Index* next)
/// writes each item, in input order, to next[key]++. Stable. Afterwards table[k] is where
/// bucket k ends (and bucket k starts where k - 1 ends, or at 0).
template <class Index, class Count, class Scatter>
void counting_sort_in_task(Index* table, std::size_t buckets, Count&& count, Scatter&& scatter) {
  std::fill(table, table + buckets, Index{0});
  count(table);
  exclusive_prefix_sum(table, buckets);
  scatter(table);
}

/// The whole sort. count(b, Index* counts) adds one to counts[key] for each item of block
/// b; prepare(starts) sees the buckets' starts (buckets + 1 entries: the last is the total,
/// for sizing the output); scatter(b, Index* next) writes each item of block b, in input
/// order, to position next[key]++. count and scatter run in parallel over the blocks, in
/// the calling TBB arena. Returns the buckets' starts.
template <class Index, class Count, class Prepare, class Scatter>
CachedVector<Index> counting_sort(std::size_t blocks, std::size_t buckets, Count&& count, Prepare&& prepare,
                                  Scatter&& scatter) {
  BlockCounts<Index> counts(blocks, buckets);
  detail::parallel_for(std::size_t{0}, blocks, [&](std::size_t b) { count(b, counts.table(b)); });
  CachedVector<Index> start = counts.place();
  prepare(static_cast<const CachedVector<Index>&>(start));
  detail::parallel_for(std::size_t{0}, blocks, [&](std::size_t b) { scatter(b, counts.table(b)); });
  return start;
}

/// The same, for an output sized beforehand.
template <class Index, class Count, class Scatter>
CachedVector<Index> counting_sort(std::size_t blocks, std::size_t buckets, Count&& count, Scatter&& scatter) {
  return counting_sort<Index>(
      blocks, buckets, count, [](const CachedVector<Index>&) {}, scatter);
}

}  // namespace hitgrid
