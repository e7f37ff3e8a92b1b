// The verbs of the `hitgrid` command. Each registers its options on the CLI11 app and
// returns the function that runs it; main() runs whichever the user picked.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace hitgrid::cli {

using Runner = std::function<int()>;

/// No verb: the main job on a built-in scene (uniform, N = 1,000,000, seed 1).
Runner add_run_command(CLI::App& app);
/// hitgrid gen FAMILY --n N --seed S [-o FILE]
Runner add_gen_command(CLI::App& app);
/// hitgrid pairs SCENE [-o OUT]
Runner add_pairs_command(CLI::App& app);
/// hitgrid stress [--seconds S] [--rounds R] ...
Runner add_stress_command(CLI::App& app);
/// hitgrid draw SCENE [-o OUT.svg] [--pairs] [--window X0 Y0 X1 Y1] [--cells]
Runner add_draw_command(CLI::App& app);
/// hitgrid rope PEGS PATH [-o OUT.svg] [--frames LIST | --animate]
Runner add_rope_command(CLI::App& app);

}  // namespace hitgrid::cli
