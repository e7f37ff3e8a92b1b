// Fixed-size chunks of pair keys, kept between the calls of one PairFinder.
//
// The grid's passes write the keys of the pairs they find into chunks of chunk_keys keys
// (pair_keys.hpp), and the merge moves them from chunk to chunk and gives every chunk back
// as soon as it has read it (sorted_pairs.cpp). Chunks of one size never leave memory that
// no later request can use, and a list of chunks grows without copying: a growing vector
// needs its old and its new array at once (three times the keys for a moment) and leaves
// up to twice the keys reserved. That is what makes the memory of the pairs about the 8
// bytes a key takes (docs/contracts.md, contract 4).
//
// The pool maps chunks in slabs of 4 MiB (on transparent huge pages where Linux allows, as
// the grid's blocks are: block_cache.hpp) and keeps the chunks given back for the next request, at
// most max_resident_bytes of them resident: past that a chunk given back returns its
// pages to the system at once (Linux: madvise MADV_DONTNEED; it stays in the pool as
// address space). So while the merge writes the sorted pair list, the chunks it has read
// stop counting in the process's memory. Destroying the pool unmaps its slabs; every chunk
// must have come back first.
//
// A chunk starts with a header naming its pool (or none: the heap's), so it goes back to
// the right place whatever thread frees it. allocate_key_chunk takes the calling thread's
// current BlockCache's pool (block_cache.hpp); outside a PairFinder chunks come from the
// heap.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace hitgrid {

class KeyChunkPool {
 public:
  static constexpr std::size_t chunk_bytes = std::size_t{1} << 16;
  static constexpr std::size_t header_bytes = 64;
  /// Keys per chunk.
  static constexpr std::size_t chunk_keys = (chunk_bytes - header_bytes) / sizeof(std::uint64_t);

  explicit KeyChunkPool(std::size_t max_resident_bytes) : max_resident_(max_resident_bytes) {}
  ~KeyChunkPool();
  KeyChunkPool(const KeyChunkPool&) = delete;
  KeyChunkPool& operator=(const KeyChunkPool&) = delete;

  /// Gives the pages of every idle chunk back to the system (the address space stays).
  void release() noexcept;
  /// Bytes of idle chunks still resident.
  std::size_t resident_bytes() const noexcept;

 private:
  friend std::uint64_t* allocate_key_chunk();
  friend void deallocate_key_chunk(std::uint64_t* keys) noexcept;
  /// A chunk's base (its header), resident idle ones first; throws std::bad_alloc.
  char* take();
  void give_back(char* base) noexcept;
  void add_slab();

  std::size_t max_resident_;
  mutable std::mutex mutex_;
  std::vector<char*> resident_;  // idle chunks with their pages
  std::vector<char*> returned_;  // idle chunks whose pages went back to the system
  std::vector<char*> slabs_;
};

/// A chunk of KeyChunkPool::chunk_keys keys (uninitialized), from the current cache's pool
/// when there is one; throws std::bad_alloc.
std::uint64_t* allocate_key_chunk();
/// Gives a chunk from allocate_key_chunk back (null: nothing).
void deallocate_key_chunk(std::uint64_t* keys) noexcept;

}  // namespace hitgrid
