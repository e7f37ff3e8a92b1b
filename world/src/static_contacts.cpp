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

/// How far the slack box reaches past a shape's (grown) bounds: slack_per_side of their
/// larger side, and at least slack_per_cell of a static cell, so that a shape moving a
/// fraction of its size per frame asks the grid again only every few frames, while its
/// list, walked every frame, holds only the static shapes within that reach.
constexpr double slack_per_side = 0.25;
constexpr double slack_per_cell = 0.35;
/// A shape that left its slack box gets this many slacks more on the sides it crossed:
/// with two, a shape going on keeps its box about three times as long, for a list about a
/// third longer.
constexpr float slacks_ahead = 2.0f;
float slack_of(const Aabb& box, float cell) {
  const double side = std::max(double{box.max.x} - box.min.x, double{box.max.y} - box.min.y);
  const double s = std::max(slack_per_side * side, slack_per_cell * double{cell});
  return s <= double{std::numeric_limits<float>::max()} ? static_cast<float>(s) : std::numeric_limits<float>::max();
}

/// A shape that left its slack box will likely go on the way it went: the new slack box
/// `next` reaches `reach` further past each side of the old one it crossed. Only ever
/// larger than `next`, so the lists stay complete whatever the shape does next.
Aabb ahead(Aabb next, const Aabb& old, const Aabb& box, float reach) {
  if (box.max.x > old.max.x) next.max.x = finite_float(float_at_least(double{next.max.x} + reach));
  if (box.min.x < old.min.x) next.min.x = finite_float(float_at_most(double{next.min.x} - reach));
  if (box.max.y > old.max.y) next.max.y = finite_float(float_at_least(double{next.max.y} + reach));
  if (box.min.y < old.min.y) next.min.y = finite_float(float_at_most(double{next.min.y} - reach));
  return next;
}

/// The packed geometry of a shape (pair_kernels.hpp) and back.
void pack(const Segment& s, float* g) { g[0] = s.a.x, g[1] = s.a.y, g[2] = s.b.x, g[3] = s.b.y; }
void pack(const Circle& c, float* g) { g[0] = c.c.x, g[1] = c.c.y, g[2] = c.r, g[3] = 0.0f; }
void pack(const Box& b, float* g) { g[0] = b.min.x, g[1] = b.min.y, g[2] = b.max.x, g[3] = b.max.y; }
std::variant<Segment, Circle, Box> unpack(ShapeKind kind, const float* g) {
  switch (kind) {
    case ShapeKind::segment:
      return Segment{{g[0], g[1]}, {g[2], g[3]}};
    case ShapeKind::circle:
      return Circle{{g[0], g[1]}, g[2]};
    default:
      return Box{{g[0], g[1]}, {g[2], g[3]}};
  }
}

/// The bounds of a packed shape of kind K (the same as bounds() of the shape).
template <ShapeKind K>
Aabb bounds_of(const float* g) {
  if constexpr (K == ShapeKind::segment) return bounds(Segment{{g[0], g[1]}, {g[2], g[3]}});
  if constexpr (K == ShapeKind::circle) return bounds(Circle{{g[0], g[1]}, g[2]});
  if constexpr (K == ShapeKind::box) return {{g[0], g[1]}, {g[2], g[3]}};
}

/// The bounds of shape i of `kind` in `scene`.
Aabb bounds_in(const Scene& scene, ShapeKind kind, std::uint32_t i) {
  switch (kind) {
    case ShapeKind::segment:
      return bounds(scene.segment(i));
    case ShapeKind::circle:
      return bounds(scene.circle(i));
    case ShapeKind::box:
      break;
  }
  return bounds(scene.box(i));
}

template <class S>
constexpr ShapeKind kind_of() {
  if constexpr (std::is_same_v<S, Segment>) return ShapeKind::segment;
  if constexpr (std::is_same_v<S, Circle>) return ShapeKind::circle;
  if constexpr (std::is_same_v<S, Box>) return ShapeKind::box;
}

