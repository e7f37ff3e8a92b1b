#include "peer_comparison.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "hitgrid/core/detail/json_escape.hpp"
#include "hitgrid/core/detail/stopwatch.hpp"
#include "hitgrid/core/error.hpp"
#include "hitgrid/core/pair_io.hpp"
#include "peers.hpp"

namespace hitgrid::peers {
namespace {

/// Three significant digits without an exponent: 9.12, 26.0, 406, 22596.
std::string ms_text(double ms) {
  return ms < 10.0 ? fmt::format("{:.2f}", ms) : ms < 100.0 ? fmt::format("{:.1f}", ms) : fmt::format("{:.0f}", ms);
}

}  // namespace

const PeerTime& PeerComparison::fastest() const {
  return *std::min_element(peers.begin(), peers.end(), [](const auto& a, const auto& b) { return a.ms < b.ms; });
}

PeerComparison compare_with_peers(const Scene& scene, const std::string& scene_name, const FindPairsOptions& options,
                                  const ComparisonStep& step) {
  PeerComparison c;
  c.scene_name = scene_name;
  if (step) step("hitgrid");
  // A PairFinder keeps its scratch blocks between calls, as a program calling it every
  // frame sees it; one untimed call first, so the timed one measures the work and not the
  // first touch of fresh pages.
  PairFinder finder(options);
  (void)finder.find_pairs(scene);
  FindPairsReport report;
  const PairList want = finder.find_pairs(scene, &report);
  c.threads = report.threads;
  c.hitgrid_ms = report.total_ms;  // scene in memory to sorted pair list, as each peer is timed
  c.pairs = want.size();
  c.pair_hash = pair_list_hash(want);
  for (const Peer& peer : compiled_peers) {
    if (step) step(peer.title);
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
  return c;
}

std::string peer_line(const PeerComparison& c) {
  std::vector<PeerTime> by_time = c.peers;
  std::sort(by_time.begin(), by_time.end(), [](const auto& a, const auto& b) { return a.ms < b.ms; });
  std::string others;
  for (std::size_t i = 1; i < by_time.size(); ++i)
    others += fmt::format("{}{} {} ms", i == 1 ? "; " : ", ", by_time[i].title, ms_text(by_time[i].ms));
  return fmt::format(
      "peers      {}: hitgrid {} ms ({} thread{}), fastest peer {} {} ms on 1 thread ({:.1f}x{}), same pairs",
      c.scene_name, ms_text(c.hitgrid_ms), c.threads, c.threads == 1 ? "" : "s", by_time.front().title,
      ms_text(by_time.front().ms), c.hitgrid_ms > 0.0 ? by_time.front().ms / c.hitgrid_ms : 0.0, others);
}

std::string peers_json(const PeerComparison& c) {
  std::string times;
  for (const PeerTime& p : c.peers) times += fmt::format("{}\"{}\": {:.3f}", times.empty() ? "" : ", ", p.name, p.ms);
  return fmt::format(
      "{{\"scene\": \"{}\", \"threads\": {}, \"pairs\": {}, \"pair_hash\": \"{:016x}\", \"hitgrid_ms\": {:.3f}, "
      "\"peers_ms\": {{{}}}, \"fastest\": \"{}\", \"fastest_ms\": {:.3f}}}",
      json_escape(c.scene_name), c.threads, c.pairs, c.pair_hash, c.hitgrid_ms, times, c.fastest().name,
      c.fastest().ms);
}

}  // namespace hitgrid::peers
