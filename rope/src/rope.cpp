// The rope's moves as a sequence of exact events (docs/rope.md).
//
// A move of the end from P to P' is followed in the order things happen along it. The
// rope's last segment pivots around the last node C; it sweeps the region between where
// it is and where it ends (the triangle (C, Q, P') around a point peg, Q being where the
// end is now). Q is a computed point after the first event, so the region is never
// built: every event is the end crossing a line through or tangent to inputs — the line
// from C to a peg (a catch), the line the rope came in on (a winding, a release) — and
// events are ordered by which line the end crosses first (compare_tangent_crossings,
// which is compare_crossings around point pegs). Around point pegs, a peg's place in the
// order is its angle at the pivot, compared with orient2d of input points.
#include "hitgrid/rope/rope.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <iterator>
#include <limits>
#include <span>
#include <sstream>
#include <string>

#include "hitgrid/broadphase/grid_index.hpp"
#include "hitgrid/core/aabb.hpp"
#include "hitgrid/core/error.hpp"
#include "hitgrid/core/intersects.hpp"
#include "hitgrid/core/line_crossing.hpp"
#include "hitgrid/core/predicates.hpp"
#include "hitgrid/core/tangent_crossing.hpp"
#include "hitgrid/core/within_distance.hpp"

namespace hitgrid {
namespace {

using Direction = Rope::Direction;

std::string point_text(Vec2 p) {
  std::ostringstream s;
  s.precision(9);
  s << '(' << p.x << ", " << p.y << ')';
  return s.str();
}

std::string number_text(float v) {
  std::ostringstream s;
  s.precision(9);
  s << v;
  return s.str();
}

void require_finite(Vec2 p, const std::string& what) {
  if (!std::isfinite(p.x) || !std::isfinite(p.y)) throw Error(what + ": not a finite point " + point_text(p));
}

float radius_of(std::span<const float> radii, const RopeNode& n) {
  return n.peg == RopeNode::no_peg ? 0.0f : radii[n.peg];
}

// A node as the lines at it see it: its peg's circle (radius 0 for a point peg and for the
// rope's ends) and its side.
struct Pivot {
  Circle circle;
  int side = 0;
  Vec2 c() const { return circle.c; }
  bool point() const { return circle.r == 0.0f; }
};

Pivot pivot_of(std::span<const float> radii, const RopeNode& n) { return {{n.position, radius_of(radii, n)}, n.side}; }

// The line from node c along the direction d (module comment of rope.hpp: Direction).
TangentLine line_of(const Pivot& c, const Direction& d) {
  return {c.circle, d.sign * c.side, {d.p, d.r}, d.sign * d.side};
}

// The same line with c second and mirrored through c's centre: where the rope runs when it
// has turned an odd number of half turns from d at c.
TangentLine mirrored_line_of(const Pivot& c, const Direction& d) {
  return {{d.p, d.r}, -d.sign * d.side, c.circle, -d.sign * c.side, true};
}

// sign(cross(d, y - c)): the side of the line along d a point is on.
int cross_dir(const Pivot& c, const Direction& d, Vec2 y) { return d.sign * side_of(line_of(c, d), y); }
// sign(dot(d, y - c)).
int dot_dir(const Pivot& c, const Direction& d, Vec2 y) { return d.sign * along(line_of(c, d), c.c(), y); }
// sign(cross(d, e)) and sign(dot(d, e)) for two directions seen from c.
int cross_dirs(const Pivot& c, const Direction& d, const Direction& e) {
  return d.sign * e.sign * direction_cross(line_of(c, d), line_of(c, e));
}
int dot_dirs(const Pivot& c, const Direction& d, const Direction& e) {
  return d.sign * e.sign * direction_dot(line_of(c, d), line_of(c, e));
}

// Which half of a turn the direction v lies in, measured from the incoming direction u
// in the node's turning sense: 0 for [0, pi), 1 for [pi, 2 pi). Equal to half_turns % 2
// whenever the rope's state is consistent.
int half_of(const Pivot& c, const Direction& u, const Direction& v) {
  const int cr = c.side * cross_dirs(c, u, v);
  if (cr != 0) return cr > 0 ? 0 : 1;
  return dot_dirs(c, u, v) >= 0 ? 0 : 1;
}

// The direction nodes[i - 1] -> nodes[i], seen from nodes[i] (i >= 1): minus the line
// from nodes[i] back to nodes[i - 1] (each on the other side of it). first_dir: the
// direction of the first segment seen from nodes[1], which matters when nodes[0] (the
// fixed end, a point) sits on that node (a point peg): then it is the direction that end
// came from. Minus a direction runs the other way along the same line: sign and side both
// flip, so that a circle at p keeps its side of the line (sign * side).
Direction incoming_of(std::span<const RopeNode> nodes, std::span<const float> radii, Direction first_dir,
                      std::size_t i) {
  const RopeNode& prev = nodes[i - 1];
  if (!(prev.position == nodes[i].position)) return {prev.position, -1, radius_of(radii, prev), prev.side};
  return {first_dir.p, -first_dir.sign, first_dir.r, -first_dir.side};
}

// The heading of the new last segment when the last node is released: the released
// node's incoming direction, seen from the node before.
Direction heading_after_release(std::span<const RopeNode> nodes, std::span<const float> radii, Direction first_dir) {
  const std::size_t last = nodes.size() - 1;
  if (!(nodes[last - 1].position == nodes[last].position))
    return {nodes[last].position, 1, radius_of(radii, nodes[last]), nodes[last].side};
  return {first_dir.p, -first_dir.sign, first_dir.r, -first_dir.side};
}

// A part of the rope reversed: node 0 is `end` (no peg), then the nodes in reverse order,
// each side flipped (the rope is symmetric: seen from the other end every turn is the
// other way).
std::vector<RopeNode> reversed(std::span<const RopeNode> nodes, Vec2 end) {
  std::vector<RopeNode> r;
  r.reserve(nodes.size() + 1);
  r.push_back({end, RopeNode::no_peg, 0, 0});
  for (std::size_t i = nodes.size(); i-- > 0;)
    r.push_back({nodes[i].position, nodes[i].peg, -nodes[i].side, nodes[i].half_turns});
  return r;
}

Box bounds_of(Vec2 a, Vec2 b, Vec2 c) {
  return {{std::min({a.x, b.x, c.x}), std::min({a.y, b.y, c.y})},
          {std::max({a.x, b.x, c.x}), std::max({a.y, b.y, c.y})}};
}

// The same line run the other way: every signed radius negated (TangentLine).
TangentLine reversed_line(const TangentLine& l) { return {l.b, -l.sb, l.a, -l.sa, false, -l.grow_b, -l.grow_a}; }

// A box grown by r on every side, rounded outwards (core/aabb.hpp).
Box grown_box(const Box& b, float r) {
  const Aabb g = grown(Aabb{b.min, b.max}, r);
  return {g.min, g.max};
}

// The bounds of a circle and two points, rounded outwards (c - r and c + r are rounded).
Box bounds_of(const Circle& c, Vec2 p, Vec2 q) {
  Box b = bounds_of(c.c, p, q);
  if (c.r == 0.0f) return b;
  const float inf = std::numeric_limits<float>::infinity();
  b.min = {std::min(b.min.x, std::nextafter(c.c.x - c.r, -inf)), std::min(b.min.y, std::nextafter(c.c.y - c.r, -inf))};
  b.max = {std::max(b.max.x, std::nextafter(c.c.x + c.r, inf)), std::max(b.max.y, std::nextafter(c.c.y + c.r, inf))};
  return b;
}

// Around a circle neighbour, the winding of a moving (point) peg crosses a multiple of pi on
// three lines rather than one (docs/rope.md, "Circle pegs"). The rope comes from cl (on side
// sl) and goes on to cr (on side sr); the winding is a multiple of pi where the stretch in
// (direction u, from cl's tangent point to the peg) and the stretch out are parallel:
//  - straight on (out = u): the peg lies on the stretch from cl to cr, line {cl, sl, cr,
//    sr}, between its tangent points;
//  - doubled back (out = -u), both tangent points behind the peg along u: cl's first, the
//    line {cl, sl, cr, -sr} (cr seen from the other side) beyond cr's tangent point; or
//    cr's first, the line {cr, -sr, cl, sl} beyond cl's. (Around points these three are
//    the line through cl and cr: between them, beyond cr, before cl.)
// The peg is never at a tangent point (it stays off every other peg), so these are strict.
// Next to a line, as the peg moves to the line's left (along u) the stretch in turns left
// and the stretch out right on the straight line; on a doubled-back line both turn left, the
// one whose tangent point is nearer faster. So with the peg turning the rope counterclockwise
// (side +1) the winding lies in its upper half (pi to 2 pi) on the left of the straight
// line and of {cl, sl, cr, -sr}, and on the right of {cr, -sr, cl, sl}; the other way round
// for side -1. On a line itself it is in the lower half on the straight one, the upper on
// the others.
enum class PegLine { straight, beyond_cr, beyond_cl };

//
// A moving circle peg (radius rm, on side sm) is its centre, a point, with every other
// circle's signed radius less sm rm (docs/rope.md, "Moving circle pegs"): each stretch is
// the stretch to the centre moved by sm rm. On a doubled-back line the stretch out runs the
// other way, so there cr's signed radius (as seen along u) gains sm rm: the line where the
// centre lies halfway between the stretch in and the stretch out. `smr`: sm rm.
TangentLine peg_line(PegLine k, const Circle& cl, int sl, const Circle& cr, int sr, float smr) {
  switch (k) {
    case PegLine::straight:
      return {cl, sl, cr, sr, false, -smr, -smr};
    case PegLine::beyond_cr:
      return {cl, sl, cr, -sr, false, -smr, smr};
    case PegLine::beyond_cl:
      break;
  }
  return {cr, -sr, cl, sl, false, smr, -smr};
}

// The order of a wrapped peg's events at one time (Rope::move_wrapped), lowest first: what
// happens at a boundary (a catch, a winding up to a multiple of pi) comes first, then the
// peg's own winding, then what happens only strictly past a boundary (a strand's winding
// down or release). So when the peg is released at that time, the rope stops there: it has
// hooked what it reached, and let go of nothing it merely reached back to (as a move of the
// end that stops there would).
constexpr int rank_at_boundary = 0;
constexpr int rank_peg_winding = 1;
constexpr int rank_past_boundary = 2;
constexpr int rank_none = -1;  // no event taken yet: the path's start

// Whether the path from p to q crosses the peg line `l` of kind k, in its part above, at a
// time after `last` (a line crossed earlier; at the same time unless that was the peg's own
// event), into the half turn other than `parity`: the peg's winding then crosses the
// multiple of pi there. (A strand's release at the time the peg reaches a multiple of pi
// changes the peg's neighbours: the line is looked at again for the new ones; the parity
// keeps an event from being taken twice.)
bool peg_winds_on(Vec2 p, Vec2 q, const TangentLine& l, PegLine k, int side, int parity, const TangentLine* last,
                  int last_rank) {
  if (!tangent_exists(l)) return false;  // cl and cr the same circle: the winding never crosses
  const int s0 = side_of(l, p), s1 = side_of(l, q);
  if (s0 == s1) return false;  // not crossed, or along the line: the peg stays in its half
  if (last) {
    const int c = compare_tangent_crossings(p, q, l, *last);
    if (c < 0 || (c == 0 && last_rank == rank_peg_winding)) return false;
  }
  const bool straight = k == PegLine::straight;
  const int beyond_b = crossing_beyond_tangent_point(p, q, l);
  if (straight) {
    if (beyond_b >= 0 || crossing_beyond_tangent_point(p, q, reversed_line(l)) >= 0) return false;
  } else if (beyond_b <= 0) {
    return false;
  }
  const int upper_on_left = k == PegLine::beyond_cl ? 0 : 1;
  const int half_past = s1 == 0 ? (straight ? 0 : 1) : (side * s1 > 0 ? upper_on_left : 1 - upper_on_left);
  return half_past != parity;
}

// The first of the events offered at one step of a wrapped peg's move (Rope::move_wrapped):
// each is the peg crossing a line through or tangent to inputs, and they are ordered by
// which line the peg, moving from `from` to `to`, crosses first (compare_tangent_crossings),
// then by rank. `by`: who offered it.
struct FirstEvent {
  static constexpr int none = -1;
  static constexpr int the_peg = 2;  // 0, 1: a strand (left, right)

