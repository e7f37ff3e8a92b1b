// sort_keys (hitgrid/broadphase/sort_keys.hpp), the public sort the world sorts its pairs
// with: both overloads must give std::sort's order for every key width the contract allows
// (keys below 2^key_bits, key_bits from 0 to 64), at every size from none to several
// radix blocks, on inputs that are sorted, reversed, all equal or full of duplicates; with
// the caller's scratch kept between calls (and arriving holding anything), whose point is
// that a sort that has grown allocates nothing; and alike on 1, 2 and 4 threads and
// through task hooks.
// test_radix_sort.cpp checks the internal radix sort on a few widths; this checks the
// public contract on all of them.
#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include "hitgrid/broadphase/detail/parallel.hpp"
#include "hitgrid/broadphase/sort_keys.hpp"
#include "hitgrid/core/splitmix64.hpp"
#include "support/sanitizer_builds.hpp"
#include "support/task_hooks.hpp"

using namespace hitgrid;

namespace {

/// The keys below 2^bits (every key for 64).
std::uint64_t mask_of(int bits) { return bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1; }

std::vector<std::uint64_t> random_keys(SplitMix64& rng, std::size_t n, int bits) {
  std::vector<std::uint64_t> keys(n);
  for (auto& k : keys) k = rng.next() & mask_of(bits);
  // The extremes of the width, where they fit: a digit pass that drops the top bit or
  // mishandles zero shows here.
  if (n >= 2) keys[n / 3] = mask_of(bits), keys[n / 2] = 0;
  return keys;
}

std::vector<std::uint64_t> std_sorted(std::vector<std::uint64_t> keys) {
  std::sort(keys.begin(), keys.end());
  return keys;
}

/// The thread counts a test compares (support/sanitizer_builds.hpp: TSan skips one).
std::vector<int> thread_counts() {
  if (test::tsan_build) return {2, 4};
  return {1, 2, 4};
}

}  // namespace

