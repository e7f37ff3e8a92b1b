#include "hitgrid/core/scene.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <limits>
#include <utility>
#include <vector>
#include <xsimd/xsimd.hpp>

#include "hitgrid/core/detail/fnv1a.hpp"
#include "hitgrid/core/error.hpp"

namespace hitgrid {
namespace {

std::string format_float(float v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(v));
  return buf;
}

std::optional<std::string> non_finite(const char* name, float v) {
  if (std::isfinite(v)) return std::nullopt;
  return std::string(name) + " is " + (std::isnan(v) ? "NaN" : "infinite");
}

void check_room(ShapeKind kind, std::size_t count) {
  if (count >= ShapeId::max_count) [[unlikely]]
    throw Error("too many " + std::string(kind_name(kind)) + "s: a scene holds at most " +
                std::to_string(ShapeId::max_count) + " shapes of one kind");
}

}  // namespace

std::optional<std::string> invalid_reason(const Segment& s) {
  if (auto r = non_finite("ax", s.a.x)) return r;
  if (auto r = non_finite("ay", s.a.y)) return r;
  if (auto r = non_finite("bx", s.b.x)) return r;
  if (auto r = non_finite("by", s.b.y)) return r;
  return std::nullopt;
}

std::optional<std::string> invalid_reason(const Circle& c) {
  if (auto r = non_finite("cx", c.c.x)) return r;
  if (auto r = non_finite("cy", c.c.y)) return r;
  if (auto r = non_finite("r", c.r)) return r;
  if (c.r < 0.0f) return "negative radius " + format_float(c.r);
  return std::nullopt;
}

std::optional<std::string> invalid_reason(const Box& b) {
  if (auto r = non_finite("minx", b.min.x)) return r;
  if (auto r = non_finite("miny", b.min.y)) return r;
  if (auto r = non_finite("maxx", b.max.x)) return r;
  if (auto r = non_finite("maxy", b.max.y)) return r;
  if (b.min.x > b.max.x) return "inverted box: minx " + format_float(b.min.x) + " > maxx " + format_float(b.max.x);
  if (b.min.y > b.max.y) return "inverted box: miny " + format_float(b.min.y) + " > maxy " + format_float(b.max.y);
  return std::nullopt;
}

namespace {

// Each check: the common case first, one cheap test, and the detailed reason only when it
// fails. Throws InvalidShapeError naming `id`.
void check_valid(const Segment& s, ShapeId id) {
  const bool valid = std::isfinite(s.a.x) && std::isfinite(s.a.y) && std::isfinite(s.b.x) && std::isfinite(s.b.y);
  if (auto reason = valid ? std::nullopt : invalid_reason(s)) [[unlikely]]
    throw InvalidShapeError(id, *reason);
}
void check_valid(const Circle& c, ShapeId id) {
  const bool valid = std::isfinite(c.c.x) && std::isfinite(c.c.y) && std::isfinite(c.r) && c.r >= 0.0f;
  if (auto reason = valid ? std::nullopt : invalid_reason(c)) [[unlikely]]
    throw InvalidShapeError(id, *reason);
}
void check_valid(const Box& b, ShapeId id) {
  const bool valid = std::isfinite(b.min.x) && std::isfinite(b.min.y) && std::isfinite(b.max.x) &&
                     std::isfinite(b.max.y) && b.min.x <= b.max.x && b.min.y <= b.max.y;
  if (auto reason = valid ? std::nullopt : invalid_reason(b)) [[unlikely]]
    throw InvalidShapeError(id, *reason);
}

}  // namespace

ShapeId Scene::add(const Segment& s) {
  const auto index = static_cast<std::uint32_t>(segment_count());
  check_room(ShapeKind::segment, index);
  check_valid(s, {ShapeKind::segment, index});
  segments_.ax.push_back(s.a.x);
  segments_.ay.push_back(s.a.y);
  segments_.bx.push_back(s.b.x);
  segments_.by.push_back(s.b.y);
  extend(hitgrid::bounds(s));
  return {ShapeKind::segment, index};
}

ShapeId Scene::add(const Circle& c) {
  const auto index = static_cast<std::uint32_t>(circle_count());
  check_room(ShapeKind::circle, index);
  check_valid(c, {ShapeKind::circle, index});
  circles_.cx.push_back(c.c.x);
  circles_.cy.push_back(c.c.y);
  circles_.r.push_back(c.r);
  extend(hitgrid::bounds(c));
  return {ShapeKind::circle, index};
}

