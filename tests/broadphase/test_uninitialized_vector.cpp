// Cached vectors (uninitialized_vector.hpp): CachedVector and UninitializedVector keep
// their contents through growth; elements that are not trivially copyable are constructed
// and destroyed exactly once each (counted); UninitializedVector's resize leaves trivially
// copyable elements as the block held them (no zeroing, Aabb with its default member
// initializers included); make_cached objects are destroyed exactly once, and a
// constructor that throws leaks no block; and every block comes from the current
// BlockCache and goes back to it (its kept bytes, block_cache.hpp), or from the heap
// without one.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>

#include "block_cache.hpp"
#include "hitgrid/core/aabb.hpp"
#include "hitgrid/core/splitmix64.hpp"
#include "uninitialized_vector.hpp"

using namespace hitgrid;

namespace {

/// Counts its constructions and destructions; not trivially copyable.
struct Counted {
  static inline int constructed = 0, destroyed = 0, defaulted = 0;
  std::uint64_t value;
  std::string tag;  // a member that owns memory: a double destruction would show under ASan

  Counted() : value(7), tag("default") {
    ++constructed;
    ++defaulted;
  }
  explicit Counted(std::uint64_t v) : value(v), tag("value " + std::to_string(v)) { ++constructed; }
  Counted(const Counted& o) : value(o.value), tag(o.tag) { ++constructed; }
  Counted(Counted&& o) noexcept : value(o.value), tag(std::move(o.tag)) { ++constructed; }
  Counted& operator=(const Counted&) = default;
  Counted& operator=(Counted&&) = default;
  ~Counted() { ++destroyed; }

  static void reset() { constructed = destroyed = defaulted = 0; }
  static int live() { return constructed - destroyed; }
};

/// Throws from its constructor when asked to.
struct Thrower {
  static inline int destroyed = 0;
  std::uint64_t payload[4] = {};
  explicit Thrower(bool fail) {
    if (fail) throw std::runtime_error("constructor failed");
  }
  ~Thrower() { ++destroyed; }
};

/// A fresh cache, current on this thread while the fixture lives.
struct CurrentCache {
  std::shared_ptr<BlockCache> shared = std::make_shared<BlockCache>(std::size_t{64} << 20);
  BlockCache::Scope scope{shared};
  std::size_t kept() const { return shared->cached_bytes(); }
};

}  // namespace

