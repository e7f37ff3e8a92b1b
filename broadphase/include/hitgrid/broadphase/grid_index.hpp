// GridIndex: a grid built once over a scene and then only read, for the shapes of other
// scenes to be tested against it.
//
//   hitgrid::GridIndex walls(static_scene);                  // built once
//   std::vector<hitgrid::CrossPair> hits;
//   walls.pairs_with(moving_scene, hits);                    // every frame
//
// This is the grid find_pairs builds (the same cells, rows and tiles), kept; each query
// is a pass over it: the query's box picks the home-grid rows and columns and the tiles
// it can meet, the boxes there are filtered, and every candidate gets the exact test.
// A world keeps its static shapes in one (hitgrid::World), so that they cost nothing per
// frame while they do not move.
//
// Answers are exact (every float taken as the exact rational it is, docs/contracts.md),
// sorted, and the same whatever the thread count, ISA and cell sizes.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "hitgrid/broadphase/find_pairs.hpp"
#include "hitgrid/core/aabb.hpp"
#include "hitgrid/core/ray.hpp"
#include "hitgrid/core/scene.hpp"
#include "hitgrid/core/shape_id.hpp"
#include "hitgrid/core/shapes.hpp"

namespace hitgrid {

struct Grid;  // the built grid: private to the library (docs/architecture.md)

/// A shape of a query scene and a shape of the index that intersect.
struct CrossPair {
  ShapeId query, shape;
  friend bool operator==(const CrossPair&, const CrossPair&) = default;
};

/// A shape of the index with its geometry, packed as the pair kernels take it
/// (simd/pair_kernels.hpp: a segment's a and b, a circle's centre and radius then 0, a
/// box's min and max).
struct IndexedShape {
  ShapeId id;
  float g[4];
};

class GridIndex {
 public:
  /// Empty: every query finds nothing.
  GridIndex();
  /// The grid of `scene`'s shapes. options: the cell sizes and the ISA (threads, method
  /// and memory options do not apply: the build runs on the calling TBB arena). Throws
  /// hitgrid::Error for invalid options. The index does not refer to `scene` afterwards.
  explicit GridIndex(const Scene& scene, const FindPairsOptions& options = {});
  ~GridIndex();
  GridIndex(GridIndex&&) noexcept;
  GridIndex& operator=(GridIndex&&) noexcept;

  /// Shapes in the index.
  std::size_t size() const;
  /// The side of its (home) cells: a query box this much larger than a shape's bounds
  /// meets about one more cell in each direction. 0 when empty.
  float cell_size() const;

  /// The shapes of the index that intersect `shape` (closed shapes: touching counts),
  /// into `out` (replaced), ascending. A segment walks the cells it crosses; a box or a
  /// circle looks at the cells of its bounds.
  void touching(const Segment& shape, std::vector<ShapeId>& out) const;
  void touching(const Circle& shape, std::vector<ShapeId>& out) const;
  void touching(const Box& shape, std::vector<ShapeId>& out) const;
  /// The shapes a ray or a line meets (ray.hpp; exact, as intersects(Ray, Box) and its
  /// kin decide it), ascending. It walks the cells along its part within the indexed
  /// shapes' bounds, however far it comes from or goes; the circles whose disks may reach
  /// past the float range (bounds at +-FLT_MAX, where the cells stop) it tests all, since
  /// it may meet them only out there.
  void touching(const Ray& ray, std::vector<ShapeId>& out) const;
  void touching(const Line& line, std::vector<ShapeId>& out) const;
  /// The same for a ray or a segment, searching only the cells within `window`: `out` holds
  /// every shape the query meets at a point inside the window, and maybe shapes it meets
  /// only outside (every one listed does meet it). A nearest-hit search widens the window
  /// along the query until the first hit lies well inside.
  void touching(const Ray& ray, const Aabb& window, std::vector<ShapeId>& out) const;
  void touching(const Segment& cast, const Aabb& window, std::vector<ShapeId>& out) const;

  /// The candidates of touching(Box) before their exact tests, with their geometry, into
  /// `out` (replaced), ascending by id, each once: every shape of the index that touches
  /// `box` (closed), and maybe others whose bounds meet it (a long segment is kept in the
  /// cells it crosses, a small shape in its home cell, so which others depends on the
  /// grid). For a caller that keeps them and tests them against shapes of its own.
  void candidates(const Aabb& box, std::vector<IndexedShape>& out) const;
  /// The candidates of touching(ray or segment cast, window) before their exact tests,
  /// with their geometry, into `out` (replaced), in no particular order, each once: every
  /// shape the cast meets at a point inside `window` (a window holding the index: every
  /// shape it meets), and maybe others near it. For a caller whose own exact test also
  /// gives what it needs of a hit (a cast's time and point: raycast), so that each
  /// candidate is tested once.
  void candidates(const Ray& ray, const Aabb& window, std::vector<IndexedShape>& out) const;
  void candidates(const Segment& cast, const Aabb& window, std::vector<IndexedShape>& out) const;
  /// Start fetching from memory what candidates(box) reads, in two steps, for a caller
  /// with several boxes to ask about: each box's trips to memory (a dozen on a large index,
  /// one per row and column the box meets) then overlap with other work instead of
  /// following one another. prefetch_rows(box) fetches where the box's rows are found;
  /// prefetch_shapes(box), called later (once those have arrived), the shapes there; then
  /// candidates(box). Neither changes anything or decides anything: they only save time.
  void prefetch_rows(const Aabb& box) const;
  void prefetch_shapes(const Aabb& box) const;

  /// Every pair of a shape of `queries` and a shape of the index that intersect (closed
  /// shapes: touching counts) or, with a margin m > 0, lie within distance m of each other
  /// (within_distance.hpp; exact too), into `out` (replaced; its capacity reused), ordered
  /// by query id, then shape id (ShapeId order: kind, then index). Parallel over the
  /// calling TBB arena. Throws hitgrid::Error unless m is finite and >= 0.
  void pairs_with(const Scene& queries, std::vector<CrossPair>& out, float margin = 0.0f) const;

 private:
  friend class PairFinder;  // keeps the grid a find_pairs call built (find_pairs.hpp)
  /// The index over `scene` whose grid (built with `isa`) is `grid`.
  GridIndex(Grid&& grid, const Scene& scene, Isa isa);
  struct Impl;
  template <class S>
  void touching_shape(const S& shape, ShapeKind kind, std::vector<ShapeId>& out) const;
  template <class L>
  void touching_line(const L& line, const Aabb& window, std::vector<ShapeId>& out) const;
  template <class L>
  void line_candidates(const L& cast, const Aabb& window, std::vector<IndexedShape>& out) const;
  /// The line query's pass into `scratch` (an Impl::Scratch): tested, or its candidates.
  template <class L>
  void line_query(const L& line, const Aabb& window, void* scratch) const;
  /// Frees the Impl into the scratch blocks it came from (a World builds an index per
  /// frame that queries; with them the build allocates nothing once grown).
  struct ImplDelete {
    void operator()(Impl* p) const noexcept;
  };
  /// The scratch memory the grid's blocks came from (a PairFinder's, when it built this
  /// index; none otherwise), kept alive while they are: destroyed after impl_, which gives
  /// the blocks back to it. (Type-erased: the cache is private to the library.)
  std::shared_ptr<const void> blocks_owner_;
  std::unique_ptr<Impl, ImplDelete> impl_;
};

}  // namespace hitgrid
