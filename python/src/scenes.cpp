#include "scenes.hpp"

#include <pybind11/numpy.h>

#include <string>

#include "arrays.hpp"

namespace hitgrid::python {
namespace py = pybind11;
namespace {

/// One kind's columns as an (N, width) float32 array.
template <std::size_t width>
py::array_t<float> rows_of(const std::array<const FloatArray*, width>& columns) {
  const std::size_t n = columns[0]->size();
  py::array_t<float> out({static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(width)});
  float* p = out.mutable_data();
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < width; ++j) p[i * width + j] = (*columns[j])[i];
  return out;
}

py::object shapes_of(const Scene& scene) {
  const SegmentArrays& s = scene.segments();
  const CircleArrays& c = scene.circles();
  const BoxArrays& b = scene.boxes();
  return py::module_::import("hitgrid").attr("Shapes")(
      rows_of<4>({&s.ax, &s.ay, &s.bx, &s.by}), rows_of<3>({&c.cx, &c.cy, &c.r}),
      rows_of<4>({&b.minx, &b.miny, &b.maxx, &b.maxy}));
}

py::object generate_scene(const std::string& family, std::uint64_t n, std::uint64_t seed, double length,
                          double density, std::uint64_t per_cluster) {
  const auto f = parse_family(family);
  if (!f) throw py::value_error("unknown family '" + family + "' (uniform, clustered, long_tail, mixed, lattice)");
  GeneratorParams p;
  p.n = n;
  p.seed = seed;
  p.length = length;
  p.density = density;
  p.per_cluster = per_cluster;
  Scene scene;
  {
    py::gil_scoped_release release;
    scene = generate(*f, p);
  }
  return shapes_of(scene);
}

py::object read_scene(const std::string& path) {
  Scene scene;
  {
    py::gil_scoped_release release;
    scene = read_scene_file(path);
  }
  return shapes_of(scene);
}

void write_scene(const std::string& path, const py::object& segments, const py::object& circles,
                 const py::object& boxes, bool binary) {
  SceneRowsInput in;
  read_scene_rows(segments, circles, boxes, in);
  py::gil_scoped_release release;
  Scene scene;
  scene.assign(in.segments.rows, in.circles.rows, in.boxes.rows);
  write_scene_file(path, scene, binary ? SceneFormat::binary : SceneFormat::text);
}

py::object read_pairs(const std::string& path) {
  PairList pairs;
  {
    py::gil_scoped_release release;
    pairs = read_pairs_file(path);
  }
  const auto m = static_cast<py::ssize_t>(pairs.size());
  py::array_t<std::uint32_t> ids({m, py::ssize_t{2}});
  py::array_t<std::uint8_t> kinds({m, py::ssize_t{2}});
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const ShapeId a = pairs[i].first(), b = pairs[i].second();
    ids.mutable_data()[2 * i] = a.index();
    ids.mutable_data()[2 * i + 1] = b.index();
    kinds.mutable_data()[2 * i] = static_cast<std::uint8_t>(a.kind());
    kinds.mutable_data()[2 * i + 1] = static_cast<std::uint8_t>(b.kind());
  }
  return py::module_::import("hitgrid").attr("Pairs")(ids, kinds);
}

/// (ids, kinds) as pairs, each checked: kinds 0-2, ids below 2^30, two different shapes.
PairList pairs_of(const py::object& ids_obj, const py::object& kinds_obj) {
  using Ints = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>;
  const Ints ids = Ints::ensure(ids_obj), kinds = Ints::ensure(kinds_obj);
  if (!ids || !kinds) throw py::type_error("ids and kinds: expected integer arrays");
  if (ids.size() == 0 && kinds.size() == 0) return {};
  if (ids.ndim() != 2 || ids.shape(1) != 2 || kinds.ndim() != 2 || kinds.shape(1) != 2 || ids.shape(0) != kinds.shape(0))
    throw py::value_error("ids and kinds: expected two (M, 2) arrays of the same shape");
  PairList pairs(static_cast<std::size_t>(ids.shape(0)));
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    ShapeId s[2];
    for (std::size_t j = 0; j < 2; ++j) {
      const std::int64_t k = kinds.data()[2 * i + j], id = ids.data()[2 * i + j];
      if (k < 0 || k > 2 || id < 0 || id >= std::int64_t{ShapeId::max_count})
        throw py::value_error("pair " + std::to_string(i) + ": kind " + std::to_string(k) + ", id " +
                              std::to_string(id) + " names no shape");
      s[j] = ShapeId(static_cast<ShapeKind>(k), static_cast<std::uint32_t>(id));
    }
    if (s[0] == s[1]) throw py::value_error("pair " + std::to_string(i) + " names one shape twice");
    pairs[i] = Pair(s[0], s[1]);
  }
  return pairs;
}

void write_pairs(const std::string& path, const py::object& ids, const py::object& kinds, bool binary) {
  const PairList pairs = pairs_of(ids, kinds);
  py::gil_scoped_release release;
  write_pairs_file(path, pairs, binary ? PairFormat::binary : PairFormat::text);
}

}  // namespace

void bind_scenes(py::module_& m) {
  using namespace pybind11::literals;
  m.def("generate", &generate_scene,
        "A standard scene (docs/scenes.md), bit-exact: Shapes(segments, circles, boxes) as float32 arrays. "
        "family: uniform, clustered, long_tail, mixed, lattice.",
        "family"_a, "n"_a, "seed"_a = 1u, py::kw_only(), "length"_a = 1.0, "density"_a = 1.0,
        "per_cluster"_a = 1000u);
  m.def("read_scene", &read_scene, "A scene file, text or binary: Shapes(segments, circles, boxes).", "path"_a);
  m.def("write_scene", &write_scene, "Writes a scene file (text, or binary=True).", "path"_a,
        "segments"_a = py::none(), "circles"_a = py::none(), "boxes"_a = py::none(), py::kw_only(),
        "binary"_a = false);
  m.def("read_pairs", &read_pairs, "A pair file, text or binary: Pairs(ids, kinds).", "path"_a);
  m.def("write_pairs", &write_pairs,
        "Writes a pair file (text, or binary=True), rows in the order given: sorted, as find_pairs returns them, "
        "is what readers accept.",
        "path"_a, "ids"_a, "kinds"_a, py::kw_only(), "binary"_a = false);
}

}  // namespace hitgrid::python
