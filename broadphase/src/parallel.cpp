
#include <atomic>
#include <exception>
#include <mutex>
#include <string>
#include <utility>

#include "block_cache.hpp"
#include "hitgrid/broadphase/detail/parallel.hpp"
#include "hitgrid/core/error.hpp"

namespace hitgrid::detail {
namespace {

thread_local ParallelMode mode = ParallelMode::tbb;
thread_local const TaskHook* hook = nullptr;

/// One hooked loop: the task, and what its ranges report back.
struct Hooked {
  Hooked(TaskHook::Task t, void* c, std::shared_ptr<BlockCache> b) : task(t), context(c), cache(std::move(b)) {}
  TaskHook::Task task;
  void* context;
  std::shared_ptr<BlockCache> cache;  // the caller's, made current in each task
  std::atomic<std::size_t> done{0};   // items run, to catch a hook that skips some
  std::once_flag failed;
  std::exception_ptr error;
};

void run_range(void* h, std::size_t begin, std::size_t end) {
  Hooked& x = *static_cast<Hooked*>(h);
  const ParallelMode outer_mode = mode;
  const TaskHook* outer_hook = hook;
  mode = ParallelMode::inline_only;
  hook = nullptr;
  try {
    const BlockCache::Scope scope(x.cache);
    if (begin < end) x.task(x.context, begin, end);
  } catch (...) {
    std::call_once(x.failed, [&] { x.error = std::current_exception(); });
  }
  mode = outer_mode;
  hook = outer_hook;
  x.done.fetch_add(end > begin ? end - begin : 0, std::memory_order_relaxed);
}

}  // namespace

ParallelMode parallel_mode() noexcept { return mode; }
const TaskHook& current_task_hook() noexcept { return *hook; }

TaskHookScope::TaskHookScope(const TaskHook& h) noexcept : previous_mode_(mode), previous_hook_(hook) {
  if (h) {
    mode = ParallelMode::hook;
    hook = &h;
  }
}

TaskHookScope::~TaskHookScope() {
  mode = previous_mode_;
  hook = previous_hook_;
}

unsigned parallel_concurrency() noexcept {
  switch (mode) {
    case ParallelMode::hook:
      return hook->workers > 0 ? hook->workers : 1;
    case ParallelMode::inline_only:
      return 1;
    case ParallelMode::tbb:
      break;
  }
  return static_cast<unsigned>(tbb::this_task_arena::max_concurrency());
}

void run_hooked(std::size_t count, std::size_t min_range, TaskHook::Task task, void* context) {
  Hooked x(task, context, BlockCache::current());
  hook->run(hook->user, count, min_range > 0 ? min_range : 1, &run_range, &x);
  if (x.error) std::rethrow_exception(x.error);
  const std::size_t done = x.done.load();
  if (done != count)
    throw Error("the task hook ran " + std::to_string(done) + " of " + std::to_string(count) +
                " items of a parallel loop (TaskHook: every item must be in exactly one range)");
}

}  // namespace hitgrid::detail
