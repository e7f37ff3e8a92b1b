// The standard scenes of the benchmark suites, built once per (family, n) and shared by
// every benchmark that uses them: generating a million shapes must not count in a run.
#pragma once

#include <cstdint>
#include <map>
#include <utility>

#include "hitgrid/core/generators.hpp"

namespace hitgrid::bench {

inline const Scene& scene_for(Family family, std::uint64_t n) {
  static std::map<std::pair<Family, std::uint64_t>, Scene> cache;
  auto it = cache.find({family, n});
  if (it == cache.end()) {
    GeneratorParams p;
    p.n = n;
    it = cache.emplace(std::make_pair(family, n), generate(family, p)).first;
  }
  return it->second;
}

}  // namespace hitgrid::bench
