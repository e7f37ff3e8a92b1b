// The six exact intersection tests of core/intersects.hpp against the independent GMP
// reference (tests/support/exact_reference, different formulations), on the adversarial
// families (tests/support/adversarial): docs/contracts.md, contract 1.
//
// Each pair kind gets scaled_count(1,000,000) cases split evenly over the families; every
// case also checks the symmetric overload (intersects(c, s) == intersects(s, c)) and, for
// segments, that reversing the endpoints changes nothing. Mismatches are counted and the
// first few printed as hex floats.
//
// Environment knobs (tests/support/adversarial.hpp): HITGRID_TEST_SCALE multiplies the case
// counts (default 1: short enough in Release and under ASan+UBSan that the default needs
// no reduction), HITGRID_TEST_SEED explores other inputs for soak runs, and
// HITGRID_TEST_VERBOSE prints per-family answers and cold-path counts.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "hitgrid/core/detail/predicate_counters.hpp"
#include "hitgrid/core/intersects.hpp"
#include "hitgrid/core/predicates.hpp"
#include "support/adversarial.hpp"
#include "support/exact_reference.hpp"

using namespace hitgrid;
using test::Family;

namespace {

constexpr std::size_t cases_per_kind = 1'000'000;

Segment reversed(const Segment& s) { return {s.b, s.a}; }

/// The library's answer for (a, b); consistent is false if its overloads or segment
/// orientations disagree.
bool library(const Segment& s, const Segment& t, bool& consistent) {
  const bool r = intersects(s, t);
  consistent = r == intersects(t, s) && r == intersects(reversed(s), t) && r == intersects(s, reversed(t));
  return r;
}
bool library(const Segment& s, const Circle& c, bool& consistent) {
  const bool r = intersects(s, c);
  consistent = r == intersects(c, s) && r == intersects(reversed(s), c);
  return r;
}
bool library(const Segment& s, const Box& b, bool& consistent) {
  const bool r = intersects(s, b);
  consistent = r == intersects(b, s) && r == intersects(reversed(s), b);
  return r;
}
bool library(const Circle& c, const Circle& d, bool& consistent) {
  const bool r = intersects(c, d);
  consistent = r == intersects(d, c);
  return r;
}
bool library(const Circle& c, const Box& b, bool& consistent) {
  const bool r = intersects(c, b);
  consistent = r == intersects(b, c);
  return r;
}
bool library(const Box& a, const Box& b, bool& consistent) {
  const bool r = intersects(a, b);
  consistent = r == intersects(b, a);
  return r;
}

/// Box-box uses no predicate, so no family can make it take the cold path.
template <class A, class B>
constexpr bool uses_predicates = !(std::is_same_v<A, Box> && std::is_same_v<B, Box>);

template <class A, class B>
void check_kind(const char* name, std::uint64_t seed, std::pair<A, B> (test::Generator::*draw)()) {
  const std::size_t total = test::scaled_count(cases_per_kind);
  const std::size_t per_family = (total + test::all_families.size() - 1) / test::all_families.size();
  std::size_t checked = 0;
  for (const Family family : test::all_families) {
    test::Generator gen(family, test::test_seed(seed));
    std::size_t mismatches = 0, inconsistent = 0, hits = 0;
    std::vector<std::string> first;
    const std::uint64_t cold_before = predicate_counters().exact_calls;
    for (std::size_t i = 0; i < per_family; ++i) {
      const auto [a, b] = (gen.*draw)();
      bool consistent = true;
      const bool got = library(a, b, consistent);
      const bool want = reference::intersects(a, b);
      hits += want;
      if (got != want || !consistent) {
        mismatches += got != want;
        inconsistent += !consistent;
        if (first.size() < 5) {
          first.push_back("intersects(" + test::describe(a) + ", " + test::describe(b) + "): library " +
                          (got ? "true" : "false") + (consistent ? "" : " (inconsistent across overloads)") +
                          ", reference " + (want ? "true" : "false"));
        }
      }
    }
    const std::uint64_t cold = predicate_counters().exact_calls - cold_before;
    checked += per_family;
    if (test::verbose()) {
      std::printf("%-16s %-16s cases %8zu  true %8zu  false %8zu  cold path %8llu\n", name,
                  std::string(test::family_name(family)).c_str(), per_family, hits, per_family - hits,
                  static_cast<unsigned long long>(cold));
    }
    INFO(name << ", family " << test::family_name(family) << ": " << mismatches << " mismatches, " << inconsistent
              << " inconsistent, in " << per_family << " cases");
    std::string examples;  // one INFO: a scoped INFO inside a loop would vanish with its iteration
    for (const std::string& m : first) examples.append("\n  ").append(m);
    INFO("first mismatches:" << examples);
    CHECK(mismatches == 0);
    CHECK(inconsistent == 0);
    CHECK(hits > 0);  // both answers occur
    CHECK(hits < per_family);
    if (uses_predicates<A, B> && test::family_is_degenerate(family)) CHECK(cold > 0);
  }
  CHECK(checked >= total);
}

/// A hand-worked case: the library (both argument orders) and the reference must agree
/// with the answer worked out by hand.
template <class A, class B>
void expect(const A& a, const B& b, bool want) {
  INFO("intersects(" << test::describe(a) << ", " << test::describe(b) << ") should be " << (want ? "true" : "false"));
  CHECK(intersects(a, b) == want);
  CHECK(intersects(b, a) == want);
  CHECK(reference::intersects(a, b) == want);
}

float up(float v) { return std::nextafter(v, std::numeric_limits<float>::infinity()); }
float down(float v) { return std::nextafter(v, -std::numeric_limits<float>::infinity()); }

constexpr float tiny = std::numeric_limits<float>::denorm_min();

}  // namespace

