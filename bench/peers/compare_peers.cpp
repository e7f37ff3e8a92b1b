// compare_peers: hitgrid against the peer libraries on one standard scene, in one line.
//
//   compare_peers [--family F] [--n N] [--seed S] [--threads T] [--stats]
//
// Generates the scene (docs/scenes.md; defaults uniform, 100,000 shapes, seed 1), runs
// hitgrid's find_pairs on T threads and every peer compiled into hitgrid_peers (Box2D,
// CGAL, Bullet: those installed) on one thread, once each, checks that each peer found
// hitgrid's exact pair list, and prints
//   peers      uniform n=100000 seed=1: hitgrid H ms (2 threads), fastest peer CGAL C ms ...
// With --stats, one JSON object on stderr (peer_comparison.hpp). scripts/main.sh runs it
// after the `hitgrid` command's main job; it is a program of its own so that the installed
// command never needs the peer libraries.
//
// Exit status: 0 every peer gave hitgrid's pairs, 1 a peer did not (the message names it)
// or another failure, 2 bad usage.
#include <fmt/format.h>
#include <malloc.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <new>
#include <string>
#include <string_view>

#include "hitgrid/core/error.hpp"
#include "hitgrid/core/generators.hpp"
#include "peer_comparison.hpp"

namespace {

/// What is running, on one status line of stderr that is erased when done; only when
/// stderr is a terminal, so that scripts and pipes get clean output. The peers take
/// seconds at 100,000 shapes on some families.
class StatusLine {
 public:
  StatusLine() : active_(isatty(STDERR_FILENO) == 1) {}
  ~StatusLine() { done(); }
  StatusLine(const StatusLine&) = delete;
  StatusLine& operator=(const StatusLine&) = delete;

  void step(std::string_view what) {
    if (!active_) return;
    fmt::print(stderr, "\r\033[Kcompare_peers: {}...", what);
    std::fflush(stderr);
    shown_ = true;
  }
  void done() {
    if (!shown_) return;
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
    shown_ = false;
  }

 private:
  bool active_;
  bool shown_ = false;
};

struct Options {
  std::string family = "uniform";
  std::uint64_t n = 100'000;
  std::uint64_t seed = 1;
  unsigned threads = 0;
  bool stats = false;
};

int run(const Options& o) {
  const auto family = hitgrid::parse_family(o.family);
  if (!family) throw hitgrid::Error("unknown scene family '" + o.family + "'");
  hitgrid::GeneratorParams params;
  params.n = o.n;
  params.seed = o.seed;
  hitgrid::FindPairsOptions options;
  options.threads = o.threads;
  const std::string name = fmt::format("{} n={} seed={}", o.family, o.n, o.seed);

  StatusLine status;
  status.step("generating " + name);
  const hitgrid::Scene scene = hitgrid::generate(*family, params);
  const hitgrid::peers::PeerComparison c = hitgrid::peers::compare_with_peers(
      scene, name, options, [&](std::string_view who) { status.step(fmt::format("{} on {}", who, name)); });
  status.done();
  fmt::print("{}\n", hitgrid::peers::peer_line(c));
  std::fflush(stdout);
  if (o.stats) fmt::print(stderr, "{}\n", hitgrid::peers::peers_json(c));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // The memory policy of the hitgrid command and of peers_bench, for every contender
  // alike: freed memory stays in the heap, so that the timed calls do not pay the
  // kernel's first-touch page faults for memory an earlier call already used.
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, -1);

  CLI::App app{
      "compare_peers: hitgrid against the peer libraries built in (CGAL, Bullet, Box2D) on one built-in scene.\n"
      "Runs hitgrid's find_pairs and each peer once, checks that every peer finds the same pairs (exit status 1\n"
      "otherwise) and prints one line with the times."};
  Options o;
  app.add_option("--family", o.family, "Built-in scene: uniform|clustered|long_tail|mixed|lattice")
      ->check(CLI::IsMember({"uniform", "clustered", "long_tail", "mixed", "lattice"}))
      ->default_val("uniform");
  app.add_option("--n", o.n, "Number of shapes")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 30))
      ->default_val(100'000);
  app.add_option("--seed", o.seed, "Generator seed")->default_val(1);
  app.add_option("--threads", o.threads, "hitgrid's worker threads (0: all hardware threads); the peers use one")
      ->check(CLI::Range(0u, 4096u))
      ->default_val(0);
  app.add_flag("--stats", o.stats, "Also print the comparison as one JSON object on stderr");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }

  try {
    return run(o);
  } catch (const hitgrid::Error& e) {
    std::fprintf(stderr, "compare_peers: error: %s\n", e.what());
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "compare_peers: error: out of memory\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "compare_peers: error: %s\n", e.what());
  }
  return 1;
}
