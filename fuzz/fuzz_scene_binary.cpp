// Fuzz target: the binary scene reader (core/scene_binary_io.hpp). Any bytes either read
// as a scene or throw hitgrid::ParseError with a byte offset inside the input; binary
// scenes are canonical, so a scene that reads writes back to the very same bytes.
#include <sstream>
#include <string_view>

#include "fuzz_input.hpp"
#include "hitgrid/core/error.hpp"
#include "hitgrid/core/scene_binary_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace hitgrid;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  Scene scene;
  try {
    scene = read_scene_binary(bytes, "fuzz.hgs");
  } catch (const ParseError& e) {
    if (!e.is_binary() || e.column() > size) fuzz::fail("a binary ParseError without a byte offset in the input");
    return 0;
  }
  std::ostringstream out;
  write_scene_binary(out, scene);
  if (out.str() != bytes) fuzz::fail("a scene read from bytes does not write back to the same bytes");
  return 0;
}
