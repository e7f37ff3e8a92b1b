// Point in triangle / convex polygon: hand-worked cases, cross-checks between the two, and
// an exact GMP reference (rational barycentric coordinates; a convex polygon as the union
// of its fan triangles; boundary = on an edge segment).
#include "hitgrid/core/point_in_polygon.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include "geometry_reference.hpp"

namespace hitgrid {
namespace {

using namespace geomtest;

bool on_segment(const QVec& p, const QVec& a, const QVec& b) { return dist2_to_segment(p, a, b) == 0; }

/// Exact reference for the closed triangle.
Containment ref_triangle(Vec2 p, Vec2 a, Vec2 b, Vec2 c) {
  const QVec P = QV(p), A = QV(a), B = QV(b), C = QV(c);
  const mpq_class den = cross(sub(B, A), sub(C, A));
  if (den == 0) {  // flat: the union of the three sides is the hull
    return on_segment(P, A, B) || on_segment(P, B, C) || on_segment(P, C, A) ? Containment::boundary
                                                                                : Containment::outside;
  }
  // p = a + u (b - a) + v (c - a).
  const mpq_class u = cross(sub(P, A), sub(C, A)) / den;
  const mpq_class v = cross(sub(B, A), sub(P, A)) / den;
  const mpq_class w = 1 - u - v;
  if (u > 0 && v > 0 && w > 0) return Containment::inside;
  if (u >= 0 && v >= 0 && w >= 0) return Containment::boundary;
  return Containment::outside;
}

/// Exact reference for a convex polygon (the union of its closed fan triangles).
Containment ref_convex(Vec2 p, const std::vector<Vec2>& poly) {
  const std::size_t n = poly.size();
  if (n == 0) return Containment::outside;
  if (n == 1) return p == poly[0] ? Containment::boundary : Containment::outside;
  bool in = false;
  for (std::size_t i = 1; i + 1 < n && !in; ++i) in = ref_triangle(p, poly[0], poly[i], poly[i + 1]) != Containment::outside;
  if (n == 2) in = on_segment(QV(p), QV(poly[0]), QV(poly[1]));
  if (!in) return Containment::outside;
  for (std::size_t i = 0; i < n; ++i)
    if (on_segment(QV(p), QV(poly[i]), QV(poly[(i + 1) % n]))) return Containment::boundary;
  // Inside the closed polygon and on no edge: interior, unless the polygon is flat.
  bool flat = true;
  for (std::size_t i = 1; i + 1 < n && flat; ++i)
    flat = cross(sub(QV(poly[i]), QV(poly[0])), sub(QV(poly[i + 1]), QV(poly[0]))) == 0;
  return flat ? Containment::boundary : Containment::inside;
}

struct IPoint {
  long x, y;
};
long icross(IPoint o, IPoint a, IPoint b) { return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x); }

/// Strictly convex hull (counter-clockwise, monotone chain) of integer points.
std::vector<IPoint> hull(std::vector<IPoint> pts) {
  std::sort(pts.begin(), pts.end(), [](IPoint a, IPoint b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
  pts.erase(std::unique(pts.begin(), pts.end(), [](IPoint a, IPoint b) { return a.x == b.x && a.y == b.y; }),
            pts.end());
  if (pts.size() < 3) return pts;
  std::vector<IPoint> h(2 * pts.size());
  std::size_t k = 0;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    while (k >= 2 && icross(h[k - 2], h[k - 1], pts[i]) <= 0) --k;
    h[k++] = pts[i];
  }
  for (std::size_t i = pts.size() - 1, t = k + 1; i-- > 0;) {
    while (k >= t && icross(h[k - 2], h[k - 1], pts[i]) <= 0) --k;
    h[k++] = pts[i];
  }
  h.resize(k - 1);
  return h;
}

/// A convex polygon on a small lattice, in a random frame, with optional collinear
/// midpoints, a repeated vertex, reversed order, a rotated start and a closing repeat.
std::vector<Vec2> random_convex(Rng& rng, const Frame& f, bool& flat) {
  std::vector<IPoint> pts;
  const int n = rng.between(1, 7);
  const bool line = rng.chance(0.1);
  for (int i = 0; i < n; ++i) {
    const long x = rng.between(-4, 4);
    pts.push_back({x, line ? 2 * x - 1 : rng.between(-4, 4)});
  }
  std::vector<IPoint> h = line ? pts : hull(pts);
  flat = line || h.size() < 3;
  std::vector<IPoint> with_mid;
  for (std::size_t i = 0; i < h.size(); ++i) {
    with_mid.push_back(h[i]);
    const IPoint a = h[i], b = h[(i + 1) % h.size()];
    if (!line && h.size() >= 3 && rng.chance(0.3) && (a.x + b.x) % 2 == 0 && (a.y + b.y) % 2 == 0)
      with_mid.push_back({(a.x + b.x) / 2, (a.y + b.y) / 2});  // collinear vertex
  }
  std::vector<Vec2> poly;
  for (const IPoint p : with_mid) poly.push_back(frame_point(f, static_cast<int>(p.x), static_cast<int>(p.y)));
  if (!poly.empty() && rng.chance(0.2)) {  // a vertex repeated in place
    const int k = rng.between(0, static_cast<int>(poly.size()) - 1);
    const Vec2 v = poly[static_cast<std::size_t>(k)];
    poly.insert(poly.begin() + k, v);
  }
  if (rng.chance(0.5)) std::reverse(poly.begin(), poly.end());
  if (!poly.empty()) std::rotate(poly.begin(), poly.begin() + rng.between(0, static_cast<int>(poly.size()) - 1), poly.end());
  if (!poly.empty() && rng.chance(0.2)) poly.push_back(poly[0]);
  return poly;
}

}  // namespace

TEST_CASE("point in triangle: hand-worked cases", "[geometry][point_in_polygon]") {
  const Vec2 a{0, 0}, b{4, 0}, c{0, 4};
  CHECK(locate_in_triangle({1, 1}, a, b, c) == Containment::inside);
  CHECK(locate_in_triangle({1, 1}, a, c, b) == Containment::inside);  // clockwise too
  CHECK(locate_in_triangle({2, 2}, a, b, c) == Containment::boundary);  // on the hypotenuse
  CHECK(locate_in_triangle({0, 0}, a, b, c) == Containment::boundary);  // a vertex
  CHECK(locate_in_triangle({3, 3}, a, b, c) == Containment::outside);
  CHECK(locate_in_triangle({-1, 1}, a, b, c) == Containment::outside);
  CHECK(point_in_triangle({2, 2}, a, b, c));
  CHECK_FALSE(point_in_triangle_strict({2, 2}, a, b, c));
  CHECK(point_in_triangle_strict({1, 1}, a, b, c));
  // One ulp outside the hypotenuse, near 1e7.
  const Vec2 A{1.0e7f, 1.0e7f}, B{1.0e7f + 4, 1.0e7f}, C{1.0e7f, 1.0e7f + 4};
  CHECK(locate_in_triangle({1.0e7f + 2, 1.0e7f + 2}, A, B, C) == Containment::boundary);
  CHECK(locate_in_triangle({1.0e7f + 2, std::nextafter(1.0e7f + 2, 2e7f)}, A, B, C) == Containment::outside);
  CHECK(locate_in_triangle({1.0e7f + 2, std::nextafter(1.0e7f + 2, 0.0f)}, A, B, C) == Containment::inside);
  // Degenerate triangles: the hull is a segment (or a point); nothing is strictly inside.
  CHECK(locate_in_triangle({1, 1}, {0, 0}, {2, 2}, {3, 3}) == Containment::boundary);
  CHECK(locate_in_triangle({2.5f, 2.5f}, {0, 0}, {3, 3}, {2, 2}) == Containment::boundary);
  CHECK(locate_in_triangle({4, 4}, {0, 0}, {2, 2}, {3, 3}) == Containment::outside);
  CHECK(locate_in_triangle({1, 2}, {0, 0}, {2, 2}, {3, 3}) == Containment::outside);
  CHECK(locate_in_triangle({1, 1}, {1, 1}, {1, 1}, {1, 1}) == Containment::boundary);
  CHECK(locate_in_triangle({1, 2}, {1, 1}, {1, 1}, {1, 1}) == Containment::outside);
  CHECK_FALSE(point_in_triangle_strict({1, 1}, {0, 0}, {2, 2}, {3, 3}));
}

TEST_CASE("point in convex polygon: hand-worked cases", "[geometry][point_in_polygon]") {
  const std::vector<Vec2> square{{0, 0}, {2, 0}, {2, 2}, {0, 2}};
  CHECK(locate_in_convex_polygon({1, 1}, square) == Containment::inside);
  CHECK(locate_in_convex_polygon({2, 1}, square) == Containment::boundary);
  CHECK(locate_in_convex_polygon({2, 2}, square) == Containment::boundary);
  CHECK(locate_in_convex_polygon({3, 1}, square) == Containment::outside);
  const std::vector<Vec2> cw{{0, 0}, {0, 2}, {2, 2}, {2, 0}};
  CHECK(locate_in_convex_polygon({1, 1}, cw) == Containment::inside);
  CHECK(locate_in_convex_polygon({1, 2}, cw) == Containment::boundary);
  // Collinear and repeated vertices, closing repeat.
  const std::vector<Vec2> messy{{0, 0}, {1, 0}, {1, 0}, {2, 0}, {2, 2}, {0, 2}, {0, 0}};
  CHECK(locate_in_convex_polygon({1, 0}, messy) == Containment::boundary);
  CHECK(locate_in_convex_polygon({1, 1}, messy) == Containment::inside);
  CHECK(locate_in_convex_polygon({1, -1}, messy) == Containment::outside);
  // Degenerate polygons.
  CHECK(locate_in_convex_polygon({0, 0}, std::vector<Vec2>{}) == Containment::outside);
  CHECK(locate_in_convex_polygon({1, 1}, std::vector<Vec2>{{1, 1}}) == Containment::boundary);
  const std::vector<Vec2> flat{{0, 0}, {3, 3}, {1, 1}, {2, 2}};
  CHECK(locate_in_convex_polygon({0.5f, 0.5f}, flat) == Containment::boundary);
  CHECK(locate_in_convex_polygon({4, 4}, flat) == Containment::outside);
  CHECK_FALSE(point_in_convex_polygon_strict({0.5f, 0.5f}, flat));
  CHECK(point_in_convex_polygon({3, 3}, flat));
}

TEST_CASE("point in triangle / convex polygon against the exact reference", "[geometry][point_in_polygon]") {
  Rng rng(314159);
  int failures = 0;
  long counts[3] = {0, 0, 0};
  for (int i = 0; i < 6000 && failures < 20; ++i) {
    const Frame& f = frames[rng.between(0, 4)];
    bool flat = false;
    const std::vector<Vec2> poly = random_convex(rng, f, flat);
    for (int j = 0; j < 8; ++j) {
      Vec2 p = frame_point(f, rng.between(-5, 5), rng.between(-5, 5));
      if (j % 4 == 3) p = {nudge(rng, p.x), nudge(rng, p.y)};
      if (j % 4 == 2 && !poly.empty()) p = poly[static_cast<std::size_t>(rng.between(0, static_cast<int>(poly.size()) - 1))];
      const Containment got = locate_in_convex_polygon(p, poly);
      const Containment want = ref_convex(p, poly);
      bool ok = got == want && point_in_convex_polygon(p, poly) == (want != Containment::outside) &&
                point_in_convex_polygon_strict(p, poly) == (want == Containment::inside);
      if (poly.size() == 3) ok = ok && locate_in_triangle(p, poly[0], poly[1], poly[2]) == want;
      ++counts[static_cast<int>(want)];
      if (!ok) {
        ++failures;
        std::string verts;
        for (const Vec2 v : poly) verts += hex(v) + " ";
        FAIL_CHECK("p = " << hex(p) << " polygon " << verts << ": got " << int(got) << " want " << int(want));
      }
    }
  }
  // Triangles from random floats (almost never degenerate) and from collinear lattices.
  for (int i = 0; i < 30000 && failures < 20; ++i) {
    const Frame& f = frames[rng.between(0, 4)];
    Vec2 a, b, c, p;
    if (i % 2 == 0) {
      a = {random_float(rng), random_float(rng)};
      b = {random_float(rng), random_float(rng)};
      c = {random_float(rng), random_float(rng)};
      // p on an edge's supporting line, rounded: right at the boundary.
      const float s = static_cast<float>(rng.unit());
      p = {a.x + s * (b.x - a.x), a.y + s * (b.y - a.y)};
    } else {
      a = frame_point(f, rng.between(-3, 3), rng.between(-3, 3));
      b = frame_point(f, rng.between(-3, 3), rng.between(-3, 3));
      c = rng.chance(0.3) ? frame_point(f, 2 * rng.between(-1, 1), 2 * rng.between(-1, 1))
                          : frame_point(f, rng.between(-3, 3), rng.between(-3, 3));
      p = frame_point(f, rng.between(-3, 3), rng.between(-3, 3));
    }
    const Containment want = ref_triangle(p, a, b, c);
    const std::vector<Vec2> tri{a, b, c};
    const bool ok = locate_in_triangle(p, a, b, c) == want && locate_in_convex_polygon(p, tri) == want &&
                    point_in_triangle(p, a, b, c) == (want != Containment::outside) &&
                    point_in_triangle_strict(p, a, b, c) == (want == Containment::inside);
    ++counts[static_cast<int>(want)];
    if (!ok) {
      ++failures;
      FAIL_CHECK("p = " << hex(p) << " triangle " << hex(a) << " " << hex(b) << " " << hex(c) << " want " << int(want));
    }
  }
  CHECK(failures == 0);
  CHECK(counts[0] > 10000);
  CHECK(counts[1] > 10000);
  CHECK(counts[2] > 10000);
}

}  // namespace hitgrid