ShapeId Scene::add(const Box& b) {
  const auto index = static_cast<std::uint32_t>(box_count());
  check_room(ShapeKind::box, index);
  check_valid(b, {ShapeKind::box, index});
  boxes_.minx.push_back(b.min.x);
  boxes_.miny.push_back(b.min.y);
  boxes_.maxx.push_back(b.max.x);
  boxes_.maxy.push_back(b.max.y);
  extend(hitgrid::bounds(b));
  return {ShapeKind::box, index};
}

void Scene::replace(std::uint32_t i, const Segment& s) {
  check_valid(s, {ShapeKind::segment, i});
  segments_.ax[i] = s.a.x;
  segments_.ay[i] = s.a.y;
  segments_.bx[i] = s.b.x;
  segments_.by[i] = s.b.y;
}

void Scene::replace(std::uint32_t i, const Circle& c) {
  check_valid(c, {ShapeKind::circle, i});
  circles_.cx[i] = c.c.x;
  circles_.cy[i] = c.c.y;
  circles_.r[i] = c.r;
}

void Scene::replace(std::uint32_t i, const Box& b) {
  check_valid(b, {ShapeKind::box, i});
  boxes_.minx[i] = b.min.x;
  boxes_.miny[i] = b.min.y;
  boxes_.maxx[i] = b.max.x;
  boxes_.maxy[i] = b.max.y;
}

void Scene::set(std::uint32_t i, const Segment& s) {
  replace(i, s);
  extend(hitgrid::bounds(s));
}

void Scene::set(std::uint32_t i, const Circle& c) {
  replace(i, c);
  extend(hitgrid::bounds(c));
}

void Scene::set(std::uint32_t i, const Box& b) {
  replace(i, b);
  extend(hitgrid::bounds(b));
}

void Scene::swap_remove(ShapeKind kind, std::uint32_t i) {
  auto remove = [i](std::initializer_list<FloatArray*> columns) {
    for (FloatArray* a : columns) {
      const std::size_t last = a->size() - 1;
      (*a)[i] = (*a)[last];
      a->resize(last);  // the freed lane reads 0.0f again (FloatArray's padding)
    }
  };
  switch (kind) {
    case ShapeKind::segment:
      remove({&segments_.ax, &segments_.ay, &segments_.bx, &segments_.by});
      break;
    case ShapeKind::circle:
      remove({&circles_.cx, &circles_.cy, &circles_.r});
      break;
    case ShapeKind::box:
      remove({&boxes_.minx, &boxes_.miny, &boxes_.maxx, &boxes_.maxy});
      break;
  }
}

// A world recomputes its scene's bounds every frame, so this is one pass over the columns
// with the bounds in locals, and a circle's outward steps taken once, not per circle: a
// circle's box steps c - r and c + r, computed in double, outward to floats
// (bounds(Circle)), and those steps (float_below, float_above) are monotone, so the least
// stepped c - r is the step of the least c - r. Zero radii are points, not stepped.
void Scene::recompute_bounds() {
  constexpr float inf = std::numeric_limits<float>::infinity();
  Aabb b = empty_bounds();  // in a local: the member would be stored back per shape
  auto extend_by = [&b](float x0, float y0, float x1, float y1) { extend(b, {{x0, y0}, {x1, y1}}); };
  const SegmentArrays& s = segments_;
  for (std::size_t i = 0; i < s.size(); ++i)
    extend_by(std::min(s.ax[i], s.bx[i]), std::min(s.ay[i], s.by[i]), std::max(s.ax[i], s.bx[i]),
              std::max(s.ay[i], s.by[i]));
  const CircleArrays& c = circles_;
  double x0 = inf, y0 = inf, x1 = -inf, y1 = -inf;  // over the circles of radius > 0
  bool disks = false;
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (c.r[i] == 0.0f) {
      extend_by(c.cx[i], c.cy[i], c.cx[i], c.cy[i]);
      continue;
    }
    const double r = c.r[i];
    x0 = std::min(x0, c.cx[i] - r);
    y0 = std::min(y0, c.cy[i] - r);
    x1 = std::max(x1, c.cx[i] + r);
    y1 = std::max(y1, c.cy[i] + r);
    disks = true;
  }
  if (disks) extend_by(float_below(x0), float_below(y0), float_above(x1), float_above(y1));
  const BoxArrays& q = boxes_;
  for (std::size_t i = 0; i < q.size(); ++i) extend_by(q.minx[i], q.miny[i], q.maxx[i], q.maxy[i]);
  bounds_ = b;
}

