// Stable parallel LSD radix sort: the counting sort of the grid (entries by cell) and the
// final sort of the pair list.
//
// Each pass sorts by one 11-bit digit: the input is cut into blocks, every block counts
// its digits (a 2048-entry histogram fits in L1), a prefix sum over (digit, block) gives
// every block its own output ranges, and the blocks scatter in parallel. Because blocks
// are fixed by the input size alone and the scatter is stable, the result is the same for
// any thread count. Only as many passes as the keys' significant bits need are run.
#pragma once

#include <cstdint>
#include <vector>

namespace hitgrid {

/// Sorts keys ascending, carrying values along; stable. key_bits: the keys are < 2^key_bits.
/// Runs in the calling TBB arena.
void radix_sort(std::vector<std::uint32_t>& keys, std::vector<std::uint32_t>& values, int key_bits);

/// Sorts 64-bit keys ascending. key_bits: the keys are < 2^key_bits.
void radix_sort(std::vector<std::uint64_t>& keys, int key_bits);

}  // namespace hitgrid
