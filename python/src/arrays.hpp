// NumPy arrays in and out of the module.
//
// In: rows of shapes (segments N x 4: ax ay bx by; circles N x 3: cx cy r; boxes N x 4:
// minx miny maxx maxy; casts N x 4 as segments). A float32 array is read where it is, in
// any layout whose strides are whole floats (C or Fortran order, slices): no copy. Any
// other real dtype is converted, by one rule (README, "Python"): NumPy converts it to
// float64 (exact for float16, float32 and integers up to 2^53), and each value is rounded
// to the nearest float32, ties to even; a finite value that rounds beyond float32's range
// is refused (ValueError naming the element); NaN and infinities pass and are refused as
// invalid shapes. Anything else (complex, objects, strings) is a TypeError.
//
// Out: handles as uint64 (ShapeHandle::bits()), handle pairs as (M, 2) uint64, cast hits
// and impacts as structured arrays (dtype fields named as in hitgrid.h).
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "hitgrid/hitgrid.hpp"

namespace hitgrid::python {

namespace py = pybind11;

/// One argument's rows: where they are (rows), and what keeps them alive (the array, or
/// the converted copy in storage). Not copyable: rows may point into storage.
struct RowsInput {
  RowsInput() = default;
  RowsInput(const RowsInput&) = delete;
  RowsInput& operator=(const RowsInput&) = delete;
  ShapeRows rows;
  py::object array;
  std::vector<float> storage;
};

/// Reads `obj` (None: no rows) as rows `width` floats wide into `in`; `name` names the
/// argument in errors ("segments: expected an (N, 4) array, got shape (3,)").
void read_rows(const py::object& obj, std::size_t width, const char* name, RowsInput& in);

/// The three shape arguments of a scene: segments (N, 4), circles (N, 3), boxes (N, 4).
struct SceneRowsInput {
  RowsInput segments, circles, boxes;
};
void read_scene_rows(const py::object& segments, const py::object& circles, const py::object& boxes,
                     SceneRowsInput& in);

/// The number of rows and a float32 view of one row (a single shape or cast given as a
/// sequence of numbers), by the same rule.
std::vector<float> read_row(const py::object& obj, std::size_t width, const char* name);

/// Handles out.
py::array_t<std::uint64_t> handles_array(std::span<const ShapeHandle> handles);
py::array_t<std::uint64_t> handle_pairs_array(std::span<const HandlePair> pairs);

/// A cast hit and an impact as NumPy records.
struct HitRecord {
  std::uint64_t handle;
  double t, x, y, nx, ny;
};
struct ImpactRecord {
  std::uint64_t moving, other;
  double t;
  std::uint8_t kind;  // 0 none, 1 overlapping, 2 touching, 3 impact (hitgrid.h's HITGRID_TOI_*)
};
HitRecord record_of(const CastHit& hit);
py::array_t<HitRecord> hits_array(std::span<const HitRecord> hits);
py::array_t<ImpactRecord> impacts_array(std::span<const Impact> impacts);

/// The dtypes above, registered with NumPy (once, at import).
void register_dtypes();

/// "segment", "circle", "box" to a kind; ValueError for anything else.
ShapeKind kind_of(const std::string& name);
std::size_t width_of(ShapeKind kind);

}  // namespace hitgrid::python