namespace {

// Scene::assign reads each kind's rows twice, in chunks that may run on several threads:
// a check (every coordinate finite, radii >= 0, boxes not inverted, and the bounds) that
// writes nothing, then the copy into the columns. The loops are branch-free so that the
// compiler vectorizes them; only when a chunk holds an invalid row is it walked again
// with Scene::add's checks, which name the first one. W is the floats per row when rows
// are packed (column stride 1), else 0 for any strides.

constexpr std::size_t rows_per_chunk = std::size_t{1} << 16;
constexpr float inf = std::numeric_limits<float>::infinity();

// 1 or 0, not bool: the checks join them with & to stay branch-free, which clang rejects
// (-Wbitwise-instead-of-logical) between bool calls.
int finite(float x) { return std::fabs(x) <= std::numeric_limits<float>::max() ? 1 : 0; }

template <std::size_t W>
float at(const ShapeRows& rows, std::size_t i, std::size_t j) {
  if constexpr (W != 0) return rows.data[i * W + j];
  return rows
      .data[static_cast<std::ptrdiff_t>(i) * rows.row_stride + static_cast<std::ptrdiff_t>(j) * rows.column_stride];
}

/// What a chunk's check found: whether every row is valid, and their bounds.
struct ChunkCheck {
  bool valid = true;
  Aabb box{{inf, inf}, {-inf, -inf}};
};

template <std::size_t W>
ChunkCheck check_segments(const ShapeRows& r, std::size_t begin, std::size_t end) {
  int bad = 0;
  float x0 = inf, y0 = inf, x1 = -inf, y1 = -inf;
  for (std::size_t i = begin; i < end; ++i) {
    const float ax = at<W>(r, i, 0), ay = at<W>(r, i, 1), bx = at<W>(r, i, 2), by = at<W>(r, i, 3);
    bad |= !(finite(ax) & finite(ay) & finite(bx) & finite(by));
    x0 = std::min(x0, std::min(ax, bx));
    y0 = std::min(y0, std::min(ay, by));
    x1 = std::max(x1, std::max(ax, bx));
    y1 = std::max(y1, std::max(ay, by));
  }
  return {bad == 0, {{x0, y0}, {x1, y1}}};
}

/// A circle's bounds are float_below(c - r) and float_above(c + r) (aabb.hpp), or c when
/// r == 0. Both roundings are monotone, so the bound of many circles is the rounding of
/// the extreme double, taken apart for the circles of radius 0: the same bounds as
/// bounds() circle by circle, one rounding per chunk.
template <std::size_t W>
ChunkCheck check_circles(const ShapeRows& rows, std::size_t begin, std::size_t end) {
  constexpr double dinf = std::numeric_limits<double>::infinity();
  int bad = 0;
  double lx = dinf, ly = dinf, hx = -dinf, hy = -dinf;  // circles with r > 0, in double
  float zx0 = inf, zy0 = inf, zx1 = -inf, zy1 = -inf;   // circles with r == 0
  for (std::size_t i = begin; i < end; ++i) {
    const float cx = at<W>(rows, i, 0), cy = at<W>(rows, i, 1), r = at<W>(rows, i, 2);
    bad |= !(finite(cx) & finite(cy) & finite(r) & (r >= 0.0f));
    const bool point = r == 0.0f;
    const double dr = r;
    lx = std::min(lx, point ? dinf : cx - dr);
    ly = std::min(ly, point ? dinf : cy - dr);
    hx = std::max(hx, point ? -dinf : cx + dr);
    hy = std::max(hy, point ? -dinf : cy + dr);
    zx0 = std::min(zx0, point ? cx : inf);
    zy0 = std::min(zy0, point ? cy : inf);
    zx1 = std::max(zx1, point ? cx : -inf);
    zy1 = std::max(zy1, point ? cy : -inf);
  }
  ChunkCheck c{bad == 0, {{zx0, zy0}, {zx1, zy1}}};
  if (lx != dinf) {  // some circle with r > 0
    c.box.min = {std::min(c.box.min.x, float_below(lx)), std::min(c.box.min.y, float_below(ly))};
    c.box.max = {std::max(c.box.max.x, float_above(hx)), std::max(c.box.max.y, float_above(hy))};
  }
  return c;
}

template <std::size_t W>
ChunkCheck check_boxes(const ShapeRows& r, std::size_t begin, std::size_t end) {
  int bad = 0;
  float x0 = inf, y0 = inf, x1 = -inf, y1 = -inf;
  for (std::size_t i = begin; i < end; ++i) {
    const float ax = at<W>(r, i, 0), ay = at<W>(r, i, 1), bx = at<W>(r, i, 2), by = at<W>(r, i, 3);
    bad |= !(finite(ax) & finite(ay) & finite(bx) & finite(by) & (ax <= bx) & (ay <= by));
    x0 = std::min(x0, ax);
    y0 = std::min(y0, ay);
    x1 = std::max(x1, bx);
    y1 = std::max(y1, by);
  }
  return {bad == 0, {{x0, y0}, {x1, y1}}};
}

#if defined(__SSE2__)
// Packed rows of four floats (segments and boxes, the common case) a row per vector, on
// SSE2 through xsimd (every x86-64 has it: no ISA choice needed, docs/simd.md): the loops
// above would stay scalar, since without -ffast-math GCC does not turn a float min or max
// reduction into vector code, and the copy is a 4 x 4 transpose per four rows. Same
// results as the scalar loops (up to the sign of a zero bound, which compares equal).
using V4f = xsimd::batch<float, xsimd::sse2>;
using V4i = xsimd::batch<std::int32_t, xsimd::sse2>;
using V2d = xsimd::batch<double, xsimd::sse2>;  // a float pair per lane, to move pairs

/// Segments (boxes false): lanes ax ay bx by; boxes: minx miny maxx maxy, also min <= max.
ChunkCheck check_packed4(const float* rows, std::size_t begin, std::size_t end, bool boxes) {
  const V4f largest(std::numeric_limits<float>::max());
  // A box's lanes 0 and 1 must not exceed lanes 2 and 3 (min <= max); lanes 2 and 3, and
  // a segment's, pass that test.
  alignas(16) static constexpr float max_lanes[4] = {0.0f, 0.0f, 1.0f, 1.0f};
  const auto unordered = V4f::load_aligned(max_lanes) >= V4f(boxes ? 1.0f : 0.0f);
  auto good = xsimd::batch_bool<float, xsimd::sse2>(true);
  V4f lo(inf), hi(-inf);
  for (std::size_t i = begin; i < end; ++i) {
    const V4f v = V4f::load_unaligned(rows + 4 * i);
    good = good & (xsimd::abs(v) <= largest);  // false for infinities and NaN
    const V4f swapped =
        xsimd::swizzle(v, xsimd::batch_constant<xsimd::batch<std::uint32_t, xsimd::sse2>, 2, 3, 0, 1>());
    good = good & ((v <= swapped) | unordered);
    lo = xsimd::min(lo, v);  // minps: lo < v ? lo : v, lane by lane
    hi = xsimd::max(hi, v);  // maxps: hi > v ? hi : v
  }
  const bool valid = xsimd::all(good);
  alignas(16) float l[4], h[4];
  lo.store_aligned(l);
  hi.store_aligned(h);
  if (boxes) return {valid, {{l[0], l[1]}, {h[2], h[3]}}};
  return {valid, {{std::min(l[0], l[2]), std::min(l[1], l[3])}, {std::max(h[0], h[2]), std::max(h[1], h[3])}}};
}

/// Rows [begin, end) of four floats into four columns, a 4 x 4 transpose per four rows.
void copy_packed4(const float* rows, const std::array<float*, 4>& out, std::size_t begin, std::size_t end) {
  std::size_t i = begin;
  for (; i + 4 <= end; i += 4) {
    const float* r = rows + 4 * i;
    const V4f r0 = V4f::load_unaligned(r), r1 = V4f::load_unaligned(r + 4), r2 = V4f::load_unaligned(r + 8),
              r3 = V4f::load_unaligned(r + 12);
    // Lanes interleaved two rows at a time, then pairs of lanes.
    const V2d t0 = xsimd::bitwise_cast<V2d>(xsimd::zip_lo(r0, r1)),
              t1 = xsimd::bitwise_cast<V2d>(xsimd::zip_lo(r2, r3));
    const V2d t2 = xsimd::bitwise_cast<V2d>(xsimd::zip_hi(r0, r1)),
              t3 = xsimd::bitwise_cast<V2d>(xsimd::zip_hi(r2, r3));
    xsimd::bitwise_cast<V4f>(xsimd::zip_lo(t0, t1)).store_unaligned(out[0] + i);
    xsimd::bitwise_cast<V4f>(xsimd::zip_hi(t0, t1)).store_unaligned(out[1] + i);
    xsimd::bitwise_cast<V4f>(xsimd::zip_lo(t2, t3)).store_unaligned(out[2] + i);
    xsimd::bitwise_cast<V4f>(xsimd::zip_hi(t2, t3)).store_unaligned(out[3] + i);
  }
  for (; i < end; ++i)
    for (std::size_t j = 0; j < 4; ++j) out[j][i] = rows[4 * i + j];
}
#define HITGRID_SCENE_PACKED4 1
#endif

template <std::size_t W, std::size_t fields>
void copy_chunk(const ShapeRows& rows, const std::array<float*, fields>& out, std::size_t begin, std::size_t end) {
  for (std::size_t i = begin; i < end; ++i)
    for (std::size_t j = 0; j < fields; ++j) out[j][i] = at<W>(rows, i, j);
}

/// One kind's rows: their chunks' checks, and the copy.
template <std::size_t fields>
struct KindRows {
  const ShapeRows& rows;
  ShapeKind kind;
  std::array<FloatArray*, fields> columns;
  bool packed() const { return rows.column_stride == 1 && rows.row_stride == static_cast<std::ptrdiff_t>(fields); }
  std::size_t chunks() const { return (rows.count + rows_per_chunk - 1) / rows_per_chunk; }
  std::size_t begin(std::size_t c) const { return c * rows_per_chunk; }
  std::size_t end(std::size_t c) const { return std::min(rows.count, (c + 1) * rows_per_chunk); }

