// The world through C (hitgrid.h): a hitgrid::World, and the frame's results and the last
// query's in C layout. The C++ world's pairs and events name handles as (index,
// generation) structs; the C caller's are 64-bit words, so each list is converted once,
// when first asked for after a step, into arrays the C world keeps until the next step.
#include <algorithm>
#include <array>
#include <optional>
#include <span>
#include <vector>

#include "convert.hpp"
#include "guard.hpp"
#include "hitgrid.h"
#include "hitgrid/world/world.hpp"

struct hitgrid_world {
  explicit hitgrid_world(const hitgrid::WorldOptions& options) : world(options) {}

  hitgrid::World world;
  /// The frame's lists in C layout; fresh[i] says whether list i is converted since the
  /// last step.
  enum List { pairs, begins, ends, list_count };
  std::array<std::vector<hitgrid_handle_pair>, list_count> frame;
  std::array<bool, list_count> fresh{};
  std::vector<hitgrid_impact> impacts;
  bool impacts_fresh = false;
  // The last query's or cast's results, and scratch for the C++ calls.
  std::vector<hitgrid::ShapeHandle> query_handles;
  std::vector<hitgrid_handle> query_out;
  std::vector<hitgrid::CastHit> cast_hits;
  std::vector<hitgrid_cast_hit> cast_out;
  std::vector<size_t> cast_offsets;
  std::vector<hitgrid::Segment> segment_casts;
  std::vector<hitgrid::Ray> ray_casts;
  // Scratch of the bulk calls.
  std::vector<hitgrid::ShapeDef> defs;
  std::vector<hitgrid::ShapeHandle> handles;
  std::vector<hitgrid::Shape> shapes;
};

namespace hitgrid::capi {

hitgrid_shape c_shape_of(const Shape& shape) {
  hitgrid_shape out{static_cast<std::uint32_t>(shape.index()), {0, 0, 0, 0}};
  if (const auto* s = std::get_if<Segment>(&shape))
    out = {HITGRID_SEGMENT, {s->a.x, s->a.y, s->b.x, s->b.y}};
  else if (const auto* c = std::get_if<Circle>(&shape))
    out = {HITGRID_CIRCLE, {c->c.x, c->c.y, c->r, 0}};
  else if (const auto* b = std::get_if<Box>(&shape))
    out = {HITGRID_BOX, {b->min.x, b->min.y, b->max.x, b->max.y}};
  return out;
}

WorldOptions world_options_of(const hitgrid_world_options& o) {
  check_reserved(o.reserved);
  WorldOptions w;
  w.threads = o.threads;
  w.isa = isa_of(o.isa);
  w.cell_size = o.cell_size;
  w.large_cell_size = o.large_cell_size;
  w.margin = o.margin;
  w.small_frame_shapes = static_cast<std::size_t>(o.small_frame_shapes);
  w.tasks = task_hook_of(o.tasks);
  return w;
}

namespace {

std::span<const HandlePair> cpp_list(const World& world, int list) {
  return list == hitgrid_world::pairs ? world.pairs() : list == hitgrid_world::begins ? world.begin_events()
                                                                                       : world.end_events();
}

/// List `list` of the last step in C layout, converted on first use.
void frame_list(hitgrid_world* w, int list, const hitgrid_handle_pair** out, size_t* count) {
  required(w, "world");
  required(out, "out");
  required(count, "count");
  std::vector<hitgrid_handle_pair>& c = w->frame[list];
  if (!w->fresh[list]) {
    const std::span<const HandlePair> p = cpp_list(w->world, list);
    c.resize(p.size());
    std::transform(p.begin(), p.end(), c.begin(), [](const HandlePair& h) {
      return hitgrid_handle_pair{bits_of(h.a), bits_of(h.b)};
    });
    w->fresh[list] = true;
  }
  *out = c.data();
  *count = c.size();
}

/// The handles as C++ handles, in the world's scratch.
std::span<const ShapeHandle> handles_of(hitgrid_world* w, const hitgrid_handle* handles, size_t count) {
  if (count != 0) required(handles, "handles");
  w->handles.resize(count);
  std::transform(handles, handles + count, w->handles.begin(), handle_of);
  return w->handles;
}

void write_handles(std::span<const ShapeHandle> from, hitgrid_handle* to) {
  std::transform(from.begin(), from.end(), to, bits_of);
}

/// A C cast as the C++ one (World refuses a non-finite one: hitgrid::Error).
Segment segment_of(const hitgrid_segment& s) { return {{s.ax, s.ay}, {s.bx, s.by}}; }
Ray ray_of(const hitgrid_ray& r) { return {{r.ox, r.oy}, {r.dx, r.dy}}; }

/// The last cast's hits (C++ layout) into the C results.
void publish_hits(hitgrid_world* w, const hitgrid_cast_hit** hits, size_t* count) {
  w->cast_out.resize(w->cast_hits.size());
  std::transform(w->cast_hits.begin(), w->cast_hits.end(), w->cast_out.begin(), c_hit_of);
  *hits = w->cast_out.data();
  *count = w->cast_out.size();
}

void publish_nearest(const std::optional<CastHit>& h, hitgrid_cast_hit* nearest, int* hit) {
  *hit = h ? 1 : 0;
  *nearest = h ? c_hit_of(*h) : hitgrid_cast_hit{};
}

/// A batch of casts (C++ casts in `casts`) into the C results.
template <class Cast>
void cast_batch(hitgrid_world* w, std::span<const Cast> casts, std::uint64_t mask, int nearest_only,
                const hitgrid_cast_hit** hits, const size_t** offsets) {
  std::vector<std::size_t> cpp_offsets;
  w->world.cast(casts, mask, nearest_only ? CastHits::nearest : CastHits::all, w->cast_hits, cpp_offsets);
  w->cast_out.resize(w->cast_hits.size());
  std::transform(w->cast_hits.begin(), w->cast_hits.end(), w->cast_out.begin(), c_hit_of);
  w->cast_offsets.assign(cpp_offsets.begin(), cpp_offsets.end());
  *hits = w->cast_out.data();
  *offsets = w->cast_offsets.data();
}

}  // namespace
}  // namespace hitgrid::capi

