// World: a collision world an engine drives frame by frame.
//
//   hitgrid::World world;                                    // options: threads, ISA, cells
//   hitgrid::ShapeHandle ball = world.create({hitgrid::Circle{{0, 0}, 1}});
//   hitgrid::ShapeDef wall{hitgrid::Segment{{-5, -1}, {5, -1}}};
//   wall.body = hitgrid::BodyType::static_body;
//   world.create(wall);
//   for (;;) {
//     world.move(ball, hitgrid::Circle{{x, y}, 1});          // between frames
//     world.step();                                          // the frame's pairs and events
//     for (hitgrid::HandlePair p : world.begin_events()) ... // began touching
//     for (hitgrid::HandlePair p : world.end_events()) ...   // stopped touching
//   }
//
// Shapes: segments, circles and boxes, each with a stable handle (a slot index and a
// generation: a destroyed shape's handle is refused ever after, never taken for the shape
// that reuses its slot), a 64-bit user value, category and mask bits (two shapes are
// tested only when each one's category shares a bit with the other's mask), and a body
// type. Static shapes never pair with each other and cost nothing per frame while they do
// not move: they are kept in a grid built once (GridIndex), rebuilt at the next step after
// any of them changes, and the dynamic shapes are tested against it; the dynamic shapes'
// own pairs come from the grid broad phase (PairFinder), or while they stay near where
// they were, from candidates kept from frame to frame and tested again. A grid of the
// dynamic shapes, once built in a step, is kept for the queries, casts and swept circles
// of that frame (built once, read by the pairs' passes and by every query after).
// Between steps after which shapes were only moved in place (the same kind), created, or
// destroyed while dynamic, the pairs are carried over: only those that began or ended are
// sorted and merged (any other change, destroying a static shape, a new kind or body, a
// filter, and release_memory(), costs one step of the full form, as do more destroys and
// creations than a quarter of the dynamic shapes; a world with a contact margin takes the
// full form every step).
//
// step() finds the pairs touching now, exactly (closed shapes: touching counts; every
// decision is exact arithmetic on the float inputs, docs/contracts.md), and the events
// since the previous step: pairs that began touching and pairs that stopped, including
// pairs that ended because a shape was destroyed, moved away, or had its filter or body
// changed, so every begin has its end. Pairs and events are sorted (by the first handle,
// then the second; within a pair the lower handle first) and the same whatever the thread
// count, ISA and cell sizes. An end event may name a destroyed shape's handle.
//
// Threads: a World runs its parallel work on its own TBB arenas (WorldOptions::threads)
// or on the program's job system (WorldOptions::tasks, a TaskHook: Box2D's enqueueTask /
// finishTask in one call), small frames on the calling thread alone
// (WorldOptions::small_frame_shapes); it is used from one thread at a time.
//
// Memory: the world keeps what its frames need (the shapes' columns, the pair and event
// lists, and its finders' scratch blocks: a grid's tables and every per-thread list of
// its passes), so that once the first frames have grown them a frame allocates nothing:
// moving shapes, step(), queries, casts and swept circles included. Something larger than
// before (more pairs, a crowded cell, more hits) grows what is kept, once; with several
// threads a thread may meet a larger piece of work than it has had late, and grow its
// lists then (a burst in one frame).
// release_memory() gives the scratch back. A test program counts every frame's allocations
// (README, "The library").
//
// Errors: a stale or unknown handle throws InvalidHandleError naming it; invalid geometry
// throws hitgrid::Error naming the handle or the position in the batch. A refused call
// leaves the world as it was: bulk calls check everything before changing anything. (One
// error comes after the change: a TaskHook that leaves out part of a move's writes. The
// world then writes the rest itself and throws the hook's error, the batch moved whole.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <variant>
#include <vector>

#include "hitgrid/broadphase/task_hook.hpp"
#include "hitgrid/core/error.hpp"
#include "hitgrid/core/ray.hpp"
#include "hitgrid/core/shapes.hpp"
#include "hitgrid/core/time_of_impact.hpp"
#include "hitgrid/simd/isa.hpp"

