// Stable parallel LSD radix sort: the counting sort of the grid (entries by cell) and the
// final sort of the pair list.
//
// Each pass is the block-parallel counting sort (counting_sort.hpp) on one digit of at
// most 11 bits (a block's 2048 counters fit in L1), so the result is stable and the same
// for any thread count. Only as many passes as the keys' significant bits need are run.
#pragma once

#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "counting_sort.hpp"
#include "uninitialized_vector.hpp"

namespace hitgrid {

/// A digit's bits at most: its 2^11 counters per block fit in L1.
inline constexpr int radix_digit_bits = 11;
/// Blocks of at least 2^15 items (fewer make the counters cost more than the items).
inline constexpr int radix_items_per_block_log2 = 15;

/// The digits of an LSD sort on key_bits bits: as few passes of at most radix_digit_bits
/// as cover them, the bits spread evenly (12 bits sort in two passes of 6, not 11 + 1).
struct RadixDigits {
  int passes = 0, bits = 0;
  explicit RadixDigits(int key_bits)
      : passes((key_bits + radix_digit_bits - 1) / radix_digit_bits),
        bits(passes == 0 ? 0 : (key_bits + passes - 1) / passes) {}
  std::uint64_t mask() const { return (std::uint64_t{1} << bits) - 1; }
};

/// One digit pass's two loops over the items [begin, end) of `in`, for every radix sort
/// here: count adds one to count[digit] per item; scatter writes each item, in order, to
/// out[next[digit]++]. The digit is (key(item) >> shift) & mask. The loops read their
/// bounds, shift and mask as values and the items through plain pointers: read through a
/// caller's references or captures, they would be loaded again after every store (a
/// 64-bit item's store may alias a size_t as far as the compiler knows).
template <class T, class KeyOf, class Index>
inline void count_digits(const T* in, std::size_t begin, std::size_t end, KeyOf key, int shift, std::uint64_t mask,
                         Index* count) {
  for (std::size_t i = begin; i < end; ++i) ++count[(static_cast<std::uint64_t>(key(in[i])) >> shift) & mask];
}
template <class T, class KeyOf, class Index>
inline void scatter_digits(const T* in, std::size_t begin, std::size_t end, KeyOf key, int shift, std::uint64_t mask,
                           Index* next, T* out) {
  for (std::size_t i = begin; i < end; ++i)
    out[next[(static_cast<std::uint64_t>(key(in[i])) >> shift) & mask]++] = in[i];
}

/// The digit passes as one block on the calling thread: the n items at `items` sorted by
/// the low key_bits bits of key(item), stably, with `scratch` (n items) and `count` (at
/// least 2^radix_digit_bits counters) as working room; returns where the sorted items are
/// (items or scratch). No tasks, no allocation.
template <class T, class KeyOf>
T* radix_sort_in_task(T* items, T* scratch, std::size_t n, KeyOf key, int key_bits, std::uint32_t* count) {
  const RadixDigits digits(key_bits);
  const std::uint64_t mask = digits.mask();
  for (int p = 0; p < digits.passes; ++p) {
    const int shift = p * digits.bits;
    counting_sort_in_task(
        count, mask + 1, [&](std::uint32_t* c) { count_digits(items, 0, n, key, shift, mask, c); },
        [&](std::uint32_t* next) { scatter_digits(items, 0, n, key, shift, mask, next, scratch); });
    std::swap(items, scratch);
  }
  return items;
}

/// Sorts the n keys at `keys` ascending by their low key_bits bits, on one thread, with
/// `scratch` (n keys) and `count` as working room; returns where the sorted keys are
/// (keys or scratch). For a bucket that fits in the cache (sorted_pairs.cpp).
inline std::uint64_t* radix_sort_in_cache(std::uint64_t* keys, std::uint64_t* scratch, std::size_t n, int key_bits,
                                          CachedVector<std::uint32_t>& count) {
  count.resize(std::size_t{1} << radix_digit_bits);
  return radix_sort_in_task(
      keys, scratch, n, [](std::uint64_t k) { return k; }, key_bits, count.data());
}

/// Sorts items ascending by key(item) (an unsigned integer < 2^key_bits); stable. The
/// items move with their keys, so no gather pass is needed afterwards. `scratch` is the
/// working room (its contents are lost; after an odd number of passes it holds the items'
/// former buffer): a caller that keeps it between sorts allocates nothing once it has
/// grown.
template <class Vector, class KeyOf>
void radix_sort_items(Vector& items, KeyOf key, int key_bits, Vector& scratch);
template <class Vector, class KeyOf>
void radix_sort_items(Vector& items, KeyOf key, int key_bits) {
  Vector scratch;
  radix_sort_items(items, key, key_bits, scratch);
}

/// Sorts 64-bit keys ascending. key_bits: the keys are < 2^key_bits. Runs in the calling
/// TBB arena. (Large pair lists are sorted by sorted_pairs.cpp, bucket by bucket.)
template <class Vector>
void radix_sort(Vector& keys, int key_bits) {
  radix_sort_items(
      keys, [](std::uint64_t k) { return k; }, key_bits);
}

}  // namespace hitgrid

namespace hitgrid {

template <class Vector, class KeyOf>
void radix_sort_items(Vector& items, KeyOf key, int key_bits, Vector& scratch) {
  const std::size_t n = items.size();
  if (n < 2 || key_bits <= 0) return;
  const Blocks blocks = Blocks::at_least(n, radix_items_per_block_log2);
  scratch.resize(n);
  if (blocks.count == 1) {
    // One block: its passes in this task, with one table of counters.
    std::array<std::uint32_t, std::size_t{1} << radix_digit_bits> count;
    if (radix_sort_in_task(items.data(), scratch.data(), n, key, key_bits, count.data()) != items.data())
      items.swap(scratch);
    return;
  }
  const RadixDigits digits(key_bits);
  const std::uint64_t mask = digits.mask();
  for (int shift = 0; shift < key_bits; shift += digits.bits) {
    counting_sort<std::size_t>(
        blocks.count, mask + 1,
        [&, shift, mask](std::size_t b, std::size_t* count) {
          count_digits(items.data(), blocks.begin(b), blocks.end(b), key, shift, mask, count);
        },
        [&, shift, mask](std::size_t b, std::size_t* next) {
          scatter_digits(items.data(), blocks.begin(b), blocks.end(b), key, shift, mask, next, scratch.data());
        });
    items.swap(scratch);
  }
}

}  // namespace hitgrid
