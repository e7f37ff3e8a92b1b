// hitgrid: every colliding pair among millions of 2D shapes, exact and fast.
//
// Exit status: 0 success, 1 bad input or failed I/O (message on stderr), 2 bad usage.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <new>

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
  const hitgrid::cli::Runner draw = hitgrid::cli::add_draw_command(app);
  const hitgrid::cli::Runner rope = hitgrid::cli::add_rope_command(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }

  try {
    if (app.got_subcommand("gen")) return gen();
    if (app.got_subcommand("pairs")) return pairs();
    if (app.got_subcommand("draw")) return draw();
    if (app.got_subcommand("rope")) return rope();
    return run();
  } catch (const hitgrid::Error& e) {
    std::fprintf(stderr, "hitgrid: error: %s\n", e.what());
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "hitgrid: error: out of memory\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hitgrid: error: %s\n", e.what());
  }
  return 1;
}
