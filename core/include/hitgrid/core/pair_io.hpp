// Pair lists: the answer of a query, in text and binary files, and their hash.
//
// Text (docs/formats.md): one pair a line, "s 3 s 17", "c 2 b 7": kind order s < c < b,
// the lower shape first, lines sorted, no duplicates; comments, blank lines and CRLF as in
// the scene text format. Binary: a 24-byte header (magic, version, flags, count), one
// little-endian 64-bit Pair::key() per pair, an 8-byte checksum.
//
// Readers are strict: a pair list that is not in canonical sorted order, or names a shape
// twice, is an error, because a tool that compares answers must not quietly fix them.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "hitgrid/core/shape_id.hpp"

namespace hitgrid {

/// Sorted pairs are in output order (Pair's ordering is the file's line order).
using PairList = std::vector<Pair>;

enum class PairFormat { text, binary };

/// "\x89HGP\r\n\x1a\n": the first 8 bytes of a binary pair list.
inline constexpr std::string_view pair_binary_magic{"\x89HGP\r\n\x1a\n", 8};
inline constexpr std::uint32_t pair_binary_version = 1;
inline constexpr std::size_t pair_binary_header_size = 24;

/// FNV-1a 64 over the count and then each Pair::key(), each as 8 little-endian bytes.
/// Benchmarks and the command line print it so that runs can be compared by one number.
std::uint64_t pair_list_hash(std::span<const Pair> pairs);

/// Writes pairs one a line ("s 3 c 0"), in the given order. Fast: formats into large
/// blocks. A list from hitgrid is sorted; an unsorted one writes fine but reads back as an
/// error.
void write_pairs_text(std::ostream& out, std::span<const Pair> pairs);
/// Parses a text pair list. Throws ParseError "FILE:LINE:COL: message".
PairList read_pairs_text(std::string_view text, const std::string& filename);

void write_pairs_binary(std::ostream& out, std::span<const Pair> pairs);
/// Parses a binary pair list. Throws ParseError "FILE: byte OFFSET: message"; a count that
/// does not match the file's size is an error before anything is allocated.
PairList read_pairs_binary(std::string_view bytes, const std::string& filename);

/// Reads either format (binary if the first byte is the magic's 0x89). Throws IoError or
/// ParseError.
PairList read_pairs_file(const std::string& path);
/// Writes (creating or truncating) a pair file. Throws IoError.
void write_pairs_file(const std::string& path, std::span<const Pair> pairs, PairFormat format);

/// Writes a pair list piece by piece, for lists too large to hold (`hitgrid pairs
/// --stream`): the pieces, joined in order, are the list, and the output is byte for byte
/// what write_pairs_text / write_pairs_file write for it. The binary header holds the
/// count and the checksum covers it, so a binary list goes to a file: finish() writes the
/// count into the header and reads the file back once for the checksum. Holds a block of
/// about 1 MiB.
class PairStreamWriter {
 public:
  /// A text list to `out` (not owned; named `name` in errors).
  PairStreamWriter(std::ostream& out, std::string name);
  /// Either format to a file (created or truncated). Throws IoError.
  PairStreamWriter(const std::string& path, PairFormat format);
  ~PairStreamWriter();
  PairStreamWriter(const PairStreamWriter&) = delete;
  PairStreamWriter& operator=(const PairStreamWriter&) = delete;

  /// Appends pairs. Throws IoError.
  void write(std::span<const Pair> pairs);
  /// Completes the output (flushed; a file closed). Throws IoError.
  void finish();
  /// Pairs written.
  std::uint64_t count() const;
  /// pair_list_hash of the whole list, after finish() of a binary file (read back for the
  /// checksum anyway); empty otherwise.
  std::optional<std::uint64_t> hash() const;

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace hitgrid
