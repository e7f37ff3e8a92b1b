// The C++ side of test_world.c (reference.h): a hitgrid::World and hitgrid::find_pairs,
// with the C structs read here independently of capi/src.
#include "reference.h"

#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include "hitgrid/hitgrid.hpp"

struct reference_world {
  explicit reference_world(const hitgrid::WorldOptions& o) : world(o) {}
  hitgrid::World world;
};

struct reference_rope {
  explicit reference_rope(hitgrid::Rope r) : rope(std::move(r)) {}
  hitgrid::Rope rope;
};

namespace {

hitgrid::ShapeHandle handle(std::uint64_t bits) {
  return {static_cast<std::uint32_t>(bits >> 32), static_cast<std::uint32_t>(bits & 0xffffffffu)};
}

/// Runs a rope move: 1 if it succeeded, 0 if the C++ rope refused it.
template <class Move>
int attempt(Move&& move) {
  try {
    move();
    return 1;
  } catch (const hitgrid::Error&) {
    return 0;
  }
}

hitgrid::Shape shape(const hitgrid_shape& s) {
  const float* v = s.v;
  if (s.kind == HITGRID_SEGMENT) return hitgrid::Segment{{v[0], v[1]}, {v[2], v[3]}};
  if (s.kind == HITGRID_CIRCLE) return hitgrid::Circle{{v[0], v[1]}, v[2]};
  return hitgrid::Box{{v[0], v[1]}, {v[2], v[3]}};
}

template <class T>
size_t copy_out(const std::vector<T>& items, T* out, size_t capacity) {
  const size_t n = std::min(items.size(), capacity);
  std::copy_n(items.begin(), n, out);
  return items.size();
}

/// The C arrays' shapes as a scene, added one by one (Scene::add: the C++ API's own checks).
hitgrid::Scene scene_of(const hitgrid_shape_arrays& shapes) {
  hitgrid::Scene scene;
  for (size_t i = 0; i < shapes.segment_count; ++i) {
    const float* r = shapes.segments + 4 * i;
    scene.add(hitgrid::Segment{{r[0], r[1]}, {r[2], r[3]}});
  }
  for (size_t i = 0; i < shapes.circle_count; ++i) {
    const float* r = shapes.circles + 3 * i;
    scene.add(hitgrid::Circle{{r[0], r[1]}, r[2]});
  }
  for (size_t i = 0; i < shapes.box_count; ++i) {
    const float* r = shapes.boxes + 4 * i;
    scene.add(hitgrid::Box{{r[0], r[1]}, {r[2], r[3]}});
  }
  return scene;
}

}  // namespace

