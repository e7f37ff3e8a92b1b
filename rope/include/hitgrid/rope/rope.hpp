// Rope: a string pinned at its start that wraps around point pegs as its end moves, and
// unwraps when it swings back (grappling hooks, ninja ropes, puzzles).
//
//   std::vector<hitgrid::Vec2> pegs = {{0, 0}, {4, 1}};
//   hitgrid::Rope rope({-10, 0}, pegs);        // the end starts at the start
//   rope.move_end({10, 1});                    // every move sweeps its whole triangle
//   rope.move_end({10, -1});                   // catches peg 0 on the way
//   for (const hitgrid::RopeNode& n : rope.nodes()) { n.position; n.peg; n.side; }
//   double l = rope.length();
//
// Model (the rules, with pictures, are docs/rope.md):
//   - The rope is a taut polyline: the start, the pegs it is wrapped around (its nodes, in
//     order from the start), and the end. A node records the peg, the side the rope turns
//     to there (+1: left, counterclockwise; -1: right) and how many half turns the rope
//     has wound around it (half_turns: floor(winding / pi), 0 for less than half a turn).
//   - Moving the end from P to P' moves it along the straight segment P P'. The rope's last
//     segment sweeps the triangle (last node, P, P'); a peg in it is caught, the closed
//     far edge and the end's path included ("collinear counts as hooked"), the rope's
//     position at the start of the move excluded. Pegs are caught in the order the sweep
//     meets them (smallest angle at the pivot, compared exactly; on a tie the nearer
//     first), and the sweep goes on from each peg caught. A node is released when its
//     winding goes below zero (the rope swings back past the line on which it was caught);
//     the sweep then goes on from the node before. Wraps and releases are taken in the
//     order they happen along the move, so cutting a move into smaller moves gives the
//     same rope.
//   - Winding is tracked per node, so a rope wound more than half a turn (or many turns)
//     around a peg keeps it until it unwinds: the turn's sign alone would flip at half a
//     turn (docs/rope.md, "Winding").
//   - A peg moves along a straight path and takes the rope with it: a wrapped peg splits
//     the rope there, each side of it sweeping like an end that follows the peg, and is
//     released when its own winding goes below zero; a free peg whose path crosses the
//     rope catches it there, bending it around itself to the side it came from. The
//     events of both sides and the peg's own are taken in the order the peg meets them
//     (docs/rope.md, "Moving pegs").
//   - Candidate pegs for a sweep come from a grid (hitgrid::GridIndex) over the pegs: a
//     query of the triangle's bounding box, then the exact tests. A move costs what the
//     pegs near the swept triangle cost, not the number of pegs.
//
// Exactness (docs/contracts.md, contract 7): every decision — which pegs are caught,
// their order, the side, the half-turn count, every release — is the sign of an orient2d
// or dot product of float32 points (core/predicates.hpp), of compare_crossings
// (core/line_crossing.hpp), or, around circle pegs, of the tangent-line predicates
// (core/tangent_crossing.hpp): nothing is rounded, no epsilon. The lines a decision looks
// at are always lines through or tangent to inputs (pegs, path points, the start), never
// a computed intersection. Only length() (and the drawn tangent points) are rounded:
// length() is within the bound stated there (tests/rope/test_rope.cpp).
//
// Pegs are points or circles. A circle peg (radius > 0): the rope runs along lines tangent
// to it and wraps along its boundary; the rope's length includes those arcs. Circle pegs
// may not touch each other or any other peg, and the rope's ends stay outside them (a
// move whose path meets a circle's closed disc is refused): the ends are never on a
// circle node, so the degenerate moves below concern point pegs only. A node's position
// is its peg's centre. A scene gives pegs as follows: a circle is a peg of its radius, a
// segment its two endpoints, a box its four corners (a taut rope touches a convex polygon
// only at its corners; it does not collide with edges, and the end may pass through a
// segment or a box). A circle peg moves as a point peg does, its centre along the path,
// every line it meets moved by its radius (docs/rope.md, "Moving circle pegs"); its disc
// may not touch another peg or a rope end on the way.
//
// Degenerate moves, decided exactly and documented in docs/rope.md: a move along the
// rope's last segment's own line sweeps nothing; the end passing over a peg wraps it and
// the rest of that move is a straight pull away from it; the end passing straight
// through its own pivot unwinds the rope there by half a turn (what the turn's sign says). Pegs at the same point act
// as one: a peg at the pivot's position is never caught from that pivot.
//
// A Rope is a value used from one thread at a time. Bad input (a NaN or infinite point,
// an unknown peg) throws hitgrid::Error and leaves the rope as it was.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "hitgrid/core/scene.hpp"
#include "hitgrid/core/shape_id.hpp"
#include "hitgrid/core/vec2.hpp"

