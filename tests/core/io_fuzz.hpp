// Shared by the reader tests: a deterministic byte mutator for fuzzing the parsers, and a
// scratch directory for file round trips.
//
// The mutations are the classic ones (bit flips, byte overwrites, insertions of random
// bytes or of tokens that parsers find interesting, deletions, truncation, duplication of a
// chunk), driven by SplitMix64 so that a failure replays exactly from its iteration number.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "hitgrid/core/splitmix64.hpp"

namespace hitgrid::test {

class Mutator {
 public:
  Mutator(std::uint64_t seed, std::vector<std::string> dictionary) : rng_(seed), dict_(std::move(dictionary)) {}

  std::uint64_t below(std::uint64_t n) { return n == 0 ? 0 : rng_.next() % n; }

  /// Applies 1 to 4 random mutations.
  void mutate(std::string& s) {
    const auto n = 1 + below(4);
    for (std::uint64_t i = 0; i < n; ++i) mutate_once(s);
  }

 private:
  void mutate_once(std::string& s) {
    const std::size_t pos = below(s.size() + 1);
    switch (below(7)) {
      case 0:  // flip one bit
        if (!s.empty()) s[pos % s.size()] = static_cast<char>(s[pos % s.size()] ^ (1 << below(8)));
        break;
      case 1:  // overwrite a byte with a random one
        if (!s.empty()) s[pos % s.size()] = static_cast<char>(below(256));
        break;
      case 2: {  // insert random bytes
        std::string junk;
        for (auto k = 1 + below(8); k > 0; --k) junk += static_cast<char>(below(256));
        s.insert(pos, junk);
        break;
      }
      case 3:  // insert a dictionary token
        if (!dict_.empty()) s.insert(pos, dict_[below(dict_.size())]);
        break;
      case 4:  // erase a range
        s.erase(pos, 1 + below(16));
        break;
      case 5:  // truncate
        s.resize(pos);
        break;
      case 6: {  // duplicate a chunk somewhere else
        const std::size_t from = below(s.size() + 1);
        const std::string chunk = s.substr(from, 1 + below(64));
        s.insert(below(s.size() + 1), chunk);
        break;
      }
    }
  }

  SplitMix64 rng_;
  std::vector<std::string> dict_;
};

/// Tokens that make text parsers take their rarer paths.
inline std::vector<std::string> text_dictionary() {
  return {" ",    "\t",   "\n",    "\r\n", "\r",    "#",       "-",     "+",      ".",
          "e",    "e-",   "e+",    "E99",  "nan",   "inf",     "-inf",  "1e39",   "1e-50",
          "0",    "9",    "-0",    "s ",   "c ",    "b ",      "s",     "x ",     "1073741823",
          "1073741824", "99999999999", std::string("\0", 1), "\x89", "\xef\xbb\xbf", "0x1p3"};
}

}  // namespace hitgrid::test
