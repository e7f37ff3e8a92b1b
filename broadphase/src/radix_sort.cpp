#include "radix_sort.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <utility>

namespace hitgrid {
namespace {

constexpr int digit_bits = 11;
constexpr std::size_t radix = std::size_t{1} << digit_bits;
// Below this size one block does it: the pass overheads would dominate.
constexpr std::size_t min_block = std::size_t{1} << 15;

template <class Key>
struct NoValues {
  void swap_with_scratch() {}
  void move(std::size_t, std::size_t) {}
};

struct U32Values {
  std::vector<std::uint32_t>& values;
  std::vector<std::uint32_t> scratch;
  void swap_with_scratch() { values.swap(scratch); }
  void move(std::size_t from, std::size_t to) { scratch[to] = values[from]; }
};

template <class Key, class Values>
void lsd_sort(std::vector<Key>& keys, Values& values, int key_bits) {
  const std::size_t n = keys.size();
  if (n < 2 || key_bits <= 0) return;
  const std::size_t blocks = std::max<std::size_t>(1, std::min<std::size_t>(256, n / min_block));
  const std::size_t block_size = (n + blocks - 1) / blocks;
  std::vector<Key> scratch(n);
  std::vector<std::array<std::size_t, radix>> counts(blocks);

  for (int shift = 0; shift < key_bits; shift += digit_bits) {
    const Key mask = static_cast<Key>(radix - 1);
    tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t b) {
      auto& c = counts[b];
      c.fill(0);
      const std::size_t end = std::min(n, (b + 1) * block_size);
      for (std::size_t i = b * block_size; i < end; ++i) ++c[(keys[i] >> shift) & mask];
    });
    // Exclusive prefix over (digit, block): block b's digits d go after every smaller
    // digit and after the earlier blocks' d.
    std::size_t sum = 0;
    for (std::size_t d = 0; d < radix; ++d)
      for (std::size_t b = 0; b < blocks; ++b) sum += std::exchange(counts[b][d], sum);
    tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t b) {
      auto& c = counts[b];
      const std::size_t end = std::min(n, (b + 1) * block_size);
      for (std::size_t i = b * block_size; i < end; ++i) {
        const std::size_t to = c[(keys[i] >> shift) & mask]++;
        scratch[to] = keys[i];
        values.move(i, to);
      }
    });
    keys.swap(scratch);
    values.swap_with_scratch();
  }
}

}  // namespace

void radix_sort(std::vector<std::uint32_t>& keys, std::vector<std::uint32_t>& values, int key_bits) {
  U32Values v{values, std::vector<std::uint32_t>(values.size())};
  lsd_sort(keys, v, key_bits);
}

void radix_sort(std::vector<std::uint64_t>& keys, int key_bits) {
  NoValues<std::uint64_t> none;
  lsd_sort(keys, none, key_bits);
}

}  // namespace hitgrid
