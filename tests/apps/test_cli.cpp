// End-to-end tests of the `hitgrid` command: known pair files for hand-checked scenes,
// generated lattice and mixed scenes against the all-pairs exact reference, identical
// output for every ISA and thread count, errors and exit statuses, --stats and --help.

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>

#include "hitgrid/broadphase/brute_force.hpp"
#include "hitgrid/core/pair_io.hpp"
#include "hitgrid/core/scene_file.hpp"
#include "hitgrid/simd/isa.hpp"
#include "support/run_command.hpp"
#include "support/sanitizer_builds.hpp"
#include "support/scratch_dir.hpp"

namespace fs = std::filesystem;
using namespace hitgrid;

namespace {

using CliResult = test::CommandResult;

using test::slurp;

fs::path scratch_dir() {
  static const test::ScratchDir dir("hitgrid_cli_test");
  return dir.path();
}

fs::path scratch(const std::string& name) { return scratch_dir() / name; }

/// Runs `hitgrid ARGS` through the shell, capturing stdout, stderr and the exit status.
CliResult hitgrid_cli(const std::string& args) { return test::run_command(HITGRID_CLI_PATH, args); }

std::string data(const std::string& name) { return std::string(HITGRID_TEST_DATA_DIR) + "/e2e/" + name; }

}  // namespace

TEST_CASE("hitgrid pairs reproduces the hand-checked pair files", "[cli]") {
  for (const char* name : {"touching", "near_miss"}) {
    INFO(name);
    const CliResult r = hitgrid_cli("pairs '" + data(std::string(name) + ".scene") + "'");
    CHECK(r.status == 0);
    CHECK(r.err.empty());
    CHECK(r.out == slurp(data(std::string(name) + ".pairs")));
  }
}

TEST_CASE("hitgrid pairs on generated lattice and mixed scenes equals the all-pairs exact reference", "[cli]") {
  for (const char* family : {"lattice", "mixed"}) {
    INFO(family);
    const std::string scene = scratch(std::string(family) + ".scene").string();
    const std::string pairs = scratch(std::string(family) + ".pairs").string();
    REQUIRE(hitgrid_cli(std::string("gen ") + family + " --n 20000 --seed 3 -o '" + scene + "'").status == 0);
    const CliResult r = hitgrid_cli("pairs '" + scene + "' -o '" + pairs + "' --stats");
    REQUIRE(r.status == 0);
    const PairList want = brute_force_pairs(read_scene_file(scene));
    const PairList got = read_pairs_file(pairs);
    CHECK(got.size() == want.size());
    CHECK(got == want);
    CHECK(want.size() > 1000);  // a scene with real work in it
    CHECK_THAT(r.err, Catch::Contains("\"pairs\": " + std::to_string(want.size()) + ","));
    CHECK_THAT(r.err, Catch::Contains("\"find_pairs_ms\": "));
    CHECK_THAT(r.err, Catch::Contains("\"shapes\": 20000,"));

    // The binary formats give the same answer.
    const std::string bscene = scratch(std::string(family) + ".hgs").string();
    const std::string bpairs = scratch(std::string(family) + ".hgp").string();
    REQUIRE(hitgrid_cli(std::string("gen ") + family + " --n 20000 --seed 3 --binary -o '" + bscene + "'").status == 0);
    REQUIRE(hitgrid_cli("pairs '" + bscene + "' --binary -o '" + bpairs + "'").status == 0);
    CHECK(read_pairs_file(bpairs) == want);
  }
}

