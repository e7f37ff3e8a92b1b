#include "stress_checks.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <sstream>

#include "hitgrid/core/shape_pair_test.hpp"

namespace hitgrid::stress {
namespace {

std::vector<ShapeId> all_ids(const Scene& scene) {
  std::vector<ShapeId> ids;
  ids.reserve(scene.size());
  for (ShapeKind kind : {ShapeKind::segment, ShapeKind::circle, ShapeKind::box})
    for (std::uint32_t i = 0; i < scene.count(kind); ++i) ids.emplace_back(kind, i);
  return ids;
}

Aabb shape_bounds(const Scene& scene, ShapeId id) {
  switch (id.kind()) {
    case ShapeKind::segment:
      return bounds(scene.segment(id.index()));
    case ShapeKind::circle:
      return bounds(scene.circle(id.index()));
    default:
      return bounds(scene.box(id.index()));
  }
}

std::string pair_text(Pair p) {
  std::ostringstream s;
  s << kind_letter(p.first().kind()) << ' ' << p.first().index() << ' ' << kind_letter(p.second().kind()) << ' '
    << p.second().index();
  return s.str();
}

std::string cell_text(float cell) {
  if (cell == 0.0f) return "auto";
  std::ostringstream s;
  s << cell;
  return s.str();
}

}  // namespace

std::string describe(const FinderConfig& c) {
  return "isa " + std::string(isa_name(c.isa)) + ", " + std::to_string(c.threads) + " threads, cell " +
         cell_text(c.cell_size) + ", large cell " + cell_text(c.large_cell_size);
}

PairList library_finder(const Scene& scene, const FinderConfig& config) {
  FindPairsOptions o;
  o.isa = config.isa;
  o.threads = config.threads;
  o.cell_size = config.cell_size;
  o.large_cell_size = config.large_cell_size;
  return find_pairs(scene, o);
}

bool library_pair_test(const Scene& scene, ShapeId a, ShapeId b) { return intersects(scene, a, b); }

std::vector<ShapeId> shapes_in_window(const Scene& scene, const Aabb& window) {
  std::vector<ShapeId> in;
  for (ShapeId id : all_ids(scene))
    if (overlaps(shape_bounds(scene, id), window)) in.push_back(id);
  return in;
}

PairList reference_pairs_touching(const Scene& scene, std::span<const ShapeId> focus, const PairTestFn& test) {
  const std::vector<ShapeId> ids = all_ids(scene);
  tbb::enumerable_thread_specific<PairList> found;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, focus.size(), 1), [&](const auto& range) {
    PairList& out = found.local();
    for (std::size_t f = range.begin(); f != range.end(); ++f)
      for (ShapeId other : ids)
        if (other != focus[f] && test(scene, focus[f], other)) out.emplace_back(focus[f], other);
  });
  PairList pairs;
  for (const PairList& part : found) pairs.insert(pairs.end(), part.begin(), part.end());
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  return pairs;
}

PairList reference_pairs(const Scene& scene, const PairTestFn& test) {
  // Each pair once: shape i against the shapes after it.
  const std::vector<ShapeId> ids = all_ids(scene);
  tbb::enumerable_thread_specific<PairList> found;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, ids.size(), 16), [&](const auto& range) {
    PairList& out = found.local();
    for (std::size_t i = range.begin(); i != range.end(); ++i)
      for (std::size_t j = i + 1; j < ids.size(); ++j)
        if (test(scene, ids[i], ids[j])) out.emplace_back(ids[i], ids[j]);
  });
  PairList pairs;
  for (const PairList& part : found) pairs.insert(pairs.end(), part.begin(), part.end());
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

PairList pairs_touching(const PairList& pairs, std::span<const ShapeId> focus) {
  PairList out;
  for (Pair p : pairs)
    if (std::binary_search(focus.begin(), focus.end(), p.first()) ||
        std::binary_search(focus.begin(), focus.end(), p.second()))
      out.push_back(p);
  return out;
}

std::string describe(const Mismatch& m) {
  std::string s = m.what + ": " + std::to_string(m.missing_count) + " missing, " + std::to_string(m.extra_count) +
                  " extra";
  for (Pair p : m.missing) s += "; missing " + pair_text(p);
  for (Pair p : m.extra) s += "; extra " + pair_text(p);
  return s;
}

std::optional<Mismatch> compare_pairs(const PairList& expected, const PairList& found, std::string what) {
  if (expected == found) return std::nullopt;
  constexpr std::size_t kept = 4;
  Mismatch m;
  m.what = std::move(what);
  PairList missing, extra;
  std::set_difference(expected.begin(), expected.end(), found.begin(), found.end(), std::back_inserter(missing));
  std::set_difference(found.begin(), found.end(), expected.begin(), expected.end(), std::back_inserter(extra));
  m.missing_count = missing.size();
  m.extra_count = extra.size();
  // Equal as sets but not as lists: unsorted or duplicated output.
  if (missing.empty() && extra.empty()) m.what += " (same pairs, but not sorted and unique)";
  m.missing.assign(missing.begin(), missing.begin() + static_cast<std::ptrdiff_t>(std::min(kept, missing.size())));
  m.extra.assign(extra.begin(), extra.begin() + static_cast<std::ptrdiff_t>(std::min(kept, extra.size())));
  return m;
}

std::optional<Mismatch> check_scene(const Scene& scene, const SceneChecks& checks, const PairFinderFn& finder,
                                    const PairTestFn& test, CheckCounts* counts) {
  CheckCounts local;
  CheckCounts& c = counts ? *counts : local;
  const PairList tested = finder(scene, checks.tested);
  c.pairs += tested.size();
  const std::string name = describe(checks.tested);
  if (auto m = compare_pairs(finder(scene, checks.scalar), tested, name + " vs " + describe(checks.scalar)))
    return m;
  if (auto m = compare_pairs(finder(scene, checks.other_threads), tested, name + " vs " + describe(checks.other_threads)))
    return m;
  for (std::size_t w = 0; w < checks.windows.size(); ++w) {
    const std::vector<ShapeId> focus = shapes_in_window(scene, checks.windows[w]);
    c.window_shapes += focus.size();
    c.reference_tests += focus.size() * scene.size();
    if (auto m = compare_pairs(reference_pairs_touching(scene, focus, test), pairs_touching(tested, focus),
                               name + " vs the exact reference on window " + std::to_string(w)))
      return m;
  }
  if (checks.whole_reference) {
    c.reference_tests += scene.size() * (scene.size() - 1) / 2;
    if (auto m = compare_pairs(reference_pairs(scene, test), tested, name + " vs the exact reference"))
      return m;
  }
  return std::nullopt;
}

}  // namespace hitgrid::stress
