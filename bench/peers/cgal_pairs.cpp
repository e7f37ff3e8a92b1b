#include "cgal_pairs.hpp"

#include <CGAL/box_intersection_d.h>
#include <tbb/enumerable_thread_specific.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "dense_shapes.hpp"
#include "hitgrid/core/shape_pair_test.hpp"

namespace hitgrid::peers {
namespace {

// Our own box type and BoxTraits (the documented concept) instead of CGAL's Box_d: Box_d
// with ID_EXPLICIT numbers boxes from a global counter and ID_FROM_BOX_ADDRESS breaks under
// box_self_intersection_d, which copies the boxes. Here the id is the dense shape index:
// unique, which is all CGAL needs to break ties and to report each pair once. 20 bytes.
struct IndexedBox {
  float lo[2];
  float hi[2];
  std::uint32_t index;
};

struct IndexedBoxTraits {
  using Box_parameter = const IndexedBox&;
  using NT = float;
  using ID = std::uint32_t;
  static NT min_coord(Box_parameter b, int dim) { return b.lo[dim]; }
  static NT max_coord(Box_parameter b, int dim) { return b.hi[dim]; }
  static ID id(Box_parameter b) { return b.index; }
  static int dimension() { return 2; }
};

bool inside_sentinels(float v) {
  constexpr float big = std::numeric_limits<float>::max();
  return -big < v && v < big;
}

/// Every shape's closed box, indexed by dense shape index.
std::vector<IndexedBox> indexed_boxes(const DenseShapes& shapes) {
  std::vector<IndexedBox> boxes(shapes.size());
  shapes.for_each_bounds([&](std::uint32_t i, const Aabb& b) {
    if (!inside_sentinels(b.min.x) || !inside_sentinels(b.min.y) || !inside_sentinels(b.max.x) ||
        !inside_sentinels(b.max.y))
      throw std::domain_error("cgal_pairs: the bounds of shape " + std::to_string(i) +
                              " reach CGAL's sentinel +-FLT_MAX");
    boxes[i] = {{b.min.x, b.min.y}, {b.max.x, b.max.y}, i};
  });
  return boxes;
}

}  // namespace

PairList cgal_pairs(const Scene& scene) { return cgal_pairs(scene, cgal_default_cutoff); }

PairList cgal_pairs(const Scene& scene, std::ptrdiff_t cutoff) {
  const DenseShapes shapes(scene);
  std::vector<IndexedBox> boxes = indexed_boxes(shapes);
  PairList pairs;
  // The callback is copied by value into the algorithm: capture the output by reference.
  auto report = [&](const IndexedBox& a, const IndexedBox& b) {
    const ShapeId ia = shapes.id(a.index), ib = shapes.id(b.index);
    if (intersects(scene, ia, ib)) pairs.emplace_back(ia, ib);  // Pair orders the two ids
  };
  // CLOSED: boxes that only touch intersect, as touching shapes do.
  // Cutoff: CGAL's default is 10. Larger cutoffs are faster on every family, up to a
  // plateau; cgal_default_cutoff = 1000 lies on that plateau for every family tried
  // (cutoffs 10 to 3000: bench/results/comment-measurements-2026-11-27.md).
  CGAL::box_self_intersection_d(boxes.begin(), boxes.end(), report, IndexedBoxTraits(), cutoff,
                                CGAL::Box_intersection_d::CLOSED);
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

PairList cgal_parallel_pairs(const Scene& scene) {
  const DenseShapes shapes(scene);
  std::vector<IndexedBox> boxes = indexed_boxes(shapes);
  // The callback runs on every thread at once: each keeps its own pairs.
  tbb::enumerable_thread_specific<PairList> found;
  auto report = [&](const IndexedBox& a, const IndexedBox& b) {
    const ShapeId ia = shapes.id(a.index), ib = shapes.id(b.index);
    if (intersects(scene, ia, ib)) found.local().emplace_back(ia, ib);
  };
  CGAL::box_self_intersection_d<CGAL::Parallel_tag>(boxes.begin(), boxes.end(), report, IndexedBoxTraits(),
                                                    cgal_default_cutoff, CGAL::Box_intersection_d::CLOSED);
  PairList pairs;
  for (const PairList& part : found) pairs.insert(pairs.end(), part.begin(), part.end());
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

}  // namespace hitgrid::peers
