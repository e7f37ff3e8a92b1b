// Lines tangent to two circles, which side of one a point is on, and in which order a
// point moving along a segment crosses two of them, exactly: the predicates of a rope
// wrapped around circle pegs (a point is a circle of radius 0).
//
//   // The rope leaves circle a with a on its left (+1) or right (-1), and reaches b the
//   // same way: the line it runs along, directed from a towards b.
//   hitgrid::TangentLine line{a, +1, b, -1};
//   if (hitgrid::tangent_exists(line)) {
//     int s = hitgrid::side_of(line, p);                        // +1: p left of the line
//     int o = hitgrid::compare_tangent_crossings(p, q, line, other);  // -1: line first
//   }
//
// The line. With ka = sa a.r + grow_a and kb = sb b.r + grow_b (the signed radii: grow_a
// and grow_b are 0 but for the grown lines below), e = b.c - a.c, rho = kb - ka and
// D = |e|^2 - rho^2, the line's unit normal pointing to its left is
// n = (rho e + sqrt(D) perp(e)) / |e|^2 (perp(x, y) = (-y, x)), and f(x) = n . (x - a.c) + ka
// is the signed distance of x from it: a's centre lies at distance a.r on side sa and b's
// at distance b.r on side sb. It exists when D > 0: two circles apart have four such
// lines, nested or overlapping circles fewer (D <= 0: tangent_exists is false, and the
// other functions must not be asked).
//
// Grown lines. A circle of radius r rolling along a line touches it on side s while its
// centre runs along the line moved by s r to its left: the line tangent to a and b with
// grow_a = grow_b = -s r. (A rope's stretch ending on a moving circle peg is tangent to
// it: where the peg's centre may be is such a line; rope/rope.hpp.) Lines tangent to one
// circle grown and another shrunk (grow_a = -grow_b) are where a circle lies halfway
// between two parallel lines tangent to a and to b. Each signed radius is then a sum of
// two floats: never rounded here either.
//
// The direction, d = (sqrt(D) e - rho perp(e)) / |e|^2 (n turned a quarter clockwise), runs
// from a's tangent point to b's, which lie at a.c - sa a.r n and b.c - sb b.r n.
//
// The crossing order. The point moves as p + t (q - p); it is on the line at the time
// t = f(p) / (f(p) - f(q)) unless the line is parallel to q - p. compare_tangent_crossings
// returns the sign of t1 - t2, whatever the times (they need not lie in [0, 1]); a line
// parallel to the path is never crossed and ranks after every line that is, two such
// compare equal (0), as compare_crossings (line_crossing.hpp) does for lines through two
// points, which this reduces to for circles of radius 0.
//
// Exact for all finite float32 inputs (docs/contracts.md, contract 1): |e|^2 f(x) is
// A + B sqrt(D) with integer polynomials A and B of degree 3 and 2 in the inputs (a
// signed radius, a sum of two of them, is of degree 1), and
// sign(t1 - t2) is the sign of a number p + q sqrt(D2) with p, q in Z[sqrt(D1)], found by
// squaring twice (a polynomial of degree 20), on big integers (docs/contracts.md, contract 1); the
// other functions are signs of one or two such roots the same way.
// In front of the big integers, the same polynomials in doubles with a running bound on
// their error (a floating-point filter) decide every sign the bound allows.
// No time, root or distance is rounded. Lines between two points (both radii 0) go to the
// floating-point-filtered point predicates (orient2d, dot_sign, compare_crossings) instead,
// where those answer the same question (for lines that are not grown).
#pragma once

#include "hitgrid/core/shapes.hpp"
#include "hitgrid/core/vec2.hpp"

namespace hitgrid {

/// The line along which a rope runs from circle a to circle b, with a on side sa and b on
/// side sb of its direction (+1: left, -1: right). `mirrored`: that line's image through
/// b's centre, directed the other way (where a rope doubled back around b runs: tangent to
/// b at the opposite point); its f(x) is f(2 b.c - x). grow_a, grow_b: added to the signed
/// radii sa a.r and sb b.r (see "Grown lines" above).
struct TangentLine {
  Circle a;
  int sa = 1;
  Circle b;
  int sb = 1;
  bool mirrored = false;
  float grow_a = 0.0f;
  float grow_b = 0.0f;
};

/// The same line moved by `s` to its left (its own direction's left): grow_a and grow_b
/// less `s`. Requires a line that is not grown yet (a signed radius is a sum of at most
/// two floats).
TangentLine moved_left(TangentLine line, float s);

/// Whether the line exists (D > 0 above): the circles' centres differ and the circles do
/// not overlap or nest in the way the sides exclude.
bool tangent_exists(const TangentLine& line);

/// The side of the line x lies on: +1 left, -1 right, 0 on it. Requires tangent_exists.
int side_of(const TangentLine& line, Vec2 x);

/// The sign of t1 - t2, the times at which p + t (q - p) is on line1 and on line2 (see the
/// header comment). Requires tangent_exists for both.
int compare_tangent_crossings(Vec2 p, Vec2 q, const TangentLine& line1, const TangentLine& line2);

/// The sign of d . (v - u), d the line's direction: +1 when going from u to v goes forward
/// along the line. Requires tangent_exists.
int along(const TangentLine& line, Vec2 u, Vec2 v);

/// The signs of cross(d1, d2) and dot(d1, d2) for the two lines' directions: how the
/// second turns from the first. Require tangent_exists for both.
int direction_cross(const TangentLine& line1, const TangentLine& line2);
int direction_dot(const TangentLine& line1, const TangentLine& line2);

/// Where p + t (q - p) crosses the line, against the point where the line touches b (its
/// image, for a mirrored line), along the line's direction: +1 the crossing lies beyond
/// the tangent point, 0 at it, -1 before it; 0 also for a line parallel to the path.
/// Requires tangent_exists.
int crossing_beyond_tangent_point(Vec2 p, Vec2 q, const TangentLine& line);

/// The line's tangent points on a and on b (images through b's centre for a mirrored line;
/// for a grown line, where the normals from the centres meet it),
/// its unit direction and the distance between the tangent points, rounded: for lengths
/// and pictures, never for a decision. `length` is within 2^-51 of the exact distance
/// relatively (D is computed exactly, then rounded and its root taken); the direction's
/// angle within 2^-50 radians; each tangent point within 2^-51 (|centre| + radius) of the
/// exact one; for lines that are not grown (a grown line's signed radii round once more).
/// Requires tangent_exists.
struct TangentGeometry {
  double ax, ay, bx, by;  // the tangent points
  double dx, dy;          // the unit direction, from a's tangent point to b's
  double length;
};
TangentGeometry tangent_geometry(const TangentLine& line);

}  // namespace hitgrid