/// The kernel's kind for a pair of shape kinds (the kernels take the kinds in the order
/// segment, circle, box).
simd::PairKind pair_kind(ShapeKind a, ShapeKind b) {
  const auto lo = std::min(a, b), hi = std::max(a, b);
  if (lo == ShapeKind::segment)
    return hi == ShapeKind::segment  ? simd::PairKind::segment_segment
           : hi == ShapeKind::circle ? simd::PairKind::segment_circle
                                     : simd::PairKind::segment_box;
  if (lo == ShapeKind::circle)
    return hi == ShapeKind::circle ? simd::PairKind::circle_circle : simd::PairKind::circle_box;
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
  // Gathered without a branch on the answers (most candidates touch, not all).
  std::size_t found = 0;
  for (std::size_t i = 0; i < n; ++i) {
    b.found[found] = std::uint64_t{b.dynamic_slots[i]} << 32 | b.static_slots[i];
    found += b.hits[i];
  }
  out.insert(out.end(), b.found.begin(), b.found.begin() + static_cast<std::ptrdiff_t>(found));
  b.n = 0;
}

void StaticContacts::find_stale(const Scene& dynamic, ShapeKind kind, std::uint32_t begin, std::uint32_t end,
                                float margin, float cell, Scratch& t) const {
  t.stale.clear();
  t.boxes.clear();
  for (std::uint32_t i = begin; i != end; ++i) {
    const Aabb box = grown(bounds_in(dynamic, kind, i), margin);
    t.boxes.push_back(box);
    const Near& near = near_[static_cast<std::size_t>(kind)][i];
    if (near.epoch == epoch_ && contains(near.slack, box)) continue;
    const float slack = slack_of(box, cell);
    Aabb next = grown(box, slack);
    if (near.epoch == epoch_) next = ahead(next, near.slack, box, slacks_ahead * slack);
    t.stale.push_back({i, next});
  }
}

void StaticContacts::rebuild_stale(ShapeKind kind, const GridIndex& statics, const Owners& static_owners, Scratch& t) {
  std::vector<Near>& nears = near_[static_cast<std::size_t>(kind)];
  const std::size_t n = t.stale.size();
  // Each list is a grid query whose rows and shapes lie far apart in memory, and then a
  // slot per static shape found, far apart too: the lists are built as a pipeline, whose
  // stages each fetch what a later stage reads. List j's rows are fetched while list
  // j - 3 is built (GridIndex::prefetch_rows), its shapes during list j - 2
  // (prefetch_shapes), it is queried during list j - 1, its slots fetched, then built.
  constexpr std::size_t rows_ahead = 3, shapes_ahead = 2;
  auto query = [&](std::size_t j) {
    std::vector<IndexedShape>& found = t.found[j & 1];
    statics.candidates(t.stale[j].slack, found);
    for (const IndexedShape& f : found)
      __builtin_prefetch(&static_owners[static_cast<std::size_t>(f.id.kind())][f.id.index()]);
  };
  for (std::size_t j = 0; j < std::min(n, rows_ahead); ++j) statics.prefetch_rows(t.stale[j].slack);
  for (std::size_t j = 0; j < std::min(n, shapes_ahead); ++j) statics.prefetch_shapes(t.stale[j].slack);
  if (n != 0) query(0);
  for (std::size_t j = 0; j < n; ++j) {
    if (j + rows_ahead < n) statics.prefetch_rows(t.stale[j + rows_ahead].slack);
    if (j + shapes_ahead < n) statics.prefetch_shapes(t.stale[j + shapes_ahead].slack);
    if (j + 1 < n) query(j + 1);
    Near& near = nears[t.stale[j].dense];
    near.slack = t.stale[j].slack;
    near.epoch = epoch_;
    near.statics.clear();
    // The statics that touch the slack box and maybe a few more (the grid's candidates),
    // in id order, so grouped by kind.
    near.ends = {};
    for (const IndexedShape& f : t.found[j & 1]) {
      const auto k = static_cast<std::size_t>(f.id.kind());
      Candidate c;
      c.slot = static_owners[k][f.id.index()];
      std::copy(f.g, f.g + 4, c.g);
      near.statics.push_back(c);
      ++near.ends[k];
    }
    near.ends[1] += near.ends[0];
    near.ends[2] += near.ends[1];
  }
}

