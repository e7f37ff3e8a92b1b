#include "hitgrid/core/ray_box.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>

#include "adaptive_eval.hpp"
#include "hitgrid/core/detail/geometry_polynomials.hpp"
#include "hitgrid/core/intersects.hpp"
#include "hitgrid/core/predicates.hpp"

namespace hitgrid {
namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

bool contains(const Box& b, Vec2 p) { return b.min.x <= p.x && p.x <= b.max.x && b.min.y <= p.y && p.y <= b.max.y; }

/// The box does not lie strictly on one side of the line through o along d (d != 0).
/// The corners extreme along the normal n = (-d.y, d.x) are picked by the signs of n's
/// components (comparisons: exact), as intersects(Segment, Box) does.
bool line_axis_overlaps(Vec2 o, Vec2 d, const Box& b) {
  const bool nx_pos = d.y <= 0.0f;
  const bool ny_pos = d.x >= 0.0f;
  const Vec2 hi{nx_pos ? b.max.x : b.min.x, ny_pos ? b.max.y : b.min.y};
  const Vec2 lo{nx_pos ? b.min.x : b.max.x, ny_pos ? b.min.y : b.max.y};
  return orient_along(o, d, hi) >= 0 && orient_along(o, d, lo) <= 0;
}

/// The ray's projection on one axis ({o}, [o, +inf) or (-inf, o]) meets [lo, hi].
bool ray_axis_overlaps(float o, float d, float lo, float hi) {
  if (d > 0.0f) return o <= hi;
  if (d < 0.0f) return o >= lo;
  return lo <= o && o <= hi;
}

// --- The slab clipping, shared by the three query kinds ---------------------------------

/// What fixed one end of the time interval: the end of the query's range, or a face of
/// the box on one axis (then `face` is that face's coordinate).
enum class Bound : std::uint8_t { range, slab_x, slab_y };

struct Event {
  double t;
  Bound by;
  float face;
};

struct Query {
  Vec2 o;                 // p(0)
  Vec2 end;               // segment: b; otherwise unused
  double dx, dy;          // direction; for a segment the rounded b - a
  bool moves_x, moves_y;  // exact: the direction component is nonzero
  double lo, hi;          // range of t
  bool is_segment;
};

Vec2d point_at(const Query& q, const Event& e, const Box& b) {
  if (e.by == Bound::range) {
    // The start of the range is the first point; the end of a segment's range is b. An
    // infinite end is only ever reached by a query that does not move (zero direction):
    // every moving ray or line leaves the bounded box through a face.
    return q.is_segment && e.t == q.hi ? to_double(q.end) : to_double(q.o);
  }
  // The face's coordinate is exact; the other is rounded, then clamped into the box (the
  // exact point is in it), which can only help.
  if (e.by == Bound::slab_x) {
    const double y = q.moves_y ? std::clamp(q.o.y + e.t * q.dy, double{b.min.y}, double{b.max.y}) : double{q.o.y};
    return {e.face, y};
  }
  const double x = q.moves_x ? std::clamp(q.o.x + e.t * q.dx, double{b.min.x}, double{b.max.x}) : double{q.o.x};
  return {x, e.face};
}

// Error of a slab time (u = 2^-53): t = fl(fl(face - o) / d). The difference of two floats
// and the division round once each; for a segment d = fl(b - a) rounds once more. So each
// slab time has relative error <= 3u (1 + O(u)). max / min of such values: if the computed
// argmax i differs from the exact argmax j, then t_i* <= t_j* <= t_j <= t_i, so the error is
// at most that of t_i; if the interval collapses (computed near > far while near* <= far*),
// the two are within ~6u of each other and either is within ~9u relative of both exact
// ends. Stated: 2^-49 = 16u.
RayHit slab_cast(const Query& q, const Box& b, bool hit, bool starts_inside, bool ends_inside) {
  RayHit r;
  if (!hit) return r;
  r.hit = true;
  r.starts_inside = starts_inside;
  r.ends_inside = ends_inside;
  // The latest entry and the earliest exit over the axes the query moves along.
  Event near{-inf, Bound::range, 0.0f};
  Event far{inf, Bound::range, 0.0f};
  if (q.moves_x) {
    const float enter = q.dx > 0.0 ? b.min.x : b.max.x;
    const float leave = q.dx > 0.0 ? b.max.x : b.min.x;
    near = {(double{enter} - q.o.x) / q.dx, Bound::slab_x, enter};
    far = {(double{leave} - q.o.x) / q.dx, Bound::slab_x, leave};
  }
  if (q.moves_y) {
    const float enter = q.dy > 0.0 ? b.min.y : b.max.y;
    const float leave = q.dy > 0.0 ? b.max.y : b.min.y;
    const double t_in = (double{enter} - q.o.y) / q.dy;
    const double t_out = (double{leave} - q.o.y) / q.dy;
    if (t_in > near.t) near = {t_in, Bound::slab_y, enter};
    if (t_out < far.t) far = {t_out, Bound::slab_y, leave};
  }
  // Which end of the range is an end of the interval is known exactly: the exact entry
  // time is the range start iff the first point is inside (or the query does not move),
  // the exact exit time the segment's end iff b is inside. Deciding this from the rounded
  // times instead would be wrong: an exit time of 1 - 2^-60 rounds to 1, and b may lie an
  // ulp outside the box. Otherwise a face bounds the interval; its rounded time is
  // clamped into the range (the exact one lies inside), keeping the face, whose point is
  // then still in the box.
  const bool moves = q.moves_x || q.moves_y;
  if (starts_inside || !moves)
    near = {q.lo, Bound::range, 0.0f};
  else
    near.t = std::max(near.t, q.lo);
  if (ends_inside || !moves)
    far = {q.hi, Bound::range, 0.0f};
  else
    far.t = std::min(far.t, q.hi);
  // The exact interval is nonempty (hit); a rounded one can come out inverted by a few
  // ulps at a corner or at the end of the range. Collapse it, onto the exact end if one is.
  if (near.t > far.t) {
    if (near.by == Bound::range)
      far = near;
    else
      near = far;
  }
  r.t_near = near.t;
  r.t_far = far.t;
  r.p_near = point_at(q, near, b);
  r.p_far = point_at(q, far, b);
  return r;
}

Query query_of(Vec2 o, Vec2 d, double lo, double hi) {
  return {o, o, d.x, d.y, d.x != 0.0f, d.y != 0.0f, lo, hi, false};
}

}  // namespace

