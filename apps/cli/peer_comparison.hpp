// The main job's last line: hitgrid against the peer libraries people use today
// (bench/peers: CGAL, Bullet, Box2D) on the same family at a smaller N, when they were
// built into this binary (HITGRID_HAVE_PEERS). The full comparison, with repetitions and
// every family and N, is the benchmark report (scripts/bench_report.sh).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hitgrid/broadphase/find_pairs.hpp"
#include "hitgrid/core/scene.hpp"
#include "progress.hpp"

namespace hitgrid::cli {

struct PeerTime {
  std::string name;   // "cgal": the benchmark's and the JSON's key
  std::string title;  // "CGAL"
  double ms = 0.0;
};

struct PeerComparison {
  std::string scene_name;  // "uniform n=100000 seed=1"
  unsigned threads = 1;    // hitgrid's; every peer runs on one thread
  double hitgrid_ms = 0.0;
  std::uint64_t pairs = 0;
  std::uint64_t pair_hash = 0;
  std::vector<PeerTime> peers;  // every compiled-in peer; never empty

  const PeerTime& fastest() const;
};

/// Whether any peer library is compiled into this command.
bool peers_built_in();

/// Runs find_pairs (these options) and then each compiled-in peer once on the scene,
/// timing each call. Throws hitgrid::Error when a peer's pair list differs from hitgrid's:
/// a fast wrong answer is not a result. Call only when peers_built_in().
PeerComparison compare_with_peers(const Scene& scene, const std::string& scene_name, const FindPairsOptions& options,
                                  Progress& progress);

}  // namespace hitgrid::cli
