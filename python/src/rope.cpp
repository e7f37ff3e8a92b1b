#include "rope.hpp"

#include <pybind11/numpy.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "arrays.hpp"
#include "errors.hpp"
#include "hitgrid/broadphase/assign_rows.hpp"
#include "hitgrid/rope/rope.hpp"

namespace hitgrid::python {
namespace py = pybind11;
namespace {

/// The rope, and `busy`: a call from a second Python thread while one runs without the
/// GIL is an error instead of a race (as hitgrid.World).
struct PyRope {
  explicit PyRope(Rope r) : rope(std::move(r)) {}
  PyRope(const PyRope& o) : rope(o.rope) {}
  Rope rope;
  std::mutex busy;
};

std::unique_lock<std::mutex> hold(PyRope& r) {
  std::unique_lock lock(r.busy, std::try_to_lock);
  if (!lock.owns_lock()) throw py::value_error("this Rope is in use by another thread");
  return lock;
}

/// Runs a call of the C++ rope: its hitgrid::Error (bad input; the rope unchanged) becomes
/// hitgrid.RopeError with the library's message. An invalid shape stays what it is.
template <class Call>
decltype(auto) rope_call(Call&& call) {
  try {
    return call();
  } catch (const InvalidShapeError&) {
    throw;
  } catch (const Error& e) {
    throw RopeInputError(e.what());
  }
}

std::string point_text(float x, float y) {
  std::ostringstream s;
  s.precision(9);
  s << '(' << x << ", " << y << ')';
  return s.str();
}

/// An (N, 2) array of x y rows as points, by the module's conversion rule (None: none).
std::vector<Vec2> points_of(const py::object& obj, const char* name) {
  RowsInput in;
  read_rows(obj, 2, name, in);
  std::vector<Vec2> out(in.rows.count);
  const ShapeRows& r = in.rows;
  for (std::size_t i = 0; i < r.count; ++i) {
    const float* row = r.data + static_cast<std::ptrdiff_t>(i) * r.row_stride;
    out[i] = {row[0], row[r.column_stride]};
  }
  return out;
}

/// One point from two numbers (or a sequence of two), by the same rule.
Vec2 point_of(const py::object& x, const py::object& y, const char* name) {
  const std::vector<float> v = read_row(py::make_tuple(x, y), 2, name);
  return {v[0], v[1]};
}
Vec2 point_of(const py::object& xy, const char* name) {
  const std::vector<float> v = read_row(xy, 2, name);
  return {v[0], v[1]};
}

py::array_t<float> points_array(std::span<const Vec2> points) {
  py::array_t<float> out({static_cast<py::ssize_t>(points.size()), py::ssize_t{2}});
  float* p = out.mutable_data();
  for (std::size_t i = 0; i < points.size(); ++i) {
    p[2 * i] = points[i].x;
    p[2 * i + 1] = points[i].y;
  }
  return out;
}

py::object nodes_of(const Rope& rope) {
  const std::span<const RopeNode> nodes = rope.nodes();
  const auto n = static_cast<py::ssize_t>(nodes.size());
  py::array_t<float> positions({n, py::ssize_t{2}});
  py::array_t<std::uint32_t> pegs(n);
  py::array_t<std::int8_t> sides(n);
  py::array_t<std::uint32_t> half_turns(n);
  float* p = positions.mutable_data();
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    p[2 * i] = nodes[i].position.x;
    p[2 * i + 1] = nodes[i].position.y;
    pegs.mutable_data()[i] = nodes[i].peg;
    sides.mutable_data()[i] = static_cast<std::int8_t>(nodes[i].side);
    half_turns.mutable_data()[i] = nodes[i].half_turns;
  }
  return py::module_::import("hitgrid").attr("RopeNodes")(positions, pegs, sides, half_turns);
}

std::unique_ptr<PyRope> make_rope(Vec2 start, std::vector<Vec2> pegs) {
  py::gil_scoped_release release;  // the pegs' grid is built here
  return rope_call([&] { return std::make_unique<PyRope>(Rope(start, std::move(pegs))); });
}

std::unique_ptr<PyRope> rope_from_shapes(const py::object& start, const py::object& segments, const py::object& circles,
                                         const py::object& boxes) {
  const Vec2 s = point_of(start, "start");
  SceneRowsInput in;
  read_scene_rows(segments, circles, boxes, in);
  py::gil_scoped_release release;
  Scene scene;
  assign_rows(scene, in.segments.rows, in.circles.rows, in.boxes.rows, 1);  // InvalidShapeError names the shape
  return rope_call([&] { return std::make_unique<PyRope>(Rope(s, scene)); });
}

/// The end along every point of the path in turn; every point is checked first, so a bad
/// one moves nothing.
void move_path(PyRope& r, const py::object& points) {
  const auto lock = hold(r);
  const std::vector<Vec2> path = points_of(points, "points");
  for (std::size_t i = 0; i < path.size(); ++i)
    if (!std::isfinite(path[i].x) || !std::isfinite(path[i].y))
      throw RopeInputError("path point " + std::to_string(i) + ": not a finite point " +
                           point_text(path[i].x, path[i].y));
  py::gil_scoped_release release;
  rope_call([&] {
    for (Vec2 p : path) r.rope.move_end(p);
  });
}

}  // namespace

