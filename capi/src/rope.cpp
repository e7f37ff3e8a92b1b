// The rope through C (hitgrid.h): a hitgrid::Rope, and its nodes in C layout, converted
// when first asked for after a move and kept until the next one.
#include <cmath>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "convert.hpp"
#include "guard.hpp"
#include "hitgrid.h"
#include "hitgrid/broadphase/assign_rows.hpp"
#include "hitgrid/core/error.hpp"
#include "hitgrid/core/scene.hpp"
#include "hitgrid/rope/rope.hpp"

struct hitgrid_rope {
  explicit hitgrid_rope(hitgrid::Rope r) : rope(std::move(r)) {}
  hitgrid_rope(const hitgrid_rope& o) : rope(o.rope) {}

  hitgrid::Rope rope;
  std::vector<hitgrid_rope_node> nodes;  // rope.nodes() in C layout when `fresh`
  bool fresh = false;
  std::vector<hitgrid::Vec2> path;       // scratch of move_end_path
};

namespace hitgrid::capi {

static_assert(sizeof(hitgrid_rope_node) == 20 && alignof(hitgrid_rope_node) == 4);
static_assert(HITGRID_ROPE_NO_PEG == RopeNode::no_peg);

namespace {

std::string point_text(float x, float y) {
  std::ostringstream s;
  s.precision(9);
  s << '(' << x << ", " << y << ')';
  return s.str();
}

/// The points of packed x y rows, `name` naming them in errors; NULL is fine for none.
std::vector<Vec2> points_of(const float* xy, std::size_t count, const char* name) {
  if (count != 0) required(xy, name);
  std::vector<Vec2> out(count);
  for (std::size_t i = 0; i < count; ++i) out[i] = {xy[2 * i], xy[2 * i + 1]};
  return out;
}

hitgrid_rope& rope_of(hitgrid_rope* r) { return *required(r, "rope"); }
const hitgrid_rope& rope_of(const hitgrid_rope* r) { return *required(r, "rope"); }

/// hitgrid::Rope::peg(i) does not check i; the C caller's index is checked here, with the
/// message Rope::move_peg gives.
void check_peg(const Rope& rope, std::uint32_t peg) {
  if (peg >= rope.peg_count())
    throw Error("peg " + std::to_string(peg) + ": no such peg (" + std::to_string(rope.peg_count()) + " pegs)");
}

}  // namespace
}  // namespace hitgrid::capi

using namespace hitgrid::capi;

