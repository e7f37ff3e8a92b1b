#include "box2d_broadphase_frame.hpp"

#include <box2d/b2_broad_phase.h>

#include <cstdint>

namespace hitgrid::peers {
namespace {

b2AABB to_b2(const Aabb& a) {
  b2AABB b;
  b.lowerBound.Set(a.min.x, a.min.y);
  b.upperBound.Set(a.max.x, a.max.y);
  return b;
}

/// UpdatePairs' callback: counts the pairs.
struct PairCounter {
  std::size_t pairs = 0;
  void AddPair(void*, void*) { ++pairs; }
};

}  // namespace

struct Box2DBroadPhaseFrame::Impl {
  b2BroadPhase broad_phase;
  std::vector<std::int32_t> proxies;
};

Box2DBroadPhaseFrame::Box2DBroadPhaseFrame(const std::vector<Aabb>& boxes) : impl_(std::make_unique<Impl>()) {
  impl_->proxies.reserve(boxes.size());
  for (std::size_t i = 0; i < boxes.size(); ++i)
    impl_->proxies.push_back(
        impl_->broad_phase.CreateProxy(to_b2(boxes[i]), reinterpret_cast<void*>(static_cast<std::uintptr_t>(i))));
  PairCounter counter;
  impl_->broad_phase.UpdatePairs(&counter);  // the first frame's pairs, before timing
}

Box2DBroadPhaseFrame::~Box2DBroadPhaseFrame() = default;

std::size_t Box2DBroadPhaseFrame::frame(const std::vector<Aabb>& boxes, const std::vector<Vec2>& displacement) {
  for (std::size_t i = 0; i < boxes.size(); ++i)
    impl_->broad_phase.MoveProxy(impl_->proxies[i], to_b2(boxes[i]), b2Vec2(displacement[i].x, displacement[i].y));
  PairCounter counter;
  impl_->broad_phase.UpdatePairs(&counter);
  return counter.pairs;
}

}  // namespace hitgrid::peers
