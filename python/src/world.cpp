#include "world.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <mutex>
#include <optional>
#include <span>
#include <type_traits>
#include <string>
#include <vector>

#include "arrays.hpp"
#include "find_pairs.hpp"

namespace hitgrid::python {
namespace py = pybind11;
namespace {

constexpr std::uint64_t all_bits = ~std::uint64_t{0};

/// The world and the scratch of its bulk calls and casts. `busy` turns a call from a
/// second Python thread while one runs without the GIL into an error instead of a race.
struct PyWorld {
  explicit PyWorld(const WorldOptions& o) : world(o) {}
  World world;
  std::mutex busy;
  std::vector<ShapeDef> defs;
  std::vector<ShapeHandle> handles;
  std::vector<Shape> shapes;
  std::vector<ShapeHandle> found;
  std::vector<CastHit> hits;
};

std::unique_lock<std::mutex> hold(PyWorld& w) {
  std::unique_lock lock(w.busy, std::try_to_lock);
  if (!lock.owns_lock()) throw py::value_error("this World is in use by another thread");
  return lock;
}

ShapeHandle handle_of(std::uint64_t bits) {
  return {static_cast<std::uint32_t>(bits >> 32), static_cast<std::uint32_t>(bits)};
}

BodyType body_of(const std::string& name) {
  if (name == "static") return BodyType::static_body;
  if (name == "dynamic") return BodyType::dynamic_body;
  throw py::value_error("unknown body '" + name + "' (static or dynamic)");
}

/// One shape from a kind name and a sequence of numbers, checked (position 0).
Shape shape_of(const std::string& kind, const py::object& coords) {
  const ShapeKind k = kind_of(kind);
  const std::vector<float> row = read_row(coords, width_of(k), kind.c_str());
  return checked_shape(shape_of_row(k, {row.data(), 1, 4, 1}, 0), 0);
}

/// The rows of `array` as shapes of `kind` into w.shapes, each checked (named by row).
void shapes_of(PyWorld& w, const std::string& kind, const py::object& array) {
  const ShapeKind k = kind_of(kind);
  RowsInput in;
  read_rows(array, width_of(k), "shapes", in);
  w.shapes.resize(in.rows.count);
  for (std::size_t i = 0; i < in.rows.count; ++i) w.shapes[i] = checked_shape(shape_of_row(k, in.rows, i), i);
}

/// An array-like of integers as uint64s. Refused: other dtypes (a float would be
/// truncated, NaN made anything) and negative values (they would wrap); an empty array of
/// any dtype is no integers.
py::array_t<std::uint64_t> unsigned_integers(const py::object& obj, const std::string& what) {
  const py::array raw = py::array::ensure(obj);
  if (!raw) throw py::type_error(what + ": expected integers");
  const char kind = raw.dtype().kind();
  if (raw.size() != 0 && kind != 'i' && kind != 'u')
    throw py::type_error(what + ": expected integers, not " + std::string(py::str(raw.dtype())));
  if (raw.size() != 0 && kind == 'i') {
    const auto s = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(raw);
    for (py::ssize_t i = 0; i < s.size(); ++i)
      if (s.data()[i] < 0) throw py::value_error(what + ": expected integers >= 0, not " + std::to_string(s.data()[i]));
  }
  return py::array_t<std::uint64_t, py::array::c_style | py::array::forcecast>::ensure(raw);
}

/// A 1-D array of handles (any integer array-like) into w.handles.
void handles_of(PyWorld& w, const py::object& handles) {
  const auto a = unsigned_integers(handles, "handles");
  if (!a || a.ndim() > 1) throw py::value_error("handles: expected a 1-D array of handles");
  w.handles.resize(static_cast<std::size_t>(a.size()));
  for (std::size_t i = 0; i < w.handles.size(); ++i) w.handles[i] = handle_of(a.data()[i]);
}


py::object tuple_of(const Shape& shape) {
  if (const auto* s = std::get_if<Segment>(&shape)) return py::make_tuple("segment", py::make_tuple(s->a.x, s->a.y, s->b.x, s->b.y));
  if (const auto* c = std::get_if<Circle>(&shape)) return py::make_tuple("circle", py::make_tuple(c->c.x, c->c.y, c->r));
  const Box& b = std::get<Box>(shape);
  return py::make_tuple("box", py::make_tuple(b.min.x, b.min.y, b.max.x, b.max.y));
}

/// A cast's numbers: a segment (ax, ay, bx, by) or a ray (ox, oy, dx, dy). World refuses
/// a non-finite one (hitgrid.Error).
template <class Cast>
Cast cast_of(const py::object& numbers) {
  const std::vector<float> v = read_row(numbers, 4, std::is_same_v<Cast, Ray> ? "ray" : "cast");
  return {{v[0], v[1]}, {v[2], v[3]}};
}

/// The casts of an (N, 4) array, batched on the world's threads without the GIL: all hits
/// (hits, offsets: cast i's are hits[offsets[i]:offsets[i + 1]]) or, `nearest`, one
/// record per cast, handle 0 for a miss.
template <class Cast>
py::object cast_rows(PyWorld& w, const py::object& casts, std::uint64_t mask, bool nearest) {
  RowsInput in;
  read_rows(casts, 4, std::is_same_v<Cast, Ray> ? "rays" : "casts", in);
  std::vector<Cast> batch(in.rows.count);
  std::vector<std::size_t> offsets;
  std::vector<HitRecord> out;
  {
    py::gil_scoped_release release;
    for (std::size_t i = 0; i < batch.size(); ++i) {
      const Shape row = shape_of_row(ShapeKind::segment, in.rows, i);  // four floats, not checked
      const Segment& s = std::get<Segment>(row);
      batch[i] = {s.a, s.b};
    }
    w.world.cast(std::span<const Cast>(batch), mask, nearest ? CastHits::nearest : CastHits::all, w.hits, offsets);
    if (nearest) {
      out.resize(batch.size());
      for (std::size_t i = 0; i < batch.size(); ++i)
        if (offsets[i + 1] > offsets[i]) out[i] = record_of(w.hits[offsets[i]]);
    } else {
      for (const CastHit& h : w.hits) out.push_back(record_of(h));
    }
  }
  if (nearest) return hits_array(out);
  return py::make_tuple(hits_array(out), py::array_t<std::uint64_t>(static_cast<py::ssize_t>(offsets.size()),
                                                                      reinterpret_cast<const std::uint64_t*>(offsets.data())));
}

template <class Cast>
py::object cast_all(PyWorld& w, const py::object& numbers, std::uint64_t mask) {
  const auto lock = hold(w);
  const Cast c = cast_of<Cast>(numbers);
  std::vector<HitRecord> out;
  {
    py::gil_scoped_release release;
    w.world.cast(c, mask, w.hits);
    for (const CastHit& h : w.hits) out.push_back(record_of(h));
  }
  return hits_array(out);
}

template <class Cast>
py::object cast_first(PyWorld& w, const py::object& numbers, std::uint64_t mask) {
  const auto lock = hold(w);
  const Cast c = cast_of<Cast>(numbers);
  std::optional<CastHit> hit;
  {
    py::gil_scoped_release release;
    hit = w.world.cast_nearest(c, mask);
  }
  if (!hit) return py::none();
  const HitRecord r = record_of(*hit);
  return hits_array({&r, 1})[py::int_(0)];
}

}  // namespace

void bind_world(py::module_& m) {
  using namespace pybind11::literals;
  m.attr("ALL") = py::int_(all_bits);
  py::class_<PyWorld>(m, "World", R"(A collision world driven frame by frame (hitgrid::World).

Shapes have stable integer handles; static shapes never pair with each other; step()
finds the pairs touching now and the begin / end events since the last step, exactly, the
same on any thread count and ISA. A World is used from one thread at a time.)")
      .def(py::init([](unsigned threads, const std::string& isa, float cell_size, float large_cell_size,
                       float margin, std::size_t small_frame_shapes) {
             WorldOptions o;
             o.small_frame_shapes = small_frame_shapes;
             o.threads = threads;
             o.isa = isa_of(isa);
             o.cell_size = cell_size;
             o.large_cell_size = large_cell_size;
             o.margin = margin;
             return std::make_unique<PyWorld>(o);
           }),
           py::kw_only(), "threads"_a = 0u, "isa"_a = "auto", "cell_size"_a = 0.0f, "large_cell_size"_a = 0.0f,
           "margin"_a = 0.0f, "small_frame_shapes"_a = WorldOptions{}.small_frame_shapes)
      .def(
          "create",
          [](PyWorld& w, const std::string& kind, const py::object& coords, const std::string& body,
             std::uint64_t category, std::uint64_t mask, std::uint64_t user) {
            const auto lock = hold(w);
            return w.world.create(ShapeDef(shape_of(kind, coords), body_of(body), {category, mask}, user)).bits();
          },
          "A shape: kind 'segment' (ax, ay, bx, by), 'circle' (cx, cy, r) or 'box' (minx, miny, maxx, maxy). "
          "Returns its handle.",
          "kind"_a, "coords"_a, py::kw_only(), "body"_a = "dynamic", "category"_a = 1u, "mask"_a = all_bits,
          "user"_a = 0u)
      .def(
          "create_many",
          [](PyWorld& w, const std::string& kind, const py::object& array, const std::string& body,
             std::uint64_t category, std::uint64_t mask, const py::object& users) {
            const auto lock = hold(w);
            shapes_of(w, kind, array);
            std::optional<py::array_t<std::uint64_t>> u;
            if (!users.is_none()) {
              u = unsigned_integers(users, "users");
              if (!*u || static_cast<std::size_t>(u->size()) != w.shapes.size())
                throw py::value_error("users: expected one integer per shape");
            }
            w.defs.resize(w.shapes.size());
            for (std::size_t i = 0; i < w.shapes.size(); ++i)
              w.defs[i] = ShapeDef(w.shapes[i], body_of(body), {category, mask}, u ? u->data()[i] : 0);
            w.handles.resize(w.defs.size());
            w.world.create(w.defs, w.handles);
            return handles_array(w.handles);
          },
          "Shapes of one kind from an (N, 4) or (N, 3) array, all with the same body and filter; users: one "
          "integer per shape or None. Returns their handles (uint64). All or nothing.",
          "kind"_a, "array"_a, py::kw_only(), "body"_a = "dynamic", "category"_a = 1u, "mask"_a = all_bits,
          "users"_a = py::none())
      .def(
          "destroy", [](PyWorld& w, std::uint64_t h) { const auto lock = hold(w); w.world.destroy(handle_of(h)); },
          "handle"_a)
      .def(
          "destroy_many",
          [](PyWorld& w, const py::object& handles) {
            const auto lock = hold(w);
            handles_of(w, handles);
            w.world.destroy(w.handles);
          },
          "Every handle live and given once. All or nothing.", "handles"_a)
      .def(
          "move",
          [](PyWorld& w, std::uint64_t h, const std::string& kind, const py::object& coords) {
            const auto lock = hold(w);
            w.world.move(handle_of(h), shape_of(kind, coords));
          },
          "New geometry, of any kind.", "handle"_a, "kind"_a, "coords"_a)
      .def(
          "move_many",
          [](PyWorld& w, const py::object& handles, const std::string& kind, const py::object& array) {
            const auto lock = hold(w);
            handles_of(w, handles);
            shapes_of(w, kind, array);
            w.world.move(w.handles, w.shapes);
          },
          "Row i of the array (shapes of one kind) for handles[i]. All or nothing.", "handles"_a, "kind"_a, "array"_a)
      .def(
          "set_filter",
          [](PyWorld& w, std::uint64_t h, std::uint64_t category, std::uint64_t mask) {
            const auto lock = hold(w);
            w.world.set_filter(handle_of(h), {category, mask});
          },
          "handle"_a, "category"_a, "mask"_a)
      .def(
          "set_body",
          [](PyWorld& w, std::uint64_t h, const std::string& body) {
            const auto lock = hold(w);
            w.world.set_body(handle_of(h), body_of(body));
          },
          "handle"_a, "body"_a)
      .def(
          "set_user",
          [](PyWorld& w, std::uint64_t h, std::uint64_t user) {
            const auto lock = hold(w);
            w.world.set_user(handle_of(h), user);
          },
          "handle"_a, "user"_a)
      .def(
          "set_displacement",
          [](PyWorld& w, std::uint64_t h, float dx, float dy) {
            const auto lock = hold(w);
            w.world.set_displacement(handle_of(h), {dx, dy});
          },
          "A dynamic circle's path over each frame, for continuous collision (impacts()); 0, 0: none.", "handle"_a,
          "dx"_a, "dy"_a)
      .def("displacement",
           [](PyWorld& w, std::uint64_t h) {
             const auto lock = hold(w);
             const Vec2 v = w.world.displacement(handle_of(h));
             return py::make_tuple(v.x, v.y);
           })
      .def("contains", [](PyWorld& w, std::uint64_t h) {
             const auto lock = hold(w);
             return w.world.contains(handle_of(h)); })
      .def("__contains__", [](PyWorld& w, std::uint64_t h) {
             const auto lock = hold(w);
             return w.world.contains(handle_of(h)); })
      .def("shape", [](PyWorld& w, std::uint64_t h) {
             const auto lock = hold(w);
             return tuple_of(w.world.shape(handle_of(h))); },
           "(kind, coords) of a live shape.")
      .def("filter",
           [](PyWorld& w, std::uint64_t h) {
             const auto lock = hold(w);
             const ShapeFilter f = w.world.filter(handle_of(h));
             return py::make_tuple(f.category, f.mask);
           })
      .def("body",
           [](PyWorld& w, std::uint64_t h) {
             const auto lock = hold(w);
             return w.world.body(handle_of(h)) == BodyType::static_body ? "static" : "dynamic";
           })
      .def("user", [](PyWorld& w, std::uint64_t h) {
             const auto lock = hold(w);
             return w.world.user(handle_of(h)); })
      .def("__len__", [](PyWorld& w) {
             const auto lock = hold(w);
             return w.world.size(); })
      .def(
          "step",
          [](PyWorld& w) {
            const auto lock = hold(w);
            py::gil_scoped_release release;
            w.world.step();
          },
          "The frame: the pairs touching now, the events since the last step, the impacts.")
      .def("pairs", [](PyWorld& w) {
             const auto lock = hold(w);
             return handle_pairs_array(w.world.pairs()); },
           "After step(): the pairs touching, (M, 2) uint64, sorted, the lower handle first.")
      .def("begin_events", [](PyWorld& w) {
             const auto lock = hold(w);
             return handle_pairs_array(w.world.begin_events()); },
           "After step(): pairs touching now but not at the previous step.")
      .def("end_events", [](PyWorld& w) {
             const auto lock = hold(w);
             return handle_pairs_array(w.world.end_events()); },
           "After step(): pairs touching at the previous step but not now (a handle may be destroyed).")
      .def("impacts", [](PyWorld& w) {
             const auto lock = hold(w);
             return impacts_array(w.world.impacts()); },
           "After step(): records (moving, other, t, kind) of the moving circles' contacts during the frame; kind 1 "
           "overlapping, 2 touching at t = 0, 3 impact at t.")
      .def(
          "query",
          [](PyWorld& w, const std::string& kind, const py::object& coords, std::uint64_t mask) {
            const auto lock = hold(w);
            const Shape s = shape_of(kind, coords);
            {
              py::gil_scoped_release release;
              w.world.query(s, mask, w.found);
            }
            return handles_array(w.found);
          },
          "Handles of the live shapes touching the shape (a zero-size circle or box: a point), sorted.", "kind"_a,
          "coords"_a, "mask"_a = all_bits)
      .def("cast", &cast_all<Segment>,
           "Every shape the segment (ax, ay, bx, by) touches, by t: records (handle, t, x, y, nx, ny).", "cast"_a,
           "mask"_a = all_bits)
      .def("cast_ray", &cast_all<Ray>,
           "Every shape the ray (ox, oy, dx, dy) touches (origin + t direction, t >= 0), by t.", "ray"_a,
           "mask"_a = all_bits)
      .def("cast_nearest", &cast_first<Segment>, "The first shape the segment touches, as one record, or None.",
           "cast"_a, "mask"_a = all_bits)
      .def("cast_ray_nearest", &cast_first<Ray>, "The first shape the ray touches, as one record, or None.", "ray"_a,
           "mask"_a = all_bits)
      .def(
          "cast_many",
          [](PyWorld& w, const py::object& casts, std::uint64_t mask) {
            const auto lock = hold(w);
            return cast_rows<Segment>(w, casts, mask, false);
          },
          "Segment casts from an (N, 4) array, in parallel: (hits, offsets), cast i's hits are "
          "hits[offsets[i]:offsets[i + 1]].",
          "casts"_a, "mask"_a = all_bits)
      .def(
          "cast_nearest_many",
          [](PyWorld& w, const py::object& casts, std::uint64_t mask) {
            const auto lock = hold(w);
            return cast_rows<Segment>(w, casts, mask, true);
          },
          "The first hit of each segment cast of an (N, 4) array, one record each; handle 0 (and zeros) for a miss.",
          "casts"_a, "mask"_a = all_bits)
      .def(
          "cast_ray_many",
          [](PyWorld& w, const py::object& rays, std::uint64_t mask) {
            const auto lock = hold(w);
            return cast_rows<Ray>(w, rays, mask, false);
          },
          "Ray casts from an (N, 4) array (ox, oy, dx, dy), in parallel: (hits, offsets).", "rays"_a,
          "mask"_a = all_bits)
      .def(
          "cast_ray_nearest_many",
          [](PyWorld& w, const py::object& rays, std::uint64_t mask) {
            const auto lock = hold(w);
            return cast_rows<Ray>(w, rays, mask, true);
          },
          "The first hit of each ray of an (N, 4) array, one record each; handle 0 for a miss.", "rays"_a,
          "mask"_a = all_bits)
      .def(
          "release_memory",
          [](PyWorld& w) {
            const auto lock = hold(w);
            w.world.release_memory();
          },
          "Gives back the scratch memory kept between steps (shapes, pairs and events stay).");
}

}  // namespace hitgrid::python
