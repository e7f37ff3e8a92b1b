// BlockCache: large blocks are reused between calls of one PairFinder (what keeps repeated
// calls free of page faults), within its bound; small ones are not kept; each block goes
// back to the cache it came from, whatever thread frees it; without a current cache
// nothing is kept. (Its pool of pair-key chunks: test_key_chunk_pool.cpp.)
#include <tbb/parallel_for.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <memory>
#include <thread>

#include "block_cache.hpp"
#include "hitgrid/broadphase/find_pairs.hpp"
#include "hitgrid/core/generators.hpp"

using namespace hitgrid;

namespace {
constexpr std::size_t mb = std::size_t{1} << 20;
}

TEST_CASE("BlockCache keeps small blocks as powers of two, handed out to any request they fit", "[grid]") {
  const auto shared = std::make_shared<BlockCache>(64 * mb);
  BlockCache& cache = *shared;
  const BlockCache::Scope scope(shared);
  REQUIRE(cache.cached_bytes() == 0);
  // 1000 bytes take a block of 1024, kept when freed.
  void* a = allocate_block(1000);
  REQUIRE(reinterpret_cast<std::uintptr_t>(a) % 64 == 0);
  std::memset(a, 1, 1000);
  deallocate_block(a, 1000);
  CHECK(cache.cached_bytes() == 1024);
  // Any small request it fits gets it back, however much smaller; a larger one does not.
  void* b = allocate_block(10);
  CHECK(b == a);
  CHECK(cache.cached_bytes() == 0);
  void* c = allocate_block(1025);
  CHECK(c != a);
  deallocate_block(b, 10);
  deallocate_block(c, 1025);
  CHECK(cache.cached_bytes() == 1024 + 2048);
  // Two small requests take the two kept blocks, the smaller first; a third makes a new
  // one, of 64 bytes for the tiniest requests.
  void* d = allocate_block(1);
  void* e = allocate_block(1);
  CHECK(d == a);
  CHECK(e == c);
  CHECK(cache.cached_bytes() == 0);
  void* g = allocate_block(1);
  deallocate_block(d, 1);
  deallocate_block(e, 1);
  deallocate_block(g, 1);
  CHECK(cache.cached_bytes() == 1024 + 2048 + 64);
  // A small request never takes a large block, nor a large request a small one.
  void* big = allocate_block(BlockCache::min_exact_bytes);
  deallocate_block(big, BlockCache::min_exact_bytes);
  void* f = allocate_block(4096);
  CHECK(f != big);
  deallocate_block(f, 4096);
  cache.release();
  CHECK(cache.cached_bytes() == 0);
}

TEST_CASE("BlockCache keeps large blocks, reuses them for fitting requests, and stays bounded", "[grid]") {
  const std::size_t bound = 64 * mb;
  const auto shared = std::make_shared<BlockCache>(bound);
  BlockCache& cache = *shared;
  const BlockCache::Scope scope(shared);
  REQUIRE(BlockCache::current() == shared);
  REQUIRE(cache.cached_bytes() == 0);

  // A large block is kept and handed out again to a request it fits (at most twice smaller).
  void* a = allocate_block(8 * mb);
  REQUIRE(reinterpret_cast<std::uintptr_t>(a) % 64 == 0);
  std::memset(a, 1, 8 * mb);
  deallocate_block(a, 8 * mb);
  CHECK(cache.cached_bytes() == 8 * mb);
  void* b = allocate_block(5 * mb);
  CHECK(b == a);
  CHECK(cache.cached_bytes() == 0);
  // Returned with its request size, it is kept with its real size.
  deallocate_block(b, 5 * mb);
  CHECK(cache.cached_bytes() == 8 * mb);
  // Too small a request for that block, and too large: fresh blocks.
  void* c = allocate_block(3 * mb);
  void* d = allocate_block(9 * mb);
  CHECK(c != a);
  CHECK(d != a);
  deallocate_block(c, 3 * mb);
  deallocate_block(d, 9 * mb);
  CHECK(cache.cached_bytes() == 20 * mb);

  // Bounded: blocks past the bound push the largest kept ones out; a block larger than the
  // bound is never kept.
  void* big[6];
  const std::size_t size = bound / 4;
  for (void*& p : big) p = allocate_block(size);
  for (void* p : big) deallocate_block(p, size);
  CHECK(cache.cached_bytes() <= bound);
  CHECK(cache.cached_bytes() >= 3 * size);  // the 20 MB kept before leave room for three
  void* huge = allocate_block(2 * bound);
  deallocate_block(huge, 2 * bound);
  CHECK(cache.cached_bytes() <= bound);

  // Trimmed: the largest kept blocks go first, down to the amount asked for.
  const std::size_t before = cache.cached_bytes();
  cache.trim(before - 1);
  CHECK(cache.cached_bytes() < before);
  cache.trim(10 * mb);
  CHECK(cache.cached_bytes() <= 10 * mb);

  cache.release();
  CHECK(cache.cached_bytes() == 0);
}

TEST_CASE("a block goes back to its own cache from any thread, and none is kept without a cache", "[grid]") {
  const auto first = std::make_shared<BlockCache>(), second = std::make_shared<BlockCache>();
  void* a = nullptr;
  {
    const BlockCache::Scope scope(first);
    a = allocate_block(4 * mb);
  }
  CHECK(BlockCache::current() == nullptr);
  {
    // Freed on another thread, under another cache: it still goes back to `first`.
    std::thread([&] {
      const BlockCache::Scope scope(second);
      deallocate_block(a, 4 * mb);
    }).join();
  }
  CHECK(first->cached_bytes() == 4 * mb);
  CHECK(second->cached_bytes() == 0);

  // No current cache: blocks come from the heap and go back to it.
  void* b = allocate_block(4 * mb);
  deallocate_block(b, 4 * mb);
  CHECK(first->cached_bytes() == 4 * mb);
  CHECK(second->cached_bytes() == 0);
}

TEST_CASE("a cache destroyed while a thread still holds it as current reads as none", "[grid]") {
  void* block = nullptr;
  {
    auto cache = std::make_shared<BlockCache>();
    BlockCache::set_current(cache);  // as a TBB worker may keep it after its arena's observer is gone
    cache.reset();
    CHECK(BlockCache::current() == nullptr);
    block = allocate_block(4 * mb);  // from the heap, not the destroyed cache
  }
  deallocate_block(block, 4 * mb);
  BlockCache::set_current(nullptr);
}

TEST_CASE("no worker thread keeps a destroyed PairFinder's cache", "[grid]") {
  // TBB's workers do not always hear that they left the finder's arena before its
  // observer goes: their current cache must then read as none (a dangling pointer here
  // once made later allocations outside any finder lock a destroyed mutex).
  GeneratorParams p;
  p.n = 20'000;
  const Scene scene = generate(Family::uniform, p);
  for (int round = 0; round < 50; ++round) {
    (void)find_pairs(scene);
    std::atomic<int> seen{0};
    tbb::parallel_for(0, 64, [&](int) {
      if (BlockCache::current()) ++seen;
      void* b = allocate_block(2 * mb);  // a worker's allocation outside any finder
      deallocate_block(b, 2 * mb);
    });
    CHECK(seen == 0);
  }
}
