#include "hitgrid/broadphase/sort_keys.hpp"

#include "radix_sort.hpp"

namespace hitgrid {

void sort_keys(std::vector<std::uint64_t>& keys, int key_bits) { radix_sort(keys, key_bits); }

void sort_keys(std::vector<std::uint64_t>& keys, int key_bits, std::vector<std::uint64_t>& scratch) {
  radix_sort_items(
      keys, [](std::uint64_t k) { return k; }, key_bits, scratch);
}

}  // namespace hitgrid
