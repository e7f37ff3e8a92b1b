// Fuzz target: the binary pair list reader (core/pair_io.hpp). Any bytes either read as a
// list or throw hitgrid::ParseError with a byte offset inside the input; the format is
// canonical, so a list that reads writes back to the same bytes.
#include <sstream>
#include <string_view>

#include "fuzz_input.hpp"
#include "hitgrid/core/error.hpp"
#include "hitgrid/core/pair_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace hitgrid;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  PairList pairs;
  try {
    pairs = read_pairs_binary(bytes, "fuzz.hgp");
  } catch (const ParseError& e) {
    if (!e.is_binary() || e.column() > size) fuzz::fail("a binary ParseError without a byte offset in the input");
    return 0;
  }
  std::ostringstream out;
  write_pairs_binary(out, pairs);
  if (out.str() != bytes) fuzz::fail("a pair list read from bytes does not write back to the same bytes");
  return 0;
}
