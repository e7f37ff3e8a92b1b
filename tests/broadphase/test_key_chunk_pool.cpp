// KeyChunkPool (key_chunk_pool.hpp): chunks of chunk_keys keys, 64-byte aligned, that
// never overlap, from the current BlockCache's pool (slab after slab) or from the heap
// without one; chunks given back are kept resident up to the pool's bound (an eighth of
// the cache's) and handed out again, the resident ones first, then those whose pages went
// back to the system (which read as zeros again on Linux); release() gives every idle
// chunk's pages back; and a chunk goes back to the pool it came from whatever thread
// frees it.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#include "block_cache.hpp"
#include "key_chunk_pool.hpp"

using namespace hitgrid;

namespace {

constexpr std::size_t mb = std::size_t{1} << 20;
constexpr std::size_t chunk_bytes = KeyChunkPool::chunk_bytes;

/// A cache whose pool keeps `chunks` chunks resident (an eighth of its bound).
std::shared_ptr<BlockCache> cache_keeping(std::size_t chunks) {
  return std::make_shared<BlockCache>(chunks * chunk_bytes * BlockCache::key_chunk_share_divisor);
}

void fill(std::uint64_t* keys, std::uint64_t value) {
  for (std::size_t k = 0; k < KeyChunkPool::chunk_keys; ++k) keys[k] = value + k;
}
bool holds(const std::uint64_t* keys, std::uint64_t value) {
  for (std::size_t k = 0; k < KeyChunkPool::chunk_keys; ++k)
    if (keys[k] != value + k) return false;
  return true;
}
bool zeros(const std::uint64_t* keys) {
  return std::all_of(keys, keys + KeyChunkPool::chunk_keys, [](std::uint64_t k) { return k == 0; });
}

/// The chunks are 64-byte aligned, hold chunk_keys keys each and share no byte.
void check_chunks(std::vector<std::uint64_t*> chunks) {
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    CHECK(reinterpret_cast<std::uintptr_t>(chunks[i]) % 64 == 0);
    fill(chunks[i], std::uint64_t{i} << 32);
  }
  std::size_t intact = 0;
  for (std::size_t i = 0; i < chunks.size(); ++i) intact += holds(chunks[i], std::uint64_t{i} << 32);
  CHECK(intact == chunks.size());
  std::sort(chunks.begin(), chunks.end());
  for (std::size_t i = 1; i < chunks.size(); ++i) {
    const auto gap = reinterpret_cast<std::uintptr_t>(chunks[i]) - reinterpret_cast<std::uintptr_t>(chunks[i - 1]);
    CHECK(gap >= KeyChunkPool::chunk_keys * sizeof(std::uint64_t));
  }
}

}  // namespace

TEST_CASE("key chunks come from the current cache's pool, which keeps an eighth of its bound resident",
          "[grid][key_chunk_pool]") {
  const std::size_t bound = 8 * mb;  // a megabyte of chunks: 16 of them
  const auto shared = std::make_shared<BlockCache>(bound);
  const BlockCache::Scope scope(shared);
  std::vector<std::uint64_t*> chunks;
  for (int i = 0; i < 100; ++i) {
    chunks.push_back(allocate_key_chunk());
    std::memset(chunks.back(), 1, KeyChunkPool::chunk_keys * sizeof(std::uint64_t));
  }
  CHECK(shared->key_chunks().resident_bytes() == 0);
  for (std::uint64_t* c : chunks) deallocate_key_chunk(c);
  CHECK(shared->key_chunks().resident_bytes() == 16 * KeyChunkPool::chunk_bytes);
  CHECK(shared->cached_bytes() == 16 * KeyChunkPool::chunk_bytes);
  // Taken again: the resident ones first, then the rest of the pool's address space.
  std::uint64_t* again = allocate_key_chunk();
  CHECK(std::find(chunks.begin(), chunks.end(), again) != chunks.end());
  CHECK(shared->key_chunks().resident_bytes() == 15 * KeyChunkPool::chunk_bytes);
  deallocate_key_chunk(again);
  shared->release();
  CHECK(shared->cached_bytes() == 0);
  // Without a cache, chunks come from the heap and go back to it.
  {
    const BlockCache::Scope none(nullptr);
    std::uint64_t* heap = allocate_key_chunk();
    heap[KeyChunkPool::chunk_keys - 1] = 7;
    deallocate_key_chunk(heap);
  }
}

TEST_CASE("a key chunk holds chunk_keys keys, aligned, sharing no byte with another", "[key_chunk_pool]") {
  STATIC_REQUIRE(KeyChunkPool::chunk_keys == (65536 - 64) / 8);
  STATIC_REQUIRE(KeyChunkPool::header_bytes + KeyChunkPool::chunk_keys * sizeof(std::uint64_t) <=
                 KeyChunkPool::chunk_bytes);
  {
    // From a pool: more chunks than one 4 MiB slab holds (64).
    const auto shared = cache_keeping(16);
    const BlockCache::Scope scope(shared);
    std::vector<std::uint64_t*> chunks;
    for (int i = 0; i < 70; ++i) chunks.push_back(allocate_key_chunk());
    check_chunks(chunks);
    CHECK(shared->key_chunks().resident_bytes() == 0);
    for (std::uint64_t* c : chunks) deallocate_key_chunk(c);
    CHECK(shared->key_chunks().resident_bytes() == 16 * chunk_bytes);
  }
  {
    // From the heap.
    const BlockCache::Scope none(nullptr);
    std::vector<std::uint64_t*> chunks;
    for (int i = 0; i < 4; ++i) chunks.push_back(allocate_key_chunk());
    check_chunks(chunks);
    for (std::uint64_t* c : chunks) deallocate_key_chunk(c);
  }
  deallocate_key_chunk(nullptr);  // nothing
}

