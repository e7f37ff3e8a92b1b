// The grid's lane helpers (lane_masks.hpp) against plain loops, lane for lane, over every
// mask: the set-bit tables (set_bits4, set_bits8) that SSE2's and AVX2's set_lanes read;
// the SSE2 forms, which baseline code (this file) may instantiate: mask_bits of float and
// double lanes, mask_bits with a mask, bit_count and set_lanes. The AVX2 and AVX-512 forms
// exist only in their own translation units (grid_kernels_{avx2,avx512}.cpp), so they are
// reached as test_box_filter.cpp reaches them, through each supported ISA's lane probe
// (grid_kernels.hpp), with inputs that make each helper's answer the mask itself:
// mask_bits through overlap8 and below8 (and on AVX-512's sixteen lanes, with
// load_halves, through overlap16); set_lanes and bit_count through append and tile_pairs
// (mask_bits with a mask there too); compress through append16; load_first through
// skip_below, at the end of a readable page, so that a read past n would fault.
#include <algorithm>
#include <bit>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "grid_kernels.hpp"
#include "hitgrid/core/splitmix64.hpp"
#include "hitgrid/simd/isa.hpp"
#include "hitgrid/simd/detail/lane_masks.hpp"

using namespace hitgrid;

namespace {

/// The set bits of m, lowest first.
std::vector<std::uint32_t> set_bits(std::uint32_t m) {
  std::vector<std::uint32_t> out;
  for (std::uint32_t k = 0; k < 32; ++k)
    if (m >> k & 1) out.push_back(k);
  return out;
}

/// The ISAs whose lanes to check: every supported one (Isa::scalar runs SSE2's kernels on
/// x86-64, so it is left out there), as test_box_filter.cpp does.
std::vector<Isa> lane_isas() {
  std::vector<Isa> out;
  for (Isa isa : supported_isas())
    if (isa != Isa::scalar || !isa_supported(Isa::sse2)) out.push_back(isa);
  return out;
}

constexpr float inf = HUGE_VALF;
constexpr std::uint32_t sentinel = 0xDEADBEEFu;

/// Box columns of `size` boxes, then `padding` empty ones (min +inf, max -inf), as the
/// grid pads its columns.
struct Columns {
  std::vector<float> minx, maxx, miny, maxy;
  Columns(std::size_t size, std::size_t padding)
      : minx(size + padding, inf), maxx(size + padding, -inf), miny(size + padding, inf), maxy(size + padding, -inf) {
    for (std::size_t k = 0; k < size; ++k) miny[k] = 0, maxy[k] = 1;
  }
  /// Box k (of the first `size`) overlaps the unit square [0, 1]^2 iff in(k); otherwise it
  /// is [5, 6] x [0, 1], which misses it in x only.
  template <class In>
  void assign(std::size_t size, In in) {
    for (std::size_t k = 0; k < size; ++k) {
      minx[k] = in(k) ? 0.0f : 5.0f;
      maxx[k] = minx[k] + 1;
    }
  }
  bool overlap(std::size_t a, std::size_t b) const {
    return minx[a] <= maxx[b] && minx[b] <= maxx[a] && miny[a] <= maxy[b] && miny[b] <= maxy[a];
  }
};

/// Candidate lists of `slots` sentinels.
struct Lists {
  std::vector<std::uint32_t> a, b;
  explicit Lists(std::size_t slots) : a(slots, sentinel), b(slots, sentinel) {}
  void reset() {
    std::fill(a.begin(), a.end(), sentinel);
    std::fill(b.begin(), b.end(), sentinel);
  }
  /// Entries [start, start + want_a.size()) are want_a and want_b; nothing before start
  /// and nothing from `untouched` on was written.
  bool holds(std::size_t start, const std::vector<std::uint32_t>& want_a, const std::vector<std::uint32_t>& want_b,
             std::size_t untouched) const {
    for (std::size_t k = 0; k < start; ++k)
      if (a[k] != sentinel || b[k] != sentinel) return false;
    for (std::size_t k = 0; k < want_a.size(); ++k)
      if (a[start + k] != want_a[k] || b[start + k] != want_b[k]) return false;
    for (std::size_t k = untouched; k < a.size(); ++k)
      if (a[k] != sentinel || b[k] != sentinel) return false;
    return true;
  }
};

std::uint32_t never_full(void* calls, std::uint32_t count) {
  ++*static_cast<int*>(calls);
  return count;
}

}  // namespace

