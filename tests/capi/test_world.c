/* The C API driven from C: a world through frames of creates, moves (one, many, rows),
 * destroys, filter and body changes and displacements, each frame's pairs, events,
 * impacts, queries and casts compared with the C++ API doing the same (reference.cpp);
 * the one-shot finder against hitgrid::find_pairs; and the errors a C caller sees.
 * Prints "N passed, N failed" and exits 1 on any failure. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hitgrid.h"
#include "c_checks.h"
#include "reference.h"

static hitgrid_shape random_shape(float side) {
  hitgrid_shape s;
  const float x = uniform(0, side), y = uniform(0, side);
  s.kind = (uint32_t)(next_u64() % 3);
  if (s.kind == HITGRID_SEGMENT) {
    s.v[0] = x; s.v[1] = y; s.v[2] = x + uniform(-3, 3); s.v[3] = y + uniform(-3, 3);
  } else if (s.kind == HITGRID_CIRCLE) {
    s.v[0] = x; s.v[1] = y; s.v[2] = uniform(0, 1.5f); s.v[3] = 0;
  } else {
    s.v[0] = x; s.v[1] = y; s.v[2] = x + uniform(0, 2); s.v[3] = y + uniform(0, 2);
  }
  return s;
}

/* The world's list against the reference's. */
static int same_pairs(const hitgrid_handle_pair* c, size_t n, reference_world* ref, int list) {
  static uint64_t flat[1 << 16];
  const size_t m = reference_list(ref, list, flat, sizeof flat / sizeof flat[0]);
  size_t i;
  if (m != 2 * n) return 0;
  for (i = 0; i < n; ++i)
    if (c[i].a != flat[2 * i] || c[i].b != flat[2 * i + 1] || !(c[i].a < c[i].b)) return 0;
  return 1;
}

static int same_hits(const hitgrid_cast_hit* a, const hitgrid_cast_hit* b, size_t n) {
  size_t i;
  for (i = 0; i < n; ++i)
    if (a[i].handle != b[i].handle || a[i].t != b[i].t || a[i].x != b[i].x || a[i].y != b[i].y ||
        a[i].nx != b[i].nx || a[i].ny != b[i].ny)
      return 0;
  return 1;
}

enum { MAX_SHAPES = 2000 };
static hitgrid_handle live[MAX_SHAPES];
static size_t live_count;

static void remove_live(size_t i) { live[i] = live[--live_count]; }

