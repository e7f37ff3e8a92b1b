#include "static_contacts.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <limits>

#include "hitgrid/broadphase/detail/parallel.hpp"
#include "hitgrid/core/intersects.hpp"
#include "hitgrid/core/within_distance.hpp"

namespace hitgrid {
namespace {

constexpr std::size_t shapes_per_task = 256;
constexpr std::uint32_t prefetch_ahead = 8;

/// How far the slack box reaches past a shape's (grown) bounds: a quarter of their larger
/// side and half a static cell, so that a shape moving a fraction of its size per frame
/// asks the grid again only every few frames, while its list holds about one more cell
/// of static shapes around it.
float slack_of(const Aabb& box, float cell) {
  const double side = std::max(double{box.max.x} - box.min.x, double{box.max.y} - box.min.y);
  const double s = std::max(0.25 * side, 0.5 * double{cell});
  return s <= double{std::numeric_limits<float>::max()} ? static_cast<float>(s) : std::numeric_limits<float>::max();
}

template <class A, class B>
bool touch(const A& a, const B& b, float margin) {
  return margin == 0.0f ? intersects(a, b) : within_distance(a, b, margin);
}


}  // namespace

template <class S>
void StaticContacts::pairs_of(const S& shape, std::uint32_t slot, float margin, const GridIndex& statics,
                              const Scene& static_scene, const Owners& static_owners, Scratch& t) {
  const Aabb box = grown(bounds(shape), margin);
  Near& near = near_[slot];
  if (near.epoch != epoch_ || !contains(near.slack, box)) {
    near.slack = grown(box, slack_of(box, statics.cell_size()));
    near.epoch = epoch_;
    near.statics.clear();
    statics.touching(Box{near.slack.min, near.slack.max}, t.found);
    for (ShapeId id : t.found) {
      const std::uint32_t owner = static_owners[static_cast<std::size_t>(id.kind())][id.index()];
      switch (id.kind()) {
        case ShapeKind::segment: {
          const Segment g = static_scene.segment(id.index());
          near.statics.push_back({g, bounds(g), owner});
          break;
        }
        case ShapeKind::circle: {
          const Circle g = static_scene.circle(id.index());
          near.statics.push_back({g, bounds(g), owner});
          break;
        }
        case ShapeKind::box: {
          const Box g = static_scene.box(id.index());
          near.statics.push_back({g, bounds(g), owner});
          break;
        }
      }
    }
  }
  for (const Candidate& c : near.statics)
    if (overlaps(box, c.box) && std::visit([&](const auto& g) { return touch(shape, g, margin); }, c.shape))
      t.pairs.push_back(std::uint64_t{slot} << 32 | c.slot);
}

void StaticContacts::find(const Scene& dynamic, const Owners& dynamic_owners, const GridIndex& statics,
                          const Scene& static_scene, const Owners& static_owners, float margin, std::size_t slots,
                          std::vector<std::uint64_t>& out) {
  if (statics.size() == 0 || dynamic.empty()) return;
  if (near_.size() < slots) near_.resize(slots);
  for (Scratch& t : scratch_) t.pairs.clear();
  for (std::size_t k = 0; k < 3; ++k) {
    const auto kind = static_cast<ShapeKind>(k);
    detail::parallel_for(tbb::blocked_range<std::uint32_t>(0, static_cast<std::uint32_t>(dynamic.count(kind)),
                                                        shapes_per_task),
                      [&](const tbb::blocked_range<std::uint32_t>& r) {
                        Scratch& t = scratch_.local();
                        for (std::uint32_t i = r.begin(); i != r.end(); ++i) {
                          const std::uint32_t slot = dynamic_owners[k][i];
                          // Each list is a block of its own: fetch the one a few shapes
                          // ahead while this one is tested.
                          if (i + prefetch_ahead < r.end()) {
                            const Candidate* ahead = near_[dynamic_owners[k][i + prefetch_ahead]].statics.data();
                            __builtin_prefetch(ahead);
                            __builtin_prefetch(ahead + 2);
                          }
                          switch (kind) {
                            case ShapeKind::segment:
                              pairs_of(dynamic.segment(i), slot, margin, statics, static_scene, static_owners, t);
                              break;
                            case ShapeKind::circle:
                              pairs_of(dynamic.circle(i), slot, margin, statics, static_scene, static_owners, t);
                              break;
                            case ShapeKind::box:
                              pairs_of(dynamic.box(i), slot, margin, statics, static_scene, static_owners, t);
                              break;
                          }
                        }
                      });
  }
  for (const Scratch& t : scratch_) out.insert(out.end(), t.pairs.begin(), t.pairs.end());
}

void StaticContacts::release_memory() {
  std::vector<Near>().swap(near_);
  scratch_.clear();
  ++epoch_;
}

std::size_t StaticContacts::kept() const {
  std::size_t n = 0;
  for (const Near& near : near_) n += near.statics.size();
  return n;
}

}  // namespace hitgrid
