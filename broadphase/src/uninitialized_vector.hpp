// Vectors whose storage comes from allocate_block (block_cache.hpp): a PairFinder (and a
// World) keeps the blocks between calls, so a call after the first few allocates nothing.
// CachedVector is a std::vector in every other way; UninitializedVector's resize() also
// leaves trivially copyable elements uninitialized; make_cached is std::make_unique's
// twin.
//
// The grid's large buffers (tens of megabytes per million shapes) are always written in
// full before they are read; std::vector's resize would first fill them with zeros, a
// pass over memory for nothing. That includes elements such as Aabb whose
// members have default initializers: those are still trivially copyable and destructible
// (implicit-lifetime types, C++20 [intro.object]), so the allocation itself creates them.
#pragma once

#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include "block_cache.hpp"

namespace hitgrid {

template <class T>
struct CachedAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = CachedAllocator<U>;
  };
  CachedAllocator() = default;
  template <class U>
  CachedAllocator(const CachedAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) {
    if (n > std::size_t(-1) / sizeof(T)) throw std::bad_array_new_length();
    static_assert(alignof(T) <= 64, "allocate_block aligns to 64 bytes");
    return static_cast<T*>(allocate_block(n * sizeof(T)));
  }
  void deallocate(T* p, std::size_t n) noexcept { deallocate_block(p, n * sizeof(T)); }
};

template <class T>
using CachedVector = std::vector<T, CachedAllocator<T>>;

template <class T>
struct DefaultInitAllocator : CachedAllocator<T> {
  template <class U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  DefaultInitAllocator() = default;
  template <class U>
  DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}

  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    if constexpr (!(std::is_trivially_copyable_v<U> && std::is_trivially_destructible_v<U>))
      ::new (static_cast<void*>(p)) U;  // default-initialization: no zeroing for trivial U
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

template <class T>
using UninitializedVector = std::vector<T, DefaultInitAllocator<T>>;

/// Destroys an object made by make_cached and gives its block back.
template <class T>
struct CachedDelete {
  void operator()(T* p) const noexcept {
    p->~T();
    deallocate_block(p, sizeof(T));
  }
};
template <class T>
using CachedPtr = std::unique_ptr<T, CachedDelete<T>>;

/// std::make_unique's twin: the object lives in a block from allocate_block.
template <class T, class... Args>
CachedPtr<T> make_cached(Args&&... args) {
  static_assert(alignof(T) <= 64, "allocate_block aligns to 64 bytes");
  void* p = allocate_block(sizeof(T));
  try {
    return CachedPtr<T>(::new (p) T(std::forward<Args>(args)...));
  } catch (...) {
    deallocate_block(p, sizeof(T));
    throw;
  }
}

}  // namespace hitgrid
