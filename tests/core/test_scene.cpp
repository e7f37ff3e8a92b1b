#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "hitgrid/core/error.hpp"
#include "hitgrid/core/scene.hpp"
#include "hitgrid/core/splitmix64.hpp"

using namespace hitgrid;

namespace {

std::string add_error(Scene& scene, const auto& shape) {
  try {
    scene.add(shape);
  } catch (const InvalidShapeError& e) {
    return e.what();
  }
  return "";
}

constexpr float quiet_nan = std::numeric_limits<float>::quiet_NaN();
constexpr float infinity = std::numeric_limits<float>::infinity();

}  // namespace

TEST_CASE("Scene assigns ids per kind in insertion order", "[scene]") {
  Scene scene;
  CHECK(scene.add(Segment{{0, 0}, {1, 1}}) == ShapeId(ShapeKind::segment, 0));
  CHECK(scene.add(Circle{{0, 0}, 1}) == ShapeId(ShapeKind::circle, 0));
  CHECK(scene.add(Segment{{2, 2}, {3, 3}}) == ShapeId(ShapeKind::segment, 1));
  CHECK(scene.add(Box{{0, 0}, {1, 2}}) == ShapeId(ShapeKind::box, 0));
  CHECK(scene.segment_count() == 2);
  CHECK(scene.circle_count() == 1);
  CHECK(scene.box_count() == 1);
  CHECK(scene.size() == 4);
  CHECK(scene.segment(1) == Segment{{2, 2}, {3, 3}});
  CHECK(scene.circle(0) == Circle{{0, 0}, 1});
  CHECK(scene.box(0) == Box{{0, 0}, {1, 2}});
}

TEST_CASE("Scene rejects invalid shapes with the id and the reason, and stays unchanged", "[scene]") {
  Scene scene;
  scene.add(Segment{{0, 0}, {1, 1}});
  CHECK(add_error(scene, Segment{{0, quiet_nan}, {1, 1}}) == "segment 1: ay is NaN");
  CHECK(add_error(scene, Segment{{0, 0}, {1, -infinity}}) == "segment 1: by is infinite");
  CHECK(add_error(scene, Circle{{0, 0}, -1.0f}) == "circle 0: negative radius -1");
  CHECK(add_error(scene, Circle{{infinity, 0}, 1.0f}) == "circle 0: cx is infinite");
  CHECK(add_error(scene, Circle{{0, 0}, quiet_nan}) == "circle 0: r is NaN");
  CHECK(add_error(scene, Box{{2, 0}, {1, 1}}) == "box 0: inverted box: minx 2 > maxx 1");
  CHECK(add_error(scene, Box{{0, 0.5f}, {1, 0.25f}}) == "box 0: inverted box: miny 0.5 > maxy 0.25");
  CHECK(scene.size() == 1);
  // Zero-size shapes are valid closed sets, as is a radius of -0.
  CHECK_NOTHROW(scene.add(Segment{{1, 1}, {1, 1}}));
  CHECK_NOTHROW(scene.add(Circle{{1, 1}, 0.0f}));
  CHECK_NOTHROW(scene.add(Circle{{1, 1}, -0.0f}));
  CHECK_NOTHROW(scene.add(Box{{1, 1}, {1, 1}}));
}

TEST_CASE("Scene columns are 64-byte aligned and zero padded", "[scene]") {
  Scene scene;
  for (int i = 0; i < 37; ++i) scene.add(Segment{{1.0f + static_cast<float>(i), 2}, {3, 4}});
  const FloatArray& ax = scene.segments().ax;
  CHECK(reinterpret_cast<std::uintptr_t>(ax.data()) % 64 == 0);
  CHECK(ax.size() == 37);
  CHECK(ax.padded_size() == 48);
  for (std::size_t i = ax.size(); i < ax.padded_size(); ++i) CHECK(ax.data()[i] == 0.0f);
}

TEST_CASE("scene_hash depends on every bit", "[scene]") {
  Scene a;
  a.add(Segment{{0, 0}, {1, 1}});
  Scene b = a;
  CHECK(scene_hash(a) == scene_hash(b));
  CHECK(a == b);
  b.add(Circle{{0, 0}, 0});
  CHECK(scene_hash(a) != scene_hash(b));
  Scene c;
  c.add(Segment{{0, 0}, {1, -0.0f}});
  Scene d;
  d.add(Segment{{0, 0}, {1, 0.0f}});
  CHECK(scene_hash(c) != scene_hash(d));
  CHECK(!(c == d));
}

