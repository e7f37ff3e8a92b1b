// The ThreadSanitizer build (scripts/build.sh tsan defines HITGRID_TSAN_BUILD) looks for
// data races: a run on one thread cannot show one, and a second seed of the same history
// shows no new kind of interleaving. Its slowest tests skip those repeats (docs/testing.md).
#pragma once

namespace hitgrid::test {
#ifdef HITGRID_TSAN_BUILD
inline constexpr bool tsan_build = true;
#else
inline constexpr bool tsan_build = false;
#endif
}  // namespace hitgrid::test
