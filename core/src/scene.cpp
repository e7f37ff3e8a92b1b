#include "hitgrid/core/scene.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <initializer_list>

#include "hitgrid/core/error.hpp"
#include "hitgrid/core/detail/fnv1a.hpp"

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

void Scene::set(std::uint32_t i, const Segment& s) {
  check_valid(s, {ShapeKind::segment, i});
  segments_.ax[i] = s.a.x;
  segments_.ay[i] = s.a.y;
  segments_.bx[i] = s.b.x;
  segments_.by[i] = s.b.y;
  extend(hitgrid::bounds(s));
}

void Scene::set(std::uint32_t i, const Circle& c) {
  check_valid(c, {ShapeKind::circle, i});
  circles_.cx[i] = c.c.x;
  circles_.cy[i] = c.c.y;
  circles_.r[i] = c.r;
  extend(hitgrid::bounds(c));
}

void Scene::set(std::uint32_t i, const Box& b) {
  check_valid(b, {ShapeKind::box, i});
  boxes_.minx[i] = b.min.x;
  boxes_.miny[i] = b.min.y;
  boxes_.maxx[i] = b.max.x;
  boxes_.maxy[i] = b.max.y;
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

void Scene::recompute_bounds() {
  bounds_ = empty_bounds();
  for (std::uint32_t i = 0; i < segment_count(); ++i) extend(hitgrid::bounds(segment(i)));
  for (std::uint32_t i = 0; i < circle_count(); ++i) extend(hitgrid::bounds(circle(i)));
  for (std::uint32_t i = 0; i < box_count(); ++i) extend(hitgrid::bounds(box(i)));
}

namespace {

/// Checks every row of one kind (throwing as Scene::add would, naming the row's id) and
/// adds their bounds to `box`. Split from the copy so that a refused assign changes nothing.
template <class S>
void check_rows(const ShapeRows& rows, ShapeKind kind, S (*shape_at)(const ShapeRows&, std::size_t), Aabb& box) {
  if (rows.count > ShapeId::max_count) check_room(kind, rows.count);
  for (std::size_t i = 0; i < rows.count; ++i) {
    const S shape = shape_at(rows, i);
    check_valid(shape, {kind, static_cast<std::uint32_t>(i)});
    const Aabb b = hitgrid::bounds(shape);
    box.min.x = std::min(box.min.x, b.min.x);
    box.min.y = std::min(box.min.y, b.min.y);
    box.max.x = std::max(box.max.x, b.max.x);
    box.max.y = std::max(box.max.y, b.max.y);
  }
}

float field(const ShapeRows& rows, std::size_t i, std::ptrdiff_t j) {
  return rows.data[static_cast<std::ptrdiff_t>(i) * rows.row_stride + j * rows.column_stride];
}
Segment segment_row(const ShapeRows& r, std::size_t i) {
  return {{field(r, i, 0), field(r, i, 1)}, {field(r, i, 2), field(r, i, 3)}};
}
Circle circle_row(const ShapeRows& r, std::size_t i) { return {{field(r, i, 0), field(r, i, 1)}, field(r, i, 2)}; }
Box box_row(const ShapeRows& r, std::size_t i) { return {{field(r, i, 0), field(r, i, 1)}, {field(r, i, 2), field(r, i, 3)}}; }

/// Copies the rows' fields into the columns, one pass over the rows (the columns were
/// reserved: nothing here allocates or throws).
template <std::size_t fields>
void copy_rows(const ShapeRows& rows, const std::array<FloatArray*, fields>& columns) {
  std::array<float*, fields> out;
  for (std::size_t j = 0; j < fields; ++j) {
    columns[j]->resize(rows.count);
    out[j] = columns[j]->data();
  }
  for (std::size_t i = 0; i < rows.count; ++i)
    for (std::size_t j = 0; j < fields; ++j) out[j][i] = field(rows, i, static_cast<std::ptrdiff_t>(j));
}

}  // namespace

void Scene::assign(const ShapeRows& segments, const ShapeRows& circles, const ShapeRows& boxes) {
  Aabb box = empty_bounds();
  check_rows(segments, ShapeKind::segment, segment_row, box);
  check_rows(circles, ShapeKind::circle, circle_row, box);
  check_rows(boxes, ShapeKind::box, box_row, box);
  // Room first: reserve keeps the contents, so a std::bad_alloc here leaves the scene as
  // it was; the copies after it cannot fail.
  for (FloatArray* a : {&segments_.ax, &segments_.ay, &segments_.bx, &segments_.by}) a->reserve(segments.count);
  for (FloatArray* a : {&circles_.cx, &circles_.cy, &circles_.r}) a->reserve(circles.count);
  for (FloatArray* a : {&boxes_.minx, &boxes_.miny, &boxes_.maxx, &boxes_.maxy}) a->reserve(boxes.count);
  copy_rows<4>(segments, {&segments_.ax, &segments_.ay, &segments_.bx, &segments_.by});
  copy_rows<3>(circles, {&circles_.cx, &circles_.cy, &circles_.r});
  copy_rows<4>(boxes, {&boxes_.minx, &boxes_.miny, &boxes_.maxx, &boxes_.maxy});
  bounds_ = box;
}

void Scene::reserve(std::size_t segments, std::size_t circles, std::size_t boxes) {
  for (FloatArray* a : {&segments_.ax, &segments_.ay, &segments_.bx, &segments_.by}) a->reserve(segments);
  for (FloatArray* a : {&circles_.cx, &circles_.cy, &circles_.r}) a->reserve(circles);
  for (FloatArray* a : {&boxes_.minx, &boxes_.miny, &boxes_.maxx, &boxes_.maxy}) a->reserve(boxes);
}

void Scene::clear() { *this = Scene(); }

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
