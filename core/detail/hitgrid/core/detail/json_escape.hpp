// A string as the inside of a JSON string literal: what the command's and the tools'
// one-line JSON reports (--stats) print scene names and file names with.
#pragma once

#include <cstdio>
#include <string>

namespace hitgrid {

inline std::string json_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char code[8];
      std::snprintf(code, sizeof code, "\\u%04x", static_cast<unsigned>(c));
      out += code;
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace hitgrid