TEST_CASE("chunks given back are handed out again, resident ones first, the rest with their pages gone",
          "[key_chunk_pool]") {
  const auto shared = cache_keeping(2);
  const BlockCache::Scope scope(shared);
  KeyChunkPool& pool = shared->key_chunks();
  std::vector<std::uint64_t*> first;
  for (std::uint64_t i = 0; i < 5; ++i) {
    first.push_back(allocate_key_chunk());
    fill(first.back(), (i + 1) << 40);
  }
  for (std::uint64_t* c : first) deallocate_key_chunk(c);
  // Two stay resident (the bound); the other three gave their pages back.
  CHECK(pool.resident_bytes() == 2 * chunk_bytes);
  CHECK(shared->cached_bytes() == 2 * chunk_bytes);

  std::vector<std::uint64_t*> second;
  for (int i = 0; i < 5; ++i) second.push_back(allocate_key_chunk());
  CHECK(pool.resident_bytes() == 0);
  // The resident two first (those given back first), then the three returned: the same
  // five chunks, no new ones.
  std::vector<std::uint64_t*> resident(second.begin(), second.begin() + 2), returned(second.begin() + 2, second.end());
  std::sort(resident.begin(), resident.end());
  std::sort(returned.begin(), returned.end());
  std::vector<std::uint64_t*> want_resident(first.begin(), first.begin() + 2),
      want_returned(first.begin() + 2, first.end());
  std::sort(want_resident.begin(), want_resident.end());
  std::sort(want_returned.begin(), want_returned.end());
  CHECK(resident == want_resident);
  CHECK(returned == want_returned);
#if defined(__linux__)
  // Their pages went back to the system: they read as fresh zero pages.
  for (std::size_t i = 2; i < 5; ++i) CHECK(zeros(second[i]));
#endif
  // A resident chunk kept its pages (and, here, its keys).
  for (std::size_t i = 0; i < 2; ++i) {
    const auto at = static_cast<std::size_t>(std::find(first.begin(), first.end(), second[i]) - first.begin());
    CHECK(holds(second[i], (std::uint64_t{at} + 1) << 40));
  }
  for (std::uint64_t* c : second) deallocate_key_chunk(c);
  CHECK(pool.resident_bytes() == 2 * chunk_bytes);
}

TEST_CASE("release gives every idle chunk's pages back", "[key_chunk_pool]") {
  const auto shared = cache_keeping(4);
  const BlockCache::Scope scope(shared);
  KeyChunkPool& pool = shared->key_chunks();
  std::uint64_t* a = allocate_key_chunk();
  std::uint64_t* b = allocate_key_chunk();
  fill(a, 1);
  fill(b, 2);
  deallocate_key_chunk(a);
  deallocate_key_chunk(b);
  CHECK(pool.resident_bytes() == 2 * chunk_bytes);
  pool.release();
  CHECK(pool.resident_bytes() == 0);
  CHECK(shared->cached_bytes() == 0);
  // Taken again: the same address space, without the keys.
  std::uint64_t* c = allocate_key_chunk();
  std::uint64_t* d = allocate_key_chunk();
  CHECK(std::min(c, d) == std::min(a, b));
  CHECK(std::max(c, d) == std::max(a, b));
#if defined(__linux__)
  CHECK(zeros(c));
  CHECK(zeros(d));
#endif
  deallocate_key_chunk(c);
  deallocate_key_chunk(d);
  // BlockCache::release releases its pool too.
  CHECK(pool.resident_bytes() == 2 * chunk_bytes);
  shared->release();
  CHECK(pool.resident_bytes() == 0);
}

TEST_CASE("a key chunk goes back to its own pool from any thread", "[key_chunk_pool]") {
  const auto first = cache_keeping(4), second = cache_keeping(4);
  std::uint64_t* keys = nullptr;
  {
    const BlockCache::Scope scope(first);
    keys = allocate_key_chunk();
    fill(keys, 9);
  }
  std::thread([&] {
    const BlockCache::Scope scope(second);
    deallocate_key_chunk(keys);
  }).join();
  CHECK(first->key_chunks().resident_bytes() == chunk_bytes);
  CHECK(second->key_chunks().resident_bytes() == 0);
  // And from a thread with no cache at all.
  {
    const BlockCache::Scope scope(first);
    keys = allocate_key_chunk();
  }
  CHECK(first->key_chunks().resident_bytes() == 0);
  std::thread([&] { deallocate_key_chunk(keys); }).join();
  CHECK(first->key_chunks().resident_bytes() == chunk_bytes);
}
