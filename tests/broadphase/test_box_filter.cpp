// The home grid's box filters (box_filter.hpp), one per ISA, against a plain loop over
// the eight boxes (sixteen, in two runs, where the filter has the 16-lane step): the same
// overlap mask and the same candidates appended (and below8, the step past boxes that
// end too early, against the plain comparison), on boxes that touch at edges and
// corners, miss by one ulp, are empty (min > max, the padding), hold infinities, or are
// points.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "box_filter.hpp"
#include "hitgrid/core/splitmix64.hpp"
#include "hitgrid/simd/isa.hpp"

using namespace hitgrid;

namespace {

struct Boxes {
  float minx[8], maxx[8], miny[8], maxy[8];
};

/// An interval near [0, 1] that often touches or just misses it.
void interval(SplitMix64& rng, float& lo, float& hi) {
  const float edges[] = {0.0f, 1.0f, 0.5f, -1.0f, 2.0f};
  lo = edges[rng.next() % 5];
  hi = edges[rng.next() % 5];
  if (rng.next() % 3 == 0) lo = std::nextafter(lo, (rng.next() & 1) ? HUGE_VALF : -HUGE_VALF);
  if (rng.next() % 3 == 0) hi = std::nextafter(hi, (rng.next() & 1) ? HUGE_VALF : -HUGE_VALF);
  switch (rng.next() % 8) {
    case 0:  // the padding of the grid's arrays: an empty box
      lo = HUGE_VALF, hi = -HUGE_VALF;
      break;
    case 1:  // unbounded
      hi = HUGE_VALF;
      break;
    case 2:  // a point
      hi = lo;
      break;
    default:
      if (lo > hi) std::swap(lo, hi);
  }
}

std::uint32_t reference_mask(const Boxes& b, float x0, float x1, float y0, float y1) {
  std::uint32_t mask = 0;
  for (int i = 0; i < 8; ++i)
    if (b.minx[i] <= x1 && x0 <= b.maxx[i] && b.miny[i] <= y1 && y0 <= b.maxy[i]) mask |= 1u << i;
  return mask;
}

template <class Filter>
void check_filter(const char* name) {
  SplitMix64 rng(99);
  std::size_t bad = 0;
  std::string first;
  for (int round = 0; round < 200'000; ++round) {
    Boxes b;
    for (int i = 0; i < 8; ++i) {
      interval(rng, b.minx[i], b.maxx[i]);
      interval(rng, b.miny[i], b.maxy[i]);
    }
    float x0, x1, y0, y1;
    interval(rng, x0, x1);
    interval(rng, y0, y1);
    const std::uint32_t want = reference_mask(b, x0, x1, y0, y1);
    const std::uint32_t got = Filter::overlap8(b.minx, b.maxx, b.miny, b.maxy, x0, x1, y0, y1);
    // Append after some earlier candidates, into lists with room for the full stores.
    const std::uint32_t a = static_cast<std::uint32_t>(rng.next()), base = static_cast<std::uint32_t>(rng.next() >> 40);
    const std::uint32_t start = static_cast<std::uint32_t>(rng.next() % 5);
    std::vector<std::uint32_t> as(start + 16, 7), bs(start + 16, 7);
    const std::uint32_t n = Filter::append(want, a, base, as.data(), bs.data(), start);
    std::vector<std::uint32_t> want_b;
    for (std::uint32_t i = 0; i < 8; ++i)
      if (want >> i & 1) want_b.push_back(base + i);
    bool ok = got == want && n == start + want_b.size();
    for (std::uint32_t k = 0; ok && k < start; ++k) ok = as[k] == 7 && bs[k] == 7;  // earlier entries kept
    for (std::size_t k = 0; ok && k < want_b.size(); ++k) ok = as[start + k] == a && bs[start + k] == want_b[k];
    if (!ok && bad++ == 0)
      first = "round " + std::to_string(round) + ": mask " + std::to_string(got) + ", want " + std::to_string(want);
  }
  INFO(name << ": " << bad << " mismatches; first: " << first);
  CHECK(bad == 0);
}

/// below8 (the row search's step past the shapes above that end too early) against the
/// plain comparison, on values equal to, one ulp either side of, and far from x.
template <class Filter>
void check_below8(const char* name) {
  SplitMix64 rng(5);
  std::size_t bad = 0;
  for (int round = 0; round < 100'000; ++round) {
    float v[8], x, unused;
    interval(rng, x, unused);
    for (float& e : v) {
      interval(rng, e, unused);
      if (rng.next() % 3 == 0) e = x;
      if (rng.next() % 4 == 0) e = std::nextafter(x, (rng.next() & 1) ? HUGE_VALF : -HUGE_VALF);
    }
    std::uint32_t want = 0;
    for (std::uint32_t i = 0; i < 8; ++i) want |= static_cast<std::uint32_t>(v[i] < x) << i;
    bad += Filter::below8(v, x) != want;
  }
  INFO(name << " below8: " << bad << " mismatches");
  CHECK(bad == 0);
}

/// The 16-lane step: two runs of eight boxes at positions i and j of the same arrays.
template <class Filter>
void check_filter16(const char* name) {
  SplitMix64 rng(7);
  std::size_t bad = 0;
  std::string first;
  constexpr std::uint32_t size = 40;
  std::vector<float> minx(size), maxx(size), miny(size), maxy(size);
  for (int round = 0; round < 100'000; ++round) {
    for (std::uint32_t p = 0; p < size; ++p) {
      interval(rng, minx[p], maxx[p]);
      interval(rng, miny[p], maxy[p]);
    }
    float x0, x1, y0, y1;
    interval(rng, x0, x1);
    interval(rng, y0, y1);
    // Runs anywhere, overlapping or not (the row above may start inside the own run).
    const auto i = static_cast<std::uint32_t>(rng.next() % (size - 7)),
               j = static_cast<std::uint32_t>(rng.next() % (size - 7));
    Boxes run_i, run_j;
    for (std::uint32_t k = 0; k < 8; ++k) {
      run_i.minx[k] = minx[i + k], run_i.maxx[k] = maxx[i + k], run_i.miny[k] = miny[i + k],
      run_i.maxy[k] = maxy[i + k];
      run_j.minx[k] = minx[j + k], run_j.maxx[k] = maxx[j + k], run_j.miny[k] = miny[j + k],
      run_j.maxy[k] = maxy[j + k];
    }
    const std::uint32_t want = reference_mask(run_i, x0, x1, y0, y1) | reference_mask(run_j, x0, x1, y0, y1) << 8;
    const std::uint32_t got =
        Filter::overlap16(minx.data(), maxx.data(), miny.data(), maxy.data(), i, j, x0, x1, y0, y1);
    const std::uint32_t a = static_cast<std::uint32_t>(rng.next()), start = static_cast<std::uint32_t>(rng.next() % 5);
    std::vector<std::uint32_t> as(start + 16, 7), bs(start + 16, 7);
    const std::uint32_t n = Filter::append16(want, a, i, j, as.data(), bs.data(), start);
    std::vector<std::uint32_t> want_b;
    for (std::uint32_t k = 0; k < 16; ++k)
      if (want >> k & 1) want_b.push_back(k < 8 ? i + k : j + k - 8);
    bool ok = got == want && n == start + want_b.size();
    for (std::uint32_t k = 0; ok && k < start; ++k) ok = as[k] == 7 && bs[k] == 7;
    for (std::size_t k = 0; ok && k < want_b.size(); ++k) ok = as[start + k] == a && bs[start + k] == want_b[k];
    if (!ok && bad++ == 0)
      first = "round " + std::to_string(round) + ": mask " + std::to_string(got) + ", want " + std::to_string(want);
  }
  INFO(name << " (16 lanes): " << bad << " mismatches; first: " << first);
  CHECK(bad == 0);
}

}  // namespace

TEST_CASE("box filters equal the plain loop on every ISA the machine has", "[grid][box_filter]") {
  check_filter<BoxFilterSse2>("sse2");
  check_below8<BoxFilterSse2>("sse2");
#if defined(HITGRID_BOX_FILTER_X86)
  if (isa_supported(Isa::avx2)) {
    check_filter<BoxFilterAvx2>("avx2");
    check_below8<BoxFilterAvx2>("avx2");
  }
  if (isa_supported(Isa::avx512)) {
    check_filter<BoxFilterAvx512>("avx512");
    check_below8<BoxFilterAvx512>("avx512");
    check_filter16<BoxFilterAvx512>("avx512");
  }
#endif
}
