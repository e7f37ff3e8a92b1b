// Shared by the fuzz targets (fuzz/fuzz_*.cpp): reading typed values from libFuzzer's
// bytes, and the one way a target reports a broken property.
//
// A target's bytes are consumed front to back; when they run out every value reads as
// zero, so each input, however short, means one definite case.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace hitgrid::fuzz {

class Bytes {
 public:
  Bytes(const std::uint8_t* data, std::size_t size) : p_(data), end_(data + size) {}
  std::size_t left() const { return static_cast<std::size_t>(end_ - p_); }
  std::uint8_t u8() { return p_ < end_ ? *p_++ : 0; }
  std::uint32_t u32() {
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= std::uint32_t{u8()} << (8 * i);
    return v;
  }
  /// Any float32 bit pattern (NaN and infinities included).
  float raw_float() {
    const std::uint32_t bits = u32();
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
  }

 private:
  const std::uint8_t* p_;
  const std::uint8_t* end_;
};

/// A property the target checks does not hold: say which and abort (libFuzzer then saves
/// the input as a crash).
[[noreturn]] inline void fail(const char* what) {
  std::fprintf(stderr, "fuzz: property broken: %s\n", what);
  std::abort();
}

}  // namespace hitgrid::fuzz
