// In which order a point moving along a segment crosses two lines, exactly.
//
//   // p moves to q; which of the lines (a1, b1) and (a2, b2) does it cross first?
//   int s = hitgrid::compare_crossings(p, q, a1, b1, a2, b2);   // -1: the first, 0: together
//
// The point moves as p + t (q - p). A line through a != b meets that line at one time t
// unless it is parallel to q - p (or p == q). compare_crossings returns the sign of
// t1 - t2, where t_i is the time the moving point is on line (a_i, b_i): the times need not
// lie in [0, 1] (the caller knows which crossings it asks about). A line parallel to the
// path, or a degenerate one (a == b), is crossed at no time: it ranks after every line
// that is crossed, and two such compare equal (0).
//
// Exact for all finite float32 inputs (docs/contracts.md, contract 1): with
// o_i(x) = cross(b_i - a_i, x - a_i), t_i = o_i(p) / (o_i(p) - o_i(q)), and
//   sign(t1 - t2) = sign(o2(p) o1(q) - o1(p) o2(q)) * sign(o1(p) - o1(q)) * sign(o2(p) - o2(q)),
// a degree-4 polynomial and two degree-2 ones in the inputs, each evaluated with the
// floating-point filter and, when it cannot decide, exactly (docs/contracts.md, contract 1, "How").
// No time is ever computed or rounded.
//
// The rope (hitgrid/rope/rope.hpp) orders the events of a moving peg with it: each event is the
// peg crossing a line through two input points (a pivot and a peg, or two nodes).
#pragma once

#include "hitgrid/core/vec2.hpp"

namespace hitgrid {

int compare_crossings(Vec2 p, Vec2 q, Vec2 a1, Vec2 b1, Vec2 a2, Vec2 b2);

}  // namespace hitgrid
