// The loops of the query kernels (ray_box.hpp, time_of_impact.hpp): full batches straight
// from the columns, the last partial batch from a zero-padded block; lanes the kernel
// leaves unsure are recomputed whole by the scalar twin (baseline code, out of line).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "hitgrid/simd/query_kernels.hpp"
#include "ray_box.hpp"
#include "time_of_impact.hpp"

namespace hitgrid::simd::kernels {

template <class A>
struct QueryDriver {
  static constexpr std::size_t width = Doubles<A>::size;

  /// Loads `columns` columns at i: straight if a full batch remains, else padded.
  template <int columns>
  static void load(const float* const (&cols)[columns], std::size_t i, std::size_t count,
                   Doubles<A> (&lanes)[columns]) {
    for (int k = 0; k < columns; ++k) {
      if (count == width) {
        lanes[k] = load_widened<A>(cols[k] + i);
      } else {
        alignas(64) float pad[width] = {};
        std::memcpy(pad, cols[k] + i, count * sizeof(float));
        lanes[k] = load_widened<A>(pad);
      }
    }
  }

  static void store(const Doubles<A>& v, double* out, std::size_t count) {
    if (count == width) return v.store_unaligned(out);
    alignas(64) double buf[width];
    v.store_aligned(buf);
    std::memcpy(out, buf, count * sizeof(double));
  }

  static std::uint32_t live_bits(std::uint32_t bits, std::size_t count) {
    return count >= 32 ? bits : bits & ((1u << count) - 1u);
  }

  [[gnu::flatten]] static void raycast(QueryKind kind, std::size_t n, const ShapeColumns& q, const ShapeColumns& b,
                                       const SlabOutput& out) {
    const float* const qc[4] = {q.g[0], q.g[1], q.g[2], q.g[3]};
    const float* const bc[4] = {b.g[0], b.g[1], b.g[2], b.g[3]};
    const bool segment = kind == QueryKind::segment;
    for (std::size_t i = 0; i < n; i += width) {
      const std::size_t count = n - i < width ? n - i : width;
      Doubles<A> ql[4], bl[4];
      load<4>(qc, i, count, ql);
      load<4>(bc, i, count, bl);
      const SlabLanes<A> r = slab_lanes<A>(segment, ql, bl);
      const std::uint32_t hit = mask_bits<A>(r.hit);
      for (std::size_t k = 0; k < count; ++k) out.hit[i + k] = static_cast<std::uint8_t>((hit >> k) & 1u);
      store(r.t_near, out.t_near + i, count);
      store(r.t_far, out.t_far + i, count);
      for (std::uint32_t u = live_bits(mask_bits<A>(r.unsure), count); u != 0; u &= u - 1)
        raycast_box_scalar(kind, q, b, i + static_cast<std::size_t>(__builtin_ctz(u)), out);
    }
  }

  [[gnu::flatten]] static void time_of_impact(std::size_t n, const MovingCircleColumns& c1,
                                              const MovingCircleColumns& c2, const ToiOutput& out) {
    const float* const ac[5] = {c1.cx, c1.cy, c1.r, c1.vx, c1.vy};
    const float* const bc[5] = {c2.cx, c2.cy, c2.r, c2.vx, c2.vy};
    for (std::size_t i = 0; i < n; i += width) {
      const std::size_t count = n - i < width ? n - i : width;
      Doubles<A> al[5], bl[5];
      load<5>(ac, i, count, al);
      load<5>(bc, i, count, bl);
      const ToiLanes<A> r = toi_lanes<A>(al, bl);
      alignas(64) double kinds[width];
      r.kind.store_aligned(kinds);
      for (std::size_t k = 0; k < count; ++k) out.kind[i + k] = static_cast<std::uint8_t>(kinds[k]);
      store(r.t, out.t + i, count);
      for (std::uint32_t u = live_bits(mask_bits<A>(r.unsure), count); u != 0; u &= u - 1)
        time_of_impact_scalar(c1, c2, i + static_cast<std::size_t>(__builtin_ctz(u)), out);
    }
  }
};

}  // namespace hitgrid::simd::kernels
