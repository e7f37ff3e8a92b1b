#include "world.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <mutex>
#include <optional>
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

/// A 1-D array of handles (any integer array-like) into w.handles.
void handles_of(PyWorld& w, const py::object& handles) {
  const auto a = py::array_t<std::uint64_t, py::array::c_style | py::array::forcecast>::ensure(handles);
  if (!a || a.ndim() > 1) throw py::value_error("handles: expected a 1-D array of handles");
  w.handles.resize(static_cast<std::size_t>(a.size()));
  for (std::size_t i = 0; i < w.handles.size(); ++i) w.handles[i] = handle_of(a.data()[i]);
}

Segment segment_of(const py::object& cast) {
  return std::get<Segment>(shape_of("segment", cast));
}

py::object tuple_of(const Shape& shape) {
  if (const auto* s = std::get_if<Segment>(&shape)) return py::make_tuple("segment", py::make_tuple(s->a.x, s->a.y, s->b.x, s->b.y));
  if (const auto* c = std::get_if<Circle>(&shape)) return py::make_tuple("circle", py::make_tuple(c->c.x, c->c.y, c->r));
  const Box& b = std::get<Box>(shape);
  return py::make_tuple("box", py::make_tuple(b.min.x, b.min.y, b.max.x, b.max.y));
}

/// Every cast of the (N, 4) array `casts`, without the GIL: each hit as a record, and
/// offsets (cast i's hits are out[offsets[i]:offsets[i + 1]]); or, `nearest`, one record
/// per cast, handle 0 for a miss.
struct CastBatch {
  std::vector<HitRecord> hits;
  std::vector<std::uint64_t> offsets;
};
CastBatch cast_rows(PyWorld& w, const py::object& casts, std::uint64_t mask, bool nearest) {
  RowsInput in;
  read_rows(casts, 4, "casts", in);
  CastBatch out;
  out.offsets.assign(1, 0);
  py::gil_scoped_release release;
  for (std::size_t i = 0; i < in.rows.count; ++i) {
    const Shape s = checked_shape(shape_of_row(ShapeKind::segment, in.rows, i), i);
    w.world.cast(std::get<Segment>(s), mask, w.hits);
    if (nearest) {
      out.hits.push_back(w.hits.empty() ? HitRecord{} : record_of(w.hits.front()));
    } else {
      for (const CastHit& h : w.hits) out.hits.push_back(record_of(h));
    }
    out.offsets.push_back(out.hits.size());
  }
  return out;
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
                       float margin) {
             WorldOptions o;
             o.threads = threads;
             o.isa = isa_of(isa);
             o.cell_size = cell_size;
             o.large_cell_size = large_cell_size;
             o.margin = margin;
             return std::make_unique<PyWorld>(o);
           }),
           py::kw_only(), "threads"_a = 0u, "isa"_a = "auto", "cell_size"_a = 0.0f, "large_cell_size"_a = 0.0f,
           "margin"_a = 0.0f)
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
            std::optional<py::array_t<std::uint64_t, py::array::c_style | py::array::forcecast>> u;
            if (!users.is_none()) {
              u = py::array_t<std::uint64_t, py::array::c_style | py::array::forcecast>::ensure(users);
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
      .def(
          "cast",
          [](PyWorld& w, const py::object& cast, std::uint64_t mask) {
            const auto lock = hold(w);
            const Segment s = segment_of(cast);
            std::vector<HitRecord> out;
            {
              py::gil_scoped_release release;
              w.world.cast(s, mask, w.hits);
              for (const CastHit& h : w.hits) out.push_back(record_of(h));
            }
            return hits_array(out);
          },
          "Every shape the segment (ax, ay, bx, by) touches, by t: records (handle, t, x, y, nx, ny).", "cast"_a,
          "mask"_a = all_bits)
      .def(
          "cast_nearest",
          [](PyWorld& w, const py::object& cast, std::uint64_t mask) -> py::object {
            const auto lock = hold(w);
            const Segment s = segment_of(cast);
            {
              py::gil_scoped_release release;
              w.world.cast(s, mask, w.hits);
            }
            if (w.hits.empty()) return py::none();
            const HitRecord r = record_of(w.hits.front());
            return hits_array({&r, 1})[py::int_(0)];
          },
          "The first shape the segment touches, as one record, or None.", "cast"_a, "mask"_a = all_bits)
      .def(
          "cast_many",
          [](PyWorld& w, const py::object& casts, std::uint64_t mask) {
            const auto lock = hold(w);
            const CastBatch b = cast_rows(w, casts, mask, false);
            return py::make_tuple(hits_array(b.hits), py::array_t<std::uint64_t>(
                                                          static_cast<py::ssize_t>(b.offsets.size()), b.offsets.data()));
          },
          "Casts from an (N, 4) array: (hits, offsets), cast i's hits are hits[offsets[i]:offsets[i + 1]].",
          "casts"_a, "mask"_a = all_bits)
      .def(
          "cast_nearest_many",
          [](PyWorld& w, const py::object& casts, std::uint64_t mask) {
            const auto lock = hold(w);
            return hits_array(cast_rows(w, casts, mask, true).hits);
          },
          "The first hit of each cast of an (N, 4) array, one record each; handle 0 (and zeros) for a miss.",
          "casts"_a, "mask"_a = all_bits)
      .def(
          "release_memory",
          [](PyWorld& w) {
            const auto lock = hold(w);
            w.world.release_memory();
          },
          "Gives back the scratch memory kept between steps (shapes, pairs and events stay).");
}

}  // namespace hitgrid::python