TEST_CASE("the set-bit tables list each mask's set lanes in order", "[lane_masks]") {
  for (std::uint32_t m = 0; m < 16; ++m) {
    INFO("mask " << m);
    const std::vector<std::uint32_t> want = set_bits(m);
    REQUIRE(lane_detail::set_bits4.count[m] == want.size());
    for (std::size_t k = 0; k < want.size(); ++k) CHECK(lane_detail::set_bits4.position[m][k] == want[k]);
  }
  for (std::uint32_t m = 0; m < 256; ++m) {
    INFO("mask " << m);
    const std::vector<std::uint32_t> want = set_bits(m);
    for (std::size_t k = 0; k < want.size(); ++k) CHECK(lane_detail::set_bits8.position[m][k] == want[k]);
  }
  STATIC_REQUIRE(std::is_same_v<EightBoxArch<Sse2Arch>, Sse2Arch>);
  STATIC_REQUIRE(std::is_same_v<EightBoxArch<Avx2Arch>, Avx2Arch>);
  STATIC_REQUIRE(std::is_same_v<EightBoxArch<Avx512Arch>, Avx512HalfArch>);
}

TEST_CASE("SSE2's lane helpers equal plain loops for every mask", "[lane_masks]") {
  using F = xsimd::batch<float, Sse2Arch>;
  using D = xsimd::batch<double, Sse2Arch>;
  for (std::uint32_t m = 0; m < 16; ++m) {
    INFO("mask " << m);
    // Lanes true where m has a bit: from a comparison, whatever the false lanes hold
    // (NaN, -0, a negative number) and whatever the true ones do.
    float ones[4], nans[4], zeros[4];
    for (std::uint32_t k = 0; k < 4; ++k) {
      const bool on = m >> k & 1;
      ones[k] = on ? 1.0f : 0.0f;
      nans[k] = on ? 1.0f : std::numeric_limits<float>::quiet_NaN();
      zeros[k] = on ? -1.0f : -0.0f;
    }
    CHECK(mask_bits<Sse2Arch>(F::load_unaligned(ones) > F(0.5f)) == m);
    CHECK(mask_bits<Sse2Arch>(F::load_unaligned(nans) > F(0.5f)) == m);
    CHECK(mask_bits<Sse2Arch>(F::load_unaligned(zeros) < F(0.0f)) == m);
    CHECK(mask_bits<Sse2Arch>(F::load_unaligned(ones) <= F(0.5f)) == (~m & 0xfu));
    for (std::uint32_t bits = 0; bits < 16; ++bits)
      CHECK(mask_bits<Sse2Arch>(F::load_unaligned(ones) > F(0.5f), bits) == (m & bits));
    CHECK(bit_count<Sse2Arch>(m) == static_cast<std::uint32_t>(std::popcount(m)));
    // set_lanes: first + each set lane, packed to the front.
    const std::vector<std::uint32_t> lanes = set_bits(m);
    for (std::uint32_t first : {0u, 1u, 1000u, 0xFFFFFF00u}) {
      alignas(16) std::uint32_t got[4];
      set_lanes<Sse2Arch>(m, first).store_aligned(got);
      for (std::size_t k = 0; k < lanes.size(); ++k) CHECK(got[k] == first + lanes[k]);
    }
  }
  for (std::uint32_t m = 0; m < 4; ++m) {
    INFO("double mask " << m);
    const double v[2] = {m & 1 ? 1.0 : 0.0, m & 2 ? 1.0 : 0.0};
    CHECK(mask_bits<Sse2Arch>(D::load_unaligned(v) > D(0.5)) == m);
  }
}

