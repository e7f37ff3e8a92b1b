#include "key_chunk_pool.hpp"

#include <new>

#include "block_cache.hpp"

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace hitgrid {
namespace {

constexpr std::align_val_t alignment{64};
/// Chunks per slab: 4 MiB mapped at a time keeps the mappings few however many chunks.
constexpr std::size_t slab_chunks = 64;

KeyChunkPool*& owner_of(char* base) { return *reinterpret_cast<KeyChunkPool**>(base); }
std::uint64_t* keys_of(char* base) { return reinterpret_cast<std::uint64_t*>(base + KeyChunkPool::header_bytes); }

/// Gives a chunk's pages back to the system; its contents are lost, its address stays.
void drop_pages(char* base) noexcept {
#if defined(__linux__)
  madvise(base, KeyChunkPool::chunk_bytes, MADV_DONTNEED);
#else
  (void)base;
#endif
}

}  // namespace

KeyChunkPool::~KeyChunkPool() {
  for (char* slab : slabs_) {
#if defined(__linux__)
    munmap(slab, slab_chunks * chunk_bytes);
#else
    ::operator delete(slab, alignment);
#endif
  }
}

void KeyChunkPool::add_slab() {
  const std::size_t bytes = slab_chunks * chunk_bytes;
#if defined(__linux__)
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  char* slab = static_cast<char*>(p);
#if defined(MADV_HUGEPAGE)
  madvise(slab, bytes, MADV_HUGEPAGE);
#endif
#else
  char* slab = static_cast<char*>(::operator new(bytes, alignment));
#endif
  try {
    // Room in both lists for every chunk of every slab: give_back never allocates.
    const std::size_t chunks = (slabs_.size() + 1) * slab_chunks;
    slabs_.reserve(slabs_.size() + 1);
    resident_.reserve(chunks);
    returned_.reserve(chunks);
  } catch (...) {
#if defined(__linux__)
    munmap(slab, bytes);
#else
    ::operator delete(slab, alignment);
#endif
    throw;
  }
  slabs_.push_back(slab);
  for (std::size_t c = slab_chunks; c-- > 0;) returned_.push_back(slab + c * chunk_bytes);
}

char* KeyChunkPool::take() {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (!resident_.empty()) {
    char* base = resident_.back();
    resident_.pop_back();
    return base;
  }
  if (returned_.empty()) add_slab();
  char* base = returned_.back();
  returned_.pop_back();
  return base;
}

void KeyChunkPool::give_back(char* base) noexcept {
  const std::lock_guard<std::mutex> lock(mutex_);
  if ((resident_.size() + 1) * chunk_bytes <= max_resident_) {
    resident_.push_back(base);
    return;
  }
  drop_pages(base);
  returned_.push_back(base);
}

void KeyChunkPool::release() noexcept {
  const std::lock_guard<std::mutex> lock(mutex_);
  for (char* base : resident_) {
    drop_pages(base);
    returned_.push_back(base);
  }
  resident_.clear();
}

std::size_t KeyChunkPool::resident_bytes() const noexcept {
  const std::lock_guard<std::mutex> lock(mutex_);
  return resident_.size() * chunk_bytes;
}

std::uint64_t* allocate_key_chunk() {
  const std::shared_ptr<BlockCache> cache = BlockCache::current();
  KeyChunkPool* pool = cache ? &cache->key_chunks() : nullptr;
  char* base = pool ? pool->take() : static_cast<char*>(::operator new(KeyChunkPool::chunk_bytes, alignment));
  owner_of(base) = pool;
  return keys_of(base);
}

void deallocate_key_chunk(std::uint64_t* keys) noexcept {
  if (keys == nullptr) return;
  char* base = reinterpret_cast<char*>(keys) - KeyChunkPool::header_bytes;
  KeyChunkPool* pool = owner_of(base);
  if (pool)
    pool->give_back(base);
  else
    ::operator delete(base, alignment);
}

}  // namespace hitgrid
