// What the sanitizer builds leave to the Release build (docs/testing.md, "What CI costs").
//
// ThreadSanitizer (scripts/build.sh tsan defines HITGRID_TSAN_BUILD) looks for data races:
// a run on one thread cannot show one, and a second seed of the same history shows no new
// kind of interleaving. AddressSanitizer + UBSan (scripts/build.sh asan defines
// HITGRID_SANITIZED_BUILD) looks for bad memory accesses and undefined behaviour: one more
// thread count or seed runs the same code on other numbers. Their slowest tests skip those
// repeats; the Release build runs them all.
#pragma once

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
}  // namespace hitgrid::test
