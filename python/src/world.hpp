// hitgrid.World: the engine world (hitgrid::World) with handles as Python ints, bulk
// calls from NumPy arrays, pairs and events as (M, 2) uint64 arrays, casts and impacts as
// structured arrays.
#pragma once

#include <pybind11/pybind11.h>

namespace hitgrid::python {

void bind_world(pybind11::module_& m);

}  // namespace hitgrid::python