TEST_CASE("segment-segment: hand-worked cases", "[intersects]") {
  const Segment s{{0, 0}, {2, 0}};
  expect(Segment{{0, 0}, {2, 2}}, Segment{{0, 2}, {2, 0}}, true);  // proper crossing
  // T-junction: an endpoint on the other's interior, then one ulp above and below.
  expect(s, Segment{{1, 0}, {1, 5}}, true);
  expect(s, Segment{{1, tiny}, {1, 5}}, false);
  expect(s, Segment{{1, -tiny}, {1, 5}}, true);
  // Shared endpoint, and the shared endpoint moved one ulp away.
  expect(Segment{{0, 0}, {1, 1}}, Segment{{1, 1}, {2, 0}}, true);
  expect(Segment{{0, 0}, {1, 1}}, Segment{{up(1), 1}, {2, 0}}, false);
  // Collinear: overlapping, touching at one point, disjoint, disjoint by one ulp.
  expect(Segment{{0, 0}, {2, 2}}, Segment{{1, 1}, {3, 3}}, true);
  expect(Segment{{0, 0}, {1, 1}}, Segment{{1, 1}, {3, 3}}, true);
  expect(Segment{{0, 0}, {1, 1}}, Segment{{3, 3}, {1, 1}}, true);
  expect(Segment{{0, 0}, {1, 1}}, Segment{{2, 2}, {3, 3}}, false);
  expect(Segment{{0, 0}, {1, 1}}, Segment{{up(1), up(1)}, {3, 3}}, false);
  expect(Segment{{0, 5}, {0, 1}}, Segment{{0, 1}, {0, -3}}, true);  // vertical, touching
  expect(Segment{{0, 5}, {0, 1}}, Segment{{0, down(1)}, {0, -3}}, false);
  expect(Segment{{0, 0}, {4, 2}}, Segment{{8, 4}, {-4, -2}}, true);  // one contains the other
  // Parallel, distinct lines.
  expect(s, Segment{{0, 1}, {2, 1}}, false);
  expect(s, Segment{{0, tiny}, {2, tiny}}, false);
  // Zero-length segments: on the segment, one ulp off it, at an endpoint, just past it.
  expect(Segment{{0, 0}, {4, 2}}, Segment{{2, 1}, {2, 1}}, true);
  expect(Segment{{0, 0}, {4, 2}}, Segment{{2, up(1)}, {2, up(1)}}, false);
  expect(Segment{{0, 0}, {4, 2}}, Segment{{4, 2}, {4, 2}}, true);
  expect(Segment{{0, 0}, {4, 2}}, Segment{{8, 4}, {8, 4}}, false);  // on the line, past the end
  expect(Segment{{1, 1}, {1, 1}}, Segment{{1, 1}, {1, 1}}, true);
  expect(Segment{{1, 1}, {1, 1}}, Segment{{1, up(1)}, {1, up(1)}}, false);
  // Magnitudes: a T-junction near 1e7 and a crossing of a 2^-120 .. 2^100 segment.
  expect(Segment{{1e7f, 1e7f}, {1e7f + 4, 1e7f + 2}}, Segment{{1e7f + 2, 1e7f + 1}, {0, 0}}, true);
  expect(Segment{{1e7f, 1e7f}, {1e7f + 4, 1e7f + 2}}, Segment{{1e7f + 2, 1e7f + 2}, {1e7f + 3, 1e7f + 9}}, false);
  expect(Segment{{3 * 0x1p-120f, 5 * 0x1p-120f}, {3 * 0x1p100f, 5 * 0x1p100f}}, Segment{{6, 10}, {6, -1}}, true);
  expect(Segment{{3 * 0x1p-120f, 5 * 0x1p-120f}, {3 * 0x1p100f, 5 * 0x1p100f}}, Segment{{6, up(10)}, {6, 11}}, false);
}

