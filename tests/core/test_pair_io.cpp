// Pair lists: the hash, the text and binary formats (exact output, golden bytes from
// tools/scenes_reference.py, every error message), round trips and a fuzz test.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "binary_codec.hpp"
#include "core/io_fuzz.hpp"
#include "hitgrid/core/error.hpp"
#include "hitgrid/core/pair_io.hpp"
#include "hitgrid/core/scene_binary_io.hpp"
#include "support/pair_literals.hpp"
#include "support/scratch_dir.hpp"

using namespace hitgrid;
using test::pair, test::S, test::C, test::B;

namespace {

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string text(std::span<const Pair> pairs) {
  std::ostringstream out;
  write_pairs_text(out, pairs);
  return out.str();
}

std::string binary(std::span<const Pair> pairs) {
  std::ostringstream out;
  write_pairs_binary(out, pairs);
  return out.str();
}

std::string text_error(std::string_view t) {
  try {
    read_pairs_text(t, "t.txt");
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

std::string binary_error(std::string_view b) {
  try {
    read_pairs_binary(b, "t.hgp");
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

void put_u64(std::string& b, std::size_t at, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) b[at + i] = static_cast<char>(v >> (8 * i));
}
void reseal(std::string& b) {
  if (b.size() >= 8) put_u64(b, b.size() - 8, detail::word_checksum(b.data(), b.size() - 8));
}

const PairList small = {pair(S, 0, S, 1), pair(S, 0, C, 0), pair(S, 1, S, 3), pair(S, 3, B, 1),
                        pair(C, 0, C, 1), pair(C, 1, B, 0), pair(B, 0, B, 1)};

PairList random_sorted_pairs(std::uint64_t seed, std::size_t n) {
  SplitMix64 rng(seed);
  PairList pairs;
  for (std::size_t i = 0; i < n; ++i) {
    const auto id = [&] {
      const auto kind = static_cast<ShapeKind>(rng.next() % 3);
      // Mostly small ids, sometimes the extremes.
      const std::uint32_t index = rng.next() % 8 == 0 ? ShapeId::max_count - 1 - rng.next() % 2
                                                      : static_cast<std::uint32_t>(rng.next() % 100000);
      return ShapeId(kind, index);
    };
    const ShapeId a = id(), b = id();
    if (a != b) pairs.emplace_back(a, b);
  }
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  return pairs;
}

}  // namespace

TEST_CASE("pair_list_hash is FNV-1a over the count and the keys", "[io]") {
  // Pinned by tools/scenes_reference.py.
  CHECK(pair_list_hash({}) == 0xa8c7f832281a39c5ull);
  const Pair one[] = {pair(S, 3, B, 7)};
  CHECK(one[0].key() == 0x0000000380000007ull);
  CHECK(pair_list_hash(one) == 0xe2c5a99098a49ad0ull);
  CHECK(pair_list_hash(small) == 0x3aa6a5282b7b9db2ull);
  // Order matters: the hash is of the list, not of the set.
  PairList reversed(small.rbegin(), small.rend());
  CHECK(pair_list_hash(reversed) != pair_list_hash(small));
}

TEST_CASE("pair text: the writer's exact output", "[io]") {
  const PairList pairs = {pair(S, 3, S, 17), pair(S, 3, C, 0), pair(S, 5, B, 2),
                          pair(C, 1, C, 4),  pair(C, 2, B, 7), pair(B, 0, B, 3)};
  CHECK(std::is_sorted(pairs.begin(), pairs.end()));
  CHECK(text(pairs) == "s 3 s 17\ns 3 c 0\ns 5 b 2\nc 1 c 4\nc 2 b 7\nb 0 b 3\n");
  CHECK(text({}) == "");
  const Pair extreme[] = {pair(S, 0, B, ShapeId::max_count - 1)};
  CHECK(text(extreme) == "s 0 b 1073741823\n");
}

TEST_CASE("pair text: reading, with comments, blanks, tabs, CRLF, no final newline", "[io]") {
  CHECK(read_pairs_text("# none\n\n", "t.txt").empty());
  CHECK(read_pairs_text("s 0 s 1\r\n  s 0\tc 0 # the first circle\n\ns 1 s 3\ns 3 b 1\nc 0 c 1\nc 1 b 0\nb 0 b 1",
                        "t.txt") == small);
  CHECK(read_pairs_text(file_bytes(HITGRID_TEST_DATA_DIR "/pairs_small.txt"), "p.txt") == small);
  CHECK(read_pairs_text("s 007 s 0010\n", "t.txt") == PairList{pair(S, 7, S, 10)});
}

TEST_CASE("pair text: every error, exactly", "[io]") {
  CHECK(text_error("s 0 x 1") == "t.txt:1:5: unknown shape kind \"x\" (expected s, c or b)");
  CHECK(text_error("\nq 0 s 1") == "t.txt:2:1: unknown shape kind \"q\" (expected s, c or b)");
  CHECK(text_error("s 1x s 2") == "t.txt:1:3: malformed shape id \"1x\"");
  CHECK(text_error("s -1 s 2") == "t.txt:1:3: malformed shape id \"-1\"");
  CHECK(text_error("s +1 s 2") == "t.txt:1:3: malformed shape id \"+1\"");
  CHECK(text_error("s 1 s 2.0") == "t.txt:1:7: malformed shape id \"2.0\"");
  CHECK(text_error("s 1073741824 s 2") ==
        "t.txt:1:3: shape id \"1073741824\" is out of range (ids are below 1073741824)");
  CHECK(text_error("s 1 s 99999999999") ==
        "t.txt:1:7: shape id \"99999999999\" is out of range (ids are below 1073741824)");
  CHECK(text_error("s") == "t.txt:1:2: too few fields: a pair takes 4 (kind id kind id), found 1");
  CHECK(text_error("s 0") == "t.txt:1:4: too few fields: a pair takes 4 (kind id kind id), found 2");
  CHECK(text_error("s 0 s   # 1") == "t.txt:1:6: too few fields: a pair takes 4 (kind id kind id), found 3");
  CHECK(text_error("s 0 s 1 s") == "t.txt:1:9: too many fields: a pair takes 4 (kind id kind id), found 5");
  CHECK(text_error("s 0 s 1 s 2 s 3") == "t.txt:1:9: too many fields: a pair takes 4 (kind id kind id), found 8");
  CHECK(text_error("s 3 s 3") == "t.txt:1:5: a shape cannot pair with itself: s 3 s 3");
  CHECK(text_error("s 17 s 3") == "t.txt:1:1: pair not in canonical order: s 17 s 3 (write s 3 s 17)");
  CHECK(text_error("c 0 s 5") == "t.txt:1:1: pair not in canonical order: c 0 s 5 (write s 5 c 0)");
  CHECK(text_error("s 0 s 1\ns 0 s 1") == "t.txt:2:1: duplicate pair s 0 s 1 (also on line 1)");
  CHECK(text_error("s 0 s 2\n# c\n  s 0 s 1") == "t.txt:3:3: pairs not sorted: s 0 s 1 comes after s 0 s 2 (line 1)");
  CHECK(text_error("s 0 c 0\nb 0 b 1\r\nc 0 c 1\r\n") ==
        "t.txt:3:1: pairs not sorted: c 0 c 1 comes after b 0 b 1 (line 2)");
}

TEST_CASE("pair binary: golden bytes, layout, round trips", "[io]") {
  const std::string g = file_bytes(HITGRID_TEST_DATA_DIR "/pairs_small.hgp");
  REQUIRE(g.size() == 88);
  CHECK(binary(small) == g);
  CHECK(read_pairs_binary(g, "p.hgp") == small);
  CHECK(binary({}) == std::string("\x89HGP\r\n\x1a\n\x01\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0"
                                  "\x0d\x77\xca\x58\x20\x16\xb4\x4f",
                                  32));
  CHECK(read_pairs_binary(binary({}), "e.hgp").empty());
  const PairList many = random_sorted_pairs(5, 20000);
  REQUIRE(many.size() > 19000);
  CHECK(read_pairs_binary(binary(many), "m.hgp") == many);
  CHECK(read_pairs_text(text(many), "m.txt") == many);
}

TEST_CASE("pair binary: header errors and the allocation guard", "[io]") {
  const std::string g = file_bytes(HITGRID_TEST_DATA_DIR "/pairs_small.hgp");
  CHECK(binary_error("") == "t.hgp: byte 0: truncated header: the file has 0 bytes, a pair list header has 24");
  CHECK(binary_error(g.substr(0, 5)) ==
        "t.hgp: byte 5: truncated header: the file has 5 bytes, a pair list header has 24");
  CHECK(binary_error(g.substr(0, 20)) ==
        "t.hgp: byte 20: truncated header: the file has 20 bytes, a pair list header has 24");
  CHECK(binary_error("s 0 s 1\n") == "t.hgp: byte 0: not a hitgrid binary pair list (bad magic)");
  CHECK(binary_error(std::string(scene_binary_magic) + g.substr(8)) ==
        "t.hgp: byte 0: this is a hitgrid binary scene, not a pair list");
  std::string b = g;
  b[8] = 9;
  CHECK(binary_error(b) == "t.hgp: byte 8: unsupported version 9 (this build reads version 1)");
  b = g;
  b[15] = 1;
  CHECK(binary_error(b) == "t.hgp: byte 12: unsupported flags 16777216 (version 1 defines none)");
  b = g;
  put_u64(b, 16, 1ull << 61);
  CHECK(binary_error(b) ==
        "t.hgp: byte 88: truncated: the header declares 2305843009213693952 pairs, but the file has 88 bytes, room "
        "for 7");
  put_u64(b, 16, ~0ull);
  CHECK(binary_error(b) ==
        "t.hgp: byte 88: truncated: the header declares 18446744073709551615 pairs, but the file has 88 bytes, room "
        "for 7");
  CHECK(binary_error(g.substr(0, 60)) ==
        "t.hgp: byte 60: truncated: the header declares 7 pairs, but the file has 60 bytes, room for 3");
  CHECK(binary_error(g.substr(0, 28)) ==
        "t.hgp: byte 28: truncated: the header declares 7 pairs, but the file has 28 bytes, room for 0");
  CHECK(binary_error(g + "ab") == "t.hgp: byte 88: 2 bytes of trailing data after the checksum");
  b = g;
  b[30] = static_cast<char>(b[30] ^ 4);
  CHECK(binary_error(b) ==
        "t.hgp: byte 80: checksum mismatch: stored 0x574115431b79780f, computed 0x8bd515431b79780f (the file is "
        "corrupt)");
}

TEST_CASE("pair binary: bad records are reported at their offset", "[io]") {
  const std::string g = file_bytes(HITGRID_TEST_DATA_DIR "/pairs_small.hgp");
  const auto with_record2 = [&](std::uint64_t key) {
    std::string b = g;
    put_u64(b, 40, key);
    reseal(b);
    return binary_error(b);
  };
  const auto sid = [](ShapeKind k, std::uint64_t i) { return (std::uint64_t{static_cast<std::uint8_t>(k)} << 30) | i; };
  CHECK(with_record2((3ull << 62) | 5) == "t.hgp: byte 40: pair 2: invalid shape kind in key 0xc000000000000005");
  CHECK(with_record2((sid(S, 1) << 32) | sid(S, 1)) ==
        "t.hgp: byte 40: pair 2: a shape cannot pair with itself: s 1 s 1");
  CHECK(with_record2((sid(S, 3) << 32) | sid(S, 1)) ==
        "t.hgp: byte 40: pair 2: not in canonical order: s 3 before s 1");
  CHECK(with_record2(pair(S, 0, C, 0).key()) == "t.hgp: byte 40: pair 2: duplicate of pair 1, s 0 c 0");
  CHECK(with_record2(pair(S, 0, S, 1).key()) ==
        "t.hgp: byte 40: pair 2: pairs not sorted: s 0 s 1 comes after s 0 c 0");
  CHECK(with_record2(pair(S, 0, C, 5).key()) == "no error");
}

TEST_CASE("pair files: both formats, auto-detected", "[io]") {
  const test::ScratchDir scratch("hitgrid_test_pairs");
  const std::filesystem::path& dir = scratch.path();
  const PairList many = random_sorted_pairs(9, 5000);
  const std::string t = (dir / "p.txt").string(), b = (dir / "p.hgp").string();
  write_pairs_file(t, many, PairFormat::text);
  write_pairs_file(b, many, PairFormat::binary);
  CHECK(file_bytes(t) == text(many));
  CHECK(file_bytes(b) == binary(many));
  CHECK(read_pairs_file(t) == many);
  CHECK(read_pairs_file(b) == many);
  CHECK(read_pairs_file(HITGRID_TEST_DATA_DIR "/pairs_small.hgp") == small);
  CHECK_THROWS_WITH(read_pairs_file((dir / "none").string()),
                    (dir / "none").string() + ": cannot open for reading: No such file or directory");
  std::ofstream(t) << "s 0 s 1\ns 1 s 0\n";
  CHECK_THROWS_WITH(read_pairs_file(t), t + ":2:1: pair not in canonical order: s 1 s 0 (write s 0 s 1)");
}

TEST_CASE("pair fuzz: mutated text and binary lists parse or fail cleanly", "[io][fuzz]") {
  const PairList some = random_sorted_pairs(3, 12);
  const std::string texts[] = {text(some), file_bytes(HITGRID_TEST_DATA_DIR "/pairs_small.txt")};
  const std::string binaries[] = {binary(some), file_bytes(HITGRID_TEST_DATA_DIR "/pairs_small.hgp")};
  test::Mutator mutator(31337, test::text_dictionary());
  int text_ok = 0, text_bad = 0, binary_ok = 0;
  std::map<std::string, int> binary_kinds;
  for (int i = 0; i < 20000; ++i) {
    CAPTURE(i);
    std::string t = texts[i % 2];
    mutator.mutate(t);
    try {
      const PairList p = read_pairs_text(t, "fuzz.txt");
      ++text_ok;
      REQUIRE(p.size() <= t.size());
      REQUIRE(read_pairs_text(text(p), "again.txt") == p);
    } catch (const ParseError& e) {
      ++text_bad;
      REQUIRE(std::string(e.what()).rfind("fuzz.txt:", 0) == 0);
    }
    std::string b = binaries[i % 2];
    mutator.mutate(b);
    if (mutator.below(2) == 0) reseal(b);
    if (b.size() >= 24 && mutator.below(8) == 0) put_u64(b, 16, mutator.below(1ull << 40));
    try {
      const PairList p = read_pairs_binary(b, "fuzz.hgp");
      ++binary_ok;
      REQUIRE(binary(p) == b);
    } catch (const ParseError& e) {
      REQUIRE(std::string(e.what()).rfind("fuzz.hgp: byte ", 0) == 0);
      const std::string m = e.message();
      binary_kinds[m.substr(0, m.find_first_of("0123456789:"))]++;
    }
  }
  CHECK(text_ok > 1000);
  CHECK(text_bad > 8000);
  CHECK(binary_ok > 200);
  CHECK(binary_kinds["pair "] > 200);  // record checks reached
  CHECK(binary_kinds["checksum mismatch"] > 400);
}
