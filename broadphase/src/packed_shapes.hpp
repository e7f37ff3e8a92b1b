// Shapes packed for the grid: each shape's bounds and geometry in one 32-byte record,
// addressed by a global index (segments, then circles, then boxes), and the exact test on
// two such records.
#pragma once

#include <cstdint>

#include "hitgrid/core/aabb.hpp"
#include "hitgrid/core/scene.hpp"
#include "hitgrid/core/shape_id.hpp"
#include "uninitialized_vector.hpp"

namespace hitgrid {

/// A shape's bounds and geometry packed in 32 bytes, so that gathering a shape into cell
/// order touches one cache line instead of one per SoA column. Geometry: segment
/// (ax, ay, bx, by); circle (cx, cy, r, 0); box (minx, miny, maxx, maxy).
struct ShapeRecord {
  Aabb box;
  float g[4];
};
static_assert(sizeof(ShapeRecord) == 32);

/// The kind of the shape at a global index (segments, then circles, then boxes).
struct KindRanges {
  std::uint32_t circles_begin = 0, boxes_begin = 0;
  static KindRanges of(const Scene& scene) {
    return {static_cast<std::uint32_t>(scene.segment_count()),
            static_cast<std::uint32_t>(scene.segment_count() + scene.circle_count())};
  }
  ShapeKind kind(std::uint32_t i) const {
    return i < circles_begin ? ShapeKind::segment : (i < boxes_begin ? ShapeKind::circle : ShapeKind::box);
  }
  /// The global index of a shape id (the inverse of id()).
  std::uint32_t global(ShapeId id) const {
    switch (id.kind()) {
      case ShapeKind::segment:
        return id.index();
      case ShapeKind::circle:
        return circles_begin + id.index();
      case ShapeKind::box:
        break;
    }
    return boxes_begin + id.index();
  }
  ShapeId id(std::uint32_t i) const {
    switch (kind(i)) {
      case ShapeKind::segment:
        return {ShapeKind::segment, i};
      case ShapeKind::circle:
        return {ShapeKind::circle, i - circles_begin};
      case ShapeKind::box:
        break;
    }
    return {ShapeKind::box, i - boxes_begin};
  }
};

inline Segment as_segment(const float* g) { return {{g[0], g[1]}, {g[2], g[3]}}; }
inline Circle as_circle(const float* g) { return {{g[0], g[1]}, g[2]}; }
inline Box as_box(const float* g) { return {{g[0], g[1]}, {g[2], g[3]}}; }

/// The bounds of a packed shape from its geometry: the same boxes pack_shapes computes.
inline Aabb bounds_of(ShapeKind kind, const float* g) {
  switch (kind) {
    case ShapeKind::segment:
      return bounds(as_segment(g));
    case ShapeKind::circle:
      return bounds(as_circle(g));
    case ShapeKind::box:
      break;
  }
  return bounds(as_box(g));
}

/// The exact test on two packed shapes, kinds ordered ka <= kb.
bool intersects_packed(ShapeKind ka, const float* a, ShapeKind kb, const float* b);

/// The shape at global index i as a record.
inline ShapeRecord record_of(const Scene& scene, const KindRanges& kinds, std::uint32_t i) {
  switch (kinds.kind(i)) {
    case ShapeKind::segment: {
      const Segment s = scene.segment(i);
      return {bounds(s), {s.a.x, s.a.y, s.b.x, s.b.y}};
    }
    case ShapeKind::circle: {
      const Circle c = scene.circle(i - kinds.circles_begin);
      return {bounds(c), {c.c.x, c.c.y, c.r, 0.0f}};
    }
    case ShapeKind::box:
      break;
  }
  const Box b = scene.box(i - kinds.boxes_begin);
  return {{b.min, b.max}, {b.min.x, b.min.y, b.max.x, b.max.y}};
}

/// Every shape of the scene as a record, in global order. Parallel over the calling arena.
UninitializedVector<ShapeRecord> pack_shapes(const Scene& scene);

}  // namespace hitgrid
