/* The rope through the C API, driven from C: a hand-built catch and a full turn with the
 * nodes they must have, then random peg fields (many pegs collinear) and random paths of
 * end, start and peg moves, the nodes compared after every move with the C++ Rope doing
 * the same (reference.cpp): positions, pegs, sides and half turns exactly, the length to
 * the bit; paths in batches, copies, pegs from shapes; and the errors a C caller sees.
 * Prints "N passed, N failed" and exits 1 on any failure. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hitgrid.h"
#include "c_checks.h"
#include "reference.h"

enum { MAX_NODES = 1 << 16 };

/* The C rope's nodes and end against the reference's: every field equal, the length to
 * the bit. */
static int same_rope(hitgrid_rope* rope, const reference_rope* ref) {
  static hitgrid_rope_node expected[MAX_NODES];
  const hitgrid_rope_node* nodes;
  size_t n, m, i;
  float x, y, rx, ry;
  double length;
  if (hitgrid_rope_nodes(rope, &nodes, &n) != HITGRID_OK) return 0;
  m = reference_rope_nodes(ref, expected, MAX_NODES);
  if (m != n || n == 0 || n > MAX_NODES) return 0;
  for (i = 0; i < n; ++i)
    if (nodes[i].x != expected[i].x || nodes[i].y != expected[i].y || nodes[i].peg != expected[i].peg ||
        nodes[i].side != expected[i].side || nodes[i].half_turns != expected[i].half_turns)
      return 0;
  if (nodes[0].peg != HITGRID_ROPE_NO_PEG || nodes[0].side != 0 || nodes[0].half_turns != 0) return 0;
  if (hitgrid_rope_end(rope, &x, &y) != HITGRID_OK) return 0;
  reference_rope_end(ref, &rx, &ry);
  if (x != rx || y != ry) return 0;
  if (hitgrid_rope_length(rope, &length) != HITGRID_OK) return 0;
  return memcmp(&length, &(double){reference_rope_length(ref)}, sizeof length) == 0;
}

/* Copies of the C rope's nodes, to check that a refused call changed nothing. */
static size_t snapshot(hitgrid_rope* rope, hitgrid_rope_node* out) {
  const hitgrid_rope_node* nodes;
  size_t n = 0;
  if (hitgrid_rope_nodes(rope, &nodes, &n) != HITGRID_OK || n > MAX_NODES) return 0;
  memcpy(out, nodes, n * sizeof *nodes);
  return n;
}

static int same_nodes(hitgrid_rope* rope, const hitgrid_rope_node* before, size_t count) {
  const hitgrid_rope_node* nodes;
  size_t n;
  return hitgrid_rope_nodes(rope, &nodes, &n) == HITGRID_OK && n == count && memcmp(nodes, before, n * sizeof *nodes) == 0;
}

/* README's example: the end swings down past peg 0 and catches it on the right. */
static void test_one_catch(void) {
  const float pegs[] = {0, 0, 6, 2};
  hitgrid_rope* rope;
  const hitgrid_rope_node* nodes;
  size_t n;
  double length;
  float x, y;
  OK(hitgrid_rope_new(-10, 0, pegs, 2, &rope));
  OK(hitgrid_rope_nodes(rope, &nodes, &n));
  CHECK(n == 1 && nodes[0].x == -10 && nodes[0].y == 0 && nodes[0].peg == HITGRID_ROPE_NO_PEG && nodes[0].side == 0);
  OK(hitgrid_rope_length(rope, &length));
  CHECK(length == 0);
  OK(hitgrid_rope_move_end(rope, 10, 1));
  OK(hitgrid_rope_move_end(rope, 10, -1));
  OK(hitgrid_rope_nodes(rope, &nodes, &n));
  CHECK(n == 2 && nodes[1].peg == 0 && nodes[1].x == 0 && nodes[1].y == 0 && nodes[1].side == -1 &&
        nodes[1].half_turns == 0);
  OK(hitgrid_rope_length(rope, &length));
  CHECK(fabs(length - (10.0 + sqrt(101.0))) < 1e-12);
  OK(hitgrid_rope_end(rope, &x, &y));
  CHECK(x == 10 && y == -1);
  OK(hitgrid_rope_start(rope, &x, &y));
  CHECK(x == -10 && y == 0);
  /* Swinging back up past the line it was caught on releases it. */
  OK(hitgrid_rope_move_end(rope, 10, 1));
  OK(hitgrid_rope_nodes(rope, &nodes, &n));
  CHECK(n == 1);
  OK(hitgrid_rope_free(rope));
  OK(hitgrid_rope_free(NULL));
}

