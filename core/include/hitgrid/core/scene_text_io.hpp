// The scene text format (docs/formats.md): one shape a line,
//
//     s ax ay bx by        segment
//     c cx cy r            circle
//     b minx miny maxx maxy  box
//
// '#' starts a comment (whole line or after the fields), blank lines are ignored, fields
// are separated by spaces or tabs, CRLF line ends and a missing final newline are fine.
// Ids count each kind from 0 in file order.
//
// Numbers are decimal (std::from_chars syntax, plus an optional leading '+') and are
// rounded once, to nearest, straight to float32: no detour through double. A number too
// large for float32 ("1e39") is an error; a number too small ("1e-50", "1e-45") rounds to
// zero or a subnormal like any other rounding and is accepted. "nan", "inf" and
// "infinity" are errors.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>

#include "hitgrid/core/scene.hpp"

namespace hitgrid {

/// Parses a whole text scene. `filename` only names the input in error messages. Throws
/// ParseError "FILE:LINE:COL: message" (column of the offending token) on the first
/// problem; never skips a line it does not understand.
Scene read_scene_text(std::string_view text, const std::string& filename);

/// Writes every segment, then every circle, then every box (so ids are preserved), after
/// one comment line, with the shortest decimal that reads back to the same float: a
/// write -> read round trip is bit-identical (including -0 and subnormals).
void write_scene_text(std::ostream& out, const Scene& scene);

}  // namespace hitgrid
