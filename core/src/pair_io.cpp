#include "hitgrid/core/pair_io.hpp"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <ostream>

#include "binary_codec.hpp"
#include "block_writer.hpp"
#include "file_bytes.hpp"
#include "hitgrid/core/error.hpp"
#include "hitgrid/core/detail/fnv1a.hpp"
#include "hitgrid/core/scene_binary_io.hpp"
#include "text_scan.hpp"

namespace hitgrid {
namespace {

using detail::quote;
using detail::Token;

constexpr std::size_t count_offset = 16;
constexpr std::size_t checksum_size = 8;

std::string id_text(ShapeId id) { return std::string(1, kind_letter(id.kind())) + " " + std::to_string(id.index()); }
std::string pair_text(Pair p) { return id_text(p.first()) + " " + id_text(p.second()); }

class TextPairReader {
 public:
  TextPairReader(std::string_view text, const std::string& filename) : text_(text), file_(filename) {}

  PairList read() {
    PairList pairs;
    // A pair line takes at least 8 bytes ("s 0 s 1\n"): a reservation that never exceeds
    // the input's worth, however broken the input.
    pairs.reserve(text_.size() / 16);
    detail::LineReader lines(text_);
    Pair previous;
    std::uint64_t previous_line = 0;
    while (lines.next()) {
      line_ = lines.number();
      detail::Tokenizer tokens(lines.content());
      Token first_kind;
      if (!tokens.next(first_kind)) continue;
      const ShapeId a = shape(tokens, first_kind, 0);
      Token second_kind;
      if (!tokens.next(second_kind)) fail(tokens.end_column(), field_count_message("too few", 2));
      const ShapeId b = shape(tokens, second_kind, 2);
      Token extra;
      if (tokens.next(extra)) fail(extra.column, field_count_message("too many", 5 + tokens.count_rest()));
      if (a == b) fail(second_kind.column, "a shape cannot pair with itself: " + id_text(a) + " " + id_text(b));
      if (b < a)
        fail(first_kind.column, "pair not in canonical order: " + id_text(a) + " " + id_text(b) + " (write " +
                                    id_text(b) + " " + id_text(a) + ")");
      const Pair p(a, b);
      if (previous_line != 0 && p == previous)
        fail(first_kind.column, "duplicate pair " + pair_text(p) + " (also on line " + std::to_string(previous_line) + ")");
      if (previous_line != 0 && p < previous)
        fail(first_kind.column, "pairs not sorted: " + pair_text(p) + " comes after " + pair_text(previous) +
                                    " (line " + std::to_string(previous_line) + ")");
      pairs.push_back(p);
      previous = p;
      previous_line = line_;
    }
    return pairs;
  }

 private:
  [[noreturn]] void fail(std::uint64_t column, const std::string& message) const {
    throw ParseError(file_, line_, column, message);
  }

  static std::string field_count_message(const char* what, std::uint64_t found) {
    return std::string(what) + " fields: a pair takes 4 (kind id kind id), found " + std::to_string(found);
  }

  // Parses "kind id" starting at kind_token; `before` fields precede it on the line.
  ShapeId shape(detail::Tokenizer& tokens, const Token& kind_token, std::uint64_t before) const {
    ShapeKind kind{};
    const std::string_view k = kind_token.text;
    if (k == "s")
      kind = ShapeKind::segment;
    else if (k == "c")
      kind = ShapeKind::circle;
    else if (k == "b")
      kind = ShapeKind::box;
    else
      fail(kind_token.column, "unknown shape kind " + quote(k) + " (expected s, c or b)");
    Token id_token;
    if (!tokens.next(id_token)) fail(tokens.end_column(), field_count_message("too few", before + 1));
    const std::string_view t = id_token.text;
    std::uint32_t index = 0;
    const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), index);
    if (ptr != t.data() + t.size() || (ec != std::errc() && ec != std::errc::result_out_of_range))
      fail(id_token.column, "malformed shape id " + quote(t));
    if (ec == std::errc::result_out_of_range || index >= ShapeId::max_count)
      fail(id_token.column, "shape id " + quote(t) + " is out of range (ids are below " +
                                std::to_string(ShapeId::max_count) + ")");
    return ShapeId(kind, index);
  }

  std::string_view text_;
  const std::string& file_;
  std::uint64_t line_ = 0;
};

class BinaryPairReader {
 public:
  BinaryPairReader(std::string_view bytes, const std::string& filename) : bytes_(bytes), file_(filename) {}

