#include "support/pathological_scenes.hpp"

#include <algorithm>
#include <cmath>

#include "hitgrid/core/generators.hpp"
#include "hitgrid/core/splitmix64.hpp"

namespace hitgrid::test {
namespace {

Scene shifted(const Scene& base, float dx, float dy, Scene into = {}) {
  for (std::uint32_t i = 0; i < base.segment_count(); ++i) {
    Segment s = base.segment(i);
    into.add(Segment{{s.a.x + dx, s.a.y + dy}, {s.b.x + dx, s.b.y + dy}});
  }
  for (std::uint32_t i = 0; i < base.circle_count(); ++i) {
    Circle c = base.circle(i);
    into.add(Circle{{c.c.x + dx, c.c.y + dy}, c.r});
  }
  for (std::uint32_t i = 0; i < base.box_count(); ++i) {
    Box b = base.box(i);
    into.add(Box{{b.min.x + dx, b.min.y + dy}, {b.max.x + dx, b.max.y + dy}});
  }
  return into;
}

}  // namespace

std::vector<NamedScene> broadphase_scenes(std::uint64_t n) {
  std::vector<NamedScene> out;
  GeneratorParams p;
  p.n = n;
  p.seed = 1;
  for (Family f : all_families) out.push_back({std::string(family_name(f)), generate(f, p)});

  GeneratorParams half = p;
  half.n = n / 2;
  const Scene mixed_half = generate(Family::mixed, half);
  out.push_back({"two_clusters_1e7_apart", shifted(mixed_half, 1e7f, 1e7f, shifted(mixed_half, 0, 0))});

  {
    Scene s = generate(Family::uniform, p);
    const float side = std::sqrt(static_cast<float>(n));
    s.add(Segment{{0, 0}, {side, side}});
    s.add(Segment{{0, side}, {side, 0}});
    out.push_back({"world_diagonals", std::move(s)});
  }
  {
    Scene s;
    // Every copy collides with every other: at most 2000 copies (2 million pairs) keep the
    // answer checkable by brute force and small enough to write.
    for (std::uint64_t i = 0; i < std::min<std::uint64_t>(n / 8, 2000); ++i)
      s.add(Segment{{0.25f, 0.5f}, {0.75f, 0.125f}});
    out.push_back({"copies_of_one_segment", std::move(s)});
  }
  {
    GeneratorParams tiny = p;
    tiny.n = std::min<std::uint64_t>(n / 4, 2000);  // nearly every pair overlaps: keep it moderate
    tiny.length = 1e-3;
    tiny.density = static_cast<double>(tiny.n) * 1e6;  // world side 1e-3
    out.push_back({"all_in_one_cell", generate(Family::mixed, tiny)});
  }
  {
    // n parallel, disjoint horizontal segments stacked 1e-9 apart: all in one cell at any
    // cell size near their length, every bounding box overlapping in x, no pair at all.
    Scene s;
    for (std::uint64_t i = 0; i < n; ++i) {
      const float y = static_cast<float>(static_cast<double>(i) * 1e-9);
      s.add(Segment{{0.5f, y}, {0.501f, y}});
    }
    out.push_back({"stacked_in_one_cell", std::move(s)});
  }
  out.push_back({"near_1e7", shifted(generate(Family::mixed, p), 1.0e7f, -1.0e7f)});
  {
    Scene s;
    const auto g = static_cast<std::uint32_t>(std::sqrt(static_cast<double>(n))) / 2 + 2;
    for (std::uint64_t i = 0; i < n; ++i) {
      const auto x = static_cast<float>((i * 7) % g), y = static_cast<float>((i * 13 / 3) % g);
      switch (i % 3) {
        case 0:
          s.add(Segment{{x, y}, {x, y}});
          break;
        case 1:
          s.add(Circle{{x, y}, static_cast<float>(i % 2)});
          break;
        default:
          s.add(Box{{x, y}, {x + static_cast<float>(i % 2), y}});
          break;
      }
    }
    out.push_back({"zero_size_lattice", std::move(s)});
  }
  return out;
}

Scene crossed_world() {
  SplitMix64 rng(11);
  Scene crossed;
  const float side = 400.0f;
  for (int i = 0; i < 3000; ++i) {
    const float x = static_cast<float>(rng.u() * side), y = static_cast<float>(rng.u() * side);
    if (i % 25 == 0) {
      crossed.add(Segment{{x, 0.0f}, {x, side}});
    } else {
      const float dx = static_cast<float>(rng.u() * 2 - 1), dy = static_cast<float>(rng.u() * 2 - 1);
      crossed.add(Segment{{x, y}, {x + dx, y + dy}});
    }
  }
  return crossed;
}

}  // namespace hitgrid::test
