#include "hitgrid/core/scene_binary_io.hpp"

#include <ostream>
#include <vector>

#include "binary_codec.hpp"
#include "hitgrid/core/error.hpp"
#include "hitgrid/core/pair_io.hpp"
#include "invalid_field.hpp"

namespace hitgrid {
namespace {

using detail::load_f32;
using detail::load_u32;
using detail::load_u64;

constexpr std::size_t counts_offset = 16;
constexpr std::size_t checksum_size = 8;
constexpr int columns_of[3] = {4, 3, 4};  // segment, circle, box

std::string counted(std::uint64_t n, ShapeKind kind) {
  std::string noun(kind_name(kind));
  if (n != 1) noun += kind == ShapeKind::box ? "es" : "s";
  return std::to_string(n) + " " + noun;
}

// Writes a float column as little-endian bytes and feeds the same bytes to the checksum.
void write_column(std::ostream& out, detail::WordChecksum& sum, const FloatArray& column) {
  if constexpr (detail::host_is_little_endian) {
    const auto n = column.size() * sizeof(float);
    sum.add(column.data(), n);
    out.write(reinterpret_cast<const char*>(column.data()), static_cast<std::streamsize>(n));
  } else {
    std::string block;
    for (std::size_t i = 0; i < column.size(); ++i) {
      detail::append_u32(block, std::bit_cast<std::uint32_t>(column[i]));
      if (block.size() >= (1u << 16) || i + 1 == column.size()) {
        sum.add(block.data(), block.size());
        out.write(block.data(), static_cast<std::streamsize>(block.size()));
        block.clear();
      }
    }
  }
}

class BinarySceneReader {
 public:
  BinarySceneReader(std::string_view bytes, const std::string& filename) : bytes_(bytes), file_(filename) {}

  Scene read() {
    check_header();
    Scene scene;
    scene.reserve(count_[0], count_[1], count_[2]);
    std::uint64_t column = scene_binary_header_size;  // offset of the current kind's first column
    const char* p = bytes_.data();
    // Offset of field f of shape i of a kind with n shapes whose columns start at `column`.
    const auto at = [&](std::uint64_t n, int f, std::uint64_t i) { return column + (f * n + i) * 4; };
    {
      const std::uint64_t n = count_[0];
      for (std::uint64_t i = 0; i < n; ++i) {
        const Segment s{{load_f32(p + at(n, 0, i)), load_f32(p + at(n, 1, i))},
                        {load_f32(p + at(n, 2, i)), load_f32(p + at(n, 3, i))}};
        add(scene, s, at(n, detail::invalid_field(s), i));
      }
      column += 16 * n;
    }
    {
      const std::uint64_t n = count_[1];
      for (std::uint64_t i = 0; i < n; ++i) {
        const Circle c{{load_f32(p + at(n, 0, i)), load_f32(p + at(n, 1, i))}, load_f32(p + at(n, 2, i))};
        add(scene, c, at(n, detail::invalid_field(c), i));
      }
      column += 12 * n;
    }
    {
      const std::uint64_t n = count_[2];
      for (std::uint64_t i = 0; i < n; ++i) {
        const Box b{{load_f32(p + at(n, 0, i)), load_f32(p + at(n, 1, i))},
                    {load_f32(p + at(n, 2, i)), load_f32(p + at(n, 3, i))}};
        add(scene, b, at(n, detail::invalid_field(b), i));
      }
    }
    return scene;
  }

 private:
  [[noreturn]] void fail(std::uint64_t offset, const std::string& message) const {
    throw ParseError::at_byte(file_, offset, message);
  }

