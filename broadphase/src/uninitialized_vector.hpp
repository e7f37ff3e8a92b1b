// A std::vector whose resize() leaves trivially copyable elements uninitialized.
//
// The grid's large buffers (tens of megabytes per million shapes) are always written in
// full before they are read; std::vector's resize would first fill them with zeros, a
// pass over memory for nothing. That includes elements such as Aabb whose
// members have default initializers: those are still trivially copyable and destructible
// (implicit-lifetime types, C++20 [intro.object]), so the allocation itself creates them.
// Their storage comes from allocate_block (block_cache.hpp): a PairFinder keeps large
// blocks between calls.
#pragma once

#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include "block_cache.hpp"

namespace hitgrid {

template <class T>
struct DefaultInitAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  DefaultInitAllocator() = default;
  template <class U>
  DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) {
    if (n > std::size_t(-1) / sizeof(T)) throw std::bad_array_new_length();
    return static_cast<T*>(allocate_block(n * sizeof(T)));
  }
  void deallocate(T* p, std::size_t n) noexcept { deallocate_block(p, n * sizeof(T)); }

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

}  // namespace hitgrid
