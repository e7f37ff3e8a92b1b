// Segment / ray against box in lanes: hit, t_near, t_far. Scalar twin: raycast() in
// core/src/ray_box.cpp (slab_cast), whose operations this repeats in the same order so
// that the times are bit-identical:
//   per moving axis: enter/leave faces by the direction's sign, t = (face - o) / d;
//   near = the later entry (y replaces x only if strictly later), far = the earlier exit;
//   starts inside or does not move: near = range start, else near = max(near, lo)
//   (std::max: the first argument unless it is less); likewise far with min and hi;
//   an inverted interval collapses onto the range end if near is one, else onto far.
// The hit is exact: for segments SegmentBoxKernel (stage 1 only here), for rays the
// separating axes of intersects(Ray, Box) with the static orientation bound. Lanes with an
// undecided hit go to raycast() whole.
#pragma once

#include <limits>

#include "lane_numbers.hpp"
#include "segment_box.hpp"

namespace hitgrid::simd::kernels {

template <class A>
struct SlabLanes {
  DoubleMask<A> hit, unsure;
  Doubles<A> t_near, t_far;
};

/// The ray's projection on one axis ({o}, [o, +inf) or (-inf, o]) meets [lo, hi].
template <class A>
[[gnu::always_inline]] inline DoubleMask<A> ray_axis_overlaps(const Doubles<A>& o, const Doubles<A>& d,
                                                              const Doubles<A>& lo, const Doubles<A>& hi) {
  const Doubles<A> zero(0.0);
  return ((d > zero) & (o <= hi)) | ((d < zero) & (o >= lo)) | ((d == zero) & (lo <= o) & (o <= hi));
}

template <class A>
[[gnu::always_inline]] inline Verdict<DoubleMask<A>> ray_hits_box(const Doubles<A>* q, const Doubles<A>* b) {
  using D = Doubles<A>;
  using M = DoubleMask<A>;
  const D &ox = q[0], &oy = q[1], &dx = q[2], &dy = q[3];
  const D &minx = b[0], &miny = b[1], &maxx = b[2], &maxy = b[3];
  const D zero(0.0);
  const M axes = ray_axis_overlaps<A>(ox, dx, minx, maxx) & ray_axis_overlaps<A>(oy, dy, miny, maxy);
  const M still = (dx == zero) & (dy == zero);
  // line_axis_overlaps: side(o, d, p) = cross(d, p - o) = orient(o, o + d, p) in form;
  // d is exact, so the static bound of a rounded difference times a rounded difference
  // holds with room to spare.
  const M nx_pos = dy <= zero, ny_pos = dx >= zero;
  const D hix = xsimd::select(nx_pos, maxx, minx), hiy = xsimd::select(ny_pos, maxy, miny);
  const D lox = xsimd::select(nx_pos, minx, maxx), loy = xsimd::select(ny_pos, miny, maxy);
  const auto side = [&](const D& px, const D& py) {
    const D l = dx * (py - oy), r = dy * (px - ox);
    const D v = l - r;
    const D bound = D((3.0 + 16.0 * 0x1p-53) * 0x1p-53) * (xsimd::abs(l) + xsimd::abs(r));
    return LaneSign<A>{v, xsimd::abs(v) > bound};
  };
  const LaneSign<A> hi = side(hix, hiy), lo = side(lox, loy);
  const M hi_sep = hi.known & (hi.v < zero), lo_sep = lo.known & (lo.v > zero);
  const M known = still | hi_sep | lo_sep | (hi.known & lo.known);
  const M hit = axes & known & (still | (~hi_sep & ~lo_sep));
  return {hit, axes & ~known};
}

template <class A>
[[gnu::always_inline]] inline SlabLanes<A> slab_lanes(bool segment, const Doubles<A>* q, const Doubles<A>* b) {
  using D = Doubles<A>;
  using M = DoubleMask<A>;
  const D &ox = q[0], &oy = q[1];
  const D &minx = b[0], &miny = b[1], &maxx = b[2], &maxy = b[3];
  const D zero(0.0), one(1.0), inf(std::numeric_limits<double>::infinity());
  const Verdict<M> v = segment ? SegmentBoxKernel::block<A>(q, b) : ray_hits_box<A>(q, b);
  // Direction: the segment's rounded b - a, the ray's exact direction.
  const D dx = segment ? q[2] - ox : q[2];
  const D dy = segment ? q[3] - oy : q[3];
  const M moves_x = segment ? (q[2] != ox) : (q[2] != zero);
  const M moves_y = segment ? (q[3] != oy) : (q[3] != zero);
  const auto contains = [&](const D& x, const D& y) { return (minx <= x) & (x <= maxx) & (miny <= y) & (y <= maxy); };
  const M starts_inside = contains(ox, oy);
  const M ends_inside = segment ? contains(q[2], q[3]) : M(false);
  const D hi = segment ? one : inf;
  // A dead axis divides by 1 instead of 0 (no inf * 0, no NaN); its times are discarded.
  const D sx = xsimd::select(moves_x, dx, one), sy = xsimd::select(moves_y, dy, one);
  const M px = dx > zero, py = dy > zero;
  const D x_in = (xsimd::select(px, minx, maxx) - ox) / sx, x_out = (xsimd::select(px, maxx, minx) - ox) / sx;
  const D y_in = (xsimd::select(py, miny, maxy) - oy) / sy, y_out = (xsimd::select(py, maxy, miny) - oy) / sy;
  D t_near = xsimd::select(moves_x, x_in, D(-inf));
  D t_far = xsimd::select(moves_x, x_out, inf);
  t_near = xsimd::select(moves_y & (y_in > t_near), y_in, t_near);
  t_far = xsimd::select(moves_y & (y_out < t_far), y_out, t_far);
  const M moves = moves_x | moves_y;
  const M near_is_range = starts_inside | ~moves;
  t_near = xsimd::select(near_is_range, zero, xsimd::select(t_near < zero, zero, t_near));
  t_far = xsimd::select(ends_inside | ~moves, hi, xsimd::select(hi < t_far, hi, t_far));
  const M inverted = t_near > t_far;
  const D collapsed_near = xsimd::select(inverted & ~near_is_range, t_far, t_near);
  const D collapsed_far = xsimd::select(inverted & near_is_range, t_near, t_far);
  return {v.hit, v.unsure, xsimd::select(v.hit, collapsed_near, zero), xsimd::select(v.hit, collapsed_far, zero)};
}

}  // namespace hitgrid::simd::kernels
