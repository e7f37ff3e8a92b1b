// merge_pair_buffers (broadphase/src/pair_buffers.hpp): per-thread pair lists, filled
// without locks by a parallel loop, joined into one sorted list. Whatever the thread count
// and whichever thread got which pairs, in whatever order, the merge must be the sorted
// union of the buffers (which never share a pair, the contract): no pair lost, none added.
// Covered: buffers filled on arenas of 1, 2 and 4 threads, the merge itself on each of
// them and through a task hook (std::sort there instead of TBB's), many buffers with
// pairs dealt out every way, empty buffers, no buffer at all, one buffer, and millions of
// pairs.
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "hitgrid/broadphase/detail/parallel.hpp"
#include "hitgrid/core/splitmix64.hpp"
#include "pair_buffers.hpp"
#include "support/sanitizer_builds.hpp"
#include "support/task_hooks.hpp"

using namespace hitgrid;

namespace {

/// n distinct pairs of ids of every kind, indices over the whole 30-bit range and small
/// ones (many pairs sharing an id), in random order.
PairList distinct_pairs(std::size_t n, std::uint64_t seed) {
  SplitMix64 rng(seed);
  PairList out;
  out.reserve(n + n / 8);
  auto id = [&] {
    const auto kind = static_cast<ShapeKind>(rng.next() % 3);
    const auto index =
        static_cast<std::uint32_t>(rng.next() % 4 == 0 ? rng.next() % 64 : rng.next() % ShapeId::max_count);
    return ShapeId(kind, index);
  };
  while (out.size() < n) {
    for (std::size_t i = out.size(); i < n + n / 8; ++i) {
      const ShapeId a = id(), b = id();
      if (a != b) out.emplace_back(a, b);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    if (out.size() > n) out.resize(n);
  }
  for (std::size_t i = out.size(); i > 1; --i) std::swap(out[i - 1], out[rng.next() % i]);  // shuffled
  return out;
}

PairList sorted(PairList pairs) {
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

/// Buffers with `count` lists of their own: each made by another std::thread (a buffer
/// is per thread), all empty.
void make_buffers(PairBuffers& buffers, std::size_t count) {
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < count; ++i) threads.emplace_back([&] { buffers.local(); });
  for (std::thread& t : threads) t.join();
}

std::vector<int> thread_counts() {
  if (test::tsan_build) return {2, 4};  // support/sanitizer_builds.hpp
  return {1, 2, 4};
}

}  // namespace

TEST_CASE("pairs from a parallel loop's buffers merge into their sorted union on any thread count",
          "[broadphase][pair_buffers]") {
  tbb::global_control allow(tbb::global_control::max_allowed_parallelism, 8);
  for (std::size_t n : {std::size_t{1}, std::size_t{100}, std::size_t{5'000}, std::size_t{400'000}}) {
    const PairList pairs = distinct_pairs(n, 100 + n);
    const PairList want = sorted(pairs);
    for (int fill_threads : thread_counts())
      for (int merge_threads : thread_counts()) {
        INFO(n << " pairs, filled on " << fill_threads << " threads, merged on " << merge_threads);
        PairBuffers buffers;
        tbb::task_arena(fill_threads).execute([&] {
          tbb::parallel_for(tbb::blocked_range<std::size_t>(0, pairs.size(), 64), [&](const auto& r) {
            PairList& out = buffers.local();
            for (std::size_t i = r.begin(); i != r.end(); ++i) out.push_back(pairs[i]);
          });
        });
        std::size_t filled = 0;
        for (const PairList& b : buffers) filled += b.size();
        CHECK(filled == n);
        PairList got;
        tbb::task_arena(merge_threads).execute([&] { got = merge_pair_buffers(buffers); });
        const bool same = got == want;  // not CHECK(got == want): Catch would print every pair
        CHECK(same);
      }
  }
}

TEST_CASE("merged pairs do not depend on which buffer holds which pairs, or in what order",
          "[broadphase][pair_buffers]") {
  // Eight buffers (one per std::thread), the same pairs dealt out in different ways: all
  // in one buffer (ascending, descending), round robin, contiguous runs, at random, with
  // some buffers left empty; merged on 1, 2 and 4 threads and through a task hook.
  tbb::global_control allow(tbb::global_control::max_allowed_parallelism, 8);
  const PairList pairs = distinct_pairs(60'000, 5);
  const PairList want = sorted(pairs);
  constexpr std::size_t buffer_count = 8;
  SplitMix64 rng(9);
  auto deal = [&](int way, std::size_t i) -> std::size_t {
    switch (way) {
      case 0:
      case 1:
        return 3;  // all in one buffer
      case 2:
        return i % buffer_count;
      case 3:
        return i * buffer_count / pairs.size();
      case 4:
        return rng.next() % buffer_count;
      default:
        return 2 * (rng.next() % (buffer_count / 2));  // every other buffer empty
    }
  };
  test::SerialHook hook(21);
  for (int way = 0; way < 6; ++way) {
    for (int merge_threads : {0, 1, 2, 4}) {  // 0: through the hook
      if (test::tsan_build && merge_threads == 1) continue;
      INFO("way " << way << ", "
                  << (merge_threads == 0 ? std::string("a serial hook") : std::to_string(merge_threads) + " threads"));
      PairBuffers buffers;
      make_buffers(buffers, buffer_count);
      std::vector<PairList*> lists;
      for (PairList& b : buffers) lists.push_back(&b);
      REQUIRE(lists.size() == buffer_count);
      PairList source = way == 0 ? want : way == 1 ? PairList(want.rbegin(), want.rend()) : pairs;
      for (std::size_t i = 0; i < source.size(); ++i) lists[deal(way, i)]->push_back(source[i]);
      PairList got;
      if (merge_threads == 0) {
        const detail::TaskHookScope scope(hook.hook());
        got = merge_pair_buffers(buffers);
      } else {
        tbb::task_arena(merge_threads).execute([&] { got = merge_pair_buffers(buffers); });
      }
      const bool same = got == want;
      CHECK(same);
    }
  }
}

TEST_CASE("merging no buffers, empty buffers and one buffer", "[broadphase][pair_buffers]") {
  PairBuffers none;
  CHECK(merge_pair_buffers(none).empty());
  PairBuffers empty;
  make_buffers(empty, 5);
  CHECK(merge_pair_buffers(empty).empty());
  // One buffer, on the calling thread: its pairs sorted.
  const PairList pairs = distinct_pairs(1000, 17);
  PairBuffers one;
  one.local() = pairs;
  CHECK(merge_pair_buffers(one) == sorted(pairs));
  // One pair among empty buffers.
  PairBuffers single;
  make_buffers(single, 3);
  const Pair p(ShapeId(ShapeKind::box, ShapeId::max_count - 1), ShapeId(ShapeKind::segment, 0));
  single.begin()->push_back(p);
  CHECK(merge_pair_buffers(single) == PairList{p});
}

TEST_CASE("millions of pairs from many threads merge into their sorted union", "[broadphase][pair_buffers]") {
  tbb::global_control allow(tbb::global_control::max_allowed_parallelism, 8);
  const PairList pairs = distinct_pairs(2'500'000, 23);
  const PairList want = sorted(pairs);
  PairBuffers buffers;
  // Grain 1: the loop's items go to threads in the smallest pieces TBB makes.
  tbb::task_arena(4).execute([&] {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, pairs.size(), 1), [&](const auto& r) {
      PairList& out = buffers.local();
      for (std::size_t i = r.begin(); i != r.end(); ++i) out.push_back(pairs[i]);
    });
  });
  PairList got;
  tbb::task_arena(4).execute([&] { got = merge_pair_buffers(buffers); });
  CHECK(got.size() == want.size());
  const bool same = got == want;
  CHECK(same);
}
