// sorted_unique_pairs (the grid's last step) against std::sort + std::unique, on both of
// its paths (joined radix sort below about half a million keys, bucketed above), with
// repeats inside and across parts and parts of uneven sizes.
#include <tbb/task_arena.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <vector>

#include "hitgrid/core/splitmix64.hpp"
#include "sorted_pairs.hpp"

using namespace hitgrid;

namespace {

PairList reference(const std::vector<std::vector<std::uint64_t>>& parts, PairKeyCodec codec, const KindRanges& kinds) {
  std::vector<std::uint64_t> keys;
  for (const auto& p : parts) keys.insert(keys.end(), p.begin(), p.end());
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  PairList out;
  const std::uint64_t mask = (std::uint64_t{1} << codec.id_bits) - 1;
  for (std::uint64_t k : keys)
    out.emplace_back(kinds.id(static_cast<std::uint32_t>(k >> codec.id_bits)),
                     kinds.id(static_cast<std::uint32_t>(k & mask)));
  return out;
}

}  // namespace

TEST_CASE("sorted_unique_pairs equals sort + unique on both paths", "[grid]") {
  SplitMix64 rng(11);
  for (std::uint32_t shapes : {1000u, 1'000'000u, 20'000'000u}) {
    const PairKeyCodec codec{bits_for(shapes)};
    // A third of the shapes of each kind.
    const KindRanges kinds{shapes / 3, 2 * (shapes / 3)};
    for (std::size_t total :
         {std::size_t{0}, std::size_t{1}, std::size_t{5000}, std::size_t{600'000}, std::size_t{1'500'000}}) {
      for (double repeats : {0.0, 0.01}) {
        for (int threads : {1, 2}) {
          INFO("shapes " << shapes << ", keys " << total << ", repeats " << repeats << ", threads " << threads);
          std::vector<std::vector<std::uint64_t>> parts(1 + rng.next() % 7);
          std::vector<std::uint64_t> drawn;
          for (std::size_t i = 0; i < total; ++i) {
            std::uint64_t key;
            if (!drawn.empty() && static_cast<double>(rng.next() >> 11) * 0x1p-53 < repeats) {
              key = drawn[rng.next() % drawn.size()];
            } else {
              std::uint32_t a = static_cast<std::uint32_t>(rng.next() % shapes);
              std::uint32_t b = static_cast<std::uint32_t>(rng.next() % shapes);
              if (a == b) b = (b + 1) % shapes;
              if (b < a) std::swap(a, b);
              key = codec.key(a, b);
              drawn.push_back(key);
            }
            // Uneven parts: most keys in the first.
            parts[rng.next() % 3 == 0 ? rng.next() % parts.size() : 0].push_back(key);
          }
          const PairList expected = reference(parts, codec, kinds);
          PairKeys keys;
          for (auto& p : parts) {
            PairKeyList copy(p.begin(), p.end());
            keys.append(copy);
          }
          PairList got;
          tbb::task_arena(threads).execute([&] { sorted_unique_pairs(keys, codec, kinds, got); });
          REQUIRE(got.size() == expected.size());
          // The first difference, if any (Catch would print millions of pairs).
          const auto diff = std::mismatch(got.begin(), got.end(), expected.begin()).first - got.begin();
          CHECK(static_cast<std::size_t>(diff) == got.size());
          for (const auto& p : keys.parts()) CHECK(p.empty());
        }
      }
    }
  }
}