  PairList read() {
    const std::uint64_t size = bytes_.size();
    if (!bytes_.starts_with(pair_binary_magic)) {
      if (is_scene_binary(bytes_)) fail(0, "this is a hitgrid binary scene, not a pair list");
      if (size < pair_binary_magic.size() && pair_binary_magic.starts_with(bytes_)) truncated_header();
      fail(0, "not a hitgrid binary pair list (bad magic)");
    }
    if (size < pair_binary_header_size) truncated_header();
    if (const auto v = detail::load_u32(bytes_.data() + 8); v != pair_binary_version)
      fail(8, "unsupported version " + std::to_string(v) + " (this build reads version " +
                  std::to_string(pair_binary_version) + ")");
    if (const auto flags = detail::load_u32(bytes_.data() + 12); flags != 0)
      fail(12, "unsupported flags " + std::to_string(flags) + " (version 1 defines none)");
    const std::uint64_t count = detail::load_u64(bytes_.data() + count_offset);
    // Compare the count with what the file can hold before computing any size from it: a
    // corrupt count must neither overflow the arithmetic nor reserve memory.
    const std::uint64_t room = size >= pair_binary_header_size + checksum_size
                                   ? (size - pair_binary_header_size - checksum_size) / 8
                                   : 0;
    if (count > room || size < pair_binary_header_size + checksum_size)
      fail(size, "truncated: the header declares " + std::to_string(count) + " pairs, but the file has " +
                     std::to_string(size) + " bytes, room for " + std::to_string(room));
    const std::uint64_t expected = pair_binary_header_size + 8 * count + checksum_size;
    if (size > expected) fail(expected, std::to_string(size - expected) + " bytes of trailing data after the checksum");
    const std::uint64_t stored = detail::load_u64(bytes_.data() + size - checksum_size);
    const std::uint64_t computed = detail::word_checksum(bytes_.data(), size - checksum_size);
    if (stored != computed)
      fail(size - checksum_size, "checksum mismatch: stored " + detail::hex64(stored) + ", computed " +
                                     detail::hex64(computed) + " (the file is corrupt)");
    PairList pairs;
    pairs.reserve(count);
    for (std::uint64_t i = 0; i < count; ++i) {
      const std::uint64_t offset = pair_binary_header_size + 8 * i;
      const Pair p = Pair::from_key(detail::load_u64(bytes_.data() + offset));
      // The message prefix is built only on failure: this loop runs once per pair.
      const auto bad = [&](const std::string& what) { fail(offset, "pair " + std::to_string(i) + ": " + what); };
      if (p.first().bits() >> 30 == 3 || p.second().bits() >> 30 == 3)
        bad("invalid shape kind in key " + detail::hex64(p.key()));
      if (p.first() == p.second()) bad("a shape cannot pair with itself: " + pair_text(p));
      if (p.second() < p.first()) bad("not in canonical order: " + id_text(p.first()) + " before " + id_text(p.second()));
      if (i != 0 && p == pairs.back()) bad("duplicate of pair " + std::to_string(i - 1) + ", " + pair_text(p));
      if (i != 0 && p < pairs.back()) bad("pairs not sorted: " + pair_text(p) + " comes after " + pair_text(pairs.back()));
      pairs.push_back(p);
    }
    return pairs;
  }

 private:
  [[noreturn]] void fail(std::uint64_t offset, const std::string& message) const {
    throw ParseError::at_byte(file_, offset, message);
  }
  [[noreturn]] void truncated_header() const {
    fail(bytes_.size(), "truncated header: the file has " + std::to_string(bytes_.size()) +
                            " bytes, a pair list header has " + std::to_string(pair_binary_header_size));
  }

  std::string_view bytes_;
  const std::string& file_;
};

/// The text lines of `pairs` into w.
void format_pairs_text(detail::BlockWriter& w, std::span<const Pair> pairs) {
  for (const Pair p : pairs) {
    w.character(kind_letter(p.first().kind()));
    w.character(' ');
    w.number(p.first().index());
    w.character(' ');
    w.character(kind_letter(p.second().kind()));
    w.character(' ');
    w.number(p.second().index());
    w.end_line();
  }
}

}  // namespace

std::uint64_t pair_list_hash(std::span<const Pair> pairs) {
  Fnv1a h;
  h.add_u64(pairs.size());
  for (const Pair p : pairs) h.add_u64(p.key());
  return h.value();
}

void write_pairs_text(std::ostream& out, std::span<const Pair> pairs) {
  detail::BlockWriter w(out);
  format_pairs_text(w, pairs);
  w.flush();
}

PairList read_pairs_text(std::string_view text, const std::string& filename) {
  return TextPairReader(text, filename).read();
}

void write_pairs_binary(std::ostream& out, std::span<const Pair> pairs) {
  std::string block(pair_binary_magic);
  detail::append_u32(block, pair_binary_version);
  detail::append_u32(block, 0);  // flags
  detail::append_u64(block, pairs.size());
  detail::WordChecksum sum;
  constexpr std::size_t block_size = std::size_t{1} << 20;
  for (const Pair p : pairs) {
    detail::append_u64(block, p.key());
    if (block.size() >= block_size) {
      sum.add(block.data(), block.size());
      out.write(block.data(), static_cast<std::streamsize>(block.size()));
      block.clear();
    }
  }
  sum.add(block.data(), block.size());
  detail::append_u64(block, sum.value());
  out.write(block.data(), static_cast<std::streamsize>(block.size()));
}

