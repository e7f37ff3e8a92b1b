// find_pairs: every colliding pair of a scene, exact, sorted, each pair once.
//
//   hitgrid::PairList pairs = hitgrid::find_pairs(scene);      // one call, all cores
//
//   hitgrid::FindPairsOptions options;                         // or, frame after frame:
//   options.threads = 2;
//   hitgrid::PairFinder finder(options);                       // owns threads and scratch
//   hitgrid::FindPairsReport report;
//   pairs = finder.find_pairs(scene, &report);                 // with stage timings
//
// The result is the same sorted list whatever the options (threads, ISA, cell sizes,
// method): the options change only how fast it comes. Pairs are ordered by (kind, id) of
// the lower shape, then of the higher one, with kinds ordered segment < circle < box.
//
// Memory: a call needs tens of megabytes of scratch per million shapes, and fresh memory
// costs more than the work done on it. A PairFinder keeps its large scratch blocks (up to
// FindPairsOptions::max_kept_bytes) between calls, so that calls after the first do not
// pay for fresh pages; release_memory() or destroying it gives them back. The one-line
// find_pairs() uses a PairFinder for the one call and keeps nothing. The pairs themselves
// take about the 8 bytes of a Pair each while they are found and sorted, on top of the
// grid's memory per shape (docs/contracts.md, contract 4, gives the bound).
//
// Streamed: finder.find_pairs(scene, sink) hands the same sorted list to `sink` in pieces,
// in order, and never holds more than FindPairsOptions::stream_band_bytes of pairs: for
// scenes whose pairs do not fit in memory. It runs the grid's passes once to count the
// pairs and once more per band of that many pairs (by their first shape).
//
// Threads: a PairFinder runs on a TBB arena of its own (FindPairsOptions::threads), or on
// the program's job system through FindPairsOptions::tasks (task_hook.hpp).
//
// Errors: invalid options throw hitgrid::Error (an ISA this machine cannot run, a
// negative or non-finite cell size, zero threads is fine: it means all of them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "hitgrid/broadphase/task_hook.hpp"
#include "hitgrid/core/scene.hpp"
#include "hitgrid/core/shape_id.hpp"
#include "hitgrid/simd/isa.hpp"

namespace hitgrid {

class GridIndex;

enum class BroadPhase {
  automatic,        // the fastest method available (the grid)
  grid,             // the uniform grid: home-cell grid for small shapes, tiled grid for large ones
  sweep_and_prune,  // sort on x, sweep: the simple correct method
  brute_force,      // all pairs: the reference, O(n^2), for tests and small scenes
};

std::string_view broad_phase_name(BroadPhase method);

/// Receives a streamed find_pairs' pairs: sorted pieces, none empty, in order; joined they
/// are the list the in-memory form returns. A piece is valid during the call only.
using PairSink = std::function<void(std::span<const Pair>)>;

/// The order of the list a PairFinder call gives.
enum class PairOrder : std::uint8_t {
  sorted,  ///< ascending, each pair once
  /// In no particular order, a pair possibly more than once (the grid's tiles repeat a
  /// few): for a caller that sorts the pairs its own way and so need not pay for this
  /// sort too (the World sorts them by handle). The same pairs as `sorted`.
  any,
};

struct FindPairsOptions {
  /// Worker threads; 0 means every hardware thread. At most max_threads (so is a task
  /// hook's workers).
  unsigned threads = 0;
  static constexpr unsigned max_threads = 4096;
  /// Narrow-phase instruction set; automatic picks the best the CPU and OS support.
  Isa isa = Isa::automatic;
  /// The home-cell grid's cell side in world units, rounded down to a power of two; 0
  /// chooses it from the shapes. Shapes spanning more than two cells either way are large.
  /// Must be finite and >= 0.
  float cell_size = 0.0f;
  /// The tiled grid's cell side (the large shapes), likewise; 0 chooses it.
  float large_cell_size = 0.0f;
  BroadPhase method = BroadPhase::automatic;
  /// Scratch a PairFinder keeps between calls, at most. The caller's pair list that
  /// find_pairs(scene, pairs) reuses counts too: if it holds more than this, it is given
  /// back when the next call starts (before the new pairs take memory).
  std::size_t max_kept_bytes = std::size_t{512} << 20;
  /// The streamed form: pair keys (8 bytes a pair) held at once, at most (a band of
  /// first shapes whose pairs are more than this, down to one pair's key, is counted
  /// again in finer bands). Must be at least 1.
  std::size_t stream_band_bytes = std::size_t{256} << 20;
  /// The program's own job system (task_hook.hpp): when set, the parallel work runs
  /// through it instead of the finder's TBB arena, `threads` is ignored and the hook's
  /// workers count as the threads. The answer is the same either way.
  TaskHook tasks;
};

struct StageTime {
  std::string name;
  double ms = 0.0;
};

/// What a find_pairs call did, for reports and benchmarks.
struct FindPairsReport {
  BroadPhase method = BroadPhase::automatic;  // the method that ran
  Isa isa = Isa::scalar;                      // the narrow phase's ISA that ran
  unsigned threads = 1;
  std::uint64_t candidates = 0;  // pairs whose exact test ran
  // The grid only:
  double cell_size = 0.0;          // the home-cell grid's cell side (the tiled grid's when it ran alone)
  double large_cell_size = 0.0;    // the tiled grid's cell side (0: it did not run)
  std::uint64_t small_shapes = 0;  // shapes in the home-cell grid
  std::uint64_t large_shapes = 0;  // shapes in the tiled grid
  std::uint64_t tiled_entries = 0;
  std::uint64_t key_passes = 0;   // the grid's passes run: 1 in memory; streamed, the counts' and the bands'
  std::vector<StageTime> stages;  // in pipeline order
  double total_ms = 0.0;          // scene in memory to sorted pair list in memory
};

/// Finds pairs, call after call, with its own thread arena and scratch memory.
class PairFinder {
 public:
  /// Throws hitgrid::Error on invalid options.
  explicit PairFinder(const FindPairsOptions& options = {});
  /// Gives back every block of scratch it kept.
  ~PairFinder();
  PairFinder(const PairFinder&) = delete;
  PairFinder& operator=(const PairFinder&) = delete;
  PairFinder(PairFinder&&) noexcept;
  PairFinder& operator=(PairFinder&&) noexcept;

