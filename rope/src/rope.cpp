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
#include <cmath>
#include <sstream>
#include <string>

#include "hitgrid/broadphase/grid_index.hpp"
#include "hitgrid/core/error.hpp"
#include "hitgrid/core/intersects.hpp"
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

// The direction nodes_[i] - nodes_[i - 1], seen from nodes_[i] (i >= 1).
Direction Rope::incoming(std::size_t i) const {
  if (!(nodes_[i - 1].position == nodes_[i].position)) return {nodes_[i - 1].position, -1};
  // Only the start can sit on the first peg node (move_start onto it): the direction it
  // came from.
  return {start_dir_.p, -start_dir_.sign};
}

// The heading of the rope's new last segment when its last node is released: the
// released node's incoming direction, seen from the node before.
Direction Rope::direction_after_release() const {
  const std::size_t last = nodes_.size() - 1;
  if (!(nodes_[last - 1].position == nodes_[last].position)) return {nodes_[last].position, 1};
  return {start_dir_.p, -start_dir_.sign};
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

bool Rope::is_node(std::uint32_t peg, std::size_t& node) const {
  for (std::size_t i = 1; i < nodes_.size(); ++i)
    if (nodes_[i].peg == peg) {
      node = i;
      return true;
    }
  return false;
}

void Rope::move_peg(std::uint32_t peg, Vec2 to) {
  if (peg >= pegs_.size()) throw Error("peg " + std::to_string(peg) + ": no such peg (" + std::to_string(pegs_.size()) + " pegs)");
  require_finite(to, "peg " + std::to_string(peg));
  std::size_t node = 0;
  if (is_node(peg, node))
    throw Error("peg " + std::to_string(peg) + " is wrapped by the rope (node " + std::to_string(node) +
                "): moving a wrapped peg is not implemented (docs/rope.md)");
  const Segment path{pegs_[peg], to};
  const std::vector<Vec2> p = points();
  for (std::size_t i = 1; i < p.size(); ++i)
    if (intersects(path, Segment{p[i - 1], p[i]}))
      throw Error("peg " + std::to_string(peg) + ": its path from " + point_text(pegs_[peg]) + " to " + point_text(to) +
                  " touches the rope's segment " + std::to_string(i - 1) + " (moving a peg through the rope is not implemented)");
  pegs_[peg] = to;
  Index& ix = *index_;
  if (!ix.moved[peg]) {
    ix.moved[peg] = 1;
    ix.moved_list.push_back(peg);
  }
  // Scanning the moved pegs costs every sweep; past this many, a rebuild is cheaper.
  if (ix.moved_list.size() > 64 + pegs_.size() / 64) ix.build(pegs_);
}

void Rope::reverse() {
  const bool start_on_first = nodes_.size() >= 2 && nodes_[1].position == nodes_[0].position;
  const bool end_on_last = nodes_.size() >= 2 && end_ == nodes_.back().position;
  std::vector<RopeNode> r;
  r.reserve(nodes_.size());
  r.push_back({end_, RopeNode::no_peg, 0, 0});
  for (std::size_t i = nodes_.size() - 1; i >= 1; --i)
    r.push_back({nodes_[i].position, nodes_[i].peg, -nodes_[i].side, nodes_[i].half_turns});
  const Vec2 old_start = nodes_[0].position;
  const Direction new_end_dir = start_on_first ? start_dir_ : Direction{old_start, 1};
  const Direction new_start_dir = end_on_last ? end_dir_ : Direction{end_, 1};
  nodes_ = std::move(r);
  end_ = old_start;
  end_dir_ = new_end_dir;
  start_dir_ = new_start_dir;
}

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
    const int sigma = cross_dir(c, end_dir_, to);
    if (sigma != 0) {
      sweep(to, sigma);
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
  const Direction u = incoming(last);
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
  if (rho != 0 && half_of(c, n.side, incoming(last), Direction{to, 1}) != static_cast<int>(n.half_turns % 2)) {
    if (n.side * rho > 0) {
      ++n.half_turns;
    } else if (n.half_turns > 0) {
      --n.half_turns;
    } else {
      const Direction heading = direction_after_release();
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

// The end moves from end_ (not on the pivot) to `to`, turning the last segment in the
// sense sigma (+1 counterclockwise). Events in order along the move.
void Rope::sweep(Vec2 to, int sigma) {
  const Vec2 p = end_;
  std::vector<HalfPlane> region;
  std::vector<std::uint32_t> cand;
  Direction heading = end_dir_;  // the last segment's direction now, seen from the pivot

  // A fresh region around the pivot: open on the heading's side (the rope's position now),
  // closed towards the end's path and the final position.
  const auto start_region = [&] {
    const Vec2 c = nodes_.back().position;
    region.clear();
    region.push_back({c, heading.p, sigma * heading.sign, true});
    region.push_back({p, to, orient2d(p, to, c), false});
    region.push_back({to, c, sigma, false});
    candidates(c, p, to, cand);
    std::erase_if(cand, [&](std::uint32_t i) {
      const Vec2 y = pegs_[i];
      if (y == c) return true;
      for (const HalfPlane& h : region)
        if (!h.contains(y)) return true;
      return false;
    });
  };
  start_region();

  for (;;) {
    const std::size_t last = nodes_.size() - 1;
    const Vec2 c = nodes_[last].position;

    // The first peg the sweep meets: smallest angle from the heading, then nearest, then
    // lowest index (pegs at one point act as one).
    const auto before = [&](std::uint32_t i, std::uint32_t j) {
      const Vec2 a = pegs_[i], b = pegs_[j];
      const int o = sigma * orient2d(c, a, b);
      if (o != 0) return o > 0;
      if (a == b) return i < j;
      return dot_sign(a, b, c) < 0;  // a lies between c and b
    };
    const auto best_it = std::min_element(cand.begin(), cand.end(), before);
    const bool caught = best_it != cand.end();
    const std::uint32_t best = caught ? *best_it : 0;

    if (last > 0) {
      // The pivot's winding up to the catch (or the end of the move): crossing a multiple
      // of pi changes the half the heading lies in.
      RopeNode& n = nodes_[last];
      const Direction target = caught ? Direction{pegs_[best], 1} : Direction{to, 1};
      if (half_of(c, n.side, incoming(last), target) != static_cast<int>(n.half_turns % 2)) {
        if (n.side * sigma > 0) {
          ++n.half_turns;  // wound past (k + 1) pi, at or before the target
        } else if (n.half_turns > 0) {
          --n.half_turns;  // unwound below k pi, strictly before the target
        } else {
          // Unwound past where it was caught, strictly before any catch: let go, and go on
          // sweeping from the node before, from the released node's line onwards.
          heading = direction_after_release();
          nodes_.pop_back();
          const Vec2 b = nodes_.back().position;
          sigma = cross_dir(b, heading, to);
          start_region();
          continue;
        }
      }
    }

    if (!caught) {
      end_ = to;
      end_dir_ = {to, 1};
      return;
    }

    const Vec2 y = pegs_[best];
    nodes_.push_back({y, best, sigma, 0});
    heading = {c, -1};  // y - c, seen from y
    region.push_back({c, y, sigma, false});
    region.push_back({to, y, sigma, false});
    std::erase_if(cand, [&](std::uint32_t i) {
      const Vec2 q = pegs_[i];
      return q == y || !region[region.size() - 2].contains(q) || !region.back().contains(q);
    });
    if (orient2d(p, to, y) == 0) {
      // The end itself passed over the peg: the rest of the move pulls straight away
      // from it.
      end_ = y;
      end_dir_ = heading;
      advance_end(to);
      return;
    }
  }
}

}  // namespace hitgrid