TEST_CASE("hitgrid pairs output is byte-identical for every ISA, thread count and method", "[cli]") {
  for (const char* family : {"uniform", "clustered", "long_tail", "mixed", "lattice"}) {
    const std::string scene = scratch(std::string(family) + "_small.scene").string();
    REQUIRE(hitgrid_cli(std::string("gen ") + family + " --n 5000 --seed 11 -o '" + scene + "'").status == 0);
    const CliResult reference = hitgrid_cli("pairs '" + scene + "' --method brute_force --threads 1 --isa scalar");
    REQUIRE(reference.status == 0);
    REQUIRE(!reference.out.empty());
    for (Isa isa : supported_isas()) {
      for (int threads : {1, 2, 3}) {
        INFO(family << " " << isa_name(isa) << " threads " << threads);
        const CliResult r = hitgrid_cli("pairs '" + scene + "' --isa " + std::string(isa_name(isa)) + " --threads " +
                                        std::to_string(threads));
        CHECK(r.status == 0);
        CHECK(r.out == reference.out);
      }
    }
  }
}

TEST_CASE("hitgrid pairs output is byte-identical for every cell size", "[cli]") {
  // --cell sets the home-cell grid's cell side, rounded down to a power of two (the
  // command has no option for the tiled grid's, which stays automatic). The cell sizes:
  // automatic; 0.01 (0.0078125), below every shape's size, so that every shape is large
  // and the tiled grid alone finds the pairs; 0.3 (0.25), a mix of small and large shapes;
  // 64, a scene of about 70 units in a few cells; 1e30 (2^99), the whole scene in one cell.
  // The grid is asked for by name, so that the cell is used whatever `auto` picks; in
  // memory with 1 and 3 threads, and streamed in bands of about a thousand pairs.
  const std::pair<const char*, const char*> cells[] = {
      {"0", ""}, {"0.01", "0.0078125"}, {"0.3", "0.25"}, {"64", "64"}, {"1e30", "6.338253001141147e+29"}};
  for (const char* family : {"uniform", "clustered", "long_tail", "mixed", "lattice"}) {
    const std::string scene = scratch(std::string(family) + "_cells.scene").string();
    REQUIRE(hitgrid_cli(std::string("gen ") + family + " --n 5000 --seed 11 -o '" + scene + "'").status == 0);
    const CliResult reference = hitgrid_cli("pairs '" + scene + "'");
    REQUIRE(reference.status == 0);
    REQUIRE(!reference.out.empty());
    for (const auto& [cell, rounded] : cells) {
      for (const char* how : {" --threads 1", " --threads 3", " --threads 2 --stream --band-mib 0.008"}) {
        INFO(family << " --cell " << cell << how);
        const CliResult r = hitgrid_cli("pairs '" + scene + "' --method grid --stats --cell " + cell + how);
        CHECK(r.status == 0);
        CHECK(r.out == reference.out);
        // The cell the grid used, as the report gives it: the option did take effect.
        CHECK_THAT(r.err, Catch::Contains("\"method\": \"grid\","));
        if (*rounded != '\0') CHECK_THAT(r.err, Catch::Contains("\"cell_size\": " + std::string(rounded) + ","));
      }
    }
  }
}

TEST_CASE("hitgrid pairs --stream writes the same bytes, text and binary, for every family, band, ISA and thread count",
          "[cli][stream]") {
  for (const char* family : {"uniform", "clustered", "long_tail", "mixed", "lattice"}) {
    const std::string scene = scratch(std::string(family) + "_stream.scene").string();
    REQUIRE(hitgrid_cli(std::string("gen ") + family + " --n 8000 --seed 12 -o '" + scene + "'").status == 0);
    const CliResult text = hitgrid_cli("pairs '" + scene + "'");
    REQUIRE(text.status == 0);
    const std::string binary_path = scratch(std::string(family) + "_whole.hgp").string();
    REQUIRE(hitgrid_cli("pairs '" + scene + "' --binary -o '" + binary_path + "'").status == 0);
    const std::string binary = slurp(binary_path);
    // Bands of about 100 pairs, of about a thousand, and all in one (the default).
    for (const char* band : {"0.0008", "0.008", "256"}) {
      for (Isa isa : supported_isas()) {
        for (int threads : {1, 2}) {
          if (test::asan_build && threads == 1) continue;  // support/sanitizer_builds.hpp
          INFO(family << " band " << band << " MiB " << isa_name(isa) << " threads " << threads);
          const std::string common = std::string(" --stream --band-mib ") + band + " --isa " +
                                     std::string(isa_name(isa)) + " --threads " + std::to_string(threads);
          const CliResult streamed = hitgrid_cli("pairs '" + scene + "'" + common);
          CHECK(streamed.status == 0);
          CHECK(streamed.out == text.out);
          const std::string streamed_path = scratch(std::string(family) + "_streamed.hgp").string();
          const CliResult b =
              hitgrid_cli("pairs '" + scene + "' --binary -o '" + streamed_path + "' --stats" + common);
          CHECK(b.status == 0);
          CHECK(slurp(streamed_path) == binary);
          // The binary file read back gives the list's hash, as the in-memory form prints.
          CHECK_THAT(b.err, Catch::Contains("\"pair_hash\": \""));
        }
      }
    }
  }
}

