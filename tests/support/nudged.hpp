// Shapes moved by at most one ulp per coordinate, in random directions: exact contacts
// become one-ulp misses or overlaps and back (for the world's carried-contact tests).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <variant>

#include "hitgrid/core/shapes.hpp"
#include "hitgrid/core/splitmix64.hpp"

namespace hitgrid::test {

/// The one-ulp neighbour of v in a random direction (or v), kept finite.
inline float nudged(float v, SplitMix64& r) {
  const std::uint64_t d = r.next() % 3;
  if (d == 0) return v;
  const float n =
      std::nextafter(v, d == 1 ? std::numeric_limits<float>::infinity() : -std::numeric_limits<float>::infinity());
  return std::isfinite(n) ? n : v;
}

/// Every coordinate moved by at most one ulp (a circle's radius kept >= 0; a box moves a
/// step in each axis, both sides alike, so that min <= max stays).
inline std::variant<Segment, Circle, Box> nudged(const std::variant<Segment, Circle, Box>& s, SplitMix64& r) {
  if (const auto* g = std::get_if<Segment>(&s))
    return Segment{{nudged(g->a.x, r), nudged(g->a.y, r)}, {nudged(g->b.x, r), nudged(g->b.y, r)}};
  if (const auto* c = std::get_if<Circle>(&s)) {
    const float radius = nudged(c->r, r);
    return Circle{{nudged(c->c.x, r), nudged(c->c.y, r)}, radius < 0 ? c->r : radius};
  }
  const Box& b = std::get<Box>(s);
  const std::uint64_t dx = r.next() % 3, dy = r.next() % 3;
  auto step = [](float v, std::uint64_t d) {
    if (d == 0) return v;
    const float n =
        std::nextafter(v, d == 1 ? std::numeric_limits<float>::infinity() : -std::numeric_limits<float>::infinity());
    return std::isfinite(n) ? n : v;
  };
  const Box moved{{step(b.min.x, dx), step(b.min.y, dy)}, {step(b.max.x, dx), step(b.max.y, dy)}};
  return moved.min.x <= moved.max.x && moved.min.y <= moved.max.y ? moved : b;
}

}  // namespace hitgrid::test