  Vec2 from, to;
  int by = none;
  int rank = 0;
  TangentLine line{};

  // Whether the event offered is now the first.
  bool consider(int who, int r, const TangentLine& l) {
    if (by >= 0) {
      const int c = compare_tangent_crossings(from, to, l, line);
      if (c > 0 || (c == 0 && r >= rank)) return false;
    }
    by = who;
    rank = r;
    line = l;
    return true;
  }
};

// The peg a wrapped move carries (Rope::move_wrapped).
struct CarriedPeg {
  Vec2 from, to;
  RopeNode node;  // its node, whose half turns follow its winding
  float r;        // its radius (0: a point)
  float smr;      // its side times its radius (peg_line)
};

// The last event a wrapped peg's move took, as the line crossed and its rank (rank_none:
// none, the path's start): around a circle neighbour the peg's own winding looks only past
// it.
struct TakenEvent {
  TangentLine line;
  int rank = rank_none;
};

// Tunes when peg moves rebuild the grid (Rope::Index::note_moved): the moved pegs are
// scanned one by one by every sweep, so past rebuild_moved_base + pegs / rebuild_pegs_per_moved
// of them a rebuild is cheaper.
constexpr std::size_t rebuild_moved_base = 64;      // moved pegs kept beside the grid on any rope
constexpr std::size_t rebuild_pegs_per_moved = 64;  // and one more per this many pegs

}  // namespace

// The grid over the pegs, built once; pegs moved since then are kept beside it and
// looked at one by one, and the grid is rebuilt when they get many.
struct Rope::Index {
  std::shared_ptr<const GridIndex> grid;  // immutable once built: copies of a rope share it
  std::vector<std::uint8_t> moved;
  std::vector<std::uint32_t> moved_list;
  mutable std::vector<ShapeId> scratch;

  void build(std::span<const Vec2> pegs, std::span<const float> radii) {
    Scene scene;
    scene.reserve(0, pegs.size(), 0);
    for (std::size_t i = 0; i < pegs.size(); ++i) scene.add(Circle{pegs[i], radii[i]});
    grid = std::make_shared<const GridIndex>(scene);
    moved.assign(pegs.size(), 0);
    moved_list.clear();
  }

