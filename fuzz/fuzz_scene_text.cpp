// Fuzz target: the scene text reader (core/scene_text_io.hpp). Any bytes either read as a
// scene or throw hitgrid::ParseError (contract 5: never a crash, never another error);
// what reads back writes and reads again to the same bits.
#include <sstream>
#include <string_view>

#include "fuzz_input.hpp"
#include "hitgrid/core/error.hpp"
#include "hitgrid/core/scene_text_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace hitgrid;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Scene scene;
  try {
    scene = read_scene_text(text, "fuzz.txt");
  } catch (const ParseError& e) {
    if (e.file() != "fuzz.txt" || e.line() == 0) fuzz::fail("a text ParseError without its file and line");
    return 0;
  }
  std::ostringstream out;
  write_scene_text(out, scene);
  if (!(read_scene_text(out.str(), "again.txt") == scene)) fuzz::fail("write -> read is not bit-identical");
  return 0;
}
