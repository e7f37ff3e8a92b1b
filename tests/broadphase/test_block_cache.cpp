// block_cache: large blocks are reused between calls (what keeps repeated find_pairs calls
// free of page faults), within bounds, and small ones are not kept.
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>

#include "block_cache.hpp"

using namespace hitgrid;

TEST_CASE("block_cache keeps large blocks, reuses them for fitting requests, and stays bounded", "[grid]") {
  block_cache::release();
  REQUIRE(block_cache::cached_bytes() == 0);

  // Small blocks go straight back.
  void* small = block_cache::allocate(1000);
  REQUIRE(reinterpret_cast<std::uintptr_t>(small) % 64 == 0);
  block_cache::deallocate(small, 1000);
  CHECK(block_cache::cached_bytes() == 0);

  // A large block is kept and handed out again to a request it fits (at most twice smaller).
  const std::size_t mb = std::size_t{1} << 20;
  void* a = block_cache::allocate(8 * mb);
  REQUIRE(reinterpret_cast<std::uintptr_t>(a) % 64 == 0);
  std::memset(a, 1, 8 * mb);
  block_cache::deallocate(a, 8 * mb);
  CHECK(block_cache::cached_bytes() == 8 * mb);
  void* b = block_cache::allocate(5 * mb);
  CHECK(b == a);
  CHECK(block_cache::cached_bytes() == 0);
  // Returned with its request size, it is kept with its real size.
  block_cache::deallocate(b, 5 * mb);
  CHECK(block_cache::cached_bytes() == 8 * mb);
  // Too small a request for that block, and too large: fresh blocks.
  void* c = block_cache::allocate(3 * mb);
  void* d = block_cache::allocate(9 * mb);
  CHECK(c != a);
  CHECK(d != a);
  block_cache::deallocate(c, 3 * mb);
  block_cache::deallocate(d, 9 * mb);
  CHECK(block_cache::cached_bytes() == 20 * mb);

  // Bounded: blocks past the limit push the largest kept ones out.
  void* big[6];
  const std::size_t size = block_cache::max_cached_bytes / 4;
  for (void*& p : big) p = block_cache::allocate(size);
  for (void* p : big) block_cache::deallocate(p, size);
  CHECK(block_cache::cached_bytes() <= block_cache::max_cached_bytes);
  CHECK(block_cache::cached_bytes() >= 3 * size);  // the 20 MB kept before leave room for three

  block_cache::release();
  CHECK(block_cache::cached_bytes() == 0);
}
