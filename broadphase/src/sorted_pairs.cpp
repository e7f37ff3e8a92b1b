#include "sorted_pairs.hpp"

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cstring>

#include "counting_sort.hpp"
#include "radix_sort.hpp"
#include "uninitialized_vector.hpp"

namespace hitgrid {
namespace {

/// Keys per bucket the top-digit scatter aims at: a bucket (64 KiB) then stays in the L2
/// cache for its LSD passes, and its counters (2048 per pass) cost little next to its keys.
constexpr std::size_t bucket_target = 8192;
/// Parts are read in chunks of at most this many keys, each counted on its own.
constexpr std::size_t chunk_size = std::size_t{1} << 15;

/// The (kind, id) pair of a key. Global order is (kind, id) order, so the key's two
/// ids are already the pair's first and second.
inline Pair pair_of(std::uint64_t key, PairKeyCodec codec, const KindRanges& kinds) {
  const std::uint64_t low = (std::uint64_t{1} << codec.id_bits) - 1;
  const std::uint32_t a = kinds.id(static_cast<std::uint32_t>(key >> codec.id_bits)).bits();
  const std::uint32_t b = kinds.id(static_cast<std::uint32_t>(key & low)).bits();
  return Pair::from_key(std::uint64_t{a} << 32 | b);
}

struct Chunk {
  const std::uint64_t* keys;
  std::size_t size;
};

/// Small key sets: joined and sorted by the plain radix sort.
void small_sorted_unique_pairs(PairKeys& parts, std::size_t total, PairKeyCodec codec, const KindRanges& kinds,
                               PairList& out) {
  PairKeyList keys;
  keys.reserve(total);
  for (auto& p : parts.parts()) {
    keys.insert(keys.end(), p.begin(), p.end());
    PairKeyList().swap(p);
  }
  radix_sort(keys, 2 * codec.id_bits);
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  out.clear();
  out.resize(keys.size());
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, keys.size(), 1 << 14), [&](const auto& r) {
    for (std::size_t k = r.begin(); k != r.end(); ++k) out[k] = pair_of(keys[k], codec, kinds);
  });
}

}  // namespace

/// Large key sets: one parallel pass scatters the keys straight from the parts into
/// buckets by their top bits (no joined copy first); then each bucket, in the cache, is
/// sorted on the remaining bits by LSD passes, freed of repeats and written out as pairs
/// at its final place (a repeat is always in one bucket). Only when some bucket had
/// repeats are the buckets moved together afterwards (the tiled grid's rare repeats).
void sorted_unique_pairs(PairKeys& parts, PairKeyCodec codec, const KindRanges& kinds, PairList& out) {
  std::size_t total = 0;
  for (const auto& p : parts.parts()) total += p.size();
  const int key_bits = 2 * codec.id_bits;
  // The joined sort does less work; the buckets share it out better among threads, so
  // they take over at fewer keys when there are several threads.
  const bool threads = tbb::this_task_arena::max_concurrency() > 1;
  if (total < (threads ? 16 : 64) * bucket_target || key_bits <= 2 * radix_digit_bits)
    return small_sorted_unique_pairs(parts, total, codec, kinds, out);

  std::vector<Chunk> chunks;
  for (const auto& p : parts.parts())
    for (std::size_t at = 0; at < p.size(); at += chunk_size)
      chunks.push_back({p.data() + at, std::min(chunk_size, p.size() - at)});
  int top_bits = 1;
  while (top_bits < 16 && (total >> top_bits) > bucket_target) ++top_bits;
  const int shift = key_bits - top_bits;
  const std::size_t buckets = std::size_t{1} << top_bits;

  // The keys by their top bits, chunk by chunk, straight from the parts.
  UninitializedVector<std::uint64_t> scattered(total);
  const std::vector<std::size_t> bucket_start = counting_sort<std::size_t>(
      chunks.size(), buckets,
      [&](std::size_t c, std::size_t* count) {
        for (std::size_t i = 0; i < chunks[c].size; ++i) ++count[chunks[c].keys[i] >> shift];
      },
      [&](std::size_t c, std::size_t* next) {
        for (std::size_t i = 0; i < chunks[c].size; ++i) {
          const std::uint64_t key = chunks[c].keys[i];
          scattered[next[key >> shift]++] = key;
        }
      });
  for (auto& p : parts.parts()) PairKeyList().swap(p);

  // Each bucket: sorted on the low `shift` bits in the cache, then repeats dropped and
  // pairs out.
  out.clear();
  out.resize(total);
  std::vector<std::size_t> kept(buckets, 0);
  struct Scratch {
    std::vector<std::uint64_t> keys;
    std::vector<std::uint32_t> count;
  };
  tbb::enumerable_thread_specific<Scratch> scratch;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, buckets, 4), [&](const auto& range) {
    Scratch& t = scratch.local();
    for (std::size_t d = range.begin(); d != range.end(); ++d) {
      const std::size_t lo = bucket_start[d], n = bucket_start[d + 1] - lo;
      t.keys.resize(n);
      const std::uint64_t* sorted = radix_sort_in_cache(scattered.data() + lo, t.keys.data(), n, shift, t.count);
      std::size_t k = 0;
      for (std::size_t i = 0; i < n; ++i) {
        if (i != 0 && sorted[i] == sorted[i - 1]) continue;
        out[lo + k++] = pair_of(sorted[i], codec, kinds);
      }
      kept[d] = k;
    }
  });
  // Close the gaps repeats left (in bucket order: every move goes to a lower place).
  std::size_t size = 0;
  for (std::size_t d = 0; d < buckets; ++d) {
    if (size != bucket_start[d] && kept[d] != 0)
      std::memmove(out.data() + size, out.data() + bucket_start[d], kept[d] * sizeof(Pair));
    size += kept[d];
  }
  out.resize(size);
}

}  // namespace hitgrid
