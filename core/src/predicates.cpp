#include "hitgrid/core/predicates.hpp"

#include <cmath>

#include "expansion.hpp"
#include "filtered.hpp"
#include "hitgrid/core/detail/exact_predicates.hpp"
#include "hitgrid/core/detail/geometry_polynomials.hpp"
#include "hitgrid/core/detail/predicate_counters.hpp"
#include "hitgrid/core/detail/predicate_polynomials.hpp"
#include "orient2d_filter.hpp"

namespace hitgrid {
namespace {

using E1 = exact::Expansion<1>;
using exact::Filtered;

[[gnu::cold, gnu::noinline]] int count_exact() {
  ++predicate_counters().exact_calls;
  return 0;
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

int dot_sign(Vec2 a, Vec2 b, Vec2 c) { return poly::dot(E1(a.x), E1(a.y), E1(b.x), E1(b.y), E1(c.x), E1(c.y)).sign(); }

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

namespace detail {

int orient2d_exact_counted(Vec2 a, Vec2 b, Vec2 c) {
  count_exact();
  return exact::orient2d(a, b, c);
}

int dot_sign_exact_counted(Vec2 a, Vec2 b, Vec2 c) {
  count_exact();
  return exact::dot_sign(a, b, c);
}

}  // namespace detail

int orient2d(Vec2 a, Vec2 b, Vec2 c) { return detail::orient2d_filtered(a, b, c); }

int dot_sign(Vec2 a, Vec2 b, Vec2 c) { return detail::dot_sign_filtered(a, b, c); }

int orient_along(Vec2 o, Vec2 d, Vec2 p) {
  using F = Filtered;
  return filtered_or_exact(poly::cross_dir(F(o.x), F(o.y), F(d.x), F(d.y), F(p.x), F(p.y)), [&] {
    return poly::cross_dir(E1(o.x), E1(o.y), E1(d.x), E1(d.y), E1(p.x), E1(p.y)).sign();
  });
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
