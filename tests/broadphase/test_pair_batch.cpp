// PairBatch (pair_batch.hpp): candidate pairs queued per pair kind and tested a batch at a
// time on the SIMD kernels. On every supported ISA and every pair kind, random and
// adversarial shapes (small integer and half-integer coordinates, so that touching,
// tangent, collinear and zero-size cases are common) are queued in both argument orders
// across several fills of the queue: the keys found must be exactly those of the pairs
// the scalar exact test (core/intersects.hpp) says intersect, each as often as it was
// queued, and tested() must count every queued pair.
#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cstdint>
#include <utility>
#include <vector>

#include "hitgrid/core/intersects.hpp"
#include "hitgrid/core/splitmix64.hpp"
#include "hitgrid/simd/isa.hpp"
#include "pair_batch.hpp"

using namespace hitgrid;

namespace {

/// Shapes by global index (segments, then circles, then boxes) with their packed
/// geometry: segment (ax, ay, bx, by), circle (cx, cy, r, 0), box (minx, miny, maxx, maxy).
struct Shapes {
  std::vector<Segment> segments;
  std::vector<Circle> circles;
  std::vector<Box> boxes;
  KindRanges kinds;
  std::vector<std::array<float, 4>> g;
  std::uint32_t adversarial[3] = {};  // per kind: the first shapes, built by hand

  void pack() {
    kinds = {static_cast<std::uint32_t>(segments.size()), static_cast<std::uint32_t>(segments.size() + circles.size())};
    g.clear();
    for (const Segment& s : segments) g.push_back({s.a.x, s.a.y, s.b.x, s.b.y});
    for (const Circle& c : circles) g.push_back({c.c.x, c.c.y, c.r, 0.0f});
    for (const Box& b : boxes) g.push_back({b.min.x, b.min.y, b.max.x, b.max.y});
  }
  std::uint32_t size() const { return static_cast<std::uint32_t>(g.size()); }
  std::uint32_t begin(ShapeKind k) const {
    return k == ShapeKind::segment ? 0 : k == ShapeKind::circle ? kinds.circles_begin : kinds.boxes_begin;
  }
  std::uint32_t end(ShapeKind k) const {
    return k == ShapeKind::segment ? kinds.circles_begin : k == ShapeKind::circle ? kinds.boxes_begin : size();
  }

