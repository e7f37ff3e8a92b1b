// CGAL 5.5 (libcgal-dev) doing hitgrid's whole job: its box intersection algorithm
// (box_self_intersection_d, Zomorodian and Edelsbrunner's streamed segment tree) as the
// broad phase, hitgrid's exact shape-pair test as the narrow phase.
#pragma once

#include <cstddef>

#include "hitgrid/core/scene.hpp"
#include "hitgrid/core/shape_id.hpp"

namespace hitgrid::peers {

/// Every colliding pair of the scene, sorted, each once: the closed boxes (exact float
/// bounds) of all shapes through box_self_intersection_d, exact test on each reported box
/// pair. Single-threaded (CGAL::Sequential_tag). Throws std::domain_error if a bound is not
/// strictly between -FLT_MAX and FLT_MAX (CGAL uses those two values as sentinels).
PairList cgal_pairs(const Scene& scene);

/// The same with CGAL's cutoff (subproblems of fewer boxes are scanned instead of split);
/// cgal_pairs(scene) uses the measured best, cgal_default_cutoff. Tests use a small one so
/// that small scenes exercise the segment tree too.
PairList cgal_pairs(const Scene& scene, std::ptrdiff_t cutoff);
inline constexpr std::ptrdiff_t cgal_default_cutoff = 1000;

/// cgal_pairs on CGAL's own parallel version (CGAL::Parallel_tag: the boxes split in four
/// and the sixteen sub-problems run as TBB tasks), on the calling TBB arena's threads.
PairList cgal_parallel_pairs(const Scene& scene);

}  // namespace hitgrid::peers
