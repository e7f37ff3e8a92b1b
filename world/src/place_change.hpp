// PlaceChange: how a world's dynamic scene changed between two steps, one shape at a time,
// for the parts that keep state by place (DynamicContacts, StaticContacts) to follow it
// rather than start again.
#pragma once

#include <cstdint>

#include "hitgrid/core/shapes.hpp"

namespace hitgrid {

/// A shape of `kind` taken out of `place` (the kind's last shape moved into it:
/// Scene::swap_remove), or one added at `place`, the kind's end; `slot`, the shape's.
/// A log of them, in order, leads from the scene at the last step to the scene now.
struct PlaceChange {
  ShapeKind kind;
  bool added;
  std::uint32_t place;
  std::uint32_t slot;
};

}  // namespace hitgrid
