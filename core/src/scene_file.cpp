#include "hitgrid/core/scene_file.hpp"

#include "file_bytes.hpp"
#include "hitgrid/core/scene_binary_io.hpp"
#include "hitgrid/core/scene_text_io.hpp"

namespace hitgrid {

Scene read_scene_file(const std::string& path) {
  const std::string bytes = detail::read_file_bytes(path);
  // No text scene can start with the magic's first byte (0x89), so a file that does is
  // binary, or a damaged binary one: the binary reader then says what is wrong with it.
  if (!bytes.empty() && bytes[0] == scene_binary_magic[0]) return read_scene_binary(bytes, path);
  return read_scene_text(bytes, path);
}

void write_scene_file(const std::string& path, const Scene& scene, SceneFormat format) {
  detail::write_file(path, [&](std::ostream& out) {
    if (format == SceneFormat::binary)
      write_scene_binary(out, scene);
    else
      write_scene_text(out, scene);
  });
}

}  // namespace hitgrid