TEST_CASE("segment-circle: hand-worked cases", "[intersects]") {
  const Circle c{{0, 0}, 5};
  // Tangent in the segment's interior (axis-aligned and slanted), then one ulp away.
  expect(Segment{{-3, 5}, {3, 5}}, c, true);
  expect(Segment{{-3, up(5)}, {3, up(5)}}, c, false);
  expect(Segment{{-3, 5}, {3, 5}}, Circle{{0, 0}, down(5)}, false);
  expect(Segment{{-1, 7}, {7, 1}}, c, true);  // tangent at (3, 4)
  expect(Segment{{-1, up(7)}, {7, up(1)}}, c, false);
  // Tangent at the segment's endpoint.
  expect(Segment{{3, 4}, {7, 1}}, c, true);
  expect(Segment{{up(3), 4}, {7, 1}}, c, false);
  // An endpoint on the circle, leaving outward; then one ulp outside.
  expect(Segment{{3, 4}, {6, 8}}, c, true);
  expect(Segment{{up(3), 4}, {6, 8}}, c, false);
  // Through the centre; far away; a chord.
  expect(Segment{{-9, 0}, {9, 0}}, c, true);
  expect(Segment{{6, -9}, {6, 9}}, c, false);
  expect(Segment{{4, -9}, {4, 9}}, c, true);
  // Zero radius on the segment / one ulp off; a point segment on the boundary / just outside.
  expect(Segment{{0, 0}, {2, 2}}, Circle{{1, 1}, 0}, true);
  expect(Segment{{0, 0}, {2, 2}}, Circle{{1, up(1)}, 0}, false);
  expect(Segment{{3, 4}, {3, 4}}, c, true);
  expect(Segment{{3, 4}, {3, 4}}, Circle{{0, 0}, down(5)}, false);
  // Segment inside the disk entirely.
  expect(Segment{{-1, -1}, {1, 1}}, c, true);
  // Scaled by 2^100 and by 2^-149 (subnormal): still exactly tangent.
  expect(Segment{{-3 * 0x1p100f, 5 * 0x1p100f}, {3 * 0x1p100f, 5 * 0x1p100f}}, Circle{{0, 0}, 5 * 0x1p100f}, true);
  expect(Segment{{-3 * tiny, 5 * tiny}, {3 * tiny, 5 * tiny}}, Circle{{0, 0}, 5 * tiny}, true);
  expect(Segment{{-3 * tiny, 6 * tiny}, {3 * tiny, 6 * tiny}}, Circle{{0, 0}, 5 * tiny}, false);
}

