#include "output.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>

#include "hitgrid/core/error.hpp"

namespace hitgrid::cli {

void write_output(const std::string& path, const std::function<void(std::ostream&)>& write_stream,
                  const std::function<void(const std::string&)>& write_file) {
  if (!path.empty() && path != "-") {
    write_file(path);
    return;
  }
  write_stream(std::cout);
  std::cout.flush();
  if (!std::cout) throw IoError("<stdout>", "write failed");
}

void write_text_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw IoError(path, std::string("cannot open for writing: ") + std::strerror(errno));
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.close();
  if (!out) throw IoError(path, "write failed");
}

}  // namespace hitgrid::cli