/* The frame's pairs, events and impacts, and queries and casts on the current shapes. */
static void compare_frame(hitgrid_world* world, reference_world* ref, size_t* pair_total, size_t* begin_total,
                          size_t* impact_total) {
  const hitgrid_handle_pair* list;
  const hitgrid_impact* impacts;
  size_t n, i, k;
  static uint64_t flat[1 << 14];
  OK(hitgrid_world_pairs(world, &list, &n));
  CHECK(same_pairs(list, n, ref, REFERENCE_PAIRS));
  *pair_total += n;
  OK(hitgrid_world_begin_events(world, &list, &n));
  CHECK(same_pairs(list, n, ref, REFERENCE_BEGINS));
  *begin_total += n;
  OK(hitgrid_world_end_events(world, &list, &n));
  CHECK(same_pairs(list, n, ref, REFERENCE_ENDS));
  OK(hitgrid_world_impacts(world, &impacts, &n));
  CHECK(reference_impacts(ref, flat, sizeof flat / sizeof flat[0]) == 4 * n);
  for (i = 0; i < n; ++i) {
    uint64_t t;
    memcpy(&t, &impacts[i].t, sizeof t);
    CHECK(impacts[i].moving == flat[4 * i] && impacts[i].other == flat[4 * i + 1] &&
          impacts[i].kind == flat[4 * i + 2] && t == flat[4 * i + 3] && impacts[i].reserved == 0);
  }
  *impact_total += n;

  for (k = 0; k < 12; ++k) {
    hitgrid_shape q = random_shape(60);
    const hitgrid_handle* found;
    const uint64_t mask = k % 4 == 3 ? 2 : ~(uint64_t)0;
    if (k % 4 == 2) { q.kind = HITGRID_BOX; q.v[2] = q.v[0]; q.v[3] = q.v[1]; } /* a point */
    OK(hitgrid_world_query(world, &q, mask, &found, &n));
    CHECK(reference_query(ref, &q, mask, flat, sizeof flat / sizeof flat[0]) == n);
    CHECK(n == 0 || memcmp(found, flat, n * sizeof *found) == 0);
  }

  {
    hitgrid_segment casts[6];
    static hitgrid_cast_hit expected[1 << 12];
    const hitgrid_cast_hit* hits;
    const size_t* offsets;
    size_t counts[6];
    for (k = 0; k < 6; ++k) {
      casts[k].ax = uniform(0, 60); casts[k].ay = uniform(0, 60);
      casts[k].bx = uniform(0, 60); casts[k].by = uniform(0, 60);
    }
    for (k = 0; k < 6; ++k) {
      hitgrid_cast_hit first;
      int hit;
      OK(hitgrid_world_cast(world, &casts[k], ~(uint64_t)0, &hits, &n));
      counts[k] = n;
      CHECK(reference_cast(ref, &casts[k], ~(uint64_t)0, expected, sizeof expected / sizeof expected[0]) == n);
      CHECK(same_hits(hits, expected, n));
      OK(hitgrid_world_cast_nearest(world, &casts[k], ~(uint64_t)0, &first, &hit));
      CHECK(hit == (n > 0));
      CHECK(n == 0 ? first.handle == 0 && first.t == 0 : same_hits(&first, expected, 1));
    }
    {
      /* Batched: every hit, then the nearest only, each equal to one cast at a time. */
      const hitgrid_cast_hit* nearest_hits;
      const size_t* nearest_offsets;
      OK(hitgrid_world_cast_many(world, casts, 6, ~(uint64_t)0, 0, &hits, &offsets));
      CHECK(offsets[0] == 0);
      for (k = 0; k < 6; ++k) {
        CHECK(offsets[k + 1] - offsets[k] == counts[k]);
        reference_cast(ref, &casts[k], ~(uint64_t)0, expected, sizeof expected / sizeof expected[0]);
        CHECK(same_hits(hits + offsets[k], expected, counts[k]));
      }
      OK(hitgrid_world_cast_many(world, casts, 6, ~(uint64_t)0, 1, &nearest_hits, &nearest_offsets));
      for (k = 0; k < 6; ++k) {
        reference_cast(ref, &casts[k], ~(uint64_t)0, expected, sizeof expected / sizeof expected[0]);
        CHECK(nearest_offsets[k + 1] - nearest_offsets[k] == (counts[k] > 0 ? 1u : 0u));
        CHECK(counts[k] == 0 || same_hits(nearest_hits + nearest_offsets[k], expected, 1));
      }
    }
    {
      /* Rays: one, nearest, and batched, from inside the world outwards (no end). */
      hitgrid_ray rays[4];
      for (k = 0; k < 4; ++k) {
        rays[k].ox = uniform(0, 60); rays[k].oy = uniform(0, 60);
        rays[k].dx = uniform(-1, 1); rays[k].dy = k == 3 ? 0 : uniform(-1, 1);
      }
      for (k = 0; k < 4; ++k) {
        hitgrid_cast_hit first;
        int hit;
        OK(hitgrid_world_cast_ray(world, &rays[k], ~(uint64_t)0, &hits, &n));
        counts[k] = n;
        CHECK(reference_cast_ray(ref, &rays[k], ~(uint64_t)0, expected, sizeof expected / sizeof expected[0]) == n);
        CHECK(same_hits(hits, expected, n));
        OK(hitgrid_world_cast_ray_nearest(world, &rays[k], ~(uint64_t)0, &first, &hit));
        CHECK(hit == (n > 0) && (n == 0 || same_hits(&first, expected, 1)));
      }
      OK(hitgrid_world_cast_ray_many(world, rays, 4, ~(uint64_t)0, 0, &hits, &offsets));
      for (k = 0; k < 4; ++k) {
        reference_cast_ray(ref, &rays[k], ~(uint64_t)0, expected, sizeof expected / sizeof expected[0]);
        CHECK(offsets[k + 1] - offsets[k] == counts[k] && same_hits(hits + offsets[k], expected, counts[k]));
      }
    }
  }
}

/* A program's job system, in C: every range on the calling thread, the last first. */
static size_t hook_calls;
static void serial_hook(void* user, size_t count, size_t min_range, hitgrid_task task, void* context) {
  size_t end = count;
  (void)user;
  ++hook_calls;
  while (end > 0) {
    const size_t begin = ((end - 1) / min_range) * min_range;
    task(context, begin, end);
    end = begin;
  }
}
/* A broken one: the first range is never run. */
static void leaky_hook(void* user, size_t count, size_t min_range, hitgrid_task task, void* context) {
  size_t begin;
  (void)user;
  for (begin = min_range; begin < count; begin += min_range)
    task(context, begin, begin + min_range < count ? begin + min_range : count);
}

