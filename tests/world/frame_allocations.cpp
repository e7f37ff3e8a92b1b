// A World's frame allocates nothing once its first frames have grown what it keeps
// (hitgrid/world/world.hpp, "Memory"). Its own program, not part of hitgrid_tests: it
// replaces malloc and friends to count every call on every thread (operator new ends in
// malloc), which a test binary shared with other tests, or a sanitizer's allocator, would
// not allow. (oneTBB's scalable allocator, where present, keeps its own pools and is not
// counted: memory it hands out again is not an allocation from the system's heap.)
//
// Each scenario drives a world through a history that repeats: every dynamic shape moves
// by +d, then back by -d, so the frames alternate between two states; the same queries,
// casts and swept circles each frame. After the warm-up every frame has been seen before.
// Where the work's split over threads is fixed (one thread, a small frame on the calling
// thread, a job system that runs ranges in order), any malloc in the later frames is a
// failure. With several threads each thread's scratch grows to the largest piece of work
// it has been handed, which changes from frame to frame: a thread can still meet a larger
// one late and grow then, in a burst (its lists grow through several sizes in one pass;
// each growth is kept, so they stop). Such frames are allowed, in fewer than half of the
// counted frames, where anything allocated every frame fails.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "hitgrid/world/world.hpp"
#include "support/task_hooks.hpp"

extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void* __libc_memalign(std::size_t, std::size_t);
void __libc_free(void*);
}