TEST_CASE("Scene keeps the union of its shapes' bounds, unchanged by rejected shapes", "[scene]") {
  Scene scene;
  CHECK(scene.bounds().min.x == infinity);
  CHECK(scene.bounds().max.y == -infinity);
  scene.add(Segment{{3, -1}, {-2, 4}});
  CHECK(scene.bounds() == Aabb{{-2, -1}, {3, 4}});
  // A circle's bounds are rounded outward (aabb.hpp): the scene's are the same boxes.
  const Circle c{{0.1f, 0.2f}, 10.3f};
  scene.add(c);
  const Aabb cb = bounds(c);
  CHECK(scene.bounds() == Aabb{{std::min(-2.0f, cb.min.x), std::min(-1.0f, cb.min.y)},
                               {std::max(3.0f, cb.max.x), std::max(4.0f, cb.max.y)}});
  const Aabb before = scene.bounds();
  CHECK_FALSE(add_error(scene, Box{{-100, 0}, {-200, 1}}).empty());
  CHECK(scene.bounds() == before);
  scene.add(Box{{-100, 0}, {-99, 1}});
  CHECK(scene.bounds().min.x == -100.0f);
  scene.clear();
  CHECK(scene.bounds().min.x == infinity);
}

TEST_CASE("Scene::set replaces a shape, validated, and swap_remove moves the last into the gap", "[scene]") {
  Scene scene;
  scene.add(Segment{{0, 0}, {1, 1}});
  scene.add(Segment{{2, 2}, {3, 3}});
  scene.add(Segment{{4, 4}, {5, 5}});
  scene.add(Circle{{0, 0}, 1});
  scene.add(Box{{0, 0}, {1, 1}});
  const Scene before = scene;

  // Rejected: the id named, nothing changed.
  try {
    scene.set(1, Segment{{0, std::numeric_limits<float>::quiet_NaN()}, {1, 1}});
    FAIL("no error");
  } catch (const InvalidShapeError& e) {
    CHECK(std::string(e.what()) == "segment 1: ay is NaN");
    CHECK(e.id() == ShapeId(ShapeKind::segment, 1));
  }
  CHECK_THROWS_AS(scene.set(0, Circle{{0, 0}, -1}), InvalidShapeError);
  CHECK_THROWS_AS(scene.set(0, Box{{1, 0}, {0, 1}}), InvalidShapeError);
  CHECK(scene == before);

  scene.set(1, Segment{{-7, 2}, {3, 9}});
  CHECK(scene.segment(1) == Segment{{-7, 2}, {3, 9}});
  CHECK(scene.bounds().min.x == -7.0f);  // grown at once
  scene.set(0, Circle{{10, 10}, 2});
  CHECK(scene.circle(0) == Circle{{10, 10}, 2});
  scene.set(0, Box{{-1, -1}, {0, 0}});
  CHECK(scene.box(0) == Box{{-1, -1}, {0, 0}});

  scene.swap_remove(ShapeKind::segment, 0);
  REQUIRE(scene.segment_count() == 2);
  CHECK(scene.segment(0) == Segment{{4, 4}, {5, 5}});  // the last moved into the gap
  CHECK(scene.segment(1) == Segment{{-7, 2}, {3, 9}});
  CHECK(scene.segments().ax.data()[2] == 0.0f);  // the freed lane is padding again
  scene.swap_remove(ShapeKind::segment, 1);     // the last itself
  CHECK(scene.segment_count() == 1);
  CHECK(scene.segment(0) == Segment{{4, 4}, {5, 5}});

  // bounds() only grows under set and swap_remove; recompute_bounds makes it exact.
  CHECK(scene.bounds().min.x == -7.0f);
  scene.recompute_bounds();
  const Aabb want = Aabb{{-1, -1}, {std::max(5.0f, bounds(Circle{{10, 10}, 2}).max.x), bounds(Circle{{10, 10}, 2}).max.y}};
  CHECK(scene.bounds() == want);
  scene.swap_remove(ShapeKind::segment, 0);
  scene.swap_remove(ShapeKind::circle, 0);
  scene.swap_remove(ShapeKind::box, 0);
  CHECK(scene.empty());
  scene.recompute_bounds();
  CHECK(scene.bounds().min.x == infinity);
}

