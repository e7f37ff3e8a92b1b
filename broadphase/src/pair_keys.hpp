// Pairs as 64-bit keys while the grid runs: (smaller global index << id_bits) | larger
// global index, so that sorting the keys sorts the pairs by (kind, id) as PairList wants.
//
// The passes write their keys into PairKeys: a list of fixed-size chunks
// (key_chunk_pool.hpp), never copied as it grows and never reserved beyond its last
// chunk, so n keys take n * 8 bytes plus at most one chunk (docs/contracts.md, contract 4).
// A pass can also restrict its keys to a range (KeyRange: the streamed form's bands) or
// only count them (KeyCounts: how the bands are planned).
#pragma once

#include <tbb/enumerable_thread_specific.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

#include "key_chunk_pool.hpp"
#include "uninitialized_vector.hpp"

namespace hitgrid {

/// Bits needed for the numbers 0 .. n - 1.
inline int bits_for(std::uint64_t n) { return n <= 1 ? 0 : 64 - std::countl_zero(n - 1); }

struct PairKeyCodec {
  int id_bits = 0;
  /// The key of the pair of global indices a < b.
  std::uint64_t key(std::uint32_t a, std::uint32_t b) const { return (std::uint64_t{a} << id_bits) | b; }
  /// Keys are below 2^key_bits().
  int key_bits() const { return 2 * id_bits; }
};

/// A contiguous list of keys (the world's queries, the merge's small sets).
using PairKeyList = UninitializedVector<std::uint64_t>;

/// Keys in chunks: one thread's keys from one pass, or all of them. Move-only; gives its
/// chunks back when destroyed.
class PairKeys {
 public:
  struct Chunk {
    std::uint64_t* keys;  // null once given back (release_chunk)
    std::size_t size;
  };

  PairKeys() = default;
  ~PairKeys() { clear(); }
  PairKeys(PairKeys&& o) noexcept
      : chunks_(std::move(o.chunks_)), size_(std::exchange(o.size_, 0)), room_(std::exchange(o.room_, 0)) {
    o.chunks_.clear();
  }
  PairKeys& operator=(PairKeys&& o) noexcept {
    if (this != &o) {
      clear();
      chunks_ = std::move(o.chunks_);
      o.chunks_.clear();
      size_ = std::exchange(o.size_, 0);
      room_ = std::exchange(o.room_, 0);
    }
    return *this;
  }
  PairKeys(const PairKeys&) = delete;
  PairKeys& operator=(const PairKeys&) = delete;

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const CachedVector<Chunk>& chunks() const { return chunks_; }

  void push_back(std::uint64_t key) {
    if (room_ == 0) new_chunk();
    Chunk& c = chunks_.back();
    c.keys[c.size++] = key;
    --room_;
    ++size_;
  }
  /// Appends n keys.
  void append(const std::uint64_t* keys, std::size_t n) {
    while (n != 0) {
      if (room_ == 0) new_chunk();
      Chunk& c = chunks_.back();
      const std::size_t k = std::min(n, room_);
      std::memcpy(c.keys + c.size, keys, k * sizeof(std::uint64_t));
      c.size += k;
      room_ -= k;
      size_ += k;
      keys += k;
      n -= k;
    }
  }
  /// Takes the chunks of `other` over (leaves it empty). The last chunk of this list is
  /// closed: at most one chunk per appended list is left partly filled.
  void append(PairKeys& other) {
    if (other.chunks_.empty()) return;
    if (chunks_.empty()) {
      *this = std::move(other);
      return;
    }
    chunks_.reserve(chunks_.size() + other.chunks_.size());
    // Keep the list with room last, so that appends fill it.
    const Chunk last = chunks_.back();
    chunks_.pop_back();
    chunks_.insert(chunks_.end(), other.chunks_.begin(), other.chunks_.end());
    chunks_.push_back(last);
    size_ += std::exchange(other.size_, 0);
    other.chunks_.clear();
    other.room_ = 0;
  }
  /// Gives chunk i back (its keys are gone; size() counts them still).
  void release_chunk(std::size_t i) {
    deallocate_key_chunk(chunks_[i].keys);
    chunks_[i].keys = nullptr;
    if (i + 1 == chunks_.size()) room_ = 0;
  }
  /// Gives every chunk back.
  void clear() {
    for (Chunk& c : chunks_) deallocate_key_chunk(c.keys);
    chunks_.clear();
    size_ = 0;
    room_ = 0;
  }

 private:
  void new_chunk() {
    std::uint64_t* keys = allocate_key_chunk();
    try {
      chunks_.push_back({keys, 0});
    } catch (...) {
      deallocate_key_chunk(keys);
      throw;
    }
    room_ = KeyChunkPool::chunk_keys;
  }

  CachedVector<Chunk> chunks_;
  std::size_t size_ = 0;
  std::size_t room_ = 0;  // free keys in the last chunk
};

/// The keys a pass keeps: those in [lo, hi).
struct KeyRange {
  std::uint64_t lo = 0, hi = std::numeric_limits<std::uint64_t>::max();
  bool all() const { return lo == 0 && hi == std::numeric_limits<std::uint64_t>::max(); }
  bool contains(std::uint64_t key) const { return lo <= key && key < hi; }
};

/// Counts of keys in bins of equal width over a range: bin (key - lo) >> shift. Passes
/// given one count their keys instead of keeping them (PairBatch); each thread counts into
/// its own table.
class KeyCounts {
 public:
  /// bins bins of 2^shift keys from lo.
  KeyCounts(std::uint64_t lo, int shift, std::size_t bins)
      : lo_(lo), shift_(shift), bins_(bins), tables_([bins] { return CachedVector<std::uint64_t>(bins, 0); }) {}
  void add(const std::uint64_t* keys, std::size_t n) {
    CachedVector<std::uint64_t>& t = tables_.local();
    for (std::size_t i = 0; i < n; ++i) ++t[(keys[i] - lo_) >> shift_];
  }
  std::uint64_t lo() const { return lo_; }
  int shift() const { return shift_; }
  /// The counts of every thread, summed.
  CachedVector<std::uint64_t> total() const {
    CachedVector<std::uint64_t> sum(bins_, 0);
    for (const auto& t : tables_)
      for (std::size_t b = 0; b < bins_; ++b) sum[b] += t[b];
    return sum;
  }

 private:
  std::uint64_t lo_;
  int shift_;
  std::size_t bins_;
  tbb::enumerable_thread_specific<CachedVector<std::uint64_t>> tables_;
};

}  // namespace hitgrid
