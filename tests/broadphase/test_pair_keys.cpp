// Pair keys (pair_keys.hpp): bits_for's exact widths; PairKeyCodec's keys round trip at
// every width up to the largest (32-bit global indices, 64-bit keys) and sort as the
// (first, second) pairs do, and through KindRanges as the PairList's (kind, id) pairs do;
// PairKeys' chunks (filled in order, full but for the last, appends across chunk edges,
// one list's chunks taken over by another with the room kept last, chunks released and
// cleared back to the current cache's pool, moves); KeyRange's half-open ranges; and
// KeyCounts' bins, counted on several threads, against a plain count.
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

#include "block_cache.hpp"
#include "hitgrid/core/shape_id.hpp"
#include "hitgrid/core/splitmix64.hpp"
#include "packed_shapes.hpp"
#include "pair_keys.hpp"

using namespace hitgrid;

namespace {

constexpr std::size_t chunk = KeyChunkPool::chunk_keys;

/// The keys of the list in chunk order (released chunks skipped).
std::vector<std::uint64_t> contents(const PairKeys& keys) {
  std::vector<std::uint64_t> out;
  for (const PairKeys::Chunk& c : keys.chunks())
    if (c.keys != nullptr) out.insert(out.end(), c.keys, c.keys + c.size);
  return out;
}

std::vector<std::size_t> chunk_sizes(const PairKeys& keys) {
  std::vector<std::size_t> out;
  for (const PairKeys::Chunk& c : keys.chunks()) out.push_back(c.size);
  return out;
}

std::vector<std::uint64_t> random_keys(SplitMix64& rng, std::size_t n) {
  std::vector<std::uint64_t> out(n);
  for (auto& k : out) k = rng.next();
  return out;
}

/// Idle chunks of the cache's key-chunk pool.
std::size_t idle_chunks(BlockCache& cache) { return cache.key_chunks().resident_bytes() / KeyChunkPool::chunk_bytes; }

}  // namespace

TEST_CASE("bits_for gives the bits of the numbers 0 .. n - 1", "[pair_keys]") {
  CHECK(bits_for(0) == 0);
  CHECK(bits_for(1) == 0);
  CHECK(bits_for(2) == 1);
  CHECK(bits_for(3) == 2);
  CHECK(bits_for(4) == 2);
  CHECK(bits_for(5) == 3);
  CHECK(bits_for(1000) == 10);
  CHECK(bits_for(1024) == 10);
  CHECK(bits_for(1025) == 11);
  // The most shapes a scene holds: three kinds of 2^30. Their global indices take 32 bits.
  CHECK(bits_for(3 * std::uint64_t{ShapeId::max_count}) == 32);
  CHECK(bits_for(std::uint64_t{1} << 32) == 32);
  CHECK(bits_for((std::uint64_t{1} << 32) + 1) == 33);
  CHECK(bits_for(std::numeric_limits<std::uint64_t>::max()) == 64);
}