  template <class F>
  bool visit(std::uint32_t i, F&& f) const {
    switch (kinds.kind(i)) {
      case ShapeKind::segment:
        return f(segments[i]);
      case ShapeKind::circle:
        return f(circles[i - kinds.circles_begin]);
      case ShapeKind::box:
        break;
    }
    return f(boxes[i - kinds.boxes_begin]);
  }
  /// The scalar exact test.
  bool intersect(std::uint32_t a, std::uint32_t b) const {
    return visit(a, [&](const auto& x) { return visit(b, [&](const auto& y) { return intersects(x, y); }); });
  }
};

/// A coordinate: small integers, half-integers or any float in [0, 4).
float coordinate(SplitMix64& rng, int style) {
  switch (style) {
    case 0:
      return static_cast<float>(rng.next() % 5);
    case 1:
      return static_cast<float>(rng.next() % 9) * 0.5f;
    default:
      return static_cast<float>(rng.u() * 4);
  }
}
float length(SplitMix64& rng, int style) {
  switch (style) {
    case 0:
      return static_cast<float>(rng.next() % 3);
    case 1:
      return static_cast<float>(rng.next() % 5) * 0.5f;
    default:
      return static_cast<float>(rng.u() * 2);
  }
}

Shapes make_shapes(SplitMix64& rng) {
  Shapes s;
  // Adversarial shapes around the circle of radius 5 at the origin (3-4-5 points on it),
  // collinear and end-to-end segments, corners and edges that just touch, zero-size shapes.
  s.segments = {
      {{3, 4}, {4, 3}},                      // a chord: both ends on the circle
      {{5, -2}, {5, 2}},                     // tangent at (5, 0)
      {{0, 5}, {2, 5}},                      // tangent at (0, 5), from the point of contact
      {{-1, 1}, {1, -1}},                    // through the centre
      {{0, 0}, {2, 2}},                      // collinear with the next, overlapping
      {{1, 1}, {3, 3}},   {{3, 3}, {4, 4}},  // end to end with the one before
      {{4, 1}, {4, 1}},                      // a point on a box's edge
      {{6, 6}, {6, 6}},                      // a point on a box's corner
      {{-2, 0}, {7, 0}},                     // along a box's bottom edge
      {{10, 5}, {10, 9}},                    // touches the circle at (10, 5) with an end
  };
  s.circles = {
      {{0, 0}, 5}, {{10, 0}, 5},                 // touching at (5, 0)
      {{3, 4}, 0},                               // a point on the first circle
      {{8, 4}, 0}, {{2, 2}, 1.5f}, {{7, 1}, 1},  // touching the flat box (4, 1)-(6, 1) at (6, 1)
      {{0, 0}, 0},
  };
  s.boxes = {
      {{3, 4}, {5, 6}},                        // a corner on the circle
      {{5, 0}, {6, 1}},                        // an edge tangent to the circle at (5, 0)
      {{0, 0}, {4, 4}},     {{4, 4}, {6, 6}},  // corner to corner
      {{4, 1}, {4, 1}},                        // a point
      {{1, 1}, {3, 1}},                        // flat
      {{4, 1}, {6, 1}},                        // flat, touching the point box
      {{-5, -5}, {-4, -3}},
  };
  s.adversarial[0] = static_cast<std::uint32_t>(s.segments.size());
  s.adversarial[1] = static_cast<std::uint32_t>(s.circles.size());
  s.adversarial[2] = static_cast<std::uint32_t>(s.boxes.size());
  // Random shapes of each style.
  for (int i = 0; i < 48; ++i) {
    const int style = i % 3;
    const float x = coordinate(rng, style), y = coordinate(rng, style);
    const float dx = length(rng, style) * (rng.next() % 2 ? 1.0f : -1.0f);
    const float dy = length(rng, style) * (rng.next() % 2 ? 1.0f : -1.0f);
    s.segments.push_back({{x, y}, {x + dx, y + dy}});
    s.circles.push_back({{coordinate(rng, style), coordinate(rng, style)}, length(rng, style)});
    const float bx = coordinate(rng, style), by = coordinate(rng, style);
    s.boxes.push_back({{bx, by}, {bx + length(rng, style), by + length(rng, style)}});
  }
  s.pack();
  return s;
}

/// A random shape of kind k, or of any kind.
std::uint32_t draw(SplitMix64& rng, const Shapes& s, ShapeKind k) {
  return s.begin(k) + static_cast<std::uint32_t>(rng.next() % (s.end(k) - s.begin(k)));
}

/// Queues each pair in both argument orders and returns the keys the scalar test expects
/// (each intersecting pair twice). `pairs` keeps what it held before.
std::vector<std::uint64_t> queue_both_orders(const std::vector<std::pair<std::uint32_t, std::uint32_t>>& todo,
                                             const Shapes& s, const PairKeyCodec& codec, PairBatch& batch,
                                             PairKeys& pairs) {
  std::vector<std::uint64_t> want;
  for (const auto& [a, b] : todo) {
    batch.add(a, s.g[a].data(), b, s.g[b].data(), pairs);
    batch.add(b, s.g[b].data(), a, s.g[a].data(), pairs);
    if (s.intersect(a, b)) {
      want.push_back(codec.key(std::min(a, b), std::max(a, b)));
      want.push_back(codec.key(std::min(a, b), std::max(a, b)));
    }
  }
  return want;
}

/// The keys, chunk after chunk.
std::vector<std::uint64_t> all_keys(const PairKeys& pairs) {
  std::vector<std::uint64_t> out;
  for (const PairKeys::Chunk& c : pairs.chunks()) out.insert(out.end(), c.keys, c.keys + c.size);
  return out;
}

/// The keys after the first `skip` (what the list held before), sorted.
std::vector<std::uint64_t> sorted_keys(const PairKeys& pairs, std::size_t skip) {
  const std::vector<std::uint64_t> all = all_keys(pairs);
  std::vector<std::uint64_t> out(all.begin() + static_cast<std::ptrdiff_t>(skip), all.end());
  std::sort(out.begin(), out.end());
  return out;
}

constexpr std::uint64_t sentinel = 0x5eed5eed5eed5eedu;

constexpr std::array<std::pair<ShapeKind, ShapeKind>, 6> pair_kinds = {{
    {ShapeKind::segment, ShapeKind::segment},
    {ShapeKind::segment, ShapeKind::circle},
    {ShapeKind::segment, ShapeKind::box},
    {ShapeKind::circle, ShapeKind::circle},
    {ShapeKind::circle, ShapeKind::box},
    {ShapeKind::box, ShapeKind::box},
}};

}  // namespace

