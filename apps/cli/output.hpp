// Where a verb's main output goes: a file (-o FILE) or standard output (no -o, or -o -).
#pragma once

#include <functional>
#include <iosfwd>
#include <string>

namespace hitgrid::cli {

/// Runs write(stream) on stdout when path is empty or "-", else lets write_file(path)
/// write the file. Throws IoError if stdout cannot be written.
void write_output(const std::string& path, const std::function<void(std::ostream&)>& write_stream,
                  const std::function<void(const std::string&)>& write_file);

/// Creates or truncates the file and writes `text`. Throws IoError "PATH: reason".
void write_text_file(const std::string& path, const std::string& text);

}  // namespace hitgrid::cli
