// The grid's radix sort against std::sort, on one block and on several blocks.
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
