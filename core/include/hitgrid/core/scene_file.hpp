// Scene files on disk, in either format: the text format (scene_text_io.hpp) or the
// binary one (scene_binary_io.hpp).
#pragma once

#include <string>

#include "hitgrid/core/scene.hpp"

namespace hitgrid {

enum class SceneFormat { text, binary };

/// Reads a scene file; a file whose first byte is the binary magic's (0x89, which no text
/// scene can start with) is read as binary, anything else as text. Throws IoError if the file cannot be read, ParseError (naming `path`) if it is
/// malformed.
Scene read_scene_file(const std::string& path);

/// Writes (creating or truncating) a scene file. Throws IoError on failure.
void write_scene_file(const std::string& path, const Scene& scene, SceneFormat format);

}  // namespace hitgrid
