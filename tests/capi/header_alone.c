/* hitgrid.h on its own, compiled as C (c99, c11) and as C++ (c++11, c++20) with -Wall
 * -Wextra -Werror -pedantic by CTest (tests/CMakeLists.txt): no other include needed, no
 * warning in either language, the inline helpers included. */
#include "hitgrid.h"

int main(void) {
  hitgrid_world_options options;
  hitgrid_pair pair = ((uint64_t)((1u << 30) | 5u) << 32) | 7u;
  hitgrid_shape_def def = hitgrid_circle_def(0.0f, 0.0f, 1.0f);
  hitgrid_rope* rope = 0;
  hitgrid_rope_node node = {0.0f, 0.0f, HITGRID_ROPE_NO_PEG, 0, 0};
  (void)options;
  (void)def;
  (void)rope;
  (void)node;
  return hitgrid_id_kind(hitgrid_pair_first(pair)) == HITGRID_CIRCLE && hitgrid_id_index(hitgrid_pair_first(pair)) == 5 &&
                 hitgrid_pair_second(pair) == 7
             ? 0
             : 1;
}
