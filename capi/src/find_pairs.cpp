// The one-shot pair finder over plain arrays (hitgrid.h): a Scene filled from the rows
// (Scene::assign keeps its columns from call to call) and a PairFinder, whose sorted
// Pair keys go out as they are.
#include <cstdlib>
#include <cstring>
#include <new>

#include "convert.hpp"
#include "guard.hpp"
#include "hitgrid.h"
#include "hitgrid/broadphase/assign_rows.hpp"
#include "hitgrid/broadphase/find_pairs.hpp"
#include "hitgrid/core/scene.hpp"

struct hitgrid_pair_finder {
  explicit hitgrid_pair_finder(const hitgrid::FindPairsOptions& options) : finder(options) {}
  hitgrid::PairFinder finder;
  hitgrid::Scene scene;
  hitgrid::PairList pairs;
  // find_pairs fills this one and swaps it with `pairs` when it succeeds, so that a
  // failed call leaves the last result as it was (both keep their memory).
  hitgrid::PairList building;
};

namespace hitgrid::capi {

FindPairsOptions find_pairs_options_of(const hitgrid_find_pairs_options& o) {
  check_reserved(o.reserved);
  if (o.method > HITGRID_METHOD_BRUTE_FORCE) throw ArgumentError("unknown method " + std::to_string(o.method));
  FindPairsOptions f;
  f.threads = o.threads;
  f.isa = isa_of(o.isa);
  f.cell_size = o.cell_size;
  f.large_cell_size = o.large_cell_size;
  f.method = static_cast<BroadPhase>(o.method);
  f.max_kept_bytes = static_cast<std::size_t>(o.max_kept_bytes);
  f.tasks = task_hook_of(o.tasks);
  return f;
}

namespace {

FindPairsOptions options_or_default(const hitgrid_find_pairs_options* options) {
  return options ? find_pairs_options_of(*options) : FindPairsOptions{};
}

/// The shapes into `scene` (validated: InvalidShapeError names the first bad one).
void fill(Scene& scene, const hitgrid_shape_arrays& a, unsigned threads) {
  assign_rows(scene, rows_of(ShapeKind::segment, a.segments, a.segment_count, "shapes->segments"),
               rows_of(ShapeKind::circle, a.circles, a.circle_count, "shapes->circles"),
               rows_of(ShapeKind::box, a.boxes, a.box_count, "shapes->boxes"), threads);
}

}  // namespace
}  // namespace hitgrid::capi

using namespace hitgrid::capi;

extern "C" {

hitgrid_status hitgrid_find_pairs_options_init(hitgrid_find_pairs_options* options) {
  return guarded(__func__, [&] {
    const hitgrid::FindPairsOptions d;
    *required(options, "options") = {d.threads, HITGRID_ISA_AUTO, d.cell_size, d.large_cell_size,
                                     HITGRID_METHOD_AUTO, 0, d.max_kept_bytes, {nullptr, nullptr, 1, 0}};
  });
}

hitgrid_status hitgrid_find_pairs(const hitgrid_find_pairs_options* options, const hitgrid_shape_arrays* shapes,
                                  hitgrid_pair** pairs, size_t* count) {
  return guarded(__func__, [&] {
    required(pairs, "pairs");
    required(count, "count");
    const hitgrid::FindPairsOptions o = options_or_default(options);
    hitgrid::Scene scene;
    fill(scene, *required(shapes, "shapes"), o.threads);
    const hitgrid::PairList list = hitgrid::find_pairs(scene, o);
    hitgrid_pair* out = nullptr;
    if (!list.empty()) {
      out = static_cast<hitgrid_pair*>(std::malloc(list.size() * sizeof(hitgrid_pair)));
      if (out == nullptr) throw std::bad_alloc();
      std::memcpy(out, list.data(), list.size() * sizeof(hitgrid_pair));
    }
    *pairs = out;
    *count = list.size();
  });
}

hitgrid_status hitgrid_free(void* array) {
  std::free(array);
  return HITGRID_OK;
}

hitgrid_status hitgrid_pair_finder_new(const hitgrid_find_pairs_options* options, hitgrid_pair_finder** finder) {
  return guarded(__func__, [&] {
    required(finder, "finder");
    *finder = new hitgrid_pair_finder(options_or_default(options));
  });
}

hitgrid_status hitgrid_pair_finder_free(hitgrid_pair_finder* finder) {
  delete finder;
  return HITGRID_OK;
}

hitgrid_status hitgrid_pair_finder_find_pairs(hitgrid_pair_finder* finder, const hitgrid_shape_arrays* shapes,
                                              const hitgrid_pair** pairs, size_t* count) {
  return guarded(__func__, [&] {
    required(finder, "finder");
    required(pairs, "pairs");
    required(count, "count");
    fill(finder->scene, *required(shapes, "shapes"), finder->finder.options().threads);
    finder->finder.find_pairs(finder->scene, finder->building);
    finder->pairs.swap(finder->building);
    *pairs = reinterpret_cast<const hitgrid_pair*>(finder->pairs.data());
    *count = finder->pairs.size();
  });
}

hitgrid_status hitgrid_pair_finder_release_memory(hitgrid_pair_finder* finder) {
  return guarded(__func__, [&] {
    required(finder, "finder");
    finder->finder.release_memory();
    finder->pairs = {};
    finder->building = {};
    finder->scene.clear();
  });
}

}  // extern "C"