namespace hitgrid {

struct RopeNode {
  static constexpr std::uint32_t no_peg = 0xffffffffu;
  Vec2 position;
  std::uint32_t peg = no_peg;    // index in the peg set; no_peg for the start
  int side = 0;                  // +1 the rope turns left here, -1 right; 0 for the start
  std::uint32_t half_turns = 0;  // floor(winding / pi): 0 while wound less than half a turn
  friend bool operator==(const RopeNode&, const RopeNode&) = default;
};

/// The pegs a scene stands for (see the manual above), with the shape each comes from.
struct ScenePegs {
  std::vector<Vec2> points;
  std::vector<float> radii;  // 0 for a point peg
  std::vector<ShapeId> source;
};
ScenePegs pegs_of(const Scene& scene);

class Rope {
 public:
  /// A rope of length zero at `start`, among `pegs`. Throws hitgrid::Error for a point
  /// that is not finite (naming it).
  Rope(Vec2 start, std::vector<Vec2> pegs);
  /// Circle pegs: peg i has radius radii[i] (0: a point). Throws hitgrid::Error, naming
  /// them, for a radius that is negative or not finite, for a circle peg that touches
  /// another peg (closed discs; point pegs may share a place), and for a start on or in a
  /// circle peg.
  Rope(Vec2 start, std::vector<Vec2> pegs, std::vector<float> radii);
  /// The pegs of a scene (pegs_of).
  Rope(Vec2 start, const Scene& pegs);
  ~Rope();
  Rope(const Rope&);
  Rope& operator=(const Rope&);
  Rope(Rope&&) noexcept;
  Rope& operator=(Rope&&) noexcept;

  /// Moves the end along the straight segment to `to`, wrapping and releasing on the way.
  /// Throws hitgrid::Error, and changes nothing, when that segment meets a circle peg.
  void move_end(Vec2 to);
  /// Moves the start along the straight segment to `to`: the same rules seen from the
  /// other end (the rope is symmetric).
  void move_start(Vec2 to);
  /// Moves a peg along the straight segment to `to`, taking the rope with it (see the
  /// manual above). Throws hitgrid::Error, and changes nothing, for a move the rope
  /// refuses (docs/rope.md, "Moving pegs"): the path (closed, exact; for a circle peg, the
  /// points within its radius of it) passes over another peg or the rope's start or end; a
  /// free peg's path meets the rope at two places; a wrapped peg's path meets a segment
  /// other than its own two; the rope wraps the peg more than once.
  void move_peg(std::uint32_t peg, Vec2 to);

  /// The start, then the wrapped pegs in order. The end is end().
  std::span<const RopeNode> nodes() const { return nodes_; }
  Vec2 start() const { return nodes_.front().position; }
  Vec2 end() const { return end_; }
  /// Every node's position (a circle peg's centre), then the end: the rope itself around
  /// point pegs.
  std::vector<Vec2> points() const;
  /// The rope as drawn: its tangent points, with each arc around a circle peg cut into
  /// steps of at most `max_turn` radians (rounded: for pictures, not for decisions).
  std::vector<Vec2> outline(double max_turn = 0.1) const;
  /// The sum of the segments' lengths and of the arcs around circle pegs, within the
  /// bound docs/rope.md states ((segments + 3) * 2^-52 relatively around point pegs).
  double length() const;

  std::size_t peg_count() const { return pegs_.size(); }
  Vec2 peg(std::uint32_t i) const { return pegs_[i]; }
  float peg_radius(std::uint32_t i) const { return radii_[i]; }
  std::span<const Vec2> pegs() const { return pegs_; }
  std::span<const float> peg_radii() const { return radii_; }

  /// A direction seen from a node: sign * (p - node), or around circles, sign times the
  /// direction of the line from the node (on side sign * its side) to the circle (p, r)
  /// (on side sign * side). Public only so that the rope's state can be copied and
  /// compared; see docs/rope.md.
  struct Direction {
    Vec2 p;
    int sign = 1;
    float r = 0.0f;
    int side = 0;
    friend bool operator==(const Direction&, const Direction&) = default;
  };

 private:
  struct Index;
  class Strand;

  void advance_end(Vec2 to);
  bool leave_pivot(Vec2 to);
  void arrive_at_pivot();
  void sweep(Vec2 to);
  void move_wrapped(std::size_t node, Vec2 to, const Direction* crossed);
  Circle node_circle(std::size_t i) const;
  int node_side(std::size_t i) const;
  void reverse();
  void candidates(const Box& box, std::vector<std::uint32_t>& out) const;
  template <class Visit>
  void visit_stretches(Visit&& visit) const;
  void refuse_circles_on(Vec2 from, Vec2 to, const char* what) const;

  std::vector<Vec2> pegs_;
  std::vector<float> radii_;
  bool has_circles_ = false;
  std::vector<RopeNode> nodes_;
  Vec2 end_;
  // The direction of the last segment seen from the last node; it matters when the end
  // is at that node (then it is the direction the rope had before), and equals {end_, +1}
  // otherwise. start_dir_: the same for the first segment seen from the first peg node,
  // when the start is at it.
  Direction end_dir_;
  Direction start_dir_;
  std::unique_ptr<Index> index_;
};

}  // namespace hitgrid
