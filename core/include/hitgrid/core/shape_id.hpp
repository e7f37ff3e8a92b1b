// ShapeId and Pair: compact, totally ordered names for shapes and colliding pairs.
//
// A ShapeId packs the kind into the top two bits of a 32-bit word and the index (counted
// per kind from 0) into the low 30 bits, so that comparing the words compares (kind, index)
// in the order of the pair format (s < c < b, then id). A Pair packs two ids into 64 bits
// with the lower id first, so that sorting pairs sorts them in output order.
#pragma once

#include <compare>
#include <cstdint>
#include <vector>

#include "hitgrid/core/shapes.hpp"

namespace hitgrid {

class ShapeId {
 public:
  /// Largest number of shapes of one kind a scene may hold (ids are 30-bit).
  static constexpr std::uint32_t max_count = 1u << 30;

  constexpr ShapeId() = default;
  constexpr ShapeId(ShapeKind kind, std::uint32_t index)
      : bits_((static_cast<std::uint32_t>(kind) << 30) | (index & (max_count - 1))) {}

  constexpr ShapeKind kind() const { return static_cast<ShapeKind>(bits_ >> 30); }
  constexpr std::uint32_t index() const { return bits_ & (max_count - 1); }
  constexpr std::uint32_t bits() const { return bits_; }
  static constexpr ShapeId from_bits(std::uint32_t bits) {
    ShapeId id;
    id.bits_ = bits;
    return id;
  }

  friend constexpr auto operator<=>(ShapeId, ShapeId) = default;

 private:
  std::uint32_t bits_ = 0;
};

class Pair {
 public:
  constexpr Pair() = default;
  /// Orders the two ids so that first() < second(); the ids must differ.
  constexpr Pair(ShapeId a, ShapeId b)
      : key_(a < b ? (std::uint64_t{a.bits()} << 32) | b.bits() : (std::uint64_t{b.bits()} << 32) | a.bits()) {}

  constexpr ShapeId first() const { return ShapeId::from_bits(static_cast<std::uint32_t>(key_ >> 32)); }
  constexpr ShapeId second() const { return ShapeId::from_bits(static_cast<std::uint32_t>(key_)); }
  constexpr std::uint64_t key() const { return key_; }
  static constexpr Pair from_key(std::uint64_t key) {
    Pair p;
    p.key_ = key;
    return p;
  }

  friend constexpr auto operator<=>(Pair, Pair) = default;

 private:
  std::uint64_t key_ = 0;
};

static_assert(sizeof(ShapeId) == 4 && sizeof(Pair) == 8, "ids and pairs are packed words");

/// A list of colliding pairs; the broad phases return it sorted and free of duplicates.
using PairList = std::vector<Pair>;

}  // namespace hitgrid
