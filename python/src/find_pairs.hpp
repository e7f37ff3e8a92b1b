// hitgrid.find_pairs and hitgrid.PairFinder: every colliding pair of NumPy arrays of
// shapes, as an (M, 2) array of ids (indices per kind) and an (M, 2) array of kinds.
#pragma once

#include <pybind11/pybind11.h>

#include "hitgrid/hitgrid.hpp"

namespace hitgrid::python {

/// "auto", "scalar", ... to an Isa; ValueError for others.
Isa isa_of(const std::string& name);

void bind_find_pairs(pybind11::module_& m);

}  // namespace hitgrid::python
