// StaticContacts: the pairs of a world's dynamic shapes with its static shapes, from a list
// of nearby static shapes kept per dynamic shape.
//
// Asking the static grid about every dynamic shape every frame costs a dozen cache misses
// per shape once the static shapes outgrow the cache (a million wall segments: rows and
// columns far apart in memory), which is most of a frame. Shapes move a little per frame,
// so each dynamic shape keeps a slack box around its bounds and a copy of the static shapes
// that touch the slack box, and maybe a few more (geometry and slot; the grid's candidates
// without their exact tests, GridIndex::candidates). While its bounds (grown by the
// world's margin) stay in the slack box, its static pairs are among that list: a static
// shape within distance m of the shape has a point in the bounds grown by m, so it touches
// the slack box. Only a shape that leaves its slack box, or every shape after the static
// shapes change (invalidate()), asks the grid again. Every pair reported passes the exact
// test (intersects, or within_distance for a margin), so the answer does not depend on
// what the lists hold, only on the shapes: it is exact and deterministic.
//
// The lists of a chunk of dynamic shapes are stored together, as columns by kind of static
// shape, so that without a margin the exact tests run on the SIMD kernels (simd/
// pair_kernels.hpp, the same answer as intersects on every ISA) straight from the lists:
// every listed static shape against its dynamic shape, a window at a time, the dynamic
// side written out beside it. (A list holds about twice the shapes whose bounds overlap
// the dynamic shape's; the kernels test the others for less than sorting them out costs.)
//
// Each listed shape also keeps whether it touched at the last find (a byte beside it, and
// carried by static slot into a list built again), so that without a margin a find can
// report only what changed since the last one, the pairs that began and ended
// (find_changes): a world whose pairs mostly persist from frame to frame then neither sorts
// nor merges them all again.
#pragma once

