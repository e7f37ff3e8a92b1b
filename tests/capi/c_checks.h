/* What the C tests of the C API share: pass and fail counts with the checks that keep
 * them, and a SplitMix64 stream for their random inputs (a test may set rng_state first).
 * Each test is a program of its own, so the statics are its own. */
#ifndef HITGRID_TESTS_CAPI_C_CHECKS_H
#define HITGRID_TESTS_CAPI_C_CHECKS_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "hitgrid.h"

static int passed, failed;

#define CHECK(cond)                                                     \
  do {                                                                  \
    if (cond) {                                                         \
      ++passed;                                                         \
    } else {                                                            \
      ++failed;                                                         \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                   \
  } while (0)

/* A call that must succeed; on failure says why. */
#define OK(call)                                                                              \
  do {                                                                                        \
    hitgrid_status s_ = (call);                                                               \
    if (s_ == HITGRID_OK) {                                                                   \
      ++passed;                                                                               \
    } else {                                                                                  \
      ++failed;                                                                               \
      fprintf(stderr, "%s:%d: %s: %s (%s)\n", __FILE__, __LINE__, #call, hitgrid_status_name(s_), \
              hitgrid_last_error());                                                          \
    }                                                                                         \
  } while (0)

/* A call that must fail with `status` and a message containing `text`. */
#define REFUSED(call, status, text)                                                                  \
  do {                                                                                               \
    hitgrid_status s_ = (call);                                                                      \
    if (s_ == (status) && strstr(hitgrid_last_error(), (text)) != NULL) {                            \
      ++passed;                                                                                      \
    } else {                                                                                         \
      ++failed;                                                                                      \
      fprintf(stderr, "%s:%d: %s: expected %s and \"%s\", got %s: \"%s\"\n", __FILE__, __LINE__, #call, \
              hitgrid_status_name(status), (text), hitgrid_status_name(s_), hitgrid_last_error());   \
    }                                                                                                \
  } while (0)

static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static uint64_t next_u64(void) {
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}
/* A float in [lo, hi) on a grid of 1/64, so that shapes touch, endpoints are shared and
 * pegs lie in line often. */
static float uniform(float lo, float hi) {
  const float u = (float)(next_u64() >> 40) / (float)(1u << 24);
  return floorf((lo + u * (hi - lo)) * 64.0f) / 64.0f;
}

#endif
