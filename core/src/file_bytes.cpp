#include "file_bytes.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <algorithm>

#include <sys/stat.h>

#include "hitgrid/core/error.hpp"

namespace hitgrid::detail {
namespace {

std::string errno_text(int err) { return err != 0 ? std::strerror(err) : "unknown error"; }

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

}  // namespace

std::string read_file_bytes(const std::string& path) {
  errno = 0;
  std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
  if (!file) throw IoError(path, "cannot open for reading: " + errno_text(errno));
  // A regular file's size lets us read it in one call (the +1 lets that call see the end
  // of the file); pipes and the like are read in doubling chunks.
  std::size_t want = std::size_t{1} << 16;
  struct stat st {};
  if (::fstat(fileno(file.get()), &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 0)
    want = static_cast<std::size_t>(st.st_size) + 1;
  std::string bytes(want, '\0');
  std::size_t size = 0;
  for (;;) {
    errno = 0;
    size += std::fread(bytes.data() + size, 1, bytes.size() - size, file.get());
    if (size < bytes.size()) {  // a short read means end of file or an error
      if (std::ferror(file.get())) throw IoError(path, "read failed: " + errno_text(errno));
      break;
    }
    bytes.resize(bytes.size() * 2);
  }
  bytes.resize(size);
  return bytes;
}

void write_file(const std::string& path, const std::function<void(std::ostream&)>& body) {
  errno = 0;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw IoError(path, "cannot open for writing: " + errno_text(errno));
  body(out);
  errno = 0;
  out.flush();
  if (!out) throw IoError(path, "write failed: " + errno_text(errno));
  out.close();
  if (!out) throw IoError(path, "write failed: " + errno_text(errno));
}

}  // namespace hitgrid::detail
