// hitgrid: every colliding pair among 2D segments, circles and axis-aligned boxes, exact
// and fast. One include for the whole public API.
//
//   hitgrid::Scene scene;                                   // core/scene.hpp
//   scene.add(hitgrid::Segment{{0, 0}, {2, 2}});            // ids per kind, from 0
//   scene.add(hitgrid::Circle{{1, 1}, 0.5f});
//   hitgrid::PairList pairs = hitgrid::find_pairs(scene);   // broadphase/find_pairs.hpp
//
// Shapes are closed: touching counts, shared endpoints count, zero-size shapes are the
// points they are (docs/contracts.md). Every function reports bad input by throwing
// hitgrid::Error or one of its subclasses (core/error.hpp).
//
// The layers, each usable on its own:
//   core        shapes, scenes and their files, exact predicates, the six exact pair tests
//               and the rest of the geometry (distances, ray casts, time of impact, ...)
//   simd        the exact tests and queries in batches, on the best ISA of this CPU
//   broadphase  find_pairs and the broad phases behind it
//   world       the engine world: handles, frames, events, queries
//   rope        a rope that wraps around pegs (rope/rope.hpp)
//   draw        SVG pictures of shapes, ropes and densities (draw/svg.hpp)
#pragma once

#include "hitgrid/broadphase/assign_rows.hpp"
#include "hitgrid/broadphase/brute_force.hpp"
#include "hitgrid/broadphase/find_pairs.hpp"
#include "hitgrid/broadphase/grid_index.hpp"
#include "hitgrid/broadphase/sort_keys.hpp"
#include "hitgrid/broadphase/sweep_and_prune.hpp"
#include "hitgrid/broadphase/task_hook.hpp"
#include "hitgrid/core/aabb.hpp"
#include "hitgrid/core/distance.hpp"
#include "hitgrid/core/error.hpp"
#include "hitgrid/core/float_array.hpp"
#include "hitgrid/core/float_steps.hpp"
#include "hitgrid/core/generators.hpp"
#include "hitgrid/core/intersects.hpp"
#include "hitgrid/core/line_crossing.hpp"
#include "hitgrid/core/pair_io.hpp"
#include "hitgrid/core/point_in_polygon.hpp"
#include "hitgrid/core/point_list_io.hpp"
#include "hitgrid/core/predicates.hpp"
#include "hitgrid/core/ray.hpp"
#include "hitgrid/core/ray_box.hpp"
#include "hitgrid/core/ray_circle.hpp"
#include "hitgrid/core/ray_segment.hpp"
#include "hitgrid/core/scene.hpp"
#include "hitgrid/core/scene_binary_io.hpp"
#include "hitgrid/core/scene_file.hpp"
#include "hitgrid/core/scene_text_io.hpp"
#include "hitgrid/core/segment_intersection.hpp"
#include "hitgrid/core/shape_id.hpp"
#include "hitgrid/core/shape_pair_test.hpp"
#include "hitgrid/core/shapes.hpp"
#include "hitgrid/core/splitmix64.hpp"
#include "hitgrid/core/swept_circle.hpp"
#include "hitgrid/core/tangent_crossing.hpp"
#include "hitgrid/core/time_of_impact.hpp"
#include "hitgrid/core/vec2.hpp"
#include "hitgrid/core/winding.hpp"
#include "hitgrid/core/within_distance.hpp"
#include "hitgrid/draw/svg.hpp"
#include "hitgrid/rope/rope.hpp"
#include "hitgrid/simd/isa.hpp"
#include "hitgrid/simd/pair_kernels.hpp"
#include "hitgrid/simd/query_kernels.hpp"
#include "hitgrid/world/shape_rows.hpp"
#include "hitgrid/world/world.hpp"
