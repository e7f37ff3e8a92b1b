#include "stress_world.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <vector>

#include "hitgrid/core/detail/fnv1a.hpp"
#include "hitgrid/core/splitmix64.hpp"

namespace hitgrid::stress {
namespace {

/// One shape of the scene through the frames.
struct Actor {
  Shape shape;
  std::uint64_t key = 0;  // from the seed and the shape's bits: its history's seed
  ShapeHandle handle;     // null while destroyed
  BodyType body = BodyType::dynamic_body;
  ShapeFilter filter;
};

std::vector<Shape> scene_shapes(const Scene& scene) {
  std::vector<Shape> out;
  for (std::uint32_t i = 0; i < scene.segment_count(); ++i) out.emplace_back(scene.segment(i));
  for (std::uint32_t i = 0; i < scene.circle_count(); ++i) out.emplace_back(scene.circle(i));
  for (std::uint32_t i = 0; i < scene.box_count(); ++i) out.emplace_back(scene.box(i));
  return out;
}

std::uint64_t shape_key(const Shape& shape, std::uint64_t seed) {
  Fnv1a h;
  h.add_u64(seed);
  h.add_u64(shape.index());
  std::visit([&](const auto& s) { h.add_bytes(&s, sizeof(s)); }, shape);
  return h.value();
}

/// A stream of draws for (key, frame, purpose).
SplitMix64 draws(std::uint64_t key, std::uint64_t frame, std::uint64_t purpose) {
  SplitMix64 mix(key ^ (frame * 0x9E3779B97F4A7C15ull) ^ (purpose << 56));
  return SplitMix64(mix.next());
}

constexpr std::uint64_t mask_choices[] = {~std::uint64_t{0}, 1, 2, 4, 3, 5, 6};

ShapeFilter draw_filter(SplitMix64& r) {
  return {std::uint64_t{1} << (r.next() % 3), mask_choices[r.next() % 7]};
}

Aabb shape_bounds(const Shape& shape) {
  return std::visit([](const auto& s) { return bounds(s); }, shape);
}

/// The shape moved by (kx, ky) units, a unit being a power of two near the shape's size
/// (or its distance from the origin, for a point); nothing if a coordinate would leave
/// float32's range.
std::optional<Shape> moved(const Shape& shape, long kx, long ky) {
  const Aabb b = shape_bounds(shape);
  double size = std::max(static_cast<double>(b.max.x) - b.min.x, static_cast<double>(b.max.y) - b.min.y);
  if (!(size > 0.0)) size = std::max(std::fabs(static_cast<double>(b.min.x)), std::fabs(static_cast<double>(b.min.y))) / 8;
  if (!(size > 0.0) || !std::isfinite(size)) size = 1.0;
  const double unit = std::ldexp(1.0, std::ilogb(size));
  bool in_range = true;
  auto shift = [&](float v, long k) {
    const double x = static_cast<double>(v) + static_cast<double>(k) * unit;
    if (!(std::fabs(x) <= std::numeric_limits<float>::max())) in_range = false;
    return static_cast<float>(x);
  };
  Shape out = std::visit(
      [&](const auto& s) -> Shape {
        using T = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<T, Segment>) {
          return Segment{{shift(s.a.x, kx), shift(s.a.y, ky)}, {shift(s.b.x, kx), shift(s.b.y, ky)}};
        } else if constexpr (std::is_same_v<T, Circle>) {
          return Circle{{shift(s.c.x, kx), shift(s.c.y, ky)}, s.r};
        } else {
          return Box{{shift(s.min.x, kx), shift(s.min.y, ky)}, {shift(s.max.x, kx), shift(s.max.y, ky)}};
        }
      },
      shape);
  // A float sum may round a box's two sides onto each other, never past: min <= max holds.
  if (!in_range) return std::nullopt;
  return out;
}

/// A point of the shape (an endpoint, the centre, a corner) as a zero-size box.
Box point_of(const Shape& shape) {
  const Aabb b = shape_bounds(shape);
  const Vec2 p = std::holds_alternative<Circle>(shape) ? std::get<Circle>(shape).c : b.min;
  return Box{p, p};
}

std::string handle_text(ShapeHandle h) {
  return std::to_string(h.index) + "/" + std::to_string(h.generation);
}

template <class T>
std::string list_difference(std::span<const T> want, std::span<const T> got) {
  std::vector<T> missing, extra;
  std::set_difference(want.begin(), want.end(), got.begin(), got.end(), std::back_inserter(missing));
  std::set_difference(got.begin(), got.end(), want.begin(), want.end(), std::back_inserter(extra));
  std::ostringstream s;
  s << missing.size() << " missing, " << extra.size() << " extra";
  if (missing.empty() && extra.empty()) s << " (not sorted and unique)";
  auto show = [&](const char* what, const std::vector<T>& v) {
    for (std::size_t i = 0; i < std::min<std::size_t>(v.size(), 3); ++i) {
      if constexpr (std::is_same_v<T, HandlePair>)
        s << "; " << what << ' ' << handle_text(v[i].a) << " - " << handle_text(v[i].b);
      else
        s << "; " << what << ' ' << handle_text(v[i]);
    }
  };
  show("missing", missing);
  show("extra", extra);
  return s.str();
}

/// The live shapes as a scene (in handle order) for the exact pair test.
struct LiveScene {
  Scene scene;
  std::vector<const Actor*> actors;  // by position, handle order
  std::vector<ShapeId> ids;
};

LiveScene live_scene(const std::vector<Actor>& actors) {
  LiveScene live;
  for (const Actor& a : actors)
    if (a.handle.generation != 0) live.actors.push_back(&a);
  std::sort(live.actors.begin(), live.actors.end(), [](const Actor* x, const Actor* y) { return x->handle < y->handle; });
  for (const Actor* a : live.actors) live.ids.push_back(std::visit([&](const auto& s) { return live.scene.add(s); }, a->shape));
  return live;
}

std::vector<HandlePair> expected_pairs(const LiveScene& live, const PairTestFn& test) {
  std::vector<HandlePair> out;
  for (std::size_t i = 0; i < live.actors.size(); ++i)
    for (std::size_t j = i + 1; j < live.actors.size(); ++j) {
      const Actor &a = *live.actors[i], &b = *live.actors[j];
      if (a.body == BodyType::static_body && b.body == BodyType::static_body) continue;
      if ((a.filter.category & b.filter.mask) == 0 || (b.filter.category & a.filter.mask) == 0) continue;
      if (test(live.scene, live.ids[i], live.ids[j])) out.push_back({a.handle, b.handle});
    }
  return out;
}

std::vector<ShapeHandle> expected_query(const LiveScene& live, const Shape& query, std::uint64_t mask,
                                        const PairTestFn& test) {
  Scene scene = live.scene;
  const ShapeId q = std::visit([&](const auto& s) { return scene.add(s); }, query);
  std::vector<ShapeHandle> out;
  for (std::size_t i = 0; i < live.actors.size(); ++i)
    if ((live.actors[i]->filter.category & mask) != 0 && test(scene, live.ids[i], q))
      out.push_back(live.actors[i]->handle);
  return out;
}

/// One frame's changes to one actor.
void change(World& world, Actor& a, std::uint64_t frame) {
  SplitMix64 r = draws(a.key, frame, 1);
  const std::uint64_t action = r.next() % 100;
  if (a.handle.generation == 0) {  // destroyed last frame: comes back
    a.handle = world.create(ShapeDef(a.shape, a.body, a.filter));
    return;
  }
  if (action < 55) return;
  if (action < 82) {
    if (auto m = moved(a.shape, static_cast<long>(r.next() % 5) - 2, static_cast<long>(r.next() % 5) - 2)) {
      a.shape = *m;
      world.move(a.handle, a.shape);
    }
  } else if (action < 88) {
    a.body = a.body == BodyType::static_body ? BodyType::dynamic_body : BodyType::static_body;
    world.set_body(a.handle, a.body);
  } else if (action < 94) {
    a.filter = draw_filter(r);
    world.set_filter(a.handle, a.filter);
  } else {
    world.destroy(a.handle);
    a.handle = {};
  }
}

}  // namespace

