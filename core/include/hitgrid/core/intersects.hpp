// Exact boolean intersection tests for the six pair kinds.
//
// Shapes are closed (shapes.hpp): touching counts, a shared endpoint counts, collinear
// overlap counts, and zero-size shapes (a point segment, a zero radius, a flat box) are
// handled as the point sets they are. Every answer equals exact rational arithmetic on the
// float32 inputs; the building blocks are core/predicates.hpp and exact comparisons.
// Inputs must be valid shapes (finite, r >= 0, min <= max), which Scene guarantees.
#pragma once

#include "hitgrid/core/shapes.hpp"

namespace hitgrid {

bool intersects(const Segment& s, const Segment& t);
bool intersects(const Segment& s, const Circle& c);
bool intersects(const Segment& s, const Box& b);
bool intersects(const Circle& c, const Circle& d);
bool intersects(const Circle& c, const Box& b);
bool intersects(const Box& a, const Box& b);

inline bool intersects(const Circle& c, const Segment& s) { return intersects(s, c); }
inline bool intersects(const Box& b, const Segment& s) { return intersects(s, b); }
inline bool intersects(const Box& b, const Circle& c) { return intersects(c, b); }

}  // namespace hitgrid