namespace {

std::atomic<bool> counting{false};
std::atomic<long> allocations{0};

void count() {
  if (counting.load(std::memory_order_relaxed)) allocations.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace

extern "C" {
void* malloc(std::size_t n) {
  count();
  return __libc_malloc(n);
}
void* calloc(std::size_t n, std::size_t size) {
  count();
  return __libc_calloc(n, size);
}
void* realloc(void* p, std::size_t n) {
  count();
  return __libc_realloc(p, n);
}
void free(void* p) { __libc_free(p); }
void* aligned_alloc(std::size_t alignment, std::size_t n) {
  count();
  return __libc_memalign(alignment, n);
}
void* memalign(std::size_t alignment, std::size_t n) {
  count();
  return __libc_memalign(alignment, n);
}
int posix_memalign(void** p, std::size_t alignment, std::size_t n) {
  count();
  *p = __libc_memalign(alignment, n);
  return *p ? 0 : 12;  // ENOMEM
}
}

namespace {

using namespace hitgrid;

struct Scenario {
  std::string name;
  WorldOptions options;
  std::size_t shapes;
  bool fixed_split;  // the work's split over threads is the same every frame
};

constexpr int warm_up = 20, frames = 40;

struct Counted {
  long allocations = 0;  // in the frames after the warm-up
  int frames = 0;        // of those frames, the ones that allocated
  bool idle = false;     // the frames found nothing: the scenario exercises nothing
};

Counted run(const Scenario& sc) {
  World world(sc.options);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> at(0.0f, 400.0f), step(-0.2f, 0.2f);
  std::vector<ShapeHandle> moving;
  std::vector<Shape> here, there;
  std::vector<ShapeHandle> circles;
  for (std::size_t i = 0; i < sc.shapes; ++i) {
    const float x = at(rng), y = at(rng);
    const Shape s = i % 3 == 0   ? Shape{Circle{{x, y}, 1.0f}}
                    : i % 3 == 1 ? Shape{Segment{{x, y}, {x + 2.0f, y + 1.0f}}}
                                 : Shape{Box{{x, y}, {x + 1.5f, y + 1.5f}}};
    // Every tenth shape static; a few long walls among them (the tiled grid's shapes).
    if (i % 10 == 0) {
      const Shape wall = i % 500 == 0 ? Shape{Segment{{x, 0.0f}, {x + 50.0f, 400.0f}}} : s;
      world.create(ShapeDef{wall, BodyType::static_body});
      continue;
    }
    // And a few long moving segments: the dynamic grid's large shapes (its tiled grid).
    const ShapeHandle h = world.create(ShapeDef{i % 97 == 1 ? Shape{Segment{{x, y}, {x + 60.0f, y + 35.0f}}} : s});
    moving.push_back(h);
    here.push_back(world.shape(h));
    there.push_back(translated(here.back(), {step(rng), step(rng)}));
    if (i % 3 == 0 && circles.size() < 40) circles.push_back(h);
  }
  std::vector<Segment> casts;
  for (int k = 0; k < 100; ++k) casts.push_back({{at(rng), at(rng)}, {at(rng), at(rng)}});
  std::vector<CastHit> hits;
  std::vector<std::size_t> offsets;
  std::vector<ShapeHandle> found;
  std::size_t pairs = 0, events = 0, impacts = 0, hit_count = 0;
  Counted counted;
  for (int f = 0; f < frames; ++f) {
    if (f >= warm_up) {
      allocations = 0;
      counting = true;
    }
    world.move(moving, f % 2 == 0 ? there : here);
    for (std::size_t k = 0; k < circles.size(); ++k)
      world.set_displacement(circles[k], {f % 2 == 0 ? 30.0f : -30.0f, static_cast<float>(k % 7)});
    world.step();
    pairs += world.pairs().size();
    events += world.begin_events().size() + world.end_events().size();
    impacts += world.impacts().size();
    world.cast(std::span<const Segment>(casts), ~std::uint64_t{0}, CastHits::all, hits, offsets);
    hit_count += hits.size();
    world.cast(casts[0], ~std::uint64_t{0}, hits);
    hit_count += world.cast_nearest(casts[1], ~std::uint64_t{0}).has_value();
    world.query(Box{{100.0f, 100.0f}, {140.0f, 130.0f}}, ~std::uint64_t{0}, found);
    hit_count += found.size();
    counting = false;
    if (f >= warm_up && allocations > 0) {
      counted.allocations += allocations;
      ++counted.frames;
    }
  }
  std::printf("%-30s %6zu shapes: %ld allocations in %d of %d frames (pairs %zu, events %zu, impacts %zu, hits %zu)\n",
              sc.name.c_str(), sc.shapes, counted.allocations, counted.frames, frames - warm_up, pairs, events,
              impacts, hit_count);
  counted.idle = pairs == 0 || impacts == 0 || hit_count == 0;
  if (counted.idle) std::printf("  the frames found nothing: the scenario does not exercise the world\n");
  return counted;
}

/// A job system that runs every range on the calling thread, in order. (test::SerialHook
/// allocates its own list of ranges per call, which this program would count.)
TaskHook in_order_hook() {
  TaskHook h;
  h.run = [](void*, std::size_t count, std::size_t min_range, TaskHook::Task task, void* context) {
    for (std::size_t b = 0; b < count; b += min_range) task(context, b, std::min(count, b + min_range));
  };
  h.workers = 3;
  return h;
}

}  // namespace

int main() {
  test::ThreadPoolHook pool_hook(1);
  std::vector<Scenario> scenarios;
  {
    Scenario s{"2 threads", {}, 30000, false};
    s.options.threads = 2;
    scenarios.push_back(s);
  }
  {
    Scenario s{"1 thread", {}, 30000, true};
    s.options.threads = 1;
    scenarios.push_back(s);
  }
  {
    Scenario s{"small frames (calling thread)", {}, 1500, true};
    s.options.threads = 2;
    scenarios.push_back(s);
  }
  {
    Scenario s{"margin 0.5, 2 threads", {}, 20000, false};
    s.options.threads = 2;
    s.options.margin = 0.5f;
    scenarios.push_back(s);
  }
  {
    Scenario s{"in-order task hook", {}, 20000, true};
    s.options.tasks = in_order_hook();
    scenarios.push_back(s);
  }
  {
    Scenario s{"thread-pool task hook", {}, 20000, false};
    s.options.tasks = pool_hook.hook();
    scenarios.push_back(s);
  }
  int failed = 0;
  for (const Scenario& s : scenarios) {
    // Fixed split: no allocation at all. Several threads: allocating frames, fewer than half.
    const int allowed = s.fixed_split ? 0 : (frames - warm_up) / 2 - 1;
    const Counted got = run(s);
    if (got.idle || got.frames > allowed || (s.fixed_split && got.allocations > 0)) {
      std::printf("  at most %d allocating frames allowed\n", allowed);
      ++failed;
    }
  }
  if (failed) std::printf("FAILED: %d scenario(s) allocated in steady-state frames\n", failed);
  return failed ? 1 : 0;
}