TEST_CASE("segment-box: hand-worked cases", "[intersects]") {
  const Box b{{0, 0}, {2, 2}};
  // Touching only a corner, then one ulp away.
  expect(Segment{{0, 4}, {4, 0}}, b, true);  // x + y = 4 through (2, 2)
  expect(Segment{{0, up(4)}, {4, up(0)}}, b, false);
  expect(Segment{{3, 1}, {1, 3}}, b, true);  // passes through (2, 2) inside its span
  // Along an edge (collinear with it), beyond it, one ulp above it.
  expect(Segment{{-1, 2}, {3, 2}}, b, true);
  expect(Segment{{3, 2}, {5, 2}}, b, false);
  expect(Segment{{-1, up(2)}, {3, up(2)}}, b, false);
  // An endpoint on an edge, the segment leaving outward; then one ulp off the edge.
  expect(Segment{{2, 1}, {3, 1}}, b, true);
  expect(Segment{{up(2), 1}, {3, 1}}, b, false);
  // Point segments: at a corner, inside, one ulp outside.
  expect(Segment{{2, 2}, {2, 2}}, b, true);
  expect(Segment{{1, 1}, {1, 1}}, b, true);
  expect(Segment{{up(2), 2}, {up(2), 2}}, b, false);
  // Crossing without an endpoint inside; entirely inside; missing diagonally.
  expect(Segment{{-1, 1}, {3, 1}}, b, true);
  expect(Segment{{0.5f, 0.5f}, {1.5f, 1.5f}}, b, true);
  expect(Segment{{-1, 2}, {1, 4}}, b, false);
  // Flat and point boxes.
  expect(Segment{{-1, 1}, {1, 1}}, Box{{0, 0}, {0, 2}}, true);
  expect(Segment{{-1, 3}, {1, 3}}, Box{{0, 0}, {0, 2}}, false);
  expect(Segment{{0, 0}, {2, 2}}, Box{{1, 1}, {1, 1}}, true);
  expect(Segment{{0, 0}, {2, 2}}, Box{{1, up(1)}, {1, up(1)}}, false);
  // Mixed magnitudes: a segment from 2^-120 to 2^100 on y = 5x/3 touching only the top-left
  // corner (6, 10) of a box below the line; then the box one ulp lower.
  expect(Segment{{3 * 0x1p-120f, 5 * 0x1p-120f}, {3 * 0x1p100f, 5 * 0x1p100f}}, Box{{6, 0}, {7, 10}}, true);
  expect(Segment{{3 * 0x1p-120f, 5 * 0x1p-120f}, {3 * 0x1p100f, 5 * 0x1p100f}}, Box{{6, 0}, {7, down(10)}}, false);
}

TEST_CASE("circle-circle: hand-worked cases", "[intersects]") {
  expect(Circle{{0, 0}, 2}, Circle{{3, 4}, 3}, true);  // externally tangent
  expect(Circle{{0, 0}, 2}, Circle{{3, 4}, down(3)}, false);
  expect(Circle{{0, 0}, 2}, Circle{{up(3), 4}, 3}, false);
  expect(Circle{{0, 0}, 5}, Circle{{6, 8}, 5}, true);
  expect(Circle{{0, 0}, 5 * 0x1p100f}, Circle{{6 * 0x1p100f, 8 * 0x1p100f}, 5 * 0x1p100f}, true);
  expect(Circle{{0, 0}, 5 * 0x1p100f}, Circle{{6 * 0x1p100f, up(8 * 0x1p100f)}, 5 * 0x1p100f}, false);
  expect(Circle{{0, 0}, 5 * tiny}, Circle{{6 * tiny, 8 * tiny}, 5 * tiny}, true);
  expect(Circle{{0, 0}, 5 * tiny}, Circle{{6 * tiny, 9 * tiny}, 5 * tiny}, false);
  // Tangent at the origin with radii 2^-100 and 2^100: r1 + r2 is not a float.
  expect(Circle{{-3 * 0x1p-100f, -4 * 0x1p-100f}, 5 * 0x1p-100f}, Circle{{3 * 0x1p100f, 4 * 0x1p100f}, 5 * 0x1p100f},
         true);
  expect(Circle{{-3 * 0x1p-100f, -4 * 0x1p-100f}, down(5 * 0x1p-100f)},
         Circle{{3 * 0x1p100f, 4 * 0x1p100f}, 5 * 0x1p100f}, false);
  // Contained, internally tangent, zero radii.
  expect(Circle{{0, 0}, 10}, Circle{{1, 1}, 1}, true);
  expect(Circle{{0, 0}, 10}, Circle{{3, 4}, 5}, true);
  expect(Circle{{1, 1}, 0}, Circle{{1, 1}, 0}, true);
  expect(Circle{{1, 1}, 0}, Circle{{up(1), 1}, 0}, false);
  expect(Circle{{3, 4}, 0}, Circle{{0, 0}, 5}, true);
  expect(Circle{{3, 4}, 0}, Circle{{0, 0}, down(5)}, false);
}

