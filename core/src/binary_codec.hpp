// Private: little-endian fields and the checksum of hitgrid's binary formats
// (docs/formats.md).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace hitgrid::detail {

constexpr bool host_is_little_endian = std::endian::native == std::endian::little;
static_assert(std::endian::native == std::endian::little || std::endian::native == std::endian::big,
              "mixed-endian hosts are not supported");

constexpr std::uint32_t byteswap32(std::uint32_t v) {
  return (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
}
constexpr std::uint64_t byteswap64(std::uint64_t v) {
  return (std::uint64_t{byteswap32(static_cast<std::uint32_t>(v))} << 32) | byteswap32(static_cast<std::uint32_t>(v >> 32));
}

inline std::uint32_t load_u32(const char* p) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  return host_is_little_endian ? v : byteswap32(v);
}
inline std::uint64_t load_u64(const char* p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  return host_is_little_endian ? v : byteswap64(v);
}
inline float load_f32(const char* p) { return std::bit_cast<float>(load_u32(p)); }

inline void append_u32(std::string& out, std::uint32_t v) {
  if (!host_is_little_endian) v = byteswap32(v);
  out.append(reinterpret_cast<const char*>(&v), 4);
}
inline void append_u64(std::string& out, std::uint64_t v) {
  if (!host_is_little_endian) v = byteswap64(v);
  out.append(reinterpret_cast<const char*>(&v), 8);
}

/// The checksum of the binary formats: FNV-1a 64 taken over little-endian 64-bit words
/// instead of bytes (h = (h ^ word) * FNV prime, from the FNV offset basis), the last
/// partial word zero-padded. Word-wise it takes one multiply per eight bytes instead of
/// one per byte, so the checksum does not dominate reading a binary scene, as byte-wise
/// FNV-1a would. Each step is a bijection of h for a fixed word and changes h whenever
/// the word changes, so any corruption confined to one 8-byte word is always detected;
/// other corruption escapes with odds of about 2^-64.
class WordChecksum {
 public:
  void add(const void* data, std::size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    // Top up a word left partial by the previous call.
    while (n != 0 && pending_bytes_ != 0) {
      pending_ |= std::uint64_t{*p++} << (8 * pending_bytes_);
      --n;
      if (++pending_bytes_ == 8) flush_pending();
    }
    for (; n >= 8; n -= 8, p += 8) mix(load_u64(reinterpret_cast<const char*>(p)));
    for (; n != 0; --n) pending_ |= std::uint64_t{*p++} << (8 * pending_bytes_++);
  }
  /// The checksum of everything added so far (the object stays usable).
  std::uint64_t value() const {
    if (pending_bytes_ == 0) return h_;
    return (h_ ^ pending_) * prime;
  }

 private:
  static constexpr std::uint64_t prime = 0x100000001b3ull;
  void mix(std::uint64_t w) { h_ = (h_ ^ w) * prime; }
  void flush_pending() {
    mix(pending_);
    pending_ = 0;
    pending_bytes_ = 0;
  }
  std::uint64_t h_ = 0xcbf29ce484222325ull;
  std::uint64_t pending_ = 0;
  unsigned pending_bytes_ = 0;
};

inline std::uint64_t word_checksum(const void* data, std::size_t n) {
  WordChecksum c;
  c.add(data, n);
  return c.value();
}

/// "0x" and 16 lowercase hex digits.
inline std::string hex64(std::uint64_t v) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string s = "0x";
  for (int i = 15; i >= 0; --i) s += digits[(v >> (4 * i)) & 15];
  return s;
}

}  // namespace hitgrid::detail
