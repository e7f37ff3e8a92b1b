// Shapes of the world from other languages: how the C API and the Python module turn a
// caller's rows of floats (ShapeRows, core/scene.hpp) into the shapes World::create and
// World::move take, and check them first so that invalid geometry reaches their callers
// as InvalidShapeError, named by kind and position in the call ("circle 2: r is NaN"),
// the type their status codes and exceptions are chosen by.
#pragma once

#include <cstddef>
#include <cstdint>
#include <variant>

#include "hitgrid/core/error.hpp"
#include "hitgrid/core/scene.hpp"
#include "hitgrid/world/world.hpp"

namespace hitgrid {

/// Row i of `rows` as a shape of `kind` (a segment's ax ay bx by, a circle's cx cy r, a
/// box's minx miny maxx maxy). Not validated: World validates what it is given.
inline Shape shape_of_row(ShapeKind kind, const ShapeRows& rows, std::size_t i) {
  const float* row = rows.data + static_cast<std::ptrdiff_t>(i) * rows.row_stride;
  auto f = [&](std::ptrdiff_t j) { return row[j * rows.column_stride]; };
  switch (kind) {
    case ShapeKind::segment:
      return Segment{{f(0), f(1)}, {f(2), f(3)}};
    case ShapeKind::circle:
      return Circle{{f(0), f(1)}, f(2)};
    case ShapeKind::box:
      break;
  }
  return Box{{f(0), f(1)}, {f(2), f(3)}};
}

/// `shape`, unless it is invalid: then throws InvalidShapeError naming it by its kind and
/// `position` (its place in the caller's batch; 0 for a single shape).
inline const Shape& checked_shape(const Shape& shape, std::size_t position) {
  const ShapeKind kind = static_cast<ShapeKind>(shape.index());
  const auto reason = std::visit([](const auto& g) { return invalid_reason(g); }, shape);
  if (reason) throw InvalidShapeError(ShapeId(kind, static_cast<std::uint32_t>(position)), *reason);
  return shape;
}

/// Floats per row of a kind: 4, or 3 for circles.
constexpr std::size_t row_width(ShapeKind kind) { return kind == ShapeKind::circle ? 3 : 4; }

}  // namespace hitgrid
