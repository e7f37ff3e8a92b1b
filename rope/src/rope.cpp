// The rope's moves as a sequence of exact events (docs/rope.md).
//
// A move of the end from P to P' is followed in the order things happen along it. The
// rope's last segment pivots around the last node C; it sweeps the triangle (C, Q, P'),
// Q being where the end is now. Q is a computed point after the first event, so the
// triangle is never built: it is the intersection of half-planes whose lines pass
// through input points only — the line of the rope's current heading (through C and a
// node or P), the end's path P P', and the line C P' — each tested with orient2d. After
// a catch, the new region is the old one cut by two more such half-planes; after a
// release, it is rebuilt around the node before. Angles at the pivot are compared with
// orient2d and dot_sign of input points, never computed.
#include "hitgrid/rope/rope.hpp"

#include <algorithm>
#include <span>
#include <cmath>
#include <sstream>
#include <string>

#include "hitgrid/broadphase/grid_index.hpp"
#include "hitgrid/core/error.hpp"
#include "hitgrid/core/intersects.hpp"
#include "hitgrid/core/line_crossing.hpp"
#include "hitgrid/core/predicates.hpp"

namespace hitgrid {
namespace {

using Direction = Rope::Direction;

std::string point_text(Vec2 p) {
  std::ostringstream s;
  s.precision(9);
  s << '(' << p.x << ", " << p.y << ')';
  return s.str();
}

void require_finite(Vec2 p, const std::string& what) {
  if (!std::isfinite(p.x) || !std::isfinite(p.y)) throw Error(what + ": not a finite point " + point_text(p));
}

// sign(cross(d, y - c)) for the direction d = sign * (d.p - c).
int cross_dir(Vec2 c, Direction d, Vec2 y) { return d.sign * orient2d(c, d.p, y); }
// sign(dot(d, y - c)).
int dot_dir(Vec2 c, Direction d, Vec2 y) { return d.sign * dot_sign(c, d.p, y); }
// sign(cross(d, e)) and sign(dot(d, e)) for two directions seen from c.
int cross_dirs(Vec2 c, Direction d, Direction e) { return e.sign * cross_dir(c, d, e.p); }
int dot_dirs(Vec2 c, Direction d, Direction e) { return e.sign * dot_dir(c, d, e.p); }

// Which half of a turn the direction v lies in, measured from the incoming direction u
// in the node's turning sense `side`: 0 for [0, pi), 1 for [pi, 2 pi). Equal to
// half_turns % 2 whenever the rope's state is consistent.
int half_of(Vec2 c, int side, Direction u, Direction v) {
  const int cr = side * cross_dirs(c, u, v);
  if (cr != 0) return cr > 0 ? 0 : 1;
  return dot_dirs(c, u, v) >= 0 ? 0 : 1;
}

// A closed (or open, `strict`) half-plane: sign * orient2d(a, b, y) >= 0 (> 0).
struct HalfPlane {
  Vec2 a, b;
  int sign;
  bool strict;
  bool contains(Vec2 y) const {
    const int o = sign * orient2d(a, b, y);
    return strict ? o > 0 : o >= 0;
  }
};

// The direction nodes[i] - nodes[i - 1], seen from nodes[i] (i >= 1). first_dir: the
// direction of the first segment seen from nodes[1], which matters when nodes[0] (the
// fixed end) sits on it: then it is the direction that end came from.
Direction incoming_of(std::span<const RopeNode> nodes, Direction first_dir, std::size_t i) {
  if (!(nodes[i - 1].position == nodes[i].position)) return {nodes[i - 1].position, -1};
  return {first_dir.p, -first_dir.sign};
}

// The heading of the new last segment when the last node is released: the released
// node's incoming direction, seen from the node before.
Direction heading_after_release(std::span<const RopeNode> nodes, Direction first_dir) {
  const std::size_t last = nodes.size() - 1;
  if (!(nodes[last - 1].position == nodes[last].position)) return {nodes[last].position, 1};
  return {first_dir.p, -first_dir.sign};
}

// A part of the rope reversed: node 0 is `end` (no peg), then the nodes in reverse order,
// each side flipped (the rope is symmetric: seen from the other end every turn is the
// other way).
std::vector<RopeNode> reversed(std::span<const RopeNode> nodes, Vec2 end) {
  std::vector<RopeNode> r;
  r.reserve(nodes.size() + 1);
  r.push_back({end, RopeNode::no_peg, 0, 0});
  for (std::size_t i = nodes.size(); i-- > 0;) r.push_back({nodes[i].position, nodes[i].peg, -nodes[i].side, nodes[i].half_turns});
  return r;
}

// y lies on the closed segment s.
bool on_segment(const Segment& s, Vec2 y) {
  return orient2d(s.a, s.b, y) == 0 && std::min(s.a.x, s.b.x) <= y.x && y.x <= std::max(s.a.x, s.b.x) &&
         std::min(s.a.y, s.b.y) <= y.y && y.y <= std::max(s.a.y, s.b.y);
}

Box bounds_of(Vec2 a, Vec2 b, Vec2 c) {
  return {{std::min({a.x, b.x, c.x}), std::min({a.y, b.y, c.y})}, {std::max({a.x, b.x, c.x}), std::max({a.y, b.y, c.y})}};
}

}  // namespace

// The grid over the pegs, built once; pegs moved since then are kept beside it and
// looked at one by one, and the grid is rebuilt when they get many.
struct Rope::Index {
  std::shared_ptr<const GridIndex> grid;  // immutable once built: copies of a rope share it
  std::vector<std::uint8_t> moved;
  std::vector<std::uint32_t> moved_list;
  mutable std::vector<ShapeId> scratch;

