#include "errors.hpp"

#include <exception>

#include "hitgrid/hitgrid.hpp"

namespace hitgrid::python {
namespace py = pybind11;
namespace {

/// A new exception class hitgrid.<name> with the given bases, added to the module.
PyObject* exception_class(py::module_& m, const char* name, const char* doc, py::tuple bases) {
  const std::string qualified = std::string("hitgrid.") + name;
  PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases.ptr(), nullptr);
  if (type == nullptr) throw py::error_already_set();
  m.add_object(name, py::handle(type));  // the module keeps a reference
  return type;
}

// Set once at import; the module object keeps them alive for the interpreter's life.
PyObject* error_type = nullptr;
PyObject* invalid_shape_type = nullptr;
PyObject* invalid_handle_type = nullptr;
PyObject* parse_type = nullptr;
PyObject* io_type = nullptr;
PyObject* rope_type = nullptr;

}  // namespace

void bind_errors(py::module_& m) {
  error_type = exception_class(m, "Error", "Base class of the errors hitgrid raises.",
                               py::make_tuple(py::handle(PyExc_Exception)));
  py::handle base(error_type);
  invalid_shape_type = exception_class(m, "InvalidShapeError",
                                       "A shape that is not valid: a NaN or infinite coordinate, a negative radius, an "
                                       "inverted box. The message names the shape.",
                                       py::make_tuple(base, py::handle(PyExc_ValueError)));
  invalid_handle_type = exception_class(m, "InvalidHandleError", "A handle that names no live shape of the world.",
                                        py::make_tuple(base, py::handle(PyExc_LookupError)));
  parse_type = exception_class(m, "ParseError", "A malformed scene or pair file (file:line:column or byte offset).",
                               py::make_tuple(base, py::handle(PyExc_ValueError)));
  io_type = exception_class(m, "IoError", "A file that cannot be opened, read or written.",
                            py::make_tuple(base, py::handle(PyExc_OSError)));
  rope_type = exception_class(m, "RopeError",
                              "A rope call refused (the rope unchanged): a point that is not finite, a peg index "
                              "that names no peg, a peg move the rope refuses, circle pegs that touch another peg. "
                              "The message names the point or peg.",
                              py::make_tuple(base, py::handle(PyExc_ValueError)));
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const InvalidShapeError& e) {
      PyErr_SetString(invalid_shape_type, e.what());
    } catch (const InvalidHandleError& e) {
      PyErr_SetString(invalid_handle_type, e.what());
    } catch (const ParseError& e) {
      PyErr_SetString(parse_type, e.what());
    } catch (const IoError& e) {
      PyErr_SetString(io_type, e.what());
    } catch (const Error& e) {
      PyErr_SetString(error_type, e.what());
    } catch (const RopeInputError& e) {
      PyErr_SetString(rope_type, e.what());
    }
  });
}

}  // namespace hitgrid::python
