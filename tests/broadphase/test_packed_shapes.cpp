// Packed shapes (packed_shapes.hpp): KindRanges maps global indices (segments, then
// circles, then boxes) to ids and back, in (kind, id) order; pack_shapes makes one record
// per shape in global order, on one thread and on several, each the shape's record_of:
// its box bit for bit core's bounds() of the shape (and bounds_of its geometry), its
// geometry the kind's layout (segment ax ay bx by; circle cx cy r 0; box minx miny maxx
// maxy), on degenerate shapes (zero-length segments, zero radii, zero-area boxes), signed
// zeros, subnormals and coordinates at +-FLT_MAX; and intersects_packed answers as core's
// intersects on the shapes.
#include <tbb/task_arena.h>

#include <bit>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "hitgrid/core/intersects.hpp"
#include "hitgrid/core/splitmix64.hpp"
#include "packed_shapes.hpp"

using namespace hitgrid;

namespace {

constexpr float big = std::numeric_limits<float>::max();
constexpr float tiny = std::numeric_limits<float>::denorm_min();

/// Bitwise equality (tells -0 from +0).
bool same_bits(float a, float b) { return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b); }
bool same_bits(const Aabb& a, const Aabb& b) {
  return same_bits(a.min.x, b.min.x) && same_bits(a.min.y, b.min.y) && same_bits(a.max.x, b.max.x) &&
         same_bits(a.max.y, b.max.y);
}
bool same_geometry(const ShapeRecord& r, float g0, float g1, float g2, float g3) {
  return same_bits(r.g[0], g0) && same_bits(r.g[1], g1) && same_bits(r.g[2], g2) && same_bits(r.g[3], g3);
}

/// Four shapes of each kind, degenerate and extreme ones among them.
Scene odd_scene() {
  Scene s;
  s.add(Segment{{3, -1}, {1, 2}});
  s.add(Segment{{4, 4}, {4, 4}});  // zero length
  s.add(Segment{{-big, big}, {big, -big}});
  s.add(Segment{{tiny, -0.0f}, {-tiny, 0.0f}});
  s.add(Circle{{5, 6}, 2});
  s.add(Circle{{-7, 8}, 0});  // zero radius
  s.add(Circle{{big, -big}, big});
  s.add(Circle{{1e-40f, -0.0f}, tiny});
  s.add(Box{{0, 0}, {0, 0}});    // a point
  s.add(Box{{-1, 2}, {-1, 5}});  // zero width
  s.add(Box{{-big, -big}, {big, big}});
  s.add(Box{{-0.0f, 1}, {0.0f, 3}});
  return s;
}

/// A scene of every kind, large enough for several of pack_shapes' tasks.
Scene random_scene(std::size_t per_kind) {
  SplitMix64 rng(77);
  auto coord = [&] { return static_cast<float>(rng.u() * 2000.0 - 1000.0); };
  Scene s;
  for (std::size_t i = 0; i < per_kind; ++i) s.add(Segment{{coord(), coord()}, {coord(), coord()}});
  for (std::size_t i = 0; i < per_kind; ++i) s.add(Circle{{coord(), coord()}, static_cast<float>(rng.u() * 10)});
  for (std::size_t i = 0; i < per_kind; ++i) {
    const float x = coord(), y = coord();
    s.add(Box{{x, y}, {x + static_cast<float>(rng.u() * 10), y + static_cast<float>(rng.u() * 10)}});
  }
  return s;
}

