// hitgrid: every colliding pair among millions of 2D shapes, exact and fast.
//
// Exit status: 0 success, 1 bad input or failed I/O (message on stderr), 2 bad usage.
#include <malloc.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <new>

#include "commands.hpp"
#include "hitgrid/core/error.hpp"

int main(int argc, char** argv) {
  // Keep freed memory instead of returning it to the OS: each find_pairs call allocates
  // ~100 bytes per shape of scratch, and fresh pages cost far more than the work on them
  // (the first touch of each page is a fault, and the kernel zeroes the page), so
  // repeated runs (--repeat) would otherwise measure the kernel's page faults. glibc
  // caps M_MMAP_THRESHOLD at 32 MiB, and larger blocks would still be mapped fresh each
  // time, so mmap is turned off instead: every block comes from the heap, which is never
  // trimmed.
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, -1);
  CLI::App app{
      "hitgrid: every colliding pair among millions of 2D segments, circles and boxes, exact and fast.\n"
      "With no verb, runs the main job on a built-in scene and reports pairs, stage times and pairs/s, then (when\n"
      "built with the peer libraries) one line comparing hitgrid with the fastest of them on a smaller scene."};
  app.require_subcommand(0, 1);
  const hitgrid::cli::Runner run = hitgrid::cli::add_run_command(app);
  const hitgrid::cli::Runner gen = hitgrid::cli::add_gen_command(app);
  const hitgrid::cli::Runner pairs = hitgrid::cli::add_pairs_command(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }

  try {
    if (app.got_subcommand("gen")) return gen();
    if (app.got_subcommand("pairs")) return pairs();
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