TEST_CASE("hitgrid pairs --stream --binary needs an output file", "[cli][stream]") {
  const std::string scene = scratch("stream_usage.scene").string();
  REQUIRE(hitgrid_cli("gen uniform --n 100 --seed 1 -o '" + scene + "'").status == 0);
  const CliResult r = hitgrid_cli("pairs '" + scene + "' --stream --binary");
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Catch::Contains("--stream --binary needs -o FILE"));
  CHECK(r.out.empty());
  CHECK(hitgrid_cli("pairs '" + scene + "' --stream --band-mib 0").status == 2);
}

TEST_CASE("the main job reports pairs, stage times and pairs per second", "[cli]") {
  const CliResult r = hitgrid_cli("--family mixed --n 20000 --seed 5 --threads 2 --stats");
  REQUIRE(r.status == 0);
  CHECK_THAT(r.out, Catch::Contains("scene      mixed n=20000 seed=5"));
  CHECK_THAT(r.out, Catch::Contains("generate"));
  CHECK_THAT(r.out, Catch::Contains("find_pairs (total)"));
  CHECK_THAT(r.out, Catch::Contains("pairs/s"));
  CHECK_THAT(r.err, Catch::StartsWith("{\"scene\": \"mixed n=20000 seed=5\""));
  CHECK_THAT(r.err, Catch::Contains("\"threads\": 2,"));
}

TEST_CASE("the main job reports hitgrid alone: the peer comparison is bench/peers' compare_peers", "[cli]") {
  // The command links no peer library whatever the build found (cli_links_no_peer_libraries
  // checks the binary), so neither its report nor its --stats object has a peer line, and
  // the options that ran and sized the comparison are gone.
  const CliResult r = hitgrid_cli("--family clustered --n 4000 --seed 5 --repeat 1 --threads 2 --stats");
  REQUIRE(r.status == 0);
  CHECK_THAT(r.out, Catch::StartsWith("scene      clustered n=4000 seed=5"));
  CHECK_THAT(r.out, !Catch::Contains("peers ", Catch::CaseSensitive::No));
  CHECK_THAT(r.out, !Catch::Contains("fastest peer"));
  CHECK_THAT(r.err, Catch::StartsWith("{\"scene\": \"clustered n=4000 seed=5\""));
  CHECK_THAT(r.err, Catch::EndsWith("}\n"));
  CHECK_THAT(r.err, !Catch::Contains("peers"));
  CHECK_THAT(r.err, Catch::Contains("\"peak_rss_bytes\": "));

  for (const char* gone : {"--no-peers", "--peers-n 4000", "--peers-n=4000"}) {
    INFO(gone);
    const CliResult bad = hitgrid_cli(std::string("--family clustered --n 4000 --repeat 1 ") + gone);
    CHECK(bad.status == 2);
    CHECK(bad.out.empty());  // rejected before any work
  }

  const CliResult help = hitgrid_cli("--help");
  REQUIRE(help.status == 0);
  for (const char* word : {"peer", "CGAL", "Bullet", "Box2D"}) {
    INFO(word);
    CHECK_THAT(help.out, !Catch::Contains(word, Catch::CaseSensitive::No));
  }
}

