// hitgrid pairs SCENE [-o OUT] [--binary] [--stream [--band-mib M]]: every colliding pair of
// a scene file. --stream writes the pairs as the library hands them over in sorted pieces
// (PairFinder::find_pairs with a PairSink), so memory does not grow with their number; the
// output is byte for byte the same.
#include <algorithm>
#include <cstdio>
#include <iostream>
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
  bool stream = false;
  double band_mib = 256.0;
  CommonOptions common;
};

/// --stream: the pairs written piece by piece as they come.
void write_streamed(const PairsCommand& cmd, const Scene& scene, FindPairsOptions options, RunSummary& summary) {
  if (cmd.binary && (cmd.output.empty() || cmd.output == "-"))
    throw CLI::ValidationError("--stream --binary needs -o FILE: the binary header holds the pair count, written last");
  options.stream_band_bytes = static_cast<std::size_t>(std::max(1.0, cmd.band_mib * 1048576.0));
  options.max_kept_bytes = 0;  // one call: nothing to keep scratch for
  std::unique_ptr<PairStreamWriter> writer;
  if (cmd.output.empty() || cmd.output == "-")
    writer = std::make_unique<PairStreamWriter>(std::cout, "<stdout>");
  else
    writer = std::make_unique<PairStreamWriter>(cmd.output, cmd.binary ? PairFormat::binary : PairFormat::text);
  PairFinder finder(options);
  finder.find_pairs(scene, [&](std::span<const Pair> piece) { writer->write(piece); }, &summary.find);
  Stopwatch clock;
  writer->finish();
  summary.after_find.push_back({"write_finish", clock.lap_ms()});
  summary.pairs = writer->count();
  summary.pair_hash = writer->hash();
}

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

  if (cmd.stream) {
    progress.step("finding and writing pairs");
    write_streamed(cmd, scene, options, summary);
    progress.done();
    summary.peak_bytes = peak_resident_bytes();
    if (cmd.common.stats) std::fprintf(stderr, "%s\n", stats_json(summary).c_str());
    return 0;
  }

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
  sub->add_flag("--stream", cmd->stream,
                "Write the pairs in sorted pieces as they are found: memory does not grow with their number "
                "(the grid's passes run once to count them and once per band); the same output");
  sub->add_option("--band-mib", cmd->band_mib, "With --stream: pair keys held at once, in MiB (8 bytes a pair)")
      ->check(CLI::Range(1e-6, 1e9))
      ->default_val(256);
  cmd->common.add_to(*sub);
  return [cmd] { return run(*cmd); };
}

}  // namespace hitgrid::cli
