// The exact narrow-phase test for two shapes of a scene named by their ids: dispatches on
// the two kinds to the six tests of intersects.hpp.
#pragma once

#include "hitgrid/core/scene.hpp"
#include "hitgrid/core/shape_id.hpp"

namespace hitgrid {

/// Whether shapes a and b of the scene intersect (exact). The ids must be valid.
bool intersects(const Scene& scene, ShapeId a, ShapeId b);

/// The same for a pair.
inline bool intersects(const Scene& scene, Pair p) { return intersects(scene, p.first(), p.second()); }

}  // namespace hitgrid
