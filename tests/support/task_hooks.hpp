// Job systems for the TaskHook tests: what an engine might hand hitgrid, and what a careless
// one might.
//   ThreadPoolHook  W threads of its own plus the calling one take ranges of min_range
//                   items off a shared counter until none are left (a work-stealing-free
//                   job system, like Box2D's samples' enkiTS setup);
//   SerialHook      every range on the calling thread, last range first, in ranges of
//                   random length >= min_range: another split and order than TBB's;
//   LeakyHook       runs every range but the last (from its call `sound_calls` on: the
//                   calls before run them all): a broken hook, which hitgrid must catch;
//                   with `first_twice`, it runs the first range again instead of the
//                   last, which an item count cannot see.
// Each counts its calls and the items and threads its ranges ran on.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "hitgrid/broadphase/task_hook.hpp"

namespace hitgrid::test {

struct HookCounts {
  std::atomic<std::size_t> calls{0}, items{0}, ranges{0};
  std::mutex mutex;
  std::set<std::thread::id> threads;
  std::size_t thread_count() {
    std::lock_guard lock(mutex);
    return threads.size();
  }
  void ran(std::size_t begin, std::size_t end);
};

class ThreadPoolHook {
 public:
  explicit ThreadPoolHook(unsigned workers);
  ~ThreadPoolHook();
  ThreadPoolHook(const ThreadPoolHook&) = delete;
  ThreadPoolHook& operator=(const ThreadPoolHook&) = delete;
  /// The hook, with workers + 1 threads counted as its workers (the caller helps).
  TaskHook hook();
  HookCounts counts;

 private:
  struct Job {
    std::size_t count = 0, min_range = 1;
    TaskHook::Task task = nullptr;
    void* context = nullptr;
    std::atomic<std::size_t> next{0};
    std::atomic<unsigned> busy{0};
  };
  static void run(void* self, std::size_t count, std::size_t min_range, TaskHook::Task task, void* context);
  void work(Job& job);
  void loop();

  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  Job* job_ = nullptr;
  std::uint64_t generation_ = 0;
  bool stop_ = false;
};

class SerialHook {
 public:
  explicit SerialHook(std::uint64_t seed, unsigned workers = 3) : seed_(seed), workers_(workers) {}
  TaskHook hook();
  HookCounts counts;

 private:
  static void run(void* self, std::size_t count, std::size_t min_range, TaskHook::Task task, void* context);
  std::uint64_t seed_;
  unsigned workers_;
};

class LeakyHook {
 public:
  explicit LeakyHook(std::size_t sound = 0) : sound_calls(sound) {}
  TaskHook hook();
  HookCounts counts;
  std::size_t sound_calls;  // may be changed between calls
  bool first_twice = false;

 private:
  static void run(void* self, std::size_t count, std::size_t min_range, TaskHook::Task task, void* context);
};

}  // namespace hitgrid::test
