// sort_keys: the library's radix sort, for the layers above the broad phase (the world
// sorts its pairs by handle with it).
#pragma once

#include <cstdint>
#include <vector>

namespace hitgrid {

/// Sorts 64-bit keys ascending; every key must be below 2^key_bits (key_bits <= 64).
/// Stable LSD passes of the block-parallel counting sort, run on the calling TBB arena;
/// the result does not depend on the thread count.
void sort_keys(std::vector<std::uint64_t>& keys, int key_bits);
/// The same with the caller's working room (contents lost; it may come back holding the
/// keys' former buffer): kept between calls, a sort allocates nothing once it has grown.
void sort_keys(std::vector<std::uint64_t>& keys, int key_bits, std::vector<std::uint64_t>& scratch);

}  // namespace hitgrid
