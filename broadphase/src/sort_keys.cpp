#include "hitgrid/broadphase/sort_keys.hpp"

#include "radix_sort.hpp"

namespace hitgrid {

void sort_keys(std::vector<std::uint64_t>& keys, int key_bits) { radix_sort(keys, key_bits); }

}  // namespace hitgrid