  ChunkCheck check(std::size_t c) const {
    const std::size_t b = begin(c), e = end(c);
#ifdef HITGRID_SCENE_PACKED4
    if (kind != ShapeKind::circle && packed()) return check_packed4(rows.data, b, e, kind == ShapeKind::box);
#endif
    if (kind == ShapeKind::segment) return packed() ? check_segments<4>(rows, b, e) : check_segments<0>(rows, b, e);
    if (kind == ShapeKind::circle) return packed() ? check_circles<3>(rows, b, e) : check_circles<0>(rows, b, e);
    return packed() ? check_boxes<4>(rows, b, e) : check_boxes<0>(rows, b, e);
  }
  /// Throws InvalidShapeError for the first invalid row of chunk c (it has one).
  void name_invalid(std::size_t c) const {
    for (std::size_t i = begin(c); i < end(c); ++i) {
      const ShapeId id(kind, static_cast<std::uint32_t>(i));
      auto f = [&](std::size_t j) { return at<0>(rows, i, j); };
      if (kind == ShapeKind::segment) check_valid(Segment{{f(0), f(1)}, {f(2), f(3)}}, id);
      if (kind == ShapeKind::circle) check_valid(Circle{{f(0), f(1)}, f(2)}, id);
      if (kind == ShapeKind::box) check_valid(Box{{f(0), f(1)}, {f(2), f(3)}}, id);
    }
  }
  void copy(std::size_t c) const {
    std::array<float*, fields> out;
    for (std::size_t j = 0; j < fields; ++j) out[j] = columns[j]->data();
#ifdef HITGRID_SCENE_PACKED4
    if constexpr (fields == 4) {
      if (packed()) return copy_packed4(rows.data, out, begin(c), end(c));
    }
#endif
    if (packed())
      copy_chunk<fields>(rows, out, begin(c), end(c));
    else
      copy_chunk<0>(rows, out, begin(c), end(c));
  }
};

/// body(c) for every chunk c < n, through for_ranges when given.
void each_chunk(std::size_t n, const Scene::ForRanges& for_ranges, const std::function<void(std::size_t)>& body) {
  if (!for_ranges || n <= 1) {
    for (std::size_t c = 0; c < n; ++c) body(c);
    return;
  }
  for_ranges(n, [&](std::size_t begin, std::size_t end) {
    for (std::size_t c = begin; c < end; ++c) body(c);
  });
}

}  // namespace

