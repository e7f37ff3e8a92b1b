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

/// 64-bit keys: one parallel pass on the top digit scatters the keys into 2048 buckets
/// (each a few thousand keys, which fit in the L1/L2 cache), then each bucket is sorted on
/// the remaining bits by an LSD radix sort in cache, the buckets in parallel. Each pass
/// over the whole array scatters to random places; this makes one such pass instead of
/// one per digit (40-bit pair keys: 4), which measured three quarters of sorting
/// lattice's 2.9 million pairs.
void radix_sort(std::vector<std::uint64_t>& keys, int key_bits) {
  const std::size_t n = keys.size();
  if (n < 2 || key_bits <= 0) return;
  // Buckets of fewer than about 256 keys spend more on their counters than they save.
  if (n < 256 * radix || key_bits <= 2 * digit_bits) {
    NoValues<std::uint64_t> none;
    lsd_sort(keys, none, key_bits);
    return;
  }
  const int shift = key_bits - digit_bits;  // the top digit: bits [shift, key_bits)
  const std::size_t blocks = std::min<std::size_t>(256, n / min_block);
  const std::size_t block_size = (n + blocks - 1) / blocks;
  std::vector<std::array<std::size_t, radix>> counts(blocks);
  tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t b) {
    auto& c = counts[b];
    c.fill(0);
    for (std::size_t i = b * block_size; i < std::min(n, (b + 1) * block_size); ++i) ++c[keys[i] >> shift];
  });
  std::vector<std::size_t> bucket_start(radix + 1, 0);
  for (std::size_t b = 0; b < blocks; ++b)
    for (std::size_t d = 0; d < radix; ++d) bucket_start[d + 1] += counts[b][d];
  for (std::size_t d = 0; d < radix; ++d) bucket_start[d + 1] += bucket_start[d];
  {
    std::vector<std::size_t> next(bucket_start.begin(), bucket_start.end() - 1);
    for (std::size_t b = 0; b < blocks; ++b)
      for (std::size_t d = 0; d < radix; ++d) next[d] += std::exchange(counts[b][d], next[d]);
  }
  std::vector<std::uint64_t> scratch(n);
  tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t b) {
    auto& c = counts[b];
    for (std::size_t i = b * block_size; i < std::min(n, (b + 1) * block_size); ++i)
      scratch[c[keys[i] >> shift]++] = keys[i];
  });
  // Each bucket: LSD passes on the low bits, ping-ponging between scratch and keys so that
  // the last pass lands in keys (an odd pass count starts with a copy).
  const int passes = (shift + digit_bits - 1) / digit_bits;
  const int bits = (shift + passes - 1) / passes;
  const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, radix, 16), [&](const auto& range) {
    std::vector<std::size_t> count(mask + 2);
    for (std::size_t d = range.begin(); d != range.end(); ++d) {
      const std::size_t lo = bucket_start[d], hi = bucket_start[d + 1];
      std::uint64_t* from = scratch.data() + lo;
      std::uint64_t* to = keys.data() + lo;
      if (passes % 2 == 0) {
        std::copy(from, scratch.data() + hi, to);
        std::swap(from, to);
      }
      for (int p = 0; p < passes; ++p) {
        const int at = p * bits;
        std::fill(count.begin(), count.end(), 0);
        for (std::size_t i = 0; i < hi - lo; ++i) ++count[((from[i] >> at) & mask) + 1];
        for (std::size_t c = 1; c < count.size(); ++c) count[c] += count[c - 1];
        for (std::size_t i = 0; i < hi - lo; ++i) to[count[(from[i] >> at) & mask]++] = from[i];
        std::swap(from, to);
      }
    }
  });
}

}  // namespace hitgrid
