// GridIndex (grid_index.hpp): the pairs between a query scene and an indexed scene must be
// exactly the intersecting pairs of the brute-force double loop (the exact intersects of
// every query shape with every indexed shape), on every family and pathological layout,
// as queries and as the index, on automatic, small and large cells, every ISA and 1, 2
// and 4 threads; queries outside the index and empty scenes find nothing.
#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "hitgrid/broadphase/grid_index.hpp"
#include "hitgrid/core/error.hpp"
#include "hitgrid/core/generators.hpp"
#include "hitgrid/core/intersects.hpp"
#include "hitgrid/core/ray_box.hpp"
#include "hitgrid/core/ray_circle.hpp"
#include "hitgrid/core/ray_segment.hpp"
#include "hitgrid/core/splitmix64.hpp"
#include "hitgrid/core/within_distance.hpp"
#include "hitgrid/simd/isa.hpp"
#include "support/pathological_scenes.hpp"
#include "support/sanitizer_builds.hpp"

using namespace hitgrid;

namespace {

template <class F>
void for_each_shape(const Scene& s, F&& f) {
  for (std::uint32_t i = 0; i < s.segment_count(); ++i) f(ShapeId(ShapeKind::segment, i), s.segment(i));
  for (std::uint32_t i = 0; i < s.circle_count(); ++i) f(ShapeId(ShapeKind::circle, i), s.circle(i));
  for (std::uint32_t i = 0; i < s.box_count(); ++i) f(ShapeId(ShapeKind::box, i), s.box(i));
}

/// A cast's candidates before the exact tests (GridIndex::candidates, the whole plane as
/// window): each shape once, and every shape in `want` (the ones it meets) among them.
template <class Q>
void check_cast_candidates(const GridIndex& index, const Q& query, const std::vector<ShapeId>& want) {
  constexpr float inf = std::numeric_limits<float>::infinity();
  std::vector<IndexedShape> candidates;
  index.candidates(query, Aabb{{-inf, -inf}, {inf, inf}}, candidates);
  std::vector<ShapeId> listed;
  for (const IndexedShape& c : candidates) listed.push_back(c.id);
  std::sort(listed.begin(), listed.end());
  CHECK(std::adjacent_find(listed.begin(), listed.end()) == listed.end());
  CHECK(std::includes(listed.begin(), listed.end(), want.begin(), want.end()));
}

/// The reference: every (query, shape) pair that intersects, in (query, shape) order.
std::vector<CrossPair> brute_force_cross(const Scene& queries, const Scene& index) {
  std::vector<CrossPair> out;
  for_each_shape(queries, [&](ShapeId q, const auto& a) {
    for_each_shape(index, [&](ShapeId s, const auto& b) {
      if (intersects(a, b)) out.push_back({q, s});
    });
  });
  return out;
}

/// Every other shape of each kind to the index, the rest to the queries.
std::pair<Scene, Scene> split(const Scene& scene) {
  Scene index, queries;
  std::uint32_t k = 0;
  for_each_shape(scene, [&](ShapeId, const auto& shape) { (k++ % 2 == 0 ? index : queries).add(shape); });
  return {std::move(index), std::move(queries)};
}

/// Checks index.touching of every query shape against the exact intersects with every
/// shape of `scene`; returns how many touches were expected.
std::size_t check_touching(const GridIndex& index, const Scene& scene, const Scene& queries, const std::string& what) {
  std::size_t seen = 0;
  std::vector<ShapeId> got;
  for_each_shape(queries, [&](ShapeId q, const auto& shape) {
    INFO(what << ", query " << kind_letter(q.kind()) << q.index());
    std::vector<ShapeId> want;
    for_each_shape(scene, [&](ShapeId s, const auto& other) {
      if (intersects(shape, other)) want.push_back(s);
    });
    index.touching(shape, got);
    seen += want.size();
    CHECK(got == want);
  });
  return seen;
}

}  // namespace

