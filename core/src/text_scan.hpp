// Private: the line and token scanner shared by the text readers (scenes and pair lists).
//
// One discipline for every hitgrid text format: lines end at '\n' (a '\r' just before it,
// or before the end of the text, is dropped, so CRLF files read the same); '#' starts a
// comment that runs to the end of the line, anywhere on the line; tokens are separated by
// spaces and tabs; a line with no token is ignored; the last line needs no '\n'. Line and
// column numbers count from 1; columns count bytes (a tab is one column).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace hitgrid::detail {

struct Token {
  std::string_view text;
  std::uint64_t column = 0;  // 1-based column of the token's first byte
};

class LineReader {
 public:
  explicit LineReader(std::string_view text) : text_(text) {}

  /// Moves to the next line; false when the text is exhausted.
  bool next() {
    if (pos_ >= text_.size()) return false;
    const char* begin = text_.data() + pos_;
    const std::size_t left = text_.size() - pos_;
    const void* nl = std::memchr(begin, '\n', left);
    std::size_t len = nl != nullptr ? static_cast<std::size_t>(static_cast<const char*>(nl) - begin) : left;
    pos_ += nl != nullptr ? len + 1 : len;
    ++number_;
    if (len != 0 && begin[len - 1] == '\r') --len;
    if (const void* hash = std::memchr(begin, '#', len)) len = static_cast<std::size_t>(static_cast<const char*>(hash) - begin);
    content_ = std::string_view(begin, len);
    return true;
  }

  std::uint64_t number() const { return number_; }
  /// The line without its end-of-line bytes and comment.
  std::string_view content() const { return content_; }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  std::uint64_t number_ = 0;
  std::string_view content_;
};

class Tokenizer {
 public:
  explicit Tokenizer(std::string_view line) : line_(line) {}

  bool next(Token& token) {
    while (pos_ < line_.size() && is_blank(line_[pos_])) ++pos_;
    if (pos_ >= line_.size()) return false;
    const std::size_t start = pos_;
    while (pos_ < line_.size() && !is_blank(line_[pos_])) ++pos_;
    token.text = line_.substr(start, pos_ - start);
    token.column = start + 1;
    end_column_ = pos_ + 1;
    return true;
  }

  /// How many tokens are left (consumes them).
  std::uint64_t count_rest() {
    std::uint64_t n = 0;
    Token t;
    while (next(t)) ++n;
    return n;
  }

  /// The column just past the last token returned (1 if none): where a missing field goes.
  std::uint64_t end_column() const { return end_column_; }

  static bool is_blank(char c) { return c == ' ' || c == '\t'; }

 private:
  std::string_view line_;
  std::size_t pos_ = 0;
  std::uint64_t end_column_ = 1;
};

/// The token in double quotes for an error message: at most 64 bytes (then "..."), bytes
/// outside printable ASCII and '"' '\\' escaped as \xNN, so a message stays one readable
/// line whatever garbage the input holds.
inline std::string quote(std::string_view token) {
  constexpr std::size_t max_shown = 64;
  static constexpr char hex[] = "0123456789abcdef";
  std::string out = "\"";
  for (std::size_t i = 0; i < token.size() && i < max_shown; ++i) {
    const auto c = static_cast<unsigned char>(token[i]);
    if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
      out += static_cast<char>(c);
    } else {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  if (token.size() > max_shown) out += "...";
  out += '"';
  return out;
}

}  // namespace hitgrid::detail
