/* A rope among posts through the C API; examples/python/rope.py does the same through the
 * Python module, and a test checks that both print the same lines.
 *
 *   cc rope.c $(pkg-config --cflags --libs hitgrid) -o rope && ./rope
 *
 * A node prints as its peg and side (L: the rope turns left there, R: right), with its
 * half turns after a '+' when it is wound half a turn or more. */
#include <hitgrid.h>
#include <stdio.h>
#include <stdlib.h>

static void check(hitgrid_status status) {
  if (status != HITGRID_OK) {
    fprintf(stderr, "%s: %s\n", hitgrid_status_name(status), hitgrid_last_error());
    exit(1);
  }
}

static void print_rope(hitgrid_rope* rope, const char* what) {
  const hitgrid_rope_node* nodes;
  size_t n, i;
  float x, y;
  double length;
  check(hitgrid_rope_nodes(rope, &nodes, &n));
  check(hitgrid_rope_end(rope, &x, &y));
  check(hitgrid_rope_length(rope, &length));
  printf("%-14s end (%g, %g) nodes:", what, x, y);
  for (i = 1; i < n; ++i) {
    printf(" %u%c", (unsigned)nodes[i].peg, nodes[i].side > 0 ? 'L' : 'R');
    if (nodes[i].half_turns > 0) printf("+%u", (unsigned)nodes[i].half_turns);
  }
  printf(" length %.6f\n", length);
}

int main(void) {
  /* Two rows of posts: pegs 0, 1, 2 at y = 0 and 3, 4, 5 at y = 4. */
  const float pegs[] = {0, 0, 4, 0, 8, 0, 0, 4, 4, 4, 8, 4};
  /* The end swings down under the lower row, round its left end and over the upper row;
   * then the start moves below the lower row, and the end comes back the way it went. */
  const float path[][2] = {{12, 2}, {12, -4}, {2, -6}, {-6, -2}, {-6, 8}, {6, 8}, {12, 6}, {10, 2}};
  const float back[] = {12, 6, 6, 8, -6, 8, -6, -2, 2, -6, 12, -4, 12, 2};
  hitgrid_rope* rope;
  char what[32];
  size_t i;
  check(hitgrid_rope_new(-4, 2, pegs, 6, &rope));
  for (i = 0; i < sizeof path / sizeof path[0]; ++i) {
    check(hitgrid_rope_move_end(rope, path[i][0], path[i][1]));
    snprintf(what, sizeof what, "move %u", (unsigned)(i + 1));
    print_rope(rope, what);
  }
  check(hitgrid_rope_move_start(rope, -4, -2));
  print_rope(rope, "start (-4, -2)");
  check(hitgrid_rope_move_end_path(rope, back, sizeof back / sizeof back[0] / 2));
  print_rope(rope, "back");
  check(hitgrid_rope_free(rope));
  return 0;
}