  // Peg `peg` has moved (pegs: where they all are now): it is kept beside the grid, which is
  // rebuilt when they get many.
  void note_moved(std::uint32_t peg, std::span<const Vec2> pegs, std::span<const float> radii) {
    if (!moved[peg]) {
      moved[peg] = 1;
      moved_list.push_back(peg);
    }
    if (moved_list.size() > rebuild_moved_base + pegs.size() / rebuild_pegs_per_moved) build(pegs, radii);
  }
};

ScenePegs pegs_of(const Scene& scene) {
  ScenePegs out;
  for (std::uint32_t i = 0; i < scene.segment_count(); ++i) {
    const Segment s = scene.segment(i);
    out.points.push_back(s.a);
    out.points.push_back(s.b);
    out.radii.insert(out.radii.end(), 2, 0.0f);
    out.source.insert(out.source.end(), 2, ShapeId(ShapeKind::segment, i));
  }
  for (std::uint32_t i = 0; i < scene.circle_count(); ++i) {
    const Circle c = scene.circle(i);
    out.points.push_back(c.c);
    out.radii.push_back(c.r);
    out.source.push_back(ShapeId(ShapeKind::circle, i));
  }
  for (std::uint32_t i = 0; i < scene.box_count(); ++i) {
    const Box b = scene.box(i);
    for (Vec2 p : {b.min, Vec2{b.max.x, b.min.y}, b.max, Vec2{b.min.x, b.max.y}}) {
      out.points.push_back(p);
      out.radii.push_back(0.0f);
      out.source.push_back(ShapeId(ShapeKind::box, i));
    }
  }
  return out;
}

Rope::Rope(Vec2 start, std::vector<Vec2> pegs) : Rope(start, std::move(pegs), {}) {}

Rope::Rope(Vec2 start, std::vector<Vec2> pegs, std::vector<float> radii)
    : pegs_(std::move(pegs)), radii_(std::move(radii)), end_(start), index_(std::make_unique<Index>()) {
  require_finite(start, "rope start");
  for (std::size_t i = 0; i < pegs_.size(); ++i) require_finite(pegs_[i], "peg " + std::to_string(i));
  if (pegs_.size() >= RopeNode::no_peg) throw Error("too many pegs: " + std::to_string(pegs_.size()));
  if (radii_.empty()) radii_.assign(pegs_.size(), 0.0f);
  if (radii_.size() != pegs_.size())
    throw Error(std::to_string(radii_.size()) + " radii for " + std::to_string(pegs_.size()) + " pegs");
  for (std::size_t i = 0; i < radii_.size(); ++i) {
    if (!std::isfinite(radii_[i]) || radii_[i] < 0.0f)
      throw Error("peg " + std::to_string(i) + ": radius " + number_text(radii_[i]) + " is not a finite number >= 0");
    has_circles_ = has_circles_ || radii_[i] > 0.0f;
  }
  nodes_.push_back({start, RopeNode::no_peg, 0, 0});
  end_dir_ = {start, 1};
  start_dir_ = {start, 1};
  index_->build(pegs_, radii_);
  if (!has_circles_) return;
  // Circle pegs touch nothing: the rope between two of them runs along a common tangent,
  // which needs them apart, and a point peg on or in a circle could never be reached.
  std::vector<ShapeId> met;
  for (std::uint32_t i = 0; i < pegs_.size(); ++i) {
    if (radii_[i] == 0.0f) continue;
    index_->grid->touching(Circle{pegs_[i], radii_[i]}, met);
    for (ShapeId id : met)
      if (id.index() != i)
        throw Error("peg " + std::to_string(i) + " (a circle at " + point_text(pegs_[i]) + ", radius " +
                    number_text(radii_[i]) + ") touches peg " + std::to_string(id.index()) + " at " +
                    point_text(pegs_[id.index()]) + ": circle pegs must be apart from every other peg (docs/rope.md)");
  }
  refuse_circles_on(start, start, "rope start");
}

namespace {
Rope rope_among(Vec2 start, const Scene& scene) {
  ScenePegs p = pegs_of(scene);
  return Rope(start, std::move(p.points), std::move(p.radii));
}
}  // namespace

Rope::Rope(Vec2 start, const Scene& pegs) : Rope(rope_among(start, pegs)) {}

Rope::~Rope() = default;
Rope::Rope(const Rope& o)
    : pegs_(o.pegs_),
      radii_(o.radii_),
      has_circles_(o.has_circles_),
      nodes_(o.nodes_),
      end_(o.end_),
      end_dir_(o.end_dir_),
      start_dir_(o.start_dir_),
      index_(std::make_unique<Index>(*o.index_)) {}
Rope& Rope::operator=(const Rope& o) {
  if (this != &o) *this = Rope(o);
  return *this;
}
Rope::Rope(Rope&&) noexcept = default;
Rope& Rope::operator=(Rope&&) noexcept = default;

std::vector<Vec2> Rope::points() const {
  std::vector<Vec2> out;
  out.reserve(nodes_.size() + 1);
  for (const RopeNode& n : nodes_) out.push_back(n.position);
  out.push_back(end_);
  return out;
}

namespace {

// One straight stretch of the rope, rounded (core/tangent_crossing.hpp): from its tangent
// point on one node's circle to the next's (the points themselves around point pegs).
using Stretch = TangentGeometry;

// Tunes the drawn arcs (Rope::outline): the smallest step, in radians, taken whatever
// max_turn asks, which bounds the points drawn per arc (2 pi / this a turn).
constexpr double min_outline_step = 1e-3;

Stretch stretch_of(const Circle& a, int sa, const Circle& b, int sb) {
  if (a.r == 0.0f && b.r == 0.0f) {
    // The points and their distance only (the direction is asked of circle stretches).
    const double ex = static_cast<double>(b.c.x) - a.c.x, ey = static_cast<double>(b.c.y) - a.c.y;
    return {a.c.x, a.c.y, b.c.x, b.c.y, 0.0, 0.0, std::sqrt(ex * ex + ey * ey)};
  }
  return tangent_geometry({a, sa, b, sb});
}

// How far the rope turns around a node, in radians, from the stretch coming in to the one
// going out: the angle between them in the node's sense, in the half turn its exact
// half-turn count says (a rounded angle on the wrong side of a multiple of pi is put on
// that multiple), plus the whole turns.
double winding_of(const Stretch& in, const Stretch& out, int side, std::uint32_t half_turns) {
  const double pi = std::acos(-1.0);
  const double ix = in.dx, iy = in.dy, ox = out.dx, oy = out.dy;
  double theta = std::atan2(side * (ix * oy - iy * ox), ix * ox + iy * oy);  // (-pi, pi]
  if (theta < 0) theta += 2 * pi;
  if (half_turns % 2 == 0 && theta >= pi) theta = theta > 1.5 * pi ? 0.0 : pi;
  if (half_turns % 2 == 1 && theta < pi) theta = theta < 0.5 * pi ? 2 * pi : pi;
  return 2 * pi * static_cast<double>(half_turns / 2) + theta;
}

}  // namespace

template <class Visit>
void Rope::visit_stretches(Visit&& visit) const {
  // Stretch i runs from node i to node i + 1 (the end after the last node), each circle on
  // its node's side.
  for (std::size_t i = 0; i < nodes_.size(); ++i)
    visit(stretch_of(node_circle(i), node_side(i), node_circle(i + 1), node_side(i + 1)));
}

double Rope::length() const {
  // Around point pegs: each difference of two floats, its square and the sum round once in
  // double (relative 2^-53 each), the square root halves the error: under 3 * 2^-53 per
  // segment; summing n nonnegative terms adds at most (n - 1) * 2^-53 of the total. Around
  // circles the tangent points and the angles are rounded too (docs/rope.md, "Length").
  double total = 0.0;
  std::size_t i = 0;
  Stretch previous{};
  visit_stretches([&](const Stretch& s) {
    total += s.length;
    if (i > 0 && radius_of(radii_, nodes_[i]) > 0.0f)
      total += radius_of(radii_, nodes_[i]) * winding_of(previous, s, nodes_[i].side, nodes_[i].half_turns);
    previous = s;
    ++i;
  });
  return total;
}

std::vector<Vec2> Rope::outline(double max_turn) const {
  std::vector<Vec2> out;
  const auto add = [&](double x, double y) {
    const Vec2 v{static_cast<float>(x), static_cast<float>(y)};
    if (out.empty() || !(out.back() == v)) out.push_back(v);
  };
  std::size_t i = 0;
  Stretch previous{};
  visit_stretches([&](const Stretch& s) {
    const float r = i > 0 ? radius_of(radii_, nodes_[i]) : 0.0f;
    if (r > 0.0f) {
      // Around the circle from where the stretch before left it to where this one does.
      const double w = winding_of(previous, s, nodes_[i].side, nodes_[i].half_turns);
      const double cx = nodes_[i].position.x, cy = nodes_[i].position.y;
      const double a0 = std::atan2(previous.by - cy, previous.bx - cx);
      const int steps = std::max(1, static_cast<int>(std::ceil(w / std::max(max_turn, min_outline_step))));
      for (int k = 1; k < steps; ++k) {
        const double a = a0 + nodes_[i].side * w * k / steps;
        add(cx + r * std::cos(a), cy + r * std::sin(a));
      }
    }
    add(s.ax, s.ay);
    add(s.bx, s.by);
    previous = s;
    ++i;
  });
  return out;
}

namespace {
// The rope's nodes as the lines at them see them: node i's circle and side, the end (a
// point, no side) after the last node.
struct RopeView {
  std::span<const RopeNode> nodes;
  std::span<const float> radii;
  Vec2 end;

