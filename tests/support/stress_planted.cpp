#include "support/stress_planted.hpp"

#include <algorithm>

#include "hitgrid/core/shape_pair_test.hpp"
#include "support/exact_reference.hpp"

namespace hitgrid::test {
namespace {

PairList without_shared_endpoints(const Scene& scene, PairList pairs) {
  pairs.erase(std::remove_if(pairs.begin(), pairs.end(), [&](Pair p) { return share_an_endpoint(scene, p); }),
              pairs.end());
  return pairs;
}

}  // namespace

bool share_an_endpoint(const Scene& scene, Pair p) {
  if (p.first().kind() != ShapeKind::segment || p.second().kind() != ShapeKind::segment) return false;
  const Segment s = scene.segment(p.first().index()), t = scene.segment(p.second().index());
  return s.a == t.a || s.a == t.b || s.b == t.a || s.b == t.b;
}

PairList drops_shared_endpoints_off_scalar(const Scene& scene, const stress::FinderConfig& config) {
  PairList pairs = stress::library_finder(scene, config);
  return config.isa == Isa::scalar ? pairs : without_shared_endpoints(scene, std::move(pairs));
}

PairList drops_shared_endpoints_everywhere(const Scene& scene, const stress::FinderConfig& config) {
  return without_shared_endpoints(scene, stress::library_finder(scene, config));
}

PairList adds_a_pair_on_one_thread(const Scene& scene, const stress::FinderConfig& config) {
  PairList pairs = stress::library_finder(scene, config);
  if (config.threads != 2) return pairs;
  for (std::uint32_t j = 1; j < scene.segment_count(); ++j) {
    const Pair p(ShapeId(ShapeKind::segment, 0), ShapeId(ShapeKind::segment, j));
    if (!intersects(scene, p)) {
      pairs.insert(std::lower_bound(pairs.begin(), pairs.end(), p), p);
      break;
    }
  }
  return pairs;
}

bool gmp_pair_test(const Scene& scene, ShapeId a, ShapeId b) { return reference::intersects(scene, a, b); }

}  // namespace hitgrid::test
