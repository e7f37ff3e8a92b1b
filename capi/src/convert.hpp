// The C structs to and from the C++ types, with the checks C's types cannot carry (enum
// values, reserved fields). Layouts are pinned by static_asserts: the ABI is these sizes
// and offsets.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "guard.hpp"
#include "hitgrid.h"
#include "hitgrid/broadphase/find_pairs.hpp"
#include "hitgrid/world/shape_rows.hpp"
#include "hitgrid/world/world.hpp"

namespace hitgrid::capi {

static_assert(sizeof(hitgrid_shape) == 20 && alignof(hitgrid_shape) == 4);
static_assert(sizeof(hitgrid_shape_def) == 48 && offsetof(hitgrid_shape_def, filter) == 24);
static_assert(sizeof(hitgrid_handle_pair) == 16 && sizeof(hitgrid_cast_hit) == 48 && sizeof(hitgrid_impact) == 32);
static_assert(sizeof(hitgrid_task_hook) == 24);
static_assert(sizeof(hitgrid_world_options) == 56 && sizeof(hitgrid_find_pairs_options) == 56);
static_assert(sizeof(hitgrid_ray) == 16 && sizeof(hitgrid_segment) == 16);
static_assert(sizeof(hitgrid_status) == sizeof(int), "an enum the size of C's int");
// The finder's pairs go out as they are: a Pair is its 64-bit key, (lower id << 32) | higher.
static_assert(sizeof(Pair) == sizeof(hitgrid_pair));

inline hitgrid_handle bits_of(ShapeHandle h) { return h.bits(); }
inline ShapeHandle handle_of(hitgrid_handle bits) {
  return {static_cast<std::uint32_t>(bits >> 32), static_cast<std::uint32_t>(bits)};
}

inline ShapeKind kind_of(std::uint32_t kind) {
  if (kind > HITGRID_BOX) throw ArgumentError("unknown shape kind " + std::to_string(kind));
  return static_cast<ShapeKind>(kind);
}
inline BodyType body_of(std::uint32_t body) {
  if (body == HITGRID_STATIC) return BodyType::static_body;
  if (body == HITGRID_DYNAMIC) return BodyType::dynamic_body;
  throw ArgumentError("unknown body type " + std::to_string(body));
}
inline std::uint32_t body_code(BodyType body) {
  return body == BodyType::static_body ? HITGRID_STATIC : HITGRID_DYNAMIC;
}
static_assert(static_cast<int>(Isa::automatic) == HITGRID_ISA_AUTO && static_cast<int>(Isa::scalar) == HITGRID_ISA_SCALAR &&
              static_cast<int>(Isa::sse2) == HITGRID_ISA_SSE2 && static_cast<int>(Isa::avx2) == HITGRID_ISA_AVX2 &&
              static_cast<int>(Isa::avx512) == HITGRID_ISA_AVX512);
static_assert(static_cast<int>(BroadPhase::automatic) == HITGRID_METHOD_AUTO &&
              static_cast<int>(BroadPhase::grid) == HITGRID_METHOD_GRID &&
              static_cast<int>(BroadPhase::sweep_and_prune) == HITGRID_METHOD_SWEEP_AND_PRUNE &&
              static_cast<int>(BroadPhase::brute_force) == HITGRID_METHOD_BRUTE_FORCE);
static_assert(static_cast<int>(ToiKind::none) == HITGRID_TOI_NONE && static_cast<int>(ToiKind::overlapping) == HITGRID_TOI_OVERLAPPING &&
              static_cast<int>(ToiKind::touching) == HITGRID_TOI_TOUCHING && static_cast<int>(ToiKind::impact) == HITGRID_TOI_IMPACT);

inline Isa isa_of(std::uint32_t isa) {
  if (isa > HITGRID_ISA_AVX512) throw ArgumentError("unknown ISA " + std::to_string(isa));
  return static_cast<Isa>(isa);  // the C codes follow hitgrid::Isa's order
}
inline void check_reserved(std::uint32_t reserved) {
  if (reserved != 0) throw ArgumentError("a reserved field is not 0");
}

/// The C hook as the C++ one: the same function types (a task is TaskHook::Task).
inline TaskHook task_hook_of(const hitgrid_task_hook& h) {
  static_assert(std::is_same_v<hitgrid_task, TaskHook::Task>);
  check_reserved(h.reserved);
  TaskHook t;
  t.run = h.run;
  t.user = h.user;
  t.workers = h.workers;
  if (t.run && t.workers == 0) throw ArgumentError("options.tasks.workers must be at least 1 when run is set");
  return t;
}

/// The shape, checked (InvalidShapeError naming `position`, its place in the call).
inline Shape shape_of(const hitgrid_shape& s, std::size_t position = 0) {
  const ShapeRows row{s.v, 1, 4, 1};
  return checked_shape(shape_of_row(kind_of(s.kind), row, 0), position);
}
hitgrid_shape c_shape_of(const Shape& shape);

inline ShapeFilter filter_of(const hitgrid_filter& f) { return {f.category, f.mask}; }
inline ShapeDef def_of(const hitgrid_shape_def& d, std::size_t position = 0) {
  return ShapeDef(shape_of(d.shape, position), body_of(d.body), filter_of(d.filter), d.user);
}

WorldOptions world_options_of(const hitgrid_world_options& o);
FindPairsOptions find_pairs_options_of(const hitgrid_find_pairs_options& o);

/// The rows of a kind: packed, count x row_width(kind) floats. NULL is fine for 0 rows.
inline ShapeRows rows_of(ShapeKind kind, const float* data, std::size_t count, const char* name) {
  if (count != 0) required(data, name);
  return {data, count, static_cast<std::ptrdiff_t>(row_width(kind)), 1};
}

inline hitgrid_cast_hit c_hit_of(const CastHit& h) {
  return {bits_of(h.handle), h.t, h.point.x, h.point.y, h.normal.x, h.normal.y};
}

}  // namespace hitgrid::capi
