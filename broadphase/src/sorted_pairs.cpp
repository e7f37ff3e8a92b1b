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
/// Buckets at most 2^max_top_bits.
constexpr int max_top_bits = 16;
/// Below this many buckets' worth of keys, the keys are joined and radix sorted instead
/// (fewer with several threads, which the buckets share out better).
constexpr std::size_t joined_buckets_one_thread = 64;
constexpr std::size_t joined_buckets_threaded = 16;
constexpr std::size_t buckets_per_task = 4;
/// Pairs written per task.
constexpr std::size_t pairs_per_task = std::size_t{1} << 14;

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
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, keys.size(), pairs_per_task), [&](const auto& r) {
    for (std::size_t k = r.begin(); k != r.end(); ++k) out[k] = pair_of(keys[k], codec, kinds);
  });
}

/// The parts cut into chunks of at most chunk_size keys: the counting sort's blocks.
std::vector<Chunk> chunks_of(PairKeys& parts) {
  std::vector<Chunk> chunks;
  for (const auto& p : parts.parts())
    for (std::size_t at = 0; at < p.size(); at += chunk_size)
      chunks.push_back({p.data() + at, std::min(chunk_size, p.size() - at)});
  return chunks;
}

/// The keys of every part (emptied) grouped into buckets by their bits from `shift` up,
/// in `scattered`; returns the buckets' starts.
std::vector<std::size_t> scatter_by_top_bits(PairKeys& parts, int shift, std::size_t buckets,
                                             UninitializedVector<std::uint64_t>& scattered) {
  const std::vector<Chunk> chunks = chunks_of(parts);
  std::vector<std::size_t> start = counting_sort<std::size_t>(
      chunks.size(), buckets,
      [&](std::size_t c, std::size_t* count) {
        for (std::size_t i = 0; i < chunks[c].size; ++i) ++count[chunks[c].keys[i] >> shift];
      },
      [&](const std::vector<std::size_t>& s) { scattered.resize(s.back()); },
      [&](std::size_t c, std::size_t* next) {
        for (std::size_t i = 0; i < chunks[c].size; ++i) {
          const std::uint64_t key = chunks[c].keys[i];
          scattered[next[key >> shift]++] = key;
        }
      });
  for (auto& p : parts.parts()) PairKeyList().swap(p);
  return start;
}

/// Each bucket sorted on its low `shift` bits in the cache, freed of repeats and written
/// out as pairs from its start in `out`; returns how many pairs each bucket kept.
std::vector<std::size_t> pairs_by_bucket(UninitializedVector<std::uint64_t>& scattered,
                                         const std::vector<std::size_t>& start, int shift, PairKeyCodec codec,
                                         const KindRanges& kinds, PairList& out) {
  const std::size_t buckets = start.size() - 1;
  std::vector<std::size_t> kept(buckets, 0);
  struct Scratch {
    std::vector<std::uint64_t> keys;
    std::vector<std::uint32_t> count;
  };
  tbb::enumerable_thread_specific<Scratch> scratch;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, buckets, buckets_per_task), [&](const auto& range) {
    Scratch& t = scratch.local();
    for (std::size_t d = range.begin(); d != range.end(); ++d) {
      const std::size_t lo = start[d], n = start[d + 1] - lo;
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
  return kept;
}

/// Closes the gaps the repeats left between the buckets' pairs (in bucket order: every
/// move goes to a lower place).
void close_gaps(const std::vector<std::size_t>& start, const std::vector<std::size_t>& kept, PairList& out) {
  std::size_t size = 0;
  for (std::size_t d = 0; d < kept.size(); ++d) {
    if (size != start[d] && kept[d] != 0)
      std::memmove(out.data() + size, out.data() + start[d], kept[d] * sizeof(Pair));
    size += kept[d];
  }
  out.resize(size);
}

}  // namespace

/// Large key sets: one parallel pass scatters the keys straight from the parts into
/// buckets by their top bits (no joined copy first); then each bucket, in the cache, is
/// sorted on the remaining bits, freed of repeats and written out as pairs at its final
/// place (a repeat is always in one bucket); the buckets are moved together afterwards
/// only where repeats left gaps (the tiled grid's rare repeats).
void sorted_unique_pairs(PairKeys& parts, PairKeyCodec codec, const KindRanges& kinds, PairList& out) {
  std::size_t total = 0;
  for (const auto& p : parts.parts()) total += p.size();
  const int key_bits = 2 * codec.id_bits;
  // The joined sort does less work; the buckets share it out better among threads, so
  // they take over at fewer keys when there are several threads.
  const bool threads = tbb::this_task_arena::max_concurrency() > 1;
  const std::size_t joined_below = (threads ? joined_buckets_threaded : joined_buckets_one_thread) * bucket_target;
  if (total < joined_below || key_bits <= 2 * radix_digit_bits)
    return small_sorted_unique_pairs(parts, total, codec, kinds, out);

  int top_bits = 1;
  while (top_bits < max_top_bits && (total >> top_bits) > bucket_target) ++top_bits;
  const int shift = key_bits - top_bits;
  UninitializedVector<std::uint64_t> scattered;
  const std::vector<std::size_t> start = scatter_by_top_bits(parts, shift, std::size_t{1} << top_bits, scattered);
  out.clear();
  out.resize(total);
  close_gaps(start, pairs_by_bucket(scattered, start, shift, codec, kinds, out), out);
}

}  // namespace hitgrid
