#include "hitgrid/core/float_array.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

namespace hitgrid {

void FloatArray::AlignedFree::operator()(float* p) const { std::free(p); }

FloatArray::FloatArray(std::size_t n) { resize(n); }

FloatArray::FloatArray(const FloatArray& other) { *this = other; }

FloatArray& FloatArray::operator=(const FloatArray& other) {
  if (this == &other) return *this;
  clear();
  reserve(other.size_);
  if (other.size_ != 0) std::memcpy(data_.get(), other.data_.get(), other.size_ * sizeof(float));
  size_ = other.size_;
  return *this;
}

FloatArray::FloatArray(FloatArray&& other) noexcept
    : data_(std::move(other.data_)), size_(other.size_), capacity_(other.capacity_) {
  other.size_ = other.capacity_ = 0;
}

FloatArray& FloatArray::operator=(FloatArray&& other) noexcept {
  data_ = std::move(other.data_);
  size_ = other.size_;
  capacity_ = other.capacity_;
  other.size_ = other.capacity_ = 0;
  return *this;
}

void FloatArray::reallocate(std::size_t capacity) {
  capacity = (capacity + lane_multiple - 1) / lane_multiple * lane_multiple;
  auto* p = static_cast<float*>(std::aligned_alloc(alignment, capacity * sizeof(float)));
  if (p == nullptr) throw std::bad_alloc();
  if (size_ != 0) std::memcpy(p, data_.get(), size_ * sizeof(float));
  std::fill(p + size_, p + capacity, 0.0f);
  data_.reset(p);
  capacity_ = capacity;
}

void FloatArray::grow(std::size_t min_capacity) {
  reallocate(std::max({min_capacity, capacity_ * 2, lane_multiple}));
}

void FloatArray::reserve(std::size_t n) {
  if (n > capacity_) reallocate(n);
}

void FloatArray::resize(std::size_t n) {
  if (n > capacity_) reallocate(n);
  // Keep the invariant that everything past size_ is zero.
  if (n < size_) std::fill(data_.get() + n, data_.get() + size_, 0.0f);
  size_ = n;
}

void FloatArray::clear() { resize(0); }

bool operator==(const FloatArray& a, const FloatArray& b) {
  // Bitwise: two scenes are the same scene only if every float has the same bits
  // (0.0 vs -0.0 and NaN payloads matter to file round trips).
  return a.size_ == b.size_ && (a.size_ == 0 || std::memcmp(a.data(), b.data(), a.size_ * sizeof(float)) == 0);
}

}  // namespace hitgrid
