// The grid's cell sizes (cell_size.hpp): a requested size is obeyed (rounded down to a
// power of two), the automatic ones follow the header's rules on scenes whose extents and
// spacing are known by construction, the home-cell grid is given up for the tiled grid
// alone exactly when the large shapes would cross many rows, no cell is so small that its
// indices could lose exactness, and the scene's extent is the rectangle computed by hand.
#include <tbb/task_arena.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "cell_size.hpp"
#include "hitgrid/broadphase/brute_force.hpp"
#include "hitgrid/broadphase/find_pairs.hpp"
#include "hitgrid/core/generators.hpp"
#include "hitgrid/core/splitmix64.hpp"
#include "packed_shapes.hpp"
#include "support/pathological_scenes.hpp"

using namespace hitgrid;

namespace {

double cell_of(int log2_cell) { return std::ldexp(1.0, log2_cell); }

double max_abs(const SceneExtent& e) {
  return std::max({std::fabs(e.minx), std::fabs(e.maxx), std::fabs(e.miny), std::fabs(e.maxy)});
}

double mean_spacing(const SceneExtent& e, std::size_t n) {
  return std::sqrt((e.maxx - e.minx) * (e.maxy - e.miny) / static_cast<double>(n));
}

/// The shapes' extents (the larger side of each bounding box), ascending.
std::vector<float> sorted_extents(const Scene& scene) {
  const KindRanges kinds = KindRanges::of(scene);
  std::vector<float> out;
  for (std::uint32_t i = 0; i < scene.size(); ++i) {
    const Aabb b = record_of(scene, kinds, i).box;
    out.push_back(std::max(b.max.x - b.min.x, b.max.y - b.min.y));
  }
  std::sort(out.begin(), out.end());
  return out;
}

/// An n x n lattice of spacing `step` from the origin, one horizontal segment of length
/// `length` at each point (length 0: points).
Scene lattice_of_segments(int n, float step, float length) {
  Scene s;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const float x = static_cast<float>(i) * step, y = static_cast<float>(j) * step;
      s.add(Segment{{x, y}, {x + length, y}});
    }
  return s;
}

}  // namespace

TEST_CASE("a requested cell size is obeyed: the largest power of two at or below it", "[grid]") {
  GeneratorParams p;
  p.n = 2000;
  const Scene scene = generate(Family::uniform, p);
  const SceneExtent ext = scene_extent(scene);
  const UninitializedVector<ShapeRecord> shapes = pack_shapes(scene);
  struct Case {
    float requested;
    int log2_cell;
  };
  for (const Case c : {Case{1e-3f, -10}, Case{0.25f, -2}, Case{0.3f, -2}, Case{0.5f, -1}, Case{0.99f, -1},
                       Case{1.0f, 0}, Case{1.5f, 0}, Case{7.99f, 2}, Case{8.0f, 3}, Case{1000.0f, 9}}) {
    INFO("requested " << c.requested);
    const HomeCells home = choose_home_cells(scene, ext, c.requested);
    CHECK(home.log2_cell == c.log2_cell);
    CHECK(cell_of(home.log2_cell) <= c.requested);
    CHECK(cell_of(home.log2_cell + 1) > c.requested);
    CHECK(cell_of(home.log2_cell) >= minimum_cell(ext));
    CHECK(!home.many_large);
    CHECK(choose_log2_cell(shapes, scene_extent(shapes), c.requested) == c.log2_cell);
  }
}

