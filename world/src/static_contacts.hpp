// StaticContacts: the pairs of a world's dynamic shapes with its static shapes, from a list
// of nearby static shapes kept per dynamic shape.
//
// Asking the static grid about every dynamic shape every frame costs a dozen cache misses
// per shape once the static shapes outgrow the cache (a million wall segments: rows and
// columns far apart in memory), which is most of a frame. Shapes move a little per frame,
// so each dynamic shape keeps a slack box around its bounds and a copy of the static shapes
// that touch the slack box, and maybe a few more (geometry and slot, side by side; the
// grid's candidates without their exact tests, GridIndex::candidates). While its bounds
// (grown by the world's margin) stay in the slack box, its static pairs are among that
// list: a static shape within distance m of the shape has a point in the bounds grown by
// m, so it touches the slack box. Only a shape that leaves its slack box, or every shape after the static
// shapes change (invalidate()), asks the grid again. Every pair reported passes
// the exact test (intersects, or within_distance for a margin), so the answer does not
// depend on what the lists hold, only on the shapes: it is exact and deterministic.
//
// Without a margin the exact tests run in batches on the SIMD kernels (simd/
// pair_kernels.hpp, the same answer as intersects on every ISA): the candidates whose
// bounds overlap are gathered per kind of pair, as columns, and tested a batch at a time.
#pragma once

#include <tbb/enumerable_thread_specific.h>

#include <array>
#include <cstdint>
#include <vector>

#include "hitgrid/broadphase/grid_index.hpp"
#include "hitgrid/core/aabb.hpp"
#include "hitgrid/core/scene.hpp"
#include "hitgrid/core/shape_id.hpp"
#include "hitgrid/simd/isa.hpp"

namespace hitgrid {

class StaticContacts {
 public:
  /// owners[kind][dense] -> slot, for the shapes of a scene.
  using Owners = std::array<std::vector<std::uint32_t>, 3>;

  /// The static shapes changed: every list is stale.
  void invalidate() { ++epoch_; }

  /// Every (dynamic slot, static slot) of a dynamic shape and a static shape that touch
  /// (margin 0) or lie within distance `margin`, as dynamic << 32 | static, appended to
  /// `out` in no particular order. Runs in parallel on the calling TBB arena; `isa`
  /// (concrete) runs the exact tests.
  void find(const Scene& dynamic, const Owners& dynamic_owners, const GridIndex& statics, const Owners& static_owners,
            float margin, Isa isa, std::vector<std::uint64_t>& out);

  /// Gives back the lists (the next find() builds them again).
  void release_memory();

 private:
  /// A static shape in a list: its packed geometry (pair_kernels.hpp: segment a b, circle
  /// c r, box min max), from which its bounds follow, and its slot. 20 bytes, so that a
  /// list of a dozen shapes is a few cache lines.
  struct Candidate {
    float g[4];
    std::uint32_t slot;
  };
  struct Near {
    Aabb slack;
    std::uint64_t epoch = 0;  // the lists are current when this is epoch_
    // The statics by kind: segments, then circles, then boxes; ends[k] is where kind k's
    // run ends.
    std::array<std::uint32_t, 3> ends{};
    std::vector<Candidate> statics;
  };
  /// The exact tests waiting for one kind of pair (dynamic kind, static kind): each
  /// side's shapes as columns, and their slots.
  static constexpr std::size_t batch_pairs = 512;  // a batch is tested when full (and at a task's end)
  struct Batch {
    std::size_t n = 0;
    std::array<std::array<float, batch_pairs>, 4> dynamic, statics;
    std::array<std::uint32_t, batch_pairs> dynamic_slots, static_slots;
    std::array<std::uint8_t, batch_pairs> hits;
    std::array<std::uint64_t, batch_pairs> found;  // flush's keys of the pairs that touch
  };
  /// A dynamic shape whose list is stale (its place in the dynamic scene), and the slack
  /// box of its new list.
  struct Stale {
    std::uint32_t dense;
    Aabb slack;
  };
  struct Scratch {
    std::vector<Aabb> boxes;  // of the task's shapes, grown by the margin (find_stale)
    std::vector<Stale> stale;
    std::array<std::vector<IndexedShape>, 2> found;  // rebuild_stale's last two queries
    std::vector<std::uint64_t> pairs;
    std::array<Batch, 9> batches;  // by 3 * dynamic kind + static kind
  };

  template <ShapeKind static_kind, class S>
  static void batch_overlapping(const S& shape, const Aabb& box, std::uint32_t slot, const Candidate* begin,
                                const Candidate* end, Isa isa, Scratch& t);
  /// The shapes [begin, end) of `kind` whose (grown) bounds left their slack box, or whose
  /// list is from before the statics changed, into t.stale; their grown bounds into
  /// t.boxes.
  void find_stale(const Scene& dynamic, ShapeKind kind, std::uint32_t begin, std::uint32_t end, float margin,
                  float cell, Scratch& t) const;
  /// Their lists (of dynamic shapes of `kind`) built again, from the grid of static shapes.
  void rebuild_stale(ShapeKind kind, const GridIndex& statics, const Owners& static_owners, Scratch& t);
  /// A shape's pairs from its (current) list `near`, into the batches or t.pairs; `box`:
  /// its bounds grown by the margin.
  template <class S>
  static void pairs_of(const S& shape, const Aabb& box, std::uint32_t slot, const Near& near, float margin, Isa isa,
                       Scratch& t);
  static void flush(Batch& b, ShapeKind dynamic_kind, ShapeKind static_kind, Isa isa, std::vector<std::uint64_t>& out);

  std::uint64_t epoch_ = 1;
  // By dynamic kind, then the shape's place in the dynamic scene: memory for the dynamic
  // shapes only, however many static shapes the world holds. A list is only a slack box
  // and the static shapes touching it, true whichever shape reads it, so a list left at a
  // place by a shape since moved elsewhere (Scene::swap_remove) is still a valid list for
  // the shape now there; never shrunk, so that shapes created and destroyed between
  // frames reuse the lists' memory.
  std::array<std::vector<Near>, 3> near_;
  tbb::enumerable_thread_specific<Scratch> scratch_;
};

}  // namespace hitgrid