/// Every record of `records` is the scene's shape at its global index, in the kind's layout.
void check_records(const Scene& scene, const UninitializedVector<ShapeRecord>& records) {
  REQUIRE(records.size() == scene.size());
  const KindRanges kinds = KindRanges::of(scene);
  std::size_t bad = 0;
  for (std::uint32_t i = 0; i < records.size(); ++i) {
    const ShapeRecord& r = records[i];
    const ShapeId id = kinds.id(i);
    bool ok = false;
    switch (id.kind()) {
      case ShapeKind::segment: {
        const Segment s = scene.segment(id.index());
        ok = same_bits(r.box, bounds(s)) && same_geometry(r, s.a.x, s.a.y, s.b.x, s.b.y);
        break;
      }
      case ShapeKind::circle: {
        const Circle c = scene.circle(id.index());
        ok = same_bits(r.box, bounds(c)) && same_geometry(r, c.c.x, c.c.y, c.r, 0.0f);
        break;
      }
      case ShapeKind::box: {
        const Box b = scene.box(id.index());
        ok = same_bits(r.box, bounds(b)) && same_geometry(r, b.min.x, b.min.y, b.max.x, b.max.y);
        break;
      }
    }
    // The box from the packed geometry alone, and record_of, agree.
    ok = ok && same_bits(bounds_of(id.kind(), r.g), r.box);
    const ShapeRecord again = record_of(scene, kinds, i);
    ok = ok && std::memcmp(&again, &r, sizeof r) == 0;
    if (!ok && bad++ == 0) {
      INFO("first bad record: global index " << i);
      CHECK(ok);
    }
  }
  CHECK(bad == 0);
}

}  // namespace

TEST_CASE("KindRanges maps global indices to ids and back, in (kind, id) order", "[packed_shapes]") {
  const Scene scene = odd_scene();
  const KindRanges kinds = KindRanges::of(scene);
  CHECK(kinds.circles_begin == 4);
  CHECK(kinds.boxes_begin == 8);
  const ShapeKind want[12] = {ShapeKind::segment, ShapeKind::segment, ShapeKind::segment, ShapeKind::segment,
                              ShapeKind::circle,  ShapeKind::circle,  ShapeKind::circle,  ShapeKind::circle,
                              ShapeKind::box,     ShapeKind::box,     ShapeKind::box,     ShapeKind::box};
  for (std::uint32_t i = 0; i < 12; ++i) {
    INFO("global index " << i);
    CHECK(kinds.kind(i) == want[i]);
    CHECK(kinds.id(i) == ShapeId(want[i], i % 4));
    CHECK(kinds.global(kinds.id(i)) == i);
    if (i > 0) CHECK(kinds.id(i - 1) < kinds.id(i));
  }
  // Kinds that are absent: no segments, no boxes.
  Scene circles;
  circles.add(Circle{{0, 0}, 1});
  circles.add(Circle{{1, 0}, 1});
  const KindRanges only = KindRanges::of(circles);
  CHECK(only.circles_begin == 0);
  CHECK(only.boxes_begin == 2);
  CHECK(only.id(0) == ShapeId(ShapeKind::circle, 0));
  CHECK(only.id(1) == ShapeId(ShapeKind::circle, 1));
  CHECK(only.kind(2) == ShapeKind::box);
  CHECK(only.global(ShapeId(ShapeKind::box, 3)) == 5);
}