TEST_CASE("the automatic home cell: the 95th percentile of the extents, rounded up to a power of two", "[grid]") {
  SECTION("3000 segments of extent exactly 0.75 at unit spacing: cell 1") {
    SplitMix64 rng(3);
    Scene s;
    const double side = std::sqrt(3000.0);
    for (int i = 0; i < 3000; ++i) {
      // Coordinates on a 1/8 grid below 64: x + 0.75 is exact.
      const auto x = static_cast<float>(std::floor(rng.u() * side * 8) / 8);
      const auto y = static_cast<float>(std::floor(rng.u() * side * 8) / 8);
      if (i % 2 == 0)
        s.add(Segment{{x, y}, {x + 0.75f, y}});
      else
        s.add(Segment{{x, y}, {x + 0.75f, y - 0.5f}});  // extent 0.75 along x
    }
    const HomeCells home = choose_home_cells(s, scene_extent(s), 0.0f);
    CHECK(home.log2_cell == 0);
    CHECK(!home.many_large);
  }
  SECTION("97% boxes of extent 0.375, 3% segments of extent 40: cell 0.5") {
    Scene s;
    for (int i = 0; i < 4000; ++i) {
      const auto x = static_cast<float>(i % 64), y = static_cast<float>(i / 64);
      if (i % 33 == 0)
        s.add(Segment{{x, y}, {x, y + 40.0f}});
      else
        s.add(Box{{x, y}, {x + 0.375f, y + 0.25f}});
    }
    // The percentile's rank, (4000 - 1) * 95 / 100, falls among the boxes.
    REQUIRE(s.segment_count() * 100 < 5 * s.size());
    const HomeCells home = choose_home_cells(s, scene_extent(s), 0.0f);
    CHECK(home.log2_cell == -1);
  }
  SECTION("points 8 apart: a quarter of the mean spacing (7.84 / 4), cell 2") {
    const Scene s = lattice_of_segments(50, 8.0f, 0.0f);
    const SceneExtent ext = scene_extent(s);
    REQUIRE(mean_spacing(ext, s.size()) == Approx(392.0 / 50));
    CHECK(choose_home_cells(s, ext, 0.0f).log2_cell == 1);
  }
  SECTION("every family and pathological layout: the smallest power of two at or above the rule's size") {
    for (const auto& [name, scene] : test::broadphase_scenes(3000)) {
      INFO(name);
      // At most 4096 shapes: the sample is every shape, so the percentile is known here.
      REQUIRE(scene.size() <= 4096);
      const std::vector<float> extents = sorted_extents(scene);
      const double q95 = extents[(extents.size() - 1) * 95 / 100];
      const SceneExtent ext = scene_extent(scene);
      const double size = std::max({q95, mean_spacing(ext, scene.size()) / 4, minimum_cell(ext)});
      const double cell = cell_of(choose_home_cells(scene, ext, 0.0f).log2_cell);
      CHECK(cell >= q95);
      CHECK(cell >= size);
      CHECK(cell / 2 < size);
    }
  }
}

TEST_CASE("the tiled grid alone when the large shapes would cross many rows; for a requested cell, only past the budget", "[grid]") {
  GeneratorParams p;
  p.n = 20'000;
  for (Family f : {Family::uniform, Family::long_tail}) {
    INFO(family_name(f));
    const Scene scene = generate(f, p);
    CHECK(!choose_home_cells(scene, scene_extent(scene), 0.0f).many_large);
  }
  // One shape in 25 crosses the whole world: the cell stays a quarter of the mean spacing
  // (400 / sqrt(3000) / 4 = 1.83 -> 2; the long segments are too few to move the
  // percentile), and those 120 segments cross 201 rows each, about 8 per shape.
  const Scene crossed = test::crossed_world();
  const SceneExtent ext = scene_extent(crossed);
  const HomeCells home = choose_home_cells(crossed, ext, 0.0f);
  CHECK(home.many_large);
  CHECK(home.log2_cell == 1);
  // A requested cell is obeyed: even on cells of 2^-12 the 120 long segments could have
  // at most 120 x 2,880 spans over the rows of the 2,880 small shapes, within 2^20.
  for (float requested : {0x1p-12f, 0.125f, 1.0f, 4.0f}) {
    INFO("requested " << requested);
    CHECK(!choose_home_cells(crossed, ext, requested).many_large);
  }
  // Past the budget: 2,000 points in 2,000 rows and 1,000 segments across all of them
  // could take 2 million spans, more than max(2^20, 16 x 3,000); the tiled grid alone runs,
  // and finds the same pairs.
  Scene spans;
  for (int i = 0; i < 2000; ++i) spans.add(Circle{{static_cast<float>(i % 7), static_cast<float>(i)}, 0.0f});
  for (int i = 0; i < 1000; ++i)
    spans.add(Segment{{static_cast<float>(i) * 0.01f, -1.0f}, {static_cast<float>(i) * 0.01f + 3.0f, 2001.0f}});
  const SceneExtent spans_ext = scene_extent(spans);
  CHECK(choose_home_cells(spans, spans_ext, 0.5f).many_large);
  CHECK(!choose_home_cells(spans, spans_ext, 64.0f).many_large);
  FindPairsOptions o;
  o.cell_size = 0.5f;
  FindPairsReport report;
  CHECK(find_pairs(spans, o, &report) == brute_force_pairs(spans));
  CHECK(report.small_shapes == 0);
  CHECK(report.large_shapes == spans.size());
}

