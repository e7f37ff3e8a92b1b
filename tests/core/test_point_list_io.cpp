// The point list text format (paths for `hitgrid rope`): what it accepts (exact float
// bits), what it rejects (exact messages at file:line:column), file reads and their I/O
// errors, bit-identical round trips through a shortest-decimal writer, and a fuzz test
// checked against an independent reference (glibc's strtof, correctly rounded).
#include <bit>
#include <catch2/catch.hpp>
#include <cerrno>
#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/io_fuzz.hpp"
#include "hitgrid/core/error.hpp"
#include "hitgrid/core/point_list_io.hpp"
#include "hitgrid/core/splitmix64.hpp"
#include "support/scratch_dir.hpp"

using namespace hitgrid;

namespace {

std::uint32_t bits(float f) { return std::bit_cast<std::uint32_t>(f); }
float from_bits(std::uint32_t b) { return std::bit_cast<float>(b); }

std::vector<Vec2> read(std::string_view text) { return read_points_text(text, "p.txt"); }

/// The what() of the error reading `text` throws, or "no error".
std::string error_of(std::string_view text) {
  try {
    read_points_text(text, "p.txt");
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

/// The bits of x and y of the one point in `text`.
std::pair<std::uint32_t, std::uint32_t> point_bits(std::string_view text) {
  const std::vector<Vec2> p = read(text);
  REQUIRE(p.size() == 1);
  return {bits(p[0].x), bits(p[0].y)};
}

/// The bits of NUMBER read as an x and as a y: the same, or -1 if they differ.
std::int64_t parsed_bits(const std::string& number) {
  const auto [x, ignored] = point_bits(number + " 0");
  const auto [ignored2, y] = point_bits("0 " + number);
  return x == y ? static_cast<std::int64_t>(x) : -1;
}

/// A writer for the round trips (the library has none for point lists): the shortest
/// decimal that reads back as the same float, "x y\n" a point.
std::string written(const std::vector<Vec2>& points) {
  std::string out;
  char buf[64];
  for (const Vec2& p : points) {
    for (float v : {p.x, p.y}) {
      const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
      REQUIRE(ec == std::errc());
      out.append(buf, end);
      out += ' ';
    }
    out.back() = '\n';
  }
  return out;
}

bool same_bits(const std::vector<Vec2>& a, const std::vector<Vec2>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (bits(a[i].x) != bits(b[i].x) || bits(a[i].y) != bits(b[i].y)) return false;
  return true;
}

/// An independent reading of the format for the fuzz test, on inputs the library accepted:
/// lines split at '\n', one '\r' before it (or before the end) dropped, '#' to the end of
/// the line dropped, tokens between spaces and tabs, each number through strtof (glibc's
/// is correctly rounded straight to float). nullopt if a line has other than 0 or 2
/// tokens or strtof does not take a whole token.
std::optional<std::vector<Vec2>> reference_read(std::string_view text) {
  std::vector<Vec2> points;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t nl = text.find('\n', pos);
    std::string_view line = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (const auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    std::vector<std::string> tokens;
    std::size_t i = 0;
    while (i < line.size()) {
      while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
      const std::size_t start = i;
      while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
      if (i > start) tokens.emplace_back(line.substr(start, i - start));
    }
    if (tokens.empty()) continue;
    if (tokens.size() != 2) return std::nullopt;
    float v[2];
    for (int k = 0; k < 2; ++k) {
      const std::string& t = tokens[static_cast<std::size_t>(k)];
      if (t.find('\0') != std::string::npos) return std::nullopt;
      char* end = nullptr;
      errno = 0;
      v[k] = std::strtof(t.c_str(), &end);
      if (end != t.c_str() + t.size() || !std::isfinite(v[k])) return std::nullopt;
    }
    points.push_back({v[0], v[1]});
  }
  return points;
}

}  // namespace

TEST_CASE("point list: comments, blank lines, tabs, CRLF, trailing blanks, no final newline", "[io]") {
  const std::vector<Vec2> p = read(
      "# a path\n"
      "\n"
      "0 0\n"
      "   \t  \n"
      "  10.5\t-2   # trailing comment\r\n"
      "\t-1e3  +.5 \t \r\n"
      "   # indented comment\n"
      "3 4#touching comment\n"
      "1 2");
  REQUIRE(p.size() == 5);
  CHECK(p[0] == Vec2{0, 0});
  CHECK(p[1] == Vec2{10.5f, -2});
  CHECK(p[2] == Vec2{-1000, 0.5f});
  CHECK(p[3] == Vec2{3, 4});
  CHECK(p[4] == Vec2{1, 2});
}

TEST_CASE("point list: a point never spans lines", "[io]") {
  CHECK(error_of("3#touching comment\n  4\n") == "p.txt:1:2: too few fields: a point takes 2 numbers, found 1");
}

TEST_CASE("point list: empty, blank and comment-only inputs are empty lists", "[io]") {
  CHECK(read("").empty());
  CHECK(read("\n").empty());
  CHECK(read("\n\n\r\n").empty());
  CHECK(read("\r").empty());
  CHECK(read(" \t ").empty());
  CHECK(read("#").empty());
  CHECK(read("# nothing\n  # here\r\n#1 2").empty());
}

TEST_CASE("point list: line endings: LF, CRLF, the last line with or without one", "[io]") {
  const std::vector<Vec2> want = {{1, 2}, {3, 4}};
  CHECK(read("1 2\n3 4\n") == want);
  CHECK(read("1 2\n3 4") == want);
  CHECK(read("1 2\r\n3 4\r\n") == want);
  CHECK(read("1 2\r\n3 4") == want);
  CHECK(read("1 2\r\n3 4\r") == want);  // a '\r' just before the end is a line end's too
  CHECK(read("1 2\n\n\n3 4\n\n") == want);
  CHECK(read("1 2 \t\n3 4\t \r\n") == want);  // trailing blanks
  CHECK(read("\t 1\t\t2\n 3  4") == want);    // leading blanks, runs of blanks
  // Only one '\r' is a line end's: a second is part of the last token.
  CHECK(error_of("1 2\r\r\n") == "p.txt:1:3: malformed number \"2\\x0d\"");
  // A '\r' alone does not end a line (old Mac line ends are not supported).
  CHECK(error_of("1 2\r3 4") == "p.txt:1:3: malformed number \"2\\x0d3\"");
  // Other blanks are not separators.
  CHECK(error_of("1\v2") == "p.txt:1:1: malformed number \"1\\x0b2\"");
  CHECK(error_of("1\f2") == "p.txt:1:1: malformed number \"1\\x0c2\"");
  CHECK(error_of("1 \f2") == "p.txt:1:3: malformed number \"\\x0c2\"");
}

TEST_CASE("point list: numbers in every syntax, rounded once, to nearest, straight to float32", "[io]") {
  CHECK(parsed_bits("0") == 0x00000000);
  CHECK(parsed_bits("-0") == 0x80000000);
  CHECK(parsed_bits("+0") == 0x00000000);
  CHECK(parsed_bits("-0.0") == 0x80000000);
  CHECK(parsed_bits("-.0") == 0x80000000);
  CHECK(parsed_bits("-0e10") == 0x80000000);
  CHECK(parsed_bits("0e99999999999999999999") == 0x00000000);
  CHECK(parsed_bits("1") == 0x3f800000);
  CHECK(parsed_bits("-1") == 0xbf800000);
  CHECK(parsed_bits("+1") == 0x3f800000);
  CHECK(parsed_bits("00001") == 0x3f800000);
  CHECK(parsed_bits("1.") == 0x3f800000);
  CHECK(parsed_bits("5.") == 0x40a00000);
  CHECK(parsed_bits(".5") == 0x3f000000);
  CHECK(parsed_bits("+.5") == 0x3f000000);
  CHECK(parsed_bits("-.5") == 0xbf000000);
  CHECK(parsed_bits("0.1") == 0x3dcccccd);
  CHECK(parsed_bits("-0.1") == 0xbdcccccd);
  CHECK(parsed_bits("10.5") == 0x41280000);
  CHECK(parsed_bits("1e3") == 0x447a0000);
  CHECK(parsed_bits("1E3") == 0x447a0000);
  CHECK(parsed_bits("1e+3") == 0x447a0000);
  CHECK(parsed_bits("1e+03") == 0x447a0000);
  CHECK(parsed_bits("+1e3") == 0x447a0000);
  CHECK(parsed_bits("-1e-3") == bits(-0.001f));
  CHECK(parsed_bits("1.5e-3") == bits(0.0015f));
  CHECK(parsed_bits(".5e1") == 0x40a00000);
  CHECK(parsed_bits("5.e-1") == 0x3f000000);
  CHECK(parsed_bits("123456.789") == bits(123456.789f));
  // Ties go to even: 2^24 + 1 -> 2^24, 2^24 + 3 -> 2^24 + 4.
  CHECK(parsed_bits("16777217") == 0x4b800000);
  CHECK(parsed_bits("16777219") == 0x4b800002);
  // 1 + 2^-24 is the midpoint between 1 and the next float: ties to even give 1; a decimal a
  // hair above it must round up (through double first, it would land on the midpoint).
  CHECK(parsed_bits("1.000000059604644775390625") == 0x3f800000);
  CHECK(parsed_bits("1.00000005960464477539062582718061255302767487140869206996285356581211090087890625") ==
        0x3f800001);
  // Long digit strings: 1 written with a thousand zeros before or after it.
  CHECK(parsed_bits(std::string("1") + std::string(1000, '0') + "e-1000") == 0x3f800000);
  CHECK(parsed_bits(std::string("0.") + std::string(999, '0') + "1e1000") == 0x3f800000);
  CHECK(parsed_bits(std::string(1000, '0') + "2.5") == 0x40200000);
}

TEST_CASE("point list: tiny numbers round to zero or a subnormal and are accepted", "[io]") {
  CHECK(parsed_bits("1e-45") == 0x00000001);  // the smallest subnormal
  CHECK(parsed_bits("-1e-45") == 0x80000001);
  CHECK(parsed_bits("7.1e-46") == 0x00000001);  // just above half of it: rounds up
  CHECK(parsed_bits("7e-46") == 0x00000000);    // just below half: rounds to zero
  // Exactly half of it, 2^-150, ties to even: zero; a hair above, the smallest subnormal.
  const std::string half =
      "7.00649232162408535461864791644958065640130970938257885878534141944895541342930300743319094181060791015625";
  CHECK(parsed_bits(half + "e-46") == 0x00000000);
  CHECK(parsed_bits(half + "1e-46") == 0x00000001);
  CHECK(parsed_bits("-" + half + "1e-46") == 0x80000001);
  // 3 * 2^-150, between the first two subnormals, ties to even: the second.
  CHECK(parsed_bits("2."
                    "10194769648722560638559437493487419692039291281477365763560242583468662402879090222995728254318237"
                    "3046875e-45") == 0x00000002);
  CHECK(parsed_bits("1e-50") == 0x00000000);
  CHECK(parsed_bits("-1e-50") == 0x80000000);  // the sign survives
  CHECK(parsed_bits("1e-99999999999999999999") == 0x00000000);
  CHECK(parsed_bits("-1e-99999999999999999999") == 0x80000000);
  CHECK(parsed_bits("100000e-55") == 0x00000000);
  CHECK(parsed_bits("1.1754942e-38") == 0x007fffff);   // the largest subnormal
  CHECK(parsed_bits("1.17549435e-38") == 0x00800000);  // FLT_MIN
}

TEST_CASE("point list: numbers beyond float32 are refused, not turned into infinity", "[io]") {
  CHECK(parsed_bits("3.4028235e38") == 0x7f7fffff);  // FLT_MAX
  CHECK(parsed_bits("-3.4028235e38") == 0xff7fffff);
  // 2^128 - 2^103 is the midpoint between FLT_MAX and 2^128: one below still rounds to
  // FLT_MAX; the midpoint itself rounds to even, which is infinity: an error.
  CHECK(parsed_bits("340282356779733661637539395458142568447") == 0x7f7fffff);
  const std::string tail = " is out of float32 range (largest 3.40282347e+38)";
  CHECK(error_of("340282356779733661637539395458142568448 0") ==
        "p.txt:1:1: number \"340282356779733661637539395458142568448\"" + tail);
  CHECK(error_of("0 3.4028236e38") == "p.txt:1:3: number \"3.4028236e38\"" + tail);
  CHECK(error_of("1e39 0") == "p.txt:1:1: number \"1e39\"" + tail);
  CHECK(error_of("0 -1e39") == "p.txt:1:3: number \"-1e39\"" + tail);
  CHECK(error_of("+1e39 0") == "p.txt:1:1: number \"+1e39\"" + tail);  // the token as written
  CHECK(error_of("0 1E400") == "p.txt:1:3: number \"1E400\"" + tail);
  CHECK(error_of("0 1e99999999999999999999") == "p.txt:1:3: number \"1e99999999999999999999\"" + tail);
  CHECK(error_of("0 0.00001e50") == "p.txt:1:3: number \"0.00001e50\"" + tail);
  CHECK(error_of("0 1000000000000000000000000000000000000000") ==
        "p.txt:1:3: number \"1000000000000000000000000000000000000000\"" + tail);
  // A long one is cut in the message like any token.
  CHECK(error_of(std::string("1") + std::string(100, '0') + " 0") ==
        std::string("p.txt:1:1: number \"1") + std::string(63, '0') + "...\"" + tail);
  // On a later line, after good points.
  CHECK(error_of("1 2\r\n\r\n3 4\r\n  -5e38\t6\r\n") == "p.txt:4:3: number \"-5e38\"" + tail);
}

TEST_CASE("point list: NaN and infinity are refused, in every spelling", "[io]") {
  CHECK(error_of("nan 0") == "p.txt:1:1: not a finite number \"nan\"");
  CHECK(error_of("0 nan") == "p.txt:1:3: not a finite number \"nan\"");
  CHECK(error_of("0 NaN") == "p.txt:1:3: not a finite number \"NaN\"");
  CHECK(error_of("0 -nan") == "p.txt:1:3: not a finite number \"-nan\"");
  CHECK(error_of("0 nan(0x1)") == "p.txt:1:3: not a finite number \"nan(0x1)\"");
  CHECK(error_of("inf 0") == "p.txt:1:1: not a finite number \"inf\"");
  CHECK(error_of("0 -inf") == "p.txt:1:3: not a finite number \"-inf\"");
  CHECK(error_of("0 INF") == "p.txt:1:3: not a finite number \"INF\"");
  CHECK(error_of("0 Infinity") == "p.txt:1:3: not a finite number \"Infinity\"");
  CHECK(error_of("-infinity 0") == "p.txt:1:1: not a finite number \"-infinity\"");
  // '+' is only taken before a digit or a point: "+inf" and "+nan" are not numbers at all.
  CHECK(error_of("+inf 0") == "p.txt:1:1: malformed number \"+inf\"");
  CHECK(error_of("0 +nan") == "p.txt:1:3: malformed number \"+nan\"");
  CHECK(error_of("0 infinit") == "p.txt:1:3: malformed number \"infinit\"");
}

TEST_CASE("point list: malformed numbers", "[io]") {
  CHECK(error_of("x 0") == "p.txt:1:1: malformed number \"x\"");
  CHECK(error_of("0 4x") == "p.txt:1:3: malformed number \"4x\"");
  CHECK(error_of("0x10 0") == "p.txt:1:1: malformed number \"0x10\"");
  CHECK(error_of("0 0x1p3") == "p.txt:1:3: malformed number \"0x1p3\"");
  CHECK(error_of("1e 0") == "p.txt:1:1: malformed number \"1e\"");
  CHECK(error_of("1e+ 0") == "p.txt:1:1: malformed number \"1e+\"");
  CHECK(error_of("e5 0") == "p.txt:1:1: malformed number \"e5\"");
  CHECK(error_of(".e5 0") == "p.txt:1:1: malformed number \".e5\"");
  CHECK(error_of("+-1 0") == "p.txt:1:1: malformed number \"+-1\"");
  CHECK(error_of("++1 0") == "p.txt:1:1: malformed number \"++1\"");
  CHECK(error_of("--1 0") == "p.txt:1:1: malformed number \"--1\"");
  CHECK(error_of("+ 0") == "p.txt:1:1: malformed number \"+\"");
  CHECK(error_of("- 0") == "p.txt:1:1: malformed number \"-\"");
  CHECK(error_of(". 0") == "p.txt:1:1: malformed number \".\"");
  CHECK(error_of("1..2 0") == "p.txt:1:1: malformed number \"1..2\"");
  CHECK(error_of("1.5.5 0") == "p.txt:1:1: malformed number \"1.5.5\"");
  CHECK(error_of("1,5 0") == "p.txt:1:1: malformed number \"1,5\"");
  CHECK(error_of("1_000 0") == "p.txt:1:1: malformed number \"1_000\"");
  CHECK(error_of("1,2") == "p.txt:1:1: malformed number \"1,2\"");  // a comma is not a separator
  CHECK(error_of("(1 2)") == "p.txt:1:1: malformed number \"(1\"");
  // The first bad field on the line is reported, left to right.
  CHECK(error_of("a b") == "p.txt:1:1: malformed number \"a\"");
  CHECK(error_of("1 b c") == "p.txt:1:3: malformed number \"b\"");
  // Quotes, backslashes and control bytes are escaped.
  CHECK(error_of("0 \"4\"") == "p.txt:1:3: malformed number \"\\x224\\x22\"");
  CHECK(error_of("0 4\\") == "p.txt:1:3: malformed number \"4\\x5c\"");
  CHECK(error_of("0 \x01") == "p.txt:1:3: malformed number \"\\x01\"");
  CHECK(error_of("0 \x7f") == "p.txt:1:3: malformed number \"\\x7f\"");
}

TEST_CASE("point list: too few and too many fields", "[io]") {
  const std::string few = "too few fields: a point takes 2 numbers, found 1";
  CHECK(error_of("5") == "p.txt:1:2: " + few);
  CHECK(error_of("  5   ") == "p.txt:1:4: " + few);  // the column just past the field
  CHECK(error_of("5\t# 6 is in the comment") == "p.txt:1:2: " + few);
  CHECK(error_of("5#6") == "p.txt:1:2: " + few);
  CHECK(error_of("1 2\n3\r\n") == "p.txt:2:2: " + few);
  CHECK(error_of("1 2\n\n# c\n  -7.25") == "p.txt:4:8: " + few);
  // A lone field is checked as a number first.
  CHECK(error_of("nan") == "p.txt:1:1: not a finite number \"nan\"");
  CHECK(error_of("1e39") == "p.txt:1:1: number \"1e39\" is out of float32 range (largest 3.40282347e+38)");

  const std::string many = "too many fields: a point takes 2 numbers, found ";
  CHECK(error_of("1 2 3") == "p.txt:1:5: " + many + "3");
  CHECK(error_of("1 2 3 4") == "p.txt:1:5: " + many + "4");
  CHECK(error_of("1\t2\t3\t4\t5  ") == "p.txt:1:5: " + many + "5");
  CHECK(error_of("1 2 3 # 4 5") == "p.txt:1:5: " + many + "3");
  CHECK(error_of("1 2\n3 4\n5 6 7\n") == "p.txt:3:5: " + many + "3");
  // Fields past the second are counted, not parsed: the count, not "nan", is reported.
  CHECK(error_of("1 2 nan") == "p.txt:1:5: " + many + "3");
  CHECK(error_of("1 2 x") == "p.txt:1:5: " + many + "3");
  // A missing line end does not join two points into one line of four...
  CHECK(error_of("1 2 3 4\n") == "p.txt:1:5: " + many + "4");
  // ... and the x y pairs of a "x,y" file are single malformed tokens.
  CHECK(error_of("1,2 3,4") == "p.txt:1:1: malformed number \"1,2\"");
}

TEST_CASE("point list: non-ASCII bytes and embedded NULs are reported, escaped", "[io]") {
  // A UTF-8 byte-order mark is not skipped.
  CHECK(error_of("\xef\xbb\xbf"
                 "1 2") == "p.txt:1:1: malformed number \"\\xef\\xbb\\xbf1\"");
  // A no-break space (U+00A0, C2 A0) is not a blank.
  CHECK(error_of("1\xc2\xa0"
                 "2") == "p.txt:1:1: malformed number \"1\\xc2\\xa02\"");
  CHECK(error_of("1 2\xc2\xa0") == "p.txt:1:3: malformed number \"2\\xc2\\xa0\"");
  // Fullwidth digits and a Unicode minus sign are not numbers.
  CHECK(error_of("\xef\xbc\x91 2") == "p.txt:1:1: malformed number \"\\xef\\xbc\\x91\"");
  CHECK(error_of("1 \xe2\x88\x92"
                 "2") == "p.txt:1:3: malformed number \"\\xe2\\x88\\x922\"");
  CHECK(error_of("1 \xff") == "p.txt:1:3: malformed number \"\\xff\"");
  // Non-ASCII bytes inside a comment are ignored.
  using namespace std::string_literals;
  CHECK(read("1 2 # caf\xc3\xa9 \xff\x00\n3 4"s) == std::vector<Vec2>{{1, 2}, {3, 4}});
  // NUL is a byte like any other: it does not end the text or the token.
  CHECK(error_of("1 2\0"s) == "p.txt:1:3: malformed number \"2\\x00\"");
  CHECK(error_of("1 2\n\0\n"s) == "p.txt:2:1: malformed number \"\\x00\"");
  CHECK(error_of("1\0 2"s) == "p.txt:1:1: malformed number \"1\\x00\"");
  CHECK(error_of("1 2\n3 4\n\0"s) == "p.txt:3:1: malformed number \"\\x00\"");
  CHECK(read("1 2 #\0 3\n"s) == std::vector<Vec2>{{1, 2}});  // inside a comment
}

TEST_CASE("point list: long tokens are cut in messages after 64 bytes", "[io]") {
  CHECK(error_of(std::string(64, '7') + "z 0") ==
        std::string("p.txt:1:1: malformed number \"") + std::string(64, '7') + "...\"");
  CHECK(error_of(std::string(63, '7') + "z 0") ==
        std::string("p.txt:1:1: malformed number \"") + std::string(63, '7') + "z\"");
  // 64 bytes are shown, escaped or not: 64 escaped bytes make 256 characters.
  CHECK(error_of(std::string("0 ") + std::string(100, '\x01')) == "p.txt:1:3: malformed number \"" + [] {
    std::string s;
    for (int i = 0; i < 64; ++i) s += "\\x01";
    return s;
  }() + "...\"");
}

TEST_CASE("point list: very long lines and many lines", "[io]") {
  // Columns count bytes, however far along the line.
  const std::string blanks(1'000'000, ' ');
  CHECK(read(blanks + "1" + blanks + "2" + blanks + "\n") == std::vector<Vec2>{{1, 2}});
  CHECK(error_of(blanks + "1" + blanks + "2" + blanks + "x") ==
        "p.txt:1:3000003: too many fields: a point takes 2 numbers, found 3");
  CHECK(error_of(std::string(1'000'000, '\t') + "1") ==
        "p.txt:1:1000002: too few fields: a point takes 2 numbers, found 1");
  CHECK(error_of(std::string("0 ") + std::string(1'000'000, '9')) ==
        std::string("p.txt:1:3: number \"") + std::string(64, '9') +
            "...\" is out of float32 range (largest 3.40282347e+38)");
  CHECK(read(std::string("# ") + std::string(1'000'000, 'x') + "\n1 2") == std::vector<Vec2>{{1, 2}});

  // 200,000 points, then an error on the line after them.
  std::string text;
  std::vector<Vec2> want;
  for (int i = 0; i < 200'000; ++i) {
    const float x = static_cast<float>(i) * 0.5f, y = -static_cast<float>(i);
    text += std::to_string(i / 2) + (i % 2 ? ".5 " : " ") + std::to_string(-i) + "\n";
    want.push_back({x, y});
  }
  CHECK(read(text) == want);
  CHECK(error_of(text + "1 2 3\n") == "p.txt:200001:5: too many fields: a point takes 2 numbers, found 3");
}

TEST_CASE("point list: the error carries file, line and column separately", "[io]") {
  try {
    read_points_text("0 0\n\n# c\n1 y\n", "paths/a path.txt");
    FAIL("no error");
  } catch (const ParseError& e) {
    CHECK(e.file() == "paths/a path.txt");
    CHECK(e.line() == 4);
    CHECK(e.column() == 3);
    CHECK_FALSE(e.is_binary());
    CHECK(e.message() == "malformed number \"y\"");
    CHECK(std::string(e.what()) == "paths/a path.txt:4:3: malformed number \"y\"");
  }
  // Every parse error is a ParseError, hence a hitgrid::Error.
  for (const char* bad : {"1", "1 2 3", "x 1", "nan 1", "1e39 1"}) {
    INFO(bad);
    CHECK_THROWS_AS(read_points_text(bad, "p.txt"), ParseError);
    CHECK_THROWS_AS(read_points_text(bad, "p.txt"), Error);
  }
  // The file name is used as given, even empty.
  CHECK_THROWS_WITH(read_points_text("1", ""), ":1:2: too few fields: a point takes 2 numbers, found 1");
}

TEST_CASE("point list: shortest-decimal text reads back bit-identical", "[io]") {
  std::vector<Vec2> points;
  const float specials[] = {0.0f,    -0.0f,     from_bits(1), -from_bits(1), from_bits(0x007fffff), FLT_MIN,
                            FLT_MAX, -FLT_MAX,  0.1f,         1e-30f,        123456.789f,           16777216.0f,
                            3.0e38f, -2.5e-39f, 1.0f,         -1.0f,         1.00000012f,           0.99999994f};
  for (float a : specials)
    for (float b : specials) points.push_back({a, b});
  // Random finite bit patterns: every exponent, every mantissa.
  SplitMix64 rng(7);
  const auto random_finite = [&] {
    for (;;) {
      const float f = from_bits(static_cast<std::uint32_t>(rng.next()));
      if (std::isfinite(f)) return f;
    }
  };
  for (int i = 0; i < 20000; ++i) points.push_back({random_finite(), random_finite()});
  const std::string text = written(points);
  CHECK(same_bits(read(text), points));  // -0 included
  // The same with CRLF line ends, tabs, a comment on every line and no final newline.
  std::string dressed;
  for (char c : text)
    dressed += c == '\n' ? std::string("\t# p\r\n") : c == ' ' ? std::string(" \t ") : std::string(1, c);
  dressed.resize(dressed.size() - 2);
  CHECK(same_bits(read(dressed), points));
  // Nine significant digits (%.9g) are enough too, and read the same.
  std::string nine;
  char buf[64];
  for (const Vec2& p : points) {
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, p.x, std::chars_format::scientific, 8);
    REQUIRE(ec == std::errc());
    nine.append(buf, end);
    nine += ' ';
    const auto [end2, ec2] = std::to_chars(buf, buf + sizeof buf, p.y, std::chars_format::scientific, 8);
    REQUIRE(ec2 == std::errc());
    nine.append(buf, end2);
    nine += '\n';
  }
  CHECK(same_bits(read(nine), points));
}

TEST_CASE("point list files: read, errors name the file, I/O errors", "[io]") {
  const test::ScratchDir scratch("hitgrid_test_point_list");
  const std::filesystem::path& dir = scratch.path();
  const std::string path = (dir / "path.txt").string();
  std::ofstream(path, std::ios::binary) << "# a path\r\n-10 0\r\n10 1\r\n\r\n1e-45 -0";
  const std::vector<Vec2> p = read_points_file(path);
  REQUIRE(p.size() == 3);
  CHECK(p[0] == Vec2{-10, 0});
  CHECK(p[1] == Vec2{10, 1});
  CHECK(bits(p[2].x) == 0x00000001);
  CHECK(bits(p[2].y) == 0x80000000);

  // Binary-safe: bytes after a NUL are read (the error is on line 2, past it).
  const std::string nul = (dir / "nul.txt").string();
  std::ofstream(nul, std::ios::binary) << std::string("1 2 #\0\n3 4 5\n", 13);
  CHECK_THROWS_WITH(read_points_file(nul), nul + ":2:5: too many fields: a point takes 2 numbers, found 3");

  const std::string empty = (dir / "empty.txt").string();
  std::ofstream(empty, std::ios::binary).flush();
  CHECK(read_points_file(empty).empty());

  const std::string bad = (dir / "bad.txt").string();
  std::ofstream(bad, std::ios::binary) << "0 0\n1 nan\n";
  try {
    read_points_file(bad);
    FAIL("no error");
  } catch (const ParseError& e) {
    CHECK(e.file() == bad);
    CHECK(std::string(e.what()) == bad + ":2:3: not a finite number \"nan\"");
  }

  const std::string missing = (dir / "no" / "such.txt").string();
  try {
    read_points_file(missing);
    FAIL("no error");
  } catch (const IoError& e) {
    CHECK(std::string(e.what()) == missing + ": cannot open for reading: No such file or directory");
  }
  try {
    read_points_file(dir.string());
    FAIL("no error");
  } catch (const IoError& e) {
    CHECK(std::string(e.what()) == dir.string() + ": read failed: Is a directory");
  }
  CHECK_THROWS_AS(read_points_file(missing), Error);
}

TEST_CASE("point list fuzz: mutated lists parse as the reference reads them, or fail cleanly at the right line",
          "[io][fuzz]") {
  const std::string corpus[] = {
      "# a path\n-10 0\n10 1\n",
      "0 0\r\n  10.5\t-2 # c\r\n\r\n1e-45 -0\r\n3.4028235e38 -1.17549435e-38\r\n.5 +5.\r\n1E+3 -1e-3",
      written({{0.1f, -0.2f}, {1e30f, -1e-30f}, {123.456f, 7}, {-0.0f, 16777216}, {FLT_MAX, from_bits(1)}}),
  };
  std::vector<std::string> dictionary = test::text_dictionary();
  for (const char* extra : {"3.4028235e38", "3.4028236e38", "-.5", "1e-45", "7e-46", "Infinity", "NaN", " 1 2\n"})
    dictionary.emplace_back(extra);
  test::Mutator mutator(4242, std::move(dictionary));
  int parsed = 0, rejected = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string input = corpus[i % 3];
    mutator.mutate(input);
    CAPTURE(i, input);
    try {
      const std::vector<Vec2> points = read_points_text(input, "fuzz.txt");
      ++parsed;
      // What parses is what an independent reading gives, bit for bit, and survives a
      // round trip unchanged.
      const std::optional<std::vector<Vec2>> want = reference_read(input);
      REQUIRE(want.has_value());
      REQUIRE(same_bits(points, *want));
      REQUIRE(same_bits(read_points_text(written(points), "again.txt"), points));
    } catch (const ParseError& e) {
      ++rejected;
      REQUIRE(std::string(e.what()).rfind("fuzz.txt:", 0) == 0);
      REQUIRE(e.line() >= 1);
      REQUIRE(e.column() >= 1);
      // The error belongs to its line: the lines before it parse, and the line on its own
      // gives the same message at the same column.
      std::size_t start = 0;
      for (std::uint64_t l = 1; l < e.line(); ++l) {
        start = input.find('\n', start);
        REQUIRE(start != std::string::npos);
        ++start;
      }
      const std::size_t nl = input.find('\n', start);
      const std::string line = input.substr(start, nl == std::string::npos ? std::string::npos : nl + 1 - start);
      REQUIRE(e.column() <= line.size() + 1);
      CHECK_NOTHROW(read_points_text(std::string_view(input).substr(0, start), "fuzz.txt"));
      try {
        read_points_text(line, "line.txt");
        FAIL("the line alone parsed");
      } catch (const ParseError& alone) {
        REQUIRE(alone.line() == 1);
        REQUIRE(alone.column() == e.column());
        REQUIRE(alone.message() == e.message());
      }
    }
    // Any other exception (bad_alloc, length_error, ...) fails the test.
  }
  CHECK(parsed > 2000);
  CHECK(rejected > 10000);
}
