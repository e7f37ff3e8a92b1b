// assign_rows: a scene filled from rows of floats (Scene::assign) on several threads.
//
// Bindings hand shapes over as rows (a C array of structs, a NumPy (N, 4) array) while a
// Scene is columns, so each call turns one into the other before the pairs are found: a
// pass bound by memory bandwidth and not small next to find_pairs' own work, so it is
// shared out here over the threads the caller asked find_pairs for.
#pragma once

#include "hitgrid/core/scene.hpp"

namespace hitgrid {

/// scene.assign(segments, circles, boxes) with its chunks spread over `threads` oneTBB
/// threads (0: every hardware thread). The same scene, the same errors.
void assign_rows(Scene& scene, const ShapeRows& segments, const ShapeRows& circles, const ShapeRows& boxes,
                 unsigned threads);

}  // namespace hitgrid