TEST_CASE("Scene::replace writes a shape as set does, validated, but leaves bounds() to recompute_bounds", "[scene]") {
  Scene scene;
  scene.add(Segment{{0, 0}, {1, 1}});
  scene.add(Circle{{0, 0}, 1});
  scene.add(Box{{0, 0}, {1, 1}});
  const Scene before = scene;
  CHECK_THROWS_AS(scene.replace(0, Segment{{0, std::numeric_limits<float>::infinity()}, {1, 1}}), InvalidShapeError);
  CHECK_THROWS_AS(scene.replace(0, Circle{{0, 0}, -1}), InvalidShapeError);
  CHECK_THROWS_AS(scene.replace(0, Box{{1, 0}, {0, 1}}), InvalidShapeError);
  CHECK(scene == before);

  const Aabb old = scene.bounds();
  scene.replace(0, Segment{{-7, 2}, {3, 9}});
  scene.replace(0, Circle{{20, 20}, 2});
  scene.replace(0, Box{{-1, -30}, {0, 0}});
  CHECK(scene.segment(0) == Segment{{-7, 2}, {3, 9}});
  CHECK(scene.circle(0) == Circle{{20, 20}, 2});
  CHECK(scene.box(0) == Box{{-1, -30}, {0, 0}});
  CHECK(scene.bounds() == old);  // not grown
  scene.recompute_bounds();
  const Aabb circle = bounds(Circle{{20, 20}, 2});
  CHECK(scene.bounds() == Aabb{{-7, -30}, circle.max});
  Scene by_set = before;
  by_set.set(0, Segment{{-7, 2}, {3, 9}});
  by_set.set(0, Circle{{20, 20}, 2});
  by_set.set(0, Box{{-1, -30}, {0, 0}});
  CHECK(by_set == scene);
}

TEST_CASE("recompute_bounds is the union of the shapes' bounds, circles' outward steps included", "[scene]") {
  // recompute_bounds steps the circles' least c - r and greatest c + r once, not each
  // circle's (the steps are monotone): it must equal the union of bounds() shape by shape,
  // with zero radii (points, not stepped), subnormal and huge coordinates (clamped to the
  // finite floats), and every kind alone or absent.
  constexpr float big = std::numeric_limits<float>::max(), tiny = std::numeric_limits<float>::denorm_min();
  SplitMix64 random(5);
  const std::vector<float> values = {0.0f, -0.0f, tiny, -tiny, 1e-38f, -1e-38f, 0.1f, -0.1f,
                                     1.0f, -3.0f, 1e6f, -1e6f, 3e38f,  -3e38f,  big,  -big};
  auto value = [&] {
    const double u = random.u();
    return u < 0.5 ? values[static_cast<std::size_t>(random.u() * static_cast<double>(values.size()))]
                   : static_cast<float>((u - 0.75) * 2000);
  };
  for (int trial = 0; trial < 400; ++trial) {
    Scene scene;
    Aabb want{{std::numeric_limits<float>::infinity(), std::numeric_limits<float>::infinity()},
              {-std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity()}};
    auto include = [&](const Aabb& b) {
      want = {{std::min(want.min.x, b.min.x), std::min(want.min.y, b.min.y)},
              {std::max(want.max.x, b.max.x), std::max(want.max.y, b.max.y)}};
    };
    const int kinds = trial % 8;  // which kinds the scene holds
    const int n = 1 + static_cast<int>(random.u() * 6);
    for (int i = 0; i < n; ++i) {
      if (kinds & 1) {
        const Segment s{{value(), value()}, {value(), value()}};
        scene.add(s);
        include(bounds(s));
      }
      if (kinds & 2) {
        const float r = random.u() < 0.3 ? 0.0f : std::fabs(value());
        const Circle c{{value(), value()}, r};
        scene.add(c);
        include(bounds(c));
      }
      if (kinds & 4) {
        const float x = value(), y = value();
        const Box b{{x, y}, {random.u() < 0.3 ? x : std::max(x, value()), random.u() < 0.3 ? y : std::max(y, value())}};
        scene.add(b);
        include(bounds(b));
      }
    }
    INFO("trial " << trial);
    scene.recompute_bounds();
    CHECK(scene.bounds() == want);
  }
}

TEST_CASE("Scene::assign from rows equals adding the shapes one by one, and keeps its memory", "[scene]") {
  // Rows as a C array of structs gives them (stride 4 or 3), and a column-major block
  // (row stride 1, column stride n) as a transposed NumPy array gives them.
  const std::vector<float> seg_rows = {0, 0, 2, 2, 1, -0.0f, 1, 5, -3, 4, -3, 4};
  const std::vector<float> circle_rows = {1, 1, 0.5f, 7, 8, 0};
  const std::vector<float> box_cols = {2, -9, 2, -8, 3, -1, 3, -2};  // 2 boxes, column-major
  Scene expected;
  for (std::size_t i = 0; i < 3; ++i)
    expected.add(Segment{{seg_rows[4 * i], seg_rows[4 * i + 1]}, {seg_rows[4 * i + 2], seg_rows[4 * i + 3]}});
  for (std::size_t i = 0; i < 2; ++i) expected.add(Circle{{circle_rows[3 * i], circle_rows[3 * i + 1]}, circle_rows[3 * i + 2]});
  expected.add(Box{{2, 2}, {3, 3}});
  expected.add(Box{{-9, -8}, {-1, -2}});

  Scene scene;
  scene.add(Circle{{100, 100}, 50});  // replaced, and its bounds forgotten
  scene.assign({seg_rows.data(), 3, 4, 1}, {circle_rows.data(), 2, 3, 1}, {box_cols.data(), 2, 1, 2});
  CHECK(scene == expected);
  CHECK(scene.bounds() == expected.bounds());
  CHECK(scene_hash(scene) == scene_hash(expected));

  // Fewer shapes into the same scene: no reallocation, padding zero again.
  const float* column = scene.segments().ax.data();
  scene.assign({seg_rows.data() + 4, 1, 4, 1}, {}, {});
  CHECK(scene.segments().ax.data() == column);
  CHECK(scene.size() == 1);
  CHECK(scene.segment(0) == Segment{{1, -0.0f}, {1, 5}});
  CHECK(std::signbit(scene.segment(0).a.y));  // bits kept
  CHECK(scene.segments().ax.data()[1] == 0.0f);
  CHECK(scene.bounds() == Aabb{{1, -0.0f}, {1, 5}});
}

