// Progress: one status line on stderr while long work runs, only when stderr is a
// terminal (scripts and pipes get clean output).
#pragma once

#include <string_view>

namespace hitgrid::cli {

class Progress {
 public:
  Progress();
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  /// Replaces the status line with "hitgrid: <what>...".
  void step(std::string_view what);
  /// Erases the status line.
  void done();

 private:
  bool active_;
  bool shown_ = false;
};

}  // namespace hitgrid::cli
