// The grid's radix sorts against std::sort, on the sizes where each strategy runs (one
// block, several blocks, and the bucketed sort of large key sets).
#include <tbb/task_arena.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <vector>

#include "hitgrid/core/splitmix64.hpp"
#include "radix_sort.hpp"

using namespace hitgrid;

TEST_CASE("radix_sort of 64-bit keys equals std::sort", "[radix_sort]") {
  SplitMix64 rng(42);
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{1000}, std::size_t{200'000}, std::size_t{600'000},
                        std::size_t{1'300'000}}) {
    for (int bits : {1, 20, 40, 63}) {
      INFO("n " << n << ", bits " << bits);
      std::vector<std::uint64_t> keys(n);
      // Few distinct values too (duplicates must survive), via a narrow mask.
      const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
      for (auto& k : keys) k = rng.next() & mask;
      std::vector<std::uint64_t> want = keys;
      std::sort(want.begin(), want.end());
      for (int threads : {1, 2}) {
        std::vector<std::uint64_t> got = keys;
        tbb::task_arena(threads).execute([&] { radix_sort(got, bits); });
        CHECK(got == want);
      }
    }
  }
}

TEST_CASE("radix_sort of 32-bit keys carries the values along, stably", "[radix_sort]") {
  SplitMix64 rng(7);
  for (std::size_t n : {std::size_t{0}, std::size_t{5}, std::size_t{100'000}}) {
    std::vector<std::uint32_t> keys(n), values(n);
    for (std::size_t i = 0; i < n; ++i) {
      keys[i] = static_cast<std::uint32_t>(rng.next() & 0xfff);
      values[i] = static_cast<std::uint32_t>(i);
    }
    std::vector<std::uint32_t> order(n);
    for (std::size_t i = 0; i < n; ++i) order[i] = static_cast<std::uint32_t>(i);
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return keys[a] < keys[b]; });
    radix_sort(keys, values, 12);
    CHECK(values == order);
    CHECK(std::is_sorted(keys.begin(), keys.end()));
  }
}
