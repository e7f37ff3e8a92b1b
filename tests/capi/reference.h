/* The C++ API doing what test_world.c does through the C API, so that the C test can
 * compare the two answer for answer (reference.cpp). Handles are ShapeHandle::bits(); pair
 * lists come back as a, b, a, b, ...; every function returns how many it wrote, at most
 * `capacity` items. */
#ifndef HITGRID_TEST_REFERENCE_H
#define HITGRID_TEST_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

#include "hitgrid.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct reference_world reference_world;
enum { REFERENCE_PAIRS = 0, REFERENCE_BEGINS = 1, REFERENCE_ENDS = 2 };

reference_world* reference_new(unsigned threads);
void reference_free(reference_world* world);
uint64_t reference_create(reference_world* world, const hitgrid_shape_def* def);
void reference_destroy(reference_world* world, uint64_t handle);
void reference_move(reference_world* world, uint64_t handle, const hitgrid_shape* shape);
void reference_set_filter(reference_world* world, uint64_t handle, uint64_t category, uint64_t mask);
void reference_set_body(reference_world* world, uint64_t handle, int is_static);
void reference_set_displacement(reference_world* world, uint64_t handle, float dx, float dy);
void reference_step(reference_world* world);
size_t reference_list(reference_world* world, int list, uint64_t* out, size_t capacity);
/* moving, other, kind, t bits (the double's bytes as a uint64), per impact. */
size_t reference_impacts(reference_world* world, uint64_t* out, size_t capacity);
size_t reference_query(reference_world* world, const hitgrid_shape* shape, uint64_t mask, uint64_t* out,
                       size_t capacity);
size_t reference_cast(reference_world* world, const hitgrid_segment* cast, uint64_t mask, hitgrid_cast_hit* out,
                      size_t capacity);
size_t reference_cast_ray(reference_world* world, const hitgrid_ray* ray, uint64_t mask, hitgrid_cast_hit* out,
                          size_t capacity);
/* hitgrid::find_pairs on the same arrays, pair keys. */
size_t reference_find_pairs(const hitgrid_shape_arrays* shapes, uint64_t* out, size_t capacity);

/* A hitgrid::Rope doing what test_rope.c does through the C API. Nodes come back in the C
 * layout, filled here from RopeNode independently of capi/src. The moves return 1 if the
 * C++ call succeeded, 0 if it threw hitgrid::Error (the rope unchanged). */
typedef struct reference_rope reference_rope;
reference_rope* reference_rope_new(float start_x, float start_y, const float* pegs, size_t peg_count);
/* Pegs of the shapes (hitgrid::Rope(start, Scene)); NULL if the C++ constructor throws. */
reference_rope* reference_rope_from_shapes(float start_x, float start_y, const hitgrid_shape_arrays* shapes);
void reference_rope_free(reference_rope* rope);
int reference_rope_move_end(reference_rope* rope, float x, float y);
int reference_rope_move_start(reference_rope* rope, float x, float y);
int reference_rope_move_peg(reference_rope* rope, uint32_t peg, float x, float y);
size_t reference_rope_nodes(const reference_rope* rope, hitgrid_rope_node* out, size_t capacity);
double reference_rope_length(const reference_rope* rope);
void reference_rope_end(const reference_rope* rope, float* x, float* y);

#ifdef __cplusplus
}
#endif

#endif
