#include "hitgrid/broadphase/assign_rows.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

namespace hitgrid {

void assign_rows(Scene& scene, const ShapeRows& segments, const ShapeRows& circles, const ShapeRows& boxes,
                 unsigned threads) {
  if (threads == 1) {
    scene.assign(segments, circles, boxes);
    return;
  }
  tbb::task_arena arena(threads == 0 ? tbb::task_arena::automatic : static_cast<int>(threads));
  scene.assign(segments, circles, boxes, [&](std::size_t n, const std::function<void(std::size_t, std::size_t)>& body) {
    arena.execute([&] {
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 1),
                        [&](const tbb::blocked_range<std::size_t>& r) { body(r.begin(), r.end()); });
    });
  });
}

}  // namespace hitgrid