TEST_CASE("a grid index finds exactly the intersecting pairs of query shapes and indexed shapes", "[grid]") {
  tbb::global_control allow(tbb::global_control::max_allowed_parallelism, 8);
  std::size_t seen = 0;  // pairs over all scenes: the reference is not empty everywhere
  for (const auto& [name, scene] : test::broadphase_scenes(1500)) {
    const auto [index_scene, queries] = split(scene);
    const std::vector<CrossPair> want = brute_force_cross(queries, index_scene);
    const std::vector<CrossPair> want_swapped = brute_force_cross(index_scene, queries);
    seen += want.size();
    for (float cell : {0.0f, 0.25f, 4.0f}) {
      for (Isa isa : test::isas_to_test()) {
        FindPairsOptions o;
        o.cell_size = cell;
        o.isa = isa;
        for (int threads : {1, 2, 4}) {
          INFO(name << ", cell " << cell << ", " << isa_name(isa) << ", " << threads << " threads");
          std::vector<CrossPair> got, got_swapped;
          tbb::task_arena(threads).execute([&] {
            GridIndex(index_scene, o).pairs_with(queries, got);
            GridIndex(queries, o).pairs_with(index_scene, got_swapped);
          });
          CHECK(got.size() == want.size());
          CHECK(got == want);
          CHECK(got_swapped == want_swapped);
        }
      }
    }
  }
  CHECK(seen > 0);
}

TEST_CASE("a grid index answers queries far outside it, and empty scenes, with nothing", "[grid]") {
  GeneratorParams p;
  p.n = 2000;
  const Scene scene = generate(Family::uniform, p);
  const GridIndex index(scene);
  CHECK(index.size() == scene.size());
  Scene far;
  far.add(Segment{{1e9f, 1e9f}, {1e9f + 1, 1e9f}});
  far.add(Circle{{-1e9f, 0}, 5});
  far.add(Box{{0, 1e9f}, {1, 1e9f + 1}});
  std::vector<CrossPair> out{{ShapeId(ShapeKind::box, 7), ShapeId(ShapeKind::box, 7)}};  // replaced
  index.pairs_with(far, out);
  CHECK(out.empty());
  index.pairs_with(Scene{}, out);
  CHECK(out.empty());
  GridIndex().pairs_with(scene, out);
  CHECK(out.empty());
  GridIndex(Scene{}).pairs_with(scene, out);
  CHECK(out.empty());
  // A box over the whole world meets every shape.
  Scene all;
  all.add(Box{{-1e30f, -1e30f}, {1e30f, 1e30f}});
  index.pairs_with(all, out);
  CHECK(out.size() == scene.size());
}

TEST_CASE("a grid index refuses invalid cell sizes", "[grid]") {
  FindPairsOptions o;
  o.cell_size = -1.0f;
  CHECK_THROWS_AS(GridIndex(Scene{}, o), Error);
}

