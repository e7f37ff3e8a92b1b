// The Python module `hitgrid` (pybind11, NumPy): the one-shot finder, the world, the
// generators and the files, the rope. README, "Python", shows it in use; tests/python tests it.
#include <pybind11/pybind11.h>

#include "arrays.hpp"
#include "errors.hpp"
#include "find_pairs.hpp"
#include "rope.hpp"
#include "scenes.hpp"
#include "world.hpp"

PYBIND11_MODULE(hitgrid, m) {
  namespace py = pybind11;
  m.doc() = "hitgrid: every colliding pair among 2D segments, circles and boxes, exact and fast.";
  m.attr("__version__") = HITGRID_VERSION_STRING;
  const py::object namedtuple = py::module_::import("collections").attr("namedtuple");
  m.attr("Pairs") = namedtuple("Pairs", py::make_tuple("ids", "kinds"));
  m.attr("Shapes") = namedtuple("Shapes", py::make_tuple("segments", "circles", "boxes"));
  m.attr("Pairs").attr("__module__") = "hitgrid";
  m.attr("Shapes").attr("__module__") = "hitgrid";
  m.attr("RopeNodes") = namedtuple("RopeNodes", py::make_tuple("positions", "pegs", "sides", "half_turns"));
  m.attr("RopeNodes").attr("__module__") = "hitgrid";
  m.attr("SEGMENT") = 0;
  m.attr("CIRCLE") = 1;
  m.attr("BOX") = 2;
  hitgrid::python::register_dtypes();
  hitgrid::python::bind_errors(m);
  hitgrid::python::bind_find_pairs(m);
  hitgrid::python::bind_world(m);
  hitgrid::python::bind_scenes(m);
  hitgrid::python::bind_rope(m);
}
