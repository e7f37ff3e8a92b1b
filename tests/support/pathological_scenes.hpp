// Layouts that break naive broad phases (docs/contracts.md, contract 4), built deterministically from a
// base scene of the standard generators. Shared by the broad-phase tests.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hitgrid/core/scene.hpp"

namespace hitgrid::test {

struct NamedScene {
  std::string name;
  Scene scene;
};

/// Every docs/scenes.md family at n shapes (seed 1), plus: two clusters 1e7 apart, one
/// segment across the whole world, many copies of one segment, all shapes in one tiny
/// cell, coordinates near 1e7, a mixed scene of zero-size shapes on a lattice.
std::vector<NamedScene> broadphase_scenes(std::uint64_t n);

/// 3000 unit segments in a 400 x 400 world, one in 25 of them replaced by a vertical
/// segment across the whole world: too few long ones to change the home cell size (the
/// 95th percentile of the extents), but together they cross about eight rows of home
/// cells per shape, so the grid's plan gives every shape to the tiled grid.
Scene crossed_world();

}  // namespace hitgrid::test
