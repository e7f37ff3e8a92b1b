#include <catch2/catch.hpp>
#include <cmath>
#include <random>
#include <set>
#include <utility>

#include "grid_cells.hpp"
#include "hitgrid/core/intersects.hpp"
#include "hitgrid/core/predicates.hpp"

using namespace hitgrid;

namespace {

using Cell = std::pair<std::int64_t, std::int64_t>;  // (row, column)

std::set<Cell> listed_cells(const GridCells& g, const Segment& s) {
  std::set<Cell> out;
  g.for_each_segment_row(s, [&](std::int64_t row, CellSpan cols) {
    for (std::int64_t c = cols.lo; c <= cols.hi; ++c) out.insert({row, c});
  });
  return out;
}

/// Checks exactly, with the library's exact segment-box test on the closed cell square,
/// that every cell within one cell of the segment's bounding box that the segment touches
/// is listed. Returns the number of touched cells.
std::size_t check_coverage(const GridCells& g, const Segment& s) {
  const std::set<Cell> listed = listed_cells(g, s);
  const double h = g.cell_size();
  const CellSpan cols = g.span(std::min(s.a.x, s.b.x), std::max(s.a.x, s.b.x));
  const CellSpan rows = g.span(std::min(s.a.y, s.b.y), std::max(s.a.y, s.b.y));
  std::size_t touched = 0;
  for (std::int64_t r = rows.lo - 1; r <= rows.hi + 1; ++r) {
    for (std::int64_t c = cols.lo - 1; c <= cols.hi + 1; ++c) {
      const Box cell{
          {static_cast<float>(static_cast<double>(c) * h), static_cast<float>(static_cast<double>(r) * h)},
          {static_cast<float>(static_cast<double>(c + 1) * h), static_cast<float>(static_cast<double>(r + 1) * h)}};
      if (!intersects(s, cell)) continue;
      ++touched;
      if (!listed.count({r, c}))
        FAIL("cell (" << r << ", " << c << ") missed for segment " << std::hexfloat << s.a.x << " " << s.a.y << " "
                      << s.b.x << " " << s.b.y << " h " << h);
    }
  }
  return touched;
}

}  // namespace

TEST_CASE("segment cell lists hold every cell the closed segment touches, checked exactly", "[grid]") {
  std::mt19937_64 rng(42);
  std::uniform_int_distribution<int> small_int(-8, 8);
  auto small = [&](std::mt19937_64& r) { return static_cast<float>(small_int(r)); };
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  std::size_t touched = 0;
  for (int log2_cell : {-3, 0, 2}) {
    const GridCells g(log2_cell);
    const float h = std::ldexp(1.0f, log2_cell);
    for (int i = 0; i < 20000; ++i) {
      Segment s;
      switch (i % 5) {
        case 0:  // lattice points on cell corners and edges: touching at corners, along edges
          s = {{small(rng) * h, small(rng) * h}, {small(rng) * h, small(rng) * h}};
          break;
        case 1:  // along a cell edge
          s = {{small(rng) * h, small(rng) * h}, {small(rng) * h, 0}};
          s.b.y = s.a.y;
          break;
        case 2:  // through cell corners on a diagonal
          s = {{small(rng) * h, 0}, {0, 0}};
          s.a.y = s.a.x;
          s.b.x = s.b.y = small(rng) * h;
          break;
        case 3:  // random, a few cells long
          s = {{unit(rng) * 8 * h, unit(rng) * 8 * h}, {unit(rng) * 8 * h, unit(rng) * 8 * h}};
          break;
        default:  // one ulp off corners
          s = {{std::nextafter(small(rng) * h, 100.0f), small(rng) * h},
               {small(rng) * h, std::nextafter(small(rng) * h, -100.0f)}};
          break;
      }
      touched += check_coverage(g, s);
    }
  }
  CHECK(touched > 100000);
}

TEST_CASE("cell spans count closed cells: a coordinate on an edge touches both neighbours", "[grid]") {
  const GridCells g(0);
  CellSpan s = g.span(2.0, 2.0);
  CHECK(s.lo == 1);
  CHECK(s.hi == 2);
  s = g.span(2.5, 3.5);
  CHECK(s.lo == 2);
  CHECK(s.hi == 3);
  s = g.span(-0.5, -0.25);
  CHECK(s.lo == -1);
  CHECK(s.hi == -1);
  // A long diagonal occupies rows + columns cells, not rows x columns.
  const Segment diag{{0.5f, 0.25f}, {100.5f, 100.75f}};
  CHECK(g.segment_cell_count(diag) < 2 * 101 + 2);
}

TEST_CASE("line_may_meet keeps every box the exact line meets, and drops boxes well clear of it", "[grid]") {
  // Lines through two float points (a segment's, direction b - a in double) and along a
  // float direction (a ray's), against boxes on a lattice around them, at scales from
  // 2^-140 to 2^100 and offsets up to 2^24 units: corners on the line, one float step off
  // it, and far from it. The exact answer: some corner on the line, or corners on both
  // sides (orient2d, orient_along).
  std::mt19937_64 random(5);
  std::size_t met = 0, kept = 0, dropped = 0;
  for (int scale : {-140, -60, -10, 0, 12, 60, 100}) {
    const float u = std::ldexp(1.0f, scale);
    for (int trial = 0; trial < 3000; ++trial) {
      const float offset = (trial % 3 == 0 ? 0.0f : static_cast<float>(random() % (1u << 24))) * u;
      auto lattice = [&](int span) {
        return offset + static_cast<float>(static_cast<int>(random() % (2 * span + 1)) - span) * u;
      };
      auto nudged = [&](float x) {
        const int steps = static_cast<int>(random() % 5) - 2;
        for (int i = 0; i < std::abs(steps); ++i) x = std::nextafter(x, steps > 0 ? INFINITY : -INFINITY);
        return x;
      };
      const Vec2 a{lattice(8), lattice(8)}, b{lattice(8), lattice(8)};
      Vec2 c{nudged(lattice(10)), nudged(lattice(10))}, d{nudged(lattice(10)), nudged(lattice(10))};
      const Aabb box{{std::min(c.x, d.x), std::min(c.y, d.y)}, {std::max(c.x, d.x), std::max(c.y, d.y)}};
      const Vec2 corners[4] = {box.min, box.max, {box.min.x, box.max.y}, {box.max.x, box.min.y}};
      const Vec2 direction{b.x - a.x, b.y - a.y};  // rounded: the ray's own direction
      for (int as_ray = 0; as_ray < 2; ++as_ray) {
        int below = 0, above = 0;
        for (const Vec2 corner : corners) {
          const int side = as_ray ? orient_along(a, direction, corner) : orient2d(a, b, corner);
          below += side < 0;
          above += side > 0;
        }
        const bool exact = below != 4 && above != 4;
        const bool may = as_ray ? line_may_meet(a, direction.x, direction.y, box)
                                : line_may_meet(a, double{b.x} - a.x, double{b.y} - a.y, box);
        if (exact && !may)
          FAIL("box dropped that the line meets: scale 2^"
               << scale << std::hexfloat << " a " << a.x << " " << a.y << " b " << b.x << " " << b.y << " box "
               << box.min.x << " " << box.min.y << " " << box.max.x << " " << box.max.y << (as_ray ? " (ray)" : ""));
        met += exact;
        kept += may;
        dropped += !may;
      }
    }
  }
  CHECK(met > 10000);
  CHECK(dropped > 10000);        // the filter does drop boxes clear of the line
  CHECK(kept - met < met / 10);  // and keeps few it need not
}
