#include "peer_comparison.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "hitgrid/core/error.hpp"
#include "hitgrid/core/pair_io.hpp"
#include "hitgrid/core/detail/stopwatch.hpp"

#ifdef HITGRID_HAVE_PEERS
#include "peers.hpp"
#endif

namespace hitgrid::cli {

const PeerTime& PeerComparison::fastest() const {
  return *std::min_element(peers.begin(), peers.end(), [](const auto& a, const auto& b) { return a.ms < b.ms; });
}

#ifdef HITGRID_HAVE_PEERS

bool peers_built_in() { return true; }

PeerComparison compare_with_peers(const Scene& scene, const std::string& scene_name, const FindPairsOptions& options,
                                  Progress& progress) {
  PeerComparison c;
  c.scene_name = scene_name;
  progress.step(fmt::format("comparing with the peer libraries on {}: hitgrid", scene_name));
  FindPairsReport report;
  const PairList want = find_pairs(scene, options, &report);
  c.threads = report.threads;
  c.hitgrid_ms = report.total_ms;  // scene in memory to sorted pair list, as each peer is timed
  c.pairs = want.size();
  c.pair_hash = pair_list_hash(want);
  for (const peers::Peer& peer : peers::compiled_peers) {
    progress.step(fmt::format("comparing with the peer libraries on {}: {}", scene_name, peer.title));
    Stopwatch clock;
    const PairList got = peer.pairs(scene);
    const double ms = clock.lap_ms();
    if (got != want)
      throw Error(
          fmt::format("{} found a different pair list from hitgrid's on {} ({} pairs, hash {:016x}; hitgrid: {} "
                      "pairs, hash {:016x})",
                      peer.title, scene_name, got.size(), pair_list_hash(got), c.pairs, c.pair_hash));
    c.peers.push_back({std::string(peer.name), std::string(peer.title), ms});
  }
  progress.done();
  return c;
}

#else  // built without bench/peers: the command works the same, without the comparison

bool peers_built_in() { return false; }

PeerComparison compare_with_peers(const Scene&, const std::string&, const FindPairsOptions&, Progress&) {
  throw Error("no peer library is built into this hitgrid command");
}

#endif

}  // namespace hitgrid::cli
