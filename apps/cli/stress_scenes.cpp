#include "stress_scenes.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "hitgrid/core/generators.hpp"
#include "hitgrid/core/splitmix64.hpp"

namespace hitgrid::stress {
namespace {

constexpr std::array<std::string_view, all_layouts.size()> layout_names = {
    "uniform",      "clustered", "long_tail", "mixed",     "lattice",   "lattice_mixed", "collinear_chains",
    "tangent_circles", "huge_segment", "one_cell", "near_1e7", "near_1e_7", "subnormal", "near_max"};

/// Draws from SplitMix64 in the integer ranges the layouts need.
class Draw {
 public:
  explicit Draw(std::uint64_t seed) : rng_(seed) {}
  /// Uniform in [lo, hi] (the modulo bias is irrelevant here).
  long between(long lo, long hi) {
    return lo + static_cast<long>(rng_.next() % static_cast<std::uint64_t>(hi - lo + 1));
  }
  bool chance(unsigned one_in) { return rng_.next() % one_in == 0; }
  double u() { return rng_.u(); }

 private:
  SplitMix64 rng_;
};

/// Integer "units" mapped to floats by x -> offset + x * 2^exponent. Exact as long as the
/// result needs at most 24 significant bits, which every caller keeps to: the mapping
/// keeps every exact degeneracy of the integer construction.
struct Frame {
  int exponent = 0;
  double offset_x = 0.0, offset_y = 0.0;
  float x(double units) const { return static_cast<float>(offset_x + std::ldexp(units, exponent)); }
  float y(double units) const { return static_cast<float>(offset_y + std::ldexp(units, exponent)); }
  float length(double units) const { return static_cast<float>(std::ldexp(units, exponent)); }
};

void add_segment(Scene& s, const Frame& f, long ax, long ay, long bx, long by) {
  s.add(Segment{{f.x(static_cast<double>(ax)), f.y(static_cast<double>(ay))},
                {f.x(static_cast<double>(bx)), f.y(static_cast<double>(by))}});
}
void add_circle(Scene& s, const Frame& f, long cx, long cy, long r) {
  s.add(Circle{{f.x(static_cast<double>(cx)), f.y(static_cast<double>(cy))}, f.length(static_cast<double>(r))});
}
void add_box(Scene& s, const Frame& f, long x0, long y0, long x1, long y1) {
  s.add(Box{{f.x(static_cast<double>(x0)), f.y(static_cast<double>(y0))},
            {f.x(static_cast<double>(x1)), f.y(static_cast<double>(y1))}});
}

/// The side of the integer lattice for n shapes: about one shape per unit cell.
long lattice_side(std::uint64_t n) {
  return std::max(4L, static_cast<long>(std::sqrt(static_cast<double>(n))));
}

/// Segments, circles and boxes on small integers in [-G/2, G/2 + 2] (G = lattice_side):
/// shared endpoints and corners, collinear overlaps, tangencies along the axes and
/// zero-size shapes of every kind.
void lattice_mixed(Scene& scene, std::uint64_t n, std::uint64_t seed, const Frame& f) {
  Draw d(seed);
  const long g = lattice_side(n), lo = -g / 2, hi = g / 2;
  for (std::uint64_t i = 0; i < n; ++i) {
    const long x = d.between(lo, hi), y = d.between(lo, hi);
    switch (d.between(0, 2)) {
      case 0:
        add_segment(scene, f, x, y, x + d.between(-2, 2), y + d.between(-2, 2));
        break;
      case 1:
        add_circle(scene, f, x, y, d.between(0, 2));
        break;
      default:
        add_box(scene, f, x, y, x + d.between(0, 2), y + d.between(0, 2));
        break;
    }
  }
}

/// The exponent that puts lattice_mixed's largest coordinate (at most G/2 + 4 units) just
/// below 2^127, so that the scene spans nearly all of float32's range.
int near_max_exponent(std::uint64_t n) {
  const double extent = static_cast<double>(lattice_side(n) / 2 + 4);
  return 127 - static_cast<int>(std::ceil(std::log2(extent)));
}

Scene standard(Family family, std::uint64_t n, std::uint64_t seed) {
  GeneratorParams p;
  p.n = n;
  p.seed = seed;
  return generate(family, p);
}

/// Every shape of `from`, mapped by x -> x * scale + (dx, dy) (rounded to float once).
void append_mapped(Scene& into, const Scene& from, double scale, double dx, double dy) {
  auto px = [&](float v) { return static_cast<float>(static_cast<double>(v) * scale + dx); };
  auto py = [&](float v) { return static_cast<float>(static_cast<double>(v) * scale + dy); };
  for (std::uint32_t i = 0; i < from.segment_count(); ++i) {
    const Segment s = from.segment(i);
    into.add(Segment{{px(s.a.x), py(s.a.y)}, {px(s.b.x), py(s.b.y)}});
  }
  for (std::uint32_t i = 0; i < from.circle_count(); ++i) {
    const Circle c = from.circle(i);
    into.add(Circle{{px(c.c.x), py(c.c.y)}, static_cast<float>(static_cast<double>(c.r) * scale)});
  }
  for (std::uint32_t i = 0; i < from.box_count(); ++i) {
    const Box b = from.box(i);
    into.add(Box{{px(b.min.x), py(b.min.y)}, {px(b.max.x), py(b.max.y)}});
  }
}

/// Lines of integer direction, each carrying a chain of segments a + k d .. a + (k + len) d:
/// consecutive ones touch end to end, others overlap or leave a gap, some are points; one
/// endpoint in 16 is moved by one float step (a one-ulp near miss or overlap).
Scene collinear_chains(std::uint64_t n, std::uint64_t seed) {
  Draw d(seed);
  Frame f;
  f.exponent = static_cast<int>(d.between(-20, 20));
  const long g = lattice_side(n);
  Scene scene;
  std::uint64_t made = 0;
  while (made < n) {
    const long x0 = d.between(-g, g), y0 = d.between(-g, g);
    long dx = d.between(-3, 3), dy = d.between(-3, 3);
    if (dx == 0 && dy == 0) dx = 1;
    const long per_line = d.between(2, 40);
    long k = d.between(0, 4);
    for (long j = 0; j < per_line && made < n; ++j, ++made) {
      const long len = d.between(0, 4);
      Segment s{{f.x(static_cast<double>(x0 + k * dx)), f.y(static_cast<double>(y0 + k * dy))},
                {f.x(static_cast<double>(x0 + (k + len) * dx)), f.y(static_cast<double>(y0 + (k + len) * dy))}};
      if (d.chance(16)) s.b.x = std::nextafter(s.b.x, d.chance(2) ? 1e30f : -1e30f);
      scene.add(s);
      k += len + d.between(-2, 2);  // the next one touches, overlaps or leaves a gap
    }
  }
  return scene;
}

/// Circles exactly tangent (from outside or inside) to circles, segments, box edges and
/// box corners, on integers, through the Pythagorean triples; one partner in four is moved
/// by one float step.
Scene tangent_circles(std::uint64_t n, std::uint64_t seed) {
  static constexpr long triples[][3] = {{3, 4, 5}, {5, 12, 13}, {8, 15, 17}, {7, 24, 25}, {1, 0, 1}};
  Draw d(seed);
  Frame f;
  f.exponent = static_cast<int>(d.between(-12, 12));
  const long g = 8 * lattice_side(n);
  Scene scene;
  std::uint64_t made = 0;
  auto nudge = [&](float v) { return d.chance(4) ? std::nextafter(v, d.chance(2) ? 1e30f : -1e30f) : v; };
  while (made < n) {
    const long cx = d.between(-g, g), cy = d.between(-g, g);
    const auto& tr = triples[d.between(0, 4)];
    const long sx = d.chance(2) ? 1 : -1, sy = d.chance(2) ? 1 : -1;
    const bool swap = d.chance(2);
    const long t = d.between(1, 3);
    const long ux = sx * t * (swap ? tr[1] : tr[0]), uy = sy * t * (swap ? tr[0] : tr[1]), dist = t * tr[2];
    // The base circle; its partner touches it at exactly one point.
    const long r1 = d.between(0, dist);
    add_circle(scene, f, cx, cy, r1);
    ++made;
    if (made == n) break;
    switch (d.between(0, 4)) {
      case 0:  // externally tangent circle: |c2 - c1| = r1 + r2
        scene.add(Circle{{nudge(f.x(static_cast<double>(cx + ux))), f.y(static_cast<double>(cy + uy))},
                         f.length(static_cast<double>(dist - r1))});
        break;
      case 1:  // internally tangent: |c2 - c1| = r2 - r1
        scene.add(Circle{{f.x(static_cast<double>(cx + ux)), f.y(static_cast<double>(cy + uy))},
                         nudge(f.length(static_cast<double>(dist + r1)))});
        break;
      case 2: {  // a segment tangent at the circle's top, or ending on the circle at c + u
        if (d.chance(2)) {
          scene.add(Segment{{f.x(static_cast<double>(cx - 3)), nudge(f.y(static_cast<double>(cy + r1)))},
                            {f.x(static_cast<double>(cx + 3)), f.y(static_cast<double>(cy + r1))}});
        } else {
          // r1 drawn up to dist; the endpoint c + u is on the circle when r1 == dist.
          scene.add(Segment{{nudge(f.x(static_cast<double>(cx + ux))), f.y(static_cast<double>(cy + uy))},
                            {f.x(static_cast<double>(cx + 2 * ux)), f.y(static_cast<double>(cy + 2 * uy))}});
        }
        break;
      }
      case 3:  // a box whose left edge touches the circle's rightmost point
        scene.add(Box{{nudge(f.x(static_cast<double>(cx + r1))), f.y(static_cast<double>(cy - 1))},
                      {f.x(static_cast<double>(cx + r1 + 2)), f.y(static_cast<double>(cy + 1))}});
        break;
      default: {  // a box with a corner at c + u, reaching away from the centre
        const float kx = f.x(static_cast<double>(cx + ux)), ky = f.y(static_cast<double>(cy + uy));
        const float fx = f.x(static_cast<double>(cx + ux + sx * 3)), fy = f.y(static_cast<double>(cy + uy + sy * 3));
        scene.add(Box{{nudge(std::min(kx, fx)), std::min(ky, fy)}, {std::max(kx, fx), std::max(ky, fy)}});
        break;
      }
    }
    ++made;
  }
  return scene;
}

/// A uniform scene and up to three shapes across its whole world: the two diagonals, a
/// horizontal line wider than the world, or a box or a circle covering all of it.
Scene huge_segment(std::uint64_t n, std::uint64_t seed) {
  Draw d(seed);
  const std::uint64_t extra = std::min<std::uint64_t>(n, static_cast<std::uint64_t>(d.between(1, 3)));
  Scene base = standard(Family::uniform, n - extra, seed);
  const float side = static_cast<float>(std::sqrt(static_cast<double>(std::max<std::uint64_t>(n, 1))));
  for (std::uint64_t i = 0; i < extra; ++i) {
    switch (d.between(0, 4)) {
      case 0:
        base.add(Segment{{0, 0}, {side, side}});
        break;
      case 1:
        base.add(Segment{{0, side}, {side, 0}});
        break;
      case 2:
        base.add(Segment{{-side, side / 2}, {2 * side, side / 2}});
        break;
      case 3:
        base.add(Box{{-1, -1}, {side + 1, side + 1}});
        break;
      default:
        base.add(Circle{{side / 2, side / 2}, side});
        break;
    }
  }
  return base;
}

/// Half: a mixed scene in a world of side 1e-3 with shapes of size 1e-3 (nearly every pair
/// touches). Half: parallel horizontal segments stacked 1e-9 apart (none touches).
Scene one_cell(std::uint64_t n, std::uint64_t seed) {
  GeneratorParams tiny;
  tiny.n = n / 2;
  tiny.seed = seed;
  tiny.length = 1e-3;
  tiny.density = static_cast<double>(std::max<std::uint64_t>(tiny.n, 1)) * 1e6;
  Scene scene = generate(Family::mixed, tiny);
  for (std::uint64_t i = 0; i < n - n / 2; ++i) {
    const float y = static_cast<float>(static_cast<double>(i) * 1e-9);
    scene.add(Segment{{5e-4f, y}, {5.01e-4f, y}});
  }
  return scene;
}

/// Half lattice_mixed in `exact` (degeneracies kept), half the mixed family mapped by
/// x * scale + offset and rounded (random floats at that magnitude).
Scene scaled(std::uint64_t n, std::uint64_t seed, const Frame& exact, double scale, double offset) {
  Scene scene;
  lattice_mixed(scene, n / 2, seed, exact);
  append_mapped(scene, standard(Family::mixed, n - n / 2, seed + 1), scale, offset, offset);
  return scene;
}

}  // namespace

std::string_view layout_name(Layout layout) { return layout_names[static_cast<std::size_t>(layout)]; }

std::optional<Layout> parse_layout(std::string_view name) {
  for (Layout l : all_layouts)
    if (layout_name(l) == name) return l;
  return std::nullopt;
}

std::uint64_t layout_max_n(Layout layout, std::uint64_t max_n) {
  // one_cell: about n^2 / 8 pairs from its crowded half.
  return layout == Layout::one_cell ? std::min<std::uint64_t>(max_n, 3000) : max_n;
}

Scene make_scene(Layout layout, std::uint64_t n, std::uint64_t seed) {
  switch (layout) {
    case Layout::uniform:
      return standard(Family::uniform, n, seed);
    case Layout::clustered:
      return standard(Family::clustered, n, seed);
    case Layout::long_tail:
      return standard(Family::long_tail, n, seed);
    case Layout::mixed:
      return standard(Family::mixed, n, seed);
    case Layout::lattice:
      return standard(Family::lattice, n, seed);
    case Layout::lattice_mixed: {
      Scene s;
      lattice_mixed(s, n, seed, Frame{});
      return s;
    }
    case Layout::collinear_chains:
      return collinear_chains(n, seed);
    case Layout::tangent_circles:
      return tangent_circles(n, seed);
    case Layout::huge_segment:
      return huge_segment(n, seed);
    case Layout::one_cell:
      return one_cell(n, seed);
    case Layout::near_1e7:
      return scaled(n, seed, Frame{0, 1e7, 1e7}, 1.0, 1e7);
    case Layout::near_1e_7:
      return scaled(n, seed, Frame{-23, 0.0, 0.0}, 1e-7, 0.0);
    case Layout::subnormal: {
      Scene s;
      lattice_mixed(s, n, seed, Frame{-149, 0.0, 0.0});
      return s;
    }
    case Layout::near_max: {
      // And up to four circles of radius 2^126 centred near the corners, which reach past
      // FLT_MAX (their bounds stop there, core/aabb.hpp).
      Scene s;
      const std::uint64_t big = std::min<std::uint64_t>(n, 4);
      lattice_mixed(s, n - big, seed, Frame{near_max_exponent(n), 0.0, 0.0});
      Draw d(seed + 1);
      for (std::uint64_t i = 0; i < big; ++i)
        s.add(Circle{{d.chance(2) ? 0x1.8p127f : -0x1.8p127f, d.chance(2) ? 0x1.cp127f : -0x1.cp127f}, 0x1p126f});
      return s;
    }
  }
  return {};
}

}  // namespace hitgrid::stress
