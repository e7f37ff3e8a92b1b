// Scenes as NumPy arrays: the standard generators (docs/scenes.md) and the scene and pair
// files (docs/formats.md), text or binary.
#pragma once

#include <pybind11/pybind11.h>

namespace hitgrid::python {

void bind_scenes(pybind11::module_& m);

}  // namespace hitgrid::python
