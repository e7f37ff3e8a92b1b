// Fuzz target: the rope (rope/rope.hpp) under any sequence of moves of its end, its start
// and its pegs, with coordinates that are small integers times a scale (lattices full of
// collinear pegs, pegs on the rope, paths over pegs) or raw float bits (NaN and infinities
// included); some pegs circles (radii on the same lattice, or raw bits: negative, NaN,
// touching: refused), so that tangent lines through many pegs are common.
//
// Properties, after every call: a call that throws throws hitgrid::Error and leaves the
// rope as it was; every node is a peg at that peg's place, with a side and half-turn count
// that agree with the rope's turn there (the exact orient2d / dot_sign of its neighbours);
// an accepted peg move is undone by the move back (docs/rope.md, "Moving pegs"), up to
// the nodes the rope merely runs straight through (shape_of); a call puts no point peg
// strictly inside a stretch between two points (pegs_inside says when that is waived) and
// makes no stretch pass through a circle peg (circles_crossed).
//
// Bytes: a scale exponent, a peg count, the pegs, the start, a circle count and the
// circles' radii, then per call an op byte and a point.
#include <algorithm>
#include <cmath>
#include <optional>
#include <span>
#include <vector>

#include "fuzz_input.hpp"
#include "hitgrid/core/error.hpp"
#include "hitgrid/core/predicates.hpp"
#include "hitgrid/core/tangent_crossing.hpp"
#include "hitgrid/rope/rope.hpp"

