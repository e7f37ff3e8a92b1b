// The main job (no verb): generate a built-in scene, find every pair, report.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "common_options.hpp"
#include "hitgrid/core/detail/stopwatch.hpp"
#include "hitgrid/core/error.hpp"
#include "hitgrid/core/generators.hpp"
#include "hitgrid/core/pair_io.hpp"
#include "peak_memory.hpp"
#include "progress.hpp"
#include "report.hpp"

namespace hitgrid::cli {
namespace {

struct RunCommand {
  std::string family = "uniform";
  std::uint64_t n = 1'000'000;
  std::uint64_t seed = 1;
  unsigned repeat = 3;
  CommonOptions common;
};

int run(const RunCommand& cmd) {
  const auto family = parse_family(cmd.family);
  if (!family) throw Error("unknown scene family '" + cmd.family + "'");
  const FindPairsOptions options = cmd.common.to_find_options();
  // One finder for every run: it keeps its scratch between runs, as an engine calling it
  // every frame would, so runs after the first do not pay for fresh memory.
  PairFinder finder(options);

  Progress progress;
  RunSummary summary;
  summary.isa_requested = options.isa;
  GeneratorParams params;
  params.n = cmd.n;
  params.seed = cmd.seed;

  progress.step(fmt::format("generating {} n={} seed={}", cmd.family, cmd.n, cmd.seed));
  Stopwatch clock;
  const Scene scene = generate(*family, params);
  summary.before_find.push_back({"generate", clock.lap_ms()});
  summary.set_scene(fmt::format("{} n={} seed={}", cmd.family, cmd.n, cmd.seed), scene);

  // Repeated runs report the one with the median total time (the machines are shared and
  // noisy); every run must give the same pairs, compared by their hash: keeping the first
  // run's list while a later run finds its own would double the pairs' memory.
  PairList pairs;  // each run's pairs (its memory reused, or given back if large: max_kept_bytes)
  std::uint64_t first_hash = 0;
  std::vector<FindPairsReport> reports(cmd.repeat);
  for (unsigned r = 0; r < cmd.repeat; ++r) {
    progress.step(fmt::format("finding pairs (run {} of {})", r + 1, cmd.repeat));
    finder.find_pairs(scene, pairs, &reports[r]);
    const std::uint64_t hash = pair_list_hash(pairs);
    if (r == 0) first_hash = hash;
    if (hash != first_hash) throw Error("runs gave different pair lists");
  }
  summary.first_find_ms = reports.front().total_ms;  // the cold run: fresh memory, page faults
  std::sort(reports.begin(), reports.end(), [](const auto& a, const auto& b) { return a.total_ms < b.total_ms; });
  summary.find = reports[cmd.repeat / 2];
  summary.runs = cmd.repeat;
  summary.min_find_ms = reports.front().total_ms;
  progress.done();
  summary.pairs = pairs.size();
  summary.pair_hash = first_hash;

  summary.peak_bytes = peak_resident_bytes();
  print_report(stdout, summary);
  if (cmd.common.stats) std::fprintf(stderr, "%s\n", stats_json(summary).c_str());
  return 0;
}

}  // namespace

Runner add_run_command(CLI::App& app) {
  auto cmd = std::make_shared<RunCommand>();
  app.add_option("--family", cmd->family, "Built-in scene: uniform|clustered|long_tail|mixed|lattice")
      ->check(CLI::IsMember({"uniform", "clustered", "long_tail", "mixed", "lattice"}))
      ->default_val("uniform");
  app.add_option("--n", cmd->n, "Number of shapes")
      ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{1} << 30))
      ->default_val(1'000'000);
  app.add_option("--seed", cmd->seed, "Generator seed")->default_val(1);
  app.add_option("--repeat", cmd->repeat,
                 "Find the pairs this many times; report the median run (the first, on fresh memory, is reported too)")
      ->check(CLI::Range(1u, 1000u))
      ->default_val(3);
  cmd->common.add_to(app);
  return [cmd] { return run(*cmd); };
}

}  // namespace hitgrid::cli
