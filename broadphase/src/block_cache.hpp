// Scratch blocks kept between the calls of one PairFinder (and the frames of a World).
//
// A call needs tens of megabytes of scratch per million shapes. Fresh memory from the OS
// costs far more than the work done on it (the first touch of a page is a fault), and
// glibc maps blocks this large fresh on every call (above its mmap threshold) or trims
// them away between calls, so an engine that finds pairs every frame would pay the page
// faults every frame. A PairFinder therefore owns a BlockCache: blocks are kept when
// freed, up to a bound, and handed out again to requests of up to their size (and at
// least half of it); destroying the PairFinder, or release(), gives them back. Small
// blocks (the per-task tables and lists of a pass, under min_exact_bytes) are kept too,
// rounded up to a power of two: with them a World's frame, once its first frames have
// grown the blocks it needs, allocates nothing (hitgrid/world/world.hpp). On Linux blocks of at
// least huge_page_bytes ask for transparent huge pages (madvise): the grid streams
// through several such buffers at once, a thousand rows apart, and with 4 KiB pages that
// misses the TLB.
//
// The grid's buffers (UninitializedVector, CachedVector) allocate through allocate_block,
// which takes the calling thread's current cache: the PairFinder sets it on every thread
// that works in its task arena (BlockCacheObserver, BlockCache::Scope). A thread holds its
// current cache weakly: TBB's workers do not always hear that they left an arena before
// its observer goes, and a cache destroyed meanwhile must read as none, never as a
// dangling pointer. Each block remembers its cache in a header, so it goes back to the
// right one whatever thread frees it; blocks never outlive the call that allocated them.
// Outside a PairFinder's arena blocks come from the heap and go back to it.
#pragma once

#include <tbb/task_arena.h>
#include <tbb/task_scheduler_observer.h>

#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "key_chunk_pool.hpp"

namespace hitgrid {

class BlockCache {
 public:
  /// Requests of at least this many bytes get blocks of their own size; smaller ones are
  /// rounded up to a power of two (at least 64 bytes).
  static constexpr std::size_t min_exact_bytes = std::size_t{1} << 17;
  /// Blocks of at least this many bytes ask for transparent huge pages.
  static constexpr std::size_t huge_page_bytes = std::size_t{1} << 21;
  static constexpr std::size_t default_max_bytes = std::size_t{512} << 20;

  /// The share of max_bytes kept for the pair keys' chunks (KeyChunkPool): one part in
  /// key_chunk_share_divisor; the blocks keep the rest.
  static constexpr std::size_t key_chunk_share_divisor = 8;

  explicit BlockCache(std::size_t max_bytes = default_max_bytes)
      : max_bytes_(max_bytes - max_bytes / key_chunk_share_divisor), key_chunks_(max_bytes / key_chunk_share_divisor) {}
  /// Frees every kept block. Blocks handed out must have come back first.
  ~BlockCache();
  BlockCache(const BlockCache&) = delete;
  BlockCache& operator=(const BlockCache&) = delete;

  /// Returns every kept block (and the pages of every idle key chunk) to the system.
  void release() noexcept;
  /// Gives kept blocks back, the largest first, until at most `bytes` of them are kept.
  void trim(std::size_t bytes) noexcept;
  /// The bound on kept blocks.
  std::size_t max_block_bytes() const noexcept { return max_bytes_; }
  /// Bytes kept now (blocks and idle key chunks).
  std::size_t cached_bytes() const noexcept;
  /// The pool of pair-key chunks.
  KeyChunkPool& key_chunks() noexcept { return key_chunks_; }

  /// The calling thread's cache (null: none, or destroyed since it was made current).
  static std::shared_ptr<BlockCache> current() noexcept;
  /// Makes `cache` the calling thread's current cache for the scope's lifetime.
  class Scope {
   public:
    explicit Scope(const std::shared_ptr<BlockCache>& cache) noexcept;
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    std::weak_ptr<BlockCache> previous_;
  };
  static void set_current(const std::shared_ptr<BlockCache>& cache) noexcept;

 private:
  friend void* allocate_block(std::size_t bytes);
  friend void deallocate_block(void* p, std::size_t bytes) noexcept;
  struct Block {
    char* base;
    std::size_t size;  // usable bytes after the header
  };
  /// A kept block of at least `bytes` and at most twice that, or null.
  char* take(std::size_t bytes);
  /// Keeps a block (or frees it, if it does not fit the bound).
  void give_back(char* base, std::size_t size) noexcept;

  std::size_t max_bytes_;
  mutable std::mutex mutex_;
  std::vector<Block> free_;
  std::size_t bytes_ = 0;
  KeyChunkPool key_chunks_;
};

/// Makes a cache current on every thread while it works in one task arena, and on none
/// after (the thread that calls the arena's execute needs a Scope of its own).
class BlockCacheObserver : public tbb::task_scheduler_observer {
 public:
  BlockCacheObserver(tbb::task_arena& arena, std::shared_ptr<BlockCache> cache)
      : tbb::task_scheduler_observer(arena), cache_(std::move(cache)) {
    observe(true);
  }
  ~BlockCacheObserver() override { observe(false); }
  void on_scheduler_entry(bool) override { BlockCache::set_current(cache_); }
  void on_scheduler_exit(bool) override { BlockCache::set_current(nullptr); }

 private:
  std::shared_ptr<BlockCache> cache_;
};

/// `bytes` of storage aligned to 64 bytes, from the current cache when there is one;
/// throws std::bad_alloc.
void* allocate_block(std::size_t bytes);
/// Frees (or keeps) a block from allocate_block; `bytes` as requested.
void deallocate_block(void* p, std::size_t bytes) noexcept;

}  // namespace hitgrid
