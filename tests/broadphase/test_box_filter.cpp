// The home grid's box filters (box_filter.hpp): every ISA's form the machine supports, as
// its own translation unit compiled it (lane_probe), against the scalar twin
// (BoxFilterScalar): the same overlap masks (eight boxes; sixteen, in two runs, where the
// ISA has the 16-lane step), the same candidates appended with nothing written outside
// the lists' stated room, the same below8 masks, and the same tile pairs in the same
// order with the same flushes. The boxes touch at edges and corners, miss by one ulp,
// have edges at +0 and -0, are empty (min > max, the padding), unbounded or points, and
// come at scales from subnormal to near float's largest.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "box_filter.hpp"
#include "grid_kernels.hpp"
#include "hitgrid/core/splitmix64.hpp"
#include "hitgrid/simd/isa.hpp"

using namespace hitgrid;

namespace {

/// The ISAs whose lanes to check: every supported one (Isa::scalar runs SSE2's kernels on
/// x86-64, so it is left out there).
std::vector<Isa> lane_isas() {
  std::vector<Isa> out;
  for (Isa isa : supported_isas())
    if (isa != Isa::scalar || !isa_supported(Isa::sse2)) out.push_back(isa);
  return out;
}

/// A power-of-two scale for a round: mostly 1, sometimes tiny (products of the edges
/// below are subnormal or flush to zero) or huge (near float's largest).
int draw_scale(SplitMix64& rng) {
  const int scales[] = {0, 0, 0, 0, -130, -149, -60, 60, 125};
  return scales[rng.next() % 9];
}

/// An interval near [0, 1] (times 2^scale) that often touches or just misses it.
void interval(SplitMix64& rng, int scale, float& lo, float& hi) {
  const float edges[] = {0.0f, -0.0f, 1.0f, 0.5f, -1.0f, 2.0f};
  lo = std::ldexp(edges[rng.next() % 6], scale);
  hi = std::ldexp(edges[rng.next() % 6], scale);
  if (rng.next() % 3 == 0) lo = std::nextafter(lo, (rng.next() & 1) ? HUGE_VALF : -HUGE_VALF);
  if (rng.next() % 3 == 0) hi = std::nextafter(hi, (rng.next() & 1) ? HUGE_VALF : -HUGE_VALF);
  switch (rng.next() % 10) {
    case 0:  // the padding of the grid's arrays: an empty box
      lo = HUGE_VALF, hi = -HUGE_VALF;
      break;
    case 1:  // unbounded
      hi = HUGE_VALF;
      break;
    case 2:  // a point
      hi = lo;
      break;
    case 3:  // empty, but finite
      if (lo < hi) std::swap(lo, hi);
      break;
    default:
      if (lo > hi) std::swap(lo, hi);
  }
}

struct Rect {
  float x0, x1, y0, y1;
};

Rect draw_rect(SplitMix64& rng, int scale) {
  Rect b;
  interval(rng, scale, b.x0, b.x1);
  interval(rng, scale, b.y0, b.y1);
  return b;
}

/// Columns of `size` boxes (one scale per run of a few, so that neighbours relate), then
/// `padding` empty boxes, as the grid lays them out.
struct Columns {
  std::vector<float> minx, maxx, miny, maxy;
  Columns(SplitMix64& rng, std::size_t size, std::size_t padding) {
    int scale = 0;
    for (std::size_t p = 0; p < size; ++p) {
      if (rng.next() % 4 == 0) scale = draw_scale(rng);
      const Rect b = draw_rect(rng, scale);
      minx.push_back(b.x0), maxx.push_back(b.x1), miny.push_back(b.y0), maxy.push_back(b.y1);
    }
    for (std::size_t p = 0; p < padding; ++p) {
      minx.push_back(HUGE_VALF), maxx.push_back(-HUGE_VALF), miny.push_back(HUGE_VALF), maxy.push_back(-HUGE_VALF);
    }
  }
};

constexpr std::uint32_t sentinel = 0xDEADBEEFu;

/// Candidate lists: `start` earlier entries, then room for `slots` stored lanes, then a
/// guard; all sentinels.
struct Lists {
  std::vector<std::uint32_t> a, b;
  Lists(std::size_t start, std::size_t slots) : a(start + slots + 8, sentinel), b(start + slots + 8, sentinel) {}
};

/// The appended entries [start, n) equal the twin's, and nothing is written before start
/// or past start + slots.
bool same_lists(const Lists& got, std::uint32_t got_n, const Lists& want, std::uint32_t want_n, std::size_t start,
                std::size_t slots) {
  if (got_n != want_n) return false;
  for (std::size_t k = 0; k < start; ++k)
    if (got.a[k] != sentinel || got.b[k] != sentinel) return false;
  for (std::size_t k = start; k < want_n; ++k)
    if (got.a[k] != want.a[k] || got.b[k] != want.b[k]) return false;
  for (std::size_t k = start + slots; k < got.a.size(); ++k)
    if (got.a[k] != sentinel || got.b[k] != sentinel) return false;
  return true;
}

/// overlap8 and append on one ISA against the twin.
void check_overlap8(Isa isa, const LaneProbe& probe) {
  SplitMix64 rng(99);
  std::size_t bad = 0, hits = 0;
  std::string first;
  for (int round = 0; round < 200'000; ++round) {
    const Columns c(rng, 8, 0);
    const int scale = draw_scale(rng);
    const Rect q = draw_rect(rng, scale);
    const std::uint32_t want =
        BoxFilterScalar::overlap8(c.minx.data(), c.maxx.data(), c.miny.data(), c.maxy.data(), q.x0, q.x1, q.y0, q.y1);
    const std::uint32_t got =
        probe.overlap8(c.minx.data(), c.maxx.data(), c.miny.data(), c.maxy.data(), q.x0, q.x1, q.y0, q.y1);
    hits += want != 0;
    // Append after some earlier candidates: the overlap mask, or any 8-bit mask.
    const std::uint32_t mask = round % 2 == 0 ? want : static_cast<std::uint32_t>(rng.next() & 0xff);
    const auto a = static_cast<std::uint32_t>(rng.next()), base = static_cast<std::uint32_t>(rng.next());
    const auto start = static_cast<std::uint32_t>(rng.next() % 5);
    Lists lw(start, 8), lg(start, 8);
    const std::uint32_t nw = BoxFilterScalar::append(mask, a, base, lw.a.data(), lw.b.data(), start);
    const std::uint32_t ng = probe.append(mask, a, base, lg.a.data(), lg.b.data(), start);
    if ((got != want || !same_lists(lg, ng, lw, nw, start, 8)) && bad++ == 0)
      first = "round " + std::to_string(round) + ": mask " + std::to_string(got) + ", want " + std::to_string(want) +
              "; appended " + std::to_string(ng) + ", want " + std::to_string(nw);
  }
  INFO(isa_name(isa) << " overlap8/append: " << bad << " mismatches; first: " << first);
  CHECK(bad == 0);
  CHECK(hits > 50'000);  // the draws overlap often enough to test the appends
}

/// below8 (the row search's step past the shapes above that end too early) on one ISA
/// against the twin, on values equal to, one ulp either side of, and far from x.
void check_below8(Isa isa, const LaneProbe& probe) {
  SplitMix64 rng(5);
  std::size_t bad = 0;
  for (int round = 0; round < 100'000; ++round) {
    const int scale = draw_scale(rng);
    float v[8], x, unused;
    interval(rng, scale, x, unused);
    for (float& e : v) {
      interval(rng, scale, e, unused);
      if (rng.next() % 3 == 0) e = x;
      if (rng.next() % 4 == 0) e = std::nextafter(x, (rng.next() & 1) ? HUGE_VALF : -HUGE_VALF);
      if (rng.next() % 8 == 0) e = -e;  // +0 against -0 among them
    }
    bad += probe.below8(v, x) != BoxFilterScalar::below8(v, x);
  }
  INFO(isa_name(isa) << " below8: " << bad << " mismatches");
  CHECK(bad == 0);
}

/// skip_below (the searches' steps past the shapes left of a column) on one ISA against
/// the twin: a run of values below x, then anything, on values equal to x, one ulp either
/// side of it, +0 against -0, infinities (the columns' padding), for every count n up to
/// past the lanes (the 16-lane form must not read past n: the values there are not below x,
/// and the array ends at 24).
void check_skip_below(Isa isa, const LaneProbe& probe) {
  SplitMix64 rng(6);
  std::size_t bad = 0;
  std::string first;
  for (int round = 0; round < 100'000; ++round) {
    const int scale = draw_scale(rng);
    float v[24], x, unused;
    interval(rng, scale, x, unused);
    const std::uint32_t run = static_cast<std::uint32_t>(rng.next() % 20);
    for (std::uint32_t k = 0; k < 24; ++k) {
      float& e = v[k];
      interval(rng, scale, e, unused);
      if (k < run) e = std::min(e, std::nextafter(x, -HUGE_VALF));  // below x
      if (rng.next() % 5 == 0) e = x;
      if (rng.next() % 5 == 0) e = std::nextafter(x, (rng.next() & 1) ? HUGE_VALF : -HUGE_VALF);
      if (rng.next() % 9 == 0) e = (rng.next() & 1) ? HUGE_VALF : -HUGE_VALF;
      if (x == 0 && rng.next() % 2 == 0) e = -e;  // +0 against -0
    }
    const auto n = static_cast<std::uint32_t>(rng.next() % 21);
    const std::uint32_t got = probe.skip_below(v, x, n);
    const std::uint32_t want = BoxFilterScalar::leading_below(v, x, std::min(n, probe.skip_lanes));
    if (got != want && bad++ == 0)
      first = "round " + std::to_string(round) + ": n " + std::to_string(n) + ", got " + std::to_string(got) +
              ", want " + std::to_string(want);
  }
  INFO(isa_name(isa) << " skip_below: " << bad << " mismatches; first: " << first);
  CHECK(bad == 0);
}

/// The 16-lane step: two runs of eight boxes at positions i and j of the same arrays.
void check_overlap16(Isa isa, const LaneProbe& probe) {
  SplitMix64 rng(7);
  std::size_t bad = 0;
  std::string first;
  constexpr std::uint32_t size = 40;
  for (int round = 0; round < 100'000; ++round) {
    const Columns c(rng, size, 0);
    const Rect q = draw_rect(rng, draw_scale(rng));
    // Runs anywhere, overlapping or not (the row above may start inside the own run).
    const auto i = static_cast<std::uint32_t>(rng.next() % (size - 7)),
               j = static_cast<std::uint32_t>(rng.next() % (size - 7));
    const float *minx = c.minx.data(), *maxx = c.maxx.data(), *miny = c.miny.data(), *maxy = c.maxy.data();
    const std::uint32_t want = BoxFilterScalar::overlap16(minx, maxx, miny, maxy, i, j, q.x0, q.x1, q.y0, q.y1);
    const std::uint32_t got = probe.overlap16(minx, maxx, miny, maxy, i, j, q.x0, q.x1, q.y0, q.y1);
    const std::uint32_t mask = round % 2 == 0 ? want : static_cast<std::uint32_t>(rng.next() & 0xffff);
    const auto a = static_cast<std::uint32_t>(rng.next()), start = static_cast<std::uint32_t>(rng.next() % 5);
    Lists lw(start, 16), lg(start, 16);
    const std::uint32_t nw = BoxFilterScalar::append16(mask, a, i, j, lw.a.data(), lw.b.data(), start);
    const std::uint32_t ng = probe.append16(mask, a, i, j, lg.a.data(), lg.b.data(), start);
    if ((got != want || !same_lists(lg, ng, lw, nw, start, 16)) && bad++ == 0)
      first = "round " + std::to_string(round) + ": mask " + std::to_string(got) + ", want " + std::to_string(want);
  }
  INFO(isa_name(isa) << " overlap16/append16: " << bad << " mismatches; first: " << first);
  CHECK(bad == 0);
}

/// What a tile_pairs run hands over: every flushed list, then the final one.
struct TileRun {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  std::vector<std::uint32_t> flush_at;  // counts at each flush
  Lists lists;
  explicit TileRun(std::size_t slots) : lists(0, slots) {}
  static std::uint32_t full(void* self, std::uint32_t count) {
    auto& r = *static_cast<TileRun*>(self);
    r.flush_at.push_back(count);
    for (std::uint32_t k = 0; k < count; ++k) r.pairs.push_back({r.lists.a[k], r.lists.b[k]});
    return 0;
  }
  void finish(std::uint32_t count) {
    for (std::uint32_t k = 0; k < count; ++k) pairs.push_back({lists.a[k], lists.b[k]});
  }
};

/// tile_pairs on one ISA against the twin: tiles of every size up to the ISA's, at every
/// place in the columns, own and upper ranges of every length, and a small room so that
/// the lists fill and flush mid-run. (The columns' boxes are unbounded above at most, never
/// [-inf, +inf]: tile_pairs takes finite boxes, those of small shapes.)
void check_tile_pairs(Isa isa, const LaneProbe& probe) {
  SplitMix64 rng(23);
  std::size_t bad = 0, pairs = 0, flushes = 0;
  std::string first;
  constexpr std::uint32_t size = 64, padding = 8;
  for (int round = 0; round < 20'000; ++round) {
    const Columns c(rng, size, padding);
    const float *minx = c.minx.data(), *maxx = c.maxx.data(), *miny = c.miny.data(), *maxy = c.maxy.data();
    const auto tile = static_cast<std::uint32_t>(rng.next() % size);
    const std::uint32_t widest = std::min<std::uint32_t>(probe.tile_lanes, size - tile);
    const std::uint32_t n = rng.next() % 2 == 0 ? widest : 1 + static_cast<std::uint32_t>(rng.next() % widest);
    const std::uint32_t own = tile + 1, own_end = own + static_cast<std::uint32_t>(rng.next() % (size - own + 1));
    const auto up = static_cast<std::uint32_t>(rng.next() % size);
    const std::uint32_t up_end = up + static_cast<std::uint32_t>(rng.next() % (size - up + 1));
    const std::uint32_t room = 8 + static_cast<std::uint32_t>(rng.next() % 64),
                        start = static_cast<std::uint32_t>(rng.next() % (room + 1));
    const std::size_t slots = room + probe.tile_lanes + 1;
    TileRun want(slots), got(slots);
    want.finish(BoxFilterScalar::tile_pairs(minx, maxx, miny, maxy, tile, n, own, own_end, up, up_end,
                                            want.lists.a.data(), want.lists.b.data(), start, room,
                                            [&](std::uint32_t count) { return TileRun::full(&want, count); }));
    got.finish(probe.tile_pairs(minx, maxx, miny, maxy, tile, n, own, own_end, up, up_end, got.lists.a.data(),
                                got.lists.b.data(), start, room, &TileRun::full, &got));
    pairs += want.pairs.size();
    flushes += want.flush_at.size();
    bool guard_kept = true;  // nothing written past the lists' room
    for (std::size_t k = slots; k < got.lists.a.size(); ++k)
      guard_kept &= got.lists.a[k] == sentinel && got.lists.b[k] == sentinel;
    if ((got.pairs != want.pairs || got.flush_at != want.flush_at || !guard_kept) && bad++ == 0)
      first = "round " + std::to_string(round) + ": tile " + std::to_string(tile) + " n " + std::to_string(n) + ", " +
              std::to_string(got.pairs.size()) + " entries, want " + std::to_string(want.pairs.size());
  }
  INFO(isa_name(isa) << " tile_pairs: " << bad << " mismatches; first: " << first);
  CHECK(bad == 0);
  CHECK(pairs > 100'000);
  CHECK(flushes > 1'000);
}

}  // namespace

TEST_CASE("every ISA's box filter equals the scalar twin lane for lane", "[grid][box_filter]") {
  for (Isa isa : lane_isas()) {
    const LaneProbe probe = lane_probe(isa);
    check_overlap8(isa, probe);
    check_below8(isa, probe);
    check_skip_below(isa, probe);
    if (probe.overlap16 != nullptr) check_overlap16(isa, probe);
    if (probe.tile_pairs != nullptr) check_tile_pairs(isa, probe);
  }
}

TEST_CASE("the lane probes expose each ISA's steps as its search uses them", "[grid][box_filter]") {
  for (Isa isa : lane_isas()) {
    INFO(isa_name(isa));
    const LaneProbe probe = lane_probe(isa);
    // The 16-lane step and the 16-shape tiles are AVX-512's; 8-shape tiles AVX2's.
    CHECK((probe.overlap16 != nullptr) == (isa == Isa::avx512));
    CHECK((probe.append16 != nullptr) == (isa == Isa::avx512));
    CHECK(probe.tile_lanes == (isa == Isa::avx512 ? 16u : isa == Isa::avx2 ? 8u : 0u));
    CHECK((probe.tile_pairs != nullptr) == (probe.tile_lanes != 0));
    CHECK(probe.skip_lanes == (isa == Isa::avx512 ? 16u : 8u));
  }
}

TEST_CASE("the baseline box filter is the scalar twin's equal too", "[grid][box_filter]") {
  // BaselineBoxFilter serves baseline code (the crowded-cell sweep, the column tables).
  SplitMix64 rng(31);
  std::size_t bad = 0;
  for (int round = 0; round < 50'000; ++round) {
    const Columns c(rng, 8, 0);
    const Rect q = draw_rect(rng, draw_scale(rng));
    const float *minx = c.minx.data(), *maxx = c.maxx.data(), *miny = c.miny.data(), *maxy = c.maxy.data();
    bad += BaselineBoxFilter::overlap8(minx, maxx, miny, maxy, q.x0, q.x1, q.y0, q.y1) !=
           BoxFilterScalar::overlap8(minx, maxx, miny, maxy, q.x0, q.x1, q.y0, q.y1);
    bad += BaselineBoxFilter::below8(minx, q.x0) != BoxFilterScalar::below8(minx, q.x0);
  }
  CHECK(bad == 0);
}
