// Contract 1 at both ends of float32 (docs/contracts.md): scenes whose every coordinate is
// subnormal (down to 2^-149), and scenes reaching FLT_MAX (shapes at +-3.4e38, circles
// reaching past it, a segment across the whole float plane), found by find_pairs on every
// ISA, thread count and a range of cell sizes, equal the independent GMP reference pair for
// pair. GridIndex queries (what a World's queries use) are checked on the same scenes.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <vector>

#include "hitgrid/broadphase/find_pairs.hpp"
#include "hitgrid/broadphase/grid_index.hpp"
#include "hitgrid/core/splitmix64.hpp"
#include "support/exact_reference.hpp"

using namespace hitgrid;

namespace {

/// Shapes on small integers (-k..k) times 2^e: shared points, collinear overlaps, tangent
/// circles, zero-size shapes of every kind, all exact at any e.
Scene lattice_times(int e, int k, std::uint64_t seed, int count) {
  SplitMix64 r(seed);
  auto v = [&] { return std::ldexp(static_cast<float>(static_cast<int>(r.next() % (2 * k + 1)) - k), e); };
  auto small = [&] { return std::ldexp(static_cast<float>(r.next() % 3), e); };
  Scene s;
  for (int i = 0; i < count; ++i) {
    const float x = v(), y = v();
    switch (r.next() % 3) {
      case 0:
        s.add(Segment{{x, y}, {x + small() - small(), y + small() - small()}});
        break;
      case 1:
        s.add(Circle{{x, y}, small()});
        break;
      default:
        s.add(Box{{x, y}, {x + small(), y + small()}});
        break;
    }
  }
  return s;
}

std::vector<ShapeId> ids_of(const Scene& s) {
  std::vector<ShapeId> ids;
  for (ShapeKind kind : {ShapeKind::segment, ShapeKind::circle, ShapeKind::box})
    for (std::uint32_t i = 0; i < s.count(kind); ++i) ids.emplace_back(kind, i);
  return ids;
}

PairList gmp_pairs(const Scene& s) {
  const std::vector<ShapeId> ids = ids_of(s);
  PairList out;
  for (std::size_t i = 0; i < ids.size(); ++i)
    for (std::size_t j = i + 1; j < ids.size(); ++j)
      if (reference::intersects(s, ids[i], ids[j])) out.emplace_back(ids[i], ids[j]);
  return out;
}

void check_everywhere(const Scene& scene, const std::vector<float>& cells) {
  const PairList want = gmp_pairs(scene);
  for (Isa isa : supported_isas())
    for (unsigned threads : {1u, 2u, 3u})
      for (float cell : cells) {
        INFO(isa_name(isa) << ", " << threads << " threads, cell " << cell);
        FindPairsOptions o;
        o.isa = isa;
        o.threads = threads;
        o.cell_size = cell;
        CHECK(find_pairs(scene, o) == want);
      }
  // Each shape as a query of the index of all of them: itself and its pairs.
  const GridIndex index(scene);
  std::vector<ShapeId> got;
  for (ShapeId id : ids_of(scene)) {
    std::vector<ShapeId> expect;
    for (ShapeId other : ids_of(scene))
      if (other == id || reference::intersects(scene, id, other)) expect.push_back(other);
    switch (id.kind()) {
      case ShapeKind::segment: index.touching(scene.segment(id.index()), got); break;
      case ShapeKind::circle: index.touching(scene.circle(id.index()), got); break;
      default: index.touching(scene.box(id.index()), got); break;
    }
    INFO(id.index());
    CHECK(got == expect);
  }
}

}  // namespace

TEST_CASE("every coordinate subnormal: pairs exact down to 2^-149", "[grid][extreme]") {
  constexpr float tiny = std::numeric_limits<float>::denorm_min();
  for (std::uint64_t seed : {1, 2, 3}) {
    Scene s = lattice_times(-149, 40, seed, 400);
    // One-step near misses and touches at the smallest spacing there is.
    s.add(Segment{{0, 0}, {tiny, tiny}});
    s.add(Segment{{2 * tiny, 2 * tiny}, {3 * tiny, 0}});
    s.add(Circle{{-5 * tiny, 0}, tiny});
    s.add(Box{{-4 * tiny, -tiny}, {-4 * tiny, tiny}});
    check_everywhere(s, {0.0f, tiny, 0x1p-140f, 1.0f});
  }
  CHECK(gmp_pairs(lattice_times(-149, 40, 1, 400)).size() > 100);
}

TEST_CASE("coordinates up to FLT_MAX: pairs exact, circles reaching past the largest float", "[grid][extreme]") {
  constexpr float big = std::numeric_limits<float>::max();
  for (std::uint64_t seed : {1, 2, 3}) {
    Scene s = lattice_times(121, 40, seed, 400);  // up to 42 * 2^121, about 2^126.4
    s.add(Segment{{-big, -big}, {big, big}});     // across the whole float plane
    s.add(Segment{{-big, big}, {big, -big}});
    s.add(Circle{{big, big}, big});               // reaches to 2 FLT_MAX
    s.add(Circle{{-0x1.8p127f, 0x1.cp127f}, 0x1p126f});
    s.add(Box{{big, -big}, {big, big}});          // the right edge of the plane
    s.add(Box{{0x1p127f, 0x1p127f}, {big, big}});
    s.add(Segment{{big, 0}, {big, 0}});           // points on the edge
    s.add(Circle{{-big, -big}, 0});
    check_everywhere(s, {0.0f, 0x1p100f, 0x1p122f, big});
  }
  CHECK(gmp_pairs(lattice_times(121, 40, 1, 400)).size() > 100);
}
