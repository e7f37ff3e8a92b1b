// Private: which field of an invalid shape a reader should blame.
//
// Fields are numbered in file order (segment ax ay bx by; circle cx cy r; box minx miny
// maxx maxy). The order of the checks follows invalid_reason() in scene.cpp, so the field
// named here is the one its message talks about: the first non-finite coordinate, else the
// radius, else the min of the inverted axis.
#pragma once

#include <cmath>

#include "hitgrid/core/shapes.hpp"

namespace hitgrid::detail {

inline int first_non_finite(std::initializer_list<float> values) {
  int i = 0;
  for (float v : values) {
    if (!std::isfinite(v)) return i;
    ++i;
  }
  return -1;
}

inline int invalid_field(const Segment& s) {
  const int f = first_non_finite({s.a.x, s.a.y, s.b.x, s.b.y});
  return f >= 0 ? f : 0;
}

inline int invalid_field(const Circle& c) {
  const int f = first_non_finite({c.c.x, c.c.y, c.r});
  return f >= 0 ? f : 2;
}

inline int invalid_field(const Box& b) {
  const int f = first_non_finite({b.min.x, b.min.y, b.max.x, b.max.y});
  if (f >= 0) return f;
  return b.min.x > b.max.x ? 0 : 1;
}

}  // namespace hitgrid::detail
