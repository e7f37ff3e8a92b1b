// The colours and strokes of the command's pictures (`hitgrid draw`, `hitgrid rope`), in
// one place so that both verbs draw alike.
#pragma once

#include "hitgrid/draw/svg.hpp"

namespace hitgrid::cli::picture {

inline constexpr const char* hit_colour = "#d62728";   // shapes that collide with another
inline constexpr const char* free_colour = "#1f77b4";  // the rest
inline constexpr const char* peg_colour = "#555555";
inline constexpr const char* rope_colour = "#2ca02c";
inline constexpr const char* path_colour = "#aaaaaa";

inline SvgStyle shape_style(bool hit) {
  return SvgStyle::line(hit ? hit_colour : free_colour).with_class(hit ? "hit" : "free");
}

}  // namespace hitgrid::cli::picture
