// The one-shot finder keeps a PairFinder, its Scene and its PairList between calls (for
// the last options used), as a C++ program calling it every frame would: fresh memory
// costs more than the work done on it (README, "Measured"). hitgrid.release_memory()
// gives it back. Calls from several Python threads at once (the GIL is released while
// the pairs are found) each get their own when the kept one is busy.
#include "find_pairs.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <chrono>
#include <ctime>
#include <memory>
#include <mutex>
#include <string>

#include "arrays.hpp"

namespace hitgrid::python {
namespace py = pybind11;
namespace {

struct Engine {
  explicit Engine(const FindPairsOptions& o) : finder(o), options(o) {}
  PairFinder finder;
  FindPairsOptions options;
  Scene scene;
  PairList pairs;
  std::mutex busy;  // a PairFinder used by two Python threads at once is an error, not a race
};

/// Holds `e` for one call, or raises.
std::unique_lock<std::mutex> hold(Engine& e) {
  std::unique_lock lock(e.busy, std::try_to_lock);
  if (!lock.owns_lock()) throw py::value_error("this PairFinder is in use by another thread");
  return lock;
}

bool same_options(const FindPairsOptions& a, const FindPairsOptions& b) {
  return a.threads == b.threads && a.isa == b.isa && a.cell_size == b.cell_size &&
         a.large_cell_size == b.large_cell_size && a.method == b.method && a.max_kept_bytes == b.max_kept_bytes;
}

BroadPhase method_of(const std::string& name) {
  for (BroadPhase m : {BroadPhase::automatic, BroadPhase::grid, BroadPhase::sweep_and_prune, BroadPhase::brute_force})
    if (broad_phase_name(m) == name) return m;
  throw py::value_error("unknown method '" + name + "' (auto, grid, sweep_and_prune, brute_force)");
}

FindPairsOptions options_of(unsigned threads, const std::string& isa, const std::string& method, float cell_size,
                            float large_cell_size) {
  FindPairsOptions o;
  o.threads = threads;
  o.isa = isa_of(isa);
  o.method = method_of(method);
  o.cell_size = cell_size;
  o.large_cell_size = large_cell_size;
  return o;
}

/// The module's kept engine.
std::mutex kept_mutex;
std::unique_ptr<Engine> kept;

/// The pairs as (ids, kinds), (M, 2) uint32 and uint8; filled without the GIL.
py::object pairs_result(const PairList& pairs) {
  const auto m = static_cast<py::ssize_t>(pairs.size());
  py::array_t<std::uint32_t> ids({m, py::ssize_t{2}});
  py::array_t<std::uint8_t> kinds({m, py::ssize_t{2}});
  std::uint32_t* id = ids.mutable_data();
  std::uint8_t* kind = kinds.mutable_data();
  {
    py::gil_scoped_release release;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      const ShapeId a = pairs[i].first(), b = pairs[i].second();
      id[2 * i] = a.index();
      id[2 * i + 1] = b.index();
      kind[2 * i] = static_cast<std::uint8_t>(a.kind());
      kind[2 * i + 1] = static_cast<std::uint8_t>(b.kind());
    }
  }
  return py::module_::import("hitgrid").attr("Pairs")(ids, kinds);
}

/// The arguments' rows into the engine's scene and its pairs, without the GIL.
void run(Engine& engine, const py::object& segments, const py::object& circles, const py::object& boxes) {
  SceneRowsInput in;
  read_scene_rows(segments, circles, boxes, in);
  py::gil_scoped_release release;
  assign_rows(engine.scene, in.segments.rows, in.circles.rows, in.boxes.rows, engine.options.threads);
  engine.finder.find_pairs(engine.scene, engine.pairs);
}

py::object find_pairs_once(const py::object& segments, const py::object& circles, const py::object& boxes,
                           unsigned threads, const std::string& isa, const std::string& method, float cell_size,
                           float large_cell_size) {
  const FindPairsOptions o = options_of(threads, isa, method, cell_size, large_cell_size);
  std::unique_lock lock(kept_mutex, std::try_to_lock);
  if (!lock.owns_lock()) {  // another thread has the kept one
    Engine own(o);
    run(own, segments, circles, boxes);
    return pairs_result(own.pairs);
  }
  if (!kept || !same_options(kept->options, o)) {
    kept.reset();
    kept = std::make_unique<Engine>(o);
  }
  run(*kept, segments, circles, boxes);
  return pairs_result(kept->pairs);
}

void release_kept_memory() {
  std::lock_guard lock(kept_mutex);
  kept.reset();
}

constexpr const char* find_pairs_doc = R"(Every colliding pair of the shapes, exactly, sorted, each pair once.

segments: (N, 4) array of ax ay bx by; circles: (N, 3) of cx cy r; boxes: (N, 4) of
minx miny maxx maxy; None or empty for none. float32 arrays are read where they are (no
copy); other real dtypes are rounded to the nearest float32 (see the README). Shapes are
closed: touching counts.

Returns Pairs(ids, kinds): two (M, 2) arrays, ids (uint32) the index of each shape in its
own array, kinds (uint8) 0 segment, 1 circle, 2 box; rows sorted by (kind, id) of the
first shape, then of the second, the first shape the lower.

threads: 0 = all cores; isa: auto, scalar, sse2, avx2, avx512; method: auto, grid,
sweep_and_prune, brute_force (the answer is the same with each). The GIL is released
while the pairs are found. Raises InvalidShapeError (a ValueError) naming the first
invalid shape ("circle 3: negative radius -1").)";

