// hitgrid gen FAMILY --n N --seed S [-o FILE] [--binary]: write a standard scene.
#include <memory>
#include <string>

#include "commands.hpp"
#include "hitgrid/core/error.hpp"
#include "hitgrid/core/generators.hpp"
#include "hitgrid/core/scene_binary_io.hpp"
#include "hitgrid/core/scene_file.hpp"
#include "hitgrid/core/scene_text_io.hpp"
#include "output.hpp"
#include "progress.hpp"

namespace hitgrid::cli {
namespace {

struct GenCommand {
  std::string family;
  GeneratorParams params;
  std::string output;
  bool binary = false;
};

int run(const GenCommand& cmd) {
  const auto family = parse_family(cmd.family);
  if (!family) throw Error("unknown scene family '" + cmd.family + "'");
  Progress progress;
  progress.step("generating");
  const Scene scene = generate(*family, cmd.params);
  progress.step("writing");
  write_output(
      cmd.output,
      [&](std::ostream& out) { cmd.binary ? write_scene_binary(out, scene) : write_scene_text(out, scene); },
      [&](const std::string& path) {
        write_scene_file(path, scene, cmd.binary ? SceneFormat::binary : SceneFormat::text);
      });
  return 0;
}

}  // namespace

Runner add_gen_command(CLI::App& app) {
  auto cmd = std::make_shared<GenCommand>();
  CLI::App* sub = app.add_subcommand("gen", "Write a standard scene (docs/scenes.md) as a text or binary file");
  sub->add_option("family", cmd->family, "uniform|clustered|long_tail|mixed|lattice")
      ->required()
      ->check(CLI::IsMember({"uniform", "clustered", "long_tail", "mixed", "lattice"}));
  sub->add_option("--n", cmd->params.n, "Number of shapes")
      ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{1} << 30))
      ->default_val(1'000'000);
  sub->add_option("--seed", cmd->params.seed, "SplitMix64 seed")->default_val(1);
  sub->add_option("--length", cmd->params.length, "L: segment length scale")->default_val(1.0);
  sub->add_option("--density", cmd->params.density, "Shapes per unit area")->default_val(1.0);
  sub->add_option("--per-cluster", cmd->params.per_cluster, "clustered: shapes per cluster")->default_val(1000);
  sub->add_option("-o,--output", cmd->output, "Output file (default: standard output)");
  sub->add_flag("--binary", cmd->binary, "Write the binary scene format (docs/formats.md)");
  return [cmd] { return run(*cmd); };
}

}  // namespace hitgrid::cli
