#include "block_cache.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace hitgrid {
namespace {

constexpr std::align_val_t alignment{64};
// Each block starts with a header: its cache (null: the heap's) and its real size
// (a reused block may be larger than the request that returns it).
constexpr std::size_t header = 64;
struct Header {
  BlockCache* owner;
  std::size_t size;
};
static_assert(sizeof(Header) <= header);

thread_local std::weak_ptr<BlockCache> current_cache;

/// A new block of `bytes` usable bytes after the header, on huge pages where Linux allows
/// (blocks of at least BlockCache::huge_page_bytes).
char* new_block(std::size_t bytes) {
  char* base = static_cast<char*>(::operator new(bytes + header, alignment));
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (bytes >= BlockCache::huge_page_bytes) {
    // Ask for transparent huge pages over the block's whole 2 MiB pages.
    constexpr std::uintptr_t huge = std::uintptr_t{1} << 21;
    const auto from = (reinterpret_cast<std::uintptr_t>(base) + huge - 1) & ~(huge - 1);
    const auto to = (reinterpret_cast<std::uintptr_t>(base) + bytes + header) & ~(huge - 1);
    if (to > from) madvise(reinterpret_cast<void*>(from), to - from, MADV_HUGEPAGE);
  }
#endif
  return base;
}

/// The smallest block made: a cache line, the alignment every block has.
constexpr std::size_t min_block_bytes = 64;

/// The size a block is made with: small requests are rounded up to a power of two (at
/// least min_block_bytes), so that a kept small block fits the next call's request of
/// about the same size; large ones are made as asked (take() accepts a block up to twice
/// as large).
std::size_t block_size(std::size_t bytes) {
  if (bytes >= BlockCache::min_exact_bytes) return bytes;
  return std::max<std::size_t>(min_block_bytes, std::bit_ceil(bytes));
}

}  // namespace

BlockCache::~BlockCache() { release(); }

std::shared_ptr<BlockCache> BlockCache::current() noexcept { return current_cache.lock(); }
void BlockCache::set_current(const std::shared_ptr<BlockCache>& cache) noexcept { current_cache = cache; }

BlockCache::Scope::Scope(const std::shared_ptr<BlockCache>& cache) noexcept : previous_(current_cache) {
  current_cache = cache;
}
BlockCache::Scope::~Scope() { current_cache = previous_; }

char* BlockCache::take(std::size_t bytes) {
  const std::lock_guard<std::mutex> lock(mutex_);
  // The smallest kept block that fits, if it is no more than twice the request; a small
  // request takes any small block that fits (which thread grows which per-thread list
  // changes from call to call: a small block kept is worth handing out whatever its size).
  const bool small = bytes < min_exact_bytes;
  auto best = free_.end();
  for (auto it = free_.begin(); it != free_.end(); ++it)
    if (it->size >= bytes && (small ? it->size < min_exact_bytes : it->size / 2 <= bytes) &&
        (best == free_.end() || it->size < best->size))
      best = it;
  if (best == free_.end()) return nullptr;
  char* base = best->base;
  bytes_ -= best->size;
  free_.erase(best);
  return base;
}

void BlockCache::give_back(char* base, std::size_t size) noexcept {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (size > max_bytes_) {
    ::operator delete(base, alignment);
    return;
  }
  // Make room by dropping the largest kept blocks first (the rarest sizes).
  while (bytes_ + size > max_bytes_) {
    auto largest =
        std::max_element(free_.begin(), free_.end(), [](const Block& x, const Block& y) { return x.size < y.size; });
    bytes_ -= largest->size;
    ::operator delete(largest->base, alignment);
    free_.erase(largest);
  }
  try {
    free_.push_back({base, size});
    bytes_ += size;
  } catch (...) {
    ::operator delete(base, alignment);
  }
}

void BlockCache::trim(std::size_t bytes) noexcept {
  const std::lock_guard<std::mutex> lock(mutex_);
  while (bytes_ > bytes) {
    auto largest =
        std::max_element(free_.begin(), free_.end(), [](const Block& x, const Block& y) { return x.size < y.size; });
    bytes_ -= largest->size;
    ::operator delete(largest->base, alignment);
    free_.erase(largest);
  }
}

void BlockCache::release() noexcept {
  key_chunks_.release();
  const std::lock_guard<std::mutex> lock(mutex_);
  for (const Block& b : free_) ::operator delete(b.base, alignment);
  free_.clear();
  bytes_ = 0;
}

std::size_t BlockCache::cached_bytes() const noexcept {
  const std::size_t chunks = key_chunks_.resident_bytes();
  const std::lock_guard<std::mutex> lock(mutex_);
  return bytes_ + chunks;
}

void* allocate_block(std::size_t bytes) {
  const std::size_t size = block_size(bytes);
  const std::shared_ptr<BlockCache> cache = current_cache.lock();
  char* base = cache ? cache->take(size) : nullptr;
  if (base == nullptr) {
    base = new_block(size);
    *reinterpret_cast<Header*>(base) = {cache.get(), size};
  }
  return base + header;
}

void deallocate_block(void* p, std::size_t) noexcept {
  if (p == nullptr) return;
  char* base = static_cast<char*>(p) - header;
  const Header h = *reinterpret_cast<const Header*>(base);
  if (h.owner == nullptr) {
    ::operator delete(base, alignment);
    return;
  }
  h.owner->give_back(base, h.size);
}

}  // namespace hitgrid
