// Where two segments meet, and where two lines meet.
//
// Conventions
//   - Segments are closed (shapes.hpp); a segment with a == b is the single point a.
//   - The first segment (a, b) is parametrised a + s (b - a), s in [0, 1]; the second
//     (c, d) as c + t (d - c), t in [0, 1]. On a zero-length segment every point has
//     parameter 0.
//   - The kind is `none` (no common point), `point` (exactly one common point) or
//     `overlap` (collinear segments sharing more than one point). Two collinear segments
//     that only touch end to end meet in a `point`.
//
// What is exact (float32 inputs taken as exact rationals, no epsilon)
//   - The kind. It is decided with orient2d and comparisons only, and `kind != none`
//     equals intersects(Segment, Segment) on every input.
//   - Overlap endpoints: they are endpoints of the inputs, returned unrounded.
//   - A point that is an endpoint of either segment (a T-junction, a shared endpoint):
//     returned unrounded, exact_point == true.
//   - Parameters at endpoints: 0 and 1 exactly (s = 0 at a, 1 at b; t = 0 at c, 1 at d).
//
// What is rounded, and how much (u = 2^-53; M = the largest |coordinate| of a, b, c, d)
//   - Every other parameter: |s - s*| <= 2^-46 |s*|, the same for t.
//   - A crossing point (interior to both segments): each coordinate within 2^-44 M of the
//     exact point, whatever the angle between the segments (the parameters are computed
//     from exactly evaluated cross products, so nearly parallel segments lose nothing).
//     The point is also clamped into both segments' bounding boxes.
//
// Lines (line_intersection): the infinite lines through a, b and through c, d. Parallel
// and coincident are decided exactly. The point, s and t (point = a + s (b - a) =
// c + t (d - c)) are rounded: |s - s*| <= 2^-46 |s*|, the same for t, and each coordinate of
// the point lies within 2^-45 (M + |point|_inf) of the exact one.
#pragma once

#include <cstdint>

#include "hitgrid/core/shapes.hpp"
#include "hitgrid/core/vec2.hpp"

namespace hitgrid {

enum class SegmentIntersectionKind : std::uint8_t { none, point, overlap };

struct SegmentIntersection {
  SegmentIntersectionKind kind = SegmentIntersectionKind::none;
  /// point: the common point. overlap: the end of the common part with the smaller s.
  Vec2d p0;
  /// point: equal to p0. overlap: the end with the larger s.
  Vec2d p1;
  /// Parameters of p0 and p1 on the first segment (s0 < s1 for an overlap)...
  double s0 = 0.0;
  double s1 = 0.0;
  /// ...and on the second (t0 < t1 or t0 > t1, as the segments point the same or opposite way).
  double t0 = 0.0;
  double t1 = 0.0;
  /// p0 and p1 are exact (each is an endpoint of an input). Always true for an overlap.
  bool exact_point = false;

  bool hit() const { return kind != SegmentIntersectionKind::none; }
};

SegmentIntersection segment_intersection(const Segment& first, const Segment& second);

enum class LineIntersectionKind : std::uint8_t {
  point,       // the lines cross in one point
  parallel,    // distinct parallel lines: no common point
  coincident,  // the same line
  degenerate,  // a == b or c == d: two equal points do not define a line
};

struct LineIntersection {
  LineIntersectionKind kind = LineIntersectionKind::degenerate;
  /// kind == point: the crossing, = a + s (b - a) = c + t (d - c). Otherwise (0, 0), 0, 0.
  Vec2d point;
  double s = 0.0;
  double t = 0.0;
};

/// The lines through a, b and through c, d.
LineIntersection line_intersection(Vec2 a, Vec2 b, Vec2 c, Vec2 d);

}  // namespace hitgrid