void Scene::assign(const ShapeRows& segments, const ShapeRows& circles, const ShapeRows& boxes,
                   const ForRanges& for_ranges) {
  const KindRows<4> s{segments, ShapeKind::segment, {&segments_.ax, &segments_.ay, &segments_.bx, &segments_.by}};
  const KindRows<3> c{circles, ShapeKind::circle, {&circles_.cx, &circles_.cy, &circles_.r}};
  const KindRows<4> b{boxes, ShapeKind::box, {&boxes_.minx, &boxes_.miny, &boxes_.maxx, &boxes_.maxy}};
  for (const auto& [count, kind] :
       {std::pair{segments.count, ShapeKind::segment}, std::pair{circles.count, ShapeKind::circle},
        std::pair{boxes.count, ShapeKind::box}})
    if (count > ShapeId::max_count) check_room(kind, count);
  // The chunks of the three kinds as one list: segments', then circles', then boxes'.
  const std::size_t cs = s.chunks(), cc = c.chunks(), n = cs + cc + b.chunks();
  std::vector<ChunkCheck> checks(n);
  each_chunk(n, for_ranges, [&](std::size_t k) {
    checks[k] = k < cs ? s.check(k) : k < cs + cc ? c.check(k - cs) : b.check(k - cs - cc);
  });
  Aabb box = empty_bounds();
  for (std::size_t k = 0; k < n; ++k) {
    if (!checks[k].valid) {  // the first invalid chunk names its first invalid row
      if (k < cs)
        s.name_invalid(k);
      else if (k < cs + cc)
        c.name_invalid(k - cs);
      else
        b.name_invalid(k - cs - cc);
    }
    box.min = {std::min(box.min.x, checks[k].box.min.x), std::min(box.min.y, checks[k].box.min.y)};
    box.max = {std::max(box.max.x, checks[k].box.max.x), std::max(box.max.y, checks[k].box.max.y)};
  }
  // Room first: reserve keeps the contents, so a std::bad_alloc here leaves the scene as
  // it was; the copies after it cannot fail.
  for (FloatArray* a : {&segments_.ax, &segments_.ay, &segments_.bx, &segments_.by}) a->reserve(segments.count);
  for (FloatArray* a : {&circles_.cx, &circles_.cy, &circles_.r}) a->reserve(circles.count);
  for (FloatArray* a : {&boxes_.minx, &boxes_.miny, &boxes_.maxx, &boxes_.maxy}) a->reserve(boxes.count);
  for (FloatArray* a : {&segments_.ax, &segments_.ay, &segments_.bx, &segments_.by}) a->resize(segments.count);
  for (FloatArray* a : {&circles_.cx, &circles_.cy, &circles_.r}) a->resize(circles.count);
  for (FloatArray* a : {&boxes_.minx, &boxes_.miny, &boxes_.maxx, &boxes_.maxy}) a->resize(boxes.count);
  each_chunk(n, for_ranges, [&](std::size_t k) {
    if (k < cs)
      s.copy(k);
    else if (k < cs + cc)
      c.copy(k - cs);
    else
      b.copy(k - cs - cc);
  });
  bounds_ = box;
}

