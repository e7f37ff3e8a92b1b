// Scene: the shapes of one query, stored as structure of arrays.
//
// Each kind has its own columns (FloatArray: 64-byte aligned, zero padded) and its own id
// space counted from 0 in insertion order, which is also file order. Every shape is
// validated when it enters: coordinates finite, radius >= 0, box min <= max. A scene never
// holds an invalid shape, so no later stage has to check.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>

#include "hitgrid/core/aabb.hpp"
#include "hitgrid/core/float_array.hpp"
#include "hitgrid/core/shape_id.hpp"
#include "hitgrid/core/shapes.hpp"

namespace hitgrid {

struct SegmentArrays {
  FloatArray ax, ay, bx, by;
  std::size_t size() const { return ax.size(); }
  friend bool operator==(const SegmentArrays&, const SegmentArrays&) = default;
};

struct CircleArrays {
  FloatArray cx, cy, r;
  std::size_t size() const { return cx.size(); }
  friend bool operator==(const CircleArrays&, const CircleArrays&) = default;
};

struct BoxArrays {
  FloatArray minx, miny, maxx, maxy;
  std::size_t size() const { return minx.size(); }
  friend bool operator==(const BoxArrays&, const BoxArrays&) = default;
};

/// Shapes of one kind as rows of floats, as other languages hand them over (a C array of
/// structs, a NumPy array): row i, field j is data[i * row_stride + j * column_stride],
/// strides counted in floats. A segment's fields are ax ay bx by, a circle's cx cy r, a
/// box's minx miny maxx maxy. count == 0 needs no data.
struct ShapeRows {
  const float* data = nullptr;
  std::size_t count = 0;
  std::ptrdiff_t row_stride = 0;
  std::ptrdiff_t column_stride = 1;
};

/// Why a shape is invalid, or nothing if it is valid.
std::optional<std::string> invalid_reason(const Segment& s);
std::optional<std::string> invalid_reason(const Circle& c);
std::optional<std::string> invalid_reason(const Box& b);

class Scene {
 public:
  /// Append a shape and return its id. Throws InvalidShapeError (naming the id the shape
  /// would have had) if the shape is invalid, or hitgrid::Error if the kind already holds
  /// ShapeId::max_count shapes; the scene is unchanged then.
  ShapeId add(const Segment& s);
  ShapeId add(const Circle& c);
  ShapeId add(const Box& b);

  /// Replace shape i of the kind with another (i < count of the kind). Throws
  /// InvalidShapeError naming the id if the shape is invalid; the scene is unchanged then.
  /// bounds() grows to hold the new shape and does not shrink (recompute_bounds()).
  void set(std::uint32_t i, const Segment& s);
  void set(std::uint32_t i, const Circle& c);
  void set(std::uint32_t i, const Box& b);
  /// set() without growing bounds(), which may then miss shape i until
  /// recompute_bounds(): for a caller that replaces many shapes and recomputes the bounds
  /// before reading them (the World). Calls on distinct shapes may run concurrently.
  void replace(std::uint32_t i, const Segment& s);
  void replace(std::uint32_t i, const Circle& c);
  void replace(std::uint32_t i, const Box& b);
  /// Remove shape i of the kind by moving the kind's last shape into its place (that
  /// shape's id becomes i; no other id changes). bounds() does not shrink.
  void swap_remove(ShapeKind kind, std::uint32_t i);
  /// bounds() recomputed from the shapes: exact again after set() and swap_remove().
  void recompute_bounds();
  /// Replaces every shape with the rows given (ids from 0 in row order per kind), keeping
  /// the columns' memory: a scene refilled call after call allocates nothing once it is
  /// large enough. Every row is checked before anything changes: throws InvalidShapeError
  /// naming the first invalid shape's id (kinds in order s, c, b), or hitgrid::Error for
  /// more than ShapeId::max_count rows of a kind; the scene is unchanged then. bounds()
  /// is exact afterwards. The rows are read in chunks of 65,536; for_ranges, when given,
  /// runs body(begin, end) over sub-ranges covering [0, n) of the chunks, possibly on
  /// several threads at once (core has no threads of its own: the caller's pool does it).
  using ForRanges = std::function<void(std::size_t n, const std::function<void(std::size_t, std::size_t)>& body)>;
  void assign(const ShapeRows& segments, const ShapeRows& circles, const ShapeRows& boxes,
              const ForRanges& for_ranges = nullptr);
  void reserve(std::size_t segments, std::size_t circles, std::size_t boxes);
  /// Removes every shape; the columns keep their memory, as std::vector::clear does.
  void clear();

  std::size_t segment_count() const { return segments_.size(); }
  std::size_t circle_count() const { return circles_.size(); }
  std::size_t box_count() const { return boxes_.size(); }
  std::size_t count(ShapeKind kind) const;
  std::size_t size() const { return segment_count() + circle_count() + box_count(); }
  bool empty() const { return size() == 0; }

  Segment segment(std::uint32_t i) const {
    return {{segments_.ax[i], segments_.ay[i]}, {segments_.bx[i], segments_.by[i]}};
  }
  Circle circle(std::uint32_t i) const { return {{circles_.cx[i], circles_.cy[i]}, circles_.r[i]}; }
  Box box(std::uint32_t i) const { return {{boxes_.minx[i], boxes_.miny[i]}, {boxes_.maxx[i], boxes_.maxy[i]}}; }

  /// The union of the shapes' bounds (aabb.hpp), kept up to date by add(): broad phases
  /// need it first and should not pay a pass over every shape for it. Empty scene: min
  /// +infinity, max -infinity.
  const Aabb& bounds() const { return bounds_; }

  const SegmentArrays& segments() const { return segments_; }
  const CircleArrays& circles() const { return circles_; }
  const BoxArrays& boxes() const { return boxes_; }

  /// Bitwise equality of all columns.
  friend bool operator==(const Scene&, const Scene&) = default;

 private:
  SegmentArrays segments_;
  CircleArrays circles_;
  BoxArrays boxes_;
  Aabb bounds_ = empty_bounds();

  static constexpr Aabb empty_bounds() {
    constexpr float inf = std::numeric_limits<float>::infinity();
    return {{inf, inf}, {-inf, -inf}};
  }
  /// `into` grown to hold b.
  static void extend(Aabb& into, const Aabb& b) {
    into.min.x = std::min(into.min.x, b.min.x);
    into.min.y = std::min(into.min.y, b.min.y);
    into.max.x = std::max(into.max.x, b.max.x);
    into.max.y = std::max(into.max.y, b.max.y);
  }
  void extend(const Aabb& b) { extend(bounds_, b); }
};

/// A fingerprint of the scene: the 64-bit FNV-1a hash of its bits (counts, then every
/// column in kind order; docs/formats.md). Two scenes with the same hash hold the same
/// shapes bit for bit, whatever machine made them (the tests pin it for the generators and
/// the readers; pair_list_hash is its twin for pair lists).
std::uint64_t scene_hash(const Scene& scene);

}  // namespace hitgrid