TEST_CASE("hitgrid reports bad input with its location and exit status 1", "[cli]") {
  const fs::path bad = scratch("bad.scene");
  std::ofstream(bad) << "s 0 0 1 1\nc 1 1 -2\n";
  CliResult r = hitgrid_cli("pairs '" + bad.string() + "'");
  CHECK(r.status == 1);
  CHECK(r.out.empty());
  CHECK_THAT(r.err, Catch::StartsWith("hitgrid: error: " + bad.string() + ":2:"));
  CHECK_THAT(r.err, Catch::Contains("negative radius"));

  r = hitgrid_cli("pairs '" + scratch("does_not_exist.scene").string() + "'");
  CHECK(r.status == 1);
  CHECK_THAT(r.err, Catch::Contains("does_not_exist.scene"));

  const fs::path truncated = scratch("truncated.hgs");
  REQUIRE(hitgrid_cli("gen uniform --n 100 --binary -o '" + truncated.string() + "'").status == 0);
  fs::resize_file(truncated, fs::file_size(truncated) - 5);
  r = hitgrid_cli("pairs '" + truncated.string() + "'");
  CHECK(r.status == 1);
  CHECK_THAT(r.err, Catch::Contains(truncated.string() + ": byte "));
}

TEST_CASE("hitgrid rejects bad usage with exit status 2, and --help works on every verb", "[cli]") {
  CHECK(hitgrid_cli("--isa sse9").status == 2);
  CHECK(hitgrid_cli("--n -5").status == 2);
  CHECK(hitgrid_cli("gen").status == 2);
  CHECK(hitgrid_cli("gen spiral").status == 2);
  CHECK(hitgrid_cli("pairs").status == 2);
  CHECK(hitgrid_cli("pairs x.scene --cell -1").status == 2);
  CHECK(hitgrid_cli("frobnicate").status == 2);
  for (const char* verb : {"", "gen ", "pairs "}) {
    INFO(verb);
    const CliResult r = hitgrid_cli(std::string(verb) + "--help");
    CHECK(r.status == 0);
    CHECK_THAT(r.out, Catch::Contains("--"));
  }
  CHECK_THAT(hitgrid_cli("pairs --help").out, Catch::Contains("--threads"));
  CHECK_THAT(hitgrid_cli("gen --help").out, Catch::Contains("--seed"));
  CHECK_THAT(hitgrid_cli("--help").out, Catch::Contains("--family"));
}

TEST_CASE("hitgrid stress runs rounds, deterministic for a seed, and prints a JSON summary", "[cli][stress]") {
  const std::string args = "stress --rounds 6 --seconds 0 --max-n 800 --seed 7 --threads 2 --out '" + scratch_dir().string() + "'";
  const CliResult a = hitgrid_cli(args), b = hitgrid_cli(args);
  REQUIRE(a.status == 0);
  CHECK(a.err.empty());
  CHECK_THAT(a.out, Catch::StartsWith("{\"seed\": 7, \"rounds\": 6, "));
  CHECK_THAT(a.out, Catch::Contains("\"mismatches\": 0}"));
  // The same rounds: the same shapes, pairs and reference tests (times differ).
  auto field = [](const std::string& json, const std::string& name) {
    const auto at = json.find("\"" + name + "\": ");
    return at == std::string::npos ? std::string("missing") : json.substr(at, json.find(',', at) - at);
  };
  for (const char* name : {"shapes", "pairs", "reference_tests", "world_pairs", "world_events", "rounds_per_family"})
    CHECK(field(a.out, name) == field(b.out, name));
  // A later round alone is the same round.
  const CliResult one = hitgrid_cli("stress --first-round 5 --rounds 1 --max-n 800 --seed 7 --threads 2");
  REQUIRE(one.status == 0);
  CHECK_THAT(one.out, Catch::Contains("\"rounds\": 1,"));
  CHECK(hitgrid_cli("stress --seconds 0 --rounds 0").status == 2);
  CHECK_THAT(hitgrid_cli("stress --help").out, Catch::Contains("--max-n"));
}