void bind_rope(py::module_& m) {
  using namespace pybind11::literals;
  m.attr("ROPE_NO_PEG") = py::int_(RopeNode::no_peg);
  py::class_<PyRope>(m, "Rope", R"(A rope pinned at its start that wraps around pegs as its end moves and unwraps
when it swings back (hitgrid::Rope; the rules are docs/rope.md). Pegs are points, or
circles (from_shapes): the rope runs along their tangents and arcs.

Rope(start, pegs): start is (x, y); pegs an (N, 2) array of x y, float32 read as it is,
other real dtypes converted by the module's rule (README, "Python"). Every decision
(which pegs are caught, their order, each node's side and half-turn count, every release)
is exact on the float32 inputs, the same as the C++ and C ropes. Bad input raises
hitgrid.RopeError (a ValueError) naming the point or peg, the rope unchanged. A Rope is
used from one thread at a time.)")
      .def(py::init([](const py::object& start, const py::object& pegs) {
             const Vec2 s = point_of(start, "start");
             return make_rope(s, points_of(pegs, "pegs"));
           }),
           "start"_a, "pegs"_a = py::none())
      .def_static("from_shapes", &rope_from_shapes,
                  "A rope among the pegs shapes stand for: each segment's two ends, each circle (a circle peg "
                  "of its radius; radius 0: a point), each box's corners (minx, miny), (maxx, miny), (maxx, maxy), "
                  "(minx, maxy); "
                  "pegs numbered in that order, segments first, then circles, then boxes.",
                  "start"_a, "segments"_a = py::none(), "circles"_a = py::none(), "boxes"_a = py::none())
      .def(
          "move_end",
          [](PyRope& r, const py::object& x, const py::object& y) {
            const auto lock = hold(r);
            const Vec2 p = point_of(x, y, "end");
            rope_call([&] { r.rope.move_end(p); });
          },
          "Moves the end along the straight segment to (x, y), wrapping and releasing on the way.", "x"_a, "y"_a)
      .def("move_path", &move_path,
           "move_end to each row of an (M, 2) array in turn, without the GIL: the same rope as M calls. "
           "Every point is checked before the first move.",
           "points"_a)
      .def(
          "move_start",
          [](PyRope& r, const py::object& x, const py::object& y) {
            const auto lock = hold(r);
            const Vec2 p = point_of(x, y, "start");
            rope_call([&] { r.rope.move_start(p); });
          },
          "Moves the start along the straight segment to (x, y): the same rules from the other end.", "x"_a, "y"_a)
      .def(
          "move_peg",
          [](PyRope& r, std::uint32_t peg, const py::object& x, const py::object& y) {
            const auto lock = hold(r);
            const Vec2 p = point_of(x, y, "peg");
            rope_call([&] { r.rope.move_peg(peg, p); });
          },
          "Moves a peg along the straight segment to (x, y), taking the rope with it (a wrapped peg moves with "
          "the rope split at it; a free peg crossing the rope catches it). RopeError, the rope unchanged, if it "
          "names no peg or the rope refuses the move (docs/rope.md, \"Moving pegs\").",
          "peg"_a, "x"_a, "y"_a)
      .def_property_readonly(
          "nodes",
          [](PyRope& r) {
            const auto lock = hold(r);
            return nodes_of(r.rope);
          },
          "RopeNodes(positions, pegs, sides, half_turns): the start, then the wrapped pegs in order; positions "
          "(K, 2) float32, pegs (K,) uint32 (ROPE_NO_PEG for the start), sides (K,) int8 (+1 the rope turns left, "
          "-1 right, 0 the start), half_turns (K,) uint32 (floor(winding / pi)). Copies.")
      .def_property_readonly(
          "points",
          [](PyRope& r) {
            const auto lock = hold(r);
            const std::vector<Vec2> p = r.rope.points();
            return points_array(p);
          },
          "The polyline: every node's position, then the end, as a (K + 1, 2) float32 array.")
      .def_property_readonly(
          "start",
          [](PyRope& r) {
            const auto lock = hold(r);
            return py::make_tuple(r.rope.start().x, r.rope.start().y);
          },
          "(x, y)")
      .def_property_readonly(
          "end",
          [](PyRope& r) {
            const auto lock = hold(r);
            return py::make_tuple(r.rope.end().x, r.rope.end().y);
          },
          "(x, y)")
      .def_property_readonly(
          "length",
          [](PyRope& r) {
            const auto lock = hold(r);
            return r.rope.length();
          },
          "The sum of the segments' lengths and the arcs around circle pegs, within the bound "
          "docs/rope.md states ((segments + 3) * 2^-52 relatively around point pegs).")
      .def_property_readonly(
          "pegs",
          [](PyRope& r) {
            const auto lock = hold(r);
            return points_array(r.rope.pegs());
          },
          "The pegs where they are now, an (N, 2) float32 array (a copy).")
      .def_property_readonly(
          "radii",
          [](PyRope& r) {
            const auto lock = hold(r);
            const std::span<const float> radii = r.rope.peg_radii();
            py::array_t<float> out(static_cast<py::ssize_t>(radii.size()));
            std::copy(radii.begin(), radii.end(), out.mutable_data());
            return out;
          },
          "The pegs' radii, an (N,) float32 array (0: a point peg).")
      .def(
          "outline",
          [](PyRope& r, double max_turn) {
            const auto lock = hold(r);
            return points_array(r.rope.outline(max_turn));
          },
          "The rope as drawn, an (M, 2) float32 array: its tangent points, each arc around a circle peg cut "
          "into steps of at most max_turn radians (rounded: for pictures).",
          "max_turn"_a = 0.1)
      .def(
          "copy",
          [](PyRope& r) {
            const auto lock = hold(r);
            return std::make_unique<PyRope>(r);
          },
          "An independent copy.")
      .def("__copy__",
           [](PyRope& r) {
             const auto lock = hold(r);
             return std::make_unique<PyRope>(r);
           })
      .def(
          "__deepcopy__",
          [](PyRope& r, const py::object&) {
            const auto lock = hold(r);
            return std::make_unique<PyRope>(r);
          },
          "memo"_a)
      .def("__repr__", [](PyRope& r) {
        const auto lock = hold(r);
        return "<hitgrid.Rope: " + std::to_string(r.rope.nodes().size() - 1) + " wrapped pegs of " +
               std::to_string(r.rope.peg_count()) + ", end " + point_text(r.rope.end().x, r.rope.end().y) + ">";
      });
}

}  // namespace hitgrid::python