/* A full turn clockwise around one peg and back: half turns 0, 1, 2, then down to the
 * release (docs/rope.md, "Winding"), the same as the C++ rope at every step. */
static void test_full_turn(void) {
  static const float path[][2] = {{10, 1},  {10, -1}, {0, -10}, {-10, -1}, {-10, 1}, {0, 10}, {10, 1},
                                  {10, -1}, {10, 1},  {0, 10},  {-10, 1},  {-10, -1}, {0, -10}, {10, -1}, {10, 1}};
  static const int nodes_after[] = {1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1};
  static const unsigned turns_after[] = {0, 0, 0, 0, 1, 1, 1, 2, 1, 1, 1, 0, 0, 0, 0};
  const float peg[] = {0, 0};
  hitgrid_rope* rope;
  reference_rope* ref = reference_rope_new(-10, 0, peg, 1);
  const hitgrid_rope_node* nodes;
  size_t n, i;
  OK(hitgrid_rope_new(-10, 0, peg, 1, &rope));
  for (i = 0; i < sizeof path / sizeof path[0]; ++i) {
    OK(hitgrid_rope_move_end(rope, path[i][0], path[i][1]));
    CHECK(reference_rope_move_end(ref, path[i][0], path[i][1]));
    CHECK(same_rope(rope, ref));
    OK(hitgrid_rope_nodes(rope, &nodes, &n));
    CHECK((int)n == nodes_after[i]);
    if (n == 2) CHECK(nodes[1].peg == 0 && nodes[1].side == -1 && nodes[1].half_turns == turns_after[i]);
  }
  reference_rope_free(ref);
  OK(hitgrid_rope_free(rope));
}

/* A peg field: half anywhere on the 1/64 grid, half on the integer lattice (collinear
 * with many others). */
static void random_pegs(float* pegs, size_t count, float side) {
  size_t i;
  for (i = 0; i < count; ++i) {
    if (i % 2 == 0) {
      pegs[2 * i] = uniform(0, side);
      pegs[2 * i + 1] = uniform(0, side);
    } else {
      pegs[2 * i] = (float)(next_u64() % (uint64_t)side);
      pegs[2 * i + 1] = (float)(next_u64() % (uint64_t)side);
    }
  }
}

/* The next point of a path: mostly anywhere, sometimes a short step, sometimes exactly on
 * a peg or on the rope's last node (the degenerate moves). */
static void next_point(hitgrid_rope* rope, const float* pegs, size_t peg_count, float side, float* x, float* y) {
  const uint64_t r = next_u64() % 10;
  if (r < 5) {
    *x = uniform(-side / 4, side * 1.25f);
    *y = uniform(-side / 4, side * 1.25f);
  } else if (r < 8) {
    *x += uniform(-2, 2);
    *y += uniform(-2, 2);
  } else if (r < 9 && peg_count > 0) {
    const size_t p = (size_t)(next_u64() % peg_count);
    *x = pegs[2 * p];
    *y = pegs[2 * p + 1];
  } else {
    const hitgrid_rope_node* nodes;
    size_t n;
    if (hitgrid_rope_nodes(rope, &nodes, &n) == HITGRID_OK) {
      *x = nodes[n - 1].x;
      *y = nodes[n - 1].y;
    }
  }
}

/* After move i of a random test: the ropes compared (a difference fails the test, named
 * `test`, and returns 0 to stop it), the moves alike counted, the longest rope kept. */
static int count_same_move(hitgrid_rope* rope, const reference_rope* ref, const char* test, size_t i, size_t* same,
                           size_t* max_nodes) {
  const hitgrid_rope_node* nodes;
  size_t n;
  if (!same_rope(rope, ref)) {
    ++failed;
    fprintf(stderr, "%s: the ropes differ after move %zu\n", test, i);
    return 0;
  }
  ++*same;
  OK(hitgrid_rope_nodes(rope, &nodes, &n));
  if (n > *max_nodes) *max_nodes = n;
  return 1;
}

