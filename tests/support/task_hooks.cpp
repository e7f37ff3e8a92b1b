#include "support/task_hooks.hpp"

#include <algorithm>
#include <utility>

#include "hitgrid/core/splitmix64.hpp"

namespace hitgrid::test {

void HookCounts::ran(std::size_t begin, std::size_t end) {
  items += end - begin;
  ++ranges;
  std::lock_guard lock(mutex);
  threads.insert(std::this_thread::get_id());
}

ThreadPoolHook::ThreadPoolHook(unsigned workers) {
  for (unsigned i = 0; i < workers; ++i) threads_.emplace_back([this] { loop(); });
}

ThreadPoolHook::~ThreadPoolHook() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : threads_) t.join();
}

TaskHook ThreadPoolHook::hook() {
  TaskHook h;
  h.run = &ThreadPoolHook::run;
  h.user = this;
  h.workers = static_cast<unsigned>(threads_.size()) + 1;
  return h;
}

void ThreadPoolHook::work(Job& job) {
  for (;;) {
    const std::size_t begin = job.next.fetch_add(job.min_range);
    if (begin >= job.count) return;
    const std::size_t end = std::min(job.count, begin + job.min_range);
    counts.ran(begin, end);
    job.task(job.context, begin, end);
  }
}

void ThreadPoolHook::loop() {
  std::uint64_t seen = 0;
  for (;;) {
    Job* job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || (job_ && generation_ != seen); });
      if (stop_) return;
      seen = generation_;
      job = job_;
      ++job->busy;
    }
    work(*job);
    {
      std::lock_guard lock(mutex_);
      --job->busy;
    }
    done_.notify_all();
  }
}

void ThreadPoolHook::run(void* self, std::size_t count, std::size_t min_range, TaskHook::Task task, void* context) {
  auto& pool = *static_cast<ThreadPoolHook*>(self);
  ++pool.counts.calls;
  Job job;
  job.count = count;
  job.min_range = min_range;
  job.task = task;
  job.context = context;
  {
    std::lock_guard lock(pool.mutex_);
    pool.job_ = &job;
    ++pool.generation_;
  }
  pool.wake_.notify_all();
  pool.work(job);  // the calling thread helps
  std::unique_lock lock(pool.mutex_);
  pool.job_ = nullptr;  // no worker starts on it from now on
  pool.done_.wait(lock, [&] { return job.busy == 0; });
}

TaskHook SerialHook::hook() {
  TaskHook h;
  h.run = &SerialHook::run;
  h.user = this;
  h.workers = workers_;
  return h;
}

void SerialHook::run(void* self, std::size_t count, std::size_t min_range, TaskHook::Task task, void* context) {
  auto& s = *static_cast<SerialHook*>(self);
  ++s.counts.calls;
  SplitMix64 random(s.seed_ + s.counts.calls);
  std::vector<std::pair<std::size_t, std::size_t>> ranges;
  for (std::size_t b = 0; b < count;) {
    const std::size_t e = std::min(count, b + min_range * (1 + random.next() % 3));
    ranges.emplace_back(b, e);
    b = e;
  }
  for (auto it = ranges.rbegin(); it != ranges.rend(); ++it) {
    s.counts.ran(it->first, it->second);
    task(context, it->first, it->second);
  }
}

TaskHook LeakyHook::hook() {
  TaskHook h;
  h.run = &LeakyHook::run;
  h.user = this;
  h.workers = 2;
  return h;
}

void LeakyHook::run(void* self, std::size_t count, std::size_t min_range, TaskHook::Task task, void* context) {
  auto& s = *static_cast<LeakyHook*>(self);
  const bool sound = s.counts.calls++ < s.sound_calls;
  for (std::size_t b = 0; b < count; b += min_range) {
    const std::size_t e = std::min(count, b + min_range);
    if (e == count && !sound) {                              // the last range is lost
      if (s.first_twice && b != 0) task(context, 0, e - b);  // as many items again
      return;
    }
    s.counts.ran(b, e);
    task(context, b, e);
  }
}

}  // namespace hitgrid::test
