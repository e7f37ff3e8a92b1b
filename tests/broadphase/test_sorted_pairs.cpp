// sorted_unique_pairs (the grid's last step) against std::sort + std::unique, on all of
// its paths (joined radix sort below about half a million keys, bucketed above, split into
// pieces above 2^22 keys), in memory and handed over in pieces, with repeats inside and
// across parts and parts of uneven sizes.
#include <tbb/task_arena.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <vector>

#include "hitgrid/core/splitmix64.hpp"
#include "sorted_pairs.hpp"
#include "support/sanitizer_builds.hpp"

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

PairKeys keys_of(const std::vector<std::vector<std::uint64_t>>& parts) {
  PairKeys keys;
  for (const auto& p : parts) {
    PairKeys part;
    part.append(p.data(), p.size());
    keys.append(part);
  }
  return keys;
}

void require_same(const PairList& got, const PairList& expected) {
  REQUIRE(got.size() == expected.size());
  // The first difference, if any (Catch would print millions of pairs).
  const auto diff = std::mismatch(got.begin(), got.end(), expected.begin()).first - got.begin();
  CHECK(static_cast<std::size_t>(diff) == got.size());
}

/// The streamed form: the pieces joined, each checked to be non-empty and to follow the
/// one before.
PairList pieces(PairKeys& keys, PairKeyCodec codec, const KindRanges& kinds) {
  PairList joined, piece;
  std::size_t count = 0;
  sorted_unique_pairs(keys, codec, kinds, piece, [&](std::span<const Pair> p) {
    CHECK(!p.empty());
    CHECK((joined.empty() || joined.back() < p.front()));
    joined.insert(joined.end(), p.begin(), p.end());
    ++count;
  });
  CHECK(keys.empty());
  CHECK(count <= joined.size());
  return joined;
}

}  // namespace

TEST_CASE("sorted_unique_pairs equals sort + unique on every path, in memory and in pieces", "[grid]") {
  SplitMix64 rng(11);
  for (std::uint32_t shapes : {1000u, 1'000'000u, 20'000'000u}) {
    const PairKeyCodec codec{bits_for(shapes)};
    // A third of the shapes of each kind.
    const KindRanges kinds{shapes / 3, 2 * (shapes / 3)};
    for (std::size_t total :
         {std::size_t{0}, std::size_t{1}, std::size_t{5000}, std::size_t{600'000}, std::size_t{1'500'000}}) {
      for (double repeats : {0.0, 0.01}) {
        if (test::tsan_build && repeats == 0.0) continue;  // the same merges, fewer keys
        for (int threads : {1, 2}) {
          if (test::tsan_build && threads == 1) continue;  // support/sanitizer_builds.hpp
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
          PairKeys keys = keys_of(parts);
          PairList got;
          tbb::task_arena(threads).execute([&] { sorted_unique_pairs(keys, codec, kinds, got); });
          CHECK(keys.empty());
          require_same(got, expected);
          PairKeys again = keys_of(parts);
          tbb::task_arena(threads).execute([&] { got = pieces(again, codec, kinds); });
          require_same(got, expected);
        }
      }
    }
  }
}

TEST_CASE("sorted_unique_pairs splits large key sets into pieces, even when their keys crowd", "[grid]") {
  // Above 2^22 keys the keys are split by their top bits first. Crowded: most keys share
  // one first shape (one segment across everything), so one split piece is still too large
  // and is split again on lower bits.
  SplitMix64 rng(13);
  const std::uint32_t shapes = 6'000'000;
  const PairKeyCodec codec{bits_for(shapes)};
  const KindRanges kinds{shapes / 2, shapes / 2 + 1000};
  for (bool crowded : {false, true}) {
    // Under TSan the crowded keys alone: they take every split the others take, and more.
    if (test::tsan_build && !crowded) continue;
    INFO("crowded " << crowded);
    std::vector<std::vector<std::uint64_t>> parts(3);
    for (std::size_t i = 0; i < 4'700'000; ++i) {
      std::uint32_t a = crowded && i % 4 != 0 ? 7u : static_cast<std::uint32_t>(rng.next() % shapes);
      std::uint32_t b = static_cast<std::uint32_t>(rng.next() % shapes);
      if (a == b) b = (b + 1) % shapes;
      if (b < a) std::swap(a, b);
      parts[i % 3].push_back(codec.key(a, b));
      if (i % 997 == 0) parts[(i + 1) % 3].push_back(codec.key(a, b));  // a repeat in another part
    }
    const PairList expected = reference(parts, codec, kinds);
    PairKeys keys = keys_of(parts);
    PairList got;
    sorted_unique_pairs(keys, codec, kinds, got);
    require_same(got, expected);
    PairKeys again = keys_of(parts);
    require_same(pieces(again, codec, kinds), expected);
  }
}