/* End, start and peg moves at random, compared with the C++ rope after every one. */
static void test_random_moves(size_t peg_count, size_t moves, float side) {
  float* pegs = (float*)malloc(2 * peg_count * sizeof(float));
  hitgrid_rope* rope;
  reference_rope* ref;
  float x = side / 2, y = side / 2;
  size_t i, max_nodes = 0, refused = 0, same = 0;
  random_pegs(pegs, peg_count, side);
  OK(hitgrid_rope_new(x, y, pegs, peg_count, &rope));
  ref = reference_rope_new(x, y, pegs, peg_count);
  for (i = 0; i < moves; ++i) {
    const uint64_t what = next_u64() % 20;
    if (what == 0) {
      const float sx = uniform(0, side), sy = uniform(0, side);
      OK(hitgrid_rope_move_start(rope, sx, sy));
      CHECK(reference_rope_move_start(ref, sx, sy));
    } else if (what == 1) {
      const uint32_t peg = (uint32_t)(next_u64() % peg_count);
      const float px = uniform(0, side), py = uniform(0, side);
      const int c_ok = hitgrid_rope_move_peg(rope, peg, px, py) == HITGRID_OK;
      const int cpp_ok = reference_rope_move_peg(ref, peg, px, py);
      CHECK(c_ok == cpp_ok);
      if (!c_ok) {
        ++refused;
        CHECK(strstr(hitgrid_last_error(), "hitgrid_rope_move_peg: peg ") == hitgrid_last_error());
      } else {
        float qx, qy;
        pegs[2 * peg] = px;
        pegs[2 * peg + 1] = py;
        OK(hitgrid_rope_peg(rope, peg, &qx, &qy));
        CHECK(qx == px && qy == py);
      }
    } else {
      next_point(rope, pegs, peg_count, side, &x, &y);
      OK(hitgrid_rope_move_end(rope, x, y));
      CHECK(reference_rope_move_end(ref, x, y));
    }
    if (!count_same_move(rope, ref, "test_random_moves", i, &same, &max_nodes)) break;
  }
  CHECK(same == moves);
  printf("random moves, %zu pegs: %zu moves the same as C++, up to %zu nodes, %zu peg moves refused by both\n", peg_count,
         same, max_nodes, refused);
  CHECK(max_nodes >= 3); /* the rope did wrap */
  reference_rope_free(ref);
  OK(hitgrid_rope_free(rope));
  free(pegs);
}

/* Circle pegs (from shapes): circles of radius 0.5 to 1.2 near the centres of 4 x 4 cells
 * and point pegs (radius-0 circles) at the cells' corners, apart by construction. End,
 * start and peg moves at random: a move into a circle, and a peg move the rope refuses,
 * refused by both; the ropes compared after every move, the length to the bit. */
static void test_circle_moves(size_t cells, size_t moves) {
  const float side = 4.0f * (float)cells;
  float* circles = (float*)malloc(2 * cells * cells * 3 * sizeof(float));
  size_t i, j, k = 0, refused = 0, same = 0, max_nodes = 0;
  hitgrid_shape_arrays shapes;
  hitgrid_rope* rope;
  reference_rope* ref;
  float x = 0.25f, y = 0.125f;
  for (i = 0; i < cells; ++i)
    for (j = 0; j < cells; ++j) {
      circles[3 * k] = 4.0f * (float)i + 2 + uniform(-0.5f, 0.5f);
      circles[3 * k + 1] = 4.0f * (float)j + 2 + uniform(-0.5f, 0.5f);
      circles[3 * k + 2] = uniform(0.5f, 1.2f);
      ++k;
      circles[3 * k] = 4.0f * (float)i;
      circles[3 * k + 1] = 4.0f * (float)j;
      circles[3 * k + 2] = 0;
      ++k;
    }
  shapes.segments = NULL;
  shapes.segment_count = 0;
  shapes.circles = circles;
  shapes.circle_count = k;
  shapes.boxes = NULL;
  shapes.box_count = 0;
  OK(hitgrid_rope_new_from_shapes(x, y, &shapes, &rope));
  ref = reference_rope_from_shapes(x, y, &shapes);
  CHECK(ref != NULL);
  for (i = 0; i < moves && ref != NULL; ++i) {
    const uint64_t what = next_u64() % 20;
    int c_ok, cpp_ok;
    if (what == 0) {
      const float sx = uniform(0, side), sy = uniform(0, side);
      c_ok = hitgrid_rope_move_start(rope, sx, sy) == HITGRID_OK;
      cpp_ok = reference_rope_move_start(ref, sx, sy);
    } else if (what == 1) {
      const uint32_t peg = (uint32_t)(next_u64() % k);
      const float px = circles[3 * peg] + uniform(-1, 1), py = circles[3 * peg + 1] + uniform(-1, 1);
      c_ok = hitgrid_rope_move_peg(rope, peg, px, py) == HITGRID_OK;
      cpp_ok = reference_rope_move_peg(ref, peg, px, py);
      if (c_ok) {
        circles[3 * peg] = px;
        circles[3 * peg + 1] = py;
      }
    } else {
      const float nx = next_u64() % 2 ? uniform(-side / 4, side * 1.25f) : x + uniform(-3, 3);
      const float ny = next_u64() % 2 ? uniform(-side / 4, side * 1.25f) : y + uniform(-3, 3);
      c_ok = hitgrid_rope_move_end(rope, nx, ny) == HITGRID_OK;
      cpp_ok = reference_rope_move_end(ref, nx, ny);
      if (c_ok) x = nx, y = ny;
    }
    CHECK(c_ok == cpp_ok);
    refused += !c_ok;
    if (!count_same_move(rope, ref, "test_circle_moves", i, &same, &max_nodes)) break;
  }
  CHECK(same == moves);
  printf("circle pegs: %zu moves the same as C++ (%zu refused by both), up to %zu nodes\n", same, refused, max_nodes);
  CHECK(max_nodes >= 4);
  CHECK(refused > 0 && refused < moves / 2);
  if (ref != NULL) reference_rope_free(ref);
  OK(hitgrid_rope_free(rope));
  free(circles);
}

