// The crowded-cell sweep (crowded_sweep.hpp) against all pairs: exactly the pairs of
// overlapping closed boxes with at least one marked box, each once, on random boxes,
// stacks of parallel segments' boxes (the sweep's axis choice), touching and zero-size
// boxes, and every count around the eight-box steps.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include "crowded_sweep.hpp"
#include "hitgrid/core/splitmix64.hpp"

using namespace hitgrid;

namespace {

using PairSet = std::multiset<std::pair<std::uint32_t, std::uint32_t>>;

bool overlap(const Aabb& a, const Aabb& b) {
  return a.min.x <= b.max.x && b.min.x <= a.max.x && a.min.y <= b.max.y && b.min.y <= a.max.y;
}

PairSet swept(const std::vector<Aabb>& boxes, const std::vector<bool>& marked, CrowdedSweep& sweep) {
  PairSet got;
  sweep.run(
      static_cast<std::uint32_t>(boxes.size()), [&](std::uint32_t i) { return boxes[i]; },
      [&](std::uint32_t i) { return marked[i]; },
      [&](std::uint32_t i, std::uint32_t j) {
        got.insert({std::min(i, j), std::max(i, j)});
      });
  return got;
}

PairSet all_pairs(const std::vector<Aabb>& boxes, const std::vector<bool>& marked) {
  PairSet want;
  for (std::uint32_t i = 0; i < boxes.size(); ++i)
    for (std::uint32_t j = i + 1; j < boxes.size(); ++j)
      if ((marked[i] || marked[j]) && overlap(boxes[i], boxes[j])) want.insert({i, j});
  return want;
}

}  // namespace

TEST_CASE("the crowded-cell sweep finds exactly the overlapping pairs with a marked box, each once", "[grid]") {
  SplitMix64 rng(5);
  CrowdedSweep sweep;  // reused, as the passes reuse theirs
  for (std::uint32_t n : {0u, 1u, 2u, 7u, 8u, 9u, 16u, 17u, 33u, 100u, 400u}) {
    for (int layout = 0; layout < 4; ++layout) {
      std::vector<Aabb> boxes(n);
      for (std::uint32_t i = 0; i < n; ++i) {
        const auto x = static_cast<float>(rng.u() * 10), y = static_cast<float>(rng.u() * 10);
        switch (layout) {
          case 0:  // random boxes
            boxes[i] = {{x, y}, {x + static_cast<float>(rng.u() * 3), y + static_cast<float>(rng.u() * 3)}};
            break;
          case 1:  // a stack of horizontal segments' boxes: overlap along x, rarely across
            boxes[i] = {{0, static_cast<float>(i) * 0.5f}, {10, static_cast<float>(i) * 0.5f}};
            break;
          case 2:  // the same, vertical
            boxes[i] = {{static_cast<float>(i) * 0.5f, 0}, {static_cast<float>(i) * 0.5f, 10}};
            break;
          default:  // small integers: touching edges, corners and zero-size boxes
            const auto ix = static_cast<float>(rng.next() % 4), iy = static_cast<float>(rng.next() % 4);
            boxes[i] = {{ix, iy}, {ix + static_cast<float>(rng.next() % 2), iy + static_cast<float>(rng.next() % 2)}};
        }
      }
      for (int marks = 0; marks < 3; ++marks) {
        std::vector<bool> marked(n);
        for (std::uint32_t i = 0; i < n; ++i) marked[i] = marks == 0 ? true : marks == 1 ? i % 3 == 0 : rng.next() % 2;
        INFO("n " << n << ", layout " << layout << ", marks " << marks);
        const PairSet got = swept(boxes, marked, sweep), want = all_pairs(boxes, marked);
        CHECK(got.size() == want.size());
        CHECK(got == want);
      }
    }
  }
}