TEST_CASE("Scene::assign refuses an invalid row by its id and leaves the scene as it was", "[scene]") {
  Scene scene;
  scene.add(Segment{{0, 0}, {1, 1}});
  const Scene before = scene;
  const std::vector<float> segs = {0, 0, 1, 1, 0, quiet_nan, 1, 1};
  const std::vector<float> circles = {0, 0, 1, 5, 5, -2};
  const std::vector<float> boxes = {0, 0, 1, 1, 3, 0, 2, 1};
  auto message = [&](ShapeRows s, ShapeRows c, ShapeRows b) -> std::string {
    try {
      scene.assign(s, c, b);
    } catch (const InvalidShapeError& e) {
      return e.what();
    }
    return "";
  };
  CHECK(message({segs.data(), 2, 4, 1}, {}, {}) == "segment 1: ay is NaN");
  CHECK(message({segs.data(), 1, 4, 1}, {circles.data(), 2, 3, 1}, {}) == "circle 1: negative radius -2");
  CHECK(message({}, {circles.data(), 1, 3, 1}, {boxes.data(), 2, 4, 1}) == "box 1: inverted box: minx 3 > maxx 2");
  CHECK(scene == before);
  CHECK(scene.bounds() == before.bounds());
}

TEST_CASE("Scene::assign over many chunks, split by a caller's for_ranges, equals add()", "[scene]") {
  // 200,000 rows per kind: four chunks each; circles of radius 0 and not mixed in every
  // chunk (their bounds are found apart), -0 and huge coordinates.
  const std::size_t n = 200'000;
  std::vector<float> segs(4 * n), circles(3 * n), boxes(4 * n);
  Scene expected;
  std::uint64_t state = 12345;
  auto next = [&] {
    state = state * 6364136223846793005u + 1442695040888963407u;
    return static_cast<float>(static_cast<std::int64_t>(state >> 40) - (std::int64_t{1} << 23)) / 1024.0f;
  };
  for (std::size_t i = 0; i < n; ++i) {
    const Segment s{{next(), next()}, {next(), i == 7 ? -0.0f : next()}};
    const Circle c{{next(), next()}, i % 3 == 0 ? 0.0f : std::fabs(next()) / 64};
    const float x = next(), y = next();
    const Box b{{x, y}, {x + std::fabs(next()), i == n - 1 ? 3e38f : y + 1}};
    expected.add(s);
    expected.add(c);
    expected.add(b);
    std::copy_n(&s.a.x, 4, segs.data() + 4 * i);
    std::copy_n(&c.c.x, 3, circles.data() + 3 * i);
    std::copy_n(&b.min.x, 4, boxes.data() + 4 * i);
  }
  std::size_t calls = 0;
  const Scene::ForRanges one_at_a_time = [&](std::size_t count, const std::function<void(std::size_t, std::size_t)>& body) {
    ++calls;
    for (std::size_t k = count; k-- > 0;) body(k, k + 1);  // out of order, as threads may run them
  };
  Scene scene;
  scene.assign({segs.data(), n, 4, 1}, {circles.data(), n, 3, 1}, {boxes.data(), n, 4, 1}, one_at_a_time);
  CHECK(calls == 2);  // the check and the copy
  CHECK(scene == expected);
  CHECK(scene.bounds() == expected.bounds());
  // An invalid row in the last chunk of the circles is named, whatever ran first.
  circles[3 * (n - 5) + 2] = -0.5f;
  const Scene before = scene;
  CHECK_THROWS_WITH(scene.assign({segs.data(), n, 4, 1}, {circles.data(), n, 3, 1}, {}, one_at_a_time),
                    "circle 199995: negative radius -0.5");
  CHECK(scene == before);
}
