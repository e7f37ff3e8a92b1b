#include "hitgrid/broadphase/find_pairs.hpp"

#include <tbb/global_control.h>
#include <tbb/info.h>
#include <tbb/task_arena.h>

#include <cmath>
#include <memory>
#include <optional>
#include <string>

#include "block_cache.hpp"
#include "cell_size.hpp"
#include "grid.hpp"
#include "hitgrid/broadphase/brute_force.hpp"
#include "hitgrid/broadphase/detail/parallel.hpp"
#include "hitgrid/broadphase/grid_index.hpp"
#include "hitgrid/broadphase/sweep_and_prune.hpp"
#include "hitgrid/core/detail/stopwatch.hpp"
#include "hitgrid/core/error.hpp"
#include "stage_clock.hpp"

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

namespace {

/// The caller's list, emptied for this call's pairs. It counts as kept memory
/// (FindPairsOptions::max_kept_bytes): a large one is given back now, before the new pairs
/// need memory, not after.
void empty_for_reuse(PairList& list, std::size_t max_kept_bytes) {
  if (list.capacity() * sizeof(Pair) > max_kept_bytes)
    PairList().swap(list);
  else
    list.clear();
}

/// What one call asks of a method: where its pairs go (the list, or the sink when not
/// null), where the grid goes when the caller keeps it as an index (kept not null; the
/// grid method only), and the list's order.
struct CallOutputs {
  PairList& pairs;
  const PairSink* sink;
  Grid* kept;
  PairOrder order;
};

/// The call's method, in the finder's arena: the grid (streamed, kept, or plain), or a
/// reference method, whose list is then streamed if asked.
void run_method(BroadPhase method, const Scene& scene, const FindPairsOptions& options, Isa isa, const CallOutputs& out,
                StageClock& clock, FindPairsReport& report) {
  switch (method) {
    case BroadPhase::brute_force: {
      out.pairs = brute_force_pairs(scene);
      const std::uint64_t n = scene.size();
      report.candidates = n * (n - (n > 0)) / 2;
      clock.lap("all_pairs");
      break;
    }
    case BroadPhase::sweep_and_prune:
      out.pairs = sweep_and_prune_pairs(scene, &report);
      break;
    default:
      if (out.sink) {
        stream_grid_pairs(scene, options, isa, clock, report, *out.sink);
      } else if (out.kept) {
        find_grid_pairs(scene, options, isa, clock, report, out.pairs, out.kept, out.order);
      } else {
        find_grid_pairs(scene, options, isa, clock, report, out.pairs);
      }
      return;
  }
  if (out.sink) {
    // The whole list, handed over in pieces of the grid's size.
    constexpr std::size_t piece = std::size_t{1} << 20;
    for (std::size_t at = 0; at < out.pairs.size(); at += piece)
      (*out.sink)(std::span<const Pair>(out.pairs).subspan(at, std::min(piece, out.pairs.size() - at)));
  }
}

}  // namespace

struct PairFinder::State {
  State(const FindPairsOptions& o, Isa resolved, unsigned thread_count)
      : options(o),
        isa(resolved),
        threads(thread_count),
        cache(std::make_shared<BlockCache>(o.max_kept_bytes)),
        arena(static_cast<int>(thread_count)),
        observer(arena, cache) {}
  FindPairsOptions options;
  Isa isa;                            // concrete
  unsigned threads;                   // resolved
  std::shared_ptr<BlockCache> cache;  // before the arena and its observer, which refer to it
  tbb::task_arena arena;
  BlockCacheObserver observer;
};

PairFinder::PairFinder(const FindPairsOptions& options) {
  check_cell_sizes(options);
  if (options.stream_band_bytes == 0) throw Error("stream band bytes must be at least 1");
  // Checked here for every method, so that a program asking for an ISA the machine lacks
  // fails whichever method it runs.
  const Isa isa = resolve_isa(options.isa);
  if (options.tasks && options.tasks.workers == 0) throw Error("a task hook needs at least one worker");
  // A TBB arena of more threads than TBB can hold aborts the program (and the arena is
  // made even with a hook): refused here, far above any machine's threads.
  const unsigned asked = options.tasks ? options.tasks.workers : options.threads;
  if (asked > FindPairsOptions::max_threads)
    throw Error(std::string(options.tasks ? "a task hook's workers" : "threads") + " must be at most " +
                std::to_string(FindPairsOptions::max_threads) + ", not " + std::to_string(asked));
  const unsigned threads = options.tasks          ? options.tasks.workers
                           : options.threads == 0 ? static_cast<unsigned>(tbb::info::default_concurrency())
                                                  : options.threads;
  state_ = std::make_unique<State>(options, isa, threads);
}

