#include "packed_shapes.hpp"

#include <tbb/parallel_for.h>

#include "hitgrid/core/intersects.hpp"

namespace hitgrid {

/// The exact test on two packed shapes, kinds ordered ka <= kb.
bool intersects_packed(ShapeKind ka, const float* a, ShapeKind kb, const float* b) {
  switch (ka) {
    case ShapeKind::segment:
      switch (kb) {
        case ShapeKind::segment:
          return intersects(as_segment(a), as_segment(b));
        case ShapeKind::circle:
          return intersects(as_segment(a), as_circle(b));
        case ShapeKind::box:
          return intersects(as_segment(a), as_box(b));
      }
      break;
    case ShapeKind::circle:
      return kb == ShapeKind::circle ? intersects(as_circle(a), as_circle(b)) : intersects(as_circle(a), as_box(b));
    case ShapeKind::box:
      return intersects(as_box(a), as_box(b));
  }
  return false;
}

UninitializedVector<ShapeRecord> pack_shapes(const Scene& scene) {
  const std::size_t ns = scene.segment_count(), nc = scene.circle_count();
  UninitializedVector<ShapeRecord> out(scene.size());
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, out.size(), 1 << 14), [&](const auto& range) {
    for (std::size_t i = range.begin(); i != range.end(); ++i) {
      ShapeRecord& r = out[i];
      if (i < ns) {
        const Segment s = scene.segment(static_cast<std::uint32_t>(i));
        r = {bounds(s), {s.a.x, s.a.y, s.b.x, s.b.y}};
      } else if (i < ns + nc) {
        const Circle c = scene.circle(static_cast<std::uint32_t>(i - ns));
        r = {bounds(c), {c.c.x, c.c.y, c.r, 0.0f}};
      } else {
        const Box b = scene.box(static_cast<std::uint32_t>(i - ns - nc));
        r = {b.min, b.max, {b.min.x, b.min.y, b.max.x, b.max.y}};
      }
    }
  });
  return out;
}

}  // namespace hitgrid
