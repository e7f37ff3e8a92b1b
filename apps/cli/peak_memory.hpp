// Peak resident memory of this process, for the reports.
#pragma once

#include <cstdint>

namespace hitgrid::cli {

/// The high-water mark of resident memory (Linux: VmHWM of /proc/self/status), in bytes;
/// 0 where unknown. Unlike getrusage's ru_maxrss it belongs to this program's own address
/// space, so it does not inherit the peak of the process that started it.
std::uint64_t peak_resident_bytes();

}  // namespace hitgrid::cli
