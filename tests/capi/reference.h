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

#ifdef __cplusplus
}
#endif

#endif
