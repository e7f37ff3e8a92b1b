#include "arrays.hpp"

#include <cmath>
#include <limits>
#include <string>

namespace hitgrid::python {
namespace {

std::string shape_text(const py::array& a) {
  std::string s = "(";
  for (py::ssize_t d = 0; d < a.ndim(); ++d) s += (d ? ", " : "") + std::to_string(a.shape(d));
  return s + (a.ndim() == 1 ? ",)" : ")");
}

/// float64 to the nearest float32 (ties to even: the conversion's rounding in the default
/// mode); throws for a finite value that overflows.
float rounded(double v, const char* name, std::size_t i, std::size_t j) {
  const float f = static_cast<float>(v);
  if (std::isinf(f) && std::isfinite(v))
    throw py::value_error(std::string(name) + "[" + std::to_string(i) + ", " + std::to_string(j) + "]: " +
                          py::repr(py::float_(v)).cast<std::string>() + " is beyond float32's range");
  return f;
}

bool is_real(const py::dtype& d) { return d.kind() == 'f' || d.kind() == 'i' || d.kind() == 'u' || d.kind() == 'b'; }

}  // namespace

void read_rows(const py::object& obj, std::size_t width, const char* name, RowsInput& in) {
  in.rows = {};
  if (obj.is_none()) return;
  py::array a = py::array::ensure(obj);
  if (!a) throw py::type_error(std::string(name) + ": expected an array of numbers");
  if (a.size() == 0) return;  // [], np.empty((0, 4)): no rows
  if (a.ndim() != 2 || static_cast<std::size_t>(a.shape(1)) != width)
    throw py::value_error(std::string(name) + ": expected an (N, " + std::to_string(width) + ") array, got shape " +
                          shape_text(a));
  if (!is_real(a.dtype()))
    throw py::type_error(std::string(name) + ": dtype " + py::str(a.dtype()).cast<std::string>() +
                         " is not a real number type");
  const auto n = static_cast<std::size_t>(a.shape(0));
  constexpr auto f = static_cast<py::ssize_t>(sizeof(float));
  const bool views = a.dtype().is(py::dtype::of<float>()) && a.strides(0) % f == 0 && a.strides(1) % f == 0 &&
                     reinterpret_cast<std::uintptr_t>(a.data()) % alignof(float) == 0;
  if (views) {
    in.array = a;
    in.rows = {static_cast<const float*>(a.data()), n, a.strides(0) / f, a.strides(1) / f};
    return;
  }
  const auto d = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(a);
  if (!d) throw py::type_error(std::string(name) + ": cannot be read as numbers");
  const double* src = d.data();
  in.storage.resize(n * width);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < width; ++j) in.storage[i * width + j] = rounded(src[i * width + j], name, i, j);
  in.rows = {in.storage.data(), n, static_cast<std::ptrdiff_t>(width), 1};
}

void read_scene_rows(const py::object& segments, const py::object& circles, const py::object& boxes,
                     SceneRowsInput& in) {
  read_rows(segments, 4, "segments", in.segments);
  read_rows(circles, 3, "circles", in.circles);
  read_rows(boxes, 4, "boxes", in.boxes);
}

std::vector<float> read_row(const py::object& obj, std::size_t width, const char* name) {
  const auto d = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(obj);
  if (!d || d.ndim() != 1 || static_cast<std::size_t>(d.shape(0)) != width)
    throw py::value_error(std::string(name) + ": expected " + std::to_string(width) + " numbers");
  std::vector<float> row(width);
  for (std::size_t j = 0; j < width; ++j) row[j] = rounded(d.data()[j], name, 0, j);
  return row;
}

py::array_t<std::uint64_t> handles_array(std::span<const ShapeHandle> handles) {
  py::array_t<std::uint64_t> out(static_cast<py::ssize_t>(handles.size()));
  std::uint64_t* p = out.mutable_data();
  for (std::size_t i = 0; i < handles.size(); ++i) p[i] = handles[i].bits();
  return out;
}

py::array_t<std::uint64_t> handle_pairs_array(std::span<const HandlePair> pairs) {
  py::array_t<std::uint64_t> out({static_cast<py::ssize_t>(pairs.size()), py::ssize_t{2}});
  std::uint64_t* p = out.mutable_data();
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    p[2 * i] = pairs[i].a.bits();
    p[2 * i + 1] = pairs[i].b.bits();
  }
  return out;
}

HitRecord record_of(const CastHit& h) {
  return {h.handle.bits(), h.t, h.point.x, h.point.y, h.normal.x, h.normal.y};
}

py::array_t<HitRecord> hits_array(std::span<const HitRecord> hits) {
  py::array_t<HitRecord> out(static_cast<py::ssize_t>(hits.size()));
  std::copy(hits.begin(), hits.end(), out.mutable_data());
  return out;
}

py::array_t<ImpactRecord> impacts_array(std::span<const Impact> impacts) {
  py::array_t<ImpactRecord> out(static_cast<py::ssize_t>(impacts.size()));
  ImpactRecord* p = out.mutable_data();
  for (std::size_t i = 0; i < impacts.size(); ++i)
    p[i] = {impacts[i].moving.bits(), impacts[i].other.bits(), impacts[i].t, static_cast<std::uint8_t>(impacts[i].kind)};
  return out;
}

void register_dtypes() {
  PYBIND11_NUMPY_DTYPE(HitRecord, handle, t, x, y, nx, ny);
  PYBIND11_NUMPY_DTYPE(ImpactRecord, moving, other, t, kind);
}

ShapeKind kind_of(const std::string& name) {
  if (name == "segment") return ShapeKind::segment;
  if (name == "circle") return ShapeKind::circle;
  if (name == "box") return ShapeKind::box;
  throw py::value_error("unknown shape kind '" + name + "' (segment, circle or box)");
}

std::size_t width_of(ShapeKind kind) { return row_width(kind); }

}  // namespace hitgrid::python
