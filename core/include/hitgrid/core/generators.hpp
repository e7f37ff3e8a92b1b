// The standard scene generators of docs/scenes.md, bit-exact.
//
// generate(family, params) returns the same bits on every IEEE machine and build: all
// arithmetic is double precision with each operation rounded separately (no fused
// multiply-add, no excess precision), and each coordinate is rounded to float once at the
// end. Pinned scene hashes in the tests hold every family to that.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "hitgrid/core/scene.hpp"

namespace hitgrid {

enum class Family { uniform, clustered, long_tail, mixed, lattice };

/// Every family, in declaration order.
inline constexpr std::array<Family, 5> all_families = {Family::uniform, Family::clustered, Family::long_tail,
                                                       Family::mixed, Family::lattice};

/// "uniform", "clustered", "long_tail", "mixed", "lattice".
std::string_view family_name(Family family);
/// The family with exactly that name (case-sensitive), or nothing.
std::optional<Family> parse_family(std::string_view name);

/// The knobs of docs/scenes.md. lattice uses only n and seed; per_cluster only matters to
/// clustered.
struct GeneratorParams {
  std::uint64_t n = 1'000'000;    ///< number of shapes, at most ShapeId::max_count
  std::uint64_t seed = 1;         ///< SplitMix64 seed
  double length = 1.0;            ///< L: finite, >= 0
  double density = 1.0;           ///< shapes per unit area: finite, > 0 (world side S = sqrt(n / density))
  std::uint64_t per_cluster = 1000;  ///< clustered: shapes per cluster, >= 1
};

/// Build the scene. Throws hitgrid::Error for parameters outside the ranges above, and
/// InvalidShapeError if they are so extreme that a coordinate overflows float32.
Scene generate(Family family, const GeneratorParams& params);

}  // namespace hitgrid