PairList read_pairs_binary(std::string_view bytes, const std::string& filename) {
  return BinaryPairReader(bytes, filename).read();
}

PairList read_pairs_file(const std::string& path) {
  const std::string bytes = detail::read_file_bytes(path);
  // As for scenes: no text pair list can start with byte 0x89.
  if (!bytes.empty() && bytes[0] == pair_binary_magic[0]) return read_pairs_binary(bytes, path);
  return read_pairs_text(bytes, path);
}

void write_pairs_file(const std::string& path, std::span<const Pair> pairs, PairFormat format) {
  detail::write_file(path, [&](std::ostream& out) {
    if (format == PairFormat::binary)
      write_pairs_binary(out, pairs);
    else
      write_pairs_text(out, pairs);
  });
}

struct PairStreamWriter::State {
  std::string name;
  PairFormat format = PairFormat::text;
  std::fstream file;              // a file (binary: read back at the end)
  std::ostream* out = nullptr;    // where the bytes go
  std::string block;              // binary: bytes not written yet
  std::uint64_t count = 0;
  std::optional<std::uint64_t> hash;
  bool finished = false;

  static constexpr std::size_t block_size = std::size_t{1} << 20;

  [[noreturn]] void fail(const char* what) const {
    throw IoError(name, std::string(what) + ": " + (errno != 0 ? std::strerror(errno) : "unknown error"));
  }
  void check(const char* what) const {
    if (!*out) fail(what);
  }
  void flush_block() {
    errno = 0;
    out->write(block.data(), static_cast<std::streamsize>(block.size()));
    block.clear();
    check("write failed");
  }
  /// Binary: the count into the header, then the file read back once for its checksum
  /// (and the list's hash), which goes at the end.
  void finish_binary() {
    flush_block();
    std::string count_bytes;
    detail::append_u64(count_bytes, count);
    errno = 0;
    file.seekp(static_cast<std::streamoff>(count_offset));
    file.write(count_bytes.data(), 8);
    file.flush();
    check("write failed");
    file.seekg(0);
    detail::WordChecksum sum;
    Fnv1a h;
    h.add_u64(count);
    std::string buf(block_size, '\0');
    std::uint64_t at = 0;  // bytes read so far
    const std::uint64_t total = pair_binary_header_size + 8 * count;
    while (at < total) {
      const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(buf.size(), total - at));
      errno = 0;
      file.read(buf.data(), static_cast<std::streamsize>(n));
      if (static_cast<std::size_t>(file.gcount()) != n) fail("read back failed");
      sum.add(buf.data(), n);
      // Keys start after the header, and n is a multiple of 8 past it.
      for (std::size_t k = at < pair_binary_header_size ? pair_binary_header_size - at : 0; k + 8 <= n; k += 8)
        h.add_u64(detail::load_u64(buf.data() + k));
      at += n;
    }
    block.clear();
    detail::append_u64(block, sum.value());
    file.seekp(0, std::ios::end);
    flush_block();
    hash = h.value();
  }
};

PairStreamWriter::PairStreamWriter(std::ostream& out, std::string name) : s_(std::make_unique<State>()) {
  s_->name = std::move(name);
  s_->out = &out;
}

PairStreamWriter::PairStreamWriter(const std::string& path, PairFormat format) : s_(std::make_unique<State>()) {
  s_->name = path;
  s_->format = format;
  errno = 0;
  const auto mode = std::ios::binary | std::ios::out | std::ios::trunc | (format == PairFormat::binary ? std::ios::in : std::ios::openmode{});
  s_->file.open(path, mode);
  if (!s_->file) s_->fail("cannot open for writing");
  s_->out = &s_->file;
  if (format == PairFormat::binary) {
    s_->block.assign(pair_binary_magic);
    detail::append_u32(s_->block, pair_binary_version);
    detail::append_u32(s_->block, 0);  // flags
    detail::append_u64(s_->block, 0);  // the count, written by finish()
  }
}

PairStreamWriter::~PairStreamWriter() = default;

void PairStreamWriter::write(std::span<const Pair> pairs) {
  State& s = *s_;
  s.count += pairs.size();
  if (s.format == PairFormat::text) {
    detail::BlockWriter w(*s.out);
    format_pairs_text(w, pairs);
    errno = 0;
    w.flush();
    s.check("write failed");
    return;
  }
  for (const Pair p : pairs) {
    detail::append_u64(s.block, p.key());
    if (s.block.size() >= State::block_size) s.flush_block();
  }
}

void PairStreamWriter::finish() {
  State& s = *s_;
  if (s.finished) return;
  s.finished = true;
  if (s.format == PairFormat::binary) s.finish_binary();
  errno = 0;
  s.out->flush();
  s.check("write failed");
  if (s.file.is_open()) {
    s.file.close();
    if (!s.file) s.fail("write failed");
  }
}

std::uint64_t PairStreamWriter::count() const { return s_->count; }
std::optional<std::uint64_t> PairStreamWriter::hash() const { return s_->hash; }

}  // namespace hitgrid
