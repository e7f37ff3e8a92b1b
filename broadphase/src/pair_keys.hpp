// Pairs as 64-bit keys while the grid runs: (smaller global index << id_bits) | larger
// global index, so that sorting the keys sorts the pairs by (kind, id) as PairList wants.
#pragma once

#include <bit>
#include <cstdint>
#include <utility>
#include <vector>

#include "uninitialized_vector.hpp"

namespace hitgrid {

/// Bits needed for the numbers 0 .. n - 1.
inline int bits_for(std::uint64_t n) { return n <= 1 ? 0 : 64 - std::countl_zero(n - 1); }

struct PairKeyCodec {
  int id_bits = 0;
  /// The key of the pair of global indices a < b.
  std::uint64_t key(std::uint32_t a, std::uint32_t b) const { return (std::uint64_t{a} << id_bits) | b; }
};

/// One thread's pair keys from one pass. Its storage comes from the PairFinder's kept
/// blocks (uninitialized_vector.hpp), so a pass does not pay for fresh pages every call.
using PairKeyList = UninitializedVector<std::uint64_t>;

/// The key lists of the grid's parts (per thread, per stage), joined once at the end.
class PairKeys {
 public:
  /// Takes the keys over (leaves `keys` empty).
  void append(PairKeyList& keys) {
    if (!keys.empty()) parts_.push_back(std::exchange(keys, {}));
  }
  std::vector<PairKeyList>& parts() { return parts_; }

 private:
  std::vector<PairKeyList> parts_;
};

}  // namespace hitgrid
