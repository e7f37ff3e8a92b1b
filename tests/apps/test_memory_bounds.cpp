// Peak memory of `hitgrid pairs` on pathological layouts, measured in a child process (its
// own VmHWM, reported by --stats), so that other tests in this process cannot blur it.
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <numbers>
#include <string>

#include "hitgrid/core/scene_binary_io.hpp"
#include "hitgrid/core/scene_file.hpp"
#include "hitgrid/core/splitmix64.hpp"
#include "support/pathological_scenes.hpp"
#include "support/scratch_dir.hpp"

namespace fs = std::filesystem;
using namespace hitgrid;

namespace {

struct ChildRun {
  int status = -1;
  long max_rss_kb = 0;
};

ChildRun run_pairs(const std::string& scene, const std::string& out, const std::string& stats,
                   const std::string& extra = "") {
  const std::string cmd = std::string("'") + HITGRID_CLI_PATH + "' pairs '" + scene + "' -o '" + out +
                          "' --binary --stats " + extra + " 2>'" + stats + "'";
  const int raw = std::system(cmd.c_str());
  ChildRun run;
  run.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  std::ifstream in(stats);
  const std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto at = json.find("\"peak_rss_bytes\": ");
  if (at != std::string::npos) run.max_rss_kb = std::stol(json.substr(at + 18)) / 1024;
  return run;
}

}  // namespace

TEST_CASE("pathological layouts stay within a memory bound linear in shapes plus pairs", "[grid][memory]") {
#ifdef HITGRID_SANITIZED_BUILD
  // AddressSanitizer's shadow memory and free quarantine make resident memory meaningless
  // here; the Release build runs this test.
  WARN("memory bounds are checked in the Release build only");
  return;
#endif
  // The bound: a fixed process baseline (runtime, TBB) plus a per-shape and a per-pair
  // allowance. 400 bytes per shape covers the scene, the packed shapes, the tile entries
  // and the sort's scratch with room to spare; 64 bytes per pair covers the per-thread
  // pair buffers, their merge and the output. A layout that made memory grow with the
  // world's area or a shape's length would blow far past it.
  constexpr long baseline_kb = 64 * 1024;
  const test::ScratchDir scratch("hitgrid_memory");
  const fs::path& dir = scratch.path();
  for (const auto& [name, scene] : test::broadphase_scenes(200'000)) {
    INFO(name);
    const std::string path = (dir / (name + ".hgs")).string();
    write_scene_file(path, scene, SceneFormat::binary);
    const ChildRun run = run_pairs(path, (dir / (name + ".hgp")).string(), (dir / "stats.json").string());
    REQUIRE(run.status == 0);
    REQUIRE(run.max_rss_kb > 0);
    const auto pairs_bytes = fs::file_size(dir / (name + ".hgp"));  // 8 bytes per pair + header
    const long bound_kb = baseline_kb + static_cast<long>((400 * scene.size() + 8 * pairs_bytes) / 1024);
    CHECK(run.max_rss_kb <= bound_kb);
    UNSCOPED_INFO(name << ": " << run.max_rss_kb << " KiB peak, bound " << bound_kb << " KiB");
  }
}

namespace {

/// n chords of a circle of radius 100, each from a random point to about the opposite
/// one: they cross near the centre, about 6.3 million pairs for 4000 chords, 400 times
/// more pairs than shapes.
Scene crossing_chords(int n) {
  SplitMix64 rng(5);
  auto u = [&] { return static_cast<double>(rng.next() >> 11) * 0x1p-53; };
  Scene scene;
  for (int i = 0; i < n; ++i) {
    const double a = 2 * std::numbers::pi * u(), b = a + std::numbers::pi + (2 * u() - 1);
    scene.add(Segment{{static_cast<float>(100 * std::cos(a)), static_cast<float>(100 * std::sin(a))},
                      {static_cast<float>(100 * std::cos(b)), static_cast<float>(100 * std::sin(b))}});
  }
  return scene;
}

}  // namespace

TEST_CASE("pairs take about their 8 bytes each, and streamed they take no memory that grows with their number",
          "[grid][memory]") {
#ifdef HITGRID_SANITIZED_BUILD
  WARN("memory bounds are checked in the Release build only");
  return;
#endif
  // docs/contracts.md, contract 4: in memory, peak <= 32 MiB + 400 bytes per shape +
  // 9 bytes per pair (the list's 8, the keys' chunks and pieces around it); streamed,
  // peak <= 32 MiB + 400 bytes per shape + 4 bands. Here the pairs' 8 bytes each are
  // 50 MB: keeping all of them twice, or once while streaming, breaks the bound.
  constexpr long baseline_kb = 32 * 1024;
  const test::ScratchDir scratch("hitgrid_memory_pairs");
  const fs::path& dir = scratch.path();
  const Scene scene = crossing_chords(4000);
  const std::string path = (dir / "chords.hgs").string();
  write_scene_file(path, scene, SceneFormat::binary);
  const std::string stats = (dir / "stats.json").string();

  const ChildRun whole = run_pairs(path, (dir / "whole.hgp").string(), stats, "--threads 2");
  REQUIRE(whole.status == 0);
  const auto pairs = (fs::file_size(dir / "whole.hgp") - 32) / 8;
  REQUIRE(pairs > 6'000'000);
  const long whole_bound_kb = baseline_kb + static_cast<long>((400 * scene.size() + 9 * pairs) / 1024);
  CHECK(whole.max_rss_kb <= whole_bound_kb);
  UNSCOPED_INFO("in memory: " << whole.max_rss_kb << " KiB peak, bound " << whole_bound_kb << " KiB");

  const ChildRun streamed = run_pairs(path, (dir / "streamed.hgp").string(), stats, "--threads 2 --stream --band-mib 1");
  REQUIRE(streamed.status == 0);
  const long streamed_bound_kb = baseline_kb + static_cast<long>(400 * scene.size() / 1024) + 4 * 1024;
  CHECK(streamed.max_rss_kb <= streamed_bound_kb);
  UNSCOPED_INFO("streamed: " << streamed.max_rss_kb << " KiB peak, bound " << streamed_bound_kb << " KiB");
  CHECK(fs::file_size(dir / "streamed.hgp") == fs::file_size(dir / "whole.hgp"));
}
