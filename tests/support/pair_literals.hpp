// Writing expected pair lists in tests: pair(S, 0, B, 2) is segment 0 with box 2.
#pragma once

#include <cstdint>

#include "hitgrid/core/shape_id.hpp"

namespace hitgrid::test {

inline Pair pair(ShapeKind ka, std::uint32_t a, ShapeKind kb, std::uint32_t b) {
  return {ShapeId(ka, a), ShapeId(kb, b)};
}
inline constexpr ShapeKind S = ShapeKind::segment;
inline constexpr ShapeKind C = ShapeKind::circle;
inline constexpr ShapeKind B = ShapeKind::box;

}  // namespace hitgrid::test
