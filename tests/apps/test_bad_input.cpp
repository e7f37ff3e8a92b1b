// Contract 5 end to end (docs/contracts.md): every kind of bad input the contract lists,
// through the command line and through the library. The command must exit with status 1
// (bad input) or 2 (bad usage), name the file and line:column or byte offset, write nothing
// on stdout and create no output file; the library must throw the typed error with the
// same place. And nothing is dropped: the same file with the bad record replaced by a
// valid one reads every shape, before and after that record, and the command's pairs
// include theirs.
//
// Pair files are read by the library only (no verb reads them): tests/core/test_pair_io.cpp.

#include <bit>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "binary_codec.hpp"
#include "hitgrid/broadphase/brute_force.hpp"
#include "hitgrid/broadphase/find_pairs.hpp"
#include "hitgrid/core/error.hpp"
#include "hitgrid/core/pair_io.hpp"
#include "hitgrid/core/scene_binary_io.hpp"
#include "hitgrid/core/scene_file.hpp"
#include "hitgrid/world/world.hpp"
#include "support/run_command.hpp"
#include "support/scratch_dir.hpp"

namespace fs = std::filesystem;
using namespace hitgrid;

namespace {

fs::path scratch(const std::string& name) {
  static const test::ScratchDir dir("hitgrid_bad_input");
  return dir / name;
}

test::CommandResult hitgrid_cli(const std::string& args) { return test::run_command(HITGRID_CLI_PATH, args); }

void write_file(const fs::path& p, const std::string& bytes) { std::ofstream(p, std::ios::binary) << bytes; }

// Two valid shapes before the bad line and two after; the valid replacement line touches
// all of them, so its pairs show that none was dropped.
const std::string before = "s 0 0 2 2\nc 1 1 1\n";
const std::string after = "s 0 2 2 0\nb 0 0 1 1\n";
const std::string replacement = "s 0 0 2 0\n";

struct TextCase {
  std::string line;     // the bad record, on line 3
  std::string where;    // ":3:COL"
  std::string message;  // the contract's message
};

/// Runs `hitgrid pairs FILE -o OUT` on the bytes and checks the failure: status 1, the
/// message "hitgrid: error: FILE<where>: <message>", nothing on stdout, no OUT.
void check_cli_rejects(const fs::path& file, const std::string& where, const std::string& message) {
  const fs::path out = scratch("out.pairs");
  fs::remove(out);
  const test::CommandResult r = hitgrid_cli("pairs '" + file.string() + "' -o '" + out.string() + "'");
  CHECK(r.status == 1);
  CHECK(r.out.empty());
  CHECK(r.err == "hitgrid: error: " + file.string() + where + ": " + message + "\n");
  CHECK_FALSE(fs::exists(out));
}

/// The same file with the bad record replaced: every shape read, and the command's pairs
/// are the library's exact ones, with the shapes from before and after the record.
void check_nothing_dropped(const fs::path& file, std::size_t shapes) {
  const Scene scene = read_scene_file(file.string());
  CHECK(scene.size() == shapes);
  const test::CommandResult r = hitgrid_cli("pairs '" + file.string() + "'");
  REQUIRE(r.status == 0);
  std::ostringstream want;
  write_pairs_text(want, brute_force_pairs(scene));
  CHECK(r.out == want.str());
  CHECK_THAT(r.out, Catch::Contains("s 0 s 2"));  // the first segment and the replacement...
  CHECK_THAT(r.out, Catch::Contains("s 1 b 0"));  // ... the replacement and the last box
}

std::string put_f32(std::string bytes, std::size_t at, float v) {
  const auto bits = std::bit_cast<std::uint32_t>(v);
  for (int i = 0; i < 4; ++i) bytes[at + i] = static_cast<char>(bits >> (8 * i));
  return bytes;
}
std::string put_u64(std::string bytes, std::size_t at, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) bytes[at + i] = static_cast<char>(v >> (8 * i));
  return bytes;
}
/// A correct checksum for deliberately edited bytes, so that the checks behind it run.
std::string resealed(std::string b) {
  return put_u64(b, b.size() - 8, detail::word_checksum(b.data(), b.size() - 8));
}

}  // namespace

