// The three shape kinds. All are closed sets (see docs/scenes.md):
//   Segment: every point between a and b, endpoints included; a == b is a point.
//   Circle:  the closed disk of radius r >= 0 around c; r == 0 is a point.
//   Box:     the closed axis-aligned rectangle [min.x, max.x] x [min.y, max.y], min <= max;
//            zero width or height is a segment or a point.
#pragma once

#include <cstdint>
#include <string_view>

#include "hitgrid/core/vec2.hpp"

namespace hitgrid {

struct Segment {
  Vec2 a;
  Vec2 b;
  friend constexpr bool operator==(const Segment&, const Segment&) = default;
};

struct Circle {
  Vec2 c;
  float r = 0.0f;
  friend constexpr bool operator==(const Circle&, const Circle&) = default;
};

struct Box {
  Vec2 min;
  Vec2 max;
  friend constexpr bool operator==(const Box&, const Box&) = default;
};

/// Kind order is part of the pair format: segments < circles < boxes.
enum class ShapeKind : std::uint8_t { segment = 0, circle = 1, box = 2 };

/// The one-letter tag used by the text formats ('s', 'c', 'b').
constexpr char kind_letter(ShapeKind k) { return k == ShapeKind::segment ? 's' : k == ShapeKind::circle ? 'c' : 'b'; }
constexpr std::string_view kind_name(ShapeKind k) {
  return k == ShapeKind::segment ? "segment" : k == ShapeKind::circle ? "circle" : "box";
}

}  // namespace hitgrid
