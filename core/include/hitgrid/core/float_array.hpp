// FloatArray: one float32 column of a structure-of-arrays scene.
//
// Storage is aligned to 64 bytes (one cache line, one AVX-512 register) and padded to a
// multiple of 16 floats, so that a SIMD kernel of any width can load whole registers up to
// padded_size() without a remainder loop. Padding lanes always hold 0.0f: a neutral value
// that can never make a NaN or divide by zero.
#pragma once

#include <cstddef>
#include <memory>

namespace hitgrid {

class FloatArray {
 public:
  static constexpr std::size_t alignment = 64;
  static constexpr std::size_t lane_multiple = alignment / sizeof(float);

  FloatArray() = default;
  explicit FloatArray(std::size_t n);
  FloatArray(const FloatArray& other);
  FloatArray& operator=(const FloatArray& other);
  FloatArray(FloatArray&& other) noexcept;
  FloatArray& operator=(FloatArray&& other) noexcept;
  ~FloatArray() = default;

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  /// size() rounded up to a multiple of lane_multiple; lanes past size() read 0.0f.
  std::size_t padded_size() const { return (size_ + lane_multiple - 1) / lane_multiple * lane_multiple; }

  float* data() { return data_.get(); }
  const float* data() const { return data_.get(); }
  float& operator[](std::size_t i) { return data_[i]; }
  float operator[](std::size_t i) const { return data_[i]; }
  const float* begin() const { return data_.get(); }
  const float* end() const { return data_.get() + size_; }

  void reserve(std::size_t n);
  /// New elements are 0.0f.
  void resize(std::size_t n);
  void push_back(float v) {
    if (size_ == capacity_) grow(size_ + 1);
    data_[size_++] = v;
  }
  void clear();

  friend bool operator==(const FloatArray& a, const FloatArray& b);

 private:
  struct AlignedFree {
    void operator()(float* p) const;
  };
  void grow(std::size_t min_capacity);
  void reallocate(std::size_t capacity);

  std::unique_ptr<float[], AlignedFree> data_;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;  // always a multiple of lane_multiple; [size_, capacity_) is 0.0f
};

}  // namespace hitgrid