  void check_header() {
    const std::uint64_t size = bytes_.size();
    if (!is_scene_binary(bytes_)) {
      if (bytes_.substr(0, 8) == pair_binary_magic) fail(0, "this is a hitgrid binary pair list, not a scene");
      if (size < scene_binary_magic.size() && scene_binary_magic.starts_with(bytes_)) truncated_header();
      fail(0, "not a hitgrid binary scene (bad magic)");
    }
    if (size < scene_binary_header_size) truncated_header();
    if (const auto v = load_u32(bytes_.data() + 8); v != scene_binary_version)
      fail(8, "unsupported version " + std::to_string(v) + " (this build reads version " +
                  std::to_string(scene_binary_version) + ")");
    if (const auto flags = load_u32(bytes_.data() + 12); flags != 0)
      fail(12, "unsupported flags " + std::to_string(flags) + " (version 1 defines none)");
    for (int k = 0; k < 3; ++k) {
      count_[k] = load_u64(bytes_.data() + counts_offset + 8 * k);
      if (count_[k] > ShapeId::max_count)
        fail(counts_offset + 8 * k, std::string(kind_name(static_cast<ShapeKind>(k))) + " count " +
                                        std::to_string(count_[k]) + " exceeds the limit of " +
                                        std::to_string(ShapeId::max_count));
    }
    // Only now, with every count bounded, is the expected size free of overflow.
    const std::uint64_t expected = scene_binary_size(count_[0], count_[1], count_[2]);
    if (size < expected)
      fail(size, "truncated: the header declares " + counted(count_[0], ShapeKind::segment) + ", " +
                     counted(count_[1], ShapeKind::circle) + " and " + counted(count_[2], ShapeKind::box) +
                     ", which take " + std::to_string(expected) + " bytes, but the file has " +
                     std::to_string(size));
    if (size > expected) fail(expected, std::to_string(size - expected) + " bytes of trailing data after the checksum");
    const std::uint64_t stored = load_u64(bytes_.data() + size - checksum_size);
    const std::uint64_t computed = detail::word_checksum(bytes_.data(), size - checksum_size);
    if (stored != computed)
      fail(size - checksum_size, "checksum mismatch: stored " + detail::hex64(stored) + ", computed " +
                                     detail::hex64(computed) + " (the file is corrupt)");
  }

  [[noreturn]] void truncated_header() const {
    fail(bytes_.size(), "truncated header: the file has " + std::to_string(bytes_.size()) +
                            " bytes, a scene header has " + std::to_string(scene_binary_header_size));
  }

  template <typename Shape>
  void add(Scene& scene, const Shape& shape, std::uint64_t field_offset) const {
    try {
      scene.add(shape);
    } catch (const InvalidShapeError& e) {
      fail(field_offset, e.what());
    }
  }

  std::string_view bytes_;
  const std::string& file_;
  std::uint64_t count_[3] = {0, 0, 0};
};

}  // namespace

bool is_scene_binary(std::string_view bytes) { return bytes.starts_with(scene_binary_magic); }

std::uint64_t scene_binary_size(std::uint64_t segments, std::uint64_t circles, std::uint64_t boxes) {
  return scene_binary_header_size + 4 * (columns_of[0] * segments + columns_of[1] * circles + columns_of[2] * boxes) +
         checksum_size;
}

Scene read_scene_binary(std::string_view bytes, const std::string& filename) {
  return BinarySceneReader(bytes, filename).read();
}

void write_scene_binary(std::ostream& out, const Scene& scene) {
  std::string header(scene_binary_magic);
  detail::append_u32(header, scene_binary_version);
  detail::append_u32(header, 0);  // flags
  detail::append_u64(header, scene.segment_count());
  detail::append_u64(header, scene.circle_count());
  detail::append_u64(header, scene.box_count());
  detail::WordChecksum sum;
  sum.add(header.data(), header.size());
  out.write(header.data(), static_cast<std::streamsize>(header.size()));
  const auto& s = scene.segments();
  const auto& c = scene.circles();
  const auto& b = scene.boxes();
  for (const FloatArray* a : {&s.ax, &s.ay, &s.bx, &s.by, &c.cx, &c.cy, &c.r, &b.minx, &b.miny, &b.maxx, &b.maxy})
    write_column(out, sum, *a);
  std::string trailer;
  detail::append_u64(trailer, sum.value());
  out.write(trailer.data(), static_cast<std::streamsize>(trailer.size()));
}

}  // namespace hitgrid