namespace {

using namespace hitgrid;

struct State {
  std::vector<RopeNode> nodes;
  Vec2 end;
  std::vector<Vec2> pegs;
  bool operator==(const State&) const = default;
};

State state_of(const Rope& r) {
  return {{r.nodes().begin(), r.nodes().end()}, r.end(), {r.pegs().begin(), r.pegs().end()}};
}

// Node i's circle in a node list ending at `end` (radius 0 for a point peg and the ends; i
// past the nodes: the end), and its side (0 for the end); radii are the rope's pegs'.
Circle circle_at(std::span<const RopeNode> nodes, Vec2 end, const Rope& rope, std::size_t i) {
  if (i >= nodes.size()) return {end, 0.0f};
  const RopeNode& n = nodes[i];
  return {n.position, n.peg == RopeNode::no_peg ? 0.0f : rope.peg_radius(n.peg)};
}
int side_at(std::span<const RopeNode> nodes, std::size_t i) { return i < nodes.size() ? nodes[i].side : 0; }

void check_nodes(const Rope& rope) {
  const std::vector<Vec2> p = rope.points();
  for (std::size_t i = 1; i < rope.nodes().size(); ++i) {
    const RopeNode& n = rope.nodes()[i];
    if (n.peg >= rope.peg_count() || !(rope.peg(n.peg) == n.position)) fuzz::fail("a node is not at its peg");
    if (n.side != 1 && n.side != -1) fuzz::fail("a node's side is neither +1 nor -1");
    if (p[i - 1] == p[i] || p[i + 1] == p[i]) continue;  // an end on the node: no turn to read
    int turn = n.side * orient2d(p[i - 1], p[i], p[i + 1]);
    int forwards = -dot_sign(p[i], p[i - 1], p[i + 1]);
    const std::span<const RopeNode> nodes = rope.nodes();
    const Circle a = circle_at(nodes, rope.end(), rope, i - 1), b = circle_at(nodes, rope.end(), rope, i),
                 c = circle_at(nodes, rope.end(), rope, i + 1);
    if (a.r > 0.0f || b.r > 0.0f || c.r > 0.0f) {
      // Around circles: the turn from the line coming in to the line going out.
      const TangentLine in{a, side_at(nodes, i - 1), b, n.side}, out{b, n.side, c, side_at(nodes, i + 1)};
      if (!tangent_exists(in) || !tangent_exists(out)) fuzz::fail("a rope stretch has no tangent line");
      turn = n.side * direction_cross(in, out);
      forwards = direction_dot(in, out);
    }
    const int half = turn != 0 ? (turn > 0 ? 0 : 1) : (forwards > 0 ? 0 : 1);
    if (half != static_cast<int>(n.half_turns % 2)) fuzz::fail("a node's half-turn count disagrees with its turn");
  }
}

// The point pegs strictly inside a stretch between two points, sorted. A move catches
// every peg it sweeps over (docs/rope.md), but a move of the end along the last stretch's
// own line sweeps nothing and may leave pegs lying on it (so may a start moved along the
// first stretch): with `along` (where such a move of the end started), the pegs on the
// last stretch are not counted when it runs along that line, and a peg already inside a
// stretch before a call may stay inside one after it. Stretches that touch a circle are
// left to tests/rope (exact, with GMP).
std::vector<std::uint32_t> pegs_inside(const Rope& rope, std::optional<Vec2> along) {
  const std::vector<Vec2> p = rope.points();
  const std::span<const RopeNode> nodes = rope.nodes();
  std::vector<std::uint32_t> inside;
  for (std::size_t s = 0; s + 1 < p.size(); ++s) {
    if (circle_at(nodes, rope.end(), rope, s).r > 0.0f || circle_at(nodes, rope.end(), rope, s + 1).r > 0.0f) continue;
    const Vec2 a = p[s], b = p[s + 1];
    if (along && s + 2 == p.size() && orient2d(a, *along, b) == 0) continue;
    for (std::uint32_t j = 0; j < rope.peg_count(); ++j) {
      const Vec2 y = rope.peg(j);
      if (rope.peg_radius(j) == 0.0f && orient2d(a, b, y) == 0 && dot_sign(y, a, b) < 0) inside.push_back(j);
    }
  }
  std::sort(inside.begin(), inside.end());
  inside.erase(std::unique(inside.begin(), inside.end()), inside.end());
  return inside;
}

// The circle pegs whose centre lies strictly inside the band of points within their radius
// of a stretch, between its tangent points: the rope passes through their interior. Decided
// exactly with the stretch's line moved by the radius (core/tangent_crossing.hpp, "Grown
// lines"). No call may add one.
std::vector<std::uint32_t> circles_crossed(const Rope& rope) {
  const std::span<const RopeNode> nodes = rope.nodes();
  std::vector<std::uint32_t> crossed;
  for (std::size_t s = 0; s < nodes.size(); ++s) {
    const Circle a = circle_at(nodes, rope.end(), rope, s), b = circle_at(nodes, rope.end(), rope, s + 1);
    if (a.c == b.c) continue;  // an end on its node
    const TangentLine l{a, side_at(nodes, s), b, side_at(nodes, s + 1)};
    if (!tangent_exists(l)) continue;
    for (std::uint32_t j = 0; j < rope.peg_count(); ++j) {
      const float r = rope.peg_radius(j);
      const Vec2 z = rope.peg(j);
      if (r == 0.0f || z == a.c || z == b.c) continue;
      if (side_of(moved_left(l, r), z) < 0 && side_of(moved_left(l, -r), z) > 0 && along(l, a.c, z) > 0 &&
          along(l, b.c, z) < 0)
        crossed.push_back(j);
    }
  }
  std::sort(crossed.begin(), crossed.end());
  crossed.erase(std::unique(crossed.begin(), crossed.end()), crossed.end());
  return crossed;
}

// The node list without the nodes the rope merely runs straight through (no winding, the
// stretches in and out along one line the same way: around points, the node on the closed
// segment between its neighbours), and without positions (a moved peg's node is compared
// by its peg). A rope swinging onto pegs it lies along hooks them, with a zero turn; one
// that was pulled straight along them (a move of the end along its line) does not: the
// two ropes have the same shape and differ only by such nodes.
std::vector<RopeNode> shape_of(std::vector<RopeNode> n, Vec2 end, const Rope& rope) {
  const auto straight_through = [&](std::size_t i) {
    if (n[i].half_turns != 0) return false;
    const Circle a = circle_at(n, end, rope, i - 1), b = circle_at(n, end, rope, i), c = circle_at(n, end, rope, i + 1);
    if (a.r == 0.0f && b.r == 0.0f && c.r == 0.0f) return orient2d(a.c, b.c, c.c) == 0 && dot_sign(b.c, a.c, c.c) <= 0;
    const TangentLine in{a, side_at(n, i - 1), b, n[i].side}, out{b, n[i].side, c, side_at(n, i + 1)};
    return tangent_exists(in) && tangent_exists(out) && direction_cross(in, out) == 0 && direction_dot(in, out) > 0;
  };
  for (bool removed = true; removed;) {
    removed = false;
    for (std::size_t i = 1; i < n.size(); ++i) {
      if (straight_through(i)) {
        n.erase(n.begin() + static_cast<std::ptrdiff_t>(i));
        removed = true;
        break;
      }
    }
  }
  for (RopeNode& x : n) x.position = {};
  return n;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Bytes in(data, size);
  const int scale = static_cast<int>(in.u8() % 255) - 149;
  const auto point = [&](std::uint8_t kind) {
    if (kind & 0x80) return Vec2{in.raw_float(), in.raw_float()};
    const auto k = [&] { return std::ldexp(static_cast<float>(static_cast<int>(in.u8() % 32) - 16), scale); };
    const float x = k();
    return Vec2{x, k()};
  };
  const std::size_t peg_count = in.u8() % 25;
  std::vector<Vec2> pegs;
  for (std::size_t i = 0; i < peg_count; ++i) pegs.push_back(point(in.u8()));
  const Vec2 start = point(in.u8());
  std::vector<float> radii(pegs.size(), 0.0f);
  const std::size_t circles = peg_count > 0 ? in.u8() % (peg_count + 1) : 0;
  for (std::size_t i = 0; i < circles; ++i) {
    const std::uint8_t b = in.u8();
    radii[i] = (b & 0x80) ? in.raw_float() : std::ldexp(static_cast<float>(b % 8 + 1), scale - 1);
  }
  std::optional<Rope> made;
  try {
    made.emplace(start, pegs, radii);
  } catch (const Error&) {
    return 0;  // a non-finite peg or start, a bad radius, touching circles: refused, as it must be
  }
  Rope& rope = *made;
  bool start_moved = false;  // the start moved: pegs_inside's rule no longer holds
  for (int call = 0; call < 64 && in.left() > 0; ++call) {
    const std::uint8_t op = in.u8();
    const std::uint32_t peg = rope.peg_count() > 0 ? in.u8() % static_cast<std::uint32_t>(rope.peg_count() + 1) : 0;
    const Vec2 to = point(in.u8());
    const State before = state_of(rope);
    const std::vector<std::uint32_t> inside_before = start_moved ? std::vector<std::uint32_t>{} : pegs_inside(rope, {});
    const std::vector<std::uint32_t> crossed_before = circles_crossed(rope);
    bool accepted = true;
    try {
      switch (op % 4) {
        case 0:
        case 1:
          rope.move_end(to);
          break;
        case 2:
          rope.move_start(to);
          break;
        default:
          rope.move_peg(peg, to);
          break;
      }
    } catch (const Error&) {
      accepted = false;
      if (!(state_of(rope) == before)) fuzz::fail("a refused call changed the rope");
    }
    if (!accepted) continue;
    check_nodes(rope);
    const std::vector<std::uint32_t> crossed = circles_crossed(rope);
    if (!std::includes(crossed_before.begin(), crossed_before.end(), crossed.begin(), crossed.end()))
      fuzz::fail("a call made the rope pass through a circle peg");
    if (op % 4 == 2) start_moved = true;
    if (!start_moved) {
      const std::vector<std::uint32_t> inside =
          pegs_inside(rope, op % 4 <= 1 ? std::optional(before.end) : std::nullopt);
      if (!std::includes(inside_before.begin(), inside_before.end(), inside.begin(), inside.end()))
        fuzz::fail("a call left a point peg strictly inside a stretch of the rope");
    }
    // A rope end sitting on a node acts as that peg (pegs at one point act as one): a
    // peg released there is not caught again from it, so the move back need not restore.
    const auto end_on_node = [](const State& s) {
      return s.nodes.size() >= 2 && (s.nodes[1].position == s.nodes[0].position || s.nodes.back().position == s.end);
    };
    if (op % 4 == 3 && !(before.pegs[peg] == to) && !end_on_node(before)) {
      // The move back is accepted and restores the rope.
      Rope back = rope;
      try {
        back.move_peg(peg, before.pegs[peg]);
      } catch (const Error&) {
        fuzz::fail("a peg move was accepted but the move back refused");
      }
      const State after_back = state_of(back);
      if (!(after_back.pegs == before.pegs)) fuzz::fail("the move back did not return the peg");
      if (shape_of(after_back.nodes, after_back.end, back) != shape_of(before.nodes, before.end, back))
        fuzz::fail("a peg move followed by the move back changed the rope");
    }
  }
  return 0;
}