/* Frames of random changes, each made through the C API and mirrored on the reference;
 * through `hook` when not NULL (every frame: no small frames on the calling thread). */
static void test_random_frames(unsigned threads, const hitgrid_task_hook* hook) {
  hitgrid_world_options options;
  hitgrid_world* world;
  reference_world* ref = reference_new(threads);
  size_t i, frame, pair_total = 0, begin_total = 0, impact_total = 0;
  OK(hitgrid_world_options_init(&options));
  options.threads = threads;
  if (hook) {
    options.tasks = *hook;
    options.small_frame_shapes = 0;
  }
  OK(hitgrid_world_new(&options, &world));
  live_count = 0;

  /* Static walls, one by one. */
  for (i = 0; i < 8; ++i) {
    hitgrid_shape_def wall = hitgrid_segment_def(0, 7.5f * (float)i, 60, 7.5f * (float)i + 1);
    wall.body = HITGRID_STATIC;
    OK(hitgrid_world_create(world, &wall, &live[live_count]));
    CHECK(reference_create(ref, &wall) == live[live_count]);
    ++live_count;
  }
  /* Many, with filters and users. */
  {
    hitgrid_shape_def defs[300];
    for (i = 0; i < 300; ++i) {
      defs[i].shape = random_shape(60);
      defs[i].body = HITGRID_DYNAMIC;
      defs[i].filter.category = i % 5 == 0 ? 2 : 1;
      defs[i].filter.mask = i % 7 == 0 ? 2 : ~(uint64_t)0;
      defs[i].user = 1000 + i;
    }
    OK(hitgrid_world_create_many(world, defs, 300, live + live_count));
    for (i = 0; i < 300; ++i) CHECK(reference_create(ref, &defs[i]) == live[live_count + i]);
    live_count += 300;
  }

  for (frame = 0; frame < 25; ++frame) {
    /* Rows: 40 new circles (static every fifth frame). */
    {
      float rows[40 * 3];
      hitgrid_handle made[40];
      const uint32_t body = frame % 5 == 4 ? HITGRID_STATIC : HITGRID_DYNAMIC;
      for (i = 0; i < 40; ++i) {
        rows[3 * i] = uniform(0, 60); rows[3 * i + 1] = uniform(0, 60); rows[3 * i + 2] = uniform(0, 1);
      }
      if (live_count + 40 < MAX_SHAPES) {
        OK(hitgrid_world_create_rows(world, HITGRID_CIRCLE, rows, 40, body, NULL, NULL, made));
        for (i = 0; i < 40; ++i) {
          hitgrid_shape_def d = hitgrid_circle_def(rows[3 * i], rows[3 * i + 1], rows[3 * i + 2]);
          d.body = body;
          CHECK(reference_create(ref, &d) == made[i]);
          live[live_count++] = made[i];
        }
      }
    }
    /* Move 60 shapes in one call (any kind: a shape may change kind), 20 as box rows. */
    {
      hitgrid_handle handles[60];
      hitgrid_shape shapes[60];
      float rows[20 * 4];
      size_t start = (size_t)(next_u64() % (live_count - 80));
      for (i = 0; i < 60; ++i) {
        handles[i] = live[start + i];
        shapes[i] = random_shape(60);
      }
      OK(hitgrid_world_move_many(world, handles, shapes, 60));
      for (i = 0; i < 60; ++i) reference_move(ref, handles[i], &shapes[i]);
      for (i = 0; i < 20; ++i) {
        hitgrid_shape b;
        handles[i] = live[start + 60 + i];
        rows[4 * i] = uniform(0, 60); rows[4 * i + 1] = uniform(0, 60);
        rows[4 * i + 2] = rows[4 * i] + uniform(0, 1); rows[4 * i + 3] = rows[4 * i + 1] + uniform(0, 1);
        b.kind = HITGRID_BOX;
        memcpy(b.v, rows + 4 * i, sizeof b.v);
        reference_move(ref, handles[i], &b);
      }
      OK(hitgrid_world_move_rows(world, HITGRID_BOX, handles, rows, 20));
    }
    /* One move, a filter, a body change. */
    {
      const size_t a = (size_t)(next_u64() % live_count), b = (size_t)(next_u64() % live_count);
      hitgrid_shape s = random_shape(60);
      hitgrid_filter f;
      uint32_t body;
      f.category = 2; f.mask = 3;
      OK(hitgrid_world_move(world, live[a], &s));
      reference_move(ref, live[a], &s);
      OK(hitgrid_world_set_filter(world, live[b], f));
      reference_set_filter(ref, live[b], 2, 3);
      OK(hitgrid_world_body(world, live[a], &body));
      body = body == HITGRID_STATIC ? HITGRID_DYNAMIC : HITGRID_STATIC;
      OK(hitgrid_world_set_body(world, live[a], body));
      reference_set_body(ref, live[a], body == HITGRID_STATIC);
    }
    /* Displacements for dynamic circles (continuous collision): fast ones. */
    for (i = 0; i < live_count; i += 17) {
      hitgrid_shape s;
      uint32_t body;
      OK(hitgrid_world_shape(world, live[i], &s));
      OK(hitgrid_world_body(world, live[i], &body));
      if (s.kind == HITGRID_CIRCLE && body == HITGRID_DYNAMIC) {
        const float dx = uniform(-20, 20), dy = uniform(-20, 20);
        float gx, gy;
        OK(hitgrid_world_set_displacement(world, live[i], dx, dy));
        reference_set_displacement(ref, live[i], dx, dy);
        OK(hitgrid_world_displacement(world, live[i], &gx, &gy));
        CHECK(gx == dx && gy == dy);
      }
    }
    /* Destroy 10 (one alone, the rest in one call). */
    {
      hitgrid_handle gone[9];
      size_t j = (size_t)(next_u64() % live_count);
      OK(hitgrid_world_destroy(world, live[j]));
      reference_destroy(ref, live[j]);
      remove_live(j);
      for (i = 0; i < 9; ++i) {
        j = (size_t)(next_u64() % live_count);
        gone[i] = live[j];
        remove_live(j);
        reference_destroy(ref, gone[i]);
      }
      OK(hitgrid_world_destroy_many(world, gone, 9));
    }
    OK(hitgrid_world_step(world));
    reference_step(ref);
    compare_frame(world, ref, &pair_total, &begin_total, &impact_total);
    {
      size_t size;
      OK(hitgrid_world_size(world, &size));
      CHECK(size == live_count);
    }
  }
  /* The frames were not empty: the comparison compared something. */
  CHECK(pair_total > 1000 && begin_total > 100 && impact_total > 10);
  printf("frames on %u threads: %zu pairs, %zu begin events, %zu impacts compared\n", threads, pair_total,
         begin_total, impact_total);
  OK(hitgrid_world_release_memory(world));
  OK(hitgrid_world_free(world));
  reference_free(ref);
}

