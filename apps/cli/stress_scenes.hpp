// The scenes `hitgrid stress` draws: the five standard families of docs/scenes.md and the
// layouts that break naive broad phases and inexact arithmetic.
//
// Every layout is a pure function of (layout, n, seed): the same bits on every machine
// (SplitMix64 draws, integer or power-of-two arithmetic, or the standard generators),
// so a round of `hitgrid stress` replays from its seed alone.
//
// The adversarial layouts are built on small integer coordinates wherever they want an
// exact degeneracy (two segments on one line, a circle exactly tangent to another, a shape
// exactly in a corner), and then mapped by an exact power-of-two scale and offset: the
// degeneracies survive at 1e7, at 1e-7, among subnormals and next to FLT_MAX.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "hitgrid/core/scene.hpp"

namespace hitgrid::stress {

enum class Layout : std::uint8_t {
  // docs/scenes.md, through core/generators.hpp:
  uniform,
  clustered,
  long_tail,
  mixed,
  lattice,
  // adversarial:
  lattice_mixed,     // segments, circles and boxes on small integers, zero-size ones too
  collinear_chains,  // segments a + k d on lines of integer slope: touching, overlapping, gaps
  tangent_circles,   // Pythagorean-triple tangencies: circle-circle, -segment, -edge, -corner
  huge_segment,      // a uniform scene and a few segments and a box across the whole world
  one_cell,          // every shape within 1e-3 of every other, and a stack 1e-9 apart
  near_1e7,          // lattice_mixed shifted to 1e7 (ulp 1) and mixed shifted by 1e7
  near_1e_7,         // lattice_mixed scaled by 2^-23 (about 1.2e-7) and mixed by 1e-7
  subnormal,         // lattice_mixed scaled by 2^-149: every coordinate subnormal
  near_max,          // lattice_mixed scaled up to about 3e38; circles reaching past FLT_MAX
};

inline constexpr std::array<Layout, 14> all_layouts = {
    Layout::uniform,       Layout::clustered,        Layout::long_tail,       Layout::mixed,
    Layout::lattice,       Layout::lattice_mixed,    Layout::collinear_chains, Layout::tangent_circles,
    Layout::huge_segment,  Layout::one_cell,         Layout::near_1e7,        Layout::near_1e_7,
    Layout::subnormal,     Layout::near_max};

std::string_view layout_name(Layout layout);
std::optional<Layout> parse_layout(std::string_view name);

/// The most shapes a round of this layout takes when the user allows `max_n`: layouts in
/// which most shapes touch most others (one_cell) are capped so that their pair lists and
/// the exact reference stay affordable.
std::uint64_t layout_max_n(Layout layout, std::uint64_t max_n);

/// The scene: exactly n shapes, the same bits for the same (layout, n, seed).
Scene make_scene(Layout layout, std::uint64_t n, std::uint64_t seed);

}  // namespace hitgrid::stress