extern "C" {

reference_world* reference_new(unsigned threads) {
  hitgrid::WorldOptions o;
  o.threads = threads;
  return new reference_world(o);
}

void reference_free(reference_world* world) { delete world; }

uint64_t reference_create(reference_world* world, const hitgrid_shape_def* def) {
  const hitgrid::BodyType body = def->body == HITGRID_STATIC ? hitgrid::BodyType::static_body
                                                             : hitgrid::BodyType::dynamic_body;
  return world->world.create({shape(def->shape), body, {def->filter.category, def->filter.mask}, def->user}).bits();
}

void reference_destroy(reference_world* world, uint64_t h) { world->world.destroy(handle(h)); }

void reference_move(reference_world* world, uint64_t h, const hitgrid_shape* s) {
  world->world.move(handle(h), shape(*s));
}

void reference_set_filter(reference_world* world, uint64_t h, uint64_t category, uint64_t mask) {
  world->world.set_filter(handle(h), {category, mask});
}

void reference_set_body(reference_world* world, uint64_t h, int is_static) {
  world->world.set_body(handle(h), is_static ? hitgrid::BodyType::static_body : hitgrid::BodyType::dynamic_body);
}

void reference_set_displacement(reference_world* world, uint64_t h, float dx, float dy) {
  world->world.set_displacement(handle(h), {dx, dy});
}

void reference_step(reference_world* world) { world->world.step(); }

size_t reference_list(reference_world* world, int list, uint64_t* out, size_t capacity) {
  const auto pairs = list == REFERENCE_PAIRS    ? world->world.pairs()
                     : list == REFERENCE_BEGINS ? world->world.begin_events()
                                                : world->world.end_events();
  std::vector<uint64_t> flat;
  for (const hitgrid::HandlePair& p : pairs) {
    flat.push_back(p.a.bits());
    flat.push_back(p.b.bits());
  }
  return copy_out(flat, out, capacity);
}

size_t reference_impacts(reference_world* world, uint64_t* out, size_t capacity) {
  std::vector<uint64_t> flat;
  for (const hitgrid::Impact& i : world->world.impacts()) {
    std::uint64_t t;
    std::memcpy(&t, &i.t, sizeof t);
    flat.insert(flat.end(), {i.moving.bits(), i.other.bits(), static_cast<uint64_t>(i.kind), t});
  }
  return copy_out(flat, out, capacity);
}

size_t reference_query(reference_world* world, const hitgrid_shape* s, uint64_t mask, uint64_t* out,
                       size_t capacity) {
  std::vector<hitgrid::ShapeHandle> found;
  world->world.query(shape(*s), mask, found);
  std::vector<uint64_t> bits;
  for (hitgrid::ShapeHandle h : found) bits.push_back(h.bits());
  return copy_out(bits, out, capacity);
}

size_t reference_cast(reference_world* world, const hitgrid_segment* cast, uint64_t mask, hitgrid_cast_hit* out,
                      size_t capacity) {
  std::vector<hitgrid::CastHit> hits;
  world->world.cast(hitgrid::Segment{{cast->ax, cast->ay}, {cast->bx, cast->by}}, mask, hits);
  std::vector<hitgrid_cast_hit> c;
  for (const hitgrid::CastHit& h : hits)
    c.push_back({h.handle.bits(), h.t, h.point.x, h.point.y, h.normal.x, h.normal.y});
  return copy_out(c, out, capacity);
}

size_t reference_cast_ray(reference_world* world, const hitgrid_ray* ray, uint64_t mask, hitgrid_cast_hit* out,
                          size_t capacity) {
  std::vector<hitgrid::CastHit> hits;
  world->world.cast(hitgrid::Ray{{ray->ox, ray->oy}, {ray->dx, ray->dy}}, mask, hits);
  std::vector<hitgrid_cast_hit> c;
  for (const hitgrid::CastHit& h : hits)
    c.push_back({h.handle.bits(), h.t, h.point.x, h.point.y, h.normal.x, h.normal.y});
  return copy_out(c, out, capacity);
}

size_t reference_find_pairs(const hitgrid_shape_arrays* shapes, uint64_t* out, size_t capacity) {
  const hitgrid::Scene scene = scene_of(*shapes);
  std::vector<uint64_t> keys;
  for (hitgrid::Pair p : hitgrid::find_pairs(scene)) keys.push_back(p.key());
  return copy_out(keys, out, capacity);
}

reference_rope* reference_rope_new(float start_x, float start_y, const float* pegs, size_t peg_count) {
  std::vector<hitgrid::Vec2> p;
  for (size_t i = 0; i < peg_count; ++i) p.push_back({pegs[2 * i], pegs[2 * i + 1]});
  return new reference_rope(hitgrid::Rope({start_x, start_y}, std::move(p)));
}

reference_rope* reference_rope_from_shapes(float start_x, float start_y, const hitgrid_shape_arrays* shapes) {
  const hitgrid::Scene scene = scene_of(*shapes);
  try {
    return new reference_rope(hitgrid::Rope({start_x, start_y}, scene));
  } catch (const hitgrid::Error&) {
    return nullptr;
  }
}

void reference_rope_free(reference_rope* rope) { delete rope; }

int reference_rope_move_end(reference_rope* rope, float x, float y) {
  return attempt([&] { rope->rope.move_end({x, y}); });
}

int reference_rope_move_start(reference_rope* rope, float x, float y) {
  return attempt([&] { rope->rope.move_start({x, y}); });
}

int reference_rope_move_peg(reference_rope* rope, uint32_t peg, float x, float y) {
  return attempt([&] { rope->rope.move_peg(peg, {x, y}); });
}

size_t reference_rope_nodes(const reference_rope* rope, hitgrid_rope_node* out, size_t capacity) {
  std::vector<hitgrid_rope_node> c;
  for (const hitgrid::RopeNode& n : rope->rope.nodes()) {
    hitgrid_rope_node node;
    node.x = n.position.x;
    node.y = n.position.y;
    node.peg = n.peg;
    node.side = n.side;
    node.half_turns = n.half_turns;
    c.push_back(node);
  }
  return copy_out(c, out, capacity);
}

double reference_rope_length(const reference_rope* rope) { return rope->rope.length(); }

void reference_rope_end(const reference_rope* rope, float* x, float* y) {
  *x = rope->rope.end().x;
  *y = rope->rope.end().y;
}

}  // extern "C"
