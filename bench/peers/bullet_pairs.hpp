// Bullet 3 (libbullet-dev) doing hitgrid's whole job: its dynamic bounding-volume tree
// (btDbvt) as the broad phase, hitgrid's exact shape-pair test as the narrow phase.
#pragma once

#include "hitgrid/core/scene.hpp"
#include "hitgrid/core/shape_id.hpp"

namespace hitgrid::peers {

/// Every colliding pair of the scene, sorted, each once: one tree leaf per shape (its exact
/// float bounds, z = 0), the tree's self-collision (collideTT of the root with itself),
/// exact test on each candidate. Single-threaded.
PairList bullet_pairs(const Scene& scene);

}  // namespace hitgrid::peers
