// SplitMix64: the one random number generator of the standard scenes (docs/scenes.md).
//
// Every generator, benchmark and independent checker draws from this exact sequence, so
// "uniform, N = 1000000, seed 1" means the same bits everywhere. Only integer arithmetic
// (wrapping mod 2^64) and one exact scaling by 2^-53: no rounding, no platform dependence.
#pragma once

#include <cstdint>

namespace hitgrid {

class SplitMix64 {
 public:
  /// The increment added to the state before each output (2^64 / golden ratio, odd).
  static constexpr std::uint64_t gamma = 0x9E3779B97F4A7C15ull;

  constexpr explicit SplitMix64(std::uint64_t seed) : state_(seed) {}

  /// The next 64-bit output.
  constexpr std::uint64_t next() {
    state_ += gamma;
    std::uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  /// A double in [0, 1): the top 53 bits of next() times 2^-53. Both steps are exact (the
  /// integer is below 2^53 and the scale is a power of two), so u() is the same on every
  /// IEEE machine whatever its rounding or contraction settings.
  constexpr double u() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  /// Advance as if next() had been called n times, in O(1): the state is a counter, and
  /// outputs depend only on it. Lets a generator count its draws without making them.
  constexpr void skip(std::uint64_t n) { state_ += n * gamma; }

  constexpr std::uint64_t state() const { return state_; }

 private:
  std::uint64_t state_;
};

}  // namespace hitgrid