/// The benchmark's baselines (bench/python_find_pairs.py), timed `repeat` times in C++:
/// "kept", the call a C++ program makes frame after frame on a Scene already in memory,
/// PairFinder::find_pairs with a kept finder and PairList, after one untimed call;
/// "rows", the same with the rows copied into the kept Scene first (Scene::assign on the
/// finder's threads), as a program whose shapes live in rows of floats pays, and as this
/// module does; "one-shot", the one-line hitgrid::find_pairs(scene, options), which keeps
/// nothing. Returns the wall times and the process's CPU times (every thread's, which a
/// shared host inflates less), both in milliseconds, and the pair count.
py::tuple cpp_find_pairs_ms(const py::object& segments, const py::object& circles, const py::object& boxes,
                            unsigned threads, const std::string& isa, unsigned repeat, const std::string& mode) {
  const bool one_shot = mode == "one-shot", with_rows = mode == "rows";
  if (!one_shot && !with_rows && mode != "kept") throw py::value_error("mode: kept, rows or one-shot");
  SceneRowsInput in;
  read_scene_rows(segments, circles, boxes, in);
  std::vector<double> ms, cpu_ms;
  Engine e(options_of(threads, isa, "auto", 0.0f, 0.0f));
  {
    py::gil_scoped_release release;
    e.scene.assign(in.segments.rows, in.circles.rows, in.boxes.rows);
    if (!one_shot) e.finder.find_pairs(e.scene, e.pairs);
    for (unsigned i = 0; i < repeat; ++i) {
      const auto start = std::chrono::steady_clock::now();
      const std::clock_t cpu_start = std::clock();
      if (with_rows) assign_rows(e.scene, in.segments.rows, in.circles.rows, in.boxes.rows, e.options.threads);
      if (one_shot)
        e.pairs = hitgrid::find_pairs(e.scene, e.options);
      else
        e.finder.find_pairs(e.scene, e.pairs);
      cpu_ms.push_back(1e3 * static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC);
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
  }
  return py::make_tuple(ms, cpu_ms, e.pairs.size());
}

}  // namespace

Isa isa_of(const std::string& name) {
  if (auto isa = parse_isa(name)) return *isa;
  throw py::value_error("unknown isa '" + name + "' (auto, scalar, sse2, avx2, avx512)");
}

void bind_find_pairs(py::module_& m) {
  using namespace pybind11::literals;
  m.def("find_pairs", &find_pairs_once, find_pairs_doc, "segments"_a = py::none(), "circles"_a = py::none(),
        "boxes"_a = py::none(), py::kw_only(), "threads"_a = 0u, "isa"_a = "auto", "method"_a = "auto",
        "cell_size"_a = 0.0f, "large_cell_size"_a = 0.0f);
  m.def("_cpp_find_pairs_ms", &cpp_find_pairs_ms,
        "For bench/python_find_pairs.py only: times the C++ call (mode kept, rows or one-shot).",
        "segments"_a, "circles"_a, "boxes"_a, "threads"_a, "isa"_a, "repeat"_a, "mode"_a);
  m.def("release_memory", &release_kept_memory,
        "Gives back the memory find_pairs keeps between calls (its scene, pairs and scratch).");

  py::class_<Engine>(m, "PairFinder",
                     "A finder that keeps its threads and scratch memory between calls (hitgrid::PairFinder).")
      .def(py::init([](unsigned threads, const std::string& isa, const std::string& method, float cell_size,
                       float large_cell_size) {
             return std::make_unique<Engine>(options_of(threads, isa, method, cell_size, large_cell_size));
           }),
           py::kw_only(), "threads"_a = 0u, "isa"_a = "auto", "method"_a = "auto", "cell_size"_a = 0.0f,
           "large_cell_size"_a = 0.0f)
      .def(
          "find_pairs",
          [](Engine& e, const py::object& s, const py::object& c, const py::object& b) {
            const auto lock = hold(e);
            run(e, s, c, b);
            return pairs_result(e.pairs);
          },
          "As hitgrid.find_pairs, with this finder's options.", "segments"_a = py::none(), "circles"_a = py::none(),
          "boxes"_a = py::none())
      .def_property_readonly("kept_bytes", [](const Engine& e) { return e.finder.kept_bytes(); })
      .def("release_memory", [](Engine& e) {
        const auto lock = hold(e);
        e.finder.release_memory();
        e.scene.clear();
        e.pairs = {};
      });
}

}  // namespace hitgrid::python
