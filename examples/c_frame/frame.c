/* Two frames of a small world through the C API; examples/python/frame.py does the same
 * through the Python module, and a test checks that both print the same lines.
 *
 *   cc frame.c $(pkg-config --cflags --libs hitgrid) -o frame && ./frame
 *
 * A handle prints as slot.generation. */
#include <hitgrid.h>
#include <stdio.h>
#include <stdlib.h>

static void check(hitgrid_status status) {
  if (status != HITGRID_OK) {
    fprintf(stderr, "%s: %s\n", hitgrid_status_name(status), hitgrid_last_error());
    exit(1);
  }
}

static void print_pairs(const char* what, const hitgrid_handle_pair* p, size_t n) {
  size_t i;
  printf("%s:", what);
  for (i = 0; i < n; ++i)
    printf(" (%u.%u %u.%u)", (unsigned)(p[i].a >> 32), (unsigned)p[i].a, (unsigned)(p[i].b >> 32), (unsigned)p[i].b);
  printf("\n");
}

static void print_frame(hitgrid_world* world, int frame) {
  const hitgrid_handle_pair* p;
  const hitgrid_impact* impacts;
  size_t n, i;
  printf("frame %d\n", frame);
  check(hitgrid_world_pairs(world, &p, &n));
  print_pairs("  pairs", p, n);
  check(hitgrid_world_begin_events(world, &p, &n));
  print_pairs("  begin", p, n);
  check(hitgrid_world_end_events(world, &p, &n));
  print_pairs("  end", p, n);
  check(hitgrid_world_impacts(world, &impacts, &n));
  for (i = 0; i < n; ++i)
    printf("  impact: %u.%u hits %u.%u at t = %.6f\n", (unsigned)(impacts[i].moving >> 32), (unsigned)impacts[i].moving,
           (unsigned)(impacts[i].other >> 32), (unsigned)impacts[i].other, impacts[i].t);
}

int main(void) {
  hitgrid_world* world;
  /* Four static walls around [0, 10] x [0, 10]. */
  const float walls[4 * 4] = {0, 0, 10, 0, 10, 0, 10, 10, 10, 10, 0, 10, 0, 10, 0, 0};
  hitgrid_handle wall[4], ball, crate, stick;
  hitgrid_shape_def def;
  hitgrid_shape moved;
  const hitgrid_segment ray = {-1, 5, 11, 5};
  const hitgrid_cast_hit* hits;
  const hitgrid_handle* found;
  size_t n, i;

  check(hitgrid_world_new(NULL, &world));
  check(hitgrid_world_create_rows(world, HITGRID_SEGMENT, walls, 4, HITGRID_STATIC, NULL, NULL, wall));
  def = hitgrid_circle_def(1, 5, 1); /* touches the left wall */
  check(hitgrid_world_create(world, &def, &ball));
  def = hitgrid_box_def(4, 4, 6, 6);
  check(hitgrid_world_create(world, &def, &crate));
  def = hitgrid_segment_def(6, 6, 8, 8); /* shares a corner with the crate */
  check(hitgrid_world_create(world, &def, &stick));
  check(hitgrid_world_step(world));
  print_frame(world, 1);

  /* The ball leaves the wall and, fast, crosses the crate within the next frame. */
  moved.kind = HITGRID_CIRCLE;
  moved.v[0] = 2; moved.v[1] = 5; moved.v[2] = 0.5f; moved.v[3] = 0;
  check(hitgrid_world_move(world, ball, &moved));
  check(hitgrid_world_set_displacement(world, ball, 6, 0));
  check(hitgrid_world_step(world));
  print_frame(world, 2);

  check(hitgrid_world_cast(world, &ray, ~(uint64_t)0, &hits, &n));
  printf("cast (-1, 5) -> (11, 5):");
  for (i = 0; i < n; ++i)
    printf(" %u.%u at t = %.6f (%.3f, %.3f) normal (%g, %g);", (unsigned)(hits[i].handle >> 32), (unsigned)hits[i].handle,
           hits[i].t, hits[i].x, hits[i].y, hits[i].nx, hits[i].ny);
  printf("\n");
  moved.kind = HITGRID_BOX;
  moved.v[0] = 5; moved.v[1] = 5; moved.v[2] = 9; moved.v[3] = 9;
  check(hitgrid_world_query(world, &moved, ~(uint64_t)0, &found, &n));
  printf("query box (5, 5, 9, 9):");
  for (i = 0; i < n; ++i) printf(" %u.%u", (unsigned)(found[i] >> 32), (unsigned)found[i]);
  printf("\n");
  check(hitgrid_world_free(world));
  return 0;
}
