// The peers' shared view of a scene: every shape under one dense index, segments first,
// then circles, then boxes, so that dense order is ShapeId order (a pair of dense indices
// i < j names the pair (id(i), id(j)) already in hitgrid's order).
//
// Peer libraries key their proxies by a plain integer, not by hitgrid's (kind, index) id;
// this is the mapping they all use, with each shape's conservative closed float bounds
// (core/aabb.hpp), so that every peer starts from exactly the boxes hitgrid uses.
#pragma once

#include <cstdint>
#include <limits>
#include <stdexcept>

#include "hitgrid/core/aabb.hpp"
#include "hitgrid/core/scene.hpp"
#include "hitgrid/core/shape_id.hpp"

namespace hitgrid::peers {

class DenseShapes {
 public:
  /// Peers index proxies with int32 (Box2D) or pack them into pointers; one 31-bit range
  /// covers all of them. Throws std::length_error for a larger scene.
  explicit DenseShapes(const Scene& scene)
      : scene_(&scene),
        circles_begin_(static_cast<std::uint32_t>(scene.segment_count())),
        boxes_begin_(static_cast<std::uint32_t>(scene.segment_count() + scene.circle_count())),
        size_(static_cast<std::uint32_t>(scene.size())) {
    if (scene.size() > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
      throw std::length_error("peer benchmarks take at most 2^31 - 1 shapes");
  }

  std::uint32_t size() const { return size_; }

  ShapeId id(std::uint32_t i) const {
    if (i < circles_begin_) return {ShapeKind::segment, i};
    if (i < boxes_begin_) return {ShapeKind::circle, i - circles_begin_};
    return {ShapeKind::box, i - boxes_begin_};
  }

  /// Calls f(dense index, bounds) for every shape in dense order.
  template <class F>
  void for_each_bounds(F&& f) const {
    std::uint32_t i = 0;
    for (std::uint32_t k = 0; k < scene_->segment_count(); ++k) f(i++, bounds(scene_->segment(k)));
    for (std::uint32_t k = 0; k < scene_->circle_count(); ++k) f(i++, bounds(scene_->circle(k)));
    for (std::uint32_t k = 0; k < scene_->box_count(); ++k) f(i++, bounds(scene_->box(k)));
  }

 private:
  const Scene* scene_;
  std::uint32_t circles_begin_;
  std::uint32_t boxes_begin_;
  std::uint32_t size_;
};

}  // namespace hitgrid::peers
