// Aabb: conservative float32 bounding boxes of shapes, for broad phases.
//
// "Conservative" means the box contains the exact shape: a broad phase that compares
// these boxes exactly (float comparisons are exact) can never drop a colliding pair.
// Segment and box bounds are exact. A circle's bounds c -+ r are not floats in general;
// they are computed in double and then moved one float step outward, which covers both
// the double rounding (relative 2^-53) and the rounding to float (half a float step).
//
// Every bound is a finite float. A circle near FLT_MAX can reach past the largest float
// (and so can a box grown by a margin); its bounds then stop at +-FLT_MAX, which loses no
// contact: every other shape lies within the finite floats, and two disks that meet share
// a point on the segment between their centres, which lies there too. So the box still
// holds every point where the shape can meet another valid shape, and no later stage
// (cell indices, extents) ever sees an infinity (docs/contracts.md, contract 1: every
// finite float32 magnitude works, and the tests check both ends).
#pragma once

#include <algorithm>
#include <limits>

#include "hitgrid/core/float_steps.hpp"
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

/// x clamped to the finite floats (see the header comment).
constexpr float finite_float(float x) {
  return std::clamp(x, -std::numeric_limits<float>::max(), std::numeric_limits<float>::max());
}
/// A float <= x (x computed in double from float inputs, see the header comment), or
/// -FLT_MAX if x is below every float.
inline float float_below(double x) { return finite_float(next_float_down(static_cast<float>(x))); }
/// A float >= x, or FLT_MAX if x is above every float.
inline float float_above(double x) { return finite_float(next_float_up(static_cast<float>(x))); }

inline Aabb bounds(const Segment& s) {
  return {{std::min(s.a.x, s.b.x), std::min(s.a.y, s.b.y)}, {std::max(s.a.x, s.b.x), std::max(s.a.y, s.b.y)}};
}

inline Aabb bounds(const Circle& c) {
  if (c.r == 0.0f) return {c.c, c.c};
  const double r = c.r;
  return {{float_below(c.c.x - r), float_below(c.c.y - r)}, {float_above(c.c.x + r), float_above(c.c.y + r)}};
}

inline Aabb bounds(const Box& b) { return {b.min, b.max}; }

/// The box grown by m (finite, >= 0) on every side, rounded outward: every point of the
/// finite float plane within distance m of the box is in it.
inline Aabb grown(const Aabb& box, float m) {
  if (m == 0.0f) return box;
  return {{finite_float(float_at_most(double{box.min.x} - m)), finite_float(float_at_most(double{box.min.y} - m))},
          {finite_float(float_at_least(double{box.max.x} + m)), finite_float(float_at_least(double{box.max.y} + m))}};
}

/// `inner` lies in `outer` (closed boxes).
constexpr bool contains(const Aabb& outer, const Aabb& inner) {
  return outer.min.x <= inner.min.x && outer.min.y <= inner.min.y && inner.max.x <= outer.max.x &&
         inner.max.y <= outer.max.y;
}

}  // namespace hitgrid