TEST_CASE("a grid index finds exactly the shapes one query shape touches, long segments walking their cells",
          "[grid]") {
  std::size_t seen = 0;
  for (const auto& [name, scene] : test::broadphase_scenes(1500)) {
    const Aabb world = scene.bounds();
    for (float cell : {0.0f, 0.25f}) {
      FindPairsOptions o;
      o.cell_size = cell;
      const GridIndex index(scene, o);
      // Queries: the shapes of another family over the same world, long segments across
      // it in every direction (corner to corner, along the edges, through lattice points),
      // points (zero-size boxes and circles) on shapes' endpoints and corners.
      Scene queries;
      const float x0 = world.min.x, y0 = world.min.y, x1 = world.max.x, y1 = world.max.y;
      const float xm = x0 / 2 + x1 / 2, ym = y0 / 2 + y1 / 2;
      for (const Segment& s : {Segment{{x0, y0}, {x1, y1}}, Segment{{x1, y0}, {x0, y1}}, Segment{{x0, ym}, {x1, ym}},
                               Segment{{xm, y0}, {xm, y1}}, Segment{{x0, y0}, {x1, y0}}, Segment{{x1, y1}, {x0, y0}},
                               Segment{{x0 - 1, y0 - 1}, {xm, ym}}})
        queries.add(s);
      for (std::uint32_t i = 0; i < std::min<std::size_t>(scene.segment_count(), 40); ++i) {
        const Segment s = scene.segment(i * 7 % static_cast<std::uint32_t>(scene.segment_count()));
        queries.add(Box{s.a, s.a});
        queries.add(Circle{s.b, 0.0f});
        queries.add(Segment{s.a, {s.b.x + (x1 - x0) / 3, s.b.y - (y1 - y0) / 5}});
      }
      for (std::uint32_t i = 0; i < std::min<std::size_t>(scene.box_count(), 20); ++i) {
        const Box b = scene.box(i);
        queries.add(Box{b.max, {b.max.x + 1, b.max.y + 1}});
        queries.add(Circle{b.min, 1.5f});
      }
      seen += check_touching(index, scene, queries, name + ", cell " + std::to_string(cell));
    }
  }
  CHECK(seen > 0);
}

TEST_CASE("a grid index over a few far-apart large shapes answers queries across its whole extent", "[grid]") {
  // Small cells and large circles far apart: the tiles of the large shapes span a vast,
  // nearly empty extent. Queries across all of it, across parts of it and along single
  // tile rows must find exactly the shapes they touch (the query walks only occupied rows).
  Scene scene;
  SplitMix64 rng(7);
  for (int i = 0; i < 200; ++i)
    scene.add(Circle{{static_cast<float>(rng.u() * 8), static_cast<float>(rng.u() * 8)}, 0.05f});
  const float far[] = {-1e6f, -2e5f, 0.0f, 3e5f, 1e6f};
  for (float y : far)
    for (float x : far)
      if ((static_cast<int>(x / 1e5f) + static_cast<int>(y / 1e5f)) % 3 != 0) scene.add(Circle{{x, y}, 100.0f});
  scene.add(Box{{-1e6f, 2e5f}, {1e6f, 2e5f + 50}});  // one row's width
  Scene queries;
  queries.add(Box{{-2e6f, -2e6f}, {2e6f, 2e6f}});
  queries.add(Box{{-1e6f, -1e6f}, {1e6f, 1e6f}});
  queries.add(Box{{-3e5f, -1.1e6f}, {3.5e5f, 2e5f}});
  queries.add(Box{{9e5f, -1.1e6f}, {1.1e6f, 1.1e6f}});  // one column
  queries.add(Box{{-1.1e6f, 2.4e5f}, {1.1e6f, 3e5f}});  // between rows, touching one circle row
  queries.add(Segment{{-1e6f, -1e6f}, {1e6f, 1e6f}});
  queries.add(Segment{{-1.1e6f, 1e6f}, {1.1e6f, -1e6f}});
  queries.add(Segment{{-1e6f, 3e5f}, {1e6f, 3e5f}});
  queries.add(Circle{{0, 0}, 1.5e6f});
  queries.add(Circle{{3e5f, 3e5f}, 1e5f});
  std::size_t seen = 0;
  for (float cell : {0.0f, 0.25f, 1.0f}) {
    FindPairsOptions o;
    o.cell_size = cell;
    seen += check_touching(GridIndex(scene, o), scene, queries, "cell " + std::to_string(cell));
  }
  CHECK(seen > 100);
}

