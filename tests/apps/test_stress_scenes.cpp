// The scenes of `hitgrid stress` (apps/cli/stress_scenes.hpp): exactly n shapes, the same
// bits for the same seed, and each adversarial layout is what its name says.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "hitgrid/core/detail/predicate_counters.hpp"
#include "hitgrid/core/shape_pair_test.hpp"
#include "stress_checks.hpp"
#include "stress_scenes.hpp"

using namespace hitgrid;
using namespace hitgrid::stress;

namespace {

/// The largest and the smallest non-zero magnitude of any float of the scene.
std::pair<float, float> magnitudes(const Scene& s) {
  float hi = 0.0f, lo = std::numeric_limits<float>::infinity();
  auto see = [&](const FloatArray& column) {
    for (std::size_t i = 0; i < column.size(); ++i) {
      const float v = std::fabs(column[i]);
      hi = std::max(hi, v);
      if (v != 0.0f) lo = std::min(lo, v);
    }
  };
  for (const FloatArray* c : {&s.segments().ax, &s.segments().ay, &s.segments().bx, &s.segments().by, &s.circles().cx,
                              &s.circles().cy, &s.circles().r, &s.boxes().minx, &s.boxes().miny, &s.boxes().maxx,
                              &s.boxes().maxy})
    see(*c);
  return {hi, lo};
}

}  // namespace

TEST_CASE("every stress layout makes exactly n shapes, the same bits for the same seed", "[stress]") {
  for (Layout layout : all_layouts) {
    INFO(layout_name(layout));
    CHECK(parse_layout(layout_name(layout)) == layout);
    for (std::uint64_t n : {0, 1, 2, 7, 1000}) {
      INFO(n);
      const Scene a = make_scene(layout, n, 3);
      CHECK(a.size() == n);
      CHECK(scene_hash(a) == scene_hash(make_scene(layout, n, 3)));
    }
    CHECK(scene_hash(make_scene(layout, 1000, 3)) != scene_hash(make_scene(layout, 1000, 4)));
  }
  CHECK_FALSE(parse_layout("spiral").has_value());
  CHECK(layout_max_n(Layout::one_cell, 1'000'000) < 10'000);
  CHECK(layout_max_n(Layout::uniform, 1'000'000) == 1'000'000);
}

TEST_CASE("the stress layouts reach the magnitudes they are named after", "[stress]") {
  auto [hi, lo] = magnitudes(make_scene(Layout::subnormal, 2000, 1));
  CHECK(hi < std::numeric_limits<float>::min());  // every value subnormal
  CHECK(lo == std::numeric_limits<float>::denorm_min());
  std::tie(hi, lo) = magnitudes(make_scene(Layout::near_max, 2000, 1));
  CHECK(hi >= 0x1p126f);
  std::tie(hi, lo) = magnitudes(make_scene(Layout::near_1e7, 2000, 1));
  CHECK(hi >= 1e7f);
  CHECK(hi < 2e7f);
  std::tie(hi, lo) = magnitudes(make_scene(Layout::near_1e_7, 2000, 1));
  CHECK(hi < 1e-3f);
  CHECK(lo < 2e-7f);
}

TEST_CASE("the adversarial stress layouts are full of exact degeneracies", "[stress]") {
  // Their pair tests must take the exact path often: touching, collinear, tangent.
  for (Layout layout : {Layout::lattice_mixed, Layout::collinear_chains, Layout::tangent_circles, Layout::near_1e7,
                        Layout::subnormal, Layout::near_max}) {
    INFO(layout_name(layout));
    const Scene scene = make_scene(layout, 3000, 2);
    // On this thread (the counters are per thread): every pair, serially.
    const std::uint64_t before = predicate_counters().exact_calls;
    std::uint64_t pairs = 0;
    const std::vector<ShapeId> ids = shapes_in_window(scene, scene.bounds());
    REQUIRE(ids.size() == scene.size());
    for (std::size_t i = 0; i < ids.size(); ++i)
      for (std::size_t j = i + 1; j < ids.size(); ++j) pairs += intersects(scene, ids[i], ids[j]);
    CHECK(pairs > 100);
    CHECK(predicate_counters().exact_calls - before > 50);
  }
}
