// Options shared by the verbs that find pairs: --threads, --isa, --cell, --method,
// --stats. Parsed and checked in one place so every verb reads them the same way.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "hitgrid/broadphase/find_pairs.hpp"

namespace hitgrid::cli {

struct CommonOptions {
  unsigned threads = 0;
  std::string isa = "auto";
  float cell = 0.0f;
  std::string method = "auto";
  bool stats = false;

  /// Registers the options on a CLI11 (sub)command.
  void add_to(CLI::App& app);
  /// The library options; throws hitgrid::Error if the ISA is unknown or unsupported here.
  FindPairsOptions to_find_options() const;
};

}  // namespace hitgrid::cli
