#include "block_cache.hpp"

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <new>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace hitgrid::block_cache {
namespace {

constexpr std::align_val_t alignment{64};
// Each cached-size block starts with a header holding its real size (a reused block may
// be larger than the request that returns it).
constexpr std::size_t header = 64;

struct Block {
  char* base;
  std::size_t size;  // usable bytes after the header
};

struct Cache {
  std::mutex mutex;
  std::vector<Block> free;  // kept blocks
  std::size_t bytes = 0;
  void release_all() noexcept {
    for (const Block& b : free) ::operator delete(b.base, alignment);
    free.clear();
    bytes = 0;
  }
};

/// Never destroyed: buffers in other static objects may be freed after it would be.
Cache& cache() {
  static Cache* c = new Cache;
  return *c;
}

}  // namespace

void* allocate(std::size_t bytes) {
  if (bytes < min_cached_bytes) return ::operator new(bytes, alignment);
  {
    Cache& c = cache();
    const std::lock_guard<std::mutex> lock(c.mutex);
    // The smallest kept block that fits, if it is no more than twice the request.
    auto best = c.free.end();
    for (auto it = c.free.begin(); it != c.free.end(); ++it)
      if (it->size >= bytes && it->size / 2 <= bytes && (best == c.free.end() || it->size < best->size)) best = it;
    if (best != c.free.end()) {
      char* base = best->base;
      c.bytes -= best->size;
      c.free.erase(best);
      return base + header;
    }
  }
  char* base = static_cast<char*>(::operator new(bytes + header, alignment));
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  {
    // Ask for transparent huge pages over the block's whole 2 MiB pages.
    constexpr std::uintptr_t huge = std::uintptr_t{1} << 21;
    const auto from = (reinterpret_cast<std::uintptr_t>(base) + huge - 1) & ~(huge - 1);
    const auto to = (reinterpret_cast<std::uintptr_t>(base) + bytes + header) & ~(huge - 1);
    if (to > from) madvise(reinterpret_cast<void*>(from), to - from, MADV_HUGEPAGE);
  }
#endif
  *reinterpret_cast<std::size_t*>(base) = bytes;
  return base + header;
}

void deallocate(void* p, std::size_t bytes) noexcept {
  if (p == nullptr) return;
  if (bytes < min_cached_bytes) {
    ::operator delete(p, alignment);
    return;
  }
  char* base = static_cast<char*>(p) - header;
  const std::size_t size = *reinterpret_cast<std::size_t*>(base);
  Cache& c = cache();
  const std::lock_guard<std::mutex> lock(c.mutex);
  if (size > max_cached_bytes) {
    ::operator delete(base, alignment);
    return;
  }
  // Make room by dropping the largest kept blocks first (the rarest sizes).
  while (c.bytes + size > max_cached_bytes) {
    auto largest =
        std::max_element(c.free.begin(), c.free.end(), [](const Block& x, const Block& y) { return x.size < y.size; });
    c.bytes -= largest->size;
    ::operator delete(largest->base, alignment);
    c.free.erase(largest);
  }
  try {
    c.free.push_back({base, size});
    c.bytes += size;
  } catch (...) {
    ::operator delete(base, alignment);
  }
}

void release() noexcept {
  Cache& c = cache();
  const std::lock_guard<std::mutex> lock(c.mutex);
  c.release_all();
}

std::size_t cached_bytes() noexcept {
  Cache& c = cache();
  const std::lock_guard<std::mutex> lock(c.mutex);
  return c.bytes;
}

}  // namespace hitgrid::block_cache
