// Layouts that break naive broad phases (issue 3's list), built deterministically from a
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

}  // namespace hitgrid::test
