// TaskHook: a program's own job system, to run hitgrid's parallel work instead of the TBB
// arena a PairFinder or World owns (FindPairsOptions::tasks, WorldOptions::tasks).
//
//   hitgrid::WorldOptions options;
//   options.tasks.run = [](void* user, std::size_t count, std::size_t min_range,
//                          hitgrid::TaskHook::Task task, void* context) {
//     auto& jobs = *static_cast<MyJobSystem*>(user);
//     // split [0, count) into ranges of at least min_range items (the last may be shorter),
//     // call task(context, begin, end) for each on any threads, wait for all of them
//     jobs.parallel_for(count, min_range, [&](std::size_t b, std::size_t e) { task(context, b, e); });
//   };
//   options.tasks.user = &my_jobs;
//   options.tasks.workers = my_jobs.thread_count();
//
// This is Box2D v3's enqueueTask / finishTask pair in one blocking call. The contract:
//   - every item of [0, count) is in exactly one range; the ranges may run in any order, on
//     any threads (the calling one included), one after another or at once;
//   - run returns only after every task call has returned; a task never blocks on another;
//   - task calls do not throw across the hook: an exception thrown by hitgrid's work is
//     kept and thrown from the hitgrid call that started it, after run returns;
//   - a hook that leaves items out is caught (hitgrid counts them) and the call throws
//     hitgrid::Error, instead of giving a wrong answer.
// Work started from inside a task (nested parallelism) runs inline on that thread; the
// hook is never called from a task. The answers (pairs, events, query hits) are the same
// as with TBB, whatever the hook does with the ranges: hitgrid's results never depend on
// how its work is split or on which threads run it.
#pragma once

#include <cstddef>

namespace hitgrid {

struct TaskHook {
  using Task = void (*)(void* context, std::size_t begin, std::size_t end);
  /// Runs task(context, begin, end) over ranges covering [0, count) once, and returns when
  /// all are done. Null: hitgrid uses its own TBB arena.
  void (*run)(void* user, std::size_t count, std::size_t min_range, Task task, void* context) = nullptr;
  /// Handed to run unchanged.
  void* user = nullptr;
  /// The threads that run the tasks (at least 1): hitgrid sizes some of its work by it, as
  /// by a thread count; the answers do not depend on it.
  unsigned workers = 1;

  explicit operator bool() const { return run != nullptr; }
};

}  // namespace hitgrid
