#include "hitgrid/core/predicates.hpp"

#include <cmath>

#include "expansion.hpp"
#include "filtered.hpp"
#include "predicate_polynomials.hpp"

namespace hitgrid {
namespace {

using E1 = exact::Expansion<1>;
using exact::Filtered;

// Shewchuk's error bound for a two-product sum/difference of rounded differences:
// |fl(l -+ r) - (l -+ r)| <= (3u + 16u^2)(|l| + |r|) (his ccwerrboundA).
constexpr double two_product_bound = (3.0 + 16.0 * 0x1p-53) * 0x1p-53;

[[gnu::cold, gnu::noinline]] int count_exact() {
  ++predicate_counters().exact_calls;
  return 0;
}

int sign_of(double v) { return (v > 0.0) - (v < 0.0); }

/// Sign of l + r from its rounded terms, if the filter can certify it; 2 otherwise.
/// Rounded products of differences of float32s never underflow, so a term's sign is the
/// exact term's sign: when the terms do not have opposite signs, the sum's sign is known.
int filtered_sum_sign(double l, double r) {
  if ((l >= 0.0 && r >= 0.0) || (l <= 0.0 && r <= 0.0)) return sign_of(l + r);
  const double s = l + r;
  const double bound = two_product_bound * (std::fabs(l) + std::fabs(r));
  if (s > bound || -s > bound) return sign_of(s);
  return 2;
}

template <class F>
int filtered_or_exact(Filtered f, F&& exact_sign) {
  if (f.certain()) return f.sign();
  count_exact();
  return exact_sign();
}

}  // namespace

PredicateCounters& predicate_counters() {
  thread_local PredicateCounters counters;
  return counters;
}

namespace exact {

int orient2d(Vec2 a, Vec2 b, Vec2 c) {
  return poly::orient(E1(a.x), E1(a.y), E1(b.x), E1(b.y), E1(c.x), E1(c.y)).sign();
}

int dot_sign(Vec2 a, Vec2 b, Vec2 c) {
  return poly::dot(E1(a.x), E1(a.y), E1(b.x), E1(b.y), E1(c.x), E1(c.y)).sign();
}

int compare_distance(Vec2 p, Vec2 q, float r) {
  return poly::distance(E1(p.x), E1(p.y), E1(q.x), E1(q.y), E1(r)).sign();
}

int compare_center_distance(Vec2 p, Vec2 q, float r1, float r2) {
  return poly::center_distance(E1(p.x), E1(p.y), E1(q.x), E1(q.y), E1(r1), E1(r2)).sign();
}

int compare_line_distance(Vec2 a, Vec2 b, Vec2 p, float r) {
  return poly::line_distance(E1(a.x), E1(a.y), E1(b.x), E1(b.y), E1(p.x), E1(p.y), E1(r)).sign();
}

}  // namespace exact

int orient2d(Vec2 a, Vec2 b, Vec2 c) {
  const double l = (double{b.x} - a.x) * (double{c.y} - a.y);
  const double r = (double{b.y} - a.y) * (double{c.x} - a.x);
  const int s = filtered_sum_sign(l, -r);
  if (s != 2) return s;
  count_exact();
  return exact::orient2d(a, b, c);
}

int dot_sign(Vec2 a, Vec2 b, Vec2 c) {
  const double l = (double{b.x} - a.x) * (double{c.x} - a.x);
  const double r = (double{b.y} - a.y) * (double{c.y} - a.y);
  const int s = filtered_sum_sign(l, r);
  if (s != 2) return s;
  count_exact();
  return exact::dot_sign(a, b, c);
}

int compare_distance(Vec2 p, Vec2 q, float r) {
  using F = Filtered;
  return filtered_or_exact(poly::distance(F(p.x), F(p.y), F(q.x), F(q.y), F(r)),
                           [&] { return exact::compare_distance(p, q, r); });
}

int compare_center_distance(Vec2 p, Vec2 q, float r1, float r2) {
  using F = Filtered;
  return filtered_or_exact(poly::center_distance(F(p.x), F(p.y), F(q.x), F(q.y), F(r1), F(r2)),
                           [&] { return exact::compare_center_distance(p, q, r1, r2); });
}

int compare_line_distance(Vec2 a, Vec2 b, Vec2 p, float r) {
  using F = Filtered;
  return filtered_or_exact(poly::line_distance(F(a.x), F(a.y), F(b.x), F(b.y), F(p.x), F(p.y), F(r)),
                           [&] { return exact::compare_line_distance(a, b, p, r); });
}

}  // namespace hitgrid
