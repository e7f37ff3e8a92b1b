#include <catch2/catch.hpp>

#include <cstdint>

#include "hitgrid/core/float_array.hpp"

using hitgrid::FloatArray;

TEST_CASE("FloatArray keeps alignment and zero padding through growth, shrink and copies", "[scene]") {
  FloatArray a;
  CHECK(a.empty());
  CHECK(a.padded_size() == 0);
  for (int i = 0; i < 1000; ++i) {
    a.push_back(static_cast<float>(i) + 0.5f);
    REQUIRE(reinterpret_cast<std::uintptr_t>(a.data()) % FloatArray::alignment == 0);
  }
  CHECK(a.size() == 1000);
  CHECK(a.padded_size() == 1008);
  for (std::size_t i = 1000; i < a.padded_size(); ++i) CHECK(a.data()[i] == 0.0f);
  CHECK(a[999] == 999.5f);

  a.resize(3);  // shrinking must restore zeros behind the new end
  CHECK(a.padded_size() == 16);
  for (std::size_t i = 3; i < 16; ++i) CHECK(a.data()[i] == 0.0f);

  FloatArray b = a;
  CHECK(b == a);
  CHECK(b.data() != a.data());
  b[0] = -1.0f;
  CHECK(!(b == a));
  FloatArray c = std::move(b);
  CHECK(c.size() == 3);
  CHECK(c[0] == -1.0f);
  CHECK(b.size() == 0);  // NOLINT(bugprone-use-after-move): moved-from is empty by contract
}
