// The predicates of hitgrid/core/predicates.hpp without the floating-point filter: always
// the exact expansion path, with identical results. Not part of the public API: tests
// compare the filtered predicates against them, and the benchmarks measure the cold path.
#pragma once

#include "hitgrid/core/vec2.hpp"

namespace hitgrid::exact {

int orient2d(Vec2 a, Vec2 b, Vec2 c);
int dot_sign(Vec2 a, Vec2 b, Vec2 c);
int compare_distance(Vec2 p, Vec2 q, float r);
int compare_center_distance(Vec2 p, Vec2 q, float r1, float r2);
int compare_line_distance(Vec2 a, Vec2 b, Vec2 p, float r);

}  // namespace hitgrid::exact
