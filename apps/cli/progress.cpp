#include "progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace hitgrid::cli {

Progress::Progress() : active_(isatty(STDERR_FILENO) == 1) {}

Progress::~Progress() { done(); }

void Progress::step(std::string_view what) {
  if (!active_) return;
  std::fprintf(stderr, "\r\033[Khitgrid: %.*s...", static_cast<int>(what.size()), what.data());
  std::fflush(stderr);
  shown_ = true;
}

void Progress::done() {
  if (!shown_) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
  shown_ = false;
}

}  // namespace hitgrid::cli