template <ShapeKind static_kind, class S>
void StaticContacts::batch_overlapping(const S& shape, const Aabb& box, std::uint32_t slot, const Candidate* begin,
                                       const Candidate* end, Isa isa, Scratch& t) {
  const ShapeKind kind = kind_of<S>();
  float g[4];
  pack(shape, g);
  Batch& b = t.batches[3 * static_cast<std::size_t>(kind) + static_cast<std::size_t>(static_kind)];
  // The shape's own side of the pairs kept from `from` on (the same for all of them).
  auto fill_dynamic = [&](std::size_t from) {
    for (std::size_t i = from; i < b.n; ++i) {
      for (int j = 0; j < 4; ++j) b.dynamic[j][i] = g[j];
      b.dynamic_slots[i] = slot;
    }
  };
  std::size_t from = b.n, n = b.n;  // n in a register: b.n is written back only for flush
  for (const Candidate* c = begin; c != end; ++c) {
    // Every candidate is written at the batch's end and kept only if the bounds overlap:
    // whether they do is close to a coin toss, which a branch would mispredict.
    const Aabb cb = bounds_of<static_kind>(c->g);
    const bool overlap =
        (cb.min.x <= box.max.x) & (box.min.x <= cb.max.x) & (cb.min.y <= box.max.y) & (box.min.y <= cb.max.y);
    for (int j = 0; j < 4; ++j) b.statics[j][n] = c->g[j];
    b.static_slots[n] = c->slot;
    n += overlap;
    if (n == batch_pairs) {
      b.n = n;
      fill_dynamic(from);
      flush(b, kind, static_kind, isa, t.pairs);
      from = n = 0;
    }
  }
  b.n = n;
  fill_dynamic(from);
}

template <class S>
void StaticContacts::pairs_of(const S& shape, const Aabb& box, std::uint32_t slot, const Near& near, float margin,
                              Isa isa, Scratch& t) {
  const Candidate* c = near.statics.data();
  if (margin != 0.0f) {
    for (std::uint32_t i = 0, k = 0; i < near.statics.size(); ++i) {
      while (i == near.ends[k]) ++k;
      const auto g = unpack(static_cast<ShapeKind>(k), c[i].g);
      if (std::visit([&](const auto& s) { return overlaps(box, bounds(s)) && within_distance(shape, s, margin); }, g))
        t.pairs.push_back(std::uint64_t{slot} << 32 | c[i].slot);
    }
    return;
  }
  batch_overlapping<ShapeKind::segment>(shape, box, slot, c, c + near.ends[0], isa, t);
  batch_overlapping<ShapeKind::circle>(shape, box, slot, c + near.ends[0], c + near.ends[1], isa, t);
  batch_overlapping<ShapeKind::box>(shape, box, slot, c + near.ends[1], c + near.ends[2], isa, t);
}

void StaticContacts::find(const Scene& dynamic, const Owners& dynamic_owners, const GridIndex& statics,
                          const Owners& static_owners, float margin, Isa isa, std::vector<std::uint64_t>& out) {
  if (statics.size() == 0 || dynamic.empty()) return;
  for (Scratch& t : scratch_) t.pairs.clear();
  for (std::size_t k = 0; k < 3; ++k) {
    const auto kind = static_cast<ShapeKind>(k);
    std::vector<Near>& nears = near_[k];
    if (nears.size() < dynamic.count(kind)) nears.resize(dynamic.count(kind));
    detail::parallel_for(
        tbb::blocked_range<std::uint32_t>(0, static_cast<std::uint32_t>(dynamic.count(kind)), shapes_per_task),
        [&](const tbb::blocked_range<std::uint32_t>& r) {
          Scratch& t = scratch_.local();
          find_stale(dynamic, kind, r.begin(), r.end(), margin, statics.cell_size(), t);
          rebuild_stale(kind, statics, static_owners, t);
          for (std::uint32_t i = r.begin(); i != r.end(); ++i) {
            const std::uint32_t slot = dynamic_owners[k][i];
            const Aabb& box = t.boxes[i - r.begin()];
            switch (kind) {
              case ShapeKind::segment:
                pairs_of(dynamic.segment(i), box, slot, nears[i], margin, isa, t);
                break;
              case ShapeKind::circle:
                pairs_of(dynamic.circle(i), box, slot, nears[i], margin, isa, t);
                break;
              case ShapeKind::box:
                pairs_of(dynamic.box(i), box, slot, nears[i], margin, isa, t);
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
  for (std::vector<Near>& nears : near_) std::vector<Near>().swap(nears);
  scratch_.clear();
  ++epoch_;
}

}  // namespace hitgrid