TEST_CASE("pack_shapes packs degenerate and extreme shapes as the kind's layout with core's bounds",
          "[packed_shapes]") {
  const Scene scene = odd_scene();
  const UninitializedVector<ShapeRecord> records = pack_shapes(scene);
  check_records(scene, records);
  REQUIRE(records.size() == 12);

  // Spelled out: a segment's box is its endpoints' min and max.
  CHECK(same_bits(records[0].box, Aabb{{1, -1}, {3, 2}}));
  CHECK(same_geometry(records[0], 3, -1, 1, 2));
  CHECK(same_bits(records[1].box, Aabb{{4, 4}, {4, 4}}));
  CHECK(same_bits(records[2].box, Aabb{{-big, -big}, {big, big}}));
  CHECK(same_geometry(records[3], tiny, -0.0f, -tiny, 0.0f));
  // A circle's bounds c -+ r, moved one float step outward; with r == 0, the centre.
  CHECK(same_bits(records[4].box, Aabb{{std::nextafter(3.0f, -big), std::nextafter(4.0f, -big)},
                                       {std::nextafter(7.0f, big), std::nextafter(8.0f, big)}}));
  CHECK(same_geometry(records[4], 5, 6, 2, 0));
  CHECK(same_bits(records[5].box, Aabb{{-7, 8}, {-7, 8}}));
  CHECK(same_geometry(records[5], -7, 8, 0, 0));
  // At FLT_MAX the bounds stop at the largest finite float.
  CHECK(records[6].box.max.x == big);
  CHECK(records[6].box.min.y == -big);
  CHECK(std::isfinite(records[6].box.min.x));
  CHECK(std::isfinite(records[6].box.max.y));
  CHECK(records[6].box.min.x <= 0.0f);
  CHECK(records[6].box.max.y >= 0.0f);
  CHECK(same_geometry(records[6], big, -big, big, 0));
  CHECK(same_geometry(records[7], 1e-40f, -0.0f, tiny, 0));
  CHECK(records[7].box.min.x < 1e-40f);
  CHECK(records[7].box.max.x > 1e-40f);
  // A box's record is its corners, zero area or not.
  CHECK(same_bits(records[8].box, Aabb{{0, 0}, {0, 0}}));
  CHECK(same_geometry(records[8], 0, 0, 0, 0));
  CHECK(same_bits(records[9].box, Aabb{{-1, 2}, {-1, 5}}));
  CHECK(same_geometry(records[9], -1, 2, -1, 5));
  CHECK(same_bits(records[10].box, Aabb{{-big, -big}, {big, big}}));
  CHECK(same_geometry(records[11], -0.0f, 1, 0.0f, 3));

  CHECK(pack_shapes(Scene()).empty());
}

TEST_CASE("pack_shapes gives the same records on one thread and on several", "[packed_shapes]") {
  const Scene scene = random_scene(20'000);  // 60,000 shapes: several tasks of 16,384
  for (int threads : {1, 2}) {
    INFO(threads << " threads");
    UninitializedVector<ShapeRecord> records;
    tbb::task_arena(threads).execute([&] { records = pack_shapes(scene); });
    check_records(scene, records);
  }
}

TEST_CASE("intersects_packed answers as core's intersects on the shapes", "[packed_shapes]") {
  Scene scene = odd_scene();
  // Shapes that meet the odd ones, and some that miss them.
  scene.add(Segment{{0, 0}, {5, 5}});
  scene.add(Segment{{-7, 8}, {-7, 9}});
  scene.add(Segment{{100, 100}, {101, 100}});
  scene.add(Circle{{4, 4}, 1});
  scene.add(Circle{{-1, 3}, 0.5f});
  scene.add(Box{{2, 0}, {3, 1}});
  scene.add(Box{{-8, 7}, {-7, 8}});
  const KindRanges kinds = KindRanges::of(scene);
  const UninitializedVector<ShapeRecord> records = pack_shapes(scene);
  auto shape_test = [&](std::uint32_t i, std::uint32_t j) {
    const ShapeId a = kinds.id(i), b = kinds.id(j);
    auto with = [&](const auto& s) {
      switch (b.kind()) {
        case ShapeKind::segment:
          return intersects(s, scene.segment(b.index()));
        case ShapeKind::circle:
          return intersects(s, scene.circle(b.index()));
        case ShapeKind::box:
          break;
      }
      return intersects(s, scene.box(b.index()));
    };
    switch (a.kind()) {
      case ShapeKind::segment:
        return with(scene.segment(a.index()));
      case ShapeKind::circle:
        return with(scene.circle(a.index()));
      case ShapeKind::box:
        break;
    }
    return with(scene.box(a.index()));
  };
  std::size_t hits = 0, misses = 0;
  for (std::uint32_t i = 0; i < scene.size(); ++i)
    for (std::uint32_t j = i; j < scene.size(); ++j) {  // kinds in global order: kind(i) <= kind(j)
      INFO("global indices " << i << " and " << j);
      const bool want = shape_test(i, j);
      CHECK(intersects_packed(kinds.kind(i), records[i].g, kinds.kind(j), records[j].g) == want);
      (want ? hits : misses) += 1;
    }
  CHECK(hits > 20);
  CHECK(misses > 20);
}