std::optional<std::string> check_world(const Scene& shapes, const WorldChecks& checks, const PairTestFn& test,
                                       WorldCounts* counts) {
  WorldCounts local;
  WorldCounts& c = counts ? *counts : local;
  World world(checks.options);
  std::vector<Actor> actors;
  for (const Shape& s : scene_shapes(shapes)) {
    Actor a;
    a.shape = s;
    a.key = shape_key(s, checks.seed);
    SplitMix64 r = draws(a.key, 0, 0);
    a.body = r.next() % 4 == 0 ? BodyType::static_body : BodyType::dynamic_body;
    a.filter = r.next() % 2 == 0 ? ShapeFilter{} : draw_filter(r);
    a.handle = world.create(ShapeDef(a.shape, a.body, a.filter));
    actors.push_back(a);
  }
  std::vector<HandlePair> previous;
  std::vector<ShapeHandle> handles;
  std::vector<CastHit> hits;
  for (unsigned frame = 0; frame < checks.frames; ++frame) {
    if (frame > 0)
      for (Actor& a : actors) change(world, a, frame);
    world.step();
    ++c.steps;
    const LiveScene live = live_scene(actors);
    const std::vector<HandlePair> want = expected_pairs(live, test);
    const std::string at = "world frame " + std::to_string(frame) + ": ";
    if (!std::equal(want.begin(), want.end(), world.pairs().begin(), world.pairs().end()))
      return at + "pairs: " + list_difference<HandlePair>(want, world.pairs());
    std::vector<HandlePair> began, ended;
    std::set_difference(want.begin(), want.end(), previous.begin(), previous.end(), std::back_inserter(began));
    std::set_difference(previous.begin(), previous.end(), want.begin(), want.end(), std::back_inserter(ended));
    if (!std::equal(began.begin(), began.end(), world.begin_events().begin(), world.begin_events().end()))
      return at + "begin events: " + list_difference<HandlePair>(began, world.begin_events());
    if (!std::equal(ended.begin(), ended.end(), world.end_events().begin(), world.end_events().end()))
      return at + "end events: " + list_difference<HandlePair>(ended, world.end_events());
    c.pairs += want.size();
    c.events += began.size() + ended.size();
    previous = want;

    if (actors.empty()) continue;
    SplitMix64 r = draws(checks.seed, frame, 2);
    for (unsigned q = 0; q < checks.queries; ++q) {
      const Actor& from = actors[r.next() % actors.size()];
      const std::uint64_t mask = mask_choices[r.next() % 7];
      Shape query = from.shape;
      if (r.next() % 3 == 0) {
        query = point_of(from.shape);
      } else if (auto m = moved(from.shape, static_cast<long>(r.next() % 3) - 1, static_cast<long>(r.next() % 3) - 1)) {
        query = *m;
      }
      const std::vector<ShapeHandle> expect = expected_query(live, query, mask, test);
      world.query(query, mask, handles);
      ++c.queries;
      if (handles != expect)
        return at + "query " + std::to_string(q) + ": " + list_difference<ShapeHandle>(expect, handles);
      if (const auto* segment = std::get_if<Segment>(&query)) {
        world.cast(*segment, mask, hits);
        handles.clear();
        for (const CastHit& h : hits) handles.push_back(h.handle);
        std::sort(handles.begin(), handles.end());
        if (handles != expect)
          return at + "cast " + std::to_string(q) + " hits: " + list_difference<ShapeHandle>(expect, handles);
      }
    }
  }
  return std::nullopt;
}

}  // namespace hitgrid::stress