  // (inline: move_peg asks it of every node of the rope on every move.)
  Circle circle(std::size_t i) const {
    if (i >= nodes.size()) return {end, 0.0f};
    return {nodes[i].position, radius_of(radii, nodes[i])};
  }
  int side(std::size_t i) const { return i < nodes.size() ? nodes[i].side : 0; }
};
}  // namespace

inline Circle Rope::node_circle(std::size_t i) const { return RopeView{nodes_, radii_, end_}.circle(i); }
inline int Rope::node_side(std::size_t i) const { return RopeView{nodes_, radii_, end_}.side(i); }

// The closed path from `from` to `to` meets the stretch of the line between its tangent
// points (the line tangent to a circle): where it crosses the line lies between them, or,
// running along the line, it overlaps them. Positions along the line are compared through
// the centres (the direction is perpendicular to the normal the tangent points lie on).
namespace {
bool path_meets_stretch(Vec2 from, Vec2 to, const TangentLine& l) {
  const int s1 = side_of(l, from), s2 = side_of(l, to);
  if (s1 == s2 && s1 != 0) return false;
  if (s1 == 0 && s2 == 0)
    return !(along(l, l.a.c, from) < 0 && along(l, l.a.c, to) < 0) &&
           !(along(l, l.b.c, from) > 0 && along(l, l.b.c, to) > 0);
  return crossing_beyond_tangent_point(from, to, l) <= 0 &&
         crossing_beyond_tangent_point(from, to, reversed_line(l)) <= 0;
}

// A disc of radius r (> 0) whose centre moves from `from` to `to` and the stretch of `l`
// between its tangent points, when the disc stays clear of the circles at the stretch's
// ends (move_peg has refused a path that touches a peg or a rope end). The points within r
// of the stretch are then, as far as the disc can reach them, the band between l moved by
// r to either side, between the tangent points. enters(side): the centre comes into the
// band through its edge on `side` (from that side or from on it, to within the band's
// span, not sliding along it); touches: the disc shares a point with the stretch anywhere
// on its path.
struct DiscPath {
  Vec2 from, to;
  float r;
  const TangentLine& l;

  TangentLine edge(int side) const { return moved_left(l, static_cast<float>(side) * r); }
  bool within_span(Vec2 x) const { return along(l, l.a.c, x) >= 0 && along(l, l.b.c, x) <= 0; }
  bool enters(int side) const {
    const TangentLine e = edge(side);
    const int s0 = side_of(e, from);
    if (s0 == side) return path_meets_stretch(from, to, e);
    return s0 == 0 && side_of(e, to) == -side && within_span(from);
  }
  bool touches() const {
    const TangentLine up = edge(1), down = edge(-1);
    if (path_meets_stretch(from, to, up) || path_meets_stretch(from, to, down)) return true;
    return side_of(up, from) < 0 && side_of(down, from) > 0 && within_span(from);  // inside all along
  }
};
}  // namespace

// The pegs whose bounds touch `box` (a moved circle peg's rounded outwards).
void Rope::candidates(const Box& box, std::vector<std::uint32_t>& out) const {
  out.clear();
  index_->grid->touching(box, index_->scratch);
  for (ShapeId id : index_->scratch)
    if (!index_->moved[id.index()]) out.push_back(id.index());
  // (Among point pegs only, the radii are not read: this scan is a move's cost between
  // rebuilds.)
  const Aabb reach{box.min, box.max};
  for (std::uint32_t i : index_->moved_list) {
    const float r = has_circles_ ? radii_[i] : 0.0f;
    if (overlaps(bounds(Circle{pegs_[i], r}), reach)) out.push_back(i);
  }
}

// The rope's ends stay out of circle pegs: a path (closed) from `from` to `to` that meets
// one is refused (docs/rope.md, "Circle pegs").
void Rope::refuse_circles_on(Vec2 from, Vec2 to, const char* what) const {
  if (!has_circles_) return;
  const Segment path{from, to};
  index_->grid->touching(path, index_->scratch);
  std::vector<std::uint32_t> met;
  for (ShapeId id : index_->scratch)
    if (!index_->moved[id.index()]) met.push_back(id.index());
  for (std::uint32_t i : index_->moved_list)
    if (intersects(path, Circle{pegs_[i], radii_[i]})) met.push_back(i);
  for (std::uint32_t i : met) {
    if (radii_[i] == 0.0f) continue;
    const std::string where =
        from == to ? "at " + point_text(from) : "on its path from " + point_text(from) + " to " + point_text(to);
    throw Error(std::string(what) + " " + where + " meets peg " + std::to_string(i) + " (a circle at " +
                point_text(pegs_[i]) + ", radius " + number_text(radii_[i]) +
                "): the rope's ends may not enter a circle peg (docs/rope.md)");
  }
}

void Rope::move_end(Vec2 to) {
  require_finite(to, "rope end");
  refuse_circles_on(end_, to, "rope end");
  advance_end(to);
}

void Rope::move_start(Vec2 to) {
  require_finite(to, "rope start");
  refuse_circles_on(start(), to, "rope start");
  reverse();
  advance_end(to);
  reverse();
}

void Rope::reverse() {
  const bool start_on_first = nodes_.size() >= 2 && nodes_[1].position == nodes_[0].position;
  const bool end_on_last = nodes_.size() >= 2 && end_ == nodes_.back().position;
  const Vec2 old_start = nodes_[0].position;
  const Direction new_end_dir = start_on_first ? start_dir_ : Direction{old_start, 1};
  const Direction new_start_dir = end_on_last ? end_dir_ : Direction{end_, 1};
  nodes_ = reversed(std::span(nodes_).subspan(1), end_);
  end_ = old_start;
  end_dir_ = new_end_dir;
  start_dir_ = new_start_dir;
}

// A strand: the rope seen from a moving tip. nodes[0] is the strand's fixed end (no peg),
// nodes.back() its pivot, and the segment pivot -> tip sweeps as the tip moves along the
// path p -> to. The end's moves use one strand (the whole rope); a peg's move uses two,
// one on each side of the peg, whose events Rope::move_wrapped interleaves (interleave).
//
// next() is the strand's first event not yet applied, as the line the tip crosses when it
// happens (a line through or tangent to inputs): a wind (the pivot's winding crosses a
// multiple of pi; a release when that would take it below zero) or a catch. Events come
// in the order the tip meets them; a wind comes before a catch at the same time (the
// boundary counts as crossed when winding up; when winding down it is crossed strictly
// before the catch's angle, docs/rope.md).
//
// The sweep since the last event is a window of the path: the tip is past the line of
// that event (strictly after a release or at the start, the line itself after a catch).
// A peg is caught when the tip crosses, within the window, the line along which the rope
// from the pivot touches it (catch_line), from the near side to the far side or onto it,
// at a point past the peg's tangent point (so the peg lies on the rope, not beyond its
// end).
class Rope::Strand {
 public:
  enum class Kind { none, wind_up, wind_down, release, catch_peg };
  struct Event {
    Kind kind = Kind::none;
    TangentLine line;  // the line the tip crosses
    std::uint32_t peg = 0;
  };

  // `moving`: a peg never caught (the moving peg itself), or RopeNode::no_peg. The tip is
  // a point (the end, a point peg) or a circle peg of radius tip_r on side tip_side of the
  // rope (seen from this strand's fixed end).
  Strand(const Rope& rope, std::vector<RopeNode>& nodes, Direction first_dir, Direction heading, Vec2 p, Vec2 to,
         std::uint32_t moving, float tip_r = 0.0f, int tip_side = 0)
      : rope_(rope),
        nodes_(nodes),
        first_dir_(first_dir),
        heading_(heading),
        p_(p),
        to_(to),
        moving_(moving),
        tip_r_(tip_r),
        tip_side_(tip_side) {
    // The heading points at the tip at p (the sweep starts there: a candidate's line
    // crossed after time 0 is on the near side of p, which catchable() asks anyway), unless
    // a peg has just caught the rope (move_peg): then the sweep starts where the tip crosses
    // the heading's line. (Not asked of the predicates: p on its own line is their slowest
    // case.)
    if (!(heading_.p == p_ && heading_.r == tip_r_)) set_window(line_to(pivot(), heading_), false);
    begin_sweep();
  }