TEST_CASE("every ISA's mask_bits gives the mask of its lanes, in lane order", "[lane_masks]") {
  for (Isa isa : lane_isas()) {
    const LaneProbe probe = lane_probe(isa);
    std::size_t bad = 0;
    std::string first;
    // Eight lanes (two steps of four on SSE2): overlap8 and below8.
    Columns c8(8, 8);
    for (std::uint32_t m = 0; m < 256; ++m) {
      c8.assign(8, [&](std::size_t k) { return m >> k & 1; });
      const std::uint32_t got =
          probe.overlap8(c8.minx.data(), c8.maxx.data(), c8.miny.data(), c8.maxy.data(), 0, 1, 0, 1);
      float v[8];
      for (std::uint32_t k = 0; k < 8; ++k) v[k] = m >> k & 1 ? 0.25f : 0.75f;
      const std::uint32_t below = probe.below8(v, 0.5f);
      if ((got != m || below != m) && bad++ == 0)
        first = "mask " + std::to_string(m) + ": overlap8 " + std::to_string(got) + ", below8 " + std::to_string(below);
    }
    // Sixteen lanes from two runs of eight (AVX-512: load_halves, then mask_bits).
    if (probe.overlap16 != nullptr) {
      Columns c(24, 8);
      for (std::uint32_t m = 0; m < (1u << 16); ++m) {
        // 24 boxes: the mask's 16, then the complement of its low eight.
        const std::uint32_t pattern = m | ((~m & 0xffu) << 16);
        c.assign(24, [&](std::size_t k) { return pattern >> k & 1; });
        const std::uint32_t runs[][2] = {{0, 8}, {8, 0}, {4, 4}, {16, 3}};
        for (const auto& [i, j] : runs) {
          std::uint32_t want = 0;
          for (std::uint32_t l = 0; l < 16; ++l) want |= (pattern >> (l < 8 ? i + l : j + l - 8) & 1) << l;
          const std::uint32_t got =
              probe.overlap16(c.minx.data(), c.maxx.data(), c.miny.data(), c.maxy.data(), i, j, 0, 1, 0, 1);
          if (got != want && bad++ == 0)
            first = "overlap16, mask " + std::to_string(m) + ", runs " + std::to_string(i) + " " + std::to_string(j);
        }
      }
    }
    INFO(isa_name(isa) << ": " << bad << " mismatches; first: " << first);
    CHECK(bad == 0);
  }
}

TEST_CASE("every ISA's set_lanes, bit_count and compress append each set lane, in order", "[lane_masks]") {
  SplitMix64 rng(12);
  for (Isa isa : lane_isas()) {
    const LaneProbe probe = lane_probe(isa);
    std::size_t bad = 0;
    std::string first;
    // append: eight lanes (set_lanes and bit_count on the eight-box arch), 8 slots of room.
    for (std::uint32_t m = 0; m < 256; ++m)
      for (std::uint32_t start : {0u, 3u}) {
        const auto a = static_cast<std::uint32_t>(rng.next()), b = static_cast<std::uint32_t>(rng.next() >> 40);
        std::vector<std::uint32_t> want_a, want_b;
        for (std::uint32_t k : set_bits(m)) want_a.push_back(a), want_b.push_back(b + k);
        Lists got(start + 8 + 8);  // 8 slots of room, then a guard
        const std::uint32_t n = probe.append(m, a, b, got.a.data(), got.b.data(), start);
        const bool ok = n == start + want_a.size() && got.holds(start, want_a, want_b, start + 8);
        if (!ok && bad++ == 0) first = "append, mask " + std::to_string(m) + ", start " + std::to_string(start);
      }
    // append16 (AVX-512: compress and bit_count on sixteen lanes), 16 slots of room.
    if (probe.append16 != nullptr) {
      Lists got(4 + 16 + 8);
      for (std::uint32_t m = 0; m < (1u << 16); ++m) {
        const std::uint32_t start = m % 5, a = m * 7919u;
        const std::uint32_t i = static_cast<std::uint32_t>(rng.next() >> 40),
                            j = static_cast<std::uint32_t>(rng.next() >> 40);
        std::vector<std::uint32_t> want_a, want_b;
        for (std::uint32_t k : set_bits(m)) want_a.push_back(a), want_b.push_back(k < 8 ? i + k : j + k - 8);
        got.reset();
        const std::uint32_t n = probe.append16(m, a, i, j, got.a.data(), got.b.data(), start);
        const bool ok = n == start + want_a.size() && got.holds(start, want_a, want_b, start + 16);
        if (!ok && bad++ == 0) first = "append16, mask " + std::to_string(m);
      }
    }
    INFO(isa_name(isa) << ": " << bad << " mismatches; first: " << first);
    CHECK(bad == 0);
  }
}

