// Aabb: conservative float32 bounding boxes of shapes, for broad phases.
//
// "Conservative" means the box contains the exact shape: a broad phase that compares
// these boxes exactly (float comparisons are exact) can never drop a colliding pair.
// Segment and box bounds are exact. A circle's bounds c -+ r are not floats in general;
// they are computed in double and then moved one float step outward, which covers both
// the double rounding (relative 2^-53) and the rounding to float (half a float step).
//
// Every bound is a finite float. A circle near FLT_MAX can reach past the largest float;
// its bounds then stop at +-FLT_MAX, which loses no contact: every other shape lies within
// the finite floats, and two disks that meet share a point on the segment between their
// centres, which lies there too. So the box still holds every point where the circle can
// meet another valid shape, and no later stage (cell indices, extents) ever sees an
// infinity (docs/contracts.md, contract 1: every finite float32 magnitude works).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "hitgrid/core/shapes.hpp"

namespace hitgrid {

struct Aabb {
  Vec2 min;
  Vec2 max;
  friend constexpr bool operator==(const Aabb&, const Aabb&) = default;
};

/// Closed boxes overlap (touching counts).
constexpr bool overlaps(const Aabb& a, const Aabb& b) {
  return a.min.x <= b.max.x && b.min.x <= a.max.x && a.min.y <= b.max.y && b.min.y <= a.max.y;
}

/// A float <= x (x computed in double from float inputs, see the header comment), or
/// -FLT_MAX if x is below every float.
inline float float_below(double x) {
  return std::max(std::nextafter(static_cast<float>(x), -std::numeric_limits<float>::infinity()),
                  -std::numeric_limits<float>::max());
}
/// A float >= x, or FLT_MAX if x is beyond every float (see the header comment).
inline float float_above(double x) {
  return std::min(std::nextafter(static_cast<float>(x), std::numeric_limits<float>::infinity()),
                  std::numeric_limits<float>::max());
}

inline Aabb bounds(const Segment& s) {
  return {{std::min(s.a.x, s.b.x), std::min(s.a.y, s.b.y)}, {std::max(s.a.x, s.b.x), std::max(s.a.y, s.b.y)}};
}

inline Aabb bounds(const Circle& c) {
  if (c.r == 0.0f) return {c.c, c.c};
  const double r = c.r;
  return {{float_below(c.c.x - r), float_below(c.c.y - r)}, {float_above(c.c.x + r), float_above(c.c.y + r)}};
}

inline Aabb bounds(const Box& b) { return {b.min, b.max}; }

}  // namespace hitgrid
