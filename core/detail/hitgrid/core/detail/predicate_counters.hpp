// How often this thread's predicate calls fell through the floating-point filter to the
// exact path. Not part of the public API: tests use it to prove that adversarial inputs
// really exercise the cold path (docs/contracts.md, exactness).
#pragma once

#include <cstdint>

namespace hitgrid {

struct PredicateCounters {
  std::uint64_t exact_calls = 0;
};
PredicateCounters& predicate_counters();

}  // namespace hitgrid
