// The one way hitgrid's parallel loops run: on the calling thread's TBB arena, through a
// program's TaskHook (task_hook.hpp), or inline on the calling thread (inside a hook's task).
//
// A PairFinder or World call with a hook sets it for the calling thread (TaskHookScope);
// every parallel loop of the call then goes through detail::parallel_for, which hands the
// hook the loop's ranges. Without a hook the loops are TBB's, in the arena the call
// entered. Inside a hook's task the calling thread is marked inline: a loop started there
// runs on it alone (the hook is never entered twice, and TBB never wakes on a thread of the
// program's). The ranges a loop body sees differ between the three ways; no result
// depends on them (each loop's output is ordered or merged by key afterwards).
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>
#include <tbb/parallel_sort.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <vector>

#include "hitgrid/broadphase/task_hook.hpp"

namespace hitgrid::detail {

/// The grain of the broad phase's parallel loops over a scene's shapes (packing, the
/// plan's statistics, the sparse bucketing): enough shapes that a task's overhead is
/// small next to its work, few enough that two threads share a 100k-shape scene.
inline constexpr std::size_t shapes_per_task = std::size_t{1} << 14;

enum class ParallelMode { tbb, hook, inline_only };

/// How the calling thread's parallel loops run now.
ParallelMode parallel_mode() noexcept;
/// The hook, in ParallelMode::hook.
const TaskHook& current_task_hook() noexcept;

/// For its lifetime, the calling thread's loops go to `hook` (when set; else unchanged).
class TaskHookScope {
 public:
  explicit TaskHookScope(const TaskHook& hook) noexcept;
  ~TaskHookScope();
  TaskHookScope(const TaskHookScope&) = delete;
  TaskHookScope& operator=(const TaskHookScope&) = delete;

 private:
  ParallelMode previous_mode_;
  const TaskHook* previous_hook_;
};

/// The threads the calling thread's loops may run on: the hook's workers, 1 inline, else
/// the current arena's concurrency.
unsigned parallel_concurrency() noexcept;

/// Runs task(context, b, e) over [0, count) through the current hook, each task inline
/// (ParallelMode::inline_only) with the caller's block cache current; rethrows the first
/// exception a task threw; throws hitgrid::Error if the hook left items out.
void run_hooked(std::size_t count, std::size_t min_range, TaskHook::Task task, void* context);

/// tbb::parallel_for(range, body), or its ranges through the hook, or body(range) inline.
template <class T, class Body>
void parallel_for(const tbb::blocked_range<T>& range, const Body& body) {
  switch (parallel_mode()) {
    case ParallelMode::tbb:
      tbb::parallel_for(range, body);
      return;
    case ParallelMode::inline_only:
      if (!range.empty()) body(range);
      return;
    case ParallelMode::hook:
      break;
  }
  if (range.empty()) return;
  struct Context {
    const tbb::blocked_range<T>& range;
    const Body& body;
  } context{range, body};
  run_hooked(
      range.size(), range.grainsize(),
      [](void* c, std::size_t b, std::size_t e) {
        const Context& x = *static_cast<const Context*>(c);
        const T first = x.range.begin();
        x.body(tbb::blocked_range<T>(static_cast<T>(first + b), static_cast<T>(first + e), x.range.grainsize()));
      },
      &context);
}

/// tbb::parallel_for(first, last, f): f(i) for each i, any order.
template <class Index, class F>
void parallel_for(Index first, Index last, const F& f) {
  if (parallel_mode() == ParallelMode::tbb) return tbb::parallel_for(first, last, f);
  if (!(first < last)) return;
  parallel_for(tbb::blocked_range<Index>(first, last, 1), [&](const tbb::blocked_range<Index>& r) {
    for (Index i = r.begin(); i != r.end(); ++i) f(i);
  });
}

/// tbb::parallel_sort(first, last, less); through a hook or inline, std::sort on the calling
/// thread (the reference methods' sorts; the grid's own sorts are counting sorts over
/// parallel_for).
template <class It, class Less = std::less<>>
void parallel_sort(It first, It last, const Less& less = {}) {
  if (parallel_mode() == ParallelMode::tbb) return tbb::parallel_sort(first, last, less);
  std::sort(first, last, less);
}

/// join over the ranges of [0, n) of reduce(range, identity), as tbb::parallel_reduce;
/// through a hook, one value per fixed block of at least `grain` items (at most
/// max_reduce_blocks blocks, so that the values fit on the stack: a frame allocates
/// nothing), joined in block order.
inline constexpr std::size_t max_reduce_blocks = 64;
template <class Value, class Reduce, class Join>
Value parallel_reduce(std::size_t n, std::size_t grain, const Value& identity, const Reduce& reduce, const Join& join) {
  using Range = tbb::blocked_range<std::size_t>;
  if (parallel_mode() == ParallelMode::tbb) return tbb::parallel_reduce(Range(0, n, grain), identity, reduce, join);
  grain = std::max({grain, std::size_t{1}, (n + max_reduce_blocks - 1) / max_reduce_blocks});
  const std::size_t blocks = (n + grain - 1) / grain;
  std::array<Value, max_reduce_blocks> partial;
  partial.fill(identity);
  parallel_for(std::size_t{0}, blocks, [&](std::size_t b) {
    partial[b] = reduce(Range(b * grain, std::min(n, (b + 1) * grain), grain), identity);
  });
  Value v = identity;
  for (std::size_t b = 0; b < blocks; ++b) v = join(v, partial[b]);
  return v;
}

/// `arena`.execute(f) without a hook; with one, f() on the calling thread, whose loops go
/// to the hook.
template <class F>
void execute(tbb::task_arena& arena, const TaskHook& hook, const F& f) {
  if (!hook) return arena.execute(f);
  const TaskHookScope scope(hook);
  f();
}

}  // namespace hitgrid::detail