PairFinder::~PairFinder() = default;
PairFinder::PairFinder(PairFinder&&) noexcept = default;
PairFinder& PairFinder::operator=(PairFinder&&) noexcept = default;

const FindPairsOptions& PairFinder::options() const { return state_->options; }
std::size_t PairFinder::kept_bytes() const { return state_->cache->cached_bytes(); }
void PairFinder::release_memory() { state_->cache->release(); }

void PairFinder::execute_call(void (*call)(void*), void* context) {
  State& s = *state_;
  detail::execute(s.arena, s.options.tasks, [&] {
    // The calling thread too (the observer covers the arena's workers; a hook's tasks
    // take the calling thread's cache).
    const BlockCache::Scope scope(s.cache);
    call(context);
  });
}

PairList PairFinder::find_pairs(const Scene& scene, FindPairsReport* report) {
  PairList pairs;
  find_pairs(scene, pairs, report);
  return pairs;
}

void PairFinder::find_pairs(const Scene& scene, PairList& pairs, FindPairsReport* report) {
  run(scene, &pairs, nullptr, nullptr, PairOrder::sorted, report);
}

void PairFinder::find_pairs(const Scene& scene, PairList& pairs, GridIndex& index, FindPairsReport* report) {
  run(scene, &pairs, nullptr, &index, PairOrder::sorted, report);
}

void PairFinder::find_pairs(const Scene& scene, PairList& pairs, GridIndex& index, PairOrder order,
                            FindPairsReport* report) {
  run(scene, &pairs, nullptr, &index, order, report);
}

void PairFinder::find_pairs(const Scene& scene, const PairSink& sink, FindPairsReport* report) {
  run(scene, nullptr, &sink, nullptr, PairOrder::sorted, report);
}

void PairFinder::run(const Scene& scene, PairList* list, const PairSink* sink, GridIndex* index, PairOrder order,
                     FindPairsReport* report) {
  State& s = *state_;
  // The old index first: its blocks then serve this call's build.
  if (index) *index = GridIndex();
  if (list) empty_for_reuse(*list, s.options.max_kept_bytes);
  PairList whole;  // the reference methods' list, streamed
  PairList& pairs = list ? *list : whole;
  const BroadPhase method = s.options.method == BroadPhase::automatic ? BroadPhase::grid : s.options.method;
  FindPairsReport local;
  local.method = method;
  local.isa = method == BroadPhase::grid ? s.isa : Isa::scalar;
  local.threads = s.threads;

  Stopwatch total;
  // TBB caps its worker pool at the hardware concurrency; asking for more threads (to
  // check determinism on a small machine, or to oversubscribe on purpose) needs the cap
  // raised for the duration of the call, or the arena silently runs with fewer.
  std::optional<tbb::global_control> allow_more;
  if (!s.options.tasks && s.threads > static_cast<unsigned>(tbb::info::default_concurrency()))
    allow_more.emplace(tbb::global_control::max_allowed_parallelism, s.threads);
  detail::execute(s.arena, s.options.tasks, [&] {
    // The calling thread too (the observer covers the arena's workers; a hook's tasks
    // take the calling thread's cache).
    const BlockCache::Scope scope(s.cache);
    StageClock clock(report ? &local.stages : nullptr);
    Grid kept;
    run_method(method, scene, s.options, s.isa, CallOutputs{pairs, sink, index ? &kept : nullptr, order}, clock, local);
    // The grid kept as the index, or for a reference method an index built for it.
    if (index)
      *index = method == BroadPhase::grid ? GridIndex(std::move(kept), scene, s.isa) : GridIndex(scene, s.options);
  });
  local.total_ms = total.lap_ms();
  if (report) *report = std::move(local);
}

PairList find_pairs(const Scene& scene, const FindPairsOptions& options, FindPairsReport* report) {
  FindPairsOptions once = options;
  once.max_kept_bytes = 0;  // nothing to keep it for
  return PairFinder(once).find_pairs(scene, report);
}

}  // namespace hitgrid