namespace hitgrid {

/// A shape's handle: its slot and the slot's generation when it was created. The default
/// (generation 0) is the null handle, which no shape ever has.
struct ShapeHandle {
  std::uint32_t index = 0;
  std::uint32_t generation = 0;
  /// (index, generation) as one number, ordered as handles are.
  std::uint64_t bits() const { return std::uint64_t{index} << 32 | generation; }
  friend bool operator==(const ShapeHandle&, const ShapeHandle&) = default;
  friend bool operator<(const ShapeHandle& a, const ShapeHandle& b) { return a.bits() < b.bits(); }
};

/// Two shapes, a < b.
struct HandlePair {
  ShapeHandle a, b;
  friend bool operator==(const HandlePair&, const HandlePair&) = default;
  friend bool operator<(const HandlePair& x, const HandlePair& y) { return x.a < y.a || (x.a == y.a && x.b < y.b); }
};

enum class BodyType : std::uint8_t {
  static_body,   // never pairs with another static shape; free per frame while unchanged
  dynamic_body,  // tested against every other shape every frame
};

/// Two shapes are tested only if (a.category & b.mask) != 0 and (b.category & a.mask) != 0.
struct ShapeFilter {
  std::uint64_t category = 1;
  std::uint64_t mask = ~std::uint64_t{0};
  friend bool operator==(const ShapeFilter&, const ShapeFilter&) = default;
};

using Shape = std::variant<Segment, Circle, Box>;

/// The shape moved by d: each point's coordinates plus d's, every sum rounded to float (a
/// circle keeps its radius). What World::move takes for a shape that slides.
Shape translated(const Shape& shape, Vec2 d);

struct ShapeDef {
  ShapeDef() = default;
  ShapeDef(const Shape& s, BodyType b = BodyType::dynamic_body, ShapeFilter f = {}, std::uint64_t u = 0)
      : shape(s), body(b), filter(f), user(u) {}
  Shape shape;
  BodyType body = BodyType::dynamic_body;
  ShapeFilter filter;
  std::uint64_t user = 0;
};

/// A handle that names no live shape (destroyed, never created, or null).
class InvalidHandleError : public Error {
 public:
  InvalidHandleError(ShapeHandle handle, const std::string& what);
  ShapeHandle handle() const { return handle_; }

