// hitgrid pairs SCENE [-o OUT] [--binary]: every colliding pair of a scene file.
#include <cstdio>
#include <memory>
#include <string>

#include "commands.hpp"
#include "common_options.hpp"
#include "hitgrid/core/pair_io.hpp"
#include "hitgrid/core/scene_file.hpp"
#include "hitgrid/core/detail/stopwatch.hpp"
#include "output.hpp"
#include "peak_memory.hpp"
#include "progress.hpp"
#include "report.hpp"

namespace hitgrid::cli {
namespace {

struct PairsCommand {
  std::string scene_path;
  std::string output;
  bool binary = false;
  CommonOptions common;
};

int run(const PairsCommand& cmd) {
  const FindPairsOptions options = cmd.common.to_find_options();
  Progress progress;
  RunSummary summary;
  summary.isa_requested = options.isa;

  progress.step("reading " + cmd.scene_path);
  Stopwatch clock;
  const Scene scene = read_scene_file(cmd.scene_path);
  summary.before_find.push_back({"read", clock.lap_ms()});
  summary.set_scene(cmd.scene_path, scene);

  progress.step("finding pairs");
  const PairList pairs = find_pairs(scene, options, &summary.find);
  summary.pairs = pairs.size();
  summary.pair_hash = pair_list_hash(pairs);

  progress.step("writing pairs");
  clock.lap_ms();
  write_output(
      cmd.output,
      [&](std::ostream& out) { cmd.binary ? write_pairs_binary(out, pairs) : write_pairs_text(out, pairs); },
      [&](const std::string& path) {
        write_pairs_file(path, pairs, cmd.binary ? PairFormat::binary : PairFormat::text);
      });
  summary.after_find.push_back({"write", clock.lap_ms()});
  progress.done();
  summary.peak_bytes = peak_resident_bytes();

  if (cmd.common.stats) std::fprintf(stderr, "%s\n", stats_json(summary).c_str());
  return 0;
}

}  // namespace

Runner add_pairs_command(CLI::App& app) {
  auto cmd = std::make_shared<PairsCommand>();
  CLI::App* sub = app.add_subcommand("pairs", "Write the sorted list of colliding pairs of a scene file");
  sub->add_option("scene", cmd->scene_path, "Scene file, text or binary (docs/formats.md)")->required();
  sub->add_option("-o,--output", cmd->output, "Output file (default: standard output)");
  sub->add_flag("--binary", cmd->binary, "Write the binary pair format (docs/formats.md)");
  cmd->common.add_to(*sub);
  return [cmd] { return run(*cmd); };
}

}  // namespace hitgrid::cli