TEST_CASE("PairKeyCodec keys round trip at every width and sort as their pairs", "[pair_keys]") {
  SplitMix64 rng(11);
  for (int id_bits : {1, 2, 7, 16, 21, 30, 31, 32}) {
    INFO("id_bits " << id_bits);
    const PairKeyCodec codec{id_bits};
    CHECK(codec.key_bits() == 2 * id_bits);
    const std::uint64_t top = (std::uint64_t{1} << id_bits) - 1;  // the largest index of this width
    // Pairs a < b: the extremes of the width, then random ones.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs = {{0, 1}, {0, static_cast<std::uint32_t>(top)}};
    if (top >= 2) {
      pairs.push_back({static_cast<std::uint32_t>(top - 1), static_cast<std::uint32_t>(top)});
      pairs.push_back({1, static_cast<std::uint32_t>(top)});
    }
    for (int i = 0; i < 2000; ++i) {
      auto a = static_cast<std::uint32_t>(rng.next() & top), b = static_cast<std::uint32_t>(rng.next() & top);
      if (rng.next() % 4 == 0) b = a;  // many pairs sharing a first index
      if (a == b) b = a == top ? a - 1 : a + 1;
      pairs.push_back({std::min(a, b), std::max(a, b)});
    }
    std::vector<std::uint64_t> keys;
    for (const auto& [a, b] : pairs) {
      const std::uint64_t key = codec.key(a, b);
      CHECK((key >> id_bits) == a);
      CHECK((key & top) == b);
      if (codec.key_bits() < 64) CHECK(key < (std::uint64_t{1} << codec.key_bits()));
      keys.push_back(key);
    }
    // Sorting the keys sorts the pairs by (first, second).
    std::vector<std::size_t> by_key(pairs.size()), by_pair(pairs.size());
    for (std::size_t i = 0; i < pairs.size(); ++i) by_key[i] = by_pair[i] = i;
    std::stable_sort(by_key.begin(), by_key.end(), [&](std::size_t x, std::size_t y) { return keys[x] < keys[y]; });
    std::stable_sort(by_pair.begin(), by_pair.end(), [&](std::size_t x, std::size_t y) { return pairs[x] < pairs[y]; });
    CHECK(by_key == by_pair);
  }
  // The widest keys, spelled out.
  const PairKeyCodec widest{32};
  CHECK(widest.key(0, 1) == 1u);
  CHECK(widest.key(1, 2) == 0x0000000100000002ull);
  CHECK(widest.key(0xBFFFFFFEu, 0xBFFFFFFFu) == 0xBFFFFFFEBFFFFFFFull);
  CHECK(widest.key(0xFFFFFFFEu, 0xFFFFFFFFu) == 0xFFFFFFFEFFFFFFFFull);
  CHECK(PairKeyCodec{3}.key(5, 6) == 0b101'110u);
}

TEST_CASE("pair keys of global indices sort as the PairList's (kind, id) pairs", "[pair_keys]") {
  // 5 segments, 4 circles, 3 boxes: every pair of the 12 shapes.
  const KindRanges kinds{5, 9};
  const PairKeyCodec codec{bits_for(12)};
  std::vector<std::pair<std::uint64_t, Pair>> all;
  for (std::uint32_t a = 0; a < 12; ++a)
    for (std::uint32_t b = a + 1; b < 12; ++b) all.push_back({codec.key(a, b), Pair(kinds.id(a), kinds.id(b))});
  for (const auto& [ka, pa] : all)
    for (const auto& [kb, pb] : all) {
      INFO("keys " << ka << " and " << kb);
      CHECK((ka < kb) == (pa < pb));
      CHECK((ka == kb) == (pa == pb));
    }
}

TEST_CASE("PairKeys fills chunks in order, full but for the last, and gives them back", "[pair_keys]") {
  const auto shared = std::make_shared<BlockCache>(std::size_t{64} << 20);  // 128 chunks may stay resident
  BlockCache& cache = *shared;
  const BlockCache::Scope scope(shared);
  SplitMix64 rng(3);

  PairKeys keys;
  CHECK(keys.empty());
  CHECK(keys.size() == 0);
  CHECK(keys.chunks().empty());

  // push_back across two chunk edges.
  const std::vector<std::uint64_t> pushed = random_keys(rng, 2 * chunk + 5);
  for (std::uint64_t k : pushed) keys.push_back(k);
  CHECK(!keys.empty());
  CHECK(keys.size() == pushed.size());
  CHECK(chunk_sizes(keys) == std::vector<std::size_t>{chunk, chunk, 5});
  CHECK(contents(keys) == pushed);
  CHECK(idle_chunks(cache) == 0);

  // append(keys, n): fills the last chunk, then new ones.
  const std::vector<std::uint64_t> appended = random_keys(rng, 2 * chunk);
  keys.append(appended.data(), appended.size());
  CHECK(chunk_sizes(keys) == std::vector<std::size_t>{chunk, chunk, chunk, chunk, 5});
  std::vector<std::uint64_t> want = pushed;
  want.insert(want.end(), appended.begin(), appended.end());
  CHECK(contents(keys) == want);
  CHECK(keys.size() == want.size());
  keys.append(appended.data(), 0);  // nothing
  CHECK(keys.size() == want.size());
  CHECK(keys.chunks().size() == 5);

  // clear: every chunk back to the pool, the list empty and usable again.
  keys.clear();
  CHECK(keys.empty());
  CHECK(keys.chunks().empty());
  CHECK(idle_chunks(cache) == 5);
  keys.push_back(42);
  CHECK(idle_chunks(cache) == 4);  // a kept chunk taken again
  CHECK(contents(keys) == std::vector<std::uint64_t>{42});
  {
    PairKeys other;
    other.append(appended.data(), chunk + 1);
    CHECK(idle_chunks(cache) == 2);
  }  // destroyed: its two chunks back
  CHECK(idle_chunks(cache) == 4);
  keys.clear();
  CHECK(idle_chunks(cache) == 5);
}

TEST_CASE("PairKeys::release_chunk gives one chunk back and keeps the count", "[pair_keys]") {
  const auto shared = std::make_shared<BlockCache>(std::size_t{64} << 20);
  BlockCache& cache = *shared;
  const BlockCache::Scope scope(shared);
  SplitMix64 rng(4);
  const std::vector<std::uint64_t> all = random_keys(rng, 2 * chunk + 10);
  PairKeys keys;
  keys.append(all.data(), all.size());
  REQUIRE(keys.chunks().size() == 3);

  keys.release_chunk(0);
  CHECK(keys.chunks()[0].keys == nullptr);
  CHECK(keys.size() == all.size());  // still counted
  CHECK(idle_chunks(cache) == 1);
  CHECK(contents(keys) == std::vector<std::uint64_t>(all.begin() + chunk, all.end()));

  // Released last: the next key starts a chunk of its own.
  keys.release_chunk(2);
  CHECK(keys.chunks()[2].keys == nullptr);
  CHECK(idle_chunks(cache) == 2);
  keys.push_back(7);
  CHECK(keys.size() == all.size() + 1);
  CHECK(chunk_sizes(keys) == std::vector<std::size_t>{chunk, chunk, 10, 1});
  CHECK(keys.chunks()[3].keys != nullptr);
  CHECK(keys.chunks()[3].keys[0] == 7);
  CHECK(idle_chunks(cache) == 1);

  // clear gives back the rest (released chunks are not given twice).
  keys.clear();
  CHECK(idle_chunks(cache) == 3);
}

TEST_CASE("PairKeys::append takes another list's chunks over, its own room kept last", "[pair_keys]") {
  const auto shared = std::make_shared<BlockCache>(std::size_t{64} << 20);
  BlockCache& cache = *shared;
  const BlockCache::Scope scope(shared);
  SplitMix64 rng(5);
  const std::vector<std::uint64_t> a_keys = random_keys(rng, chunk + 7), b_keys = random_keys(rng, chunk + 4);
  PairKeys a, b;
  a.append(a_keys.data(), a_keys.size());
  b.append(b_keys.data(), b_keys.size());
  const std::uint64_t* a_last = a.chunks().back().keys;

  a.append(b);
  CHECK(b.empty());
  CHECK(b.size() == 0);
  CHECK(b.chunks().empty());
  CHECK(a.size() == a_keys.size() + b_keys.size());
  // a's full chunk, b's chunks, then a's partly filled one.
  CHECK(chunk_sizes(a) == std::vector<std::size_t>{chunk, chunk, 4, 7});
  CHECK(a.chunks().back().keys == a_last);
  std::vector<std::uint64_t> want(a_keys.begin(), a_keys.begin() + chunk);
  want.insert(want.end(), b_keys.begin(), b_keys.end());
  want.insert(want.end(), a_keys.begin() + chunk, a_keys.end());
  CHECK(contents(a) == want);
  // Appends fill a's last chunk, not a new one.
  a.push_back(99);
  CHECK(chunk_sizes(a) == std::vector<std::size_t>{chunk, chunk, 4, 8});
  want.push_back(99);
  CHECK(contents(a) == want);
  CHECK(idle_chunks(cache) == 0);  // no chunk given back or taken by the append

  // The emptied list is usable again.
  b.push_back(1);
  CHECK(contents(b) == std::vector<std::uint64_t>{1});

  // Appending an empty list changes nothing; appending to an empty list moves all over.
  PairKeys empty;
  a.append(empty);
  CHECK(a.size() == want.size());
  CHECK(a.chunks().size() == 4);
  PairKeys c;
  c.append(a);
  CHECK(a.empty());
  CHECK(a.chunks().empty());
  CHECK(c.size() == want.size());
  CHECK(contents(c) == want);

  // Moves: the moved-from list is empty, nothing is given back until the owner goes.
  PairKeys d(std::move(c));
  CHECK(c.empty());
  CHECK(c.chunks().empty());
  CHECK(contents(d) == want);
  PairKeys e;
  e.push_back(5);
  e = std::move(d);  // e's own chunk goes back
  CHECK(idle_chunks(cache) == 1);
  CHECK(d.empty());
  CHECK(contents(e) == want);
  e.clear();
  b.clear();
  CHECK(idle_chunks(cache) == 6);
}

TEST_CASE("PairKeys works without a current cache, its chunks from the heap", "[pair_keys]") {
  const BlockCache::Scope none(nullptr);
  SplitMix64 rng(6);
  const std::vector<std::uint64_t> all = random_keys(rng, chunk + 3);
  PairKeys keys;
  for (std::uint64_t k : all) keys.push_back(k);
  CHECK(contents(keys) == all);
  CHECK(chunk_sizes(keys) == std::vector<std::size_t>{chunk, 3});
}

TEST_CASE("KeyRange holds the keys from lo up to, not including, hi", "[pair_keys]") {
  const KeyRange every;
  CHECK(every.all());
  CHECK(every.contains(0));
  CHECK(every.contains(std::numeric_limits<std::uint64_t>::max() - 1));
  const KeyRange band{10, 20};
  CHECK(!band.all());
  CHECK(!band.contains(9));
  CHECK(band.contains(10));
  CHECK(band.contains(19));
  CHECK(!band.contains(20));
  CHECK(!KeyRange{0, 20}.all());
  CHECK(!KeyRange{1, std::numeric_limits<std::uint64_t>::max()}.all());
  CHECK(!KeyRange{5, 5}.contains(5));
}

TEST_CASE("KeyCounts counts keys into bins of 2^shift from lo, summed over threads", "[pair_keys]") {
  SplitMix64 rng(8);
  for (int shift : {0, 3, 40}) {
    INFO("shift " << shift);
    const std::uint64_t lo = (std::uint64_t{1} << 50) + 12345;
    const std::size_t bins = 37;
    const std::uint64_t span = bins << shift;
    std::vector<std::uint64_t> keys(20'000);
    for (std::size_t i = 0; i < keys.size(); ++i) {
      // Both ends of the range among them.
      keys[i] = i == 0 ? lo : i == 1 ? lo + span - 1 : lo + rng.next() % span;
    }
    std::vector<std::uint64_t> want(bins, 0);
    for (std::uint64_t k : keys) ++want[(k - lo) >> shift];

    KeyCounts counts(lo, shift, bins);
    CHECK(counts.lo() == lo);
    CHECK(counts.shift() == shift);
    const CachedVector<std::uint64_t> none = counts.total();
    CHECK(std::vector<std::uint64_t>(none.begin(), none.end()) == std::vector<std::uint64_t>(bins, 0));
    tbb::task_arena(2).execute([&] {
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, keys.size(), 500), [&](const auto& r) {
        counts.add(keys.data() + r.begin(), r.size());
        counts.add(keys.data() + r.begin(), 0);
      });
    });
    const CachedVector<std::uint64_t> got = counts.total();
    CHECK(std::vector<std::uint64_t>(got.begin(), got.end()) == want);
    // Adding more counts on.
    counts.add(keys.data(), 2);
    ++want[0];
    ++want[bins - 1];
    const CachedVector<std::uint64_t> again = counts.total();
    CHECK(std::vector<std::uint64_t>(again.begin(), again.end()) == want);
  }
}
