#include "hitgrid/broadphase/sweep_and_prune.hpp"

#include <tbb/combinable.h>
#include <tbb/parallel_for.h>

#include "hitgrid/broadphase/detail/parallel.hpp"
#include "hitgrid/core/shape_pair_test.hpp"
#include "packed_shapes.hpp"
#include "pair_buffers.hpp"
#include "stage_clock.hpp"

namespace hitgrid {

PairList sweep_and_prune_pairs(const Scene& scene, FindPairsReport* report) {
  FindPairsReport local;
  StageClock clock(report ? &local.stages : nullptr);

  // Each shape's bounds and global index, to be sorted by left edge.
  struct Item {
    Aabb box;
    std::uint32_t index;
  };
  const KindRanges kinds = KindRanges::of(scene);
  const UninitializedVector<ShapeRecord> records = pack_shapes(scene);
  std::vector<Item> shapes(records.size());
  for (std::size_t i = 0; i < records.size(); ++i) shapes[i] = {records[i].box, static_cast<std::uint32_t>(i)};
  clock.lap("bounds");

  // Ties broken by id so the sweep order, and with it the work split, is deterministic.
  detail::parallel_sort(shapes.begin(), shapes.end(), [](const Item& a, const Item& b) {
    return a.box.min.x < b.box.min.x || (a.box.min.x == b.box.min.x && a.index < b.index);
  });
  clock.lap("sort");

  PairBuffers buffers;
  tbb::combinable<std::uint64_t> candidates;
  detail::parallel_for(tbb::blocked_range<std::size_t>(0, shapes.size(), 1024), [&](const auto& range) {
    PairList& out = buffers.local();
    std::uint64_t tested = 0;
    for (std::size_t i = range.begin(); i != range.end(); ++i) {
      const Item& s = shapes[i];
      // Every later shape starts at or right of s's left edge; those starting within s's
      // x extent overlap it in x.
      for (std::size_t j = i + 1; j < shapes.size() && shapes[j].box.min.x <= s.box.max.x; ++j) {
        const Item& t = shapes[j];
        if (t.box.min.y > s.box.max.y || s.box.min.y > t.box.max.y) continue;
        ++tested;
        if (intersects(scene, kinds.id(s.index), kinds.id(t.index)))
          out.emplace_back(kinds.id(s.index), kinds.id(t.index));
      }
    }
    candidates.local() += tested;
  });
  clock.lap("sweep_and_test");
  local.candidates = candidates.combine(std::plus<>());

  PairList pairs = merge_pair_buffers(buffers);
  clock.lap("merge");
  if (report) {
    report->candidates = local.candidates;
    report->stages = std::move(local.stages);
  }
  return pairs;
}

}  // namespace hitgrid