  Direction heading() const { return heading_; }

  // The two strands of a wrapped peg's move (Rope::move_wrapped), left and right, and the
  // peg: their events taken in the order the peg meets them, from after `last`, until none
  // is left or the peg is released (returns true).
  static bool interleave(Strand (&strands)[2], CarriedPeg& peg, TakenEvent last);

  const Event& next() {
    if (!cached_) {
      next_ = find_next();
      cached_ = true;
    }
    return next_;
  }

  void apply(const Event& e) {
    cached_ = false;
    const std::size_t last = nodes_.size() - 1;
    switch (e.kind) {
      case Kind::none:
        return;
      case Kind::wind_up:
        ++nodes_[last].half_turns;
        return;
      case Kind::wind_down:
        --nodes_[last].half_turns;
        return;
      case Kind::release: {
        // Unwound past where it was caught: let go, and go on sweeping around the node
        // before, from the released node's line onwards.
        heading_ = heading_after_release(nodes_, rope_.radii_, first_dir_);
        nodes_.pop_back();
        set_window(e.line, false);
        begin_sweep();
        return;
      }
      case Kind::catch_peg: {
        const Pivot c = pivot();
        nodes_.push_back({rope_.pegs_[e.peg], e.peg, sigma_, 0});
        heading_ = {c.c(), -1, c.circle.r, c.side};  // back along the line it was caught on
        set_window(e.line, true);
        if (rope_.radii_[e.peg] > 0.0f || tip_r_ > 0.0f) {
          // A circle's arc may reach past the bounds asked so far; past a circle tip the
          // rope from the new node is not inside the region swept (as it is between points).
          begin_sweep();
        } else if (c.point()) {
          // Between points the rest of the sweep lies in the triangle (peg, where the tip
          // is, `to`), inside the region swept so far: its candidates are enough.
          std::erase_if(cand_, [&](std::uint32_t i) { return !catchable(i); });
        } else {
          // From a circle pivot that triangle still lies in the bounds asked (the circle's
          // and the path's), but not in the region swept: the pivot's circle was never swept
          // over, and the rope from the new node may meet it again. Every peg in the bounds
          // is asked again.
          assert(in_bounds_of_ == c.circle.c);  // begin_sweep asked them for this pivot
          cand_.clear();
          std::copy_if(in_bounds_.begin(), in_bounds_.end(), std::back_inserter(cand_),
                       [&](std::uint32_t i) { return catchable(i); });
        }
        return;
      }
    }
  }

 private:
  // Offers the next event to a wrapped peg's move, as strand `by`.
  void offer_next(int by, FirstEvent& first) {
    const Event& e = next();
    if (e.kind != Kind::none) first.consider(by, rank_of(e.kind), e.line);
  }

  // An event's place among those at one time (rank_at_boundary ...).
  static int rank_of(Kind k) {
    return k == Kind::wind_down || k == Kind::release ? rank_past_boundary : rank_at_boundary;
  }

  Pivot pivot() const { return pivot_of(rope_.radii_, nodes_.back()); }
  Circle peg_circle(std::uint32_t i) const { return {rope_.pegs_[i], rope_.radii_[i]}; }

  // Every line the strand looks at is one the tip crosses, as the tip's centre sees it:
  // around a circle tip, where its centre runs while the tip touches the line, the line
  // moved by tip_side_ tip_r_ to the left of the direction pivot -> tip. `toward`: +1 when
  // the line runs that way, -1 when it runs back towards the pivot.
  TangentLine seen(const TangentLine& l, int toward) const {
    return tip_r_ == 0.0f ? l : moved_left(l, static_cast<float>(toward * tip_side_) * tip_r_);
  }
  // The line from c along d (line_of), which runs d.sign times the way d points.
  TangentLine line_to(const Pivot& c, const Direction& d) const { return seen(line_of(c, d), d.sign); }
  // Where the rope doubles back along d's line (mirrored_line_of), running against d.
  TangentLine doubled_back_to(const Pivot& c, const Direction& d) const {
    return seen(mirrored_line_of(c, d), -d.sign);
  }
  // The line along which the rope from c touches peg i, the peg on the side the sweep turns
  // to (a catch makes it a node on that side).
  TangentLine catch_line(const Pivot& c, std::uint32_t i) const {
    return seen({c.circle, c.side, peg_circle(i), sigma_}, 1);
  }

  void set_window(const TangentLine& line, bool closed) {
    window_ = line;
    has_window_ = true;
    window_closed_ = closed;
  }

  // The sense the pivot -> tip segment turns in, and the pegs it may meet: those touching
  // the bounds of the pivot and the path, then the exact test.
  void begin_sweep() {
    cand_.clear();
    const Pivot c = pivot();
    sigma_ = heading_.sign * side_of(line_to(c, heading_), to_);
    if (sigma_ == 0) return;  // the tip moves along the pivot's line: nothing turns
    const Box bounds = grown_box(bounds_of(c.circle, p_, to_), tip_r_);
    if (c.point() && tip_r_ == 0.0f) {
      rope_.candidates(bounds, cand_);
      std::erase_if(cand_, [&](std::uint32_t i) { return !catchable(i); });
    } else {
      rope_.candidates(bounds, in_bounds_);  // kept for a catch from the circle
      in_bounds_of_ = c.c();
      std::copy_if(in_bounds_.begin(), in_bounds_.end(), std::back_inserter(cand_),
                   [&](std::uint32_t i) { return catchable(i); });
    }
  }

  bool catchable(std::uint32_t i) const {
    if (i == moving_) return false;
    const Pivot c = pivot();
    const Circle z = peg_circle(i);
    // Pegs at one point act as one: a peg at the pivot's place is never caught from it.
    // (Circle pegs touch nothing, so every other catch line exists.)
    if (c.point() && z.r == 0.0f && z.c == c.c()) return false;
    const TangentLine l = catch_line(c, i);
    if (sigma_ * side_of(l, to_) < 0 || side_of(l, p_) != -sigma_) return false;
    if (has_window_) {
      const int o = compare_tangent_crossings(p_, to_, l, window_);
      if (window_closed_ ? o < 0 : o <= 0) return false;
    }
    // Around a point pivot the tip crosses a point peg's line on the far side of the pivot
    // (the sweep turns less than half a turn), so the peg lies on the rope iff it is on the
    // pivot's side of the path (or on it).
    if (c.point() && z.r == 0.0f && tip_r_ == 0.0f) return orient2d(p_, to_, z.c) * orient2d(p_, to_, c.c()) >= 0;
    return crossing_beyond_tangent_point(p_, to_, l) >= 0;
  }