using namespace hitgrid::capi;
using hitgrid::ShapeHandle;

extern "C" {

hitgrid_status hitgrid_world_options_init(hitgrid_world_options* options) {
  return guarded(__func__, [&] {
    const hitgrid::WorldOptions d;
    *required(options, "options") = {d.threads, HITGRID_ISA_AUTO, d.cell_size,          d.large_cell_size,
                                     d.margin,  0,                d.small_frame_shapes, {nullptr, nullptr, 1, 0}};
  });
}

hitgrid_status hitgrid_world_new(const hitgrid_world_options* options, hitgrid_world** world) {
  return guarded(__func__, [&] {
    required(world, "world");
    *world = new hitgrid_world(options ? world_options_of(*options) : hitgrid::WorldOptions{});
  });
}

hitgrid_status hitgrid_world_free(hitgrid_world* world) {
  delete world;
  return HITGRID_OK;
}

static hitgrid_shape_def default_def(hitgrid_shape shape) {
  const hitgrid::ShapeFilter f;
  return {shape, HITGRID_DYNAMIC, {f.category, f.mask}, 0};
}
hitgrid_shape_def hitgrid_segment_def(float ax, float ay, float bx, float by) {
  return default_def({HITGRID_SEGMENT, {ax, ay, bx, by}});
}
hitgrid_shape_def hitgrid_circle_def(float cx, float cy, float r) { return default_def({HITGRID_CIRCLE, {cx, cy, r, 0}}); }
hitgrid_shape_def hitgrid_box_def(float minx, float miny, float maxx, float maxy) {
  return default_def({HITGRID_BOX, {minx, miny, maxx, maxy}});
}

hitgrid_status hitgrid_world_create(hitgrid_world* world, const hitgrid_shape_def* def, hitgrid_handle* handle) {
  return guarded(__func__, [&] {
    required(world, "world");
    required(handle, "handle");
    *handle = bits_of(world->world.create(def_of(*required(def, "def"))));
  });
}

hitgrid_status hitgrid_world_create_many(hitgrid_world* world, const hitgrid_shape_def* defs, size_t count,
                                         hitgrid_handle* handles) {
  return guarded(__func__, [&] {
    required(world, "world");
    if (count != 0) {
      required(defs, "defs");
      required(handles, "handles");
    }
    world->defs.resize(count);
    for (size_t i = 0; i < count; ++i) world->defs[i] = def_of(defs[i], i);
    world->handles.resize(count);
    world->world.create(world->defs, world->handles);
    write_handles(world->handles, handles);
  });
}

hitgrid_status hitgrid_world_create_rows(hitgrid_world* world, uint32_t kind, const float* rows, size_t count,
                                         uint32_t body, const hitgrid_filter* filter, const uint64_t* users,
                                         hitgrid_handle* handles) {
  return guarded(__func__, [&] {
    required(world, "world");
    if (count != 0) required(handles, "handles");
    const hitgrid::ShapeKind k = kind_of(kind);
    const hitgrid::ShapeRows r = rows_of(k, rows, count, "rows");
    const hitgrid::BodyType b = body_of(body);
    const hitgrid::ShapeFilter f = filter ? filter_of(*filter) : hitgrid::ShapeFilter{};
    world->defs.resize(count);
    for (size_t i = 0; i < count; ++i)
      world->defs[i] = hitgrid::ShapeDef(hitgrid::checked_shape(hitgrid::shape_of_row(k, r, i), i), b, f,
                                         users ? users[i] : 0);
    world->handles.resize(count);
    world->world.create(world->defs, world->handles);
    write_handles(world->handles, handles);
  });
}

hitgrid_status hitgrid_world_destroy(hitgrid_world* world, hitgrid_handle handle) {
  return guarded(__func__, [&] { required(world, "world")->world.destroy(handle_of(handle)); });
}

hitgrid_status hitgrid_world_destroy_many(hitgrid_world* world, const hitgrid_handle* handles, size_t count) {
  return guarded(__func__, [&] {
    required(world, "world");
    world->world.destroy(handles_of(world, handles, count));
  });
}

hitgrid_status hitgrid_world_move(hitgrid_world* world, hitgrid_handle handle, const hitgrid_shape* shape) {
  return guarded(__func__, [&] {
    required(world, "world")->world.move(handle_of(handle), shape_of(*required(shape, "shape")));
  });
}

hitgrid_status hitgrid_world_move_many(hitgrid_world* world, const hitgrid_handle* handles,
                                       const hitgrid_shape* shapes, size_t count) {
  return guarded(__func__, [&] {
    required(world, "world");
    if (count != 0) required(shapes, "shapes");
    const auto h = handles_of(world, handles, count);
    world->shapes.resize(count);
    for (size_t i = 0; i < count; ++i) world->shapes[i] = shape_of(shapes[i], i);
    world->world.move(h, world->shapes);
  });
}

hitgrid_status hitgrid_world_move_rows(hitgrid_world* world, uint32_t kind, const hitgrid_handle* handles,
                                       const float* rows, size_t count) {
  return guarded(__func__, [&] {
    required(world, "world");
    const hitgrid::ShapeKind k = kind_of(kind);
    const hitgrid::ShapeRows r = rows_of(k, rows, count, "rows");
    const auto h = handles_of(world, handles, count);
    world->shapes.resize(count);
    for (size_t i = 0; i < count; ++i) world->shapes[i] = hitgrid::checked_shape(hitgrid::shape_of_row(k, r, i), i);
    world->world.move(h, world->shapes);
  });
}

hitgrid_status hitgrid_world_set_filter(hitgrid_world* world, hitgrid_handle handle, hitgrid_filter filter) {
  return guarded(__func__, [&] { required(world, "world")->world.set_filter(handle_of(handle), filter_of(filter)); });
}

hitgrid_status hitgrid_world_set_body(hitgrid_world* world, hitgrid_handle handle, uint32_t body) {
  return guarded(__func__, [&] { required(world, "world")->world.set_body(handle_of(handle), body_of(body)); });
}

hitgrid_status hitgrid_world_set_user(hitgrid_world* world, hitgrid_handle handle, uint64_t user) {
  return guarded(__func__, [&] { required(world, "world")->world.set_user(handle_of(handle), user); });
}

hitgrid_status hitgrid_world_set_displacement(hitgrid_world* world, hitgrid_handle handle, float dx, float dy) {
  return guarded(__func__, [&] { required(world, "world")->world.set_displacement(handle_of(handle), {dx, dy}); });
}

hitgrid_status hitgrid_world_contains(const hitgrid_world* world, hitgrid_handle handle, int* contains) {
  return guarded(__func__, [&] {
    required(world, "world");
    *required(contains, "contains") = world->world.contains(handle_of(handle)) ? 1 : 0;
  });
}

hitgrid_status hitgrid_world_shape(const hitgrid_world* world, hitgrid_handle handle, hitgrid_shape* shape) {
  return guarded(__func__, [&] {
    required(world, "world");
    required(shape, "shape");
    *shape = c_shape_of(world->world.shape(handle_of(handle)));
  });
}

hitgrid_status hitgrid_world_filter(const hitgrid_world* world, hitgrid_handle handle, hitgrid_filter* filter) {
  return guarded(__func__, [&] {
    required(world, "world");
    required(filter, "filter");
    const hitgrid::ShapeFilter f = world->world.filter(handle_of(handle));
    *filter = {f.category, f.mask};
  });
}

hitgrid_status hitgrid_world_body(const hitgrid_world* world, hitgrid_handle handle, uint32_t* body) {
  return guarded(__func__, [&] {
    required(world, "world");
    required(body, "body");
    *body = body_code(world->world.body(handle_of(handle)));
  });
}

hitgrid_status hitgrid_world_user(const hitgrid_world* world, hitgrid_handle handle, uint64_t* user) {
  return guarded(__func__, [&] {
    required(world, "world");
    required(user, "user");
    *user = world->world.user(handle_of(handle));
  });
}

hitgrid_status hitgrid_world_displacement(const hitgrid_world* world, hitgrid_handle handle, float* dx, float* dy) {
  return guarded(__func__, [&] {
    required(world, "world");
    required(dx, "dx");
    required(dy, "dy");
    const hitgrid::Vec2 v = world->world.displacement(handle_of(handle));
    *dx = v.x;
    *dy = v.y;
  });
}

hitgrid_status hitgrid_world_size(const hitgrid_world* world, size_t* size) {
  return guarded(__func__, [&] {
    required(world, "world");
    *required(size, "size") = world->world.size();
  });
}

hitgrid_status hitgrid_world_step(hitgrid_world* world) {
  return guarded(__func__, [&] {
    required(world, "world")->world.step();
    world->fresh = {};
    world->impacts_fresh = false;
  });
}

hitgrid_status hitgrid_world_pairs(hitgrid_world* world, const hitgrid_handle_pair** pairs, size_t* count) {
  return guarded(__func__, [&] { frame_list(world, hitgrid_world::pairs, pairs, count); });
}

hitgrid_status hitgrid_world_begin_events(hitgrid_world* world, const hitgrid_handle_pair** events, size_t* count) {
  return guarded(__func__, [&] { frame_list(world, hitgrid_world::begins, events, count); });
}

hitgrid_status hitgrid_world_end_events(hitgrid_world* world, const hitgrid_handle_pair** events, size_t* count) {
  return guarded(__func__, [&] { frame_list(world, hitgrid_world::ends, events, count); });
}

hitgrid_status hitgrid_world_impacts(hitgrid_world* world, const hitgrid_impact** impacts, size_t* count) {
  return guarded(__func__, [&] {
    required(world, "world");
    required(impacts, "impacts");
    required(count, "count");
    if (!world->impacts_fresh) {
      const auto cpp = world->world.impacts();
      world->impacts.resize(cpp.size());
      std::transform(cpp.begin(), cpp.end(), world->impacts.begin(), [](const hitgrid::Impact& i) {
        return hitgrid_impact{bits_of(i.moving), bits_of(i.other), static_cast<uint32_t>(i.kind), 0, i.t};
      });
      world->impacts_fresh = true;
    }
    *impacts = world->impacts.data();
    *count = world->impacts.size();
  });
}

hitgrid_status hitgrid_world_query(hitgrid_world* world, const hitgrid_shape* shape, uint64_t mask,
                                   const hitgrid_handle** handles, size_t* count) {
  return guarded(__func__, [&] {
    required(world, "world");
    required(handles, "handles");
    required(count, "count");
    world->world.query(shape_of(*required(shape, "shape")), mask, world->query_handles);
    world->query_out.resize(world->query_handles.size());
    write_handles(world->query_handles, world->query_out.data());
    *handles = world->query_out.data();
    *count = world->query_out.size();
  });
}

hitgrid_status hitgrid_world_cast(hitgrid_world* world, const hitgrid_segment* cast, uint64_t mask,
                                  const hitgrid_cast_hit** hits, size_t* count) {
  return guarded(__func__, [&] {
    required(world, "world");
    required(hits, "hits");
    required(count, "count");
    world->world.cast(segment_of(*required(cast, "cast")), mask, world->cast_hits);
    publish_hits(world, hits, count);
  });
}

hitgrid_status hitgrid_world_cast_ray(hitgrid_world* world, const hitgrid_ray* ray, uint64_t mask,
                                      const hitgrid_cast_hit** hits, size_t* count) {
  return guarded(__func__, [&] {
    required(world, "world");
    required(hits, "hits");
    required(count, "count");
    world->world.cast(ray_of(*required(ray, "ray")), mask, world->cast_hits);
    publish_hits(world, hits, count);
  });
}

hitgrid_status hitgrid_world_cast_nearest(hitgrid_world* world, const hitgrid_segment* cast, uint64_t mask,
                                          hitgrid_cast_hit* nearest, int* hit) {
  return guarded(__func__, [&] {
    required(world, "world");
    required(nearest, "nearest");
    required(hit, "hit");
    publish_nearest(world->world.cast_nearest(segment_of(*required(cast, "cast")), mask), nearest, hit);
  });
}

hitgrid_status hitgrid_world_cast_ray_nearest(hitgrid_world* world, const hitgrid_ray* ray, uint64_t mask,
                                              hitgrid_cast_hit* nearest, int* hit) {
  return guarded(__func__, [&] {
    required(world, "world");
    required(nearest, "nearest");
    required(hit, "hit");
    publish_nearest(world->world.cast_nearest(ray_of(*required(ray, "ray")), mask), nearest, hit);
  });
}

hitgrid_status hitgrid_world_cast_many(hitgrid_world* world, const hitgrid_segment* casts, size_t count,
                                       uint64_t mask, int nearest_only, const hitgrid_cast_hit** hits,
                                       const size_t** offsets) {
  return guarded(__func__, [&] {
    required(world, "world");
    required(hits, "hits");
    required(offsets, "offsets");
    if (count != 0) required(casts, "casts");
    world->segment_casts.resize(count);
    for (size_t i = 0; i < count; ++i) world->segment_casts[i] = segment_of(casts[i]);
    cast_batch<hitgrid::Segment>(world, world->segment_casts, mask, nearest_only, hits, offsets);
  });
}

hitgrid_status hitgrid_world_cast_ray_many(hitgrid_world* world, const hitgrid_ray* rays, size_t count,
                                           uint64_t mask, int nearest_only, const hitgrid_cast_hit** hits,
                                           const size_t** offsets) {
  return guarded(__func__, [&] {
    required(world, "world");
    required(hits, "hits");
    required(offsets, "offsets");
    if (count != 0) required(rays, "rays");
    world->ray_casts.resize(count);
    for (size_t i = 0; i < count; ++i) world->ray_casts[i] = ray_of(rays[i]);
    cast_batch<hitgrid::Ray>(world, world->ray_casts, mask, nearest_only, hits, offsets);
  });
}

hitgrid_status hitgrid_world_release_memory(hitgrid_world* world) {
  return guarded(__func__, [&] {
    required(world, "world")->world.release_memory();
    world->query_handles = {};
    world->query_out = {};
    world->cast_hits = {};
    world->cast_out = {};
    world->cast_offsets = {};
    world->segment_casts = {};
    world->ray_casts = {};
    world->defs = {};
    world->handles = {};
    world->shapes = {};
  });
}

}  // extern "C"
