// Runs a program of this project as a subprocess, the way a user's shell would, for the
// end-to-end tests of the `hitgrid` command and of bench/peers' compare_peers.
#pragma once

#include <filesystem>
#include <string>

namespace hitgrid::test {

struct CommandResult {
  int status = -1;  // the exit status; -1 when the program did not exit normally
  std::string out;
  std::string err;
};

/// Runs `'PROGRAM' ARGS` through /bin/sh (ARGS is shell text: quote paths yourself) and
/// captures stdout, stderr and the exit status.
CommandResult run_command(const std::string& program, const std::string& args);

/// A file's whole content (empty if it cannot be read).
std::string slurp(const std::filesystem::path& p);

}  // namespace hitgrid::test
