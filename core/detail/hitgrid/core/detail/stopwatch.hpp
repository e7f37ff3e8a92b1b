// Stopwatch: wall-clock laps in milliseconds, for stage timings in reports.
#pragma once

#include <chrono>

namespace hitgrid {

class Stopwatch {
 public:
  /// Milliseconds since construction or the previous lap.
  double lap_ms() {
    const auto now = std::chrono::steady_clock::now();
    const double ms = std::chrono::duration<double, std::milli>(now - last_).count();
    last_ = now;
    return ms;
  }

 private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

}  // namespace hitgrid
