#include "box2d_pairs.hpp"

#include <box2d/b2_dynamic_tree.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "dense_shapes.hpp"
#include "hitgrid/core/shape_pair_test.hpp"

namespace hitgrid::peers {
namespace {

// Box2D calls QueryCallback(proxy) for every leaf whose (fattened) box overlaps the query
// box; b2TestOverlap is closed (boxes that touch overlap), so touching shapes are found.
class QueryPairs {
 public:
  QueryPairs(const Scene& scene, const DenseShapes& shapes, const b2DynamicTree& tree, const std::vector<Aabb>& exact,
             PairList& out)
      : scene_(scene), shapes_(shapes), tree_(tree), exact_(exact), out_(out) {}

  void query(std::uint32_t i, const b2AABB& box) {
    i_ = i;
    tree_.Query(this, box);
  }

  bool QueryCallback(std::int32_t proxy) {
    const auto j = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(tree_.GetUserData(proxy)));
    // Each pair is met twice (from both shapes' queries) and each shape meets itself: keep
    // i < j. The tree holds boxes fattened by b2_aabbExtension (see box2d_pairs), so first
    // compare the exact boxes, as any narrow phase would, then run the exact test.
    if (j > i_ && overlaps(exact_[i_], exact_[j])) {
      const ShapeId a = shapes_.id(i_), b = shapes_.id(j);
      if (intersects(scene_, a, b)) out_.emplace_back(a, b);
    }
    return true;  // keep going: we want every overlap
  }

 private:
  const Scene& scene_;
  const DenseShapes& shapes_;
  const b2DynamicTree& tree_;
  const std::vector<Aabb>& exact_;
  PairList& out_;
  std::uint32_t i_ = 0;
};

b2AABB to_b2(const Aabb& a) {
  b2AABB b;
  b.lowerBound.Set(a.min.x, a.min.y);
  b.upperBound.Set(a.max.x, a.max.y);
  return b;
}

}  // namespace

PairList box2d_pairs(const Scene& scene) {
  const DenseShapes shapes(scene);
  std::vector<Aabb> exact(shapes.size());
  // Box2D 2.4.1's b2DynamicTree::CreateProxy itself widens every box by b2_aabbExtension
  // (0.1 length units, compiled into the library; measured: [1,3] becomes [0.9,3.1]), not
  // only b2BroadPhase. Widening is conservative (float subtraction rounds toward the
  // result, never past the original bound), so no pair is lost; the cost is extra
  // candidates, which the exact-box check in QueryPairs drops before the exact test.
  b2DynamicTree tree;
  shapes.for_each_bounds([&](std::uint32_t i, const Aabb& box) {
    exact[i] = box;
    tree.CreateProxy(to_b2(box), reinterpret_cast<void*>(static_cast<std::uintptr_t>(i)));
  });

  PairList pairs;
  QueryPairs query(scene, shapes, tree, exact, pairs);
  for (std::uint32_t i = 0; i < shapes.size(); ++i) query.query(i, to_b2(exact[i]));
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

}  // namespace hitgrid::peers
