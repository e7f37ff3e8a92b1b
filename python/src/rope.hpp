// hitgrid.Rope: the rope that wraps around pegs (hitgrid::Rope), pegs and paths from NumPy
// arrays (the module's conversion rule, arrays.hpp), nodes out as NumPy arrays.
#pragma once

#include <pybind11/pybind11.h>

namespace hitgrid::python {

void bind_rope(pybind11::module_& m);

}  // namespace hitgrid::python