TEST_CASE("a grid index lists every shape touching a box among its candidates, with their geometry", "[grid]") {
  std::size_t seen = 0;
  for (const auto& [name, scene] : test::broadphase_scenes(1500)) {
    const Aabb world = scene.bounds();
    for (float cell : {0.0f, 0.25f, 4.0f}) {
      FindPairsOptions o;
      o.cell_size = cell;
      const GridIndex index(scene, o);
      // Boxes: the bounds of the scene's own shapes (so every shape's box meets at least
      // its own), grown and shrunk to zero size at a corner, the whole world, beyond it,
      // the whole float plane.
      constexpr float most = std::numeric_limits<float>::max();
      std::vector<Aabb> boxes{world,
                              {{world.max.x + 1, world.min.y}, {world.max.x + 2, world.max.y}},
                              {{world.min.x - 5, world.min.y - 5}, {world.min.x, world.min.y}},
                              {{-most, -most}, {most, most}}};
      std::uint32_t k = 0;
      for_each_shape(scene, [&](ShapeId, const auto& shape) {
        if (k++ % 23 != 0) return;
        const Aabb b = bounds(shape);
        boxes.push_back(b);
        boxes.push_back({b.max, b.max});
        boxes.push_back(grown(b, 0.5f));
      });
      std::vector<IndexedShape> got;
      for (const Aabb& box : boxes) {
        INFO(name << ", cell " << cell << ", box (" << box.min.x << ", " << box.min.y << ") (" << box.max.x << ", "
                  << box.max.y << ")");
        // Every shape touching the box is listed; every shape listed has bounds meeting it.
        std::vector<ShapeId> touching, bounds_meeting;
        for_each_shape(scene, [&](ShapeId s, const auto& other) {
          if (intersects(Box{box.min, box.max}, other)) touching.push_back(s);
          if (overlaps(box, bounds(other))) bounds_meeting.push_back(s);
        });
        // Prefetched every other time: prefetching reads (sanitizers check where) but
        // changes no answer.
        if (seen % 2 == 0) {
          index.prefetch_rows(box);
          index.prefetch_shapes(box);
        }
        index.candidates(box, got);
        std::vector<ShapeId> got_ids;
        for (const IndexedShape& f : got) {
          got_ids.push_back(f.id);
          // The geometry, packed as the pair kernels take it.
          const float* g = f.g;
          switch (f.id.kind()) {
            case ShapeKind::segment:
              CHECK(scene.segment(f.id.index()) == Segment{{g[0], g[1]}, {g[2], g[3]}});
              break;
            case ShapeKind::circle:
              CHECK(scene.circle(f.id.index()) == Circle{{g[0], g[1]}, g[2]});
              break;
            case ShapeKind::box:
              CHECK(scene.box(f.id.index()) == Box{{g[0], g[1]}, {g[2], g[3]}});
              break;
          }
        }
        seen += touching.size();
        CHECK(std::adjacent_find(got_ids.begin(), got_ids.end(), std::greater_equal<>()) == got_ids.end());
        CHECK(std::includes(got_ids.begin(), got_ids.end(), touching.begin(), touching.end()));
        CHECK(std::includes(bounds_meeting.begin(), bounds_meeting.end(), got_ids.begin(), got_ids.end()));
      }
    }
  }
  CHECK(seen > 0);
  // An empty index prefetches nothing.
  GridIndex().prefetch_rows(Aabb{{0, 0}, {1, 1}});
  GridIndex().prefetch_shapes(Aabb{{0, 0}, {1, 1}});
}

