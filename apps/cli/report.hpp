// What a pair-finding run reports: the human-readable summary on stdout and the --stats
// JSON object on stderr, both built from one RunSummary so they can never disagree.
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "hitgrid/broadphase/find_pairs.hpp"
#include "hitgrid/core/scene.hpp"

namespace hitgrid::cli {

struct RunSummary {
  std::string scene_name;  // "uniform n=1000000 seed=1" or a file path
  std::uint64_t segments = 0, circles = 0, boxes = 0;
  std::uint64_t pairs = 0;
  std::optional<std::uint64_t> pair_hash;  // empty: not known (a streamed text list)
  Isa isa_requested = Isa::automatic;
  FindPairsReport find;                // stages of find_pairs, its total, ISA, threads, passes
  std::vector<StageTime> before_find;  // e.g. generate, read
  std::vector<StageTime> after_find;   // e.g. write
  unsigned runs = 1;                   // find_pairs repeated: find is the median run
  double min_find_ms = 0.0;
  double first_find_ms = 0.0;  // the first run, which pays for fresh memory
  std::uint64_t peak_bytes = 0;  // peak resident memory of the work reported; 0 where unknown

  void set_scene(const std::string& name, const Scene& scene);
};

/// One JSON object on one line, no trailing newline.
std::string stats_json(const RunSummary& run);
/// The human-readable report.
void print_report(std::FILE* out, const RunSummary& run);

}  // namespace hitgrid::cli
