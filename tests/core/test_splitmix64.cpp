// SplitMix64 against outputs computed independently (tools/scenes_reference.py, from the
// docs/scenes.md pseudocode). The seed-0 sequence also matches the published reference
// implementation's first output, 0xe220a8397b1dcdaf.
#include <catch2/catch.hpp>

#include <cstdint>

#include "hitgrid/core/splitmix64.hpp"

using hitgrid::SplitMix64;

TEST_CASE("SplitMix64 seed 0 gives the pinned sequence", "[generators]") {
  SplitMix64 r(0);
  CHECK(r.next() == 0xe220a8397b1dcdafull);
  CHECK(r.next() == 0x6e789e6aa1b965f4ull);
  CHECK(r.next() == 0x06c45d188009454full);
  CHECK(r.next() == 0xf88bb8a8724c81ecull);
  CHECK(r.next() == 0x1b39896a51a8749bull);
}

TEST_CASE("SplitMix64 seed 1 gives the pinned sequence", "[generators]") {
  SplitMix64 r(1);
  CHECK(r.next() == 0x910a2dec89025cc1ull);
  CHECK(r.next() == 0xbeeb8da1658eec67ull);
  CHECK(r.next() == 0xf893a2eefb32555eull);
  CHECK(r.next() == 0x71c18690ee42c90bull);
  CHECK(r.next() == 0x71bb54d8d101b5b9ull);
  for (int i = 0; i < 995; ++i) r.next();
  CHECK(r.next() == 0x7760003b54a685aeull);  // the 1001st output
}

TEST_CASE("SplitMix64 state wraps modulo 2^64", "[generators]") {
  SplitMix64 r(0xffffffffffffffffull);
  CHECK(r.next() == 0xe4d971771b652c20ull);
  CHECK(r.next() == 0xe99ff867dbf682c9ull);
}

TEST_CASE("SplitMix64 u() is the top 53 bits times 2^-53", "[generators]") {
  SplitMix64 r(1);
  CHECK(r.u() == 0x1.22145bd91204bp-1);
  CHECK(r.u() == 0x1.7dd71b42cb1ddp-1);
  CHECK(r.u() == 0x1.f12745ddf664ap-1);
  SplitMix64 z(0);
  CHECK(z.u() == 0x1.c4415072f63b9p-1);
  CHECK(z.u() == 0x1.b9e279aa86e58p-2);
  CHECK(z.u() == 0x1.b117462002500p-6);
  // Bounds: an all-ones output gives the largest double below 1, zero gives 0.
  CHECK(static_cast<double>(~std::uint64_t{0} >> 11) * 0x1.0p-53 == 0x1.fffffffffffffp-1);
}

TEST_CASE("SplitMix64 skip(n) equals n calls of next()", "[generators]") {
  for (std::uint64_t n : {0ull, 1ull, 3ull, 4ull, 1000ull}) {
    SplitMix64 a(42), b(42);
    for (std::uint64_t i = 0; i < n; ++i) a.next();
    b.skip(n);
    CHECK(a.state() == b.state());
    CHECK(a.next() == b.next());
  }
}

TEST_CASE("SplitMix64 is usable at compile time", "[generators]") {
  constexpr auto first = [] {
    SplitMix64 r(0);
    return r.next();
  }();
  STATIC_REQUIRE(first == 0xe220a8397b1dcdafull);
}