TEST_CASE("sort_keys sorts keys of every width as std::sort does, with and without scratch",
          "[broadphase][sort_keys]") {
  tbb::global_control allow(tbb::global_control::max_allowed_parallelism, 8);
  SplitMix64 rng(7);
  std::vector<std::uint64_t> scratch{1, 2, 3};  // kept across every call below
  std::size_t sorted = 0;
  for (int bits = 1; bits <= 64; ++bits) {
    // A few hundred thousand keys (ten radix blocks) for a spread of widths, around each
    // digit-count boundary (11, 22, 33, 44, 55 bits and one over) and the extremes.
    const bool large = bits <= 2 || bits % 11 <= 1 || bits >= 63;
    std::vector<std::size_t> sizes{0, 1, 2, 3, 17, 1000, 40'000};
    if (large) sizes.push_back(300'000);
    for (std::size_t n : sizes) {
      INFO(bits << " bits, " << n << " keys");
      const std::vector<std::uint64_t> keys = random_keys(rng, n, bits);
      const std::vector<std::uint64_t> want = std_sorted(keys);
      for (int threads : thread_counts()) {
        INFO(threads << " threads");
        std::vector<std::uint64_t> plain = keys, with_scratch = keys;
        tbb::task_arena(threads).execute([&] {
          sort_keys(plain, bits);
          sort_keys(with_scratch, bits, scratch);
        });
        const bool same_plain = plain == want;  // not CHECK(plain == want): Catch would print every key
        const bool same_scratch = with_scratch == want;
        CHECK(same_plain);
        CHECK(same_scratch);
        sorted += n;
      }
    }
  }
  CHECK(sorted > 0);
}

TEST_CASE("sort_keys keeps duplicates and sorts sorted, reversed and constant input", "[broadphase][sort_keys]") {
  tbb::global_control allow(tbb::global_control::max_allowed_parallelism, 8);
  SplitMix64 rng(11);
  std::vector<std::uint64_t> scratch;
  for (int bits : {0, 1, 5, 11, 12, 23, 32, 44, 63, 64}) {
    for (std::size_t n : {std::size_t{2}, std::size_t{500}, std::size_t{70'000}, std::size_t{250'000}}) {
      const std::uint64_t mask = bits == 0 ? 0 : mask_of(bits);
      // Three distinct values spread over the width (one of them the largest), each many
      // times; then the same keys ascending, descending, and all one value.
      const std::uint64_t values[3] = {mask, mask / 3, mask & 0x5555555555555555ull};
      std::vector<std::uint64_t> few(n);
      for (auto& k : few) k = values[rng.next() % 3];
      std::vector<std::uint64_t> ascending = std_sorted(random_keys(rng, n, bits == 0 ? 1 : bits));
      if (bits == 0) std::fill(ascending.begin(), ascending.end(), 0);  // keys below 2^0: zeros
      std::vector<std::uint64_t> descending(ascending.rbegin(), ascending.rend());
      const std::vector<std::uint64_t> constant(n, mask);
      const std::pair<const char*, const std::vector<std::uint64_t>*> inputs[] = {
          {"three values", &few}, {"ascending", &ascending}, {"descending", &descending}, {"constant", &constant}};
      for (const auto& [name, input] : inputs) {
        const std::vector<std::uint64_t> want = std_sorted(*input);
        for (int threads : thread_counts()) {
          INFO(bits << " bits, " << n << " keys, " << name << ", " << threads << " threads");
          std::vector<std::uint64_t> plain = *input, with_scratch = *input;
          tbb::task_arena(threads).execute([&] {
            sort_keys(plain, bits);
            sort_keys(with_scratch, bits, scratch);
          });
          const bool same_plain = plain == want, same_scratch = with_scratch == want;
          CHECK(same_plain);
          CHECK(same_scratch);
        }
      }
    }
  }
}

TEST_CASE("sort_keys with kept scratch allocates nothing once grown, whatever the scratch held",
          "[broadphase][sort_keys]") {
  // The scratch overload's promise: kept between calls, a sort allocates nothing once it
  // has grown. The sorted keys and the scratch then live in the two buffers they came in
  // (swapped after an odd number of digit passes). Scratch that arrives larger, smaller or
  // full of keys changes nothing in the answer.
  SplitMix64 rng(13);
  for (const std::size_t start : {std::size_t{0}, std::size_t{10}, std::size_t{300'000}}) {
    INFO("scratch of " << start << " keys at first");
    std::vector<std::uint64_t> scratch(start, ~std::uint64_t{0});
    std::vector<std::uint64_t> keys;
    keys.reserve(200'000);
    for (int round = 0; round < 12; ++round) {
      const int bits = std::array{64, 1, 12, 33, 20, 64, 7, 45, 11, 22, 56, 40}[static_cast<std::size_t>(round)];
      // Sizes that grow, shrink, and cross the radix blocks.
      const std::size_t n =
          std::array<std::size_t, 12>{
              100'000, 3, 200'000, 70'000, 0, 150'000, 1, 65'537, 131'072, 5, 99'999, 200'000}[static_cast<std::size_t>(
              round)];
      INFO("round " << round << ": " << bits << " bits, " << n << " keys");
      const std::vector<std::uint64_t> fresh = random_keys(rng, n, bits);
      keys.assign(fresh.begin(), fresh.end());
      const bool grown = scratch.capacity() >= n && keys.capacity() >= n;
      const std::set<const std::uint64_t*> buffers{keys.data(), scratch.data()};
      sort_keys(keys, bits, scratch);
      const bool same = keys == std_sorted(fresh);
      CHECK(same);
      if (grown && n >= 2) CHECK(buffers == std::set<const std::uint64_t*>{keys.data(), scratch.data()});
    }
  }
}

TEST_CASE("sort_keys through a task hook sorts as on TBB", "[broadphase][sort_keys]") {
  // A world sorts its pairs inside its frame, on the program's job system when it has one
  // (TaskHook): the digit passes then run as the hook splits them, in any order.
  test::ThreadPoolHook pool(2);
  test::SerialHook serial(3);
  SplitMix64 rng(17);
  std::vector<std::uint64_t> scratch;
  for (const TaskHook& hook : {pool.hook(), serial.hook()})
    for (int bits : {1, 16, 40, 64})
      for (std::size_t n : {std::size_t{1000}, std::size_t{300'000}}) {
        INFO((hook.run == pool.hook().run ? "thread pool" : "serial")
             << " hook, " << bits << " bits, " << n << " keys");
        const std::vector<std::uint64_t> keys = random_keys(rng, n, bits);
        const std::vector<std::uint64_t> want = std_sorted(keys);
        std::vector<std::uint64_t> plain = keys, with_scratch = keys;
        {
          const detail::TaskHookScope scope(hook);
          sort_keys(plain, bits);
          sort_keys(with_scratch, bits, scratch);
        }
        const bool same_plain = plain == want, same_scratch = with_scratch == want;
        CHECK(same_plain);
        CHECK(same_scratch);
      }
  CHECK(pool.counts.calls > 0);
  CHECK(serial.counts.calls > 0);
}
