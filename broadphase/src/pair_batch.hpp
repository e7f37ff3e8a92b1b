// Candidate pairs waiting for their exact test, gathered per pair kind into columns, so
// that the SIMD kernels (simd/pair_kernels.hpp) test them a full batch at a time instead
// of one call (and one unpredictable branch) per pair.
#pragma once

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "hitgrid/simd/pair_kernels.hpp"
#include "packed_shapes.hpp"
#include "pair_keys.hpp"

namespace hitgrid {

/// What the exact tests of a pass need: the ISA they run on (concrete), the kinds of the
/// global indices and how a pair of them becomes a key; and which keys the pass keeps
/// (band: the others are not even tested) and whether it keeps them or only counts them
/// (counts, if not null).
struct PairTestContext {
  Isa isa;
  KindRanges kinds;
  PairKeyCodec codec;
  KeyRange band{};
  KeyCounts* counts = nullptr;
};

class PairBatch {
 public:
  static constexpr std::uint32_t capacity = 256;

  /// Pairs found are appended to `pairs` as keys (or counted, c.counts). `isa` must be
  /// concrete (resolve_isa).
  explicit PairBatch(const PairTestContext& c)
      : isa_(c.isa), kinds_(c.kinds), codec_(c.codec), band_(c.band), banded_(!c.band.all()), counts_(c.counts) {}

  /// Queues the pair of global indices a and b (any order) with their packed geometry
  /// (if its key is in the band).
  void add(std::uint32_t a, const float* ga, std::uint32_t b, const float* gb, PairKeys& pairs) {
    // Global order is kind order: the kernels take the smaller kind first. (Selects, not a
    // branch: in cell order the two indices come in random order.)
    const bool swap = b < a;
    const std::uint32_t lo = swap ? b : a, hi = swap ? a : b;
    // (The pointers by masks: with a ternary, g++ 12 branches.)
    const auto pa = reinterpret_cast<std::uintptr_t>(ga), pb = reinterpret_cast<std::uintptr_t>(gb);
    const std::uintptr_t m = std::uintptr_t{0} - swap, both = pa ^ pb;
    const auto* glo = reinterpret_cast<const float*>(pa ^ (both & m));
    const auto* ghi = reinterpret_cast<const float*>(pb ^ (both & m));
    if (banded_ && !band_.contains(codec_.key(lo, hi))) return;
    a = lo;
    b = hi;
    ga = glo;
    gb = ghi;
    const auto kind = static_cast<std::size_t>(pair_kind(kinds_.kind(a), kinds_.kind(b)));
    Queue& q = queues_[kind];
    const std::uint32_t n = q.size;
    q.a[n] = a;
    q.b[n] = b;
    for (int k = 0; k < 4; ++k) {
      q.ga[k][n] = ga[k];
      q.gb[k][n] = gb[k];
    }
    if (++q.size == capacity) run(kind, pairs);
  }

  /// Tests everything queued.
  void flush(PairKeys& pairs) {
    for (std::size_t kind = 0; kind < queues_.size(); ++kind)
      if (queues_[kind].size != 0) run(kind, pairs);
  }

  std::uint64_t tested() const { return tested_; }

 private:
  struct Queue {
    std::uint32_t size = 0;
    std::uint32_t a[capacity]{}, b[capacity]{};
    float ga[4][capacity]{}, gb[4][capacity]{};
    std::uint8_t hit[capacity]{};
  };

  static simd::PairKind pair_kind(ShapeKind a, ShapeKind b) {
    using simd::PairKind;
    if (a == ShapeKind::segment)
      return b == ShapeKind::segment ? PairKind::segment_segment
                                     : (b == ShapeKind::circle ? PairKind::segment_circle : PairKind::segment_box);
    if (a == ShapeKind::circle) return b == ShapeKind::circle ? PairKind::circle_circle : PairKind::circle_box;
    return PairKind::box_box;
  }

  // Out of line: inlined into add(), g++ 12 keeps the queues' column addresses that run()
  // needs on the stack, stored again for every pair added.
  [[gnu::noinline]] void run(std::size_t kind, PairKeys& pairs) {
    Queue& q = queues_[kind];
    const std::uint32_t n = q.size;
    simd::test_pairs(isa_, static_cast<simd::PairKind>(kind), n, {{q.ga[0], q.ga[1], q.ga[2], q.ga[3]}},
                     {{q.gb[0], q.gb[1], q.gb[2], q.gb[3]}}, q.hit);
    // Gather without branching on the answers (about a third of candidates intersect).
    std::size_t found = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
      found_[found] = codec_.key(q.a[i], q.b[i]);
      found += q.hit[i];
    }
    if (counts_)
      counts_->add(found_, found);
    else
      pairs.append(found_, found);
    tested_ += n;
    q.size = 0;
  }

  Isa isa_;
  KindRanges kinds_;
  PairKeyCodec codec_;
  KeyRange band_;
  bool banded_;
  KeyCounts* counts_;
  std::array<Queue, 6> queues_;
  std::uint64_t found_[capacity];
  std::uint64_t tested_ = 0;
};

}  // namespace hitgrid