  void build(std::span<const Vec2> pegs) {
    Scene scene;
    scene.reserve(0, pegs.size(), 0);
    for (Vec2 p : pegs) scene.add(Circle{p, 0.0f});
    grid = std::make_shared<const GridIndex>(scene);
    moved.assign(pegs.size(), 0);
    moved_list.clear();
  }
};

ScenePegs pegs_of(const Scene& scene) {
  ScenePegs out;
  for (std::uint32_t i = 0; i < scene.segment_count(); ++i) {
    const Segment s = scene.segment(i);
    out.points.push_back(s.a);
    out.points.push_back(s.b);
    out.source.insert(out.source.end(), 2, ShapeId(ShapeKind::segment, i));
  }
  for (std::uint32_t i = 0; i < scene.circle_count(); ++i) {
    const Circle c = scene.circle(i);
    if (c.r != 0.0f)
      throw Error("circle " + std::to_string(i) + ": a rope peg must be a point (radius 0), not radius " +
                  std::to_string(c.r) + " (circle pegs are not implemented, docs/rope.md)");
    out.points.push_back(c.c);
    out.source.push_back(ShapeId(ShapeKind::circle, i));
  }
  for (std::uint32_t i = 0; i < scene.box_count(); ++i) {
    const Box b = scene.box(i);
    for (Vec2 p : {b.min, Vec2{b.max.x, b.min.y}, b.max, Vec2{b.min.x, b.max.y}}) {
      out.points.push_back(p);
      out.source.push_back(ShapeId(ShapeKind::box, i));
    }
  }
  return out;
}

Rope::Rope(Vec2 start, std::vector<Vec2> pegs) : pegs_(std::move(pegs)), end_(start), index_(std::make_unique<Index>()) {
  require_finite(start, "rope start");
  for (std::size_t i = 0; i < pegs_.size(); ++i) require_finite(pegs_[i], "peg " + std::to_string(i));
  if (pegs_.size() >= RopeNode::no_peg) throw Error("too many pegs: " + std::to_string(pegs_.size()));
  nodes_.push_back({start, RopeNode::no_peg, 0, 0});
  end_dir_ = {start, 1};
  start_dir_ = {start, 1};
  index_->build(pegs_);
}

Rope::Rope(Vec2 start, const Scene& pegs) : Rope(start, pegs_of(pegs).points) {}

Rope::~Rope() = default;
Rope::Rope(const Rope& o)
    : pegs_(o.pegs_), nodes_(o.nodes_), end_(o.end_), end_dir_(o.end_dir_), start_dir_(o.start_dir_),
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

double Rope::length() const {
  // Each difference of two floats, its square and the sum round once in double (relative
  // 2^-53 each), the square root halves the error: under 3 * 2^-53 per segment; summing
  // n nonnegative terms adds at most (n - 1) * 2^-53 of the total.
  double total = 0.0;
  const std::vector<Vec2> p = points();
  for (std::size_t i = 1; i < p.size(); ++i) {
    const double dx = static_cast<double>(p[i].x) - static_cast<double>(p[i - 1].x);
    const double dy = static_cast<double>(p[i].y) - static_cast<double>(p[i - 1].y);
    total += std::sqrt(dx * dx + dy * dy);
  }
  return total;
}

void Rope::candidates(Vec2 a, Vec2 b, Vec2 c, std::vector<std::uint32_t>& out) const {
  out.clear();
  const Box box = bounds_of(a, b, c);
  index_->grid->touching(box, index_->scratch);
  for (ShapeId id : index_->scratch)
    if (!index_->moved[id.index()]) out.push_back(id.index());
  for (std::uint32_t i : index_->moved_list) {
    const Vec2 p = pegs_[i];
    if (p.x >= box.min.x && p.x <= box.max.x && p.y >= box.min.y && p.y <= box.max.y) out.push_back(i);
  }
}


void Rope::move_end(Vec2 to) {
  require_finite(to, "rope end");
  advance_end(to);
}

void Rope::move_start(Vec2 to) {
  require_finite(to, "rope start");
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
// one on each side of the peg, whose events Rope::move_wrapped interleaves.
//
// next() is the strand's first event not yet applied, as the line through two input
// points that the tip crosses when it happens: a wind (the pivot's winding crosses a
// multiple of pi; a release when that would take it below zero) or a catch. Events come
// in the order the tip meets them; a wind comes before a catch at the same time (the
// boundary counts as crossed when winding up; when winding down it is crossed strictly
// before the catch's angle, docs/rope.md).
class Rope::Strand {
 public:
  enum class Kind { none, wind_up, wind_down, release, catch_peg };
  struct Event {
    Kind kind = Kind::none;
    Vec2 a, b;  // the line the tip crosses
    std::uint32_t peg = 0;
  };

  // `moving`: a peg never caught (the moving peg itself), or RopeNode::no_peg.
  Strand(const Rope& rope, std::vector<RopeNode>& nodes, Direction first_dir, Direction heading, Vec2 p, Vec2 to,
         std::uint32_t moving)
      : rope_(rope), nodes_(nodes), first_dir_(first_dir), heading_(heading), p_(p), to_(to), moving_(moving) {
    sigma_ = cross_dir(nodes_.back().position, heading_, to_);
    start_region();
  }

  Direction heading() const { return heading_; }

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
    const Vec2 c = nodes_[last].position;
    switch (e.kind) {
      case Kind::none: return;
      case Kind::wind_up: ++nodes_[last].half_turns; return;
      case Kind::wind_down: --nodes_[last].half_turns; return;
      case Kind::release: {
        // Unwound past where it was caught: let go, and go on sweeping around the node
        // before, from the released node's line onwards.
        heading_ = heading_after_release(nodes_, first_dir_);
        nodes_.pop_back();
        sigma_ = cross_dir(nodes_.back().position, heading_, to_);
        start_region();
        return;
      }
      case Kind::catch_peg: {
        const Vec2 y = rope_.pegs_[e.peg];
        nodes_.push_back({y, e.peg, sigma_, 0});
        heading_ = {c, -1};  // y - c, seen from y
        region_.push_back({c, y, sigma_, false});
        region_.push_back({to_, y, sigma_, false});
        std::erase_if(cand_, [&](std::uint32_t i) {
          const Vec2 q = rope_.pegs_[i];
          return q == y || !region_[region_.size() - 2].contains(q) || !region_.back().contains(q);
        });
        return;
      }
    }
  }

 private:
  // A fresh region around the pivot: open on the heading's side (where the rope is now),
  // closed towards the tip's path and the final position. Its lines pass through input
  // points only, so the region is exact although the tip's position at an event is not.
  void start_region() {
    region_.clear();
    cand_.clear();
    if (sigma_ == 0) return;  // the tip moves along the pivot's line: nothing turns
    const Vec2 c = nodes_.back().position;
    region_.push_back({c, heading_.p, sigma_ * heading_.sign, true});
    region_.push_back({p_, to_, orient2d(p_, to_, c), false});
    region_.push_back({to_, c, sigma_, false});
    rope_.candidates(c, p_, to_, cand_);
    std::erase_if(cand_, [&](std::uint32_t i) {
      const Vec2 y = rope_.pegs_[i];
      if (i == moving_ || y == c) return true;
      for (const HalfPlane& h : region_)
        if (!h.contains(y)) return true;
      return false;
    });
  }

  Event find_next() const {
    if (sigma_ == 0) return {};
    const std::size_t last = nodes_.size() - 1;
    const Vec2 c = nodes_[last].position;
    // The first peg the sweep meets: smallest angle from the heading, then nearest, then
    // lowest index (pegs at one point act as one).
    const auto before = [&](std::uint32_t i, std::uint32_t j) {
      const Vec2 a = rope_.pegs_[i], b = rope_.pegs_[j];
      const int o = sigma_ * orient2d(c, a, b);
      if (o != 0) return o > 0;
      if (a == b) return i < j;
      return dot_sign(a, b, c) < 0;  // a lies between c and b
    };
    const auto best = std::min_element(cand_.begin(), cand_.end(), before);
    const bool caught = best != cand_.end();
    if (last > 0) {
      // The pivot's winding up to the catch (or the end of the path): a sweep turns by
      // less than half a turn, so it crosses at most one multiple of pi, and does so iff
      // the half the target direction lies in differs from the half-turn count's parity.
      const RopeNode& n = nodes_[last];
      const Direction in = incoming_of(nodes_, first_dir_, last);
      const Direction target = caught ? Direction{rope_.pegs_[*best], 1} : Direction{to_, 1};
      if (half_of(c, n.side, in, target) != static_cast<int>(n.half_turns % 2)) {
        const Kind k = n.side * sigma_ > 0 ? Kind::wind_up : n.half_turns > 0 ? Kind::wind_down : Kind::release;
        return {k, c, in.p, 0};
      }
    }
    if (!caught) return {};
    return {Kind::catch_peg, c, rope_.pegs_[*best], *best};
  }

  const Rope& rope_;
  std::vector<RopeNode>& nodes_;
  Direction first_dir_;
  Direction heading_;  // the pivot -> tip direction, seen from the pivot
  Vec2 p_, to_;        // the tip's path
  std::uint32_t moving_;
  int sigma_ = 0;  // the sense the pivot -> tip segment turns in: +1 counterclockwise
  std::vector<HalfPlane> region_;
  std::vector<std::uint32_t> cand_;
  bool cached_ = false;
  Event next_;
};

// One move of the end to `to`, from wherever it is; loops when the move has to be taken
// in parts (through the pivot, or after the pivot let go as the end left it).
void Rope::advance_end(Vec2 to) {
  for (;;) {
    if (end_ == to) return;
    const Vec2 c = nodes_.back().position;
    if (end_ == c) {
      if (leave_pivot(to)) continue;
      return;
    }
    if (cross_dir(c, end_dir_, to) != 0) {
      sweep(to);
      return;
    }
    if (dot_dir(c, end_dir_, to) > 0) {
      // Along the last segment's own line, away from or towards the pivot without
      // reaching it: the segment does not turn and sweeps nothing.
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
  const Vec2 c = nodes_[last].position;
  end_ = c;
  if (last == 0) return;
  RopeNode& n = nodes_[last];
  const Direction u = incoming_of(nodes_, start_dir_, last);
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
  const Vec2 c = nodes_[last].position;
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
  if (rho != 0 && half_of(c, n.side, incoming_of(nodes_, start_dir_, last), Direction{to, 1}) != static_cast<int>(n.half_turns % 2)) {
    if (n.side * rho > 0) {
      ++n.half_turns;
    } else if (n.half_turns > 0) {
      --n.half_turns;
    } else {
      const Direction heading = heading_after_release(nodes_, start_dir_);
      nodes_.pop_back();
      end_ = c;
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
    if (e.kind == Strand::Kind::catch_peg && orient2d(p, to, pegs_[e.peg]) == 0) {
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

// A peg moves along the straight segment to `to` (docs/rope.md, "Moving pegs"). What may
// not happen is refused first, with the rope unchanged; then the move is taken as one of:
// a peg clear of the rope just moves; a free peg whose path crosses one rope segment
// catches the rope there and pushes it on; a wrapped peg moves with the rope around it.
void Rope::move_peg(std::uint32_t peg, Vec2 to) {
  const std::string who = "peg " + std::to_string(peg);
  if (peg >= pegs_.size()) throw Error(who + ": no such peg (" + std::to_string(pegs_.size()) + " pegs)");
  require_finite(to, who);
  const Vec2 from = pegs_[peg];
  if (from == to) return;
  const Segment path{from, to};
  const std::string along = who + ": its path from " + point_text(from) + " to " + point_text(to);

  std::size_t node = 0, wraps = 0;
  for (std::size_t i = 1; i < nodes_.size(); ++i)
    if (nodes_[i].peg == peg) {
      node = i;
      ++wraps;
    }
  if (wraps > 1)
    throw Error(who + " is wrapped " + std::to_string(wraps) +
                " times by the rope: moving a peg the rope wraps more than once is not supported (docs/rope.md)");

  // Nothing but the rope's segments may lie on the path: not the rope's start or end, not
  // another peg (not even one at the peg's own place).
  if (on_segment(path, start())) throw Error(along + " passes over the rope's start");
  if (on_segment(path, end_)) throw Error(along + " passes over the rope's end");
  std::vector<std::uint32_t> near;
  candidates(from, to, to, near);
  for (std::uint32_t i : near)
    if (i != peg && on_segment(path, pegs_[i]))
      throw Error(along + " passes over peg " + std::to_string(i) + " at " + point_text(pegs_[i]));

  // The rope's segments the path meets, but for the two at the peg when it is wrapped.
  // (A float comparison of bounds first: on a long rope most segments are far away.)
  const std::vector<Vec2> p = points();
  const Box reach = bounds_of(from, to, to);
  std::vector<std::size_t> met;  // segment s runs from p[s - 1] to p[s]
  for (std::size_t s = 1; s < p.size(); ++s) {
    const Vec2 a = p[s - 1], b = p[s];
    if (std::max(a.x, b.x) < reach.min.x || std::min(a.x, b.x) > reach.max.x || std::max(a.y, b.y) < reach.min.y ||
        std::min(a.y, b.y) > reach.max.y)
      continue;
    if (!(wraps == 1 && (s == node || s == node + 1)) && intersects(path, Segment{a, b})) met.push_back(s);
  }
  const auto segment_text = [](std::size_t s) { return "the rope's segment " + std::to_string(s - 1); };
  if (wraps == 1 && !met.empty())
    throw Error(along + " meets " + segment_text(met[0]) +
                ": a wrapped peg may push only the two segments at it (docs/rope.md)");
  if (met.size() > 1)
    throw Error(along + " meets " + segment_text(met[0]) + " and " + segment_text(met[1]) +
                ": a peg may catch the rope at one place per move (docs/rope.md)");

  if (wraps == 1) {
    move_wrapped(node, to, nullptr);
  } else if (met.size() == 1) {
    // The path crosses the segment (u, v) inside it (its ends are the start, the end or
    // pegs, none on the path): the peg catches the rope there and bends it around itself,
    // turning to the side the peg came from. A peg lying on the rope (left there by a
    // move of the end along its line) catches it on leaving the line, to the side it
    // leaves to; sliding along the line it does not.
    const std::size_t s = met[0];
    const Vec2 u = p[s - 1], v = p[s];
    const int from_side = orient2d(u, v, from);
    const int side = from_side != 0 ? from_side : -orient2d(u, v, to);
    if (side != 0) {
      nodes_.insert(nodes_.begin() + static_cast<std::ptrdiff_t>(s), {from, peg, side, 0});
      const Vec2 crossed[2] = {u, v};
      move_wrapped(s, to, crossed);
    }
  }

  pegs_[peg] = to;
  Index& ix = *index_;
  if (!ix.moved[peg]) {
    ix.moved[peg] = 1;
    ix.moved_list.push_back(peg);
  }
  // Scanning the moved pegs costs every sweep; past this many, a rebuild is cheaper.
  if (ix.moved_list.size() > 64 + pegs_.size() / 64) ix.build(pegs_);
}

// Node i (a peg wrapped once) moves to `to` along a path that passes over nothing. The
// rope is split at it: the left strand (start .. node i - 1) and the right strand (end ..
// node i + 1, reversed) each follow the peg as their tip, and the peg's own winding turns
// as both of its segments do. Their events are taken in the order the peg meets them
// (compare_crossings: each is the peg crossing a line through two input points). When the peg's
// winding goes below zero it is released: the rope runs straight past it and it moves on
// free. `crossed` (u, v): the peg has just caught the rope's segment (u, v) and starts on
// it (its winding exactly 0), rather than at its own place.
void Rope::move_wrapped(std::size_t i, Vec2 to, const Vec2* crossed) {
  RopeNode m = nodes_[i];
  const Vec2 from = pegs_[m.peg];
  std::vector<RopeNode> left(nodes_.begin(), nodes_.begin() + static_cast<std::ptrdiff_t>(i));
  std::vector<RopeNode> right = reversed(std::span(nodes_).subspan(i + 1), end_);
  // The end may sit on the right strand's first node (never on the peg: it is not on the
  // path), the start on the left strand's.
  const Direction right_first = right.size() >= 2 && right[1].position == end_ ? end_dir_ : Direction{end_, 1};
  const Direction left_heading = crossed ? Direction{crossed[1], 1} : Direction{from, 1};
  const Direction right_heading = crossed ? Direction{crossed[0], 1} : Direction{from, 1};
  Strand strands[2] = {Strand(*this, left, start_dir_, left_heading, from, to, m.peg),
                       Strand(*this, right, right_first, right_heading, from, to, m.peg)};

  // At one time: what happens at a boundary (a catch, a winding up to a multiple of pi)
  // comes first, then the peg's own winding, then what happens only strictly past a
  // boundary (a strand's winding down or release). So when the peg is released at that
  // time, the rope stops there: it has hooked what it reached, and let go of nothing
  // it merely reached back to (as a move of the end that stops there would).
  const auto rank = [](Strand::Kind k) { return k == Strand::Kind::wind_down || k == Strand::Kind::release ? 2 : 0; };
  bool released = false;
  for (;;) {
    const Vec2 cl = left.back().position, cr = right.back().position;
    int first = -1;  // 0, 1: a strand; 2: the peg
    int first_rank = 0;
    Vec2 a, b;
    const auto consider = [&](int who, int r, Vec2 ea, Vec2 eb) {
      if (first >= 0) {
        const int c = compare_crossings(from, to, ea, eb, a, b);
        if (c > 0 || (c == 0 && r >= first_rank)) return;
      }
      first = who;
      first_rank = r;
      a = ea;
      b = eb;
    };
    for (int k = 0; k < 2; ++k) {
      const Strand::Event& e = strands[k].next();
      if (e.kind != Strand::Kind::none) consider(k, rank(e.kind), e.a, e.b);
    }
    // The peg's winding crosses a multiple of pi when it crosses the line (cl, cr): iff
    // the half at the path's end differs from the parity (the same test as a pivot's).
    if (half_of(to, m.side, Direction{cl, -1}, Direction{cr, 1}) != static_cast<int>(m.half_turns % 2)) consider(2, 1, cl, cr);
    if (first < 0) break;
    if (first < 2) {
      strands[first].apply(strands[first].next());
      continue;
    }
    // Crossing between cl and cr, the rope runs straight on at the peg (a multiple of
    // 2 pi); beyond them, it doubles back (an odd multiple of pi). Which boundary of the
    // half-turn interval that is tells the way the winding goes.
    const bool straight = orient2d(from, to, cl) * orient2d(from, to, cr) < 0;
    const bool down = (m.half_turns % 2 == 0) == straight;
    if (!down) {
      ++m.half_turns;
    } else if (m.half_turns > 0) {
      --m.half_turns;
    } else {
      released = true;
      break;
    }
  }

  nodes_ = std::move(left);
  if (!released) nodes_.push_back({to, m.peg, m.side, m.half_turns});
  for (std::size_t j = right.size(); j-- > 1;)
    nodes_.push_back({right[j].position, right[j].peg, -right[j].side, right[j].half_turns});
  end_dir_ = nodes_.size() >= 2 && nodes_.back().position == end_ ? right_first : Direction{end_, 1};
}

}  // namespace hitgrid