/* The header's example: a ball on a wall, then away from it. */
static void test_ball_on_wall(void) {
  hitgrid_world* world;
  hitgrid_shape_def ball = hitgrid_circle_def(0, 0, 1);
  hitgrid_shape_def wall = hitgrid_segment_def(-5, -1, 5, -1);
  hitgrid_handle b, w;
  const hitgrid_handle_pair* list;
  size_t n;
  hitgrid_shape away;
  uint64_t user;
  hitgrid_filter filter;
  int contains;
  wall.body = HITGRID_STATIC;
  ball.user = 42;
  OK(hitgrid_world_new(NULL, &world));
  OK(hitgrid_world_pairs(world, &list, &n));
  CHECK(n == 0); /* before the first step */
  OK(hitgrid_world_create(world, &ball, &b));
  OK(hitgrid_world_create(world, &wall, &w));
  CHECK(b == ((uint64_t)0 << 32 | 1) && w == ((uint64_t)1 << 32 | 1)); /* slot 0 and 1, generation 1 */
  OK(hitgrid_world_step(world));
  OK(hitgrid_world_begin_events(world, &list, &n));
  CHECK(n == 1 && list[0].a == b && list[0].b == w); /* touching counts */
  OK(hitgrid_world_user(world, b, &user));
  CHECK(user == 42);
  OK(hitgrid_world_filter(world, w, &filter));
  CHECK(filter.category == 1 && filter.mask == ~(uint64_t)0);
  away.kind = HITGRID_CIRCLE;
  away.v[0] = 0; away.v[1] = 0.5f; away.v[2] = 1; away.v[3] = 0;
  OK(hitgrid_world_move(world, b, &away));
  OK(hitgrid_world_step(world));
  OK(hitgrid_world_end_events(world, &list, &n));
  CHECK(n == 1 && list[0].a == b && list[0].b == w);
  OK(hitgrid_world_destroy(world, w));
  OK(hitgrid_world_contains(world, w, &contains));
  CHECK(contains == 0);
  OK(hitgrid_world_free(world));
}

