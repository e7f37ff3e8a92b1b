// The home-cell grid's order itself (HomeGrid::order_hash): what the grid-build benchmark
// prints, and what the search's answer rests on. It must not depend on the thread count:
// the counting sort by row uses fixed blocks of shapes and stable scatters, and each row
// is sorted on its own.
#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <catch2/catch.hpp>

#include "cell_size.hpp"
#include "hitgrid/core/detail/fnv1a.hpp"
#include "hitgrid/core/generators.hpp"
#include "home_grid.hpp"

using namespace hitgrid;

namespace {

std::uint64_t order_on(const Scene& scene, int threads) {
  tbb::task_arena arena(threads);
  std::uint64_t order = 0;
  arena.execute([&] {
    const SceneExtent extent = scene_extent(scene);
    HomeGridStats stats;
    HomeGrid grid(scene, KindRanges::of(scene), PairKeyCodec{bits_for(scene.size())},
                  choose_home_log2_cell(scene, extent, 0.0f), extent, false, resolve_isa(Isa::automatic), stats);
    grid.sort_rows();
    order = grid.order_hash();
  });
  return order;
}

}  // namespace

TEST_CASE("the home grid's order does not depend on the thread count", "[grid]") {
  tbb::global_control allow(tbb::global_control::max_allowed_parallelism, 8);
  for (Family family : all_families) {
    GeneratorParams p;
    p.n = 120'000;  // several of the counting sort's blocks (2^14 shapes each)
    const Scene scene = generate(family, p);
    INFO(family_name(family));
    const std::uint64_t one = order_on(scene, 1);
    for (int threads : {2, 4, 8}) CHECK(order_on(scene, threads) == one);
    // Not the input order: the grid did sort the shapes.
    Fnv1a input;
    for (std::uint64_t i = 0; i < scene.size(); ++i) input.add_u64(i);
    CHECK(one != input.value());
  }
}
