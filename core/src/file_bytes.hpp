// Private: whole-file reads and checked writes for the scene and pair readers/writers.
// Readers parse from memory: one read of the whole file is the fastest way in, and it
// gives the binary readers the true file size to check a header's counts against before
// they allocate anything.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>

namespace hitgrid::detail {

/// The file's bytes. Throws IoError "PATH: cannot open for reading: REASON" or
/// "PATH: read failed: REASON".
std::string read_file_bytes(const std::string& path);

/// Creates or truncates the file and lets `body` write to it. Throws IoError
/// "PATH: cannot open for writing: REASON" or "PATH: write failed: REASON".
void write_file(const std::string& path, const std::function<void(std::ostream&)>& body);

}  // namespace hitgrid::detail