  PairList find_pairs(const Scene& scene, FindPairsReport* report = nullptr);
  /// The same into `pairs` (its old contents replaced): a caller that keeps its PairList
  /// from call to call reuses its memory too.
  void find_pairs(const Scene& scene, PairList& pairs, FindPairsReport* report = nullptr);
  /// The same, and `index` (replaced) the index of `scene`, as GridIndex(scene, options())
  /// would build it: with the grid method it is the grid this call built and read, kept
  /// rather than built twice (a World queries the frame it stepped). Its memory comes from
  /// this finder's kept blocks, which it keeps alive, so it may outlive the finder.
  void find_pairs(const Scene& scene, PairList& pairs, GridIndex& index, FindPairsReport* report = nullptr);
  /// The same, the pairs in the given order.
  void find_pairs(const Scene& scene, PairList& pairs, GridIndex& index, PairOrder order,
                  FindPairsReport* report = nullptr);
  /// Streamed: the same pairs handed to `sink` in sorted pieces, in order. With the grid,
  /// memory does not grow with the number of pairs (FindPairsOptions::stream_band_bytes);
  /// the reference methods find the whole list first. An exception from `sink` stops the
  /// call and propagates.
  void find_pairs(const Scene& scene, const PairSink& sink, FindPairsReport* report = nullptr);

  /// Runs f() on the finder's threads (its arena, or its task hook) with its kept scratch
  /// current on them: the library's work inside f (find_pairs on this finder, sort_keys,
  /// a GridIndex build) takes its loops' threads and its buffers from here. A program that
  /// does each frame's work inside allocates nothing for it once the first frames have
  /// grown the blocks it needs (the World does so). Exceptions from f propagate.
  template <class F>
  void execute(F&& f) {
    execute_call([](void* context) { (*static_cast<std::remove_reference_t<F>*>(context))(); },
                 const_cast<void*>(static_cast<const void*>(std::addressof(f))));
  }

  const FindPairsOptions& options() const;
  /// Bytes of scratch kept for the next call.
  std::size_t kept_bytes() const;
  /// Gives the kept scratch back now (the next call allocates afresh).
  void release_memory();

 private:
  void run(const Scene& scene, PairList* list, const PairSink* sink, GridIndex* index, PairOrder order,
           FindPairsReport* report);
  void execute_call(void (*call)(void*), void* context);
  struct State;
  std::unique_ptr<State> state_;
};

/// PairFinder(options).find_pairs(scene, report).
PairList find_pairs(const Scene& scene, const FindPairsOptions& options = {}, FindPairsReport* report = nullptr);

}  // namespace hitgrid