/* A path in batches (hitgrid_rope_move_end_path) gives the rope the C++ rope has after
 * the same moves one by one; a copy made halfway follows the same batches, then moves on
 * its own without changing the original. */
static void test_paths_and_copies(void) {
  enum { PEGS = 300, BATCHES = 60, BATCH = 25 };
  static float pegs[2 * PEGS], path[2 * BATCH];
  static hitgrid_rope_node before[MAX_NODES];
  hitgrid_rope *rope, *copy = NULL;
  reference_rope* ref;
  size_t b, i, n;
  float x = 20, y = 20;
  random_pegs(pegs, PEGS, 40);
  OK(hitgrid_rope_new(x, y, pegs, PEGS, &rope));
  ref = reference_rope_new(x, y, pegs, PEGS);
  for (b = 0; b < BATCHES; ++b) {
    for (i = 0; i < BATCH; ++i) {
      next_point(rope, pegs, PEGS, 40, &x, &y);
      path[2 * i] = x;
      path[2 * i + 1] = y;
      CHECK(reference_rope_move_end(ref, x, y));
    }
    OK(hitgrid_rope_move_end_path(rope, path, BATCH));
    CHECK(same_rope(rope, ref));
    if (copy) {
      OK(hitgrid_rope_move_end_path(copy, path, BATCH));
      CHECK(same_rope(copy, ref));
    }
    if (b == BATCHES / 2) {
      OK(hitgrid_rope_copy(rope, &copy));
      CHECK(same_rope(copy, ref));
    }
  }
  OK(hitgrid_rope_move_end_path(rope, NULL, 0));
  CHECK(same_rope(rope, ref));
  n = snapshot(rope, before);
  OK(hitgrid_rope_move_end(copy, -30, 7));
  OK(hitgrid_rope_move_end(copy, 70, -9));
  OK(hitgrid_rope_move_start(copy, 1, 1));
  CHECK(same_nodes(rope, before, n));
  CHECK(same_rope(rope, ref));
  OK(hitgrid_rope_free(copy));
  reference_rope_free(ref);
  OK(hitgrid_rope_free(rope));
}

/* Pegs from shapes: segment ends, radius-0 circles, box corners, in hitgrid.h's order,
 * and the same rope as the C++ Rope(start, Scene). */
