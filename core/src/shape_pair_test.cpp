#include "hitgrid/core/shape_pair_test.hpp"

#include <utility>

#include "hitgrid/core/intersects.hpp"

namespace hitgrid {

bool intersects(const Scene& scene, ShapeId a, ShapeId b) {
  if (b.kind() < a.kind()) std::swap(a, b);
  switch (a.kind()) {
    case ShapeKind::segment: {
      const Segment s = scene.segment(a.index());
      switch (b.kind()) {
        case ShapeKind::segment: return intersects(s, scene.segment(b.index()));
        case ShapeKind::circle: return intersects(s, scene.circle(b.index()));
        case ShapeKind::box: return intersects(s, scene.box(b.index()));
      }
      break;
    }
    case ShapeKind::circle: {
      const Circle c = scene.circle(a.index());
      return b.kind() == ShapeKind::circle ? intersects(c, scene.circle(b.index())) : intersects(c, scene.box(b.index()));
    }
    case ShapeKind::box: return intersects(scene.box(a.index()), scene.box(b.index()));
  }
  return false;
}

}  // namespace hitgrid
