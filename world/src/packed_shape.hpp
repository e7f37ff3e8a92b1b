// The packed geometry of a shape: the four floats the grids and the SIMD kernels keep
// (segment a b, circle c r 0, box min max; simd/pair_kernels.hpp), written from a scene,
// read back as the world's Shape, and the kernel that tests two packed kinds. The static
// and the dynamic contacts (static_contacts.hpp, dynamic_contacts.hpp) and the world's
// queries share these so that every packed shape means the same four floats.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "hitgrid/core/scene.hpp"
#include "hitgrid/core/shape_id.hpp"
#include "hitgrid/simd/pair_kernels.hpp"
#include "hitgrid/world/world.hpp"

namespace hitgrid {

/// Shape i of `kind` in `scene`, packed into g[0..3] (its bounds: packed_bounds).
inline void pack_shape(const Scene& scene, ShapeKind kind, std::uint32_t i, float* g) {
  switch (kind) {
    case ShapeKind::segment: {
      const Segment s = scene.segment(i);
      g[0] = s.a.x, g[1] = s.a.y, g[2] = s.b.x, g[3] = s.b.y;
      return;
    }
    case ShapeKind::circle: {
      const Circle c = scene.circle(i);
      g[0] = c.c.x, g[1] = c.c.y, g[2] = c.r, g[3] = 0.0f;
      return;
    }
    case ShapeKind::box:
      break;
  }
  const Box b = scene.box(i);
  g[0] = b.min.x, g[1] = b.min.y, g[2] = b.max.x, g[3] = b.max.y;
}

/// The shape of `kind` packed in g, as the world's Shape.
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

/// The bounds of the shape of `kind` packed in g.
inline Aabb packed_bounds(ShapeKind kind, const float* g) {
  switch (kind) {
    case ShapeKind::segment:
      return bounds(Segment{{g[0], g[1]}, {g[2], g[3]}});
    case ShapeKind::circle:
      return bounds(Circle{{g[0], g[1]}, g[2]});
    case ShapeKind::box:
      break;
  }
  return {{g[0], g[1]}, {g[2], g[3]}};
}

/// The kernel's kind for a pair of shape kinds, in either order (the kernels take the kinds
/// in the order segment, circle, box: simd::PairKind).
constexpr simd::PairKind pair_kind(ShapeKind a, ShapeKind b) {
  const auto lo = std::min(a, b), hi = std::max(a, b);
  if (lo == ShapeKind::segment)
    return hi == ShapeKind::segment  ? simd::PairKind::segment_segment
           : hi == ShapeKind::circle ? simd::PairKind::segment_circle
                                     : simd::PairKind::segment_box;
  if (lo == ShapeKind::circle)
    return hi == ShapeKind::circle ? simd::PairKind::circle_circle : simd::PairKind::circle_box;
  return simd::PairKind::box_box;
}

/// Whether the disk of a packed circle (c, r) lies within `box` with room to spare, in a
/// few double operations: the test a moving circle passes every frame against the box it
/// is expected to stay in, without rounding its bounds outward float by float. Each side
/// c -+ r is computed within (|c| + r) 2^-52 of its exact value; the margin asked,
/// (|cx| + |cy| + r) 2^-50, is more than that, so true means the disk is in the box. False
/// proves nothing (the exact bounds decide then).
inline bool disk_surely_in(const Aabb& box, const float* g) {
  const double cx = g[0], cy = g[1], r = g[2];
  const double room = (std::abs(cx) + std::abs(cy) + r) * 0x1p-50;
  return (static_cast<int>(box.min.x < cx - r - room) & static_cast<int>(cx + r + room < box.max.x) &
          static_cast<int>(box.min.y < cy - r - room) & static_cast<int>(cy + r + room < box.max.y)) != 0;
}

/// The larger side of a box, in double (exact for float bounds).
inline double larger_side(const Aabb& box) {
  return std::max(double{box.max.x} - double{box.min.x}, double{box.max.y} - double{box.min.y});
}

}  // namespace hitgrid
