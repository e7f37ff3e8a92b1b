#include "static_contacts.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <limits>
#include <variant>

#include "hitgrid/broadphase/detail/parallel.hpp"
#include "hitgrid/core/intersects.hpp"
#include "hitgrid/core/within_distance.hpp"
#include "hitgrid/simd/pair_kernels.hpp"

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

/// The packed geometry of a shape (pair_kernels.hpp) and back.
void pack(const Segment& s, float* g) { g[0] = s.a.x, g[1] = s.a.y, g[2] = s.b.x, g[3] = s.b.y; }
void pack(const Circle& c, float* g) { g[0] = c.c.x, g[1] = c.c.y, g[2] = c.r, g[3] = 0.0f; }
void pack(const Box& b, float* g) { g[0] = b.min.x, g[1] = b.min.y, g[2] = b.max.x, g[3] = b.max.y; }
std::variant<Segment, Circle, Box> unpack(ShapeKind kind, const float* g) {
  switch (kind) {
    case ShapeKind::segment: return Segment{{g[0], g[1]}, {g[2], g[3]}};
    case ShapeKind::circle: return Circle{{g[0], g[1]}, g[2]};
    default: return Box{{g[0], g[1]}, {g[2], g[3]}};
  }
}

/// The kernel's kind for a pair of shape kinds (the kernels take the kinds in the order
/// segment, circle, box).
simd::PairKind pair_kind(ShapeKind a, ShapeKind b) {
  const auto lo = std::min(a, b), hi = std::max(a, b);
  if (lo == ShapeKind::segment)
    return hi == ShapeKind::segment  ? simd::PairKind::segment_segment
           : hi == ShapeKind::circle ? simd::PairKind::segment_circle
                                     : simd::PairKind::segment_box;
  if (lo == ShapeKind::circle) return hi == ShapeKind::circle ? simd::PairKind::circle_circle : simd::PairKind::circle_box;
  return simd::PairKind::box_box;
}

}  // namespace

void StaticContacts::flush(Batch& b, ShapeKind dynamic_kind, ShapeKind static_kind, Isa isa,
                           std::vector<std::uint64_t>& out) {
  const std::size_t n = b.n;
  if (n == 0) return;
  const simd::ShapeColumns d{{b.dynamic[0].data(), b.dynamic[1].data(), b.dynamic[2].data(), b.dynamic[3].data()}};
  const simd::ShapeColumns s{{b.statics[0].data(), b.statics[1].data(), b.statics[2].data(), b.statics[3].data()}};
  const bool dynamic_first = dynamic_kind <= static_kind;
  simd::test_pairs(isa, pair_kind(dynamic_kind, static_kind), n, dynamic_first ? d : s, dynamic_first ? s : d,
                   b.hits.data());
  for (std::size_t i = 0; i < n; ++i)
    if (b.hits[i]) out.push_back(b.keys[i]);
  b.n = 0;
}

const std::vector<StaticContacts::Candidate>& StaticContacts::near_statics(const Aabb& box, std::uint32_t slot,
                                                                          const GridIndex& statics,
                                                                          const Scene& static_scene,
                                                                          const Owners& static_owners, Scratch& t) {
  Near& near = near_[slot];
  if (near.epoch != epoch_ || !contains(near.slack, box)) {
    near.slack = grown(box, slack_of(box, statics.cell_size()));
    near.epoch = epoch_;
    near.statics.clear();
    statics.touching(Box{near.slack.min, near.slack.max}, t.found);
    for (ShapeId id : t.found) {
      Candidate c;
      c.slot = static_owners[static_cast<std::size_t>(id.kind())][id.index()];
      c.kind = id.kind();
      switch (id.kind()) {
        case ShapeKind::segment: {
          const Segment g = static_scene.segment(id.index());
          pack(g, c.g);
          c.box = bounds(g);
          break;
        }
        case ShapeKind::circle: {
          const Circle g = static_scene.circle(id.index());
          pack(g, c.g);
          c.box = bounds(g);
          break;
        }
        case ShapeKind::box: {
          const Box g = static_scene.box(id.index());
          pack(g, c.g);
          c.box = bounds(g);
          break;
        }
      }
      near.statics.push_back(c);
    }
  }
  return near.statics;
}

template <class S>
void StaticContacts::pairs_of(const S& shape, ShapeKind kind, std::uint32_t slot, float margin, Isa isa,
                              const GridIndex& statics, const Scene& static_scene, const Owners& static_owners,
                              Scratch& t) {
  const Aabb box = grown(bounds(shape), margin);
  const std::vector<Candidate>& near = near_statics(box, slot, statics, static_scene, static_owners, t);
  if (margin != 0.0f) {
    for (const Candidate& c : near)
      if (overlaps(box, c.box) &&
          std::visit([&](const auto& g) { return within_distance(shape, g, margin); }, unpack(c.kind, c.g)))
        t.pairs.push_back(std::uint64_t{slot} << 32 | c.slot);
    return;
  }
  float g[4];
  pack(shape, g);
  for (const Candidate& c : near) {
    if (!overlaps(box, c.box)) continue;
    const std::size_t k = 3 * static_cast<std::size_t>(kind) + static_cast<std::size_t>(c.kind);
    Batch& b = t.batches[k];
    for (int j = 0; j < 4; ++j) {
      b.dynamic[j][b.n] = g[j];
      b.statics[j][b.n] = c.g[j];
    }
    b.keys[b.n] = std::uint64_t{slot} << 32 | c.slot;
    if (++b.n == batch_pairs) flush(b, kind, c.kind, isa, t.pairs);
  }
}

void StaticContacts::find(const Scene& dynamic, const Owners& dynamic_owners, const GridIndex& statics,
                          const Scene& static_scene, const Owners& static_owners, float margin, std::size_t slots,
                          Isa isa, std::vector<std::uint64_t>& out) {
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
                              pairs_of(dynamic.segment(i), kind, slot, margin, isa, statics, static_scene,
                                       static_owners, t);
                              break;
                            case ShapeKind::circle:
                              pairs_of(dynamic.circle(i), kind, slot, margin, isa, statics, static_scene,
                                       static_owners, t);
                              break;
                            case ShapeKind::box:
                              pairs_of(dynamic.box(i), kind, slot, margin, isa, statics, static_scene, static_owners,
                                       t);
                              break;
                          }
                        }
                        // What is left in this task's batches.
                        for (std::size_t s = 0; s < 3; ++s)
                          flush(t.batches[3 * k + s], kind, static_cast<ShapeKind>(s), isa, t.pairs);
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