static void test_find_pairs(void) {
  enum { NS = 700, NC = 600, NB = 500 };
  static float segments[NS * 4], circles[NC * 3], boxes[NB * 4];
  static uint64_t expected[1 << 16];
  hitgrid_shape_arrays a;
  hitgrid_pair* owned;
  const hitgrid_pair* borrowed;
  hitgrid_pair_finder* finder;
  hitgrid_find_pairs_options options;
  size_t i, n, m;
  for (i = 0; i < NS; ++i) {
    segments[4 * i] = uniform(0, 50); segments[4 * i + 1] = uniform(0, 50);
    segments[4 * i + 2] = segments[4 * i] + uniform(-2, 2); segments[4 * i + 3] = segments[4 * i + 1] + uniform(-2, 2);
  }
  for (i = 0; i < NC; ++i) {
    circles[3 * i] = uniform(0, 50); circles[3 * i + 1] = uniform(0, 50); circles[3 * i + 2] = uniform(0, 1);
  }
  for (i = 0; i < NB; ++i) {
    boxes[4 * i] = uniform(0, 50); boxes[4 * i + 1] = uniform(0, 50);
    boxes[4 * i + 2] = boxes[4 * i] + uniform(0, 1); boxes[4 * i + 3] = boxes[4 * i + 1] + uniform(0, 1);
  }
  a.segments = segments; a.segment_count = NS;
  a.circles = circles; a.circle_count = NC;
  a.boxes = boxes; a.box_count = NB;
  m = reference_find_pairs(&a, expected, sizeof expected / sizeof expected[0]);
  CHECK(m > 500);
  OK(hitgrid_find_pairs(NULL, &a, &owned, &n));
  CHECK(n == m && memcmp(owned, expected, n * sizeof *owned) == 0);
  CHECK(hitgrid_id_kind(hitgrid_pair_first(owned[0])) <= hitgrid_id_kind(hitgrid_pair_second(owned[0])));
  OK(hitgrid_free(owned));

  OK(hitgrid_find_pairs_options_init(&options));
  options.threads = 2;
  options.isa = HITGRID_ISA_SCALAR;
  OK(hitgrid_pair_finder_new(&options, &finder));
  OK(hitgrid_pair_finder_find_pairs(finder, &a, &borrowed, &n));
  CHECK(n == m && memcmp(borrowed, expected, n * sizeof *borrowed) == 0);
  /* Again with fewer shapes (no circles): the finder's scene shrinks. */
  a.circles = NULL; a.circle_count = 0;
  m = reference_find_pairs(&a, expected, sizeof expected / sizeof expected[0]);
  OK(hitgrid_pair_finder_find_pairs(finder, &a, &borrowed, &n));
  CHECK(n == m && memcmp(borrowed, expected, n * sizeof *borrowed) == 0);
  /* A refused call leaves the last result as it was. */
  {
    const hitgrid_pair* before = borrowed;
    boxes[4 * 3 + 2] = -100; /* box 3: inverted */
    CHECK(hitgrid_pair_finder_find_pairs(finder, &a, &borrowed, &i) == HITGRID_INVALID_SHAPE);
    CHECK(strstr(hitgrid_last_error(), "box 3: inverted box: minx") != NULL);
    CHECK(memcmp(before, expected, m * sizeof *before) == 0);
  }
  OK(hitgrid_pair_finder_release_memory(finder));
  OK(hitgrid_pair_finder_free(finder));
}

