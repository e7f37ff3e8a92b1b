#include "support/run_command.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

namespace hitgrid::test {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

CommandResult run_command(const std::string& program, const std::string& args) {
  // Files rather than pipes: both streams are read in full with no risk of the child
  // blocking on a full pipe. Named by process id, as CTest may run test processes side by side.
  const std::string tag = "hitgrid_test_" + std::to_string(::getpid());
  const fs::path out = fs::temp_directory_path() / (tag + ".stdout");
  const fs::path err = fs::temp_directory_path() / (tag + ".stderr");
  const std::string cmd = "'" + program + "' " + args + " >'" + out.string() + "' 2>'" + err.string() + "'";
  const int raw = std::system(cmd.c_str());
  CommandResult r;
  r.status = raw != -1 && WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  std::error_code ignored;
  fs::remove(out, ignored);
  fs::remove(err, ignored);
  return r;
}

}  // namespace hitgrid::test