  Event find_next() const {
    if (sigma_ == 0) return {};
    const std::size_t last = nodes_.size() - 1;
    const Pivot c = pivot();
    // The first peg the sweep meets: the first line crossed, then the nearest on it, then
    // the lowest index (pegs at one point act as one).
    const auto before = [&](std::uint32_t i, std::uint32_t j) {
      const Circle a = peg_circle(i), b = peg_circle(j);
      // Around points, both in the swept cone: the smaller angle from the heading first.
      const int o = c.point() && a.r == 0.0f && b.r == 0.0f && tip_r_ == 0.0f
                        ? -sigma_ * orient2d(c.c(), a.c, b.c)
                        : compare_tangent_crossings(p_, to_, catch_line(c, i), catch_line(c, j));
      if (o != 0) return o < 0;
      if (a.c == b.c) return i < j;
      return along(catch_line(c, i), a.c, b.c) > 0;  // on one line: a's tangent point first
    };
    const auto best = std::min_element(cand_.begin(), cand_.end(), before);
    const bool caught = best != cand_.end();
    if (last > 0) {
      // The pivot's winding up to the catch (or the end of the path): a sweep turns by
      // less than half a turn, so it crosses at most one multiple of pi, and does so iff
      // the half the target direction lies in differs from the half-turn count's parity.
      const RopeNode& n = nodes_[last];
      const Direction in = incoming_of(nodes_, rope_.radii_, first_dir_, last);
      const Direction target =
          caught ? Direction{rope_.pegs_[*best], 1, rope_.radii_[*best], sigma_} : Direction{to_, 1, tip_r_, tip_side_};
      if (half_of(c, in, target) != static_cast<int>(n.half_turns % 2)) {
        const bool up = n.side * sigma_ > 0;
        const Kind k = up ? Kind::wind_up : n.half_turns > 0 ? Kind::wind_down : Kind::release;
        // The multiple of pi crossed (up: half_turns + 1; down: half_turns): even, the
        // rope runs straight on along the line it came in on; odd, it doubles back along
        // that line's image through the node's centre (the same line around a point).
        const std::uint32_t multiple = up ? n.half_turns + 1 : n.half_turns;
        return {k, multiple % 2 == 0 ? line_to(c, in) : doubled_back_to(c, in), 0};
      }
    }
    if (!caught) return {};
    return {Kind::catch_peg, catch_line(c, *best), *best};
  }

  const Rope& rope_;
  std::vector<RopeNode>& nodes_;
  Direction first_dir_;
  Direction heading_;  // the pivot -> tip direction, seen from the pivot
  Vec2 p_, to_;        // the tip's path
  std::uint32_t moving_;
  float tip_r_;
  int tip_side_;
  int sigma_ = 0;  // the sense the pivot -> tip segment turns in: +1 counterclockwise
  TangentLine window_;
  bool has_window_ = false;
  bool window_closed_ = false;
  std::vector<std::uint32_t> cand_;
  // Around a circle pivot: every peg in the bounds of the pivot and the path, asked by the
  // last begin_sweep from a circle pivot (the one at in_bounds_of_). Invariant: while the
  // pivot is a circle, or a point caught from one, that circle is the one asked for (a
  // circle becomes the pivot only through begin_sweep: at the start, a catch, a release).
  std::vector<std::uint32_t> in_bounds_;
  Vec2 in_bounds_of_{};
  bool cached_ = false;
  Event next_;
};

// One move of the end to `to`, from wherever it is; loops when the move has to be taken
// in parts (through the pivot, or after the pivot let go as the end left it).
void Rope::advance_end(Vec2 to) {
  for (;;) {
    if (end_ == to) return;
    const Pivot c = pivot_of(radii_, nodes_.back());
    if (end_ == c.c()) {  // (a point: the end stays out of circle pegs)
      if (leave_pivot(to)) continue;
      return;
    }
    if (cross_dir(c, end_dir_, to) != 0) {
      sweep(to);
      return;
    }
    if (!c.point() || dot_dir(c, end_dir_, to) > 0) {
      // Along the last segment's own line, away from or towards the pivot without
      // reaching it (a circle pivot is never reached: the end stays out of it): the
      // segment does not turn and sweeps nothing.
      end_ = to;
      end_dir_ = {to, 1};
      return;
    }
    // Through (or onto) the pivot: first onto it.
    arrive_at_pivot();
  }
}

// The end comes straight onto its last node. It counts as arriving just past the node,
// on the line the rope comes in on (as an end passing over a peg does when it catches it):
// the heading becomes the node's incoming direction, the winding the nearest multiple of
// a full turn's half in that direction. Without this, what happens when the end leaves
// again would depend on where it came from (docs/rope.md, "Degenerate moves").
void Rope::arrive_at_pivot() {
  const std::size_t last = nodes_.size() - 1;
  const Pivot c = pivot_of(radii_, nodes_[last]);
  end_ = c.c();
  if (last == 0) return;
  RopeNode& n = nodes_[last];
  const Direction u = incoming_of(nodes_, radii_, start_dir_, last);
  if (n.half_turns % 2 == 1) {
    // Half a turn past an even multiple: the incoming direction is nearer above, unless
    // the rope lies exactly doubled back (as far either way: unwinding wins).
    if (cross_dirs(c, u, end_dir_) == 0 && dot_dirs(c, u, end_dir_) < 0)
      --n.half_turns;
    else
      ++n.half_turns;
  }
  end_dir_ = u;
}

// The end is on the last node and moves to `to`: the last segment starts from length zero
// in the direction of `to`, so it sweeps nothing, but the node's winding jumps from the
// heading the rope had to the new one. Returns true if that released the node (the rest
// of the move is then taken from the node before, with the end at the released node).
bool Rope::leave_pivot(Vec2 to) {
  const std::size_t last = nodes_.size() - 1;
  const Pivot c = pivot_of(radii_, nodes_[last]);
  if (last == 0) {  // the start: nothing to wind
    end_ = to;
    end_dir_ = {to, 1};
    return false;
  }
  RopeNode& n = nodes_[last];
  int rho = cross_dir(c, end_dir_, to);
  // Straight back along the heading (the end went straight through the node): half a turn,
  // taken as unwinding, as the turn's sign reads it (docs/rope.md, "Degenerate moves").
  if (rho == 0 && dot_dir(c, end_dir_, to) < 0) rho = -n.side;
  if (rho != 0 && half_of(c, incoming_of(nodes_, radii_, start_dir_, last), Direction{to, 1}) !=
                      static_cast<int>(n.half_turns % 2)) {
    if (n.side * rho > 0) {
      ++n.half_turns;
    } else if (n.half_turns > 0) {
      --n.half_turns;
    } else {
      const Direction heading = heading_after_release(nodes_, radii_, start_dir_);
      nodes_.pop_back();
      end_ = c.c();
      end_dir_ = heading;
      return true;
    }
  }
  end_ = to;
  end_dir_ = {to, 1};
  return false;
}

// The end moves from end_ (not on the pivot, not along the pivot's line) to `to`.
void Rope::sweep(Vec2 to) {
  const Vec2 p = end_;
  Strand strand(*this, nodes_, start_dir_, end_dir_, p, to, RopeNode::no_peg);
  for (;;) {
    const Strand::Event e = strand.next();
    if (e.kind == Strand::Kind::none) break;
    strand.apply(e);
    if (e.kind == Strand::Kind::catch_peg && radii_[e.peg] == 0.0f && orient2d(p, to, pegs_[e.peg]) == 0) {
      // The end itself passed over the peg: the rest of the move pulls straight away
      // from it.
      end_ = pegs_[e.peg];
      end_dir_ = strand.heading();
      advance_end(to);
      return;
    }
  }
  end_ = to;
  end_dir_ = {to, 1};
}

namespace {

// A peg's move as the stages of Rope::move_peg see it.
struct PegPath {
  std::uint32_t peg;
  Vec2 from, to;
  float r;  // a circle peg's disc sweeps the path's points within r
  Segment segment;
  Box reach;        // the path's bounds grown by r
  std::string who;  // "peg i", for the errors

