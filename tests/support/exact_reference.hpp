// The independent exact reference for core/predicates.hpp and core/intersects.hpp.
//
// Every answer here is exact rational arithmetic on the float32 inputs, done with GMP
// integers. It shares no code and, for the boolean tests, no formulation with the library,
// so that a mistake in one is unlikely to be repeated in the other:
//
//   library (core/src/intersects.cpp)        reference (this file)
//   segment-segment: four orientations +      solve A + t r = C + u q for the rational
//     endpoint-on-segment tests                parameters t, u; collinear: project onto
//                                              the line, intersect parameter intervals
//   segment-circle:  closest feature by       exact minimum over t in [0, 1] of
//     dot signs, then line distance            |A + t r - C|^2, t rational and clamped
//   segment-box:     separating axes          Liang-Barsky clipping with rational t
//   circle-box:      clamp + distance         per-axis gap max(lo - c, 0, c - hi)
//   box-box, circle-circle: the definition (there is no real alternative).
//
// How the numbers are made exact and fast: every finite float32 is m * 2^e with an integer
// m (|m| < 2^24) and -149 <= e <= 104. All inputs of one call are scaled by one common
// power of two 2^K (K = -min e) into integers, and every formula is homogeneous in its
// inputs (scaling all coordinates and radii by 2^K scales each side of every comparison
// by the same positive factor), so signs and booleans are unchanged. Working with
// integers and cross-multiplying instead of dividing avoids mpq canonicalisation (gcds),
// and the per-call scale keeps ordinary inputs at one or two limbs: that is what makes this
// reference faster than the same polynomials in mpq_class, and fast enough for the
// million-case [predicates] and [intersects] runs.
#pragma once

#include "hitgrid/core/scene.hpp"
#include "hitgrid/core/shapes.hpp"

namespace hitgrid::reference {

int orient2d(Vec2 a, Vec2 b, Vec2 c);
int dot_sign(Vec2 a, Vec2 b, Vec2 c);
/// Sign of cross(d, p - o).
int orient_along(Vec2 o, Vec2 d, Vec2 p);
int compare_distance(Vec2 p, Vec2 q, float r);
int compare_center_distance(Vec2 p, Vec2 q, float r1, float r2);
int compare_line_distance(Vec2 a, Vec2 b, Vec2 p, float r);

bool intersects(const Segment& s, const Segment& t);
bool intersects(const Segment& s, const Circle& c);
bool intersects(const Segment& s, const Box& b);
bool intersects(const Circle& c, const Circle& d);
bool intersects(const Circle& c, const Box& b);
bool intersects(const Box& a, const Box& b);
/// Shapes a and b of a scene, whatever their kinds.
bool intersects(const Scene& scene, ShapeId a, ShapeId b);

/// The exact value of a finite float as m * 2^e (m odd, or m == 0 and e == 0). Exposed so
/// a test can check the decomposition against GMP's own exact conversion.
struct Dyadic {
  long m = 0;
  int e = 0;
};
Dyadic decompose(float f);

}  // namespace hitgrid::reference
