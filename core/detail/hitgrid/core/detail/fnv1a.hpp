// 64-bit FNV-1a: the hash that tests, benchmarks and reports print for scenes and pair
// lists, so that runs on different machines can be compared by one number.
#pragma once

#include <cstddef>
#include <cstdint>

namespace hitgrid {

class Fnv1a {
 public:
  void add_bytes(const void* data, std::size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < n; ++i) {
      h_ ^= p[i];
      h_ *= 0x100000001b3ull;
    }
  }
  /// Little-endian bytes of v, so the hash does not depend on the host's byte order.
  void add_u64(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) {
      h_ ^= (v >> (8 * i)) & 0xffu;
      h_ *= 0x100000001b3ull;
    }
  }
  std::uint64_t value() const { return h_; }

 private:
  std::uint64_t h_ = 0xcbf29ce484222325ull;
};

}  // namespace hitgrid