static void test_from_shapes(void) {
  const float segments[] = {0, 0, 4, 1, 10, 10, 12, 8};
  const float circles[] = {5, 5, 0, -3, 7, 0};
  const float boxes[] = {2, -6, 3, -4, 14, 2, 16, 5};
  const hitgrid_shape_arrays shapes = {segments, 2, circles, 2, boxes, 2};
  static const float expected[][2] = {{0, 0},  {4, 1},  {10, 10}, {12, 8}, {5, 5},  {-3, 7},  {2, -6},
                                      {3, -6}, {3, -4}, {2, -4},   {14, 2}, {16, 2}, {16, 5}, {14, 5}};
  hitgrid_rope* rope;
  reference_rope* ref = reference_rope_from_shapes(-8, -8, &shapes);
  size_t count, i;
  float x = -8, y = -8;
  OK(hitgrid_rope_new_from_shapes(-8, -8, &shapes, &rope));
  OK(hitgrid_rope_peg_count(rope, &count));
  CHECK(count == 14);
  for (i = 0; i < 14; ++i) {
    float px, py;
    OK(hitgrid_rope_peg(rope, (uint32_t)i, &px, &py));
    CHECK(px == expected[i][0] && py == expected[i][1]);
  }
  CHECK(ref != NULL);
  for (i = 0; i < 400 && ref; ++i) {
    x = uniform(-10, 20);
    y = uniform(-10, 20);
    OK(hitgrid_rope_move_end(rope, x, y));
    CHECK(reference_rope_move_end(ref, x, y));
    CHECK(same_rope(rope, ref));
  }
  reference_rope_free(ref);
  OK(hitgrid_rope_free(rope));
}

