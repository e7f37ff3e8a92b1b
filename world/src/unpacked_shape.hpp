// A shape from its packed geometry (the four floats the grids and the SIMD kernels keep:
// segment a b, circle c r 0, box min max; simd/pair_kernels.hpp), as the world's Shape.
#pragma once

#include "hitgrid/core/shape_id.hpp"
#include "hitgrid/world/world.hpp"

namespace hitgrid {

inline Shape unpack(ShapeKind kind, const float* g) {
  switch (kind) {
    case ShapeKind::segment:
      return Segment{{g[0], g[1]}, {g[2], g[3]}};
    case ShapeKind::circle:
      return Circle{{g[0], g[1]}, g[2]};
    case ShapeKind::box:
      break;
  }
  return Box{{g[0], g[1]}, {g[2], g[3]}};
}

}  // namespace hitgrid
