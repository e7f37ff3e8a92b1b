// Batched query math: segment / ray against box (slab method: hit, entry and exit times)
// and swept circle against swept circle (time of impact), n independent lanes at a time.
//
// Contract: every output equals its scalar twin in core, bit for bit, on every ISA:
//   raycast_boxes         hit, t_near, t_far of raycast(Segment|Ray, Box) (ray_box.hpp)
//   time_of_impact_batch  kind and t of time_of_impact(...)              (time_of_impact.hpp)
// The lanes compute the rounded values with the very operations, in the same order, as
// the scalar code (no FMA, divisions and square roots are correctly rounded everywhere),
// and every lane whose exact decision (hit, kind) or whose value's accuracy test the
// floating-point filter cannot settle is handed to the scalar function itself.
// Columns need no alignment and n is any size; the ISA must be concrete and supported
// (hitgrid::Error otherwise), as for test_pairs.
#pragma once

#include <cstddef>
#include <cstdint>

#include "hitgrid/simd/isa.hpp"
#include "hitgrid/simd/pair_kernels.hpp"

namespace hitgrid::simd {

enum class QueryKind : std::uint8_t {
  segment,  // columns a.x, a.y, b.x, b.y; t in [0, 1]
  ray,      // columns origin.x, origin.y, direction.x, direction.y; t in [0, +inf)
};

/// Outputs of raycast_boxes, n entries each: RayHit::hit (0/1), t_near, t_far (0 if no hit).
struct SlabOutput {
  std::uint8_t* hit;
  double* t_near;
  double* t_far;
};

void raycast_boxes(Isa isa, QueryKind kind, std::size_t n, ShapeColumns queries, ShapeColumns boxes, SlabOutput out);

/// n moving circles as columns: centre, radius, velocity.
struct MovingCircleColumns {
  const float* cx;
  const float* cy;
  const float* r;
  const float* vx;
  const float* vy;
};

/// Outputs of time_of_impact_batch: the ToiKind (as its underlying value) and t.
struct ToiOutput {
  std::uint8_t* kind;
  double* t;
};

void time_of_impact_batch(Isa isa, std::size_t n, MovingCircleColumns c1, MovingCircleColumns c2, ToiOutput out);

/// The scalar twins of one lane (core's raycast and time_of_impact), also the cold path.
void raycast_box_scalar(QueryKind kind, const ShapeColumns& queries, const ShapeColumns& boxes, std::size_t i,
                        const SlabOutput& out);
void time_of_impact_scalar(const MovingCircleColumns& c1, const MovingCircleColumns& c2, std::size_t i,
                           const ToiOutput& out);

}  // namespace hitgrid::simd
