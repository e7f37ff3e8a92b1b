// A test program's scratch folder: made on first use, removed with everything in it when
// the program exits, so that test runs leave nothing behind in the temporary directory.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace hitgrid::test {

class ScratchDir {
 public:
  /// TEMP/PREFIX_PID: one per program and process, so parallel test runs do not share it.
  explicit ScratchDir(const std::string& prefix)
      : path_(std::filesystem::temp_directory_path() / (prefix + "_" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ignored;  // a destructor at exit has no one to report to
    std::filesystem::remove_all(path_, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

}  // namespace hitgrid::test
