#include "bullet_pairs.hpp"

#include <BulletCollision/BroadphaseCollision/btDbvt.h>

#include <algorithm>
#include <cstdint>

#include "dense_shapes.hpp"
#include "hitgrid/core/shape_pair_test.hpp"

namespace hitgrid::peers {
namespace {

std::uint32_t leaf_index(const btDbvtNode* leaf) {
  return static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(leaf->data));
}

// collideTT(root, root) calls Process(a, b) once for every pair of distinct leaves whose
// volumes intersect (Intersect is closed: boxes that touch intersect). For the same root
// on both sides it descends into (child0, child0), (child1, child1) and (child0, child1)
// only, so each unordered leaf pair is visited exactly once: no deduplication needed.
class CollectPairs : public btDbvt::ICollide {
 public:
  CollectPairs(const Scene& scene, const DenseShapes& shapes, PairList& out)
      : scene_(scene), shapes_(shapes), out_(out) {}

  using btDbvt::ICollide::Process;
  void Process(const btDbvtNode* a, const btDbvtNode* b) override {
    const ShapeId ia = shapes_.id(leaf_index(a)), ib = shapes_.id(leaf_index(b));
    if (intersects(scene_, ia, ib)) out_.emplace_back(ia, ib);  // Pair orders the two ids
  }

 private:
  const Scene& scene_;
  const DenseShapes& shapes_;
  PairList& out_;
};

}  // namespace

PairList bullet_pairs(const Scene& scene) {
  const DenseShapes shapes(scene);
  // btDbvt::insert takes the volume as given (only btDbvtBroadphase adds a margin), so the
  // leaves hold the exact float bounds.
  btDbvt tree;
  shapes.for_each_bounds([&](std::uint32_t i, const Aabb& box) {
    const btDbvtVolume volume =
        btDbvtVolume::FromMM(btVector3(box.min.x, box.min.y, 0), btVector3(box.max.x, box.max.y, 0));
    tree.insert(volume, reinterpret_cast<void*>(static_cast<std::uintptr_t>(i)));
  });

  // Inserts only, then one collideTT of the tree with itself: at 100,000 shapes no
  // alternative is faster on both uniform and long_tail, neither collideTV of each leaf's
  // volume against the root (keeping j > i) nor an optimizeIncremental or optimizeTopDown
  // pass before collideTT (bench/results/comment-measurements-2026-11-27.md).
  PairList pairs;
  CollectPairs collect(scene, shapes, pairs);
  tree.collideTT(tree.m_root, tree.m_root, collect);
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

}  // namespace hitgrid::peers
