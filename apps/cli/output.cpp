#include "output.hpp"

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

}  // namespace hitgrid::cli