static void test_errors(void) {
  hitgrid_world* world;
  hitgrid_world_options options;
  hitgrid_shape_def defs[3];
  hitgrid_handle h, handles[3];
  size_t size;
  OK(hitgrid_world_new(NULL, &world));
  defs[0] = hitgrid_circle_def(0, 0, 1);
  OK(hitgrid_world_create(world, defs, &h));
  OK(hitgrid_world_destroy(world, h));

  CHECK(hitgrid_world_destroy(world, h) == HITGRID_INVALID_HANDLE);
  CHECK(hitgrid_last_error_handle() == h);
  CHECK(strstr(hitgrid_last_error(), "hitgrid_world_destroy: ") == hitgrid_last_error());
  CHECK(strstr(hitgrid_last_error(), "slot 0, generation 1") != NULL);
  /* A successful call leaves the last error as it was. */
  OK(hitgrid_world_size(world, &size));
  CHECK(strstr(hitgrid_last_error(), "slot 0, generation 1") != NULL);

  /* A bulk create with one bad shape creates nothing. */
  defs[0] = hitgrid_circle_def(0, 0, 1);
  defs[1] = hitgrid_box_def(0, 0, 1, 1);
  defs[2] = hitgrid_circle_def(0, 0, (float)NAN);
  CHECK(hitgrid_world_create_many(world, defs, 3, handles) == HITGRID_INVALID_SHAPE);
  CHECK(strstr(hitgrid_last_error(), "r is NaN") != NULL);
  OK(hitgrid_world_size(world, &size));
  CHECK(size == 0);

  CHECK(hitgrid_world_size(NULL, &size) == HITGRID_INVALID_ARGUMENT);
  CHECK(strcmp(hitgrid_last_error(), "hitgrid_world_size: world is NULL") == 0);
  CHECK(hitgrid_world_create_rows(world, 7, NULL, 0, HITGRID_DYNAMIC, NULL, NULL, NULL) == HITGRID_INVALID_ARGUMENT);
  CHECK(strstr(hitgrid_last_error(), "unknown shape kind 7") != NULL);
  defs[0].body = 5;
  CHECK(hitgrid_world_create(world, defs, &h) == HITGRID_INVALID_ARGUMENT);
  defs[0] = hitgrid_box_def(0, 0, 1, 1);
  OK(hitgrid_world_create(world, defs, &h));
  CHECK(hitgrid_world_set_displacement(world, h, 1, 0) == HITGRID_ERROR); /* a box */

  {
    const hitgrid_ray bad = {0, 0, (float)INFINITY, 0};
    const hitgrid_cast_hit* hits;
    size_t count;
    CHECK(hitgrid_world_cast_ray(world, &bad, ~(uint64_t)0, &hits, &count) == HITGRID_ERROR);
    CHECK(strstr(hitgrid_last_error(), "finite") != NULL);
  }
  OK(hitgrid_world_options_init(&options));
  CHECK(options.small_frame_shapes == 2048);
  options.margin = -1;
  CHECK(hitgrid_world_new(&options, &world) == HITGRID_ERROR);
  CHECK(strstr(hitgrid_last_error(), "margin") != NULL);
  options.margin = 0;
  options.isa = 99;
  CHECK(hitgrid_world_new(&options, &world) == HITGRID_INVALID_ARGUMENT);
  options.isa = HITGRID_ISA_AUTO;
  options.reserved = 1;
  CHECK(hitgrid_world_new(&options, &world) == HITGRID_INVALID_ARGUMENT);
  options.reserved = 0;
  options.threads = 70000; /* more than a thread pool holds: refused, not an abort */
  CHECK(hitgrid_world_new(&options, &world) != HITGRID_OK);
  CHECK(strstr(hitgrid_last_error(), "threads") != NULL);
  options.threads = 0;
  options.tasks.run = serial_hook;
  options.tasks.workers = 0;
  CHECK(hitgrid_world_new(&options, &world) == HITGRID_INVALID_ARGUMENT);
  CHECK(strstr(hitgrid_last_error(), "workers") != NULL);
  {
    /* A hook that skips work: the step fails, naming the hook, instead of answering wrong. */
    hitgrid_world* leaky;
    options.tasks.run = leaky_hook;
    options.tasks.workers = 2;
    options.small_frame_shapes = 0;
    OK(hitgrid_world_new(&options, &leaky));
    defs[0] = hitgrid_circle_def(0, 0, 1);
    defs[1] = hitgrid_circle_def(1, 0, 1);
    OK(hitgrid_world_create_many(leaky, defs, 2, handles));
    CHECK(hitgrid_world_step(leaky) == HITGRID_ERROR);
    CHECK(strstr(hitgrid_last_error(), "task hook") != NULL);
    OK(hitgrid_world_free(leaky));
  }
  CHECK(strcmp(hitgrid_status_name(HITGRID_OUT_OF_MEMORY), "HITGRID_OUT_OF_MEMORY") == 0);
  CHECK(strcmp(hitgrid_version(), "") != 0);
  OK(hitgrid_world_free(world));
  OK(hitgrid_world_free(NULL));
}

int main(void) {
  test_ball_on_wall();
  test_random_frames(1, NULL);
  test_random_frames(2, NULL);
  {
    hitgrid_task_hook hook = {serial_hook, NULL, 3, 0};
    test_random_frames(2, &hook);
    CHECK(hook_calls > 0);
  }
  test_find_pairs();
  test_errors();
  printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