 private:
  ShapeHandle handle_;
};

/// A shape a cast meets: where it first meets it, on the cast's own parameter (a segment's
/// a + t (b - a), t in [0, 1]; a ray's origin + t direction, t >= 0).
struct CastHit {
  ShapeHandle handle;
  /// The first time the cast touches the shape: |t - t*| <= 2^-45 |t*| (the bounds of
  /// raycast against a box, circle and segment; ray_box.hpp, ray_circle.hpp,
  /// ray_segment.hpp); exactly 0 when the cast starts in the shape.
  double t = 0.0;
  /// The cast's point at t: each coordinate within the bound of the same headers for the
  /// shape's kind, and so for every kind within 2^-42 (|start|_inf + max(t, 1)
  /// |direction|_inf + S) of the exact first point, S the largest |coordinate| of the
  /// shape (a segment cast's direction is b - a).
  Vec2d point;
  /// The shape's outward unit normal where the cast comes in; (0, 0) when the cast starts
  /// in the shape, runs along a segment, or meets a circle of radius 0.
  ///   - a box: the face the cast enters through, exactly (the slab whose entry time is
  ///     the later, compared exactly; a flat box's face towards the cast; at a corner
  ///     entered through both slabs at once, the x face);
  ///   - a segment: its side facing the cast's start, exactly;
  ///   - a circle: the radius to the hit, o - c + t d normalised, each coordinate within
  ///     2^-42 (|o - c|_inf + t |d|_inf) / r of the exact unit normal (o the cast's start,
  ///     d its direction, t this hit's time): of little use for a circle that small next
  ///     to the cast's reach.
  Vec2d normal;
};

/// Which hits a cast reports.
enum class CastHits : std::uint8_t { all, nearest };

/// A moving circle that touches another shape within the frame (continuous collision).
struct Impact {
  ShapeHandle moving;  // a dynamic circle with a displacement
  ShapeHandle other;   // any shape it may pair with (if also moving, moving < other)
  /// overlapping or touching at t = 0, or impact at t in (0, 1]: decided exactly
  /// (time_of_impact.hpp, swept_circle.hpp).
  ToiKind kind = ToiKind::none;
  /// The first time of contact, |t - t*| <= 2^-46 t*; 0 unless an impact.
  double t = 0.0;
  friend bool operator==(const Impact&, const Impact&) = default;
};

struct WorldOptions {
  /// Worker threads; 0 means every hardware thread; at most FindPairsOptions::max_threads
  /// (4096, as a task hook's workers).
  unsigned threads = 0;
  Isa isa = Isa::automatic;
  /// The grids' cell sides (FindPairsOptions); 0 chooses them from the shapes.
  float cell_size = 0.0f;
  float large_cell_size = 0.0f;
  /// Frames with fewer dynamic shapes than this run on the calling thread alone, waking
  /// no worker: for a few hundred shapes the workers' wake-up costs more than they save.
  /// So do batches of casts into a world with fewer shapes than this in all (static and
  /// dynamic), and batches of fewer than 64 casts. 0: always on the world's threads.
  std::size_t small_frame_shapes = 2048;
  /// Contact margin m: two shapes count as touching (pairs and events) when their
  /// distance is at most m, decided exactly (within_distance.hpp), so that resting
  /// contacts do not flicker. 0 is the exact touching rule. Queries and casts are not
  /// affected. Must be finite and >= 0.
  float margin = 0.0f;
  /// The program's own job system (hitgrid/broadphase/task_hook.hpp): when set, the
  /// world's parallel work runs through it instead of the world's TBB arenas, and
  /// `threads` is ignored. Small frames still run on the calling thread alone.
  TaskHook tasks;
};

class World {
 public:
  /// Throws hitgrid::Error for invalid options (an ISA the machine lacks, a negative cell).
  explicit World(const WorldOptions& options = {});
  ~World();
  /// A World moved from holds nothing: it may only be destroyed or assigned to (any
  /// other call on it is undefined, as for a moved-from std::unique_ptr's pointee).
  World(World&&) noexcept;
  World& operator=(World&&) noexcept;

  // --- shapes, between steps -------------------------------------------------------------
  ShapeHandle create(const ShapeDef& def);
  /// One handle per definition into `out` (out.size() == defs.size()).
  void create(std::span<const ShapeDef> defs, std::span<ShapeHandle> out);
  void destroy(ShapeHandle handle);
  /// Every handle must be live and appear once.
  void destroy(std::span<const ShapeHandle> handles);
  /// New geometry (of any kind) for a shape.
  void move(ShapeHandle handle, const Shape& shape);
  /// shapes[i] for handles[i]; every handle live and appearing once. A batch of thousands
  /// is checked and written on the world's threads (or through its TaskHook); an invalid
  /// shape is reported as the first in the batch's order, and nothing moves. A hook that
  /// loses part of the checks: nothing moves; part of the writes: the world writes the
  /// rest, then throws (task_hook.hpp: a hook must run every item).
  void move(std::span<const ShapeHandle> handles, std::span<const Shape> shapes);
  void set_filter(ShapeHandle handle, ShapeFilter filter);
  void set_body(ShapeHandle handle, BodyType body);
  void set_user(ShapeHandle handle, std::uint64_t user);

  /// The displacement of a dynamic circle over the next frames (its centre at time t of
  /// a frame is c + t v, t in [0, 1]), for continuous collision: step() reports every
  /// shape it touches along the way (impacts()), however fast it moves. It stays until
  /// set again ({0, 0}: none) and is not applied to the circle's position. Throws
  /// InvalidHandleError for a stale handle, hitgrid::Error for a shape that is not a
  /// dynamic circle or a non-finite v.
  void set_displacement(ShapeHandle circle, Vec2 v);
  Vec2 displacement(ShapeHandle handle) const;