// [serial]: every query runs on the calling thread (support/sanitizer_builds.hpp).
TEST_CASE("a grid index finds exactly the shapes a ray or a line meets, however far it comes from", "[grid][serial]") {
  std::size_t seen = 0;
  for (const auto& [name, scene] : test::broadphase_scenes(1500)) {
    const Aabb world = scene.bounds();
    const float x0 = world.min.x, y0 = world.min.y, x1 = world.max.x, y1 = world.max.y;
    const float xm = x0 / 2 + x1 / 2, ym = y0 / 2 + y1 / 2, w = x1 - x0, h = y1 - y0;
    // Origins inside, on the bounds' edges and corners, far outside; directions along the
    // axes, the diagonals, through other shapes' endpoints, tiny and huge, and zero; and
    // nearly level ones, whose x runs past 2^63 cells within a row (their rows' spans
    // must be cut to the extent before they become cell indices).
    constexpr float most = std::numeric_limits<float>::max(), least = std::numeric_limits<float>::denorm_min();
    std::vector<Vec2> origins = {{x0, y0}, {x1, y1}, {xm, ym}, {x0 - 1e6f, ym}, {xm, y1 + 3e7f}, {x0 - w, y0 - h}};
    std::vector<Vec2> directions = {
        {1, 0},         {-1, 0},       {0, 1},          {0, -1}, {1, 1},      {-1, 1},           {w, h},
        {3, -7},        {1e-30f, 1},   {1e30f, -1e30f}, {0, 0},  {1, 1e-30f}, {-0x1p101f, 2.5f}, {0x1p70f, -1},
        {-most, least}, {most, -least}};
    for (std::uint32_t i = 0; i < std::min<std::size_t>(scene.segment_count(), 12); ++i) {
      const Segment s = scene.segment(i * 11 % static_cast<std::uint32_t>(scene.segment_count()));
      origins.push_back(s.a);                                // starting on a shape's endpoint
      directions.push_back({s.b.x - s.a.x, s.b.y - s.a.y});  // along a segment's own line
    }
    for (std::uint32_t i = 0; i < std::min<std::size_t>(scene.box_count(), 6); ++i) {
      const Box b = scene.box(i);
      origins.push_back({b.min.x - 2, b.min.y - 2});  // through a box's corner on the diagonal
      origins.push_back(b.max);
    }
    for (float cell : {0.0f, 0.25f}) {
      FindPairsOptions o;
      o.cell_size = cell;
      const GridIndex index(scene, o);
      std::vector<ShapeId> got, want;
      auto check = [&](const auto& query, const char* what, std::size_t i) {
        INFO(name << ", cell " << cell << ", " << what << " " << i);
        want.clear();
        for_each_shape(scene, [&](ShapeId s, const auto& other) {
          if (intersects(query, other)) want.push_back(s);
        });
        index.touching(query, got);
        seen += want.size();
        CHECK(got == want);
        if constexpr (!std::is_same_v<std::decay_t<decltype(query)>, Line>) check_cast_candidates(index, query, want);
      };
      std::size_t i = 0;
      for (Vec2 p : origins)
        for (Vec2 d : directions) {
          check(Ray{p, d}, "ray", i);
          check(Line{p, d}, "line", i);
          if (const Vec2 e{p.x + d.x, p.y + d.y}; std::isfinite(e.x) && std::isfinite(e.y))
            check(Segment{p, e}, "segment cast", i);
          ++i;
        }
      // Rays aimed from far away at every shape's first point (corner, centre, endpoint).
      for_each_shape(scene, [&](ShapeId s, const auto& shape) {
        if (s.index() % 17 != 0) return;
        const Vec2 at = reinterpret_cast<const Vec2&>(shape);
        check(Ray{{x0 - 100, y0 - 37}, {at.x - (x0 - 100), at.y - (y0 - 37)}}, "aimed ray", s.index());
      });
    }
  }
  CHECK(seen > 0);
}

