// Swept circle against swept circle: the first time of contact within one frame.
//
// Conventions
//   - Circle i moves linearly: its centre at time t is c_i + t v_i, t in [0, 1]; radii are
//     constant, r_i >= 0 (valid circles). Disks are closed: touching (distance between
//     centres == r1 + r2) is contact, so a grazing pass that touches at one instant hits.
//   - Result kinds:
//       none         no contact at any t in [0, 1] (this includes zero relative velocity
//                    with a positive gap);
//       overlapping  the disks already overlap at t = 0 (distance < r1 + r2); t = 0;
//       touching     they touch at t = 0 (distance == r1 + r2), whatever happens after;
//                    t = 0;
//       impact       first contact at t in (0, 1]; t is that time.
//
// What is exact (float32 inputs taken as exact rationals, no epsilon)
//   - The kind. With w = c2 - c1, v = v2 - v1, R = r1 + r2, the squared gap is
//     g(t) = |w + t v|^2 - R^2 = A t^2 + 2 B t + C. Contact in (0, 1] after a positive gap
//     C > 0 happens iff g(1) <= 0, or B < 0 and A + B > 0 (closest approach inside the
//     frame) and B^2 - A C >= 0. Each of these is the sign of a polynomial of degree <= 4
//     in the inputs, evaluated exactly (filtered, with an expansion fallback).
//
// What is rounded (u = 2^-53)
//   - The time of an impact: |t - t*| <= 2^-46 t*. It is computed as
//     t = C / (-B + sqrt(B^2 - A C)) (the smaller root, in the form without cancellation),
//     from values each evaluated to relative error ~2^-48, then clamped to 1.
#pragma once

#include <cstdint>

#include "hitgrid/core/shapes.hpp"
#include "hitgrid/core/vec2.hpp"

namespace hitgrid {

enum class ToiKind : std::uint8_t { none, overlapping, touching, impact };

struct TimeOfImpact {
  ToiKind kind = ToiKind::none;
  /// The first time of contact in [0, 1]: 0 for overlapping and touching; 0 for none.
  double t = 0.0;

  bool hit() const { return kind != ToiKind::none; }
};

/// First contact of circle c1 moving with velocity v1 and circle c2 moving with v2.
TimeOfImpact time_of_impact(const Circle& c1, Vec2 v1, const Circle& c2, Vec2 v2);

}  // namespace hitgrid
