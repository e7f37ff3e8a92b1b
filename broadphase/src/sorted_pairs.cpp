#include "sorted_pairs.hpp"

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cstring>
#include <deque>

#include "block_cache.hpp"
#include "counting_sort.hpp"
#include "hitgrid/broadphase/detail/parallel.hpp"
#include "radix_sort.hpp"
#include "uninitialized_vector.hpp"

namespace hitgrid {
namespace {

/// Keys per bucket the top-digit scatter aims at: a bucket (64 KiB) then stays in the L2
/// cache for its LSD passes, and its counters (2048 per pass) cost little next to its keys.
constexpr std::size_t bucket_target = 8192;
/// Buckets at most 2^max_top_bits.
constexpr int max_top_bits = 16;
/// Below this many buckets' worth of keys, the keys are joined and radix sorted instead:
/// the buckets' sorts, each in the cache with one table of counters and no blocks, beat
/// the joined sort's passes over memory on one thread as on several once there are a few
/// of them.
constexpr std::size_t joined_buckets = 4;
constexpr std::size_t buckets_per_task = 4;
/// Pairs written per task.
constexpr std::size_t pairs_per_task = std::size_t{1} << 14;
/// Key sets up to this many keys are sorted whole (the bucket scatter below needs a
/// second array of their size and the output a third); larger ones are first split, chunk
/// by chunk, into pieces of at most piece_keys keys by their top bits, which are then
/// sorted and handed over one at a time in order.
constexpr std::size_t whole_keys = std::size_t{1} << 22;
constexpr std::size_t piece_keys = std::size_t{1} << 20;
/// A split makes at most 2^max_split_bits pieces (each thread fills a chunk for each).
constexpr int max_split_bits = 8;

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

/// Small key sets: joined and sorted by the plain radix sort on their low key_bits bits
/// (the bits above are the same in every key).
void small_sorted_unique_pairs(PairKeys& parts, int key_bits, PairKeyCodec codec, const KindRanges& kinds,
                               PairList& out) {
  PairKeyList keys;
  keys.reserve(parts.size());
  for (std::size_t c = 0; c < parts.chunks().size(); ++c) {
    const PairKeys::Chunk& chunk = parts.chunks()[c];
    keys.insert(keys.end(), chunk.keys, chunk.keys + chunk.size);
    parts.release_chunk(c);
  }
  parts.clear();
  radix_sort(keys, key_bits);
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  out.clear();
  out.resize(keys.size());
  detail::parallel_for(tbb::blocked_range<std::size_t>(0, keys.size(), pairs_per_task), [&](const auto& r) {
    for (std::size_t k = r.begin(); k != r.end(); ++k) out[k] = pair_of(keys[k], codec, kinds);
  });
}

/// The keys' chunks, each a block of the counting sort.
CachedVector<Chunk> chunks_of(const PairKeys& parts) {
  CachedVector<Chunk> chunks;
  chunks.reserve(parts.chunks().size());
  for (const PairKeys::Chunk& c : parts.chunks())
    if (c.size != 0) chunks.push_back({c.keys, c.size});
  return chunks;
}

/// The keys (given back) grouped into buckets by their bits from `shift` up (to the
/// buckets' count), in `scattered`; returns the buckets' starts.
CachedVector<std::size_t> scatter_by_top_bits(PairKeys& parts, int shift, std::size_t buckets,
                                              UninitializedVector<std::uint64_t>& scattered) {
  const CachedVector<Chunk> chunks = chunks_of(parts);
  const std::uint64_t mask = buckets - 1;
  const auto key_itself = [](std::uint64_t k) { return k; };
  CachedVector<std::size_t> start = counting_sort<std::size_t>(
      chunks.size(), buckets,
      [&](std::size_t c, std::size_t* count) {
        count_digits(chunks[c].keys, 0, chunks[c].size, key_itself, shift, mask, count);
      },
      [&](const CachedVector<std::size_t>& s) { scattered.resize(s.back()); },
      [&](std::size_t c, std::size_t* next) {
        scatter_digits(chunks[c].keys, 0, chunks[c].size, key_itself, shift, mask, next, scattered.data());
      });
  parts.clear();
  return start;
}

/// Each bucket sorted on its low `shift` bits in the cache, freed of repeats and written
/// out as pairs from its start in `out`; returns how many pairs each bucket kept.
CachedVector<std::size_t> pairs_by_bucket(UninitializedVector<std::uint64_t>& scattered,
                                          const CachedVector<std::size_t>& start, int shift, PairKeyCodec codec,
                                          const KindRanges& kinds, PairList& out) {
  const std::size_t buckets = start.size() - 1;
  CachedVector<std::size_t> kept(buckets, 0);
  struct Scratch {
    CachedVector<std::uint64_t> keys;
    CachedVector<std::uint32_t> count;
  };
  tbb::enumerable_thread_specific<Scratch> scratch;
  detail::parallel_for(tbb::blocked_range<std::size_t>(0, buckets, buckets_per_task), [&](const auto& range) {
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
void close_gaps(const CachedVector<std::size_t>& start, const CachedVector<std::size_t>& kept, PairList& out) {
  std::size_t size = 0;
  for (std::size_t d = 0; d < kept.size(); ++d) {
    if (size != start[d] && kept[d] != 0)
      std::memmove(out.data() + size, out.data() + start[d], kept[d] * sizeof(Pair));
    size += kept[d];
  }
  out.resize(size);
}

/// The keys (given back), sorted on their low key_bits bits (the bits above are the same
/// in every key), each once, as pairs into `out` (its old contents replaced).
///
/// Large key sets: one parallel pass scatters the keys straight from their chunks into
/// buckets by their top bits (no joined copy first); then each bucket, in the cache, is
/// sorted on the remaining bits, freed of repeats and written out as pairs at its final
/// place (a repeat is always in one bucket); the buckets are moved together afterwards
/// only where repeats left gaps (the tiled grid's rare repeats).
void sort_whole(PairKeys& parts, int key_bits, PairKeyCodec codec, const KindRanges& kinds, PairList& out) {
  const std::size_t total = parts.size();
  if (total < joined_buckets * bucket_target || key_bits <= 2 * radix_digit_bits)
    return small_sorted_unique_pairs(parts, key_bits, codec, kinds, out);

  int top_bits = 1;
  while (top_bits < max_top_bits && (total >> top_bits) > bucket_target) ++top_bits;
  const int shift = key_bits - top_bits;
  UninitializedVector<std::uint64_t> scattered;
  const CachedVector<std::size_t> start = scatter_by_top_bits(parts, shift, std::size_t{1} << top_bits, scattered);
  out.clear();
  out.resize(total);
  close_gaps(start, pairs_by_bucket(scattered, start, shift, codec, kinds, out), out);
}

/// The keys (given back) split by `bits` bits below their low key_bits bits' top, in
/// order: a parallel pass over the chunks, each given back once read, so the keys move
/// from chunk to chunk and their memory does not double.
CachedVector<PairKeys> split_by_top_bits(PairKeys& keys, int key_bits, int bits) {
  const int shift = key_bits - bits;
  const std::size_t pieces = std::size_t{1} << bits;
  const std::uint64_t mask = pieces - 1;
  tbb::enumerable_thread_specific<CachedVector<PairKeys>> local([&] { return CachedVector<PairKeys>(pieces); });
  detail::parallel_for(tbb::blocked_range<std::size_t>(0, keys.chunks().size(), 1), [&](const auto& r) {
    CachedVector<PairKeys>& to = local.local();
    for (std::size_t c = r.begin(); c != r.end(); ++c) {
      const PairKeys::Chunk& chunk = keys.chunks()[c];
      for (std::size_t i = 0; i < chunk.size; ++i) to[(chunk.keys[i] >> shift) & mask].push_back(chunk.keys[i]);
      keys.release_chunk(c);
    }
  });
  keys.clear();
  CachedVector<PairKeys> out(pieces);
  for (CachedVector<PairKeys>& to : local)
    for (std::size_t p = 0; p < pieces; ++p) out[p].append(to[p]);
  return out;
}

/// The sorted pairs of the keys (given back), piece by piece in order, to emit(piece).
template <class Emit>
void sorted_pieces(PairKeys& keys, int key_bits, PairKeyCodec codec, const KindRanges& kinds, PairList& piece,
                   Emit&& emit) {
  struct Part {
    PairKeys keys;
    int key_bits;  // the keys' bits above these are the same
  };
  std::deque<Part> todo;
  todo.push_back({std::move(keys), key_bits});
  while (!todo.empty()) {
    Part part = std::move(todo.front());
    todo.pop_front();
    if (part.keys.size() > piece_keys && part.key_bits > 0) {
      const std::size_t want = (part.keys.size() + piece_keys - 1) / piece_keys;
      const int bits = std::min({bits_for(want) + 1, max_split_bits, part.key_bits});
      CachedVector<PairKeys> split = split_by_top_bits(part.keys, part.key_bits, bits);
      for (std::size_t p = split.size(); p-- > 0;)
        if (!split[p].empty()) todo.push_front({std::move(split[p]), part.key_bits - bits});
      continue;
    }
    sort_whole(part.keys, part.key_bits, codec, kinds, piece);
    if (!piece.empty()) emit(std::span<const Pair>(piece));
  }
}

}  // namespace

void sorted_unique_pairs(PairKeys& keys, PairKeyCodec codec, const KindRanges& kinds, PairList& out) {
  if (keys.size() <= whole_keys) return sort_whole(keys, codec.key_bits(), codec, kinds, out);
  // The list grows piece by piece while the keys' chunks are given back: its pages and
  // theirs are never both resident in full. The list counts against what the finder may
  // keep (FindPairsOptions::max_kept_bytes): the kept blocks beyond the rest (the grid,
  // given back before the merge) go back to the system before it grows.
  if (const std::shared_ptr<BlockCache> cache = BlockCache::current()) {
    const std::size_t list = keys.size() * sizeof(Pair), max = cache->max_block_bytes();
    cache->trim(list < max ? max - list : 0);
  }
  out.clear();
  out.reserve(keys.size());
  PairList piece;
  sorted_pieces(keys, codec.key_bits(), codec, kinds, piece,
                [&](std::span<const Pair> p) { out.insert(out.end(), p.begin(), p.end()); });
}

void unsorted_pairs(PairKeys& keys, PairKeyCodec codec, const KindRanges& kinds, PairList& out) {
  const CachedVector<Chunk> chunks = chunks_of(keys);
  CachedVector<std::size_t> start(chunks.size() + 1, 0);
  for (std::size_t c = 0; c < chunks.size(); ++c) start[c + 1] = start[c] + chunks[c].size;
  out.clear();
  out.resize(start.back());
  detail::parallel_for(std::size_t{0}, chunks.size(), [&](std::size_t c) {
    for (std::size_t i = 0; i < chunks[c].size; ++i) out[start[c] + i] = pair_of(chunks[c].keys[i], codec, kinds);
  });
  keys.clear();
}

void sorted_unique_pairs(PairKeys& keys, PairKeyCodec codec, const KindRanges& kinds, PairList& piece,
                         const PairSink& sink) {
  if (keys.size() <= whole_keys) {
    sort_whole(keys, codec.key_bits(), codec, kinds, piece);
    if (!piece.empty()) sink(std::span<const Pair>(piece));
    return;
  }
  sorted_pieces(keys, codec.key_bits(), codec, kinds, piece, sink);
}

}  // namespace hitgrid