TEST_CASE("PairBatch finds exactly the intersecting pairs of each kind, in both orders, across fills", "[grid]") {
  SplitMix64 rng(17);
  const Shapes s = make_shapes(rng);
  const PairKeyCodec codec{bits_for(s.size())};
  for (Isa isa : supported_isas()) {
    for (const auto& [ka, kb] : pair_kinds) {
      INFO(isa_name(isa) << ", " << kind_name(ka) << " with " << kind_name(kb));
      // Every pair of the adversarial shapes of these kinds, then random pairs: 2000
      // pairs, 4000 additions, fifteen fills of the queue and a partial one.
      std::vector<std::pair<std::uint32_t, std::uint32_t>> todo;
      for (std::uint32_t a = s.begin(ka); a < s.begin(ka) + s.adversarial[static_cast<int>(ka)]; ++a)
        for (std::uint32_t b = s.begin(kb); b < s.begin(kb) + s.adversarial[static_cast<int>(kb)]; ++b)
          if (a != b) todo.emplace_back(a, b);
      while (todo.size() < 2000) {
        const std::uint32_t a = draw(rng, s, ka), b = draw(rng, s, kb);
        if (a != b) todo.emplace_back(a, b);
      }
      PairBatch batch(PairTestContext{isa, s.kinds, codec});
      PairKeys pairs;
      pairs.push_back(sentinel);
      std::vector<std::uint64_t> want = queue_both_orders(todo, s, codec, batch, pairs);
      batch.flush(pairs);
      CHECK(batch.tested() == 2 * todo.size());
      REQUIRE(!pairs.empty());
      CHECK(all_keys(pairs)[0] == sentinel);
      std::sort(want.begin(), want.end());
      const std::vector<std::uint64_t> got = sorted_keys(pairs, 1);
      CHECK(got.size() == want.size());
      CHECK(got == want);
      // Something of each answer was tested.
      CHECK(!want.empty());
      CHECK(want.size() < 2 * todo.size());
    }
  }
}

TEST_CASE("PairBatch keeps each pair kind's queue apart when the kinds come mixed", "[grid]") {
  SplitMix64 rng(23);
  const Shapes s = make_shapes(rng);
  const PairKeyCodec codec{bits_for(s.size())};
  for (Isa isa : supported_isas()) {
    INFO(isa_name(isa));
    std::vector<std::pair<std::uint32_t, std::uint32_t>> todo;
    while (todo.size() < 4000) {
      const auto a = static_cast<std::uint32_t>(rng.next() % s.size());
      const auto b = static_cast<std::uint32_t>(rng.next() % s.size());
      if (a != b) todo.emplace_back(a, b);
    }
    PairBatch batch(PairTestContext{isa, s.kinds, codec});
    PairKeys pairs;
    std::vector<std::uint64_t> want = queue_both_orders(todo, s, codec, batch, pairs);
    batch.flush(pairs);
    CHECK(batch.tested() == 2 * todo.size());
    std::sort(want.begin(), want.end());
    const std::vector<std::uint64_t> got = sorted_keys(pairs, 0);
    CHECK(got.size() == want.size());
    CHECK(got == want);
    // A second flush has nothing left to test.
    batch.flush(pairs);
    CHECK(batch.tested() == 2 * todo.size());
    CHECK(pairs.size() == want.size());
  }
}

