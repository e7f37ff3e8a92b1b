// float_steps.hpp against std::nextafter: every sign and exponent with the mantissas at
// their edges, the zeros, subnormals, the largest float and the infinities, and random
// bit patterns; float_at_least / float_at_most against their definition on doubles
// between, at and beyond floats.
#include "hitgrid/core/float_steps.hpp"

#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "hitgrid/core/splitmix64.hpp"

namespace {

using hitgrid::float_at_least;
using hitgrid::float_at_most;
using hitgrid::next_float_down;
using hitgrid::next_float_up;

constexpr float inf = std::numeric_limits<float>::infinity();

bool same_bits(float a, float b) { return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b); }

std::vector<float> edge_floats() {
  std::vector<float> out;
  for (std::uint32_t sign = 0; sign < 2; ++sign)
    for (std::uint32_t exponent = 0; exponent < 256; ++exponent)
      for (std::uint32_t mantissa : {0u, 1u, 2u, 0x400000u, 0x7ffffeu, 0x7fffffu}) {
        if (exponent == 255 && mantissa != 0) continue;  // NaN
        out.push_back(std::bit_cast<float>(sign << 31 | exponent << 23 | mantissa));
      }
  return out;
}

}  // namespace

TEST_CASE("next_float_up and next_float_down are std::nextafter towards the infinities", "[float_steps]") {
  std::vector<float> xs = edge_floats();
  hitgrid::SplitMix64 random(3);
  for (int i = 0; i < 200000; ++i) {
    const auto x = std::bit_cast<float>(static_cast<std::uint32_t>(random.next()));
    if (!std::isnan(x)) xs.push_back(x);
  }
  for (float x : xs) {
    INFO("x = " << x << " bits " << std::bit_cast<std::uint32_t>(x));
    CHECK(same_bits(next_float_up(x), std::nextafter(x, inf)));
    CHECK(same_bits(next_float_down(x), std::nextafter(x, -inf)));
  }
  CHECK(same_bits(next_float_up(-0.0f), std::numeric_limits<float>::denorm_min()));
  CHECK(same_bits(next_float_down(0.0f), -std::numeric_limits<float>::denorm_min()));
  CHECK(next_float_up(std::numeric_limits<float>::max()) == inf);
  CHECK(next_float_down(-inf) == -inf);
  CHECK(next_float_up(-inf) == -std::numeric_limits<float>::max());
  CHECK(std::isnan(next_float_up(std::numeric_limits<float>::quiet_NaN())));
}

TEST_CASE("float_at_least and float_at_most are the floats next to a double", "[float_steps]") {
  // Doubles at floats, between two floats, and beyond the largest float.
  std::vector<double> vs;
  for (float x : edge_floats()) {
    if (std::isinf(x)) continue;
    vs.push_back(x);
    const double up = std::nextafter(x, inf), down = std::nextafter(x, -inf);
    if (std::isfinite(up)) vs.push_back((double{x} + up) / 2), vs.push_back(std::nextafter(double{x}, 1e300));
    if (std::isfinite(down)) vs.push_back((double{x} + down) / 2), vs.push_back(std::nextafter(double{x}, -1e300));
  }
  vs.push_back(1e300);
  vs.push_back(-1e300);
  for (double v : vs) {
    INFO("v = " << v);
    const float lo = float_at_most(v), hi = float_at_least(v);
    CHECK(double{lo} <= v);
    CHECK(double{hi} >= v);
    // Nothing in between: the next float past each is on the other side of v.
    CHECK(double{next_float_up(lo)} > v);
    CHECK(double{next_float_down(hi)} < v);
  }
}
