// Private: buffered formatting for the text writers. Lines are formatted with
// std::to_chars into one large buffer that goes to the stream in ~1 MiB blocks: a
// stream call per number would cost more than the formatting itself.
#pragma once

#include <charconv>
#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>

namespace hitgrid::detail {

class BlockWriter {
 public:
  explicit BlockWriter(std::ostream& out) : out_(out) { buf_.reserve(block + 256); }

  void text(std::string_view s) { buf_.append(s); }
  void character(char c) { buf_.push_back(c); }
  /// The shortest decimal that reads back to exactly v (std::to_chars' guarantee).
  void number(float v) { append_to_chars(v); }
  void number(std::uint32_t v) { append_to_chars(v); }
  void end_line() {
    buf_.push_back('\n');
    if (buf_.size() >= block) flush();
  }
  void flush() {
    out_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
    buf_.clear();
  }

 private:
  template <typename T>
  void append_to_chars(T v) {
    char tmp[32];  // the longest float is 15 characters ("-1.17549435e-38"), a uint32 10
    const auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
    buf_.append(tmp, r.ptr);
  }

  static constexpr std::size_t block = std::size_t{1} << 20;
  std::ostream& out_;
  std::string buf_;
};

}  // namespace hitgrid::detail
