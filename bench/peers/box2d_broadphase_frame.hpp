// Box2D 2.4's incremental broad phase (b2BroadPhase) doing one frame of an all-moving
// world, as an engine built on Box2D runs it: MoveProxy for every shape (a proxy whose box
// leaves its fattened box is reinserted into the tree and queued), then UpdatePairs, which
// reports the queued proxies' overlapping fat boxes. The world benchmark
// (bench/world_bench.cpp) runs it next to hitgrid::World on the same shapes and moves.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "hitgrid/core/aabb.hpp"
#include "hitgrid/core/vec2.hpp"

namespace hitgrid::peers {

class Box2DBroadPhaseFrame {
 public:
  /// One proxy per box.
  explicit Box2DBroadPhaseFrame(const std::vector<Aabb>& boxes);
  ~Box2DBroadPhaseFrame();
  /// Moves every proxy to its new box (displacement[i]: how far it moved), then updates
  /// the pairs; returns the pairs UpdatePairs reported (candidates by fat boxes).
  std::size_t frame(const std::vector<Aabb>& boxes, const std::vector<Vec2>& displacement);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hitgrid::peers