static void test_errors(void) {
  const float pegs[] = {0, 0, 6, 2, 3, -4};
  float bad[] = {0, 0, 6, 2, 3, -4};
  float path[] = {10, 1, 10, -1, 5, 5, 1, 1};
  hitgrid_rope *rope, *other = NULL;
  static hitgrid_rope_node before[MAX_NODES];
  const hitgrid_rope_node* nodes;
  size_t n, count;
  float x, y;
  double length;

  REFUSED(hitgrid_rope_new((float)NAN, 0, pegs, 3, &other), HITGRID_ERROR,
          "hitgrid_rope_new: rope start: not a finite point (nan, 0)");
  CHECK(other == NULL);
  bad[5] = (float)INFINITY;
  REFUSED(hitgrid_rope_new(0, 0, bad, 3, &other), HITGRID_ERROR, "hitgrid_rope_new: peg 2: not a finite point (3, inf)");
  CHECK(other == NULL);
  REFUSED(hitgrid_rope_new(0, 0, NULL, 3, &other), HITGRID_INVALID_ARGUMENT, "hitgrid_rope_new: pegs is NULL");
  REFUSED(hitgrid_rope_new(0, 0, pegs, 3, NULL), HITGRID_INVALID_ARGUMENT, "hitgrid_rope_new: rope is NULL");
  OK(hitgrid_rope_new(0, 0, NULL, 0, &other));
  OK(hitgrid_rope_free(other));

  OK(hitgrid_rope_new(-10, 0, pegs, 3, &rope));
  OK(hitgrid_rope_move_end(rope, 10, 1));
  OK(hitgrid_rope_move_end(rope, 10, -1)); /* wraps peg 0 */
  n = snapshot(rope, before);
  CHECK(n == 2);
  REFUSED(hitgrid_rope_move_end(rope, 5, (float)NAN), HITGRID_ERROR, "hitgrid_rope_move_end: rope end: not a finite point (5, nan)");
  CHECK(same_nodes(rope, before, n));
  REFUSED(hitgrid_rope_move_start(rope, (float)-INFINITY, 1), HITGRID_ERROR, "rope start: not a finite point (-inf, 1)");
  CHECK(same_nodes(rope, before, n));
  /* A path with a bad point moves nowhere, not even to the good points before it. */
  path[7] = (float)NAN;
  REFUSED(hitgrid_rope_move_end_path(rope, path, 4), HITGRID_ERROR,
          "hitgrid_rope_move_end_path: path point 3: not a finite point (1, nan)");
  CHECK(same_nodes(rope, before, n));
  OK(hitgrid_rope_end(rope, &x, &y));
  CHECK(x == 10 && y == -1);
  REFUSED(hitgrid_rope_move_end_path(rope, NULL, 2), HITGRID_INVALID_ARGUMENT, "points is NULL");
  REFUSED(hitgrid_rope_move_peg(rope, 3, 1, 1), HITGRID_ERROR, "hitgrid_rope_move_peg: peg 3: no such peg (3 pegs)");
  REFUSED(hitgrid_rope_move_peg(rope, 0, 6, 2), HITGRID_ERROR, "peg 0: its path from (0, 0) to (6, 2) passes over peg 1 at (6, 2)");
  REFUSED(hitgrid_rope_move_peg(rope, 1, 14, -4), HITGRID_ERROR, "peg 1: its path from (6, 2) to (14, -4) passes over the rope's end");
  REFUSED(hitgrid_rope_move_peg(rope, 2, (float)NAN, 0), HITGRID_ERROR, "peg 2: not a finite point (nan, 0)");
  CHECK(same_nodes(rope, before, n));
  OK(hitgrid_rope_peg(rope, 2, &x, &y));
  CHECK(x == 3 && y == -4);
  OK(hitgrid_rope_move_peg(rope, 2, 3, -9)); /* not wrapped, clear of the rope */
  OK(hitgrid_rope_peg(rope, 2, &x, &y));
  CHECK(x == 3 && y == -9);
  REFUSED(hitgrid_rope_peg(rope, 7, &x, &y), HITGRID_ERROR, "hitgrid_rope_peg: peg 7: no such peg (3 pegs)");
  REFUSED(hitgrid_rope_peg(rope, 0, NULL, &y), HITGRID_INVALID_ARGUMENT, "x is NULL");
  REFUSED(hitgrid_rope_nodes(rope, NULL, &count), HITGRID_INVALID_ARGUMENT, "hitgrid_rope_nodes: nodes is NULL");
  REFUSED(hitgrid_rope_nodes(rope, &nodes, NULL), HITGRID_INVALID_ARGUMENT, "count is NULL");
  REFUSED(hitgrid_rope_nodes(NULL, &nodes, &count), HITGRID_INVALID_ARGUMENT, "hitgrid_rope_nodes: rope is NULL");
  REFUSED(hitgrid_rope_move_end(NULL, 1, 1), HITGRID_INVALID_ARGUMENT, "hitgrid_rope_move_end: rope is NULL");
  REFUSED(hitgrid_rope_length(rope, NULL), HITGRID_INVALID_ARGUMENT, "length is NULL");
  REFUSED(hitgrid_rope_length(NULL, &length), HITGRID_INVALID_ARGUMENT, "rope is NULL");
  REFUSED(hitgrid_rope_peg_count(NULL, &count), HITGRID_INVALID_ARGUMENT, "rope is NULL");
  REFUSED(hitgrid_rope_copy(rope, NULL), HITGRID_INVALID_ARGUMENT, "hitgrid_rope_copy: copy is NULL");
  /* A successful call leaves the last error as it was. */
  OK(hitgrid_rope_peg_count(rope, &count));
  CHECK(count == 3 && strstr(hitgrid_last_error(), "copy is NULL") != NULL);
  OK(hitgrid_rope_free(rope));

  {
    const float segments[] = {0, 0, 1, 1};
    const float circles[] = {5, 5, 0, 5.25f, 5, 0.5f};
    const float boxes[] = {0, 0, 1, -1};
    hitgrid_shape_arrays shapes = {segments, 1, circles, 2, NULL, 0};
    REFUSED(hitgrid_rope_new_from_shapes(0, 0, &shapes, &other), HITGRID_ERROR,
            "hitgrid_rope_new_from_shapes: peg 3 (a circle at (5.25, 5), radius 0.5) touches peg 2 at (5, 5)");
    shapes.circle_count = 1;
    shapes.boxes = boxes;
    shapes.box_count = 1;
    REFUSED(hitgrid_rope_new_from_shapes(0, 0, &shapes, &other), HITGRID_INVALID_SHAPE, "box 0: inverted box");
    shapes.boxes = NULL;
    REFUSED(hitgrid_rope_new_from_shapes(0, 0, &shapes, &other), HITGRID_INVALID_ARGUMENT, "shapes->boxes is NULL");
    REFUSED(hitgrid_rope_new_from_shapes(0, 0, NULL, &other), HITGRID_INVALID_ARGUMENT, "shapes is NULL");
    shapes.box_count = 0;
    REFUSED(hitgrid_rope_new_from_shapes((float)NAN, 0, &shapes, &other), HITGRID_ERROR, "rope start: not a finite point");
    OK(hitgrid_rope_new_from_shapes(0, 0, &shapes, &other));
    OK(hitgrid_rope_peg_count(other, &count));
    CHECK(count == 3);
    OK(hitgrid_rope_free(other));
  }
}

int main(void) {
  rng_state = 0x2545f4914f6cdd1du; /* the stream the random fields were written for */
  test_one_catch();
  test_full_turn();
  test_random_moves(60, 3000, 20);
  test_random_moves(400, 3000, 40);
  test_paths_and_copies();
  test_from_shapes();
  test_errors();
  test_circle_moves(6, 1500);
  printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
