#include "common_options.hpp"

#include <cmath>
#include <cstdlib>

#include "hitgrid/core/error.hpp"

namespace hitgrid::cli {

void CommonOptions::add_to(CLI::App& app) {
  app.add_option("--threads", threads, "Worker threads (0: all hardware threads)")
      ->check(CLI::Range(0u, 4096u))
      ->default_val(0);
  app.add_option("--isa", isa, "Narrow-phase instruction set: auto|scalar|sse2|avx2|avx512")
      ->check(CLI::IsMember({"auto", "scalar", "sse2", "avx2", "avx512"}))
      ->default_val("auto");
  // CLI::Range lets "nan" through (every comparison with NaN is false): bad usage too.
  const CLI::Validator finite(
      [](std::string& text) {
        return std::isfinite(std::strtod(text.c_str(), nullptr)) ? std::string() : "not a finite number: " + text;
      },
      "FINITE");
  app.add_option("--cell", cell, "Cell size of the grid (its home-cell level) in world units (0: automatic)")
      ->check(finite & CLI::Range(0.0f, 3.4e38f))
      ->default_val(0);
  app.add_option("--method", method, "Broad phase: auto|grid|sweep_and_prune|brute_force")
      ->check(CLI::IsMember({"auto", "grid", "sweep_and_prune", "brute_force"}))
      ->default_val("auto");
  app.add_flag("--stats", stats, "Print one JSON object with counts and stage times on stderr");
}

FindPairsOptions CommonOptions::to_find_options() const {
  FindPairsOptions o;
  o.threads = threads;
  const auto parsed = parse_isa(isa);
  if (!parsed) throw Error("unknown ISA '" + isa + "'");
  o.isa = *parsed;
  resolve_isa(o.isa);  // fail early, before any long work, if the machine lacks it
  o.cell_size = cell;
  o.method = method == "grid"              ? BroadPhase::grid
             : method == "brute_force"     ? BroadPhase::brute_force
             : method == "sweep_and_prune" ? BroadPhase::sweep_and_prune
                                           : BroadPhase::automatic;
  return o;
}

}  // namespace hitgrid::cli