extern "C" {

hitgrid_status hitgrid_rope_new(float start_x, float start_y, const float* pegs, size_t peg_count, hitgrid_rope** rope) {
  return guarded(__func__, [&] {
    required(rope, "rope");
    *rope = new hitgrid_rope(hitgrid::Rope({start_x, start_y}, points_of(pegs, peg_count, "pegs")));
  });
}

hitgrid_status hitgrid_rope_new_from_shapes(float start_x, float start_y, const hitgrid_shape_arrays* shapes,
                                            hitgrid_rope** rope) {
  return guarded(__func__, [&] {
    required(rope, "rope");
    const hitgrid_shape_arrays& a = *required(shapes, "shapes");
    hitgrid::Scene scene;
    // Validated on the way in: InvalidShapeError names the first bad shape by its id.
    hitgrid::assign_rows(scene, rows_of(hitgrid::ShapeKind::segment, a.segments, a.segment_count, "shapes->segments"),
                         rows_of(hitgrid::ShapeKind::circle, a.circles, a.circle_count, "shapes->circles"),
                         rows_of(hitgrid::ShapeKind::box, a.boxes, a.box_count, "shapes->boxes"), 1);
    *rope = new hitgrid_rope(hitgrid::Rope({start_x, start_y}, scene));
  });
}

hitgrid_status hitgrid_rope_copy(const hitgrid_rope* rope, hitgrid_rope** copy) {
  return guarded(__func__, [&] {
    const hitgrid_rope& r = rope_of(rope);
    required(copy, "copy");
    *copy = new hitgrid_rope(r);
  });
}

hitgrid_status hitgrid_rope_free(hitgrid_rope* rope) {
  delete rope;
  return HITGRID_OK;
}

hitgrid_status hitgrid_rope_move_end(hitgrid_rope* rope, float x, float y) {
  return guarded(__func__, [&] {
    hitgrid_rope& r = rope_of(rope);
    r.fresh = false;
    r.rope.move_end({x, y});
  });
}

hitgrid_status hitgrid_rope_move_end_path(hitgrid_rope* rope, const float* points, size_t count) {
  return guarded(__func__, [&] {
    hitgrid_rope& r = rope_of(rope);
    r.fresh = false;
    if (count != 0) required(points, "points");
    for (size_t i = 0; i < count; ++i) {
      const float x = points[2 * i], y = points[2 * i + 1];
      if (!std::isfinite(x) || !std::isfinite(y))
        throw hitgrid::Error("path point " + std::to_string(i) + ": not a finite point " + point_text(x, y));
    }
    for (size_t i = 0; i < count; ++i) r.rope.move_end({points[2 * i], points[2 * i + 1]});
  });
}

hitgrid_status hitgrid_rope_move_start(hitgrid_rope* rope, float x, float y) {
  return guarded(__func__, [&] {
    hitgrid_rope& r = rope_of(rope);
    r.fresh = false;
    r.rope.move_start({x, y});
  });
}

hitgrid_status hitgrid_rope_move_peg(hitgrid_rope* rope, uint32_t peg, float x, float y) {
  return guarded(__func__, [&] {
    hitgrid_rope& r = rope_of(rope);
    r.fresh = false;
    r.rope.move_peg(peg, {x, y});
  });
}

hitgrid_status hitgrid_rope_nodes(hitgrid_rope* rope, const hitgrid_rope_node** nodes, size_t* count) {
  return guarded(__func__, [&] {
    hitgrid_rope& r = rope_of(rope);
    required(nodes, "nodes");
    required(count, "count");
    if (!r.fresh) {
      const auto from = r.rope.nodes();
      r.nodes.resize(from.size());
      for (std::size_t i = 0; i < from.size(); ++i)
        r.nodes[i] = {from[i].position.x, from[i].position.y, from[i].peg, static_cast<std::int32_t>(from[i].side),
                      from[i].half_turns};
      r.fresh = true;
    }
    *nodes = r.nodes.data();
    *count = r.nodes.size();
  });
}

hitgrid_status hitgrid_rope_end(const hitgrid_rope* rope, float* x, float* y) {
  return guarded(__func__, [&] {
    const hitgrid::Vec2 p = rope_of(rope).rope.end();
    *required(x, "x") = p.x;
    *required(y, "y") = p.y;
  });
}

hitgrid_status hitgrid_rope_start(const hitgrid_rope* rope, float* x, float* y) {
  return guarded(__func__, [&] {
    const hitgrid::Vec2 p = rope_of(rope).rope.start();
    *required(x, "x") = p.x;
    *required(y, "y") = p.y;
  });
}

hitgrid_status hitgrid_rope_length(const hitgrid_rope* rope, double* length) {
  return guarded(__func__, [&] {
    const hitgrid_rope& r = rope_of(rope);
    *required(length, "length") = r.rope.length();
  });
}

hitgrid_status hitgrid_rope_peg_count(const hitgrid_rope* rope, size_t* count) {
  return guarded(__func__, [&] {
    const hitgrid_rope& r = rope_of(rope);
    *required(count, "count") = r.rope.peg_count();
  });
}

hitgrid_status hitgrid_rope_peg(const hitgrid_rope* rope, uint32_t peg, float* x, float* y) {
  return guarded(__func__, [&] {
    const hitgrid_rope& r = rope_of(rope);
    required(x, "x");
    required(y, "y");
    check_peg(r.rope, peg);
    const hitgrid::Vec2 p = r.rope.peg(peg);
    *x = p.x;
    *y = p.y;
  });
}

}  // extern "C"