  std::string text() const { return who + ": its path from " + point_text(from) + " to " + point_text(to); }
};

PegPath peg_path(std::uint32_t peg, Vec2 from, Vec2 to, float r, const std::string& who) {
  return {peg, from, to, r, Segment{from, to}, grown_box(bounds_of(from, to, to), r), who};
}

// The peg must be one of the rope's, its target a finite point.
void refuse_bad_peg_move(std::uint32_t peg, std::size_t peg_count, Vec2 to, const std::string& who) {
  if (peg >= peg_count) throw Error(who + ": no such peg (" + std::to_string(peg_count) + " pegs)");
  require_finite(to, who);
}

// The node at which the rope wraps the peg, 0 (the start's) when it does not; refused when
// it wraps it more than once.
std::size_t wrapped_node(std::span<const RopeNode> nodes, const PegPath& path) {
  std::size_t node = 0, wraps = 0;
  for (std::size_t i = 1; i < nodes.size(); ++i)
    if (nodes[i].peg == path.peg) {
      node = i;
      ++wraps;
    }
  if (wraps > 1)
    throw Error(path.who + " is wrapped " + std::to_string(wraps) +
                " times by the rope: moving a peg the rope wraps more than once is not supported (docs/rope.md)");
  return node;
}

// Nothing but the rope's segments may lie on the path (of a circle peg: within its radius
// of the path): not the rope's start or end (here), not another peg (not even one at the
// peg's own place; refuse_path_over_pegs). (within_distance with r = 0 is intersects.)
void refuse_path_over_rope_ends(const PegPath& path, Vec2 start, Vec2 end) {
  if (within_distance(path.segment, Circle{start, 0.0f}, path.r))
    throw Error(path.text() + " passes over the rope's start");
  if (within_distance(path.segment, Circle{end, 0.0f}, path.r))
    throw Error(path.text() + " passes over the rope's end");
}

// `near`: the pegs whose bounds touch the path's reach (Rope::candidates).
void refuse_path_over_pegs(const PegPath& path, std::span<const std::uint32_t> near, std::span<const Vec2> pegs,
                           std::span<const float> radii) {
  for (std::uint32_t i : near) {
    if (i == path.peg) continue;
    if (within_distance(path.segment, Circle{pegs[i], radii[i]}, path.r))
      throw Error(path.text() + " passes over peg " + std::to_string(i) + " at " + point_text(pegs[i]));
  }
}

// The rope's segments the path meets, but for the two at the peg when it is wrapped (at
// `node`, 0: free). (A float comparison of bounds first: on a long rope most segments are
// far away.) Segment s runs from node s - 1 to node s (the end after the last).
std::vector<std::size_t> segments_met(const PegPath& path, const RopeView& rope, std::size_t node) {
  const Box& reach = path.reach;
  std::vector<std::size_t> met;
  for (std::size_t s = 1; s <= rope.nodes.size(); ++s) {
    const Circle a = rope.circle(s - 1), b = rope.circle(s);
    if (std::max(a.c.x + a.r, b.c.x + b.r) < reach.min.x || std::min(a.c.x - a.r, b.c.x - b.r) > reach.max.x ||
        std::max(a.c.y + a.r, b.c.y + b.r) < reach.min.y || std::min(a.c.y - a.r, b.c.y - b.r) > reach.max.y)
      continue;
    if (node != 0 && (s == node || s == node + 1)) continue;
    const TangentLine stretch{a, rope.side(s - 1), b, rope.side(s)};
    const bool meets = path.r > 0.0f                ? DiscPath{path.from, path.to, path.r, stretch}.touches()
                       : a.r == 0.0f && b.r == 0.0f ? intersects(path.segment, Segment{a.c, b.c})
                                                    : path_meets_stretch(path.from, path.to, stretch);
    if (meets) met.push_back(s);
  }
  return met;
}

// A wrapped peg may push only the two segments at it (at `node`, 0: free); a free peg may
// catch the rope at one place per move.
void refuse_segments_met(const PegPath& path, std::span<const std::size_t> met, std::size_t node) {
  const auto segment_text = [](std::size_t s) { return "the rope's segment " + std::to_string(s - 1); };
  if (node != 0 && !met.empty())
    throw Error(path.text() + " meets " + segment_text(met[0]) +
                ": a wrapped peg may push only the two segments at it (docs/rope.md)");
  if (met.size() > 1)
    throw Error(path.text() + " meets " + segment_text(met[0]) + " and " + segment_text(met[1]) +
                ": a peg may catch the rope at one place per move (docs/rope.md)");
}

// How a free peg whose path meets the rope's segment s = (u, v) catches it. The path
// crosses the segment inside it (its ends are the start, the end or pegs, none on the
// path): the peg catches the rope there and bends it around itself, turning to the side the
// peg came from. A peg lying on the rope (left there by a move of the end along its line)
// catches it on leaving the line, to the side it leaves to; sliding along the line it does
// not.
//
// A circle peg catches the stretch when its disc comes into the band of points within its
// radius of it through the band's edge on its side; it does not when it only slides along
// that edge or leaves it (it merely touched the rope).
struct RopeCatch {
  int side = 0;  // the side the rope turns to at the peg; 0: not caught
  // The headings of the two strands: along the segment, from u towards v (the left
  // strand's) and from v towards u (the right's, reversed: sides flipped).
  Direction crossed[2];
};

RopeCatch rope_catch(const PegPath& path, const RopeView& rope, std::size_t s) {
  const TangentLine uv{rope.circle(s - 1), rope.side(s - 1), rope.circle(s), rope.side(s)};
  int side = 0;
  if (path.r > 0.0f) {
    const DiscPath disc{path.from, path.to, path.r, uv};
    side = disc.enters(1) ? 1 : disc.enters(-1) ? -1 : 0;
  } else {
    const int from_side = side_of(uv, path.from);
    side = from_side != 0 ? from_side : -side_of(uv, path.to);
  }
  return {side, {{uv.b.c, 1, uv.b.r, uv.sb}, {uv.a.c, 1, uv.a.r, -uv.sa}}};
}

// The rope with `node` inserted at `at`, then `carry`; if that throws, the rope is as it
// was.
template <class Carry>
void with_node_inserted(std::vector<RopeNode>& nodes, std::size_t at, const RopeNode& node, Carry&& carry) {
  const std::vector<RopeNode> before = nodes;
  nodes.insert(nodes.begin() + static_cast<std::ptrdiff_t>(at), node);
  try {
    carry();
  } catch (...) {
    nodes = before;
    throw;
  }
}

}  // namespace

// A peg moves along the straight segment to `to` (docs/rope.md, "Moving pegs"). What may
// not happen is refused first, with the rope unchanged; then the move is taken as one of:
// a peg clear of the rope just moves; a free peg whose path crosses one rope segment
// catches the rope there and pushes it on; a wrapped peg moves with the rope around it.
void Rope::move_peg(std::uint32_t peg, Vec2 to) {
  const std::string who = "peg " + std::to_string(peg);
  refuse_bad_peg_move(peg, pegs_.size(), to, who);
  if (pegs_[peg] == to) return;
  const PegPath path = peg_path(peg, pegs_[peg], to, radii_[peg], who);
  const std::size_t node = wrapped_node(nodes_, path);
  refuse_path_over_rope_ends(path, start(), end_);
  std::vector<std::uint32_t> near;
  candidates(path.reach, near);
  refuse_path_over_pegs(path, near, pegs_, radii_);
  const RopeView rope{nodes_, radii_, end_};
  const std::vector<std::size_t> met = segments_met(path, rope, node);
  refuse_segments_met(path, met, node);

  if (node != 0) {
    move_wrapped(node, to, nullptr);
  } else if (met.size() == 1) {
    const RopeCatch c = rope_catch(path, rope, met[0]);
    if (c.side != 0)
      with_node_inserted(nodes_, met[0], {path.from, peg, c.side, 0}, [&] { move_wrapped(met[0], to, c.crossed); });
  }
  pegs_[peg] = to;
  index_->note_moved(peg, pegs_, radii_);
}

namespace {

// The peg's own winding between point neighbours kl, kr (a point peg): both lines are the
// line (cl, cr), and the peg's winding crosses a multiple of pi when it crosses that line,
// iff the half at the path's end differs from the parity (the same test as a pivot's).
// Between cl and cr the rope runs straight on at the peg (a multiple of 2 pi); beyond
// them, it doubles back. Returns whether it runs straight on there (if the event is first).
bool offer_winding_between_points(FirstEvent& first, const CarriedPeg& peg, const Circle& kl, const Circle& kr,
                                  int parity) {
  const Pivot at_end{{peg.to, 0.0f}, peg.node.side};
  if (half_of(at_end, Direction{kl.c, -1}, Direction{kr.c, 1}) != parity &&
      first.consider(FirstEvent::the_peg, rank_peg_winding, TangentLine{kl, 1, kr, 1}))
    return orient2d(peg.from, peg.to, kl.c) * orient2d(peg.from, peg.to, kr.c) < 0;
  return false;
}

// The peg's own winding with one circle on both sides (a strand has just caught the
// other's pivot): on opposite sides of the rope (equal sides here, right being reversed)
// the stretch out runs back along the stretch in, so the winding is an odd multiple of pi
// for as long as they stay; it reaches it at the catch. On one side it is never a multiple.
// (Doubled back: never straight on.) Around a moving circle the stretches are two common
// tangents of it and the other circle, parallel only when the other circle, less the peg's
// radius, is a point on both (the same radius, the rope turning the peg's way at it):
// (sl + sr) rl = 2 sm rm, sr = -nr.side.
void offer_winding_around_one_circle(FirstEvent& first, const CarriedPeg& peg, const RopeNode& nl, const RopeNode& nr,
                                     const Circle& kl, int parity, const TakenEvent& last) {
  const bool doubled_back =
      peg.r == 0.0f ? nl.side == nr.side : nl.side == peg.node.side && nr.side == -peg.node.side && kl.r == peg.r;
  if (doubled_back && parity == 0 && last.rank >= 0) first.consider(FirstEvent::the_peg, rank_peg_winding, last.line);
}

// The peg's own winding next to circle neighbours (or as a circle): on the three peg lines
// (peg_line), each looked at past the last event taken (peg_winds_on). Returns whether the
// line offered last and taken as first is the straight-on one.
bool offer_winding_on_peg_lines(FirstEvent& first, const CarriedPeg& peg, const RopeNode& nl, const Circle& kl,
                                const RopeNode& nr, const Circle& kr, int parity, const TakenEvent& last) {
  const TangentLine* after = last.rank >= 0 ? &last.line : nullptr;
  bool straight = false;
  for (const PegLine k : {PegLine::straight, PegLine::beyond_cr, PegLine::beyond_cl}) {
    // (right is reversed: its sides flipped)
    const TangentLine l = peg_line(k, kl, nl.side, kr, -nr.side, peg.smr);
    if (peg_winds_on(peg.from, peg.to, l, k, peg.node.side, parity, after, last.rank) &&
        first.consider(FirstEvent::the_peg, rank_peg_winding, l))
      straight = k == PegLine::straight;
  }
  return straight;
}

// The peg's own winding event, offered to `first`: where its winding crosses a multiple of
// pi, between its neighbours nl (the left strand's pivot) and nr (the right's, reversed).
// Returns whether, if that event is first, the peg crossed the line on which the rope runs
// straight on at it (rather than doubling back).
bool offer_peg_winding(FirstEvent& first, const CarriedPeg& peg, const RopeNode& nl, const RopeNode& nr,
                       std::span<const float> radii, const TakenEvent& last) {
  const Circle kl{nl.position, radius_of(radii, nl)}, kr{nr.position, radius_of(radii, nr)};
  const int parity = static_cast<int>(peg.node.half_turns % 2);
  if (kl.r == 0.0f && kr.r == 0.0f && peg.r == 0.0f) return offer_winding_between_points(first, peg, kl, kr, parity);
  if (nl.peg == nr.peg && nl.peg != RopeNode::no_peg) {
    offer_winding_around_one_circle(first, peg, nl, nr, kl, parity, last);
    return false;
  }
  return offer_winding_on_peg_lines(first, peg, nl, kl, nr, kr, parity, last);
}

// The peg's winding has crossed a multiple of pi, on the straight-on line or not: which
// boundary of the half-turn interval it crossed tells the way its winding goes. Returns
// true when that takes it below zero: the peg is released.
bool wind_carried_peg(RopeNode& m, bool straight) {
  const bool down = (m.half_turns % 2 == 0) == straight;
  if (!down) {
    ++m.half_turns;
  } else if (m.half_turns > 0) {
    --m.half_turns;
  } else {
    return true;
  }
  return false;
}

// The rope again after a wrapped peg's move: the left strand, the peg at `to` unless it was
// released (then the rope runs straight past it and it moves on free), then the right
// strand but its first node (the end) turned back, sides flipped back.
std::vector<RopeNode> rejoined(std::vector<RopeNode> left, const CarriedPeg& peg, bool released,
                               std::span<const RopeNode> right) {
  if (!released) left.push_back({peg.to, peg.node.peg, peg.node.side, peg.node.half_turns});
  for (std::size_t j = right.size(); j-- > 1;)
    left.push_back({right[j].position, right[j].peg, -right[j].side, right[j].half_turns});
  return left;
}

}  // namespace

// Each step offers the strands' next events and the peg's own winding event, and takes the
// first: a strand's it applies to that strand, the peg's winds the peg.
bool Rope::Strand::interleave(Strand (&strands)[2], CarriedPeg& peg, TakenEvent last) {
  for (;;) {
    FirstEvent first{peg.from, peg.to};
    for (int k = 0; k < 2; ++k) strands[k].offer_next(k, first);
    const bool straight = offer_peg_winding(first, peg, strands[0].nodes_.back(), strands[1].nodes_.back(),
                                            strands[0].rope_.radii_, last);
    if (first.by == FirstEvent::none) return false;
    last = {first.line, first.rank};
    if (first.by != FirstEvent::the_peg)
      strands[first.by].apply(strands[first.by].next());
    else if (wind_carried_peg(peg.node, straight))
      return true;
  }
}

// Node i (a peg wrapped once) moves to `to` along a path that passes over nothing. The
// rope is split at it: the left strand (start .. node i - 1) and the right strand (end ..
// node i + 1, reversed) each follow the peg as their tip, and the peg's own winding turns
// as both of its segments do (peg_winds_on). Their events are taken in the order the peg
// meets them (compare_tangent_crossings: each is the peg crossing a line through or
// tangent to inputs). When the peg's winding goes below zero it is released: the rope runs
// straight past it and it moves on free. `crossed` (u, v): the peg has just caught the
// rope's stretch (u, v) and starts on it (its winding exactly 0), rather than at its own
// place.
void Rope::move_wrapped(std::size_t i, Vec2 to, const Direction* crossed) {
  const RopeNode& n = nodes_[i];
  CarriedPeg peg{pegs_[n.peg], to, n, radii_[n.peg], static_cast<float>(n.side) * radii_[n.peg]};
  std::vector<RopeNode> left(nodes_.begin(), nodes_.begin() + static_cast<std::ptrdiff_t>(i));
  std::vector<RopeNode> right = reversed(std::span(nodes_).subspan(i + 1), end_);
  // The end may sit on the right strand's first node (never on the peg: it is not on the
  // path), the start on the left strand's.
  const Direction right_first = right.size() >= 2 && right[1].position == end_ ? end_dir_ : Direction{end_, 1};
  // A circle peg is the tip of both strands, on its side of the left one and the other
  // side of the right one (reversed).
  const int sm = peg.node.side;
  const Direction left_heading = crossed ? crossed[0] : Direction{peg.from, 1, peg.r, sm};
  const Direction right_heading = crossed ? crossed[1] : Direction{peg.from, 1, peg.r, -sm};
  Strand strands[2] = {Strand(*this, left, start_dir_, left_heading, peg.from, to, peg.node.peg, peg.r, sm),
                       Strand(*this, right, right_first, right_heading, peg.from, to, peg.node.peg, peg.r, -sm)};
  // A peg that has just caught the rope starts on the stretch it crossed, its winding
  // exactly 0.
  TakenEvent last;
  if (crossed)
    last = {peg_line(PegLine::straight, node_circle(i - 1), nodes_[i - 1].side, node_circle(i + 1), node_side(i + 1),
                     peg.smr),
            rank_peg_winding};

  const bool released = Strand::interleave(strands, peg, last);
  nodes_ = rejoined(std::move(left), peg, released, right);
  end_dir_ = nodes_.size() >= 2 && nodes_.back().position == end_ ? right_first : Direction{end_, 1};
}

}  // namespace hitgrid
