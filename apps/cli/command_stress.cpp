// hitgrid stress [--seconds S] [--rounds R] [--max-n N] [--isa I] [--threads T] [--seed S]:
// random and adversarial scenes, every answer cross-checked (stress_rounds.hpp); a
// mismatch is shrunk to a minimal scene, written as a reproducer, and exits with status 3.
#include <fmt/format.h>
#include <tbb/global_control.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "commands.hpp"
#include "hitgrid/core/detail/json_escape.hpp"
#include "hitgrid/core/error.hpp"
#include "hitgrid/core/scene_text_io.hpp"
#include "peak_memory.hpp"
#include "progress.hpp"
#include "stress_rounds.hpp"

namespace hitgrid::cli {
namespace {

struct StressCommand {
  double seconds = 60.0;
  std::uint64_t rounds = 0;
  std::uint64_t first_round = 0;
  std::uint64_t max_n = 100'000;
  std::string isa = "all";
  unsigned threads = 0;
  std::uint64_t seed = 1;
  std::vector<std::string> families;
  bool no_world = false;
  std::string out_dir = ".";
  double shrink_seconds = 120.0;
};

stress::StressOptions to_options(const StressCommand& cmd) {
  stress::StressOptions o;
  o.max_n = cmd.max_n;
  if (cmd.isa != "all") {
    const auto isa = parse_isa(cmd.isa);
    if (!isa) throw Error("unknown ISA '" + cmd.isa + "'");
    o.isa = resolve_isa(*isa);  // fails here if the machine lacks it
  }
  o.max_threads = cmd.threads != 0 ? cmd.threads : std::max(4u, std::thread::hardware_concurrency());
  o.seed = cmd.seed;
  if (!cmd.families.empty()) {
    o.layouts.clear();
    for (const std::string& f : cmd.families) o.layouts.push_back(*stress::parse_layout(f));
  }
  o.world = !cmd.no_world;
  o.shrink_seconds = cmd.shrink_seconds;
  return o;
}

/// Writes the reproducer: the failure and how to replay it as comments, then the scene.
std::string write_reproducer(const StressCommand& cmd, const stress::RoundPlan& plan,
                             const stress::RoundResult& result) {
  const std::string path =
      (cmd.out_dir.empty() ? std::string(".") : cmd.out_dir) + fmt::format("/stress-seed{}-round{}.scene", cmd.seed, plan.round);
  std::ofstream out(path, std::ios::binary);
  if (!out) throw IoError(path, "cannot open for writing");
  out << "# hitgrid stress reproducer (" << result.reproducer.size() << " shapes"
      << (result.reproducer_minimal ? ", 1-minimal" : ", shrinking stopped at its time limit") << ")\n";
  out << "# " << *result.failure << "\n";
  out << "# replay the round: hitgrid stress --seed " << cmd.seed << " --first-round " << plan.round
      << " --rounds 1 --max-n " << cmd.max_n << " --isa " << cmd.isa << " --threads " << cmd.threads;
  for (const std::string& f : cmd.families) out << " --family " << f;
  out << "\n";
  if (result.world_failure) out << stress::world_line(*result.world_failure) << "\n";
  write_scene_text(out, result.reproducer);
  out.flush();
  if (!out) throw IoError(path, "write failed");
  return path;
}

struct Totals {
  std::uint64_t rounds = 0, shapes = 0, pairs = 0, reference_tests = 0, window_shapes = 0;
  std::uint64_t world_steps = 0, world_pairs = 0, world_events = 0, world_queries = 0;
  std::map<std::string, std::uint64_t> per_layout, per_isa;
  std::uint64_t peak_bytes = 0;  // the process's peak resident memory so far
  std::uint64_t largest_rise = 0;
  std::string peak_round;  // the round that raised the peak the most: "12 (near_max n=4031)"
};

std::string summary_json(const StressCommand& cmd, const Totals& t, double seconds, const std::string& failure,
                         const std::string& reproducer, std::uint64_t reproducer_shapes) {
  auto counts = [](const std::map<std::string, std::uint64_t>& m) {
    std::string s = "{";
    for (const auto& [name, n] : m) s += fmt::format("{}\"{}\": {}", s.size() > 1 ? ", " : "", name, n);
    return s + "}";
  };
  std::string json = fmt::format(
      "{{\"seed\": {}, \"rounds\": {}, \"seconds\": {:.1f}, \"shapes\": {}, \"shapes_per_second\": {:.0f}, "
      "\"pairs\": {}, \"reference_tests\": {}, \"window_shapes\": {}, \"world_steps\": {}, \"world_pairs\": {}, "
      "\"world_events\": {}, \"world_queries\": {}, \"rounds_per_family\": {}, \"rounds_per_isa\": {}, "
      "\"peak_bytes\": {}, \"peak_round\": \"{}\", \"mismatches\": {}",
      cmd.seed, t.rounds, seconds, t.shapes, seconds > 0 ? static_cast<double>(t.shapes) / seconds : 0.0, t.pairs,
      t.reference_tests, t.window_shapes, t.world_steps, t.world_pairs, t.world_events, t.world_queries,
      counts(t.per_layout), counts(t.per_isa), t.peak_bytes, t.peak_round, failure.empty() ? 0 : 1);
  if (!failure.empty())
    json += fmt::format(", \"failure\": \"{}\", \"reproducer\": \"{}\", \"reproducer_shapes\": {}", json_escape(failure),
                        json_escape(reproducer), reproducer_shapes);
  return json + "}";
}

int run(const StressCommand& cmd) {
  const stress::StressOptions options = to_options(cmd);
  // Rounds draw more threads than this machine may have, on purpose (interleavings): let
  // TBB give every arena the workers it asks for.
  tbb::global_control parallelism(tbb::global_control::max_allowed_parallelism, options.max_threads);
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(clock::now() - start).count(); };
  Progress progress;
  Totals totals;
  for (std::uint64_t round = cmd.first_round;; ++round) {
    if (cmd.rounds != 0 && round - cmd.first_round >= cmd.rounds) break;
    if (cmd.seconds != 0 && elapsed() >= cmd.seconds) break;
    const stress::RoundPlan plan = stress::plan_round(options, round);
    progress.step(fmt::format("stress: round {} ({} n={}), {} shapes, {:.2f} M shapes/s, 0 mismatches", round,
                              stress::layout_name(plan.layout), plan.n, totals.shapes,
                              elapsed() > 0 ? static_cast<double>(totals.shapes) / elapsed() / 1e6 : 0.0));
    const stress::RoundResult r =
        stress::run_round(plan, stress::library_finder, stress::library_pair_test, options.shrink_seconds);
    ++totals.rounds;
    totals.shapes += r.shapes;
    totals.pairs += r.counts.pairs;
    totals.reference_tests += r.counts.reference_tests;
    totals.window_shapes += r.counts.window_shapes;
    totals.world_steps += r.world.steps;
    totals.world_pairs += r.world.pairs;
    totals.world_events += r.world.events;
    totals.world_queries += r.world.queries;
    ++totals.per_layout[std::string(stress::layout_name(plan.layout))];
    ++totals.per_isa[std::string(isa_name(plan.tested.isa))];
    if (const std::uint64_t peak = peak_resident_bytes(); peak > totals.peak_bytes) {
      if (peak - totals.peak_bytes > totals.largest_rise) {
        totals.largest_rise = peak - totals.peak_bytes;
        totals.peak_round = fmt::format("{} ({} n={})", round, stress::layout_name(plan.layout), plan.n);
      }
      totals.peak_bytes = peak;
    }
    if (r.failure) {
      progress.done();
      const std::string path = write_reproducer(cmd, plan, r);
      std::fprintf(stderr, "hitgrid: stress: mismatch: %s\nhitgrid: stress: reproducer (%zu shapes) written to %s\n",
                   r.failure->c_str(), r.reproducer.size(), path.c_str());
      std::printf("%s\n", summary_json(cmd, totals, elapsed(), *r.failure, path, r.reproducer.size()).c_str());
      return 3;
    }
  }
  progress.done();
  std::printf("%s\n", summary_json(cmd, totals, elapsed(), "", "", 0).c_str());
  return 0;
}

}  // namespace

