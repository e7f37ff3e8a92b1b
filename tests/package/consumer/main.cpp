// Finds the pairs of a three-shape scene through the installed API; exits 0 only if the
// answer is exactly the two expected pairs.
// The umbrella header: every public header must compile on its own installed folder, with
// no private header of the project reachable.
#include <hitgrid/hitgrid.hpp>

int main() {
  hitgrid::Scene scene;
  scene.add(hitgrid::Segment{{0, 0}, {2, 2}});
  scene.add(hitgrid::Circle{{1, 1}, 0.5f});
  scene.add(hitgrid::Box{{2, 2}, {3, 3}});
  const hitgrid::PairList pairs = hitgrid::find_pairs(scene);
  const hitgrid::ShapeId s0(hitgrid::ShapeKind::segment, 0), c0(hitgrid::ShapeKind::circle, 0),
      b0(hitgrid::ShapeKind::box, 0);
  const bool ok = pairs.size() == 2 && pairs[0] == hitgrid::Pair(s0, c0) && pairs[1] == hitgrid::Pair(s0, b0);
  const hitgrid::Scene generated = hitgrid::generate(hitgrid::Family::uniform, {1000, 1});
  return ok && generated.segment_count() == 1000 ? 0 : 1;
}
