// time_of_impact: hand-worked cases; the kind against an exact GMP reference (minimum of
// the squared gap over [0, 1]); the returned time bracketed exactly: just before it the
// disks are apart, and the exact first contact lies within the stated bound of it.
#include "hitgrid/core/time_of_impact.hpp"

#include <catch2/catch.hpp>

#include <cmath>

#include "geometry_reference.hpp"
#include "hitgrid/core/intersects.hpp"

namespace hitgrid {
namespace {

using namespace geomtest;

struct Case {
  Circle c1;
  Vec2 v1;
  Circle c2;
  Vec2 v2;
};

/// g(t) = |w + t v|^2 - R^2 = A t^2 + 2 B t + C over the rationals.
struct Gap {
  QVec w, v;
  mpq_class R, A, B, C;
  explicit Gap(const Case& k)
      : w(sub(QV(k.c2.c), QV(k.c1.c))), v(sub(QV(k.v2), QV(k.v1))), R(Q(k.c1.r) + Q(k.c2.r)) {
    A = dot(v, v);
    B = dot(w, v);
    C = dot(w, w) - R * R;
  }
  mpq_class at(const mpq_class& t) const { return (A * t + 2 * B) * t + C; }
};

ToiKind reference_kind(const Gap& g) {
  if (g.C < 0) return ToiKind::overlapping;
  if (g.C == 0) return ToiKind::touching;
  if (g.A == 0) return ToiKind::none;
  mpq_class t = -g.B / g.A;
  if (t < 0) t = 0;
  if (t > 1) t = 1;
  return g.at(t) <= 0 ? ToiKind::impact : ToiKind::none;
}

bool check_case(const Case& k, ToiKind& kind_out) {
  const TimeOfImpact got = time_of_impact(k.c1, k.v1, k.c2, k.v2);
  const Gap g(k);
  const ToiKind want = reference_kind(g);
  kind_out = want;
  if (got.kind != want || got.hit() != (want != ToiKind::none)) return false;
  if (want != ToiKind::impact) return got.t == 0.0;
  const mpq_class t = Q(got.t);
  if (!(t > 0 && t <= 1)) return false;
  // The exact first contact t1* satisfies |t - t1*| <= 2^-46 t1*, so t1* lies in
  // [t - delta, t + delta] with delta = 2^-46 t (1 + 2^-40).
  const mpq_class delta = pow2(-46) * (1 + pow2(-40)) * t;
  const mpq_class tm = -g.B / g.A;
  // Earlier: at t (1 - 2^-44), strictly before t - delta, the disks are apart (g > 0), and
  // not past the closest approach (so g > 0 on all of [0, that time]: g is convex and
  // g(0) = C > 0).
  const mpq_class early = t * (1 - pow2(-44));
  if (!(g.at(early) > 0 && early < tm)) return false;
  // t1* <= t + delta: the gap is <= 0 there, or the closest approach is already past.
  const mpq_class late = t + delta;
  if (!(g.at(late) <= 0 || late >= tm)) return false;
  // At t itself the disks touch up to the bound: | |w + t v| - R | <= |v|_1 delta.
  const QVec at_t = add(g.w, scale(t, g.v));
  const mpq_class dist2 = dot(at_t, at_t);
  const mpq_class slack = (qabs(g.v.x) + qabs(g.v.y)) * delta;
  const mpq_class lo = qmax(mpq_class(0), mpq_class(g.R - slack));
  return lo * lo <= dist2 && dist2 <= (g.R + slack) * (g.R + slack);
}

Case make_case(Rng& rng, int family) {
  const Frame& f = frames[rng.between(0, 4)];
  const float s = static_cast<float>(f.scale);
  auto small = [&](int lo, int hi) { return s * static_cast<float>(rng.between(lo, hi)); };
  switch (family) {
    case 0: {  // random floats
      const float scale = rng.chance(0.5) ? 1.0f : 100.0f;
      return {{{random_float(rng), random_float(rng)}, std::fabs(random_float(rng))},
              {scale * static_cast<float>(rng.unit() - 0.5), scale * static_cast<float>(rng.unit() - 0.5)},
              {{random_float(rng), random_float(rng)}, std::fabs(random_float(rng))},
              {random_float(rng), random_float(rng)}};
    }
    case 1:  // lattice positions, radii and velocities
      return {{frame_point(f, rng.between(-4, 4), rng.between(-4, 4)), small(0, 2)},
              {small(-3, 3), small(-3, 3)},
              {frame_point(f, rng.between(-4, 4), rng.between(-4, 4)), small(0, 2)},
              {small(-3, 3), small(-3, 3)}};
    case 2: {  // grazing: c2 passes c1 at exactly distance R (3-4-5 directions), or an ulp off
      const int R = rng.between(1, 2) * 5;
      const int r1 = rng.between(0, R);
      const int m = rng.between(1, 3);
      // Closest point at c1 + (3, 4) R / 5 (distance R); direction (-4, 3).
      const Vec2 start = frame_point(f, 3 * R / 5 + 4 * m, 4 * R / 5 - 3 * m);
      const Vec2 vel{-8.0f * s * static_cast<float>(m), 6.0f * s * static_cast<float>(m)};  // touch at t = 0.5
      return {{frame_point(f, 0, 0), s * static_cast<float>(r1)},
              {0.0f, 0.0f},
              {{nudge(rng, start.x), start.y}, nudge(rng, s * static_cast<float>(R - r1))},
              {nudge(rng, vel.x), vel.y}};
    }
    case 3: {  // contact exactly at t = 1 (or an ulp short / past)
      const int gap = rng.between(1, 4);
      const Vec2 c2 = frame_point(f, 4 + gap, 0);
      return {{frame_point(f, 0, 0), 2.0f * s}, {small(-1, 1), 0.0f}, {c2, 2.0f * s},
              {nudge(rng, -s * static_cast<float>(gap)), 0.0f}};
    }
    case 4: {  // zero relative velocity, and starts touching or overlapping
      const Vec2 v{small(-3, 3), small(-3, 3)};
      return {{frame_point(f, 0, 0), small(0, 3)}, v, {frame_point(f, rng.between(-5, 5), 0), small(0, 3)},
              rng.chance(0.5) ? v : Vec2{small(-3, 3), small(-3, 3)}};
    }
    default: {  // velocities of very different size
      const float big = rng.chance(0.5) ? 1.0e7f : 1.0e-7f;
      return {{{random_float(rng), random_float(rng)}, std::fabs(random_float(rng))},
              {big * static_cast<float>(rng.unit() - 0.5), big * static_cast<float>(rng.unit() - 0.5)},
              {{random_float(rng), random_float(rng)}, std::fabs(random_float(rng))},
              {0.0f, 0.0f}};
    }
  }
}

}  // namespace

TEST_CASE("time_of_impact: hand-worked cases", "[geometry][time_of_impact]") {
  SECTION("head-on") {
    const auto r = time_of_impact({{0, 0}, 1}, {0, 0}, {{10, 0}, 1}, {-16, 0});
    CHECK(r.kind == ToiKind::impact);
    CHECK(r.t == 0.5);
  }
  SECTION("both moving: the relative motion counts") {
    const auto r = time_of_impact({{0, 0}, 1}, {4, 0}, {{10, 0}, 1}, {-12, 0});
    CHECK(r.kind == ToiKind::impact);
    CHECK(r.t == 0.5);
  }
  SECTION("grazing touch counts; one ulp further is a miss") {
    auto r = time_of_impact({{0, 0}, 1}, {0, 0}, {{-5, 2}, 1}, {10, 0});
    CHECK(r.kind == ToiKind::impact);
    CHECK(r.t == 0.5);
    r = time_of_impact({{0, 0}, 1}, {0, 0}, {{-5, std::nextafter(2.0f, 3.0f)}, 1}, {10, 0});
    CHECK(r.kind == ToiKind::none);
  }
  SECTION("contact exactly at the end of the frame; an ulp short is a miss") {
    auto r = time_of_impact({{0, 0}, 1}, {0, 0}, {{4, 0}, 1}, {-2, 0});
    CHECK(r.kind == ToiKind::impact);
    CHECK(r.t == 1.0);
    r = time_of_impact({{0, 0}, 1}, {0, 0}, {{4, 0}, 1}, {std::nextafter(-2.0f, 0.0f), 0});
    CHECK(r.kind == ToiKind::none);
  }
  SECTION("at t = 0: overlapping, touching (even when separating)") {
    auto r = time_of_impact({{0, 0}, 2}, {1, 0}, {{3, 0}, 2}, {5, 0});
    CHECK(r.kind == ToiKind::overlapping);
    CHECK(r.t == 0.0);
    r = time_of_impact({{0, 0}, 2}, {0, 0}, {{3, 4}, 3}, {3, 4});
    CHECK(r.kind == ToiKind::touching);
    CHECK(r.t == 0.0);
    CHECK(r.hit());
  }
  SECTION("no contact: parallel motion, moving apart, too slow, zero radii") {
    CHECK(time_of_impact({{0, 0}, 1}, {3, 3}, {{5, 0}, 1}, {3, 3}).kind == ToiKind::none);
    CHECK(time_of_impact({{0, 0}, 1}, {0, 0}, {{5, 0}, 1}, {1, 0}).kind == ToiKind::none);
    CHECK(time_of_impact({{0, 0}, 1}, {0, 0}, {{5, 0}, 1}, {-2, 0}).kind == ToiKind::none);
    auto r = time_of_impact({{0, 0}, 0}, {0, 0}, {{-1, 1}, 0}, {2, -2});  // points meet at t = 0.5
    CHECK(r.kind == ToiKind::impact);
    CHECK(r.t == 0.5);
    CHECK(time_of_impact({{0, 0}, 0}, {0, 0}, {{-1, 1}, 0}, {2, -1}).kind == ToiKind::none);
  }
}

TEST_CASE("time_of_impact against the exact reference", "[geometry][time_of_impact]") {
  Rng rng(60221);
  int failures = 0;
  long impacts = 0, starts = 0, nones = 0;
  for (int i = 0; i < 100000 && failures < 20; ++i) {
    const Case k = make_case(rng, i % 6);
    ToiKind want;
    if (!check_case(k, want)) {
      ++failures;
      const auto got = time_of_impact(k.c1, k.v1, k.c2, k.v2);
      FAIL_CHECK("c1 " << hex(k.c1.c) << " r " << hex(k.c1.r) << " v " << hex(k.v1) << "; c2 " << hex(k.c2.c) << " r "
                       << hex(k.c2.r) << " v " << hex(k.v2) << ": kind " << int(got.kind) << " t " << got.t
                       << ", reference kind " << int(want));
    }
    impacts += want == ToiKind::impact;
    starts += want == ToiKind::overlapping || want == ToiKind::touching;
    nones += want == ToiKind::none;
    // Cross-check with the static test: contact at t = 0 is intersects() of the disks.
    if ((want == ToiKind::overlapping || want == ToiKind::touching) != intersects(k.c1, k.c2)) {
      ++failures;
      FAIL_CHECK("t = 0 contact disagrees with intersects(Circle, Circle)");
    }
  }
  CHECK(failures == 0);
  CHECK(impacts > 20000);
  CHECK(starts > 5000);
  CHECK(nones > 20000);
}

}  // namespace hitgrid
