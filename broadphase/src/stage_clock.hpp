// Stage timings for FindPairsReport: each lap is the time since the previous one. A call
// that reports nothing records nothing (its laps would cost a clock read and a string
// each, and a World's frame allocates nothing).
#pragma once

#include <string_view>
#include <vector>

#include "hitgrid/broadphase/find_pairs.hpp"
#include "hitgrid/core/detail/stopwatch.hpp"

namespace hitgrid {

class StageClock {
 public:
  /// Laps go to `stages`, or nowhere if it is null.
  explicit StageClock(std::vector<StageTime>* stages) : stages_(stages) {}
  /// Records the time since the previous lap as stage `name`.
  void lap(std::string_view name) {
    if (stages_) stages_->push_back({std::string(name), watch_.lap_ms()});
  }

 private:
  std::vector<StageTime>* stages_;
  Stopwatch watch_;
};

}  // namespace hitgrid
