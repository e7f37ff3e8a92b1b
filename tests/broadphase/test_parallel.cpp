// The parallel loops (hitgrid/broadphase/detail/parallel.hpp) and the TaskHook that hands
// them to a program's job system: every item once, nested loops inline, errors carried
// back, a broken hook caught; and find_pairs through any hook equal to find_pairs on TBB.
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "hitgrid/broadphase/brute_force.hpp"
#include "hitgrid/broadphase/detail/parallel.hpp"
#include "hitgrid/broadphase/find_pairs.hpp"
#include "hitgrid/core/error.hpp"
#include "support/pathological_scenes.hpp"
#include "support/sanitizer_builds.hpp"
#include "support/task_hooks.hpp"

using namespace hitgrid;
using test::LeakyHook;
using test::SerialHook;
using test::ThreadPoolHook;

TEST_CASE("a loop through a task hook runs every item once, in ranges of at least its grain", "[parallel]") {
  ThreadPoolHook pool(3);
  SerialHook serial(5);
  for (const TaskHook& hook : {pool.hook(), serial.hook()}) {
    for (std::size_t n : {0u, 1u, 7u, 1000u, 100'003u}) {
      INFO(n << " items");
      std::vector<std::atomic<int>> seen(n);
      std::atomic<std::size_t> short_ranges{0};
      {
        const detail::TaskHookScope scope(hook);
        CHECK(detail::parallel_mode() == detail::ParallelMode::hook);
        CHECK(detail::parallel_concurrency() == hook.workers);
        detail::parallel_for(tbb::blocked_range<std::size_t>(0, n, 64), [&](const auto& r) {
          if (r.size() < 64 && r.end() != n) ++short_ranges;
          for (std::size_t i = r.begin(); i != r.end(); ++i) ++seen[i];
        });
      }
      CHECK(detail::parallel_mode() == detail::ParallelMode::tbb);
      CHECK(short_ranges == 0);
      std::size_t wrong = 0;
      for (const auto& s : seen) wrong += s != 1;
      CHECK(wrong == 0);
    }
  }
  CHECK(pool.counts.calls == 4);  // no call for an empty loop
  CHECK(pool.counts.items == 1 + 7 + 1000 + 100'003);
}

TEST_CASE("a thread pool hook runs a loop's ranges on several threads at once", "[parallel]") {
  // The first range waits for a second one to start: only a hook that runs ranges at once,
  // on other threads, lets it go on (a serial one would time out here).
  ThreadPoolHook pool(3);
  const TaskHook hook = pool.hook();
  std::atomic<int> started{0};
  std::atomic<bool> met{false};
  {
    const detail::TaskHookScope scope(hook);
    detail::parallel_for(tbb::blocked_range<std::size_t>(0, 64, 1), [&](const auto&) {
      if (++started > 1) return;
      const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
      while (started < 2 && std::chrono::steady_clock::now() < give_up) std::this_thread::yield();
      met = started >= 2;
    });
  }
  CHECK(met);
  CHECK(pool.counts.thread_count() > 1);
}

TEST_CASE("a loop started inside a hook's task runs inline, and the hook is not entered again", "[parallel]") {
  ThreadPoolHook pool(2);
  const TaskHook hook = pool.hook();
  std::atomic<std::size_t> inner_items{0};
  std::atomic<int> not_inline{0};
  {
    const detail::TaskHookScope scope(hook);
    detail::parallel_for(std::size_t{0}, std::size_t{50}, [&](std::size_t) {
      if (detail::parallel_mode() != detail::ParallelMode::inline_only || detail::parallel_concurrency() != 1)
        ++not_inline;
      detail::parallel_for(std::size_t{0}, std::size_t{10}, [&](std::size_t) { ++inner_items; });
      std::vector<int> v{3, 1, 2};
      detail::parallel_sort(v.begin(), v.end());
      if (v != std::vector<int>{1, 2, 3}) ++not_inline;
    });
  }
  CHECK(not_inline == 0);
  CHECK(inner_items == 500);
  CHECK(pool.counts.calls == 1);
  CHECK(pool.counts.items == 50);
}

TEST_CASE("a reduction through a task hook joins fixed blocks in order", "[parallel]") {
  SerialHook serial(9);
  const TaskHook hook = serial.hook();
  const detail::TaskHookScope scope(hook);
  // Joining strings is not commutative: the order of the blocks shows.
  const std::size_t n = 1000, grain = 64;
  const std::string joined = detail::parallel_reduce(
      n, grain, std::string(),
      [&](const tbb::blocked_range<std::size_t>& r, std::string s) {
        for (std::size_t i = r.begin(); i != r.end(); ++i) s += static_cast<char>('a' + i % 26);
        return s;
      },
      [](const std::string& a, const std::string& b) { return a + b; });
  std::string want;
  for (std::size_t i = 0; i < n; ++i) want += static_cast<char>('a' + i % 26);
  CHECK(joined == want);
}

TEST_CASE("an exception in a hook's task is thrown by the loop, and a hook that skips items is an error",
          "[parallel]") {
  ThreadPoolHook pool(2);
  const TaskHook hook = pool.hook();
  {
    const detail::TaskHookScope scope(hook);
    CHECK_THROWS_AS(detail::parallel_for(std::size_t{0}, std::size_t{1000},
                                         [&](std::size_t i) {
                                           if (i == 777) throw std::runtime_error("item 777");
                                         }),
                    std::runtime_error);
    CHECK(detail::parallel_mode() == detail::ParallelMode::hook);  // the scope is intact
  }
  LeakyHook leaky;
  const TaskHook broken = leaky.hook();
  const detail::TaskHookScope scope(broken);
  std::atomic<std::size_t> ran{0};
  CHECK_THROWS_WITH(
      detail::parallel_for(tbb::blocked_range<std::size_t>(0, 1000, 100), [&](const auto& r) { ran += r.size(); }),
      Catch::Contains("ran 900 of 1000 items"));
  CHECK(ran == 900);
}

TEST_CASE("find_pairs through a task hook gives the same pairs as on TBB, every method and form", "[parallel]") {
  ThreadPoolHook pool(3);
  SerialHook serial(21);
  // Under ThreadSanitizer fewer shapes and the grid alone: the races are in the loops,
  // not in the scene's size; under ASan half the shapes (support/sanitizer_builds.hpp).
  for (const test::NamedScene& s : test::broadphase_scenes(test::tsan_build ? 1000 : test::asan_build ? 2000 : 4000)) {
    INFO(s.name);
    const PairList reference = brute_force_pairs(s.scene);
    for (BroadPhase method : {BroadPhase::grid, BroadPhase::sweep_and_prune, BroadPhase::brute_force}) {
      if (test::tsan_build && method != BroadPhase::grid) continue;
      for (const TaskHook& hook : {pool.hook(), serial.hook()}) {
        INFO(broad_phase_name(method) << ", hook of " << hook.workers << " workers");
        FindPairsOptions o;
        o.method = method;
        o.tasks = hook;
        PairFinder finder(o);
        FindPairsReport report;
        CHECK(finder.find_pairs(s.scene, &report) == reference);
        CHECK(report.threads == hook.workers);
        if (method == BroadPhase::grid) {
          o.stream_band_bytes = 4096;  // many bands
          PairFinder streamed(o);
          PairList joined;
          streamed.find_pairs(
              s.scene, [&](std::span<const Pair> piece) { joined.insert(joined.end(), piece.begin(), piece.end()); });
          CHECK(joined == reference);
        }
      }
    }
  }
  CHECK(pool.counts.calls > 0);
  CHECK(serial.counts.calls > 0);
}

TEST_CASE("a finder whose hook skips items throws, and answers again with a working hook", "[parallel]") {
  const Scene scene = test::broadphase_scenes(3000).front().scene;
  LeakyHook leaky;
  FindPairsOptions o;
  o.tasks = leaky.hook();
  CHECK_THROWS_AS(PairFinder(o).find_pairs(scene), Error);
  o.tasks.workers = 0;
  CHECK_THROWS_WITH(PairFinder(o), Catch::Contains("at least one worker"));
  // More threads than a TBB arena holds (it aborts at 65,537): refused, with a hook or not.
  o.tasks.workers = FindPairsOptions::max_threads + 1;
  CHECK_THROWS_WITH(PairFinder(o), Catch::Contains("at most 4096"));
  o.tasks.workers = 70000;
  CHECK_THROWS_AS(PairFinder(o), Error);
  FindPairsOptions many;
  many.threads = 70000;
  CHECK_THROWS_WITH(PairFinder(many), Catch::Contains("threads must be at most 4096, not 70000"));
  ThreadPoolHook pool(1);
  o.tasks = pool.hook();
  CHECK(PairFinder(o).find_pairs(scene) == brute_force_pairs(scene));
}
