// The binary scene format: golden bytes written by an independent implementation
// (tools/scenes_reference.py), round trips, every error with its exact message and byte
// offset, and a fuzz test.
#include <bit>
#include <catch2/catch.hpp>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <string>

#include "binary_codec.hpp"
#include "core/io_fuzz.hpp"
#include "hitgrid/core/error.hpp"
#include "hitgrid/core/generators.hpp"
#include "hitgrid/core/pair_io.hpp"
#include "hitgrid/core/scene_binary_io.hpp"
#include "hitgrid/core/scene_file.hpp"
#include "support/scratch_dir.hpp"

using namespace hitgrid;

namespace {

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string golden() { return file_bytes(HITGRID_TEST_DATA_DIR "/scene_small.hgs"); }

std::string binary(const Scene& s) {
  std::ostringstream out;
  write_scene_binary(out, s);
  return out.str();
}

std::string error_of(std::string_view bytes) {
  try {
    read_scene_binary(bytes, "t.hgs");
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

void put_u32(std::string& b, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = static_cast<char>(v >> (8 * i));
}
void put_u64(std::string& b, std::size_t at, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) b[at + i] = static_cast<char>(v >> (8 * i));
}
void put_f32(std::string& b, std::size_t at, float v) { put_u32(b, at, std::bit_cast<std::uint32_t>(v)); }

/// Rewrites the trailing checksum so that a deliberately edited file gets past it.
void reseal(std::string& b) {
  if (b.size() >= 8) put_u64(b, b.size() - 8, detail::word_checksum(b.data(), b.size() - 8));
}

}  // namespace

TEST_CASE("binary scene: the golden file reads as its text twin and is written byte for byte", "[io]") {
  const std::string bytes = golden();
  REQUIRE(bytes.size() == 168);
  CHECK(is_scene_binary(bytes));
  const Scene from_text = read_scene_file(HITGRID_TEST_DATA_DIR "/scene_small.txt");
  CHECK(read_scene_binary(bytes, "g.hgs") == from_text);
  CHECK(read_scene_file(HITGRID_TEST_DATA_DIR "/scene_small.hgs") == from_text);
  CHECK(binary(from_text) == bytes);
  CHECK(scene_binary_size(4, 2, 2) == 168);
}

TEST_CASE("binary scene: header layout of an empty scene", "[io]") {
  const std::string b = binary(Scene());
  CHECK(b.size() == 48);
  CHECK(b == std::string("\x89HGS\r\n\x1a\n"
                         "\x01\0\0\0"
                         "\0\0\0\0"
                         "\0\0\0\0\0\0\0\0"
                         "\0\0\0\0\0\0\0\0"
                         "\0\0\0\0\0\0\0\0"
                         "\x15\x98\x17\xd7\xbd\x07\xc5\x2f",
                         48));
  CHECK(read_scene_binary(b, "e.hgs").empty());
}

TEST_CASE("binary scene: write then read is bit-identical", "[io]") {
  Scene s;
  const float specials[] = {0.0f, -0.0f, std::bit_cast<float>(1u), std::bit_cast<float>(0x007fffffu), FLT_MIN,
                            FLT_MAX, -FLT_MAX, 0.1f, -1e-45f};
  for (float a : specials)
    for (float b : specials) s.add(Segment{{a, b}, {b, a}});
  for (float a : specials) s.add(Circle{{a, -a}, std::abs(a)});
  for (float a : specials) s.add(Box{{std::min(a, 0.0f), -std::abs(a)}, {std::max(a, 0.0f), std::abs(a)}});
  const std::string b = binary(s);
  CHECK(b.size() == scene_binary_size(s.segment_count(), s.circle_count(), s.box_count()));
  const Scene back = read_scene_binary(b, "t.hgs");
  CHECK(back == s);
  CHECK(binary(back) == b);

  GeneratorParams p;
  p.n = 5000;
  const Scene m = generate(Family::mixed, p);
  CHECK(read_scene_binary(binary(m), "m.hgs") == m);
}

TEST_CASE("binary scene: the checksum is FNV-1a over little-endian words", "[io]") {
  // Pinned by tools/scenes_reference.py word_checksum.
  CHECK(detail::word_checksum("", 0) == 0xcbf29ce484222325ull);
  CHECK(detail::word_checksum("abc", 3) == 0xce81dc4cbae1e68cull);
  CHECK(detail::word_checksum("abcdefghi", 9) == 0xe8f77a2949db571full);
  std::string data;
  for (int r = 0; r < 3; ++r)
    for (int i = 0; i < 256; ++i) data += static_cast<char>(i);
  CHECK(detail::word_checksum(data.data(), data.size()) == 0x5d5bc88feeecb225ull);
  // Fed in pieces of any size, it is the same.
  for (std::size_t step : {1u, 3u, 7u, 8u, 13u, 100u}) {
    detail::WordChecksum c;
    for (std::size_t i = 0; i < data.size(); i += step) c.add(data.data() + i, std::min(step, data.size() - i));
    CHECK(c.value() == 0x5d5bc88feeecb225ull);
  }
}

TEST_CASE("binary scene: wrong magic, truncated header, version, flags", "[io]") {
  const std::string g = golden();
  CHECK(error_of("") == "t.hgs: byte 0: truncated header: the file has 0 bytes, a scene header has 40");
  CHECK(error_of("\x89HG") == "t.hgs: byte 3: truncated header: the file has 3 bytes, a scene header has 40");
  CHECK(error_of("s 0 0 1 1\n") == "t.hgs: byte 0: not a hitgrid binary scene (bad magic)");
  CHECK(error_of(std::string("\x89HGS\n\x1a\n\0", 8) + g.substr(8)) ==
        "t.hgs: byte 0: not a hitgrid binary scene (bad magic)");  // a text-mode transfer
  CHECK(error_of(std::string(pair_binary_magic) + g.substr(8)) ==
        "t.hgs: byte 0: this is a hitgrid binary pair list, not a scene");
  CHECK(error_of(g.substr(0, 20)) == "t.hgs: byte 20: truncated header: the file has 20 bytes, a scene header has 40");
  std::string b = g;
  put_u32(b, 8, 2);
  CHECK(error_of(b) == "t.hgs: byte 8: unsupported version 2 (this build reads version 1)");
  b = g;
  put_u32(b, 12, 1);
  CHECK(error_of(b) == "t.hgs: byte 12: unsupported flags 1 (version 1 defines none)");
}

TEST_CASE("binary scene: counts are checked against limits and the file size before allocating", "[io]") {
  const std::string g = golden();
  std::string b = g;
  put_u64(b, 24, (1ull << 30) + 1);
  CHECK(error_of(b) == "t.hgs: byte 24: circle count 1073741825 exceeds the limit of 1073741824");
  b = g;
  put_u64(b, 32, ~0ull);
  CHECK(error_of(b) == "t.hgs: byte 32: box count 18446744073709551615 exceeds the limit of 1073741824");
  // The largest legal count in a 168-byte file: 16 GiB declared, nothing allocated.
  b = g;
  put_u64(b, 16, 1ull << 30);
  CHECK(error_of(b) ==
        "t.hgs: byte 168: truncated: the header declares 1073741824 segments, 2 circles and 2 boxes, which take "
        "17179869288 bytes, but the file has 168");
  CHECK(error_of(g.substr(0, 100)) ==
        "t.hgs: byte 100: truncated: the header declares 4 segments, 2 circles and 2 boxes, which take 168 bytes, "
        "but the file has 100");
  CHECK(error_of(g.substr(0, 40)) ==
        "t.hgs: byte 40: truncated: the header declares 4 segments, 2 circles and 2 boxes, which take 168 bytes, "
        "but the file has 40");
  b = g;
  put_u64(b, 16, 1);
  put_u64(b, 24, 1);
  put_u64(b, 32, 0);
  CHECK(error_of(b.substr(0, 60)) ==
        "t.hgs: byte 60: truncated: the header declares 1 segment, 1 circle and 0 boxes, which take 76 bytes, but "
        "the file has 60");
  CHECK(error_of(g + "xyz") == "t.hgs: byte 168: 3 bytes of trailing data after the checksum");
}

TEST_CASE("binary scene: corruption is caught by the checksum", "[io]") {
  std::string b = golden();
  b[50] = static_cast<char>(b[50] ^ 0x10);
  // Both values pinned by tools/scenes_reference.py.
  CHECK(error_of(b) ==
        "t.hgs: byte 160: checksum mismatch: stored 0xe66f7e4915e36012, computed 0xcdae3e19e3536012 (the file is "
        "corrupt)");
  b = golden();
  b[165] = static_cast<char>(b[165] ^ 1);  // the checksum itself
  CHECK(error_of(b).find("t.hgs: byte 160: checksum mismatch") == 0);
}

TEST_CASE("binary scene: invalid shapes are reported at the offset of the bad field", "[io]") {
  // Columns of the golden file: ax 40, ay 56, bx 72, by 88, cx 104, cy 112, r 120,
  // minx 128, miny 136, maxx 144, maxy 152, checksum 160.
  const auto with = [](std::size_t at, float v) {
    std::string b = golden();
    put_f32(b, at, v);
    reseal(b);
    return error_of(b);
  };
  const float inf = std::numeric_limits<float>::infinity();
  CHECK(with(92, std::nanf("")) == "t.hgs: byte 92: segment 1: by is NaN");
  CHECK(with(40, inf) == "t.hgs: byte 40: segment 0: ax is infinite");
  CHECK(with(116, -inf) == "t.hgs: byte 116: circle 1: cy is infinite");
  CHECK(with(124, -2.0f) == "t.hgs: byte 124: circle 1: negative radius -2");
  CHECK(with(128, 5.0f) == "t.hgs: byte 128: box 0: inverted box: minx 5 > maxx 0");
  CHECK(with(140, 3.0f) == "t.hgs: byte 140: box 1: inverted box: miny 3 > maxy 2");
  try {
    std::string b = golden();
    put_f32(b, 124, -2.0f);
    reseal(b);
    read_scene_binary(b, "x.hgs");
    FAIL("no error");
  } catch (const ParseError& e) {
    CHECK(e.is_binary());
    CHECK(e.column() == 124);
    CHECK(e.file() == "x.hgs");
    CHECK(e.message() == "circle 1: negative radius -2");
  }
}

TEST_CASE("binary scene files: auto-detection and round trip", "[io]") {
  const test::ScratchDir scratch("hitgrid_test_scene_binary");
  const std::filesystem::path& dir = scratch.path();
  GeneratorParams p;
  p.n = 4000;
  const Scene s = generate(Family::mixed, p);
  const std::string path = (dir / "m.hgs").string();
  write_scene_file(path, s, SceneFormat::binary);
  CHECK(file_bytes(path) == binary(s));
  CHECK(read_scene_file(path) == s);
  // A damaged binary file is still recognised as binary, and its error names the file.
  std::ofstream(path, std::ios::binary) << std::string("\x89HGS\r\n", 6);
  CHECK_THROWS_WITH(read_scene_file(path),
                    path + ": byte 6: truncated header: the file has 6 bytes, a scene header has 40");
}

TEST_CASE("binary scene fuzz: mutated files parse or fail cleanly", "[io][fuzz]") {
  GeneratorParams p;
  p.n = 20;
  const std::string corpus[] = {binary(generate(Family::mixed, p)), golden()};
  test::Mutator mutator(77, {std::string("\0\0\0\0", 4), "\xff\xff\xff\xff", std::string("\0\0\x80\x7f", 4),
                             std::string("\0\0\xc0\x7f", 4), std::string("\0\0\x80\xbf", 4), "\x89",
                             std::string(pair_binary_magic)});
  int parsed = 0;
  std::map<std::string, int> kinds;  // error messages without their numbers
  for (int i = 0; i < 30000; ++i) {
    std::string input = corpus[i % 2];
    mutator.mutate(input);
    // Half of the time make the checksum right, so that the checks behind it are reached.
    if (mutator.below(2) == 0) reseal(input);
    // Sometimes, a random count: the allocation guard must hold.
    if (input.size() >= 40 && mutator.below(8) == 0) put_u64(input, 16 + 8 * mutator.below(3), mutator.below(1ull << 31));
    CAPTURE(i);
    try {
      const Scene s = read_scene_binary(input, "fuzz.hgs");
      ++parsed;
      // The format is canonical: what parses is exactly what the writer writes.
      REQUIRE(binary(s) == input);
    } catch (const ParseError& e) {
      REQUIRE(std::string(e.what()).rfind("fuzz.hgs: byte ", 0) == 0);
      REQUIRE(e.column() <= input.size());
      const std::string m = e.message();
      kinds[m.substr(0, m.find_first_of("0123456789:"))]++;
    }
  }
  CHECK(parsed > 400);
  // The mutations reached every layer of checks.
  CHECK(kinds["checksum mismatch"] > 400);
  CHECK(kinds["truncated"] + kinds["truncated header"] > 400);
  CHECK(kinds["segment "] + kinds["circle "] + kinds["box "] > 40);
  CHECK(kinds.size() >= 6);
}
