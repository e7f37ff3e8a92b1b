// Distances from a point to a line and to a segment.
//
// Conventions
//   - Lines are given by two points a != b and oriented from a to b. The signed distance is
//     positive when p lies to the left of a -> b (a, b, p counter-clockwise, with the y axis
//     pointing up), negative to the right, zero on the line: its sign is exactly
//     orient2d(a, b, p). The left normal of a -> b is (-(b.y - a.y), b.x - a.x).
//   - Segments are closed; a zero-length segment is the point a. The closest point of a
//     segment (a, b) to p is a + t (b - a), t in [0, 1].
//
// What is exact (float32 inputs taken as exact rationals)
//   - The sign of signed_distance_to_line, and whether it is 0.
//   - Which feature of the segment is closest (endpoint a, endpoint b, or the interior):
//     decided with dot_sign, like intersects(Segment, Circle); at an endpoint the closest
//     point and t (0 or 1) are exact. A zero-length segment reports endpoint a, t = 0.
//   - The distance is 0 exactly iff p lies on the line / segment.
//
// What is rounded (u = 2^-53; M = the largest |coordinate| of a and b)
//   - Every distance: relative error <= 2^-47. The squared distance is never formed
//     naively: the cross and dot products are evaluated exactly when they cancel.
//   - Interior closest point: |t - t*| <= 2^-46 t*, and each coordinate within 2^-44 M
//     of the exact closest point (clamped into the segment's bounding box).
//
// For a yes/no question "is p within distance r of the segment?" use
// intersects(segment, Circle{p, r}) (intersects.hpp), which is exact; comparing the
// rounded distance with r is not.
#pragma once

#include <cstdint>

#include "hitgrid/core/shapes.hpp"
#include "hitgrid/core/vec2.hpp"

namespace hitgrid {

/// Signed distance from p to the line through a and b (see the sign convention above).
/// For a == b there is no line: returns the (nonnegative) distance |p - a|.
double signed_distance_to_line(Vec2 p, Vec2 a, Vec2 b);

enum class SegmentFeature : std::uint8_t { endpoint_a, interior, endpoint_b };

struct SegmentClosestPoint {
  double distance = 0.0;  ///< |p - point|, relative error <= 2^-47
  Vec2d point;            ///< the closest point of the segment
  double t = 0.0;         ///< point = a + t (b - a), in [0, 1]
  SegmentFeature feature = SegmentFeature::endpoint_a;
};

/// The point of the closed segment s closest to p (unique: a segment is convex).
SegmentClosestPoint closest_point_on_segment(Vec2 p, const Segment& s);

/// |p - closest point of s|, relative error <= 2^-47.
double distance_to_segment(Vec2 p, const Segment& s);

}  // namespace hitgrid
