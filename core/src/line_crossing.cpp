#include "hitgrid/core/line_crossing.hpp"

#include "adaptive_eval.hpp"
#include "hitgrid/core/detail/geometry_polynomials.hpp"

namespace hitgrid {
namespace {

using exact::adaptive_sign;

/// sign(o(p) - o(q)) = sign(cross(b - a, p - q)): 0 iff the line (a, b) is parallel to the
/// path (or degenerate), else the sign of the denominator of its crossing time.
int approach(Vec2 p, Vec2 q, Vec2 a, Vec2 b) {
  return adaptive_sign([](auto ax, auto ay, auto bx, auto by, auto qx, auto qy, auto px,
                          auto py) { return poly::cross_of_differences(ax, ay, bx, by, qx, qy, px, py); },
                       a.x, a.y, b.x, b.y, q.x, q.y, p.x, p.y);
}

}  // namespace

int compare_crossings(Vec2 p, Vec2 q, Vec2 a1, Vec2 b1, Vec2 a2, Vec2 b2) {
  const int d1 = approach(p, q, a1, b1);
  const int d2 = approach(p, q, a2, b2);
  if (d1 == 0 || d2 == 0) return (d1 == 0) - (d2 == 0);  // never crossed: last
  const int v = adaptive_sign(
      [](auto px, auto py, auto qx, auto qy, auto a1x, auto a1y, auto b1x, auto b1y, auto a2x, auto a2y, auto b2x,
         auto b2y) {
        return poly::cross3(a2x, a2y, b2x, b2y, px, py) * poly::cross3(a1x, a1y, b1x, b1y, qx, qy) -
               poly::cross3(a1x, a1y, b1x, b1y, px, py) * poly::cross3(a2x, a2y, b2x, b2y, qx, qy);
      },
      p.x, p.y, q.x, q.y, a1.x, a1.y, b1.x, b1.y, a2.x, a2.y, b2.x, b2.y);
  return v * d1 * d2;
}

}  // namespace hitgrid