TEST_CASE("bad text scenes fail through the command and the library, at their line and column", "[cli][bad_input]") {
  const TextCase cases[] = {
      {"s 0 0 nan 1", ":3:7", "not a finite number \"nan\""},
      {"c 1 1 -inf", ":3:7", "not a finite number \"-inf\""},
      {"c 1 1 -3", ":3:7", "circle 1: negative radius -3"},
      {"b 2 0 1 1", ":3:3", "box 0: inverted box: minx 2 > maxx 1"},
      {"s 0 0 1e39 1", ":3:7", "number \"1e39\" is out of float32 range (largest 3.40282347e+38)"},
      {"x 1 2 3", ":3:1", "unknown shape kind \"x\" (expected s, c or b)"},
      {"c 1 1", ":3:6", "too few fields: a circle takes 3 numbers, found 2"},
      {"b 0 0 1 1 1", ":3:11", "too many fields: a box takes 4 numbers, found 5"},
      {"s 0 0 4x 1", ":3:7", "malformed number \"4x\""},
  };
  for (const TextCase& c : cases) {
    INFO(c.line);
    const fs::path file = scratch("bad.scene");
    write_file(file, before + c.line + "\n" + after);
    check_cli_rejects(file, c.where, c.message);
    try {
      read_scene_file(file.string());
      FAIL("the library read it");
    } catch (const ParseError& e) {
      CHECK(std::string(e.what()) == file.string() + c.where + ": " + c.message);
      CHECK(e.line() == 3);
    }
  }
  const fs::path fixed = scratch("fixed.scene");
  write_file(fixed, before + replacement + after);
  check_nothing_dropped(fixed, 5);
}

TEST_CASE("bad binary scenes fail through the command and the library, at their byte offset", "[cli][bad_input]") {
  // The valid scene in binary: segments (0 0 2 2), (0 0 2 0), (0 2 2 0); circle (1 1 1);
  // box (0 0 1 1). Columns: ax 40, ay 52, bx 64, by 76, cx 88, cy 92, r 96, minx 100,
  // miny 104, maxx 108, maxy 112, checksum 116.
  const fs::path text = scratch("valid.scene");
  write_file(text, before + replacement + after);
  std::ostringstream out;
  write_scene_binary(out, read_scene_file(text.string()));
  const std::string good = out.str();
  REQUIRE(good.size() == 124);
  const fs::path fixed = scratch("fixed.hgs");
  write_file(fixed, good);
  check_nothing_dropped(fixed, 5);

  struct BinaryCase {
    std::string bytes, where, message;
  };
  const BinaryCase cases[] = {
      {resealed(put_f32(good, 80, std::nanf(""))), ": byte 80", "segment 1: by is NaN"},
      {resealed(put_f32(good, 88, std::numeric_limits<float>::infinity())), ": byte 88", "circle 0: cx is infinite"},
      {resealed(put_f32(good, 96, -2.0f)), ": byte 96", "circle 0: negative radius -2"},
      {resealed(put_f32(good, 100, 5.0f)), ": byte 100", "box 0: inverted box: minx 5 > maxx 1"},
      {good.substr(0, 100), ": byte 100",
       "truncated: the header declares 3 segments, 1 circle and 1 box, which take 124 bytes, but the file has 100"},
      {put_u64(good, 24, (std::uint64_t{1} << 30) + 1), ": byte 24", "circle count 1073741825 exceeds the limit of 1073741824"},
      {good + "xyz", ": byte 124", "3 bytes of trailing data after the checksum"},
  };
  for (const BinaryCase& c : cases) {
    INFO(c.message);
    const fs::path file = scratch("bad.hgs");
    write_file(file, c.bytes);
    check_cli_rejects(file, c.where, c.message);
    try {
      read_scene_file(file.string());
      FAIL("the library read it");
    } catch (const ParseError& e) {
      CHECK(std::string(e.what()) == file.string() + c.where + ": " + c.message);
      CHECK(e.is_binary());
    }
  }
  // A flipped bit anywhere in the data: the checksum.
  std::string flipped = good;
  flipped[70] = static_cast<char>(flipped[70] ^ 4);
  const fs::path file = scratch("flipped.hgs");
  write_file(file, flipped);
  const test::CommandResult r = hitgrid_cli("pairs '" + file.string() + "'");
  CHECK(r.status == 1);
  CHECK_THAT(r.err, Catch::StartsWith("hitgrid: error: " + file.string() + ": byte 116: checksum mismatch"));
}