TEST_CASE("PairBatch tests a kind's queue when it is full and the rest at flush", "[grid]") {
  SplitMix64 rng(29);
  const Shapes s = make_shapes(rng);
  const PairKeyCodec codec{bits_for(s.size())};
  for (Isa isa : supported_isas()) {
    INFO(isa_name(isa));
    PairBatch batch(PairTestContext{isa, s.kinds, codec});
    PairKeys pairs;
    CHECK(batch.tested() == 0);
    batch.flush(pairs);  // nothing queued
    CHECK(batch.tested() == 0);
    CHECK(pairs.empty());
    // One short of a full queue of segment-box pairs (box first), and some circle pairs:
    // nothing runs yet.
    std::vector<std::uint64_t> want_full, want_rest;
    for (std::uint32_t i = 0; i + 1 < PairBatch::capacity; ++i) {
      const std::uint32_t a = draw(rng, s, ShapeKind::segment), b = draw(rng, s, ShapeKind::box);
      batch.add(b, s.g[b].data(), a, s.g[a].data(), pairs);
      if (s.intersect(a, b)) want_full.push_back(codec.key(a, b));
    }
    std::uint64_t circle_pairs = 0;
    while (circle_pairs < 10) {
      const std::uint32_t a = draw(rng, s, ShapeKind::circle), b = draw(rng, s, ShapeKind::circle);
      if (a == b) continue;
      batch.add(a, s.g[a].data(), b, s.g[b].data(), pairs);
      ++circle_pairs;
      if (s.intersect(a, b)) want_rest.push_back(codec.key(std::min(a, b), std::max(a, b)));
    }
    CHECK(batch.tested() == 0);
    CHECK(pairs.empty());
    // The queue's last slot: the segment-box pairs run, the circle pairs wait.
    const std::uint32_t a = draw(rng, s, ShapeKind::segment), b = draw(rng, s, ShapeKind::box);
    batch.add(a, s.g[a].data(), b, s.g[b].data(), pairs);
    if (s.intersect(a, b)) want_full.push_back(codec.key(a, b));
    CHECK(batch.tested() == PairBatch::capacity);
    std::sort(want_full.begin(), want_full.end());
    CHECK(sorted_keys(pairs, 0) == want_full);
    const std::size_t before = pairs.size();
    batch.flush(pairs);
    CHECK(batch.tested() == PairBatch::capacity + circle_pairs);
    std::sort(want_rest.begin(), want_rest.end());
    CHECK(sorted_keys(pairs, before) == want_rest);
  }
}

TEST_CASE("PairBatch keeps only its band's keys, and counts instead of keeping when told to", "[grid]") {
  SplitMix64 rng(31);
  const Shapes s = make_shapes(rng);
  const PairKeyCodec codec{bits_for(s.size())};
  std::vector<std::pair<std::uint32_t, std::uint32_t>> todo;
  while (todo.size() < 3000) {
    const auto a = static_cast<std::uint32_t>(rng.next() % s.size());
    const auto b = static_cast<std::uint32_t>(rng.next() % s.size());
    if (a != b) todo.emplace_back(a, b);
  }
  for (Isa isa : supported_isas()) {
    INFO(isa_name(isa));
    PairBatch all(PairTestContext{isa, s.kinds, codec});
    PairKeys everything;
    std::vector<std::uint64_t> want = queue_both_orders(todo, s, codec, all, everything);
    all.flush(everything);
    std::sort(want.begin(), want.end());
    REQUIRE(sorted_keys(everything, 0) == want);
    // A band from the 30th to the 70th percentile of the keys found: exactly those kept,
    // and the pairs outside it never tested.
    const KeyRange band{want[want.size() * 3 / 10], want[want.size() * 7 / 10]};
    PairTestContext banded{isa, s.kinds, codec};
    banded.band = band;
    PairBatch in_band(banded);
    PairKeys kept;
    queue_both_orders(todo, s, codec, in_band, kept);
    in_band.flush(kept);
    std::vector<std::uint64_t> want_band;
    for (std::uint64_t k : want)
      if (band.contains(k)) want_band.push_back(k);
    CHECK(!want_band.empty());
    CHECK(sorted_keys(kept, 0) == want_band);
    CHECK(in_band.tested() < all.tested());
    // Counting: nothing kept, every key counted in its bin.
    KeyCounts counts(0, codec.key_bits() - 4, 16);
    PairTestContext counting{isa, s.kinds, codec};
    counting.counts = &counts;
    PairBatch counter(counting);
    PairKeys none;
    queue_both_orders(todo, s, codec, counter, none);
    counter.flush(none);
    CHECK(none.empty());
    CachedVector<std::uint64_t> want_counts(16, 0);
    for (std::uint64_t k : want) ++want_counts[k >> (codec.key_bits() - 4)];
    CHECK(counts.total() == want_counts);
  }
}
