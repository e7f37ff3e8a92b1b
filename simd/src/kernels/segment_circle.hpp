// Segment-circle in lanes. Scalar twin: intersects(const Segment&, const Circle&) in
// core/src/intersects.cpp:
//
//   bounding boxes apart (computed in double: c.x - r rounds, monotonically, so the
//   rejection is conservative; the same expression as the scalar test)   -> false
//   dot(b - a, c - a) <= 0   (centre projects before a, or a == b)   -> |c - a|^2 <= r^2
//   dot(a - b, c - b) <= 0   (centre projects past b)                -> |c - b|^2 <= r^2
//   otherwise                                                        -> cross(b - a, c - a)^2 <= r^2 |b - a|^2
//
// Stage 1 bounds every sign statically (lane_numbers.hpp: static_dot, static_distance,
// static_line_distance). The two dot products come first; they choose each lane's
// endpoint, the nearer of a and b when the centre projects outside the segment, so that
// one distance serves both endpoint branches. That distance and the line distance are
// evaluated in every lane; the lane's verdict then needs only the signs on its own branch
// to be known. A lane whose dot products are unknown has no endpoint yet: it is left to
// stage 2, which evaluates both endpoints' distances.
#pragma once

#include "hitgrid/core/detail/predicate_polynomials.hpp"
#include "lane_numbers.hpp"
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

    const LaneSign<A> before_a = static_dot<A>(ax, ay, bx, by, cx, cy);
    const LaneSign<A> past_b = static_dot<A>(bx, by, ax, ay, cx, cy);
    // b where the centre projects past b (and not before a), else a.
    const M at_b = (before_a.v > D(0.0)) & (past_b.v <= D(0.0));
    const D ex = xsimd::select(at_b, bx, ax), ey = xsimd::select(at_b, by, ay);
    const LaneSign<A> near_end = static_distance<A>(cx, cy, ex, ey, r);
    Signs<A> sg{before_a, past_b, near_end, near_end, static_line_distance<A>(ax, ay, bx, by, cx, cy, r)};
    M known;
    const M inside = decide(sg, known);
    if (xsimd::any(live & ~known)) [[unlikely]]
      return exactly<A>(s, c, live, sg, at_b);
    return {live & inside, M(false)};
  }

  /// The five signs: centre before a, centre past b, and the three distances (stage 1
  /// fills near_a and near_b with the one distance to the lane's endpoint: only the one on
  /// the lane's branch is read).
  template <class A>
  struct Signs {
    LaneSign<A> before_a, past_b, near_a, near_b, near_line;
  };

  /// The scalar test's branches, as lane masks; known: the signs a lane's branch needs.
  template <class A>
  [[gnu::always_inline]] static DoubleMask<A> decide(const Signs<A>& sg, DoubleMask<A>& known) {
    using M = DoubleMask<A>;
    const Doubles<A> zero(0.0);
    const M to_a = sg.before_a.v <= zero;
    const M to_b = (~to_a) & (sg.past_b.v <= zero);
    const M to_line = (~to_a) & (~to_b);
    const M branch_known = (to_a & sg.near_a.known) | (to_b & sg.near_b.known) | (to_line & sg.near_line.known);
    known = sg.before_a.known & (to_a | sg.past_b.known) & branch_known;
    return (to_a & (sg.near_a.v <= zero)) | (to_b & (sg.near_b.v <= zero)) | (to_line & (sg.near_line.v <= zero));
  }

  /// Stage 2 for batches with an undecided live lane. Stage 1's endpoint distance is known
  /// only for the endpoint it chose (at_b): the other endpoint's starts unknown, computed
  /// here, in case the exact dot products choose it.
  template <class A>
  [[gnu::noinline, gnu::flatten]] static Verdict<DoubleMask<A>> exactly(const Doubles<A>* s, const Doubles<A>* c,
                                                                        DoubleMask<A> live, Signs<A> sg,
                                                                        DoubleMask<A> at_b) {
    using C = CheckedLanes<A>;
    const Doubles<A>&ax = s[0], &ay = s[1], &bx = s[2], &by = s[3];
    const Doubles<A>&cx = c[0], &cy = c[1], &r = c[2];
    sg.near_a.known = sg.near_a.known & ~at_b;
    sg.near_b.known = sg.near_b.known & at_b;
    sg.before_a = refine(sg.before_a, poly::dot(C(ax), C(ay), C(bx), C(by), C(cx), C(cy)));
    sg.past_b = refine(sg.past_b, poly::dot(C(bx), C(by), C(ax), C(ay), C(cx), C(cy)));
    sg.near_a = refine(sg.near_a, poly::distance(C(cx), C(cy), C(ax), C(ay), C(r)));
    sg.near_b = refine(sg.near_b, poly::distance(C(cx), C(cy), C(bx), C(by), C(r)));
    sg.near_line = refine(sg.near_line, poly::line_distance(C(ax), C(ay), C(bx), C(by), C(cx), C(cy), C(r)));
    DoubleMask<A> known;
    const DoubleMask<A> inside = decide(sg, known);
    return {live & known & inside, live & ~known};
  }
};

}  // namespace hitgrid::simd::kernels