TEST_CASE("a missing or unreadable file fails with status 1 and its name", "[cli][bad_input]") {
  const fs::path missing = scratch("no_such.scene");
  const test::CommandResult r = hitgrid_cli("pairs '" + missing.string() + "'");
  CHECK(r.status == 1);
  CHECK(r.out.empty());
  CHECK_THAT(r.err, Catch::StartsWith("hitgrid: error: " + missing.string() + ": cannot open for reading"));
  CHECK_THROWS_AS(read_scene_file(missing.string()), IoError);
  // An output that cannot be written: status 1 too.
  write_file(scratch("ok.scene"), "s 0 0 1 1\n");
  const test::CommandResult w =
      hitgrid_cli("pairs '" + scratch("ok.scene").string() + "' -o '" + scratch("no_dir/x.pairs").string() + "'");
  CHECK(w.status == 1);
  CHECK_THAT(w.err, Catch::Contains("no_dir/x.pairs"));
}

TEST_CASE("bad options fail before any work: status 2 on the command line, hitgrid::Error in the library",
          "[cli][bad_input]") {
  write_file(scratch("ok.scene"), "s 0 0 1 1\n");
  const std::string scene = " '" + scratch("ok.scene").string() + "'";
  for (const std::string& args : std::vector<std::string>{
           "pairs" + scene + " --threads 5000", "pairs" + scene + " --cell -1", "pairs" + scene + " --cell nan",
        "pairs" + scene + " --isa avx9", "pairs" + scene + " --method magic", "gen uniform --n 2000000000",
        "gen spiral", "--repeat 0", "stress --max-n 0", "stress --family spiral", "nosuchverb", "nosuchverb --help",
        "pairs" + scene + " extra"}) {
    INFO(args);
    const test::CommandResult r = hitgrid_cli(args);
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK_FALSE(r.err.empty());
  }
  CHECK_THAT(hitgrid_cli("nosuchverb --help").err, Catch::Contains("unknown verb 'nosuchverb'"));

  for (float cell : {-1.0f, std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()}) {
    FindPairsOptions o;
    o.cell_size = cell;
    CHECK_THROWS_AS(PairFinder(o), Error);
    o.cell_size = 0.0f;
    o.large_cell_size = cell;
    CHECK_THROWS_AS(find_pairs(Scene{}, o), Error);
    WorldOptions w;
    w.margin = cell;
    CHECK_THROWS_AS(World(w), Error);
  }
}

TEST_CASE("invalid shapes through the library: a typed error naming the shape, and nothing changed",
          "[bad_input]") {
  Scene scene;
  scene.add(Segment{{0, 0}, {2, 2}});
  scene.add(Circle{{1, 1}, 1});
  const Scene kept = scene;
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  auto message_of = [&](auto shape) -> std::string {
    try {
      scene.add(shape);
    } catch (const InvalidShapeError& e) {
      return e.what();
    }
    return "accepted";
  };
  CHECK(message_of(Segment{{0, nan}, {1, 1}}) == "segment 1: ay is NaN");
  CHECK(message_of(Circle{{inf, 0}, 1}) == "circle 1: cx is infinite");
  CHECK(message_of(Circle{{0, 0}, -1}) == "circle 1: negative radius -1");
  CHECK(message_of(Box{{2, 0}, {1, 1}}) == "box 0: inverted box: minx 2 > maxx 1");
  CHECK(scene == kept);
  scene.add(Segment{{0, 2}, {2, 0}});  // and a valid shape after them gets the next id
  CHECK(scene.segment_count() == 2);
  CHECK(find_pairs(scene).size() == 3);

  // The world names the position in the batch or the handle. (world.hpp promises
  // InvalidShapeError; it throws its base class hitgrid::Error today.)
  World world;
  const ShapeHandle h = world.create({Circle{{0, 0}, 1}});
  CHECK_THROWS_WITH(world.create({Circle{{0, 0}, -1}}), "create: shape 0 of 1: negative radius -1");
  CHECK_THROWS_WITH(world.move(h, Segment{{nan, 0}, {1, 1}}), "move: shape (slot 0, generation 1): ax is NaN");
  CHECK_THROWS_AS(world.move(h, Segment{{nan, 0}, {1, 1}}), Error);
  CHECK(world.size() == 1);
  CHECK(std::get<Circle>(world.shape(h)) == Circle{{0, 0}, 1});
}