TEST_CASE("rays and lines that leave the float range find the disks that reach beyond it", "[grid]") {
  // A disk centred near +-FLT_MAX reaches past the float range; its bounds (and so its
  // cells) stop at the edge. A ray or a line leaving the range can meet it only out there,
  // where the walk along the cells never goes. The first scene is an adversarial check's
  // (a ray from (-FLT_MAX, 0) up and to the left meets the disk at x = -4.3e38 only);
  // then random disks at the four edges and corners, with long segments and small shapes
  // inside, against rays and lines from points near the edges in every direction, on
  // automatic and fine cells. touching() and the candidates against the exact tests.
  constexpr float top = std::numeric_limits<float>::max();
  std::vector<std::pair<Scene, std::vector<Ray>>> cases;
  {
    Scene scene;
    scene.add(Circle{{-0x1.fffffep+127f, 0x1.2ced32p+127f}, 0x1.ab50d2p+126f});
    scene.add(Segment{{-0x1.c363ccp+127f, 0}, {0x1.c363ccp+127f, 0x1.812f9cp+119f}});
    scene.add(Segment{{-0x1.c363ccp+127f, 0x1.ba5caep+127f}, {0x1.c363ccp+127f, 0x1.bbdddep+127f}});
    cases.push_back({scene, {Ray{{-top, 0}, {-1, 1}}}});
    Scene alone;
    alone.add(Circle{{-0x1.fffffep+127f, 0x1.2ced32p+127f}, 0x1.ab50d2p+126f});
    cases.push_back({alone, {Ray{{-top, 0}, {-1, 1}}}});
  }
  SplitMix64 random(11);
  auto u = [&] { return static_cast<float>(random.u()); };
  auto sign = [&] { return random.u() < 0.5 ? -1.0f : 1.0f; };
  for (int k = 0; k < 300; ++k) {
    Scene scene;
    for (int i = 0; i < 6; ++i) {  // at an edge (x or y near +-FLT_MAX), or a corner
      const int where = static_cast<int>(random.u() * 3);
      const float x = where == 1 ? (u() * 2 - 1) * top : sign() * top * (1 - u() * 0.1f);
      const float y = where == 0 ? (u() * 2 - 1) * top : sign() * top * (1 - u() * 0.1f);
      scene.add(Circle{{x, y}, top * (0.01f + 0.6f * u())});
    }
    for (int i = 0; i < 4; ++i)
      scene.add(Segment{{(u() * 2 - 1) * top, (u() * 2 - 1) * top}, {(u() * 2 - 1) * top, (u() * 2 - 1) * top}});
    for (int i = 0; i < 20; ++i) {
      const float x = (u() * 2 - 1) * top * 0.9f, y = (u() * 2 - 1) * top * 0.9f;
      scene.add(Box{{x, y}, {x + top * 0.01f, y + top * 0.01f}});
    }
    std::vector<Ray> rays;
    for (int i = 0; i < 20; ++i) {
      const Vec2 o{sign() * top * (1 - u() * 0.2f), (u() * 2 - 1) * top};
      const double angle = random.u() * 6.283185307179586;
      rays.push_back({i % 2 ? o : Vec2{o.y, o.x}, {static_cast<float>(std::cos(angle)), static_cast<float>(std::sin(angle))}});
    }
    cases.push_back({scene, rays});
  }
  std::size_t met = 0;
  std::vector<ShapeId> got, want;
  for (std::size_t c = 0; c < cases.size(); ++c) {
    const auto& [scene, rays] = cases[c];
    for (float cell : {0.0f, top / 64}) {
      FindPairsOptions o;
      o.cell_size = cell;
      const GridIndex index(scene, o);
      auto check = [&](const auto& query, const char* what, std::size_t i) {
        INFO("case " << c << ", cell " << cell << ", " << what << " " << i);
        want.clear();
        for_each_shape(scene, [&](ShapeId s, const auto& other) {
          if (intersects(query, other)) want.push_back(s);
        });
        index.touching(query, got);
        CHECK(got == want);
        met += want.size();
        if constexpr (std::is_same_v<std::decay_t<decltype(query)>, Ray>) check_cast_candidates(index, query, want);
      };
      for (std::size_t i = 0; i < rays.size(); ++i) {
        check(rays[i], "ray", i);
        check(Line{rays[i].origin, rays[i].direction}, "line", i);
      }
    }
  }
  CHECK(met > 1000);
}

