// The grid's radix sorts against std::sort: the block-parallel one on one block and on
// several, and the one-thread sort of a bucket in the cache.
#include <tbb/task_arena.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <vector>

#include "hitgrid/core/splitmix64.hpp"
#include "radix_sort.hpp"
#include "support/sanitizer_builds.hpp"

using namespace hitgrid;

TEST_CASE("radix_sort of 64-bit keys equals std::sort", "[radix_sort]") {
  SplitMix64 rng(42);
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{1000}, std::size_t{200'000}, std::size_t{600'000},
                        std::size_t{1'300'000}}) {
    for (int bits : {1, 20, 40, 63, 64}) {  // 64: GridIndex sorts whole 64-bit keys
      INFO("n " << n << ", bits " << bits);
      std::vector<std::uint64_t> keys(n);
      // Few distinct values too (duplicates must survive), via a narrow mask.
      const std::uint64_t mask = bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
      for (auto& k : keys) k = rng.next() & mask;
      std::vector<std::uint64_t> want = keys;
      std::sort(want.begin(), want.end());
      for (int threads : {1, 2}) {
        if (test::tsan_build && threads == 1) continue;  // support/sanitizer_builds.hpp
        std::vector<std::uint64_t> got = keys;
        tbb::task_arena(threads).execute([&] { radix_sort(got, bits); });
        const bool same = got == want;  // not CHECK(got == want): Catch would print every key
        CHECK(same);
      }
    }
  }
}

TEST_CASE("radix_sort_in_cache sorts on the low bits it is given, into either buffer", "[radix_sort]") {
  SplitMix64 rng(43);
  CachedVector<std::uint32_t> count;  // one table for every call, as a bucket sort keeps it
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{1000}, std::size_t{20'000}}) {
    // 11 and 22: one and two full digits; 12 and 33: uneven splits; 40 and 64 as the
    // merge's buckets have them (the bits above key_bits are the same in every key).
    for (int bits : {1, 11, 12, 22, 33, 40, 64}) {
      INFO("n " << n << ", bits " << bits);
      const std::uint64_t low = bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
      const std::uint64_t high = rng.next() & ~low;  // shared by every key
      std::vector<std::uint64_t> keys(n), scratch(n);
      for (auto& k : keys) k = high | (rng.next() & low & (rng.next() % 3 == 0 ? 0xff : ~std::uint64_t{0}));
      std::vector<std::uint64_t> want = keys;
      std::sort(want.begin(), want.end());
      const std::uint64_t* sorted = radix_sort_in_cache(keys.data(), scratch.data(), n, bits, count);
      CHECK((sorted == keys.data() || sorted == scratch.data()));
      const bool same = std::equal(want.begin(), want.end(), sorted);
      CHECK(same);
    }
  }
}

TEST_CASE("radix_sort_items moves whole items with their keys, stably, in one block and in several", "[radix_sort]") {
  // As the grid sorts its shapes by cell and its tile entries by tile: an item larger than
  // its key, the key read through a function.
  struct Entry {
    std::uint64_t tile;
    std::uint32_t shape;
    float g[4];
  };
  SplitMix64 rng(44);
  for (std::size_t n : {std::size_t{2}, std::size_t{3000}, std::size_t{150'000}}) {
    for (int bits : {3, 17, 41}) {
      INFO("n " << n << ", bits " << bits);
      std::vector<Entry> items(n);
      for (std::uint32_t i = 0; i < n; ++i) {
        const auto f = static_cast<float>(i);
        items[i] = {rng.next() & ((std::uint64_t{1} << bits) - 1), i, {f, -f, 2 * f, 0.5f}};
      }
      std::vector<Entry> want = items;
      std::stable_sort(want.begin(), want.end(), [](const Entry& a, const Entry& b) { return a.tile < b.tile; });
      for (int threads : {1, 2}) {
        if (test::tsan_build && threads == 1) continue;  // support/sanitizer_builds.hpp
        std::vector<Entry> got = items, scratch;
        tbb::task_arena(threads).execute([&] {
          radix_sort_items(
              got, [](const Entry& e) { return e.tile; }, bits, scratch);
        });
        bool same = got.size() == want.size();
        for (std::size_t i = 0; same && i < n; ++i)
          same = got[i].tile == want[i].tile && got[i].shape == want[i].shape && got[i].g[0] == want[i].g[0] &&
                 got[i].g[1] == want[i].g[1] && got[i].g[2] == want[i].g[2] && got[i].g[3] == want[i].g[3];
        CHECK(same);
      }
    }
  }
}
