#include "packed_shapes.hpp"

#include <tbb/parallel_for.h>

#include "hitgrid/broadphase/detail/parallel.hpp"
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
  const KindRanges kinds = KindRanges::of(scene);
  UninitializedVector<ShapeRecord> out(scene.size());
  detail::parallel_for(tbb::blocked_range<std::size_t>(0, out.size(), detail::shapes_per_task), [&](const auto& range) {
    for (std::size_t i = range.begin(); i != range.end(); ++i)
      out[i] = record_of(scene, kinds, static_cast<std::uint32_t>(i));
  });
  return out;
}

}  // namespace hitgrid
