// Stable parallel LSD radix sort: the counting sort of the grid (entries by cell) and the
// final sort of the pair list.
//
// Each pass sorts by one 11-bit digit: the input is cut into blocks, every block counts
// its digits (a 2048-entry histogram fits in L1), a prefix sum over (digit, block) gives
// every block its own output ranges, and the blocks scatter in parallel. Because blocks
// are fixed by the input size alone and the scatter is stable, the result is the same for
// any thread count. Only as many passes as the keys' significant bits need are run.
#pragma once

#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "uninitialized_vector.hpp"

namespace hitgrid {

/// Sorts items ascending by key(item) (an unsigned integer < 2^key_bits); stable. The
/// items move with their keys, so no gather pass is needed afterwards.
template <class Vector, class KeyOf>
void radix_sort_items(Vector& items, KeyOf key, int key_bits);

/// Sorts 64-bit keys ascending. key_bits: the keys are < 2^key_bits. Runs in the calling
/// TBB arena. (Large pair lists are sorted by sorted_pairs.cpp, bucket by bucket.)
inline void radix_sort(std::vector<std::uint64_t>& keys, int key_bits) {
  radix_sort_items(
      keys, [](std::uint64_t k) { return k; }, key_bits);
}

}  // namespace hitgrid

namespace hitgrid {

template <class Vector, class KeyOf>
void radix_sort_items(Vector& items, KeyOf key, int key_bits) {
  constexpr int digit_bits = 11;
  constexpr std::size_t radix = std::size_t{1} << digit_bits;
  const std::size_t n = items.size();
  if (n < 2 || key_bits <= 0) return;
  // Fixed blocks (by size only) make the scatter order, and so the result, independent of
  // the thread count.
  const std::size_t blocks = std::max<std::size_t>(1, std::min<std::size_t>(256, n >> 15));
  const std::size_t block_size = (n + blocks - 1) / blocks;
  Vector scratch(n);
  std::vector<std::array<std::size_t, radix>> counts(blocks);
  // Digits as even as possible: 12 bits sort in two passes of 6, not 11 + 1.
  const int passes = (key_bits + digit_bits - 1) / digit_bits;
  const int bits = (key_bits + passes - 1) / passes;
  const auto mask = (std::uint64_t{1} << bits) - 1;
  for (int shift = 0; shift < key_bits; shift += bits) {
    tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t b) {
      auto& c = counts[b];
      std::fill(c.begin(), c.begin() + static_cast<std::ptrdiff_t>(mask + 1), 0);
      const std::size_t end = std::min(n, (b + 1) * block_size);
      for (std::size_t i = b * block_size; i < end; ++i)
        ++c[(static_cast<std::uint64_t>(key(items[i])) >> shift) & mask];
    });
    std::size_t sum = 0;
    for (std::size_t d = 0; d <= mask; ++d)
      for (std::size_t b = 0; b < blocks; ++b) sum += std::exchange(counts[b][d], sum);
    tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t b) {
      auto& c = counts[b];
      const std::size_t end = std::min(n, (b + 1) * block_size);
      for (std::size_t i = b * block_size; i < end; ++i)
        scratch[c[(static_cast<std::uint64_t>(key(items[i])) >> shift) & mask]++] = items[i];
    });
    items.swap(scratch);
  }
}

}  // namespace hitgrid
