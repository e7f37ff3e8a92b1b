// Box2D 2.4 (libbox2d-dev) doing hitgrid's whole job: its dynamic AABB tree
// (b2DynamicTree) as the broad phase, hitgrid's exact shape-pair test as the narrow phase.
#pragma once

#include "hitgrid/core/scene.hpp"
#include "hitgrid/core/shape_id.hpp"

namespace hitgrid::peers {

/// Every colliding pair of the scene, sorted, each once: one tree proxy per shape (its exact
/// float bounds), one tree query per shape, exact test on each candidate. Single-threaded.
PairList box2d_pairs(const Scene& scene);

}  // namespace hitgrid::peers
