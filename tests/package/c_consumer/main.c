/* The C++ consumer's scene (tests/package/consumer) through the installed C API: exits 0
 * only if find_pairs gives exactly its two pairs, a world step gives the same two as
 * begin events, and a rope among the segment's ends catches the one it swings past. */
#include <hitgrid.h>
#include <stdio.h>

int main(void) {
  const float segments[] = {0, 0, 2, 2};
  const float circles[] = {1, 1, 0.5f};
  const float boxes[] = {2, 2, 3, 3};
  hitgrid_shape_arrays shapes = {segments, 1, circles, 1, boxes, 1};
  hitgrid_pair* pairs = NULL;
  size_t count = 0;
  hitgrid_world* world = NULL;
  hitgrid_shape_def defs[3];
  hitgrid_handle handles[3];
  const hitgrid_handle_pair* begins = NULL;
  size_t begin_count = 0;
  hitgrid_rope* rope = NULL;
  const hitgrid_rope_node* nodes = NULL;
  size_t node_count = 0;
  int ok;
  if (hitgrid_find_pairs(NULL, &shapes, &pairs, &count) != HITGRID_OK) {
    fprintf(stderr, "find_pairs: %s\n", hitgrid_last_error());
    return 1;
  }
  ok = count == 2 && hitgrid_id_kind(hitgrid_pair_first(pairs[0])) == HITGRID_SEGMENT &&
       hitgrid_id_kind(hitgrid_pair_second(pairs[0])) == HITGRID_CIRCLE &&
       hitgrid_id_kind(hitgrid_pair_second(pairs[1])) == HITGRID_BOX;
  hitgrid_free(pairs);

  defs[0] = hitgrid_segment_def(0, 0, 2, 2);
  defs[1] = hitgrid_circle_def(1, 1, 0.5f);
  defs[2] = hitgrid_box_def(2, 2, 3, 3);
  if (hitgrid_world_new(NULL, &world) != HITGRID_OK || hitgrid_world_create_many(world, defs, 3, handles) != HITGRID_OK ||
      hitgrid_world_step(world) != HITGRID_OK || hitgrid_world_begin_events(world, &begins, &begin_count) != HITGRID_OK) {
    fprintf(stderr, "world: %s\n", hitgrid_last_error());
    return 1;
  }
  ok = ok && begin_count == 2 && begins[0].a == handles[0] && begins[0].b == handles[1] && begins[1].b == handles[2];
  hitgrid_world_free(world);

  /* The segment's ends as pegs: the end swings down past (0, 0) and catches it. */
  if (hitgrid_rope_new(-4, 0, segments, 2, &rope) != HITGRID_OK || hitgrid_rope_move_end(rope, 4, 0.5f) != HITGRID_OK ||
      hitgrid_rope_move_end(rope, 4, -1) != HITGRID_OK || hitgrid_rope_nodes(rope, &nodes, &node_count) != HITGRID_OK) {
    fprintf(stderr, "rope: %s\n", hitgrid_last_error());
    return 1;
  }
  ok = ok && node_count == 2 && nodes[1].peg == 0 && nodes[1].side == -1;
  hitgrid_rope_free(rope);
  printf("c_consumer: %s\n", ok ? "the expected pairs" : "WRONG pairs");
  return ok ? 0 : 1;
}
