// hitgrid: every colliding pair among millions of 2D shapes, exact and fast.
//
// Exit status: 0 success, 1 bad input or failed I/O (message on stderr), 2 bad usage.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "commands.hpp"
#include "hitgrid/core/error.hpp"

int main(int argc, char** argv) {
  CLI::App app{
      "hitgrid: every colliding pair among millions of 2D segments, circles and boxes, exact and fast.\n"
      "With no verb, runs the main job on a built-in scene and reports pairs, stage times and pairs/s."};
  app.require_subcommand(0, 1);
  const hitgrid::cli::Runner run = hitgrid::cli::add_run_command(app);
  const hitgrid::cli::Runner gen = hitgrid::cli::add_gen_command(app);
  const hitgrid::cli::Runner pairs = hitgrid::cli::add_pairs_command(app);
  const hitgrid::cli::Runner stress = hitgrid::cli::add_stress_command(app);
  const hitgrid::cli::Runner draw = hitgrid::cli::add_draw_command(app);
  const hitgrid::cli::Runner rope = hitgrid::cli::add_rope_command(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // CLI11 answers --help before it looks at arguments nobody took, so "hitgrid nosuchverb
    // --help" would print the main help and succeed: a script could not tell a missing verb
    // from a present one. Leftover arguments are an error whether or not --help came too.
    const bool help = dynamic_cast<const CLI::CallForHelp*>(&e) || dynamic_cast<const CLI::CallForAllHelp*>(&e);
    const std::vector<std::string> extra = app.remaining(true);
    if ((help || dynamic_cast<const CLI::ExtrasError*>(&e)) && !extra.empty()) {
      const bool verb = app.get_subcommands().empty() && (extra.front().empty() || extra.front().front() != '-');
      if (verb)
        std::fprintf(stderr, "hitgrid: error: unknown verb '%s' (verbs: gen, pairs, stress; none runs the main job)\n",
                     extra.front().c_str());
      else
        std::fprintf(stderr, "hitgrid: error: unexpected argument '%s'\n", extra.front().c_str());
      std::fprintf(stderr, "Run with --help for more information.\n");
      return 2;
    }
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }

  try {
    if (app.got_subcommand("gen")) return gen();
    if (app.got_subcommand("pairs")) return pairs();
    if (app.got_subcommand("stress")) return stress();
    if (app.got_subcommand("draw")) return draw();
    if (app.got_subcommand("rope")) return rope();
    return run();
  } catch (const CLI::Error& e) {  // bad usage found while running (CLI::ValidationError)
    std::fprintf(stderr, "hitgrid: error: %s\n", e.what());
    return 2;
  } catch (const hitgrid::Error& e) {
    std::fprintf(stderr, "hitgrid: error: %s\n", e.what());
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "hitgrid: error: out of memory\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hitgrid: error: %s\n", e.what());
  }
  return 1;
}
