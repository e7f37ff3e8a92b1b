#include "stress_shrink.hpp"

#include <algorithm>
#include <chrono>

namespace hitgrid::stress {

Scene subscene(const Scene& scene, std::span<const ShapeId> keep) {
  Scene out;
  for (ShapeId id : keep) {
    switch (id.kind()) {
      case ShapeKind::segment:
        out.add(scene.segment(id.index()));
        break;
      case ShapeKind::circle:
        out.add(scene.circle(id.index()));
        break;
      default:
        out.add(scene.box(id.index()));
        break;
    }
  }
  return out;
}

ShrinkResult shrink_scene(const Scene& scene, const FailsFn& fails, std::span<const ShapeId> suspects,
                          double max_seconds) {
  using clock = std::chrono::steady_clock;
  const auto deadline = clock::now() + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(max_seconds));
  ShrinkResult result;
  auto test = [&](const std::vector<ShapeId>& ids) {
    ++result.tests;
    return fails(subscene(scene, ids));
  };

  std::vector<ShapeId> current;
  for (ShapeKind kind : {ShapeKind::segment, ShapeKind::circle, ShapeKind::box})
    for (std::uint32_t i = 0; i < scene.count(kind); ++i) current.emplace_back(kind, i);
  std::vector<ShapeId> first(suspects.begin(), suspects.end());
  std::sort(first.begin(), first.end());
  first.erase(std::unique(first.begin(), first.end()), first.end());
  if (!first.empty() && first.size() < current.size() && test(first)) current = first;

  // ddmin: split the current set into n chunks; keep a failing chunk (back to n = 2) or a
  // failing complement (n - 1), else split finer; 1-minimal when the chunks are single
  // shapes and none can go.
  std::size_t n = 2;
  bool minimal = current.size() <= 1;
  while (current.size() >= 2) {
    if (clock::now() > deadline) break;
    n = std::min(n, current.size());
    std::vector<std::vector<ShapeId>> chunks(n);
    for (std::size_t i = 0; i < current.size(); ++i) chunks[i * n / current.size()].push_back(current[i]);
    bool reduced = false;
    for (std::size_t c = 0; c < n && !reduced; ++c) {
      if (test(chunks[c])) {
        current = chunks[c];
        n = 2;
        reduced = true;
      }
    }
    for (std::size_t c = 0; c < n && !reduced && n > 2; ++c) {
      std::vector<ShapeId> complement;
      for (std::size_t k = 0; k < n; ++k)
        if (k != c) complement.insert(complement.end(), chunks[k].begin(), chunks[k].end());
      std::sort(complement.begin(), complement.end());
      if (test(complement)) {
        current = std::move(complement);
        n = std::max<std::size_t>(n - 1, 2);
        reduced = true;
      }
    }
    if (reduced) continue;
    if (n >= current.size()) {
      minimal = true;
      break;
    }
    n = std::min(2 * n, current.size());
  }
  if (current.size() <= 1) minimal = true;
  result.scene = subscene(scene, current);
  result.kept = std::move(current);
  result.minimal = minimal;
  return result;
}

}  // namespace hitgrid::stress
