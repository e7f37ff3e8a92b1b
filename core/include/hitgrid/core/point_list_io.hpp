// The point list text format (docs/formats.md): one point a line, "x y", for paths such as
// the end positions `hitgrid rope` replays.
//
//     # a path
//     0 0
//     10.5 -2
//
// Same discipline as the scene text format (scene_text_io.hpp): '#' comments, blank lines
// ignored, spaces or tabs between fields, CRLF fine, numbers rounded once to float32;
// "nan", "inf" and numbers beyond float32 are errors.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "hitgrid/core/vec2.hpp"

namespace hitgrid {

/// Parses a whole point list. `filename` only names the input in error messages. Throws
/// ParseError "FILE:LINE:COL: message" (column of the offending token) on the first
/// problem; never skips a line it does not understand.
std::vector<Vec2> read_points_text(std::string_view text, const std::string& filename);

/// Reads a point list file. Throws IoError if it cannot be read, ParseError if malformed.
std::vector<Vec2> read_points_file(const std::string& path);

}  // namespace hitgrid