void Scene::reserve(std::size_t segments, std::size_t circles, std::size_t boxes) {
  for (FloatArray* a : {&segments_.ax, &segments_.ay, &segments_.bx, &segments_.by}) a->reserve(segments);
  for (FloatArray* a : {&circles_.cx, &circles_.cy, &circles_.r}) a->reserve(circles);
  for (FloatArray* a : {&boxes_.minx, &boxes_.miny, &boxes_.maxx, &boxes_.maxy}) a->reserve(boxes);
}

void Scene::clear() {
  // Like std::vector::clear: the columns keep their memory, so a scene refilled frame
  // after frame stops allocating once it has grown.
  for (FloatArray* a : {&segments_.ax, &segments_.ay, &segments_.bx, &segments_.by, &circles_.cx, &circles_.cy,
                        &circles_.r, &boxes_.minx, &boxes_.miny, &boxes_.maxx, &boxes_.maxy})
    a->clear();
  bounds_ = empty_bounds();
}

std::size_t Scene::count(ShapeKind kind) const {
  switch (kind) {
    case ShapeKind::segment:
      return segment_count();
    case ShapeKind::circle:
      return circle_count();
    case ShapeKind::box:
      return box_count();
  }
  return 0;
}

std::uint64_t scene_hash(const Scene& scene) {
  Fnv1a h;
  h.add_u64(scene.segment_count());
  h.add_u64(scene.circle_count());
  h.add_u64(scene.box_count());
  const auto& s = scene.segments();
  const auto& c = scene.circles();
  const auto& b = scene.boxes();
  for (const FloatArray* a : {&s.ax, &s.ay, &s.bx, &s.by, &c.cx, &c.cy, &c.r, &b.minx, &b.miny, &b.maxx, &b.maxy})
    h.add_bytes(a->data(), a->size() * sizeof(float));
  return h.value();
}

}  // namespace hitgrid
