// The counting sort (counting_sort.hpp), block-parallel and in one task, against
// std::stable_sort: the order of equal keys is the input order, whatever the thread count,
// the block count, the bucket count (from one to far more buckets than items) and the
// position type.
#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

#include "counting_sort.hpp"
#include "hitgrid/core/splitmix64.hpp"

using namespace hitgrid;

namespace {

struct Item {
  std::uint32_t key, id;
  bool operator==(const Item&) const = default;
};

template <class Index>
std::vector<Item> sorted(const std::vector<Item>& items, std::size_t buckets, std::size_t block_count,
                         CachedVector<Index>& starts) {
  const Blocks blocks = Blocks::of(items.size(), block_count);
  std::vector<Item> out;
  starts = counting_sort<Index>(
      blocks.count, buckets,
      [&](std::size_t b, Index* count) {
        for (std::size_t i = blocks.begin(b); i < blocks.end(b); ++i) ++count[items[i].key];
      },
      [&](const CachedVector<Index>& s) { out.resize(s.back()); },
      [&](std::size_t b, Index* next) {
        for (std::size_t i = blocks.begin(b); i < blocks.end(b); ++i) out[next[items[i].key]++] = items[i];
      });
  return out;
}

}  // namespace

TEMPLATE_TEST_CASE("counting_sort is a stable sort by key on any thread and block count", "[grid]", std::uint32_t,
                   std::uint64_t) {
  tbb::global_control allow(tbb::global_control::max_allowed_parallelism, 8);
  SplitMix64 rng(17);
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{5000}, std::size_t{70'000}}) {
    for (std::size_t buckets : {std::size_t{1}, std::size_t{2}, std::size_t{300}, std::size_t{100'000}}) {
      std::vector<Item> items(n);
      for (std::uint32_t i = 0; i < n; ++i) items[i] = {static_cast<std::uint32_t>(rng.next() % buckets), i};
      std::vector<Item> want = items;
      std::stable_sort(want.begin(), want.end(), [](const Item& a, const Item& b) { return a.key < b.key; });
      CachedVector<TestType> want_starts(buckets + 1, 0);
      for (const Item& it : items) ++want_starts[it.key + 1];
      for (std::size_t k = 0; k < buckets; ++k) want_starts[k + 1] += want_starts[k];
      for (std::size_t blocks : {std::size_t{1}, std::size_t{3}, std::size_t{64}})
        for (int threads : {1, 2, 8}) {
          INFO("n " << n << ", buckets " << buckets << ", blocks " << blocks << ", threads " << threads);
          CachedVector<TestType> starts;
          std::vector<Item> got;
          tbb::task_arena(threads).execute([&] { got = sorted(items, buckets, blocks, starts); });
          const bool same = got == want;  // not CHECK(got == want): Catch would print every item
          CHECK(same);
          CHECK(starts == want_starts);
        }
    }
  }
}

TEST_CASE("BlockCounts::place gives each block its own range in every bucket, blocks in order", "[grid]") {
  // Two blocks, three buckets: block 0 has counts (2, 0, 1), block 1 has (1, 3, 0).
  BlockCounts<std::uint32_t> counts(2, 3);
  const std::uint32_t c0[3] = {2, 0, 1}, c1[3] = {1, 3, 0};
  std::copy(c0, c0 + 3, counts.table(0));
  std::copy(c1, c1 + 3, counts.table(1));
  const CachedVector<std::uint32_t> starts = counts.place();
  CHECK(starts == CachedVector<std::uint32_t>{0, 3, 6, 7});
  // Bucket 0: block 0 at 0..1, block 1 at 2; bucket 1: block 1 at 3..5; bucket 2: block 0 at 6.
  CHECK(std::vector<std::uint32_t>(counts.table(0), counts.table(0) + 3) == std::vector<std::uint32_t>{0, 3, 6});
  CHECK(std::vector<std::uint32_t>(counts.table(1), counts.table(1) + 3) == std::vector<std::uint32_t>{2, 3, 7});
}

TEST_CASE("counting_sort_in_task is the same stable sort, and leaves each bucket's end in the table", "[grid]") {
  SplitMix64 rng(5);
  std::vector<std::uint32_t> table;  // kept from call to call, as the tasks keep theirs
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{9}, std::size_t{4000}}) {
    for (std::size_t buckets : {std::size_t{1}, std::size_t{3}, std::size_t{256}, std::size_t{20'000}}) {
      INFO("items " << n << ", buckets " << buckets);
      std::vector<Item> items(n);
      for (std::uint32_t i = 0; i < n; ++i) items[i] = {static_cast<std::uint32_t>(rng.next() % buckets), i};
      std::vector<Item> want = items;
      std::stable_sort(want.begin(), want.end(), [](const Item& a, const Item& b) { return a.key < b.key; });
      table.assign(buckets, 12345u);  // stale counts from an earlier call must not matter
      std::vector<Item> got(n);
      counting_sort_in_task(
          table.data(), buckets,
          [&](std::uint32_t* count) {
            for (const Item& it : items) ++count[it.key];
          },
          [&](std::uint32_t* next) {
            for (const Item& it : items) got[next[it.key]++] = it;
          });
      CHECK(got == want);
      for (std::size_t k = 0; k < buckets; ++k) {
        const auto end =
            static_cast<std::size_t>(std::upper_bound(want.begin(), want.end(), k,
                                                      [](std::size_t key, const Item& it) { return key < it.key; }) -
                                     want.begin());
        if (table[k] != end) FAIL("bucket " << k << " ends at " << table[k] << ", not " << end);
      }
    }
  }
}

TEST_CASE("exclusive_prefix_sum turns counts into starts and returns the total", "[grid]") {
  std::vector<std::uint64_t> t{3, 0, 5, 1};
  CHECK(exclusive_prefix_sum(t.data(), t.size()) == 9);
  CHECK(t == std::vector<std::uint64_t>{0, 3, 3, 8});
  CHECK(exclusive_prefix_sum(t.data(), 0) == 0);
}
