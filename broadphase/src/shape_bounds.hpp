// Every shape of a scene with its conservative bounding box, in id order (segments, then
// circles, then boxes): the common input of the broad phases.
#pragma once

#include <vector>

#include "hitgrid/core/aabb.hpp"
#include "hitgrid/core/scene.hpp"
#include "hitgrid/core/shape_id.hpp"

namespace hitgrid {

struct BoundedShape {
  Aabb box;
  ShapeId id;
};
static_assert(sizeof(BoundedShape) == 20);

/// Parallel over the calling TBB arena.
std::vector<BoundedShape> collect_bounds(const Scene& scene);

}  // namespace hitgrid
