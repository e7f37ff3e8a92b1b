// Exact "within distance m" tests for the six pair kinds: the contact margin.
//
// Conventions
//   - Shapes are closed (shapes.hpp), as for intersects.hpp: a zero-length segment is a
//     point, a zero radius a point, a flat box a segment or a point.
//   - within_distance(a, b, m) is true iff the Euclidean distance between the two shapes,
//     min |x - y| over x in a and y in b, is at most m. Shapes that share a point are at
//     distance 0, so with m = 0 it is intersects(a, b) on every input, and it only ever
//     turns from false to true as m grows.
//   - Precondition: m is finite and m >= 0 (-0 counts as 0); valid_margin(m) says whether
//     it is. The caller checks it (a margin is user input: docs/contracts.md, contract 5);
//     debug builds assert it. Inputs must be valid shapes (finite, r >= 0, min <= max),
//     as for intersects.hpp.
//
// What is exact (float32 inputs and m taken as exact rationals, no epsilon)
//   - Every answer. Each one is intersects() or the sign of a polynomial of degree <= 4
//     (filtered in double, with an expansion fallback), chosen by exact comparisons and
//     exact signs:
//       circle-circle    |p - q|^2 <= (r1 + r2 + m)^2
//       segment-circle   the closest feature of the segment to the centre (dot signs, as
//                        intersects does), then the distance to that endpoint or to the
//                        line against r + m
//       circle-box       the box's point closest to the centre (clamping: comparisons),
//                        then its distance against r + m
//       box-box          the per-axis gaps (exact differences of floats, 0 where the
//                        intervals overlap): gx^2 + gy^2 <= m^2
//       segment-segment  intersects, or an endpoint of either within m of the other
//       segment-box      intersects, or an endpoint of the segment within m of the box,
//                        or a corner of the box within m of the segment
//     The sums r + m and r1 + r2 + m are never rounded to a float: each sits inside its
//     polynomial (|p - q|^2 - (r1 + r2 + m)^2, for instance), so the filter's error bound
//     covers it and the exact fallback computes it exactly (docs/contracts.md, contract 1,
//     says how exactness is reached). For two disjoint convex shapes with straight edges
//     the closest pair has a vertex of one of them (the distance between two disjoint
//     segments is reached at an endpoint of one), which is why the endpoint and corner
//     tests decide the last two kinds.
//   - Nothing is rounded: there is no returned value, only the decision.
//
// For batches: each test is a fixed sequence of the predicates above with one m for every
// pair, so a batch kernel can evaluate the same polynomials in lanes and send the lanes
// it cannot decide to these functions, as the pair kernels do with intersects()
// (hitgrid/simd/pair_kernels.hpp).
#pragma once

#include <limits>

#include "hitgrid/core/shapes.hpp"

namespace hitgrid {

/// m is a margin within_distance accepts: finite and >= 0 (false for NaN).
constexpr bool valid_margin(float m) { return m >= 0.0f && m <= std::numeric_limits<float>::max(); }

bool within_distance(const Segment& s, const Segment& t, float m);
bool within_distance(const Segment& s, const Circle& c, float m);
bool within_distance(const Segment& s, const Box& b, float m);
bool within_distance(const Circle& c, const Circle& d, float m);
bool within_distance(const Circle& c, const Box& b, float m);
bool within_distance(const Box& a, const Box& b, float m);

inline bool within_distance(const Circle& c, const Segment& s, float m) { return within_distance(s, c, m); }
inline bool within_distance(const Box& b, const Segment& s, float m) { return within_distance(s, b, m); }
inline bool within_distance(const Box& b, const Circle& c, float m) { return within_distance(c, b, m); }

}  // namespace hitgrid