  bool contains(ShapeHandle handle) const;
  Shape shape(ShapeHandle handle) const;
  ShapeFilter filter(ShapeHandle handle) const;
  BodyType body(ShapeHandle handle) const;
  std::uint64_t user(ShapeHandle handle) const;
  /// Live shapes.
  std::size_t size() const;

  // --- frames ----------------------------------------------------------------------------
  /// The frame: pairs touching now, and the events since the previous step. If it throws
  /// (out of memory), pairs() stay the last completed step's, and the next step's events
  /// are the differences from them; the events and impacts read in between are not
  /// defined.
  void step();
  /// After step(): the pairs touching, sorted. Valid until the next step.
  std::span<const HandlePair> pairs() const;
  /// After step(): pairs touching now but not at the previous step, sorted.
  std::span<const HandlePair> begin_events() const;
  /// After step(): pairs touching at the previous step but not now (or whose shapes no
  /// longer exist), sorted.
  std::span<const HandlePair> end_events() const;

  // --- queries on the current shapes (including changes since the last step) -----------
  /// The live shapes that intersect `shape` (closed shapes: touching counts, exactly)
  /// and whose category shares a bit with `mask`, into `out` (replaced), sorted by handle.
  /// A zero-size box or circle is a point query. Reads the grids of the last step; builds
  /// again only one whose shapes changed since. Throws hitgrid::Error if `shape` is
  /// invalid.
  void query(const Shape& shape, std::uint64_t mask, std::vector<ShapeHandle>& out);
  /// Casts. A segment cast {a, b} is a ray with a maximum distance (Box2D's origin and
  /// translation: b = origin + translation): its end is a float, so "within the distance"
  /// is decided exactly too. A Ray (ray.hpp) has no end. Each finds the live shapes it
  /// touches whose category shares a bit with `mask`, walking the grids' cells along it
  /// (never a test of every shape), wherever it starts and however far it goes; the hit or
  /// miss of every shape is exact (a cast that starts inside a shape, runs along an edge,
  /// or passes exactly through a corner or an endpoint included); t, the point and the
  /// normal are rounded (CastHit). Hits are ordered by t, then handle. Reads the grids of
  /// the last step; builds again only one whose shapes changed since. Throws
  /// hitgrid::Error for a non-finite cast.
  ///
  /// Every hit, into `hits` (replaced).
  void cast(const Segment& cast, std::uint64_t mask, std::vector<CastHit>& hits);
  void cast(const Ray& ray, std::uint64_t mask, std::vector<CastHit>& hits);
  /// The first hit (least t, then least handle), or none.
  std::optional<CastHit> cast_nearest(const Segment& cast, std::uint64_t mask);
  std::optional<CastHit> cast_nearest(const Ray& ray, std::uint64_t mask);
  /// Many casts at once, in parallel on the world's threads (and each cell's boxes on the
  /// SIMD lanes of the grid's range search): cast i's hits are hits[offsets[i]] up to
  /// hits[offsets[i + 1]] (offsets gets casts.size() + 1 entries), every hit or only the
  /// nearest; the same answer as one cast at a time, on any thread count.
  void cast(std::span<const Segment> casts, std::uint64_t mask, CastHits which, std::vector<CastHit>& hits,
            std::vector<std::size_t>& offsets);
  void cast(std::span<const Ray> rays, std::uint64_t mask, CastHits which, std::vector<CastHit>& hits,
            std::vector<std::size_t>& offsets);

  /// After step(): for each dynamic circle with a displacement, the shapes it touches at
  /// some time of the frame (the swept disk against their current shapes, or against
  /// their own paths when they move too), sorted by (moving, other), with the first time
  /// of contact. The filters and body rules of pairs apply.
  std::span<const Impact> impacts() const;

  /// Gives back the scratch memory kept between steps to the system: what stays is the
  /// shapes, slots, filters, pairs and events, and the next step takes the rest again. How
  /// much this gives back depends on the scene (README.md, "The library", states the bytes
  /// per shape kept before and after for two scenes).
  void release_memory();

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace hitgrid