#include <tbb/enumerable_thread_specific.h>

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "hitgrid/broadphase/grid_index.hpp"
#include "hitgrid/core/aabb.hpp"
#include "hitgrid/core/scene.hpp"
#include "hitgrid/core/shape_id.hpp"
#include "hitgrid/simd/isa.hpp"
#include "place_change.hpp"

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
  /// Without a margin, the pairs that touch now but did not at the last find (of either
  /// form) into `begins`, and those that touched then but no longer do into `ends` (keys
  /// as find's, appended in no particular order). Only while changes_known(), and only if
  /// since that find every dynamic shape kept its kind and place in `dynamic` (moved in
  /// place: Scene::replace; none taken out), new ones were only added after them, and
  /// every slot still names the shape it named then (static shapes may have been added
  /// or moved, with invalidate()). A shape new since the last find has all its pairs in
  /// `begins`.
  void find_changes(const Scene& dynamic, const Owners& dynamic_owners, const GridIndex& statics,
                    const Owners& static_owners, Isa isa, std::vector<std::uint64_t>& begins,
                    std::vector<std::uint64_t>& ends);
  /// The dynamic scene's changes since the last find (in order; `dynamic` is the scene
  /// after them) followed, so that find_changes may run next: a shape taken out has the
  /// pairs it had at that find put into `ends` (keys as find's, appended), and the shape
  /// moved into its place brings its list and marks along. Only while changes_known().
  void patch(std::span<const PlaceChange> changes, const Scene& dynamic, std::vector<std::uint64_t>& ends);
  /// Whether the last find (of either form) completed without a margin (with one, the
  /// marks are not kept), with no release_memory since: what find_changes compares
  /// against is known.
  bool changes_known() const { return complete_; }

  /// Gives back the lists (the next find() builds them again).
  void release_memory();

  /// What find() did since construction (for tests and benchmarks: the answer does not
  /// depend on it).
  struct Counts {
    std::uint64_t finds = 0;
    std::uint64_t change_finds = 0;      // of those, find_changes
    std::uint64_t lists_built = 0;       // from the static grid, new or again
    std::uint64_t lists_built_aged = 0;  // of those, because a grown list got old
    std::uint64_t lists_ahead = 0;       // of those, reaching ahead of the shape
    std::uint64_t lists_wider = 0;       // of those, with more than the least slack (learned)
    std::uint64_t listed = 0;            // static shapes in the lists the last find() tested
  };
  const Counts& counts() const { return counts_; }

 private:
  /// The dynamic shapes of a kind are taken in chunks of this many places in the dynamic
  /// scene: a chunk's lists are stored, rebuilt and tested together, by one task.
  static constexpr std::uint32_t chunk_places = 256;  // a place in a chunk fits a byte (Run::places)
  /// The static shapes of one kind in a chunk's lists, place after place, as columns: their
  /// packed geometry (pair_kernels.hpp: segment a b, circle c r 0, box min max), their
  /// slots, the place of each one's list, and whether each touched its place's shape at
  /// the last find that tested the list (touching), place after place: place i's are
  /// [begin[i], begin[i + 1]); begin has a chunk's places + 1 entries.
  struct Run {
    std::array<std::vector<float>, 4> g;
    std::vector<std::uint32_t> slots;
    std::vector<std::uint8_t> places;
    std::vector<std::uint8_t> touched;
    std::vector<std::uint32_t> begin;

    void clear();
    /// The lists of places [first, last) of `from` appended, as they were.
    void append(const Run& from, std::uint32_t first, std::uint32_t last);
    /// A shape appended to place i's list (the list's end marked by end_place).
    void append(const float* g, std::uint32_t slot, std::uint32_t i, bool was_touching);
    void end_place() { begin.push_back(static_cast<std::uint32_t>(slots.size())); }
    /// The same contents as `from`, in this run's memory (grown only when too small).
    void assign(const Run& from);
    /// Only the lists of places [0, n) kept.
    void keep_places(std::uint32_t n);
  };
  /// A place's list: its slack box, and what next_list reads when the shape leaves it:
  /// where the shape was and the frame when it was built (how fast it goes), and its slack.
  struct List {
    Aabb slack;
    Vec2d center;
    std::uint32_t built;
    float slack_reach;  // how far slack reaches past the shape's bounds on every side
    bool ahead;         // further than slack_reach on some side (the shape was going)
    bool grown;         // further than the least slack on some side
  };
  struct Chunk {
    std::uint64_t epoch = 0;   // the lists are current when this is epoch_
    std::uint64_t tested = 0;  // the frame_ of the last find that tested them (Run::touched)
    std::uint32_t places = 0;  // how many places (from the chunk's first) have lists
    std::vector<List> lists;   // by place
    std::array<Run, 3> runs;   // by static kind
  };
  /// A place whose list is stale (in its chunk), and its new list.
  struct Stale {
    std::uint32_t place;
    List list;
  };
  /// The exact tests run on this many of a run's shapes at a time.
  static constexpr std::size_t window = 512;
  struct Scratch {
    std::vector<Aabb> boxes;                   // of the chunk's shapes, grown by the margin (find_stale)
    std::vector<std::array<float, 4>> packed;  // their packed geometry
    std::vector<Stale> stale;
    std::array<std::vector<IndexedShape>, 2> found;        // rebuild's last two queries
    std::array<Run, 3> runs;                               // a chunk's runs as rebuild builds them
    std::array<std::uint64_t, chunk_places> dynamic_keys;  // the chunk's shapes' slots << 32
    std::array<std::array<float, window>, 4> dynamic;      // a window's dynamic side
    std::array<std::uint8_t, window> hits;
    std::array<std::uint64_t, window> keys;
    std::vector<std::uint64_t> pairs;                        // find's, or find_changes' begins
    std::vector<std::uint64_t> ends;                         // find_changes'
    std::array<std::vector<std::uint32_t>, 3> was_touching;  // rebuild's: a stale list's touched slots
    Counts counts;                                           // this find()'s, of this thread's chunks
  };

  /// The chunk's places [0, places) (from `first` in the dynamic scene, of `kind`): their
  /// packed geometry into t.packed, and their bounds grown by the margin into t.boxes (all
  /// of them with a margin, else at least the stale ones'); into t.stale those whose bounds
  /// left their slack box, that have no list yet, whose list is from before the statics
  /// changed, or whose list grew and got old.
  void find_stale(const Scene& dynamic, ShapeKind kind, std::uint32_t first, std::uint32_t places, const Chunk& c,
                  float margin, float cell, Scratch& t) const;
  /// The list for a shape with bounds `box` (grown by the margin) that left `old` (null:
  /// it had none): its slack box reaches past the bounds by a slack that grows for shapes
  /// whose lists do not last and shrinks for those whose lists last long, and further ahead
  /// on the sides the shape went since `old` was built.
  List next_list(const Aabb& box, float cell, const List* old) const;
  /// The chunk's lists for its places [0, places), the stale ones built again from the
  /// grid of static shapes, the others as they were. A static shape in a stale place's new
  /// list is marked touched if it was in the old list, touched; with `changes`, the old
  /// list's touched shapes missing from the new one (they no longer touch: the new list
  /// holds every static shape touching the place's shape) go into t.ends, by `slots`.
  void rebuild(Chunk& c, std::uint32_t places, const GridIndex& statics, const Owners& static_owners,
               const std::uint32_t* slots, bool changes, Scratch& t) const;
  /// The pairs of the chunk's shapes (of `kind`, whose slots are `slots`) with the static
  /// shapes in their lists that touch them, tested in windows on the SIMD kernels, into
  /// t.pairs; or with `changes`, those whose answer differs from Run::touched into t.pairs
  /// (begins) and t.ends. Either way Run::touched becomes the answer.
  void touching(ShapeKind kind, const std::uint32_t* slots, Chunk& c, Isa isa, bool changes, Scratch& t) const;
  /// Each of a window's m listed shapes' dynamic shape (its place's packed geometry),
  /// beside it: out[col][i] = packed[place[i]][col].
  static void fill_dynamic_side(const std::uint8_t* place, std::size_t m, const std::array<float, 4>* packed,
                                std::array<std::array<float, window>, 4>& out);
  /// Whether the chunk's marks are the last find's: it tested them. Otherwise (a chunk the
  /// last find did not reach, or one it could not finish) none stands for a pair: under
  /// find_changes' condition the shapes there are new since, or that find had no static
  /// shapes to pair them with.
  bool marks_current(const Chunk& c) const { return c.tested + 1 == frame_; }
  /// The same between finds (patch()): the last find tested the chunk.
  bool marks_last(const Chunk& c) const { return c.tested == frame_; }
  /// find() and find_changes(): margin 0 with changes.
  void find_lists(const Scene& dynamic, const Owners& dynamic_owners, const GridIndex& statics,
                  const Owners& static_owners, float margin, Isa isa, bool changes, std::vector<std::uint64_t>& out,
                  std::vector<std::uint64_t>* ends);
  /// patch()'s: the shape of `kind` at `place` (slot `slot`) taken out, the kind's last
  /// shape (at `last`) moved into its place.
  void take_out(std::size_t kind, std::uint32_t place, std::uint32_t last, std::uint32_t slot,
                std::vector<std::uint64_t>& ends);
  /// The same with a margin: the pairs within distance `margin`, tested one by one.
  static void within_margin(ShapeKind kind, const std::uint32_t* slots, const Chunk& c, float margin, Scratch& t);

  std::uint64_t epoch_ = 1;
  std::uint64_t frame_ = 0;  // finds begun (a list's age is read modulo 2^32: List::built)
  bool complete_ = false;    // changes_known()
  Counts counts_;
  // By dynamic kind, then chunk: memory for the dynamic shapes only, however many static
  // shapes the world holds. A list is only a slack box and the static shapes touching it,
  // true whichever shape reads it, so a list left at a place by a shape since moved
  // elsewhere (Scene::swap_remove) is still a valid list for the shape now there; never
  // shrunk, so that shapes created and destroyed between frames reuse the lists' memory.
  std::array<std::vector<Chunk>, 3> chunks_;
  tbb::enumerable_thread_specific<Scratch> scratch_;
};

}  // namespace hitgrid