TEST_CASE("the automatic tiled cell: 2.5 median extents, within 1 to 4 mean spacings, nearest power of two", "[grid]") {
  struct Case {
    const char* what;
    Scene scene;
    int log2_cell;
  };
  const Case cases[] = {
      // Median extent 0: the spacing, 7.84 -> 8.
      {"points 8 apart", lattice_of_segments(50, 8.0f, 0.0f), 3},
      // 2.5 x 6 = 15 (spacing 7.9, 4 spacings 31.6) -> 16.
      {"segments of 6, 8 apart", lattice_of_segments(50, 8.0f, 6.0f), 4},
      // 2.5 x 20 = 50 above 4 spacings (4 x 2.15 = 8.6) -> 8.
      {"segments of 20, 2 apart", lattice_of_segments(50, 2.0f, 20.0f), 3},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    const UninitializedVector<ShapeRecord> shapes = pack_shapes(c.scene);
    CHECK(choose_log2_cell(shapes, scene_extent(shapes), 0.0f) == c.log2_cell);
  }
  for (const auto& [name, scene] : test::broadphase_scenes(3000)) {
    INFO(name);
    REQUIRE(scene.size() <= 4096);  // the sample is every shape: the median is known
    const UninitializedVector<ShapeRecord> shapes = pack_shapes(scene);
    const SceneExtent ext = scene_extent(shapes);
    const double spacing = mean_spacing(ext, shapes.size());
    const std::vector<float> extents = sorted_extents(scene);
    const double median = extents[extents.size() / 2];
    const double size = std::max(std::min(2.5 * median, 4 * spacing), spacing);
    const int log2_cell = choose_log2_cell(shapes, ext, 0.0f);
    CHECK(std::fabs(static_cast<double>(log2_cell) - std::log2(size)) <= 0.5 + 1e-9);
    CHECK(cell_of(log2_cell) >= spacing / std::sqrt(2.0));
    CHECK(cell_of(log2_cell) <= 4 * spacing * std::sqrt(2.0));
  }
}

TEST_CASE("minimum_cell keeps cell indices exact and small", "[grid]") {
  const SceneExtent near_1e7{1.0e7, -1.0e7 - 100, 1.0e7 + 100, -1.0e7};
  CHECK(minimum_cell(near_1e7) >= (1.0e7 + 100) * 0x1p-50);
  CHECK(minimum_cell(near_1e7) >= 100 * 0x1p-30);
  const SceneExtent wide{-1.0e9, 0, 1.0e9, 1};
  CHECK(minimum_cell(wide) >= 2.0e9 * 0x1p-30);
  CHECK(minimum_cell(wide) >= 1.0e9 * 0x1p-50);
  const SceneExtent point{0, 0, 0, 0};
  CHECK(minimum_cell(point) > 0.0);

  // The automatic cells of a world far from the origin.
  for (const auto& [name, scene] : test::broadphase_scenes(3000)) {
    INFO(name);
    const SceneExtent ext = scene_extent(scene);
    const UninitializedVector<ShapeRecord> shapes = pack_shapes(scene);
    CHECK(cell_of(choose_home_cells(scene, ext, 0.0f).log2_cell) >= max_abs(ext) * 0x1p-50);
    CHECK(cell_of(choose_log2_cell(shapes, ext, 0.0f)) >= max_abs(ext) * 0x1p-50);
  }
}

