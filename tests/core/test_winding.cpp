// winding / signed_area_sign: hand-worked polygons, reversal and rotation laws, and the
// exact GMP shoelace sum on random, huge-and-tiny, nearly degenerate and long polygons.
#include "hitgrid/core/winding.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include "geometry_reference.hpp"
#include "hitgrid/core/predicates.hpp"
#include "hitgrid/core/detail/predicate_counters.hpp"

namespace hitgrid {
namespace {

using namespace geomtest;

int ref_sign(const std::vector<Vec2>& poly) {
  if (poly.size() < 3) return 0;
  mpq_class s = 0;
  for (std::size_t i = 0; i < poly.size(); ++i) {
    const Vec2 p = poly[i], q = poly[(i + 1) % poly.size()];
    s += Q(p.x) * Q(q.y) - Q(q.x) * Q(p.y);
  }
  return sign_of(s);
}

Winding of_sign(int s) { return s > 0 ? Winding::counter_clockwise : s < 0 ? Winding::clockwise : Winding::degenerate; }

/// winding() against the reference, and the laws: reversal flips, rotation keeps.
bool check_polygon(std::vector<Vec2> poly, Rng& rng) {
  const int want = ref_sign(poly);
  bool ok = signed_area_sign(poly) == want && winding(poly) == of_sign(want);
  if (!poly.empty()) {
    std::rotate(poly.begin(), poly.begin() + rng.between(0, static_cast<int>(poly.size()) - 1), poly.end());
    ok = ok && signed_area_sign(poly) == want;
  }
  std::reverse(poly.begin(), poly.end());
  return ok && signed_area_sign(poly) == -want;
}

}  // namespace

TEST_CASE("winding: hand-worked polygons", "[geometry][winding]") {
  const std::vector<Vec2> square{{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  CHECK(winding(square) == Winding::counter_clockwise);
  std::vector<Vec2> rev(square.rbegin(), square.rend());
  CHECK(winding(rev) == Winding::clockwise);
  CHECK(winding(std::vector<Vec2>{}) == Winding::degenerate);
  CHECK(winding(std::vector<Vec2>{{0, 0}, {1, 1}}) == Winding::degenerate);
  CHECK(winding(std::vector<Vec2>{{0, 0}, {1, 1}, {2, 2}, {5, 5}}) == Winding::degenerate);  // collinear
  CHECK(winding(std::vector<Vec2>{{0, 0}, {1, 0}, {1, 1}, {0, 1}, {0, 0}}) == Winding::counter_clockwise);
  // Figure eights: equal lobes cancel exactly; unequal ones take the bigger lobe's sign.
  CHECK(winding(std::vector<Vec2>{{0, 0}, {2, 2}, {2, 0}, {0, 2}}) == Winding::degenerate);
  CHECK(winding(std::vector<Vec2>{{0, 0}, {2, 2}, {2, 0}, {0, 3}}) == Winding::counter_clockwise);
  // A concave (L-shaped) clockwise polygon.
  CHECK(winding(std::vector<Vec2>{{0, 0}, {0, 2}, {1, 2}, {1, 1}, {2, 1}, {2, 0}}) == Winding::clockwise);
}

TEST_CASE("winding: exact where rounding would lie", "[geometry][winding]") {
  // A sliver near 1e7: the third vertex one ulp off the line through the first two.
  const float base = 1.0e7f;
  const Vec2 a{base, base}, b{base + 2, base + 2};
  std::vector<Vec2> sliver{a, b, {base + 1, std::nextafter(base + 1, 2e7f)}};
  CHECK(winding(sliver) == Winding::counter_clockwise);
  sliver[2] = {base + 1, std::nextafter(base + 1, 0.0f)};
  CHECK(winding(sliver) == Winding::clockwise);
  sliver[2] = {base + 1, base + 1};
  CHECK(winding(sliver) == Winding::degenerate);
  // Huge and tiny together: the products of the huge coordinates cancel exactly, and the
  // sign is decided by terms 2^200 times smaller.
  const std::vector<Vec2> mixed{{1e30f, 1e30f}, {-1e30f, -1e30f}, {1e-30f, -1e-30f}};
  CHECK(ref_sign(mixed) == 1);
  CHECK(winding(mixed) == Winding::counter_clockwise);
  // The exact path must have been taken for these.
  const auto before = predicate_counters().exact_calls;
  CHECK(winding(mixed) == Winding::counter_clockwise);
  CHECK(predicate_counters().exact_calls > before);
}

TEST_CASE("winding against the exact shoelace sum", "[geometry][winding]") {
  Rng rng(1234567);
  int failures = 0;
  int signs[3] = {0, 0, 0};
  for (int i = 0; i < 6000 && failures < 10; ++i) {
    std::vector<Vec2> poly;
    const int n = rng.between(0, 40);
    const Frame& f = frames[rng.between(0, 4)];
    switch (i % 4) {
      case 0:  // random floats
        for (int k = 0; k < n; ++k) poly.push_back({random_float(rng), random_float(rng)});
        break;
      case 1:  // lattice (many zero and tiny areas)
        for (int k = 0; k < n; ++k) poly.push_back(frame_point(f, rng.between(-2, 2), rng.between(-2, 2)));
        break;
      case 2: {  // collinear points, then one of them nudged by an ulp
        const int dx = rng.between(-3, 3), dy = rng.between(-3, 3);
        for (int k = 0; k < n; ++k) {
          const int m = rng.between(-5, 5);
          poly.push_back(frame_point(f, m * dx, m * dy));
        }
        if (!poly.empty() && rng.chance(0.7)) {
          Vec2& v = poly[static_cast<std::size_t>(rng.between(0, n - 1))];
          v = {nudge(rng, v.x), nudge(rng, v.y)};
        }
        break;
      }
      default: {  // closed fans: a polygon and its mirror image glued, areas cancelling
        for (int k = 0; k < n / 2; ++k) poly.push_back(frame_point(f, rng.between(-3, 3), rng.between(0, 3)));
        const std::size_t m = poly.size();
        for (std::size_t k = m; k-- > 0;) poly.push_back({poly[k].x, -poly[k].y + 2.0f * static_cast<float>(f.offset_y)});
        break;
      }
    }
    const int want = ref_sign(poly);
    ++signs[want + 1];
    if (!check_polygon(poly, rng)) {
      ++failures;
      FAIL_CHECK("family " << i % 4 << ", n " << poly.size() << ", reference sign " << want << ", got "
                           << signed_area_sign(poly));
    }
  }
  CHECK(failures == 0);
  CHECK(signs[0] > 500);
  CHECK(signs[1] > 500);
  CHECK(signs[2] > 500);
}

TEST_CASE("winding: long polygons far from the origin", "[geometry][winding]") {
  // 100,000 vertices on a lattice square near 1e7 (all collinear runs), then the same with
  // one vertex pushed an ulp inward: the area changes by a tiny amount against terms of
  // 1e14 each; the answer must still be exact.
  std::vector<Vec2> poly;
  const float o = 1.0e7f;
  const int side = 25000;
  for (int k = 0; k < side; ++k) poly.push_back({o + static_cast<float>(k % 8), o});
  for (int k = 0; k < side; ++k) poly.push_back({o + 8, o + static_cast<float>(k % 8)});
  for (int k = 0; k < side; ++k) poly.push_back({o + 8 - static_cast<float>(k % 8), o + 8});
  for (int k = 0; k < side; ++k) poly.push_back({o, o + 8 - static_cast<float>(k % 8)});
  // These runs double back and forth along the sides; the signed area is exactly that of
  // the zigzag, which the reference computes.
  Rng rng(3);
  CHECK(check_polygon(poly, rng));
  // Out along the diagonal to 1e7 in 1000 steps and back to a point 1e-30 off it: every
  // term is up to 1e14 with rounding bounds to match, the area is -2e-23.
  std::vector<Vec2> thin{{0, 0}};
  for (int k = 1; k <= 1000; ++k) thin.push_back({static_cast<float>(k) * 1.0e4f, static_cast<float>(k) * 1.0e4f});
  thin.push_back({1e-30f, -1e-30f});
  CHECK(ref_sign(thin) == -1);
  const auto before = predicate_counters().exact_calls;
  CHECK(winding(thin) == Winding::clockwise);
  CHECK(predicate_counters().exact_calls > before);
  CHECK(check_polygon(thin, rng));
}

}  // namespace hitgrid
