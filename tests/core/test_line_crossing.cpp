// compare_crossings: the exact order of the times at which a point moving along p -> q
// crosses two lines, against GMP rationals solved from the definition, on random lines,
// on lines meeting the path at one point (ties), one ulp from such ties, parallel and
// degenerate lines, in every coordinate frame from 1e-30 to 1e30.
#include "hitgrid/core/line_crossing.hpp"

#include <catch2/catch.hpp>

#include <optional>

#include "geometry_reference.hpp"

namespace hitgrid {
namespace {

using namespace geomtest;

/// The time at which p + t (q - p) lies on the line (a, b), solved directly; nullopt if it
/// never does (parallel, or a == b, or p == q).
std::optional<mpq_class> crossing_time(Vec2 p, Vec2 q, Vec2 a, Vec2 b) {
  const QVec d = sub(QV(q), QV(p)), e = sub(QV(b), QV(a));
  const mpq_class det = cross(d, e);
  if (sign_of(det) == 0) return std::nullopt;
  // p + t d = a + s e  =>  t = cross(a - p, e) / cross(d, e)
  return mpq_class(cross(sub(QV(a), QV(p)), e) / det);
}

int reference(Vec2 p, Vec2 q, Vec2 a1, Vec2 b1, Vec2 a2, Vec2 b2) {
  const auto t1 = crossing_time(p, q, a1, b1), t2 = crossing_time(p, q, a2, b2);
  if (!t1 || !t2) return static_cast<int>(!t1) - static_cast<int>(!t2);
  return sign_of(*t1 - *t2);
}

bool agrees(Vec2 p, Vec2 q, Vec2 a1, Vec2 b1, Vec2 a2, Vec2 b2) {
  const int want = reference(p, q, a1, b1, a2, b2);
  // The laws too: swapping the lines negates, swapping a line's points changes nothing.
  return compare_crossings(p, q, a1, b1, a2, b2) == want && compare_crossings(p, q, a2, b2, a1, b1) == -want &&
         compare_crossings(p, q, b1, a1, a2, b2) == want && compare_crossings(p, q, a1, b1, b2, a2) == want;
}

Vec2 random_point(Rng& rng) { return {random_float(rng), random_float(rng)}; }

}  // namespace

TEST_CASE("compare_crossings: hand-worked", "[geometry][line_crossing]") {
  const Vec2 p{0, 0}, q{4, 0};
  // x = 1 is crossed before x = 3, both within the path.
  CHECK(compare_crossings(p, q, {1, -1}, {1, 1}, {3, 5}, {3, 2}) == -1);
  CHECK(compare_crossings(p, q, {3, 5}, {3, 2}, {1, -1}, {1, 1}) == 1);
  // Two lines through (2, 0): a tie, whatever their slopes.
  CHECK(compare_crossings(p, q, {2, 0}, {3, 1}, {0, 2}, {4, -2}) == 0);
  // Times outside [0, 1] are still ordered: x = -2 (t = -1/2) before x = 8 (t = 2).
  CHECK(compare_crossings(p, q, {-2, 0}, {-2, 1}, {8, 3}, {8, 4}) == -1);
  // A line parallel to the path is never crossed: it ranks last; two of them tie.
  CHECK(compare_crossings(p, q, {0, 1}, {5, 1}, {8, 3}, {8, 4}) == 1);
  CHECK(compare_crossings(p, q, {8, 3}, {8, 4}, {0, 1}, {5, 1}) == -1);
  CHECK(compare_crossings(p, q, {0, 1}, {5, 1}, {7, 7}, {7, 7}) == 0);
  // A path of length zero crosses nothing.
  CHECK(compare_crossings(p, p, {1, -1}, {1, 1}, {3, 5}, {3, 2}) == 0);
}

TEST_CASE("compare_crossings equals exact arithmetic: random lines", "[geometry][line_crossing]") {
  Rng rng(0x11ec0551);
  for (int i = 0; i < 20000; ++i) {
    const Vec2 p = random_point(rng), q = random_point(rng), a1 = random_point(rng), b1 = random_point(rng),
               a2 = random_point(rng), b2 = random_point(rng);
    INFO(hex(p) << hex(q) << hex(a1) << hex(b1) << hex(a2) << hex(b2));
    REQUIRE(agrees(p, q, a1, b1, a2, b2));
  }
}

TEST_CASE("compare_crossings equals exact arithmetic: ties and one-ulp near ties in every frame",
          "[geometry][line_crossing]") {
  Rng rng(0xc0ffee17);
  for (int i = 0; i < 20000; ++i) {
    const Frame& f = any_frame(rng);
    // A path between lattice points with a lattice point x on it; both lines pass through x
    // (a tie) unless a coordinate is nudged by one ulp.
    const int dx = rng.between(-6, 6), dy = rng.between(-6, 6);
    const int ox = rng.between(-20, 20), oy = rng.between(-20, 20);
    const int k = rng.between(-2, 4), m = 2;  // x = o + k d, q = o + m d
    const auto pt = [&](int u, int v) { return Vec2{nudge(rng, frame_point(f, u, v).x), nudge(rng, frame_point(f, u, v).y)}; };
    const Vec2 p = frame_point(f, ox, oy), q = frame_point(f, ox + m * dx, oy + m * dy);
    const int xx = ox + k * dx, xy = oy + k * dy;
    const auto through_x = [&] {
      const int ex = rng.between(-5, 5), ey = rng.between(-5, 5);
      return std::pair{pt(xx - ex, xy - ey), pt(xx + rng.between(0, 2) * ex, xy + rng.between(0, 2) * ey)};
    };
    const auto [a1, b1] = through_x();
    const auto [a2, b2] = through_x();
    INFO(f.name << ' ' << hex(p) << hex(q) << hex(a1) << hex(b1) << hex(a2) << hex(b2));
    REQUIRE(agrees(p, q, a1, b1, a2, b2));
  }
}

}  // namespace hitgrid
