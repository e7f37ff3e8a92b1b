#include <catch2/catch.hpp>

#include <gmpxx.h>

#include <cmath>
#include <random>

#include "hitgrid/core/aabb.hpp"

using namespace hitgrid;

TEST_CASE("Segment and box bounds are exact", "[aabb]") {
  CHECK(bounds(Segment{{3, -1}, {1, 2}}) == Aabb{{1, -1}, {3, 2}});
  CHECK(bounds(Box{{1, 2}, {3, 4}}) == Aabb{{1, 2}, {3, 4}});
  CHECK(bounds(Circle{{1, 2}, 0}) == Aabb{{1, 2}, {1, 2}});
}

TEST_CASE("Circle bounds contain the exact disk for every magnitude", "[aabb]") {
  // Exact check: min.x <= cx - r and max.x >= cx + r as rationals.
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int> exponent(-140, 120);
  std::uniform_real_distribution<float> mantissa(-2.0f, 2.0f);
  long checked = 0;
  for (int i = 0; i < 200000; ++i) {
    const float cx = std::ldexp(mantissa(rng), exponent(rng));
    const float cy = std::ldexp(mantissa(rng), exponent(rng));
    const float r = std::fabs(std::ldexp(mantissa(rng), exponent(rng)));
    const Aabb box = bounds(Circle{{cx, cy}, r});
    const mpq_class qx(cx), qy(cy), qr(r);
    const bool ok = mpq_class(box.min.x) <= qx - qr && mpq_class(box.max.x) >= qx + qr &&
                    mpq_class(box.min.y) <= qy - qr && mpq_class(box.max.y) >= qy + qr;
    if (!ok) FAIL("circle " << std::hexfloat << cx << " " << cy << " " << r);
    ++checked;
  }
  CHECK(checked == 200000);
}

TEST_CASE("Aabb overlap is closed", "[aabb]") {
  CHECK(overlaps(Aabb{{0, 0}, {1, 1}}, Aabb{{1, 1}, {2, 2}}));
  CHECK_FALSE(overlaps(Aabb{{0, 0}, {1, 1}}, Aabb{{std::nextafter(1.0f, 2.0f), 0}, {2, 2}}));
}
