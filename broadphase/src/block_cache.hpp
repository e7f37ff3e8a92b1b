// Large scratch blocks kept between find_pairs calls.
//
// A call needs tens of megabytes of scratch per million shapes. Fresh memory from the OS
// costs far more than the work done on it (first touch measured at 0.55 ms per MB on the
// development VM, rewriting 0.04 ms per MB), and glibc maps such blocks fresh on every
// call (above its mmap threshold) or trims them away between calls, so an engine that
// rebuilds every frame would pay the page faults every frame (uniform 1M, one thread:
// 81 ms a call instead of 45). Blocks of at least min_cached_bytes are therefore kept
// when freed, up to max_cached_bytes in all, and handed out again to requests of up to
// their size (and at least half of it). On Linux new blocks ask for transparent huge
// pages (madvise): the grid streams through several such buffers at once, a thousand
// rows apart, and with 4 KiB pages that missed the TLB (uniform 1M, one thread: about
// 0.8 ms of 32 a call).
#pragma once

#include <cstddef>

namespace hitgrid::block_cache {

inline constexpr std::size_t min_cached_bytes = std::size_t{1} << 20;
inline constexpr std::size_t max_cached_bytes = std::size_t{512} << 20;

/// bytes of storage aligned for any type (64 bytes); throws std::bad_alloc.
void* allocate(std::size_t bytes);
/// Frees (or keeps) a block from allocate; `bytes` as requested.
void deallocate(void* p, std::size_t bytes) noexcept;
/// Returns every kept block to the system.
void release() noexcept;
/// Bytes kept now.
std::size_t cached_bytes() noexcept;

}  // namespace hitgrid::block_cache