// A requested size below minimum_cell(ext) must give the power of two at or above the
// minimum, not below it (the minimum keeps |coordinate| / side < 2^50 and columns < 2^30):
// near 1e7 with width 10, minimum_cell is 9.31e-9 and the cell 2^-26, not 2^-27; a world
// 2e9 wide has minimum_cell 1.86 and cell 2, not 1. Both choose_home_cells and
// choose_log2_cell.
TEST_CASE("a requested cell far too small is raised to minimum_cell", "[grid]") {
  Scene near_1e7;
  for (int i = 0; i < 100; ++i) {
    const float x = 1.0e7f + static_cast<float>(i % 10), y = -1.0e7f + static_cast<float>(i / 10);
    near_1e7.add(Segment{{x, y}, {x + 1, y + 1}});
  }
  Scene wide;
  wide.add(Segment{{-1.0e9f, 0}, {-1.0e9f, 1}});
  wide.add(Segment{{1.0e9f, 0}, {1.0e9f, 1}});
  for (const Scene* scene : {&near_1e7, &wide}) {
    const SceneExtent ext = scene_extent(*scene);
    const UninitializedVector<ShapeRecord> shapes = pack_shapes(*scene);
    INFO("extent [" << ext.minx << ", " << ext.maxx << "] x [" << ext.miny << ", " << ext.maxy << "], minimum_cell "
                    << minimum_cell(ext));
    for (float requested : {1e-12f, 1e-9f}) {
      INFO("requested " << requested);
      const double home = cell_of(choose_home_cells(*scene, ext, requested).log2_cell);
      const double tiled = cell_of(choose_log2_cell(shapes, ext, requested));
      INFO("home cell " << home << ", tiled cell " << tiled);
      CHECK(home >= max_abs(ext) * 0x1p-50);
      CHECK(tiled >= max_abs(ext) * 0x1p-50);
      CHECK(home >= minimum_cell(ext));
      CHECK(tiled >= minimum_cell(ext));
    }
  }
}

TEST_CASE("scene_extent of a scene and of its records: the rectangle computed by hand", "[grid]") {
  constexpr float inf = std::numeric_limits<float>::infinity();
  Scene s;
  s.add(Segment{{1, 2}, {-3, 5}});  // x [-3, 1], y [2, 5]
  s.add(Circle{{10, -1}, 2});       // bounds one float step outside [8, 12] x [-3, 1] (aabb.hpp)
  s.add(Box{{0, 0}, {4, 20}});      // x [0, 4], y [0, 20]
  s.add(Circle{{-2, 3}, 0});        // a point inside
  const double minx = -3, miny = std::nextafter(-3.0f, -inf), maxx = std::nextafter(12.0f, inf), maxy = 20;
  for (const SceneExtent& e : {scene_extent(s), scene_extent(pack_shapes(s))}) {
    CHECK(e.minx == minx);
    CHECK(e.miny == miny);
    CHECK(e.maxx == maxx);
    CHECK(e.maxy == maxy);
  }

  const Scene empty;
  for (const SceneExtent& e : {scene_extent(empty), scene_extent(pack_shapes(empty))}) {
    CHECK(e.minx == inf);
    CHECK(e.miny == inf);
    CHECK(e.maxx == -inf);
    CHECK(e.maxy == -inf);
  }

  // Larger scenes, several of the parallel reduction's blocks, against a plain loop.
  GeneratorParams p;
  p.n = 50'000;
  for (Family f : all_families) {
    INFO(family_name(f));
    const Scene scene = generate(f, p);
    const KindRanges kinds = KindRanges::of(scene);
    SceneExtent want;
    for (std::uint32_t i = 0; i < scene.size(); ++i) want.add(record_of(scene, kinds, i).box);
    const UninitializedVector<ShapeRecord> shapes = pack_shapes(scene);
    for (int threads : {1, 2}) {
      SceneExtent of_records, of_scene;
      tbb::task_arena(threads).execute([&] {
        of_records = scene_extent(shapes);
        of_scene = scene_extent(scene);
      });
      for (const SceneExtent& e : {of_records, of_scene}) {
        CHECK(e.minx == want.minx);
        CHECK(e.miny == want.miny);
        CHECK(e.maxx == want.maxx);
        CHECK(e.maxy == want.maxy);
      }
    }
  }
}
