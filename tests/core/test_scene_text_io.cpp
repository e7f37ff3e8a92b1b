// The scene text format: what it accepts (exact float bits), what it rejects (exact
// messages pointing at file:line:column), bit-identical round trips, and a fuzz test.
#include <bit>
#include <catch2/catch.hpp>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

#include "core/io_fuzz.hpp"
#include "hitgrid/core/error.hpp"
#include "hitgrid/core/generators.hpp"
#include "hitgrid/core/scene_file.hpp"
#include "hitgrid/core/scene_text_io.hpp"
#include "support/scratch_dir.hpp"

using namespace hitgrid;

namespace {

std::uint32_t bits(float f) { return std::bit_cast<std::uint32_t>(f); }
float from_bits(std::uint32_t b) { return std::bit_cast<float>(b); }

/// The what() of the error reading `text` throws, or "no error".
std::string error_of(std::string_view text) {
  try {
    read_scene_text(text, "t.txt");
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

/// The bits of the one number in a circle line "c 0 0 NUMBER" (r: so negative values need
/// another field: use the x coordinate instead).
std::uint32_t parsed_bits(const std::string& number) {
  const Scene s = read_scene_text("c " + number + " 0 0", "t.txt");
  REQUIRE(s.circle_count() == 1);
  return bits(s.circle(0).c.x);
}

std::string written(const Scene& s) {
  std::ostringstream out;
  write_scene_text(out, s);
  return out.str();
}

}  // namespace

TEST_CASE("text scene: every kind, comments, blanks, tabs, CRLF, no final newline", "[io]") {
  const Scene s = read_scene_text(
      "# header comment\n"
      "\n"
      "s 0 0 1 1\n"
      "   \t  \n"
      "  c\t2.5  -3\t0.25   # trailing comment\r\n"
      "b -1 -2 3 4\r\n"
      "   # indented comment\n"
      "s 1e3 -1E-3 +1.5 .5",
      "t.txt");
  REQUIRE(s.segment_count() == 2);
  REQUIRE(s.circle_count() == 1);
  REQUIRE(s.box_count() == 1);
  CHECK(s.segment(0) == Segment{{0, 0}, {1, 1}});
  CHECK(s.segment(1) == Segment{{1000, -0.001f}, {1.5f, 0.5f}});
  CHECK(s.circle(0) == Circle{{2.5f, -3}, 0.25f});
  CHECK(s.box(0) == Box{{-1, -2}, {3, 4}});
}

TEST_CASE("text scene: empty and comment-only inputs are empty scenes", "[io]") {
  CHECK(read_scene_text("", "t.txt").empty());
  CHECK(read_scene_text("\n\n\r\n", "t.txt").empty());
  CHECK(read_scene_text("# nothing\n  # here", "t.txt").empty());
  CHECK(read_scene_text("#", "t.txt").empty());
}

TEST_CASE("text scene: a comment may touch the last field", "[io]") {
  const Scene s = read_scene_text("s 1 2 3 4#note\nc 1 1 1# x", "t.txt");
  CHECK(s.segment(0) == Segment{{1, 2}, {3, 4}});
  CHECK(s.circle(0) == Circle{{1, 1}, 1});
}

TEST_CASE("text scene: numbers round once, to nearest, straight to float32", "[io]") {
  CHECK(parsed_bits("0.1") == 0x3dcccccd);
  CHECK(parsed_bits("-0") == 0x80000000);
  CHECK(parsed_bits("0") == 0x00000000);
  CHECK(parsed_bits("00001") == 0x3f800000);
  CHECK(parsed_bits("5.") == 0x40a00000);
  CHECK(parsed_bits("+.5") == 0x3f000000);
  CHECK(parsed_bits("1e+3") == 0x447a0000);
  // Ties go to even: 2^24 + 1 -> 2^24, 2^24 + 3 -> 2^24 + 4.
  CHECK(parsed_bits("16777217") == 0x4b800000);
  CHECK(parsed_bits("16777219") == 0x4b800002);
  // 1 + 2^-24 is the midpoint between 1 and the next float (ties to even: 1). A decimal a
  // hair above it must round up; going through double first would land on the midpoint
  // and then round down: this is the "no detour through double" test.
  CHECK(parsed_bits("1.000000059604644775390625") == 0x3f800000);
  CHECK(parsed_bits("1.00000005960464477539062582718061255302767487140869206996285356581211090087890625") ==
        0x3f800001);
}

TEST_CASE("text scene: tiny numbers round to zero or a subnormal and are accepted", "[io]") {
  CHECK(parsed_bits("1e-45") == 0x00000001);    // the smallest subnormal
  CHECK(parsed_bits("7.1e-46") == 0x00000001);  // just above half of it: rounds up
  CHECK(parsed_bits("7e-46") == 0x00000000);    // just below half: rounds to zero
  CHECK(parsed_bits("1e-50") == 0x00000000);
  CHECK(parsed_bits("-1e-50") == 0x80000000);  // the sign survives
  CHECK(parsed_bits("1e-99999999999999999999") == 0x00000000);
  CHECK(parsed_bits("0.0000000000000000000000000000000000000000000000000001") == 0x00000000);
  CHECK(parsed_bits("100000e-55") == 0x00000000);
  CHECK(parsed_bits("1.1754942e-38") == 0x007fffff);  // the largest subnormal
  CHECK(parsed_bits("1.17549435e-38") == 0x00800000);  // FLT_MIN
}

TEST_CASE("text scene: the float32 range ends where round-to-nearest reaches infinity", "[io]") {
  CHECK(parsed_bits("3.4028235e38") == 0x7f7fffff);
  CHECK(parsed_bits("-3.4028235e38") == 0xff7fffff);
  // 2^128 - 2^103 is the midpoint between FLT_MAX and 2^128: one below still rounds to
  // FLT_MAX, the midpoint itself rounds to even, which is infinity: an error.
  CHECK(parsed_bits("340282356779733661637539395458142568447") == 0x7f7fffff);
  const std::string tail = " is out of float32 range (largest 3.40282347e+38)";
  CHECK(error_of("c 340282356779733661637539395458142568448 0 0") ==
        "t.txt:1:3: number \"340282356779733661637539395458142568448\"" + tail);
  CHECK(error_of("c 0 0 1e39") == "t.txt:1:7: number \"1e39\"" + tail);
  CHECK(error_of("c -1e39 0 0") == "t.txt:1:3: number \"-1e39\"" + tail);
  CHECK(error_of("c 0 3.4028236e38 0") == "t.txt:1:5: number \"3.4028236e38\"" + tail);
  CHECK(error_of("c 0 0 1e400") == "t.txt:1:7: number \"1e400\"" + tail);
  CHECK(error_of("c 0 0 1e99999999999999999999") == "t.txt:1:7: number \"1e99999999999999999999\"" + tail);
  CHECK(error_of("c 0 0 0.00001e50") == "t.txt:1:7: number \"0.00001e50\"" + tail);
  CHECK(error_of("c 0 0 1000000000000000000000000000000000000000") ==
        "t.txt:1:7: number \"1000000000000000000000000000000000000000\"" + tail);
}

TEST_CASE("text scene: unknown kinds", "[io]") {
  CHECK(error_of("x 1 2 3 4") == "t.txt:1:1: unknown shape kind \"x\" (expected s, c or b)");
  CHECK(error_of("# c\n\nseg 1 2 3 4\n") == "t.txt:3:1: unknown shape kind \"seg\" (expected s, c or b)");
  CHECK(error_of("s 0 0 1 1\n  S 1 2 3 4") == "t.txt:2:3: unknown shape kind \"S\" (expected s, c or b)");
  CHECK(error_of("1 2 3 4") == "t.txt:1:1: unknown shape kind \"1\" (expected s, c or b)");
  // A byte-order mark is not silently skipped: it is reported, escaped.
  CHECK(error_of("\xef\xbb\xbfs 0 0 1 1") ==
        "t.txt:1:1: unknown shape kind \"\\xef\\xbb\\xbfs\" (expected s, c or b)");
}

TEST_CASE("text scene: malformed numbers", "[io]") {
  CHECK(error_of("  s 1 2 3 4x") == "t.txt:1:11: malformed number \"4x\"");
  CHECK(error_of("s 1 2 0x10 4") == "t.txt:1:7: malformed number \"0x10\"");
  CHECK(error_of("s 1 2 1e 4") == "t.txt:1:7: malformed number \"1e\"");
  CHECK(error_of("s +-1 0 0 0") == "t.txt:1:3: malformed number \"+-1\"");
  CHECK(error_of("s ++1 0 0 0") == "t.txt:1:3: malformed number \"++1\"");
  CHECK(error_of("s + 0 0 0") == "t.txt:1:3: malformed number \"+\"");
  CHECK(error_of("s 1,5 0 0 0") == "t.txt:1:3: malformed number \"1,5\"");
  CHECK(error_of("s - 0 0 0") == "t.txt:1:3: malformed number \"-\"");
  CHECK(error_of("s . 0 0 0") == "t.txt:1:3: malformed number \".\"");
  CHECK(error_of("s 1..2 0 0 0") == "t.txt:1:3: malformed number \"1..2\"");
  CHECK(error_of("s 0 0 0 infinit") == "t.txt:1:9: malformed number \"infinit\"");
  // Control bytes and quotes are escaped; a '\r' inside a line is not a line end.
  CHECK(error_of("s 1 2 3 \x01") == "t.txt:1:9: malformed number \"\\x01\"");
  CHECK(error_of("s 1\r2 3 4 5") == "t.txt:1:3: malformed number \"1\\x0d2\"");
  CHECK(error_of("s 1 2 3 \"4\"") == "t.txt:1:9: malformed number \"\\x224\\x22\"");
  // Long tokens are cut after 64 bytes.
  CHECK(error_of("c 0 0 " + std::string(80, '7') + "z") ==
        "t.txt:1:7: malformed number \"" + std::string(64, '7') + "...\"");
}

TEST_CASE("text scene: NaN and infinity are rejected, in every spelling", "[io]") {
  CHECK(error_of("c 1 nan 1") == "t.txt:1:5: not a finite number \"nan\"");
  CHECK(error_of("s inf 0 0 0") == "t.txt:1:3: not a finite number \"inf\"");
  CHECK(error_of("s 0 -Infinity 0 0") == "t.txt:1:5: not a finite number \"-Infinity\"");
  CHECK(error_of("b 0 0 1 NaN(1)") == "t.txt:1:9: not a finite number \"NaN(1)\"");
  CHECK(error_of("b 0 0 1 -nan") == "t.txt:1:9: not a finite number \"-nan\"");
  CHECK(error_of("c 0 0 INF") == "t.txt:1:7: not a finite number \"INF\"");
}

TEST_CASE("text scene: too few and too many fields", "[io]") {
  CHECK(error_of("c 1 2") == "t.txt:1:6: too few fields: a circle takes 3 numbers, found 2");
  CHECK(error_of("s") == "t.txt:1:2: too few fields: a segment takes 4 numbers, found 0");
  CHECK(error_of("s 1 2 3   # the fourth is in the comment 4") ==
        "t.txt:1:8: too few fields: a segment takes 4 numbers, found 3");
  CHECK(error_of("s#1 2 3 4") == "t.txt:1:2: too few fields: a segment takes 4 numbers, found 0");
  CHECK(error_of("s 0 0 1 1\nb 0 0 1") == "t.txt:2:8: too few fields: a box takes 4 numbers, found 3");
  CHECK(error_of("b 0 0 1 1 5 6") == "t.txt:1:11: too many fields: a box takes 4 numbers, found 6");
  CHECK(error_of("c 0 0 1 x") == "t.txt:1:9: too many fields: a circle takes 3 numbers, found 4");
  CHECK(error_of("s 0 0 1 1 s 0 0 1 1") == "t.txt:1:11: too many fields: a segment takes 4 numbers, found 9");
}

TEST_CASE("text scene: invalid shapes are reported at their line and field", "[io]") {
  // Ids count per kind: this is circle 2, whose radius is field 3, column 7.
  CHECK(error_of("c 0 0 1\ns 0 0 1 1\nc 1 1 1\nc 1 2 -3") == "t.txt:4:7: circle 2: negative radius -3");
  CHECK(error_of("c 0 0 -1e-45") == "t.txt:1:7: circle 0: negative radius -1.40129846e-45");
  CHECK(error_of("b 2 0 1 1") == "t.txt:1:3: box 0: inverted box: minx 2 > maxx 1");
  CHECK(error_of("b 0 0 1 1\nb 0 5 1 1") == "t.txt:2:5: box 1: inverted box: miny 5 > maxy 1");
  CHECK(error_of("s 0 0 1 1\r\nc 0 0 -1\r\n") == "t.txt:2:7: circle 0: negative radius -1");
  // -0 is not negative: a zero-radius circle whose sign bit is kept.
  const Scene s = read_scene_text("c 0 0 -0\nb -0 0 0 -0", "t.txt");
  CHECK(bits(s.circle(0).r) == 0x80000000);
  CHECK(bits(s.box(0).min.x) == 0x80000000);
}

TEST_CASE("text scene: the error carries file, line and column separately", "[io]") {
  try {
    read_scene_text("s 0 0 1 1\n\nc 0 0 x\n", "scenes/a.txt");
    FAIL("no error");
  } catch (const ParseError& e) {
    CHECK(e.file() == "scenes/a.txt");
    CHECK(e.line() == 3);
    CHECK(e.column() == 7);
    CHECK(e.message() == "malformed number \"x\"");
    CHECK(std::string(e.what()) == "scenes/a.txt:3:7: malformed number \"x\"");
  }
}

TEST_CASE("text scene: the writer's exact output", "[io]") {
  Scene s;
  s.add(Segment{{0, -0.0f}, {1.5f, from_bits(1)}});
  s.add(Segment{{1e7f, 123456792.0f}, {0.3f, -1}});
  s.add(Circle{{0.1f, 2}, FLT_MAX});
  s.add(Box{{-1, -1}, {0, 0}});
  CHECK(written(s) ==
        "# hitgrid scene: 2 segments, 1 circles, 1 boxes\n"
        "s 0 -0 1.5 1e-45\n"
        "s 1e+07 123456792 0.3 -1\n"
        "c 0.1 2 3.4028235e+38\n"
        "b -1 -1 0 0\n");
  CHECK(written(Scene()) == "# hitgrid scene: 0 segments, 0 circles, 0 boxes\n");
}

TEST_CASE("text scene: write then read is bit-identical", "[io]") {
  Scene s;
  const float specials[] = {0.0f, -0.0f, from_bits(1), from_bits(0x007fffff), FLT_MIN, FLT_MAX, -FLT_MAX,
                            0.1f, -from_bits(1), 1e-30f, 123456.789f, 16777216.0f, 3.0e38f, -2.5e-39f};
  for (float a : specials)
    for (float b : specials) s.add(Segment{{a, b}, {b, a}});
  for (float a : specials) s.add(Circle{{a, -a}, std::abs(a)});
  for (float a : specials) s.add(Box{{std::min(a, 0.0f), -std::abs(a)}, {std::max(a, 0.0f), std::abs(a)}});
  // Random finite bit patterns: every exponent, every mantissa.
  SplitMix64 rng(99);
  const auto random_finite = [&] {
    for (;;) {
      const float f = from_bits(static_cast<std::uint32_t>(rng.next()));
      if (std::isfinite(f)) return f;
    }
  };
  for (int i = 0; i < 5000; ++i) s.add(Segment{{random_finite(), random_finite()}, {random_finite(), random_finite()}});
  const std::string text = written(s);
  const Scene back = read_scene_text(text, "t.txt");
  CHECK(back == s);  // bitwise, -0 included
  CHECK(scene_hash(back) == scene_hash(s));
  CHECK(written(back) == text);
}

TEST_CASE("text scene: the data file with every quirk", "[io]") {
  const Scene s = read_scene_file(HITGRID_TEST_DATA_DIR "/scene_small.txt");
  REQUIRE(s.segment_count() == 4);
  REQUIRE(s.circle_count() == 2);
  REQUIRE(s.box_count() == 2);
  CHECK(s.segment(0) == Segment{{0, 0}, {1, 1}});
  CHECK(s.segment(1) == Segment{{0.5f, -0.25f}, {2.5f, 3}});
  CHECK(bits(s.segment(2).a.x) == 0x80000000);
  CHECK(bits(s.segment(2).a.y) == 0x00000001);
  CHECK(bits(s.segment(2).b.x) == 0x7f7fffff);
  CHECK(bits(s.segment(2).b.y) == 0xff7fffff);
  CHECK(s.segment(3) == Segment{{0.1f, 0.2f}, {0.3f, 0.4f}});
  CHECK(s.circle(0) == Circle{{1, 1}, 0.5f});
  CHECK(s.circle(1) == Circle{{10, 10}, 0});
  CHECK(s.box(0) == Box{{-1, -1}, {0, 0}});
  CHECK(s.box(1) == Box{{2, 2}, {2, 2}});
  // Pinned by tools/scenes_reference.py golden.
  CHECK(scene_hash(s) == 0x02eb9c246cd824e2ull);
}

TEST_CASE("text scene files: round trip, and I/O errors", "[io]") {
  const test::ScratchDir scratch("hitgrid_test_scene_text");
  const std::filesystem::path& dir = scratch.path();
  GeneratorParams p;
  p.n = 3000;
  const Scene s = generate(Family::mixed, p);
  const std::string path = (dir / "mixed.txt").string();
  write_scene_file(path, s, SceneFormat::text);
  CHECK(read_scene_file(path) == s);

  const std::string missing = (dir / "no" / "such.txt").string();
  try {
    read_scene_file(missing);
    FAIL("no error");
  } catch (const IoError& e) {
    CHECK(std::string(e.what()) == missing + ": cannot open for reading: No such file or directory");
  }
  try {
    read_scene_file(dir.string());
    FAIL("no error");
  } catch (const IoError& e) {
    CHECK(std::string(e.what()) == dir.string() + ": read failed: Is a directory");
  }
  try {
    write_scene_file(missing, s, SceneFormat::text);
    FAIL("no error");
  } catch (const IoError& e) {
    CHECK(std::string(e.what()) == missing + ": cannot open for writing: No such file or directory");
  }
  // Errors inside a file name the file.
  const std::string bad = (dir / "bad.txt").string();
  std::ofstream(bad) << "s 0 0 1 1\nc 0 0 -2\n";
  CHECK_THROWS_WITH(read_scene_file(bad), bad + ":2:7: circle 0: negative radius -2");
}

TEST_CASE("text scene fuzz: mutated files parse or fail cleanly", "[io][fuzz]") {
  // Seed corpus: a generated scene of every kind plus the quirky data file.
  GeneratorParams p;
  p.n = 24;
  std::ostringstream out;
  write_scene_text(out, generate(Family::mixed, p));
  std::ifstream small(HITGRID_TEST_DATA_DIR "/scene_small.txt", std::ios::binary);
  const std::string corpus[] = {out.str(), std::string(std::istreambuf_iterator<char>(small), {})};
  REQUIRE(corpus[1].size() > 100);

  test::Mutator mutator(2024, test::text_dictionary());
  int parsed = 0, rejected = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string input = corpus[i % 2];
    mutator.mutate(input);
    CAPTURE(i, input);
    try {
      const Scene s = read_scene_text(input, "fuzz.txt");
      ++parsed;
      // Whatever parses must survive a round trip unchanged, and cannot hold more shapes
      // than the input has lines.
      REQUIRE(s.size() <= input.size());
      REQUIRE(read_scene_text(written(s), "again.txt") == s);
    } catch (const ParseError& e) {
      ++rejected;
      REQUIRE(std::string(e.what()).rfind("fuzz.txt:", 0) == 0);
      REQUIRE(e.line() >= 1);
      REQUIRE(e.column() >= 1);
    }
    // Any other exception (bad_alloc, length_error, ...) fails the test.
  }
  CHECK(parsed > 2000);
  CHECK(rejected > 8000);
}
