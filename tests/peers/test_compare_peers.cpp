// bench/peers' compare_peers program, run as a user runs it (scripts/main.sh does after the
// main job): its one line and its --stats object must report hitgrid's own pair count and
// hash for the scene, name every compiled-in peer, and reject bad usage with status 2.
// And the `hitgrid` command, which no longer carries the comparison, must not offer it.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "hitgrid/broadphase/find_pairs.hpp"
#include "hitgrid/core/generators.hpp"
#include "hitgrid/core/pair_io.hpp"
#include "peers.hpp"
#include "support/run_command.hpp"

using namespace hitgrid;

#ifdef HITGRID_COMPARE_PEERS_PATH

namespace {

test::CommandResult compare_peers(const std::string& args) { return test::run_command(HITGRID_COMPARE_PEERS_PATH, args); }

std::string hex16(std::uint64_t v) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(v));
  return text;
}

/// open + text + close, by append: GCC 12 reports a false -Wrestrict in the inlined
/// `"literal" + std::string(...)` at -O3.
std::string enclosed(std::string_view open, std::string_view text, std::string_view close) {
  std::string s(open);
  s.append(text);
  s.append(close);
  return s;
}

}  // namespace

TEST_CASE("compare_peers prints one line and a JSON object with hitgrid's pairs and every peer's time", "[peers]") {
  GeneratorParams params;
  params.n = 4000;
  params.seed = 5;
  const PairList want = find_pairs(generate(Family::clustered, params));
  REQUIRE(want.size() > 100);  // a scene with real work in it
  const std::string hash = hex16(pair_list_hash(want));

  const test::CommandResult r = compare_peers("--family clustered --n 4000 --seed 5 --threads 2 --stats");
  REQUIRE(r.status == 0);
  CHECK_THAT(r.out, Catch::StartsWith("peers      clustered n=4000 seed=5: hitgrid "));
  CHECK_THAT(r.out, Catch::Contains(" ms (2 threads), fastest peer "));
  CHECK_THAT(r.out, Catch::Contains(" ms on 1 thread ("));
  CHECK_THAT(r.out, Catch::EndsWith(", same pairs\n"));
  CHECK(r.out.find('\n') == r.out.size() - 1);  // one line
  for (const peers::Peer& peer : peers::compiled_peers) {
    INFO(peer.title);
    CHECK_THAT(r.out, Catch::Contains(enclosed(" ", peer.title, " ")));
  }

  // --stats: one JSON object on stderr, nothing else there (stderr is not a terminal here,
  // so no progress line either).
  CHECK_THAT(r.err,
             Catch::StartsWith("{\"scene\": \"clustered n=4000 seed=5\", \"threads\": 2, \"pairs\": " +
                               std::to_string(want.size()) + ", \"pair_hash\": \"" + hash + "\", \"hitgrid_ms\": "));
  CHECK_THAT(r.err, Catch::Contains(", \"peers_ms\": {\""));
  for (const peers::Peer& peer : peers::compiled_peers) {
    INFO(peer.name);
    CHECK_THAT(r.err, Catch::Contains(enclosed("\"", peer.name, "\": ")));
  }
  CHECK_THAT(r.err, Catch::Contains("}, \"fastest\": \""));
  CHECK_THAT(r.err, Catch::Contains(", \"fastest_ms\": "));
  CHECK_THAT(r.err, Catch::EndsWith("}\n"));
  CHECK(r.err.find('\n') == r.err.size() - 1);

  // Without --stats, stderr stays empty; the defaults are uniform and seed 1.
  const test::CommandResult plain = compare_peers("--n 3000");
  REQUIRE(plain.status == 0);
  CHECK_THAT(plain.out, Catch::StartsWith("peers      uniform n=3000 seed=1: hitgrid "));
  CHECK(plain.err.empty());
}

TEST_CASE("compare_peers rejects bad usage with exit status 2, and --help works", "[peers]") {
  for (const char* args : {"--family spiral", "--n 0", "--n -5", "--n many", "--threads -1", "--repeat 3", "extra",
                           "--family"}) {
    INFO(args);
    const test::CommandResult r = compare_peers(args);
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK_FALSE(r.err.empty());
  }
  const test::CommandResult help = compare_peers("--help");
  CHECK(help.status == 0);
  CHECK_THAT(help.out, Catch::Contains("--family"));
  CHECK_THAT(help.out, Catch::Contains("--stats"));
}

#endif  // HITGRID_COMPARE_PEERS_PATH

#ifdef HITGRID_CLI_PATH

TEST_CASE("the hitgrid command, built next to the peers, does not offer the comparison", "[peers]") {
  const test::CommandResult help = test::run_command(HITGRID_CLI_PATH, "--help");
  REQUIRE(help.status == 0);
  CHECK_THAT(help.out, Catch::Contains("--family"));
  for (const char* word : {"peer", "CGAL", "Bullet", "Box2D"}) {
    INFO(word);
    CHECK_THAT(help.out, !Catch::Contains(word, Catch::CaseSensitive::No));
  }
  CHECK(test::run_command(HITGRID_CLI_PATH, "--n 1000 --repeat 1 --no-peers").status == 2);
  CHECK(test::run_command(HITGRID_CLI_PATH, "--n 1000 --repeat 1 --peers-n 100").status == 2);
}

#endif  // HITGRID_CLI_PATH