TEST_CASE("circle-box: hand-worked cases", "[intersects]") {
  const Box b{{0, 0}, {2, 2}};
  expect(Circle{{3, 1}, 1}, b, true);  // tangent to an edge
  expect(Circle{{3, 1}, down(1)}, b, false);
  expect(Circle{{up(3), 1}, 1}, b, false);
  expect(Circle{{5, 6}, 5}, b, true);  // tangent to the corner (2, 2) from (2, 2) + (3, 4)
  expect(Circle{{up(5), 6}, 5}, b, false);
  expect(Circle{{5, 6}, down(5)}, b, false);
  expect(Circle{{1, 1}, 0}, b, true);  // centre inside, zero radius
  expect(Circle{{2, 2}, 0}, b, true);  // zero radius at a corner
  expect(Circle{{2, up(2)}, 0}, b, false);
  expect(Circle{{1, 1}, 100}, b, true);  // box inside the disk
  expect(Circle{{0, 0}, 5}, Box{{3, 4}, {3, 4}}, true);  // point box on the boundary
  expect(Circle{{0, 0}, 5}, Box{{up(3), 4}, {up(3), 4}}, false);
  expect(Circle{{0, 0}, 5}, Box{{-9, 5}, {9, 5}}, true);  // flat box tangent
  expect(Circle{{0, 0}, 5}, Box{{-9, up(5)}, {9, up(5)}}, false);
}

TEST_CASE("box-box: hand-worked cases", "[intersects]") {
  const Box a{{0, 0}, {1, 1}};
  expect(a, Box{{1, 0}, {2, 1}}, true);  // sharing an edge
  expect(a, Box{{up(1), 0}, {2, 1}}, false);
  expect(a, Box{{1, 1}, {2, 2}}, true);  // sharing a corner
  expect(a, Box{{1, up(1)}, {2, 2}}, false);
  expect(a, Box{{0.25f, 0.25f}, {0.5f, 0.5f}}, true);  // contained
  expect(a, Box{{1, 1}, {1, 1}}, true);                // point box at a corner
  expect(a, Box{{0.5f, -1}, {0.5f, 2}}, true);         // flat box crossing
  expect(Box{{-1, -1}, {-0.0f, 1}}, Box{{0.0f, 0}, {1, 1}}, true);  // -0 and +0 are one point
  expect(Box{{-1, -1}, {-tiny, 1}}, Box{{0.0f, 0}, {1, 1}}, false);
}

TEST_CASE("segment-segment equals the exact reference", "[intersects]") {
  check_kind("segment-segment", 201, &test::Generator::segment_segment);
}
TEST_CASE("segment-circle equals the exact reference", "[intersects]") {
  check_kind("segment-circle", 202, &test::Generator::segment_circle);
}
TEST_CASE("segment-box equals the exact reference", "[intersects]") {
  check_kind("segment-box", 203, &test::Generator::segment_box);
}
TEST_CASE("circle-circle equals the exact reference", "[intersects]") {
  check_kind("circle-circle", 204, &test::Generator::circle_circle);
}
TEST_CASE("circle-box equals the exact reference", "[intersects]") {
  check_kind("circle-box", 205, &test::Generator::circle_box);
}
TEST_CASE("box-box equals the exact reference", "[intersects]") {
  check_kind("box-box", 206, &test::Generator::box_box);
}
