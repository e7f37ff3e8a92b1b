#include "hitgrid/broadphase/find_pairs.hpp"

#include <tbb/global_control.h>
#include <tbb/info.h>
#include <tbb/task_arena.h>

#include <cmath>
#include <optional>

#include "hitgrid/broadphase/brute_force.hpp"
#include "hitgrid/broadphase/sweep_and_prune.hpp"
#include "hitgrid/broadphase/uniform_grid.hpp"
#include "hitgrid/core/error.hpp"
#include "hitgrid/core/detail/stopwatch.hpp"

namespace hitgrid {

std::string_view broad_phase_name(BroadPhase method) {
  switch (method) {
    case BroadPhase::automatic:
      return "auto";
    case BroadPhase::grid:
      return "grid";
    case BroadPhase::sweep_and_prune:
      return "sweep_and_prune";
    case BroadPhase::brute_force:
      return "brute_force";
  }
  return "?";
}

PairList find_pairs(const Scene& scene, const FindPairsOptions& options, FindPairsReport* report) {
  if (!std::isfinite(options.cell_size) || options.cell_size < 0.0f)
    throw Error("cell size must be a finite number >= 0 (0 chooses it automatically)");
  // Checked up front for every method, so that scripts asking for an ISA the machine
  // lacks fail whichever method runs.
  const Isa isa = resolve_isa(options.isa);
  const unsigned threads =
      options.threads == 0 ? static_cast<unsigned>(tbb::info::default_concurrency()) : options.threads;
  const BroadPhase method = options.method == BroadPhase::automatic ? BroadPhase::grid : options.method;

  FindPairsReport local;
  local.method = method;
  local.isa = Isa::scalar;
  local.threads = threads;

  Stopwatch total;
  PairList pairs;
  // TBB caps its worker pool at the hardware concurrency; asking for more threads (to
  // check determinism on a small machine, or to oversubscribe on purpose) needs the cap
  // raised for the duration of the call, or the arena silently runs with fewer.
  std::optional<tbb::global_control> allow_more;
  if (threads > static_cast<unsigned>(tbb::info::default_concurrency()))
    allow_more.emplace(tbb::global_control::max_allowed_parallelism, threads);
  tbb::task_arena arena(static_cast<int>(threads));
  arena.execute([&] {
    if (method == BroadPhase::brute_force) {
      Stopwatch clock;
      pairs = brute_force_pairs(scene);
      const std::uint64_t n = scene.size();
      local.candidates = n * (n - (n > 0)) / 2;
      local.stages.push_back({"all_pairs", clock.lap_ms()});
    } else if (method == BroadPhase::grid) {
      GridStats g;
      GridOptions go;
      go.cell_size = options.cell_size;
      go.isa = isa;
      pairs = uniform_grid_pairs(scene, go, &g);
      local.candidates = g.candidates;
      local.cell_size = g.cell_size;
      local.isa = g.isa;
      local.stages = {{"bounds", g.bounds_ms},
                      {"bucket", g.bucket_ms},
                      {"small_pairs", g.pairs_ms},
                      {"large_small_pairs", g.large_ms},
                      {"large_large_pairs", g.large_large_ms},
                      {"merge", g.merge_ms}};
    } else {
      SweepStats s;
      pairs = sweep_and_prune_pairs(scene, &s);
      local.candidates = s.candidates;
      local.stages = {
          {"bounds", s.bounds_ms}, {"sort", s.sort_ms}, {"sweep_and_test", s.sweep_ms}, {"merge", s.merge_ms}};
    }
  });
  local.total_ms = total.lap_ms();
  if (report) *report = std::move(local);
  return pairs;
}

}  // namespace hitgrid
