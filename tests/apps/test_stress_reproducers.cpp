// Regression tests from `hitgrid stress`: every reproducer in tests/data/stress (a scene
// that once made two answers disagree, shrunk to a few shapes, with the failure as a
// comment) is replayed on every ISA, several thread counts and cell sizes against the
// exact reference, the independent GMP one included; a reproducer of a world failure
// ("# world: ..." line) replays the world's frames too.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "hitgrid/core/scene_file.hpp"
#include "stress_checks.hpp"
#include "stress_rounds.hpp"
#include "support/stress_planted.hpp"

using namespace hitgrid;
using namespace hitgrid::stress;

TEST_CASE("every stress reproducer in tests/data/stress passes", "[stress][regression]") {
  const std::filesystem::path dir = std::filesystem::path(HITGRID_TEST_DATA_DIR) / "stress";
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".scene") continue;
    ++files;
    INFO(entry.path().filename().string());
    const Scene scene = read_scene_file(entry.path().string());
    CHECK(scene.size() > 0);
    const PairList want = reference_pairs(scene, test::gmp_pair_test);
    CHECK(reference_pairs(scene, library_pair_test) == want);
    for (Isa isa : supported_isas())
      for (unsigned threads : {1u, 2u, 3u})
        for (float cell : {0.0f, 0x1p-100f, 1.0f, 0x1p100f}) {
          INFO(describe(FinderConfig{isa, threads, cell, 0.0f}));
          CHECK(library_finder(scene, {isa, threads, cell, 0.0f}) == want);
        }
    std::ifstream in(entry.path());
    for (std::string line; std::getline(in, line);) {
      if (auto world = parse_world_line(line)) {
        for (Isa isa : supported_isas()) {
          world->options.isa = isa;
          INFO(world_line(*world));
          const auto failure = check_world(scene, *world, test::gmp_pair_test);
          CHECK_FALSE(failure.has_value());
          if (failure) WARN(*failure);
        }
      }
    }
  }
  CHECK(files > 0);
}

TEST_CASE("a world line of a reproducer reads back", "[stress]") {
  WorldChecks c;
  c.seed = 12345678901234567ull;
  c.frames = 7;
  c.options.threads = 3;
  c.options.isa = Isa::sse2;
  c.options.cell_size = 0x1.8p-3f;
  const auto back = parse_world_line(world_line(c));
  REQUIRE(back.has_value());
  CHECK(back->seed == c.seed);
  CHECK(back->frames == 7);
  CHECK(back->queries == c.queries);
  CHECK(back->options.threads == 3);
  CHECK(back->options.isa == Isa::sse2);
  CHECK(back->options.cell_size == c.options.cell_size);
  CHECK_FALSE(parse_world_line("# world: nonsense").has_value());
}
