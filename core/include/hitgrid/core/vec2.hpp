// Vec2: a point or vector of the plane with float32 coordinates.
//
// Coordinates are the exact inputs of every predicate: hitgrid treats each float as the
// rational number it represents. Arithmetic on Vec2 below rounds (it is float math) and is
// for convenience only; exact decisions go through core/predicates.hpp.
#pragma once

namespace hitgrid {

struct Vec2 {
  float x = 0.0f;
  float y = 0.0f;

  friend constexpr bool operator==(Vec2 a, Vec2 b) { return a.x == b.x && a.y == b.y; }
};

/// Double-precision vector: the result type of the (rounded) geometry functions.
struct Vec2d {
  double x = 0.0;
  double y = 0.0;

  friend constexpr bool operator==(Vec2d a, Vec2d b) { return a.x == b.x && a.y == b.y; }
};

constexpr Vec2d to_double(Vec2 v) { return {v.x, v.y}; }
constexpr Vec2d operator+(Vec2d a, Vec2d b) { return {a.x + b.x, a.y + b.y}; }
constexpr Vec2d operator-(Vec2d a, Vec2d b) { return {a.x - b.x, a.y - b.y}; }
constexpr Vec2d operator*(double s, Vec2d a) { return {s * a.x, s * a.y}; }
constexpr double dot(Vec2d a, Vec2d b) { return a.x * b.x + a.y * b.y; }
constexpr double cross(Vec2d a, Vec2d b) { return a.x * b.y - a.y * b.x; }

}  // namespace hitgrid
