// SegmentSideFilter (segment_side_filter.hpp): a box is rejected only when all four of
// its corners lie strictly on one side of the segment's line by the exact orient2d, on
// adversarial inputs (corners exactly on the line with products far past float's 24 bits,
// one ulp off it, huge and tiny coordinates, points, degenerate and axis-parallel
// segments); it does reject boxes clearly off the line; and every ISA's lanes the machine
// supports (the box filter's side8, from the ISA's own translation unit through
// lane_probe) equal the scalar twin lane for lane.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "grid_kernels.hpp"
#include "hitgrid/core/predicates.hpp"
#include "hitgrid/core/splitmix64.hpp"
#include "hitgrid/simd/isa.hpp"
#include "segment_side_filter.hpp"

using namespace hitgrid;

namespace {

double unit(SplitMix64& rng) { return static_cast<double>(rng.next() >> 11) * 0x1p-53; }

float nudge(SplitMix64& rng, float v) {
  switch (rng.next() % 4) {
    case 0:
      return std::nextafter(v, HUGE_VALF);
    case 1:
      return std::nextafter(v, -HUGE_VALF);
    default:
      return v;
  }
}

struct Case {
  float g[4];            // the segment
  float x0, x1, y0, y1;  // the box
};

/// A segment and a box from one of several families; corners often exactly on the line.
Case draw(SplitMix64& rng) {
  Case c{};
  const auto family = rng.next() % 6;
  // Integer lattice, up to 2^lattice: points on the line are exact, and the orientation
  // products reach 2^(2 lattice + 2), far past float's 24 bits.
  const int lattice = family == 0 ? 4 : (family == 1 ? 12 : 21);
  auto lat = [&] {
    return static_cast<double>(static_cast<std::int64_t>(rng.next() % (std::uint64_t{2} << lattice)) -
                               (std::int64_t{1} << lattice));
  };
  double ax = lat(), ay = lat(), bx = lat(), by = lat();
  if (rng.next() % 8 == 0) bx = ax;            // vertical
  if (rng.next() % 8 == 0) by = ay;            // horizontal
  if (rng.next() % 16 == 0) bx = ax, by = ay;  // a point
  double scale = 1.0;
  if (family == 3) scale = std::ldexp(1.0, -120 + static_cast<int>(rng.next() % 20));  // tiny
  if (family == 4) scale = std::ldexp(1.0, 80 + static_cast<int>(rng.next() % 20));    // huge
  // A corner on the line: a + t (b - a) for a t that keeps it on the lattice, or near it.
  const double k = static_cast<double>(rng.next() % 5) - 1.0;
  double px = ax + k * (bx - ax), py = ay + k * (by - ay);
  if (family == 5) {  // anywhere
    px = lat() * unit(rng);
    py = lat() * unit(rng);
  }
  const double w = (rng.next() % 3 == 0) ? 0.0 : std::floor(unit(rng) * 4.0);  // sometimes a point
  const double h = (rng.next() % 3 == 0) ? 0.0 : std::floor(unit(rng) * 4.0);
  // The on-line point is one of the box's corners.
  const bool left = rng.next() & 1, low = rng.next() & 1;
  double x0 = left ? px : px - w, y0 = low ? py : py - h;
  // Sometimes the box is moved off the line, by a lot or by an ulp.
  const auto off = rng.next() % 4;
  if (off == 0) {
    x0 += 10.0 * (1 + std::fabs(bx - ax));
    y0 -= 10.0 * (1 + std::fabs(by - ay));
  }
  c.g[0] = static_cast<float>(ax * scale);
  c.g[1] = static_cast<float>(ay * scale);
  c.g[2] = static_cast<float>(bx * scale);
  c.g[3] = static_cast<float>(by * scale);
  c.x0 = static_cast<float>(x0 * scale);
  c.x1 = static_cast<float>((x0 + w) * scale);
  c.y0 = static_cast<float>(y0 * scale);
  c.y1 = static_cast<float>((y0 + h) * scale);
  if (off == 1) {
    c.x0 = nudge(rng, c.x0);
    c.x1 = std::max(c.x0, nudge(rng, c.x1));
    c.y0 = nudge(rng, c.y0);
    c.y1 = std::max(c.y0, nudge(rng, c.y1));
  }
  // Zeros of either sign (the lanes' min and max must pick the scalar code's one).
  for (float* v : {&c.g[0], &c.g[1], &c.g[2], &c.g[3], &c.x0, &c.x1, &c.y0, &c.y1})
    if (*v == 0.0f && (rng.next() & 1)) *v = -*v;
  return c;
}

/// All four corners strictly on one side of the line, exactly.
bool strictly_one_side(const Case& c) {
  const Vec2 a{c.g[0], c.g[1]}, b{c.g[2], c.g[3]};
  const int s[4] = {orient2d(a, b, {c.x0, c.y0}), orient2d(a, b, {c.x1, c.y0}), orient2d(a, b, {c.x0, c.y1}),
                    orient2d(a, b, {c.x1, c.y1})};
  return s[0] != 0 && s[0] == s[1] && s[0] == s[2] && s[0] == s[3];
}

}  // namespace

TEST_CASE("SegmentSideFilter rejects only boxes strictly on one side of the line, exactly", "[grid]") {
  SplitMix64 rng(17);
  // Every supported ISA's lanes (Isa::scalar runs SSE2's on x86-64).
  std::vector<LaneProbe> probes;
  for (Isa isa : supported_isas())
    if (isa != Isa::scalar || !isa_supported(Isa::sse2)) probes.push_back(lane_probe(isa));
  std::vector<std::uint32_t> masks(probes.size());
  std::uint64_t rejected = 0, separated = 0, wrong = 0, lanes_differ = 0;
  std::string first;
  for (int round = 0; round < 400'000; ++round) {
    Case group[8];
    for (Case& c : group) c = draw(rng);
    // The eight boxes against the first segment, in every form.
    const SegmentSideFilter filter(group[0].g);
    float minx[8], maxx[8], miny[8], maxy[8];
    for (int i = 0; i < 8; ++i) {
      minx[i] = group[i].x0, maxx[i] = group[i].x1, miny[i] = group[i].y0, maxy[i] = group[i].y1;
    }
    for (std::size_t k = 0; k < probes.size(); ++k) masks[k] = probes[k].side8(filter, minx, maxx, miny, maxy);
    for (int i = 0; i < 8; ++i) {
      Case c = group[i];
      std::copy(group[0].g, group[0].g + 4, c.g);
      const bool keep = filter.may_touch(c.x0, c.x1, c.y0, c.y1);
      for (std::size_t k = 0; k < probes.size(); ++k) lanes_differ += keep != ((masks[k] >> i & 1) != 0);
      const bool apart = strictly_one_side(c);
      separated += apart;
      if (!keep) {
        ++rejected;
        if (!apart && wrong++ == 0)
          first = "segment " + std::to_string(c.g[0]) + ' ' + std::to_string(c.g[1]) + ' ' + std::to_string(c.g[2]) +
                  ' ' + std::to_string(c.g[3]) + " box " + std::to_string(c.x0) + ' ' + std::to_string(c.x1) + ' ' +
                  std::to_string(c.y0) + ' ' + std::to_string(c.y1);
      }
    }
  }
  INFO(rejected << " rejected of " << separated << " strictly on one side; wrong: " << wrong << ", first " << first);
  CHECK(wrong == 0);
  CHECK(lanes_differ == 0);
  // It filters: most boxes that are apart are rejected.
  CHECK(rejected > separated / 2);
}
