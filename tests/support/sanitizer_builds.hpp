// What the sanitizer builds leave to the Release build (docs/testing.md, "What CI costs").
//
// ThreadSanitizer (scripts/build.sh tsan defines HITGRID_TSAN_BUILD) looks for data races:
// a run on one thread cannot show one, a second seed of the same history shows no new kind
// of interleaving, and neither does another instruction set (a kernel runs inside one task,
// on data its task owns). AddressSanitizer + UBSan (scripts/build.sh asan defines
// HITGRID_SANITIZED_BUILD) looks for bad memory accesses and undefined behaviour: one more
// thread count or seed runs the same code on other numbers. Their slowest tests skip those
// repeats (ASan: a quarter of the random cases of the geometry tests, test::scaled_count);
// the Release build runs them all. Under TSan, the test cases tagged [serial] (in
// files that test parallel code, they run only serial code of their own) are not run at all
// (tests/CMakeLists.txt).
#pragma once

#include <vector>

#include "hitgrid/simd/isa.hpp"

namespace hitgrid::test {
#ifdef HITGRID_TSAN_BUILD
inline constexpr bool tsan_build = true;
#else
inline constexpr bool tsan_build = false;
#endif
#ifdef HITGRID_SANITIZED_BUILD
inline constexpr bool asan_build = true;
#else
inline constexpr bool asan_build = false;
#endif

/// The instruction sets a test goes through: every one this CPU runs (scalar first), or
/// under ThreadSanitizer the best one alone. ASan keeps them all: each ISA's kernels load
/// memory their own way.
inline std::vector<Isa> isas_to_test() {
  if (tsan_build) return {best_isa()};
  return supported_isas();
}
}  // namespace hitgrid::test
