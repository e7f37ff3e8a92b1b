// The peer libraries compiled into hitgrid_peers: each is built only when its Debian
// package was found (bench/peers/CMakeLists.txt defines HITGRID_HAVE_BOX2D,
// HITGRID_HAVE_CGAL, HITGRID_HAVE_BULLET), so benchmarks, tests and compare_peers iterate
// over this list instead of repeating the #ifs.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

#include "hitgrid/core/scene.hpp"
#include "hitgrid/core/shape_id.hpp"

#ifdef HITGRID_HAVE_BOX2D
#include "box2d_pairs.hpp"
#endif
#ifdef HITGRID_HAVE_CGAL
#include "cgal_pairs.hpp"
#endif
#ifdef HITGRID_HAVE_BULLET
#include "bullet_pairs.hpp"
#endif

#if !defined(HITGRID_HAVE_BOX2D) && !defined(HITGRID_HAVE_CGAL) && !defined(HITGRID_HAVE_BULLET)
#error "hitgrid_peers is built only when at least one peer library is found"
#endif

namespace hitgrid::peers {

struct Peer {
  std::string_view name;            // benchmark and JSON key: "box2d", "cgal", "bullet"
  std::string_view title;           // for people: "Box2D", "CGAL", "Bullet"
  PairList (*pairs)(const Scene&);  // sorted, each pair once; single-threaded
};

inline constexpr std::array compiled_peers = {
#ifdef HITGRID_HAVE_BOX2D
    Peer{"box2d", "Box2D", &box2d_pairs},
#endif
#ifdef HITGRID_HAVE_CGAL
    Peer{"cgal", "CGAL", &cgal_pairs},
#endif
#ifdef HITGRID_HAVE_BULLET
    Peer{"bullet", "Bullet", &bullet_pairs},
#endif
};

}  // namespace hitgrid::peers