Runner add_stress_command(CLI::App& app) {
  auto cmd = std::make_shared<StressCommand>();
  CLI::App* sub = app.add_subcommand(
      "stress",
      "Cross-check every answer on random and adversarial scenes: scalar vs SIMD, thread counts, the exact\n"
      "reference on windows, a World's pairs, events and queries. A mismatch is shrunk to a minimal scene,\n"
      "written as a reproducer, and exits with status 3. Prints a JSON summary; deterministic for a --seed.");
  sub->add_option("--seconds", cmd->seconds, "Stop starting rounds after this many seconds (0: no limit)")
      ->check(CLI::Range(0.0, 1e7))
      ->default_val(60);
  sub->add_option("--rounds", cmd->rounds, "Stop after this many rounds (0: no limit)")->default_val(0);
  sub->add_option("--first-round", cmd->first_round,
                  "Start at this round (a reproducer's round: --first-round R --rounds 1 replays it)")
      ->default_val(0);
  sub->add_option("--max-n", cmd->max_n, "Largest scene of a round")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 26))
      ->default_val(100'000);
  sub->add_option("--isa", cmd->isa, "ISA under test: all (each round draws a SIMD ISA) or auto|scalar|sse2|avx2|avx512")
      ->check(CLI::IsMember({"all", "auto", "scalar", "sse2", "avx2", "avx512"}))
      ->default_val("all");
  sub->add_option("--threads", cmd->threads, "Rounds draw thread counts from 1 to this (0: max(4, hardware threads))")
      ->check(CLI::Range(0u, 256u))
      ->default_val(0);
  sub->add_option("--seed", cmd->seed, "Seed of the rounds")->default_val(1);
  std::vector<std::string> names;
  for (stress::Layout l : stress::all_layouts) names.emplace_back(stress::layout_name(l));
  sub->add_option("--family", cmd->families, "Only these families (repeatable; default: all)")
      ->check(CLI::IsMember(names));
  sub->add_flag("--no-world", cmd->no_world, "Do not drive a World in each round");
  sub->add_option("--out", cmd->out_dir, "Folder for the reproducer of a mismatch")->default_val(".");
  sub->add_option("--shrink-seconds", cmd->shrink_seconds, "Time limit of the shrinker")
      ->check(CLI::Range(0.0, 1e6))
      ->default_val(120);
  sub->parse_complete_callback([cmd] {
    if (cmd->seconds == 0 && cmd->rounds == 0)
      throw CLI::ValidationError("--seconds, --rounds", "give a time limit, a number of rounds, or both");
  });
  return [cmd] { return run(*cmd); };
}

}  // namespace hitgrid::cli
