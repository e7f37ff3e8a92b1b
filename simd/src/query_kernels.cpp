// raycast_boxes / time_of_impact_batch: run-time dispatch on Isa, and the scalar twins
// (core's raycast and time_of_impact), which are also the kernels' cold path. Baseline flags.
#include "hitgrid/simd/query_kernels.hpp"

#include "hitgrid/core/ray_box.hpp"
#include "hitgrid/core/time_of_impact.hpp"
#ifdef HITGRID_X86_KERNELS
#include "query_kernels_impl.hpp"
#endif

namespace hitgrid::simd {

void raycast_box_scalar(QueryKind kind, const ShapeColumns& q, const ShapeColumns& b, std::size_t i,
                        const SlabOutput& out) {
  const Box box{{b.g[0][i], b.g[1][i]}, {b.g[2][i], b.g[3][i]}};
  const Vec2 p{q.g[0][i], q.g[1][i]}, d{q.g[2][i], q.g[3][i]};
  const RayHit r = kind == QueryKind::segment ? raycast(Segment{p, d}, box) : raycast(Ray{p, d}, box);
  out.hit[i] = r.hit ? 1 : 0;
  out.t_near[i] = r.t_near;
  out.t_far[i] = r.t_far;
}

void time_of_impact_scalar(const MovingCircleColumns& c1, const MovingCircleColumns& c2, std::size_t i,
                           const ToiOutput& out) {
  const TimeOfImpact r = time_of_impact(Circle{{c1.cx[i], c1.cy[i]}, c1.r[i]}, Vec2{c1.vx[i], c1.vy[i]},
                                        Circle{{c2.cx[i], c2.cy[i]}, c2.r[i]}, Vec2{c2.vx[i], c2.vy[i]});
  out.kind[i] = static_cast<std::uint8_t>(r.kind);
  out.t[i] = r.t;
}

void raycast_boxes(Isa isa, QueryKind kind, std::size_t n, ShapeColumns queries, ShapeColumns boxes, SlabOutput out) {
  require_concrete_isa(isa, "raycast_boxes");
#ifdef HITGRID_X86_KERNELS
  switch (isa) {
    case Isa::sse2:
      return QueryKernels{}.raycast(Sse2Arch{}, kind, n, queries, boxes, out);
    case Isa::avx2:
      return QueryKernels{}.raycast(Avx2Arch{}, kind, n, queries, boxes, out);
    case Isa::avx512:
      return QueryKernels{}.raycast(Avx512Arch{}, kind, n, queries, boxes, out);
    case Isa::automatic:
    case Isa::scalar:
      break;
  }
#endif
  for (std::size_t i = 0; i < n; ++i) raycast_box_scalar(kind, queries, boxes, i, out);
}

void time_of_impact_batch(Isa isa, std::size_t n, MovingCircleColumns c1, MovingCircleColumns c2, ToiOutput out) {
  require_concrete_isa(isa, "time_of_impact_batch");
#ifdef HITGRID_X86_KERNELS
  switch (isa) {
    case Isa::sse2:
      return QueryKernels{}.time_of_impact(Sse2Arch{}, n, c1, c2, out);
    case Isa::avx2:
      return QueryKernels{}.time_of_impact(Avx2Arch{}, n, c1, c2, out);
    case Isa::avx512:
      return QueryKernels{}.time_of_impact(Avx512Arch{}, n, c1, c2, out);
    case Isa::automatic:
    case Isa::scalar:
      break;
  }
#endif
  for (std::size_t i = 0; i < n; ++i) time_of_impact_scalar(c1, c2, i, out);
}

}  // namespace hitgrid::simd
