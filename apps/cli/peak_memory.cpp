#include "peak_memory.hpp"

#include <fstream>
#include <string>

namespace hitgrid::cli {

std::uint64_t peak_resident_bytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6)) * 1024;  // "VmHWM:  1234 kB"
  }
  return 0;
}

}  // namespace hitgrid::cli
