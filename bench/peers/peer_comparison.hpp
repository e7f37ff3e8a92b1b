// compare_peers' work: hitgrid against the peer libraries compiled into hitgrid_peers
// (CGAL, Bullet, Box2D: those installed) on one scene, each run once and held to hitgrid's
// pair list, reported as one line and as one JSON object. A glance, not a benchmark: the
// full comparison, with repetitions and every family and N, is peers_bench
// (scripts/bench_report.sh).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "hitgrid/broadphase/find_pairs.hpp"
#include "hitgrid/core/scene.hpp"

namespace hitgrid::peers {

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

/// Told what is about to run ("hitgrid", then each peer's title), for a progress line.
using ComparisonStep = std::function<void(std::string_view)>;

/// Runs find_pairs (these options) and then each compiled-in peer once on the scene,
/// timing each call. Throws hitgrid::Error naming the peer when its pair list differs
/// from hitgrid's: a fast wrong answer is not a result.
PeerComparison compare_with_peers(const Scene& scene, const std::string& scene_name, const FindPairsOptions& options,
                                  const ComparisonStep& step = {});

/// The comparison as one line, without its newline, of the form "peers      uniform
/// n=100000 seed=1: hitgrid H ms (2 threads), fastest peer CGAL C ms on 1 thread (Rx;
/// Bullet B ms, Box2D D ms), same pairs", where R = C / H and the other peers follow
/// fastest first.
std::string peer_line(const PeerComparison& c);

/// The comparison as one JSON object on one line, without a newline: scene, threads,
/// pairs, pair_hash, hitgrid_ms, peers_ms (per peer name), fastest, fastest_ms.
std::string peers_json(const PeerComparison& c);

}  // namespace hitgrid::peers
