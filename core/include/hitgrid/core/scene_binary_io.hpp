// The binary scene format, version 1 (docs/formats.md has the byte layout): a 40-byte
// header (magic, version, flags, three counts), the SoA columns as little-endian float32
// in kind order, and an 8-byte checksum of everything before it. Made for millions of
// shapes: reading is a size check, one checksum pass and bulk column copies.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>

#include "hitgrid/core/scene.hpp"

namespace hitgrid {

/// The first 8 bytes of every binary scene: "\x89HGS\r\n\x1a\n". The high byte and the
/// line-end bytes make a text file or a text-mode transfer never pass for one.
inline constexpr std::string_view scene_binary_magic{"\x89HGS\r\n\x1a\n", 8};
inline constexpr std::uint32_t scene_binary_version = 1;
inline constexpr std::size_t scene_binary_header_size = 40;

/// True if `bytes` starts with scene_binary_magic.
bool is_scene_binary(std::string_view bytes);

/// Size in bytes of the binary file of a scene with these counts.
std::uint64_t scene_binary_size(std::uint64_t segments, std::uint64_t circles, std::uint64_t boxes);

/// Parses a whole binary scene. Checks, in this order, the magic, header length, version,
/// flags, counts (each <= ShapeId::max_count, and together exactly the file's size: a
/// corrupt header never makes it allocate more than the file holds), the checksum, and
/// every shape. Throws ParseError "FILE: byte OFFSET: message" on the first problem.
Scene read_scene_binary(std::string_view bytes, const std::string& filename);

void write_scene_binary(std::ostream& out, const Scene& scene);

}  // namespace hitgrid