TEST_CASE("CachedVector and UninitializedVector keep their contents through growth", "[uninitialized_vector]") {
  SplitMix64 rng(1);
  std::vector<std::uint64_t> want(50'000);
  for (auto& v : want) v = rng.next();
  for (bool cache : {false, true}) {
    INFO((cache ? "with a current cache" : "without a cache"));
    std::shared_ptr<BlockCache> shared = cache ? std::make_shared<BlockCache>() : nullptr;
    const BlockCache::Scope scope(shared);
    CachedVector<std::uint64_t> cached;
    UninitializedVector<std::uint64_t> uninit;
    for (std::uint64_t v : want) {
      cached.push_back(v);
      uninit.push_back(v);
    }
    CHECK(std::equal(cached.begin(), cached.end(), want.begin(), want.end()));
    CHECK(std::equal(uninit.begin(), uninit.end(), want.begin(), want.end()));
    // Blocks are aligned to 64 bytes.
    CHECK(reinterpret_cast<std::uintptr_t>(cached.data()) % 64 == 0);
    CHECK(reinterpret_cast<std::uintptr_t>(uninit.data()) % 64 == 0);
    // resize keeps what was there, and the values given.
    uninit.resize(want.size() * 3);
    cached.resize(want.size() * 3, 5);
    CHECK(std::equal(want.begin(), want.end(), uninit.begin()));
    CHECK(std::equal(want.begin(), want.end(), cached.begin()));
    CHECK(std::all_of(cached.begin() + static_cast<std::ptrdiff_t>(want.size()), cached.end(),
                      [](std::uint64_t v) { return v == 5; }));
    // Copies and moves.
    const CachedVector<std::uint64_t> copy = cached;
    CHECK(copy == cached);
    const UninitializedVector<std::uint64_t> moved = std::move(uninit);
    CHECK(std::equal(want.begin(), want.end(), moved.begin()));
  }
}

TEST_CASE("cached vectors construct and destroy other elements exactly once each", "[uninitialized_vector]") {
  const CurrentCache cache;
  Counted::reset();
  {
    CachedVector<Counted> cached;
    UninitializedVector<Counted> uninit;
    for (std::uint64_t i = 0; i < 1000; ++i) {
      cached.emplace_back(i);
      uninit.emplace_back(i);
      CHECK(Counted::live() == static_cast<int>(2 * (i + 1)));
    }
    for (std::uint64_t i = 0; i < 1000; ++i) {
      REQUIRE(cached[i].value == i);
      REQUIRE(uninit[i].value == i);
      REQUIRE(uninit[i].tag == "value " + std::to_string(i));
    }
    CHECK(Counted::defaulted == 0);
    // resize default-constructs the new elements (they are not trivially copyable).
    uninit.resize(1500);
    cached.resize(1200);
    CHECK(Counted::defaulted == 700);
    CHECK(uninit[1499].value == 7);
    CHECK(uninit[1499].tag == "default");
    CHECK(cached[1100].tag == "default");
    CHECK(uninit[999].tag == "value 999");
    CHECK(Counted::live() == 2700);
    // Shrinking destroys the ones cut off, and only them.
    uninit.resize(10);
    CHECK(Counted::live() == 1210);
    cached.clear();
    CHECK(Counted::live() == 10);
    cached.shrink_to_fit();
  }
  CHECK(Counted::live() == 0);
  CHECK(Counted::constructed > 2700);  // moves during growth counted too, each destroyed
}

TEST_CASE("UninitializedVector leaves trivially copyable elements as the block held them", "[uninitialized_vector]") {
  const CurrentCache cache;
  // A kept block written with a pattern, then taken again by a vector of the same size.
  constexpr std::size_t n = 1000;
  void* block = allocate_block(n * sizeof(Aabb));
  std::memset(block, 0xAB, n * sizeof(Aabb));
  deallocate_block(block, n * sizeof(Aabb));
  UninitializedVector<Aabb> boxes(n);
  REQUIRE(static_cast<void*>(boxes.data()) == block);
  // Aabb's members default to zero; resize did not write them (std::vector would have).
  const auto* bytes = reinterpret_cast<const unsigned char*>(boxes.data());
  CHECK(std::all_of(bytes, bytes + n * sizeof(Aabb), [](unsigned char c) { return c == 0xAB; }));
  // A CachedVector of the same size value-initializes, as std::vector does.
  boxes = UninitializedVector<Aabb>();
  CachedVector<Aabb> zeroed(n);
  CHECK(static_cast<void*>(zeroed.data()) == block);
  CHECK(std::all_of(zeroed.begin(), zeroed.end(), [](const Aabb& b) { return b == Aabb{}; }));
}

TEST_CASE("cached vectors take their blocks from the current cache and give them back", "[uninitialized_vector]") {
  const CurrentCache cache;
  REQUIRE(cache.kept() == 0);
  const std::uint64_t* first = nullptr;
  {
    CachedVector<std::uint64_t> v;
    v.reserve(100);  // 800 bytes: a block of 1024
    first = v.data();
    CHECK(cache.kept() == 0);
  }
  CHECK(cache.kept() == 1024);
  {
    UninitializedVector<std::uint64_t> v(120);  // 960 bytes: the same block again
    CHECK(v.data() == first);
    CHECK(cache.kept() == 0);
  }
  CHECK(cache.kept() == 1024);
  // A large vector's block is its own size, kept whole.
  constexpr std::size_t large = 20'000;  // 160,000 bytes: at least BlockCache::min_exact_bytes
  static_assert(large * sizeof(std::uint64_t) >= BlockCache::min_exact_bytes);
  {
    UninitializedVector<std::uint64_t> v(large);
    CHECK(cache.kept() == 1024);
  }
  CHECK(cache.kept() == 1024 + large * sizeof(std::uint64_t));
  cache.shared->release();

  // Without a current cache, blocks come from the heap: the cache keeps nothing.
  {
    const BlockCache::Scope none(nullptr);
    CachedVector<std::uint64_t> v(large);
    UninitializedVector<std::uint64_t> w(100);
  }
  CHECK(cache.kept() == 0);

  // The allocator rebinds, compares equal, and refuses sizes past the address space.
  const CachedAllocator<std::uint64_t> alloc;
  const CachedAllocator<char> rebound(alloc);
  (void)rebound;
  CHECK_THROWS_AS(CachedAllocator<std::uint64_t>().allocate(std::size_t(-1) / 4), std::bad_array_new_length);
  CHECK(cache.kept() == 0);
}

TEST_CASE("make_cached objects are destroyed exactly once and their blocks go back", "[uninitialized_vector]") {
  const CurrentCache cache;
  Counted::reset();
  {
    CachedPtr<Counted> p = make_cached<Counted>(std::uint64_t{41});
    CHECK(p->value == 41);
    CHECK(p->tag == "value 41");
    CHECK(reinterpret_cast<std::uintptr_t>(p.get()) % 64 == 0);
    CHECK(Counted::live() == 1);
    CHECK(cache.kept() == 0);
    CachedPtr<Counted> q = std::move(p);  // ownership moves, the object does not
    CHECK(p == nullptr);
    CHECK(Counted::constructed == 1);
    q.reset();
    CHECK(Counted::destroyed == 1);
    CHECK(cache.kept() == 64);  // sizeof(Counted) rounded up to a 64-byte block
    CachedPtr<Counted> r = make_cached<Counted>();
    CHECK(r->tag == "default");
    CHECK(cache.kept() == 0);  // the kept block taken again
  }
  CHECK(Counted::constructed == 2);
  CHECK(Counted::destroyed == 2);
  CHECK(cache.kept() == 64);

  // A constructor that throws: the exception passes, the block goes back, nothing is
  // destroyed that was never made.
  Thrower::destroyed = 0;
  CHECK_THROWS_WITH(make_cached<Thrower>(true), "constructor failed");
  CHECK(Thrower::destroyed == 0);
  CHECK(cache.kept() == 64);  // the block came from the cache and went back to it
  {
    CachedPtr<Thrower> t = make_cached<Thrower>(false);
    CHECK(cache.kept() == 0);
  }
  CHECK(Thrower::destroyed == 1);
  CHECK(cache.kept() == 64);
}