bool intersects(const Ray& r, const Box& b) {
  const Vec2 o = r.origin, d = r.direction;
  if (!ray_axis_overlaps(o.x, d.x, b.min.x, b.max.x) || !ray_axis_overlaps(o.y, d.y, b.min.y, b.max.y)) return false;
  // The ray is convex and the box compact: the separating axes are x, y (the box's edge
  // normals, tested above) and the ray's normal. A zero direction leaves only the point,
  // fully decided by the two axis tests.
  if (d.x == 0.0f && d.y == 0.0f) return true;
  return line_axis_overlaps(o, d, b);
}

bool intersects(const Line& l, const Box& b) {
  const Vec2 o = l.point, d = l.direction;
  if (d.x == 0.0f && d.y == 0.0f) return contains(b, o);
  // A line projects onto all of x and y (unless parallel to one, and then the normal axis
  // is that axis): only its normal can separate.
  return line_axis_overlaps(o, d, b);
}

RayHit raycast(const Segment& s, const Box& b) {
  const Query q{s.a, s.b, double{s.b.x} - s.a.x, double{s.b.y} - s.a.y, s.a.x != s.b.x, s.a.y != s.b.y, 0.0, 1.0, true};
  return slab_cast(q, b, intersects(s, b), contains(b, s.a), contains(b, s.b));
}

RayHit raycast(const Ray& r, const Box& b) {
  return slab_cast(query_of(r.origin, r.direction, 0.0, inf), b, intersects(r, b), contains(b, r.origin), false);
}

RayHit raycast(const Line& l, const Box& b) {
  return slab_cast(query_of(l.point, l.direction, -inf, inf), b, intersects(l, b), false, false);
}

}  // namespace hitgrid