TEST_CASE("a grid index with a margin finds exactly the pairs within that distance", "[grid]") {
  std::size_t seen = 0;
  for (const auto& [name, scene] : test::broadphase_scenes(800)) {
    const auto [index_scene, queries] = split(scene);
    for (float margin : {0.0f, 0.125f, 2.0f}) {
      std::vector<CrossPair> want;
      for_each_shape(queries, [&](ShapeId q, const auto& a) {
        for_each_shape(index_scene, [&](ShapeId s, const auto& b) {
          if (within_distance(a, b, margin)) want.push_back({q, s});
        });
      });
      seen += want.size();
      std::vector<CrossPair> got;
      GridIndex(index_scene).pairs_with(queries, got, margin);
      INFO(name << ", margin " << margin);
      CHECK(got.size() == want.size());
      CHECK(got == want);
    }
  }
  CHECK(seen > 0);
  std::vector<CrossPair> out;
  CHECK_THROWS_AS(GridIndex(Scene{}).pairs_with(Scene{}, out, -1.0f), Error);
}

TEST_CASE("the index a PairFinder keeps of a call's grid answers as a grid index built afresh", "[grid]") {
  tbb::global_control allow(tbb::global_control::max_allowed_parallelism, 8);
  for (const auto& [name, scene] : test::broadphase_scenes(1200)) {
    const auto [half, queries] = split(scene);
    const std::vector<CrossPair> want = brute_force_cross(queries, scene);
    const Ray ray{scene.bounds().min, {1.0f, 0.75f}};
    for (BroadPhase method : {BroadPhase::grid, BroadPhase::sweep_and_prune}) {
      for (float cell : {0.0f, 0.25f, 4.0f}) {
        FindPairsOptions o;
        o.method = method;
        o.cell_size = cell;
        o.threads = 2;
        INFO(name << ", " << (method == BroadPhase::grid ? "grid" : "sweep and prune") << ", cell " << cell);
        PairFinder finder(o);
        PairList pairs;
        GridIndex kept;
        // A call on another scene first: the second call replaces its index.
        finder.find_pairs(half, pairs, kept);
        CHECK(kept.size() == half.size());
        finder.find_pairs(scene, pairs, kept);
        CHECK(pairs == find_pairs(scene, o));
        CHECK(kept.size() == scene.size());
        std::vector<CrossPair> got;
        std::vector<ShapeId> hits, fresh_hits;
        finder.execute([&] { kept.pairs_with(queries, got); });
        CHECK(got == want);
        const GridIndex fresh(scene, o);
        CHECK(kept.cell_size() == fresh.cell_size());
        kept.touching(ray, hits);
        fresh.touching(ray, fresh_hits);
        CHECK(hits == fresh_hits);
      }
    }
  }
}

TEST_CASE("an index kept from a finder's call outlives the finder, and can be replaced by another's", "[grid]") {
  // The kept grid's memory is the finder's scratch blocks: the index keeps them alive
  // (under AddressSanitizer, a block given back to a destroyed finder is an error).
  GeneratorParams p;
  p.n = 20'000;
  p.seed = 5;
  const Scene scene = generate(Family::mixed, p);
  const GridIndex fresh(scene, FindPairsOptions{});
  const Segment probe{{100.0f, 100.0f}, {900.0f, 700.0f}};
  std::vector<ShapeId> want, got;
  fresh.touching(probe, want);
  REQUIRE(!want.empty());
  GridIndex kept;
  {
    PairFinder finder;
    PairList pairs;
    finder.find_pairs(scene, pairs, kept);
  }
  kept.touching(probe, got);
  CHECK(got == want);
  {
    // Replaced by another finder's index: the old grid goes back to the first finder's
    // (otherwise gone) blocks before they are let go.
    PairFinder other;
    PairList pairs;
    other.find_pairs(scene, pairs, kept);
  }
  kept.touching(probe, got);
  CHECK(got == want);
  kept = GridIndex();
  CHECK(kept.size() == 0);
}
