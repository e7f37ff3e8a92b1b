// hitgrid's errors as Python exceptions, each also a built-in one so that ordinary
// `except ValueError` code catches what it expects:
//
//   hitgrid.Error                 hitgrid::Error (bad options, a call that does not fit)
//   hitgrid.InvalidShapeError     hitgrid::InvalidShapeError      also a ValueError
//   hitgrid.InvalidHandleError    hitgrid::InvalidHandleError     also a LookupError
//   hitgrid.ParseError            hitgrid::ParseError             also a ValueError
//   hitgrid.IoError               hitgrid::IoError                also an OSError
//   hitgrid.RopeError             hitgrid::Error from a Rope      also a ValueError
//                                 (a point that is not finite, no such peg, a peg move
//                                 the rope refuses, circle pegs that touch another peg)
//
// The message is the library's what(): "circle 3: negative radius -1",
// "scene.txt:4:7: ...". std::bad_alloc is a MemoryError (pybind11's own translation).
#pragma once

#include <pybind11/pybind11.h>

#include <stdexcept>

namespace hitgrid::python {

void bind_errors(pybind11::module_& m);

/// What the rope binding throws for a hitgrid::Error of the rope (bad input): raised as
/// hitgrid.RopeError, with the library's message.
class RopeInputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace hitgrid::python
