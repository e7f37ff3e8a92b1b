// Fuzz target: the pair list text reader (core/pair_io.hpp). Any bytes either read as a
// sorted list without duplicates or throw hitgrid::ParseError with file and line; a list
// that reads writes and reads back the same.
#include <algorithm>
#include <sstream>
#include <string_view>

#include "fuzz_input.hpp"
#include "hitgrid/core/error.hpp"
#include "hitgrid/core/pair_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace hitgrid;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  PairList pairs;
  try {
    pairs = read_pairs_text(text, "fuzz.txt");
  } catch (const ParseError& e) {
    if (e.file() != "fuzz.txt" || e.line() == 0) fuzz::fail("a text ParseError without its file and line");
    return 0;
  }
  if (std::adjacent_find(pairs.begin(), pairs.end(), [](Pair a, Pair b) { return !(a < b); }) != pairs.end())
    fuzz::fail("the reader accepted pairs out of order or twice");
  for (Pair p : pairs)
    if (!(p.first() < p.second()) || p.second().kind() > ShapeKind::box) fuzz::fail("the reader accepted a bad pair");
  std::ostringstream out;
  write_pairs_text(out, pairs);
  if (read_pairs_text(out.str(), "again.txt") != pairs) fuzz::fail("write -> read changed the list");
  return 0;
}
