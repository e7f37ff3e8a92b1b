// Planted bugs for the tests of `hitgrid stress` (tests/apps/test_stress_*.cpp): pair
// finders that are wrong in the ways a real bug would be (an exactness slip on one ISA, a
// race on one thread count, a wrong answer everywhere), so the tests can prove that the
// cross-checks see each and that the shrinker reduces it to a minimal scene. And the GMP
// reference (support/exact_reference.hpp) as a stress pair test.
#pragma once

#include "hitgrid/core/scene.hpp"
#include "stress_checks.hpp"

namespace hitgrid::test {

/// Whether the pair is two segments with an endpoint in common (exactly equal floats).
bool share_an_endpoint(const Scene& scene, Pair p);

/// The library's pairs, less the shared-endpoint segment pairs on every ISA but scalar.
PairList drops_shared_endpoints_off_scalar(const Scene& scene, const stress::FinderConfig& config);
/// The library's pairs, less the shared-endpoint segment pairs, on every configuration.
PairList drops_shared_endpoints_everywhere(const Scene& scene, const stress::FinderConfig& config);
/// The library's pairs, plus one that does not collide (the first two segments that do
/// not) when run on exactly 2 threads.
PairList adds_a_pair_on_one_thread(const Scene& scene, const stress::FinderConfig& config);

/// The independent exact reference (GMP) on two shapes of a scene.
bool gmp_pair_test(const Scene& scene, ShapeId a, ShapeId b);

}  // namespace hitgrid::test
