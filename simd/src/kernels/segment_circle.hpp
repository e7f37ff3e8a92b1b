// Segment-circle in lanes. Scalar twin: intersects(const Segment&, const Circle&) in
// core/src/intersects.cpp:
//
//   bounding boxes apart (computed in double: c.x - r rounds, monotonically, so the
//   rejection is conservative; the same expression as the scalar test)   -> false
//   dot(b - a, c - a) <= 0   (centre projects before a, or a == b)   -> |c - a|^2 <= r^2
//   dot(a - b, c - b) <= 0   (centre projects past b)                -> |c - b|^2 <= r^2
//   otherwise                                                        -> cross(b - a, c - a)^2 <= r^2 |b - a|^2
//
// All five signs are evaluated in every lane (stage 1: static bound for the dot
// products, running bound for the distances); the lane's verdict then needs only the signs
// on its own branch to be known.
#pragma once

#include "lane_numbers.hpp"
#include "predicate_polynomials.hpp"  // core/src
#include "verdict.hpp"

namespace hitgrid::simd::kernels {

struct SegmentCircleKernel {
  static constexpr int columns_a = 4, columns_b = 3;
  static constexpr bool float_lanes = false;

  template <class A>
  [[gnu::always_inline]] static Verdict<DoubleMask<A>> block(const Doubles<A>* s, const Doubles<A>* c) {
    using D = Doubles<A>;
    using M = DoubleMask<A>;
    const D &ax = s[0], &ay = s[1], &bx = s[2], &by = s[3];
    const D &cx = c[0], &cy = c[1], &r = c[2];
    const M apart = (xsimd::max(ax, bx) < cx - r) | (xsimd::min(ax, bx) > cx + r) | (xsimd::max(ay, by) < cy - r) |
                    (xsimd::min(ay, by) > cy + r);
    const M live = ~apart;
    if (!xsimd::any(live)) return {M(false), M(false)};

    using F = FilteredLanes<A>;
    LaneSign<A> before_a = static_dot<A>(ax, ay, bx, by, cx, cy);
    LaneSign<A> past_b = static_dot<A>(bx, by, ax, ay, cx, cy);
    LaneSign<A> near_a = sign_of(poly::distance(F(cx), F(cy), F(ax), F(ay), F(r)));
    LaneSign<A> near_b = sign_of(poly::distance(F(cx), F(cy), F(bx), F(by), F(r)));
    LaneSign<A> near_line = sign_of(poly::line_distance(F(ax), F(ay), F(bx), F(by), F(cx), F(cy), F(r)));

    const D zero(0.0);
    const auto decide = [&](M& known) {
      const M to_a = before_a.v <= zero;
      const M to_b = (~to_a) & (past_b.v <= zero);
      const M to_line = (~to_a) & (~to_b);
      const M branch_known = (to_a & near_a.known) | (to_b & near_b.known) | (to_line & near_line.known);
      known = before_a.known & (to_a | past_b.known) & branch_known;
      return (to_a & (near_a.v <= zero)) | (to_b & (near_b.v <= zero)) | (to_line & (near_line.v <= zero));
    };
    M known;
    M inside = decide(known);
    if (xsimd::any(live & ~known)) {
      using C = CheckedLanes<A>;
      before_a = refine(before_a, poly::dot(C(ax), C(ay), C(bx), C(by), C(cx), C(cy)));
      past_b = refine(past_b, poly::dot(C(bx), C(by), C(ax), C(ay), C(cx), C(cy)));
      near_a = refine(near_a, poly::distance(C(cx), C(cy), C(ax), C(ay), C(r)));
      near_b = refine(near_b, poly::distance(C(cx), C(cy), C(bx), C(by), C(r)));
      near_line = refine(near_line, poly::line_distance(C(ax), C(ay), C(bx), C(by), C(cx), C(cy), C(r)));
      inside = decide(known);
    }
    return {live & known & inside, live & ~known};
  }
};

}  // namespace hitgrid::simd::kernels