TEST_CASE("every ISA's tile lanes pair each overlapping lane, masked or not, in lane order", "[lane_masks]") {
  // tile_pairs (AVX2, AVX-512): set_lanes and bit_count on the full arch, mask_bits with a
  // mask for the shapes inside the tile, which pair only with the lanes before them.
  SplitMix64 rng(13);
  for (Isa isa : lane_isas()) {
    const LaneProbe probe = lane_probe(isa);
    if (probe.tile_pairs == nullptr) continue;
    const std::uint32_t lanes = probe.tile_lanes;
    std::vector<std::uint32_t> masks;
    if (lanes <= 8) {
      for (std::uint32_t m = 0; m < (1u << lanes); ++m) masks.push_back(m);
    } else {
      masks = {0, 1, 0x8000, 0xffff, 0x5555, 0xaaaa, 0x00ff, 0xff00};
      for (int r = 0; r < 4000; ++r) masks.push_back(static_cast<std::uint32_t>(rng.next() & 0xffff));
    }
    std::size_t bad = 0, pairs = 0;
    std::string first;
    int full_calls = 0;
    const std::uint32_t up = 2 * lanes, room = 1000;
    Columns c(up + 1, 8);
    Lists got(room + lanes + 8);
    for (std::uint32_t m : masks) {
      for (std::uint32_t n : {lanes, lanes - 3, 1u}) {
        // The tile's n shapes at 0 (m's bits say which meet the unit square), the shapes
        // after them (the next row's, every one meeting it: not the tile's), the up shape
        // (the unit square) at 2 * lanes, then the padding.
        c.assign(up + 1, [&](std::size_t k) { return k >= n || (m >> k & 1); });
        const std::uint32_t start = m % 3;
        // The shapes inside the tile against the lanes before them, then the up shape
        // against the tile's lanes.
        std::vector<std::uint32_t> want_a, want_b;
        for (std::uint32_t u = 1; u < n; ++u)
          for (std::uint32_t k = 0; k < u; ++k)
            if (c.overlap(k, u)) want_a.push_back(k), want_b.push_back(u);
        for (std::uint32_t k = 0; k < n; ++k)
          if (c.overlap(k, up)) want_a.push_back(k), want_b.push_back(up);
        got.reset();
        const std::uint32_t count =
            probe.tile_pairs(c.minx.data(), c.maxx.data(), c.miny.data(), c.maxy.data(), 0, n, 1, n, up, up + 1,
                             got.a.data(), got.b.data(), start, room, &never_full, &full_calls);
        const bool ok = count == start + want_a.size() && got.holds(start, want_a, want_b, count + lanes);
        pairs += want_a.size();
        if (!ok && bad++ == 0) first = "mask " + std::to_string(m) + ", n " + std::to_string(n);
      }
    }
    INFO(isa_name(isa) << ": " << bad << " mismatches; first: " << first);
    CHECK(bad == 0);
    CHECK(full_calls == 0);
    CHECK(pairs > 1000);
  }
}

TEST_CASE("every ISA's skip_below counts the leading lanes below x, reading no more than n on AVX-512",
          "[lane_masks]") {
  for (Isa isa : lane_isas()) {
    INFO(isa_name(isa));
    const LaneProbe probe = lane_probe(isa);
    const std::uint32_t lanes = probe.skip_lanes;
    std::size_t bad = 0;
    float v[24];
    for (std::uint32_t run = 0; run <= 20; ++run)
      for (std::uint32_t n = 0; n <= 20; ++n) {
        for (std::uint32_t k = 0; k < 24; ++k) v[k] = k < run ? -1.0f : (k % 2 ? 0.5f : inf);
        bad += probe.skip_below(v, 0.5f, n) != std::min({run, n, lanes});
      }
    CHECK(bad == 0);
#if defined(__linux__)
    // load_first (AVX-512) reads p[0 .. n) only: the values end at a page that cannot be
    // read. (Eight-lane ISAs read eight values whatever n is: the grid's columns are
    // padded for them.)
    if (lanes == 16) {
      const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
      void* map = mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      REQUIRE(map != MAP_FAILED);
      REQUIRE(mprotect(static_cast<char*>(map) + page, page, PROT_NONE) == 0);
      float* end = reinterpret_cast<float*>(static_cast<char*>(map) + page);
      std::size_t wrong = 0;
      for (std::uint32_t n = 0; n <= 16; ++n) {
        float* p = end - n;
        for (std::uint32_t k = 0; k < n; ++k) p[k] = -1.0f;
        wrong += probe.skip_below(p, 0.5f, n) != n;
        if (n > 0) p[n - 1] = 1.0f;  // the last one not below: the count stops before it
        wrong += probe.skip_below(p, 0.5f, n) != (n == 0 ? 0 : n - 1);
      }
      CHECK(wrong == 0);
      munmap(map, 2 * page);
    }
#endif
  }
}
