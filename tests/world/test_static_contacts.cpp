// StaticContacts (world/src/static_contacts.hpp), on its own rather than through World:
// after every find() of a multi-frame history its keys must be exactly the brute force's,
// every dynamic shape against every static shape with the predicates that define the
// answer (intersects without a margin, within_distance with one). The kept lists of nearby
// static shapes are what can go wrong, so the histories make them stale every way a world
// can: small steps inside the slack boxes, steady drifts and teleports out of them, shapes
// growing, shapes taking other shapes' places in the dynamic scene (Scene::swap_remove),
// static shapes moved, removed and added (invalidate), release_memory, no static shapes
// and no dynamic shapes. Every ISA, arenas of one, two and three threads and task hooks
// must give the same keys. The inputs include exact contacts and their one-ulp misses,
// zero-size shapes, coordinates near 1e6 and 1e30, and dynamic shapes whose lists hold
// hundreds of static shapes. So that the checks can fail, each test also checks that its
// reference finds pairs, and the histories that they find pairs only a rebuilt list holds.
#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <memory>
#include <set>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include "hitgrid/broadphase/detail/parallel.hpp"
#include "hitgrid/broadphase/grid_index.hpp"
#include "hitgrid/core/intersects.hpp"
#include "hitgrid/core/splitmix64.hpp"
#include "hitgrid/core/within_distance.hpp"
#include "hitgrid/simd/isa.hpp"
#include "static_contacts.hpp"
#include "support/adversarial.hpp"
#include "support/exact_reference.hpp"
#include "support/nudged.hpp"
#include "support/sanitizer_builds.hpp"
#include "support/task_hooks.hpp"

using namespace hitgrid;

namespace {

using Owners = StaticContacts::Owners;
using AnyShape = std::variant<Segment, Circle, Box>;

constexpr std::size_t at(ShapeKind k) { return static_cast<std::size_t>(k); }
constexpr std::array<ShapeKind, 3> kinds = {ShapeKind::segment, ShapeKind::circle, ShapeKind::box};

template <class F>
void for_each_shape(const Scene& s, F&& f) {
  for (std::uint32_t i = 0; i < s.segment_count(); ++i) f(ShapeKind::segment, i, s.segment(i));
  for (std::uint32_t i = 0; i < s.circle_count(); ++i) f(ShapeKind::circle, i, s.circle(i));
  for (std::uint32_t i = 0; i < s.box_count(); ++i) f(ShapeKind::box, i, s.box(i));
}

std::uint64_t key_of(std::uint32_t dynamic_slot, std::uint32_t static_slot) {
  return std::uint64_t{dynamic_slot} << 32 | static_slot;
}
std::uint32_t dynamic_slot_of(std::uint64_t key) { return static_cast<std::uint32_t>(key >> 32); }
std::uint32_t static_slot_of(std::uint64_t key) { return static_cast<std::uint32_t>(key); }

/// The reference: every dynamic shape against every static shape, with the exact
/// predicate of the margin; sorted keys.
std::vector<std::uint64_t> brute_force(const Scene& dynamic, const Owners& dynamic_owners, const Scene& statics,
                                       const Owners& static_owners, float margin) {
  std::vector<std::uint64_t> out;
  for_each_shape(dynamic, [&](ShapeKind dk, std::uint32_t i, const auto& a) {
    for_each_shape(statics, [&](ShapeKind sk, std::uint32_t j, const auto& b) {
      if (margin == 0.0f ? intersects(a, b) : within_distance(a, b, margin))
        out.push_back(key_of(dynamic_owners[at(dk)][i], static_owners[at(sk)][j]));
    });
  });
  std::sort(out.begin(), out.end());
  return out;
}

std::string describe_key(std::uint64_t key) {
  std::string s = "(";  // built with += : GCC 12 warns (-Wrestrict, falsely) on "(" + string
  s += std::to_string(dynamic_slot_of(key));
  s += ", ";
  s += std::to_string(static_slot_of(key));
  s += ")";
  return s;
}

/// "" when the sorted keys are equal; else what is missing and what is extra (a key
/// reported twice counts as extra), a few of each.
std::string difference(const std::vector<std::uint64_t>& got, const std::vector<std::uint64_t>& want) {
  std::vector<std::uint64_t> missing, extra;
  std::set_difference(want.begin(), want.end(), got.begin(), got.end(), std::back_inserter(missing));
  std::set_difference(got.begin(), got.end(), want.begin(), want.end(), std::back_inserter(extra));
  if (missing.empty() && extra.empty()) return "";
  std::string s = std::to_string(missing.size()) + " missing, " + std::to_string(extra.size()) + " extra;";
  for (std::size_t i = 0; i < std::min<std::size_t>(missing.size(), 5); ++i)
    s += " missing " + describe_key(missing[i]);
  for (std::size_t i = 0; i < std::min<std::size_t>(extra.size(), 5); ++i) s += " extra " + describe_key(extra[i]);
  return s;
}

/// Where a find() runs: an ISA, and a TBB arena or a task hook.
struct Exec {
  Isa isa = Isa::scalar;
  tbb::task_arena* arena = nullptr;
  TaskHook hook{};
  std::string name;
};

/// The places the tests run find() on. `fixed`: every ISA on one and on two threads, each
/// for a contacts object of its own; `roaming`: those and three threads and two task hooks
/// (a pool of threads, and ranges split at random and run last first), taken in turn by
/// one contacts object that changes place every frame (its lists do not depend on where
/// they were built).
class Execs {
 public:
  Execs() {
    for (Isa isa : test::isas_to_test())
      for (tbb::task_arena* arena : {&one_, &two_}) {
        if (test::tsan_build && arena == &one_) continue;  // support/sanitizer_builds.hpp
        fixed.push_back({isa, arena, {}, std::string(isa_name(isa)) + (arena == &one_ ? ", 1 thread" : ", 2 threads")});
      }
    roaming = fixed;
    roaming.push_back({best_isa(), &three_, {}, std::string(isa_name(best_isa())) + ", 3 threads"});
    roaming.push_back({Isa::scalar, nullptr, pool_.hook(), "scalar, thread pool hook"});
    roaming.push_back({best_isa(), nullptr, serial_.hook(), std::string(isa_name(best_isa())) + ", serial hook"});
  }
  std::vector<Exec> fixed, roaming;

 private:
  // Three threads on a machine of two: allowed, so that the arenas get the threads asked.
  tbb::global_control allow_{tbb::global_control::max_allowed_parallelism, 8};
  tbb::task_arena one_{1}, two_{2}, three_{3};
  test::ThreadPoolHook pool_{1};
  test::SerialHook serial_{17};
};

/// run() on `exec`'s arena, or through its task hook.
template <class F>
void run_on(const Exec& exec, const F& run) {
  if (exec.hook) {
    const detail::TaskHookScope scope(exec.hook);
    run();
  } else {
    exec.arena->execute(run);
  }
}

/// contacts.find on `exec`, into a vector that already holds a marker (find appends; the
/// marker must stay first); the keys sorted, without the marker.
std::vector<std::uint64_t> find_keys(StaticContacts& contacts, const Exec& exec, const Scene& dynamic,
                                     const Owners& dynamic_owners, const GridIndex& statics,
                                     const Owners& static_owners, float margin) {
  constexpr std::uint64_t marker = 0x0123456789abcdefull;
  std::vector<std::uint64_t> out{marker};
  auto run = [&] { contacts.find(dynamic, dynamic_owners, statics, static_owners, margin, exec.isa, out); };
  run_on(exec, run);
  CHECK(out.front() == marker);
  out.erase(out.begin());
  std::sort(out.begin(), out.end());
  return out;
}

/// contacts.find_changes on `exec`, the same way: the begins and the ends, each sorted.
std::pair<std::vector<std::uint64_t>, std::vector<std::uint64_t>> find_changes(StaticContacts& contacts,
                                                                               const Exec& exec, const Scene& dynamic,
                                                                               const Owners& dynamic_owners,
                                                                               const GridIndex& statics,
                                                                               const Owners& static_owners) {
  constexpr std::uint64_t marker = 0x0123456789abcdefull;
  std::vector<std::uint64_t> begins{marker}, ends{marker};
  auto run = [&] { contacts.find_changes(dynamic, dynamic_owners, statics, static_owners, exec.isa, begins, ends); };
  run_on(exec, run);
  CHECK(begins.front() == marker);
  CHECK(ends.front() == marker);
  begins.erase(begins.begin());
  ends.erase(ends.begin());
  std::sort(begins.begin(), begins.end());
  std::sort(ends.begin(), ends.end());
  return {begins, ends};
}

/// The pairs in `now` and not in `then`.
std::vector<std::uint64_t> minus(const std::vector<std::uint64_t>& now, const std::vector<std::uint64_t>& then) {
  std::vector<std::uint64_t> out;
  std::set_difference(now.begin(), now.end(), then.begin(), then.end(), std::back_inserter(out));
  return out;
}

/// Slots as a world hands them out: distinct, spread over all 32 bits, the first two
/// 0xffffffff and 0 (the key's extreme halves).
struct Slots {
  std::uint32_t n = 0;
  std::uint32_t next() {
    const std::uint32_t k = n++;
    return k == 0 ? 0xffffffffu : k == 1 ? 0u : k * 0x9E3779B1u;
  }
};

/// Unit space to floats: offset + scale * v, rounded once. A power-of-two scale and an
/// offset that is a multiple of the quarter lattice's image keep lattice contacts exact.
struct Frame {
  double offset = 0.0, scale = 1.0;
  float map(double v) const { return static_cast<float>(offset + scale * v); }
};

enum class Motion { still, sliver, wander, lattice_drift, fast, grow, teleport, count };

/// A shape in unit space, with the way it moves.
struct Body {
  std::uint32_t slot = 0;
  ShapeKind kind = ShapeKind::segment;
  double x = 0, y = 0;  // a segment's a, a circle's centre, a box's min: a point of the shape
  double w = 0, h = 0;  // a segment's b - a, a circle's radius (w), a box's size
  Motion motion = Motion::still;
  double vx = 0, vy = 0;  // the step per frame
};

AnyShape shape_of(const Body& b, const Frame& f) {
  switch (b.kind) {
    case ShapeKind::segment:
      return Segment{{f.map(b.x), f.map(b.y)}, {f.map(b.x + b.w), f.map(b.y + b.h)}};
    case ShapeKind::circle:
      return Circle{{f.map(b.x), f.map(b.y)}, static_cast<float>(f.scale * b.w)};
    case ShapeKind::box:
      break;
  }
  return Box{{f.map(b.x), f.map(b.y)}, {f.map(b.x + b.w), f.map(b.y + b.h)}};
}

Aabb bounds_of(const AnyShape& s) {
  return std::visit([](const auto& x) { return bounds(x); }, s);
}

/// A scene and its shapes' slots, changed as a world changes them: shapes moved in place,
/// removed by moving the kind's last shape into the place (Scene::swap_remove), added at
/// the end. `bodies` holds the shapes in unit space, at the same places.
struct Side {
  Scene scene;
  Owners owners;
  std::array<std::vector<Body>, 3> bodies;

  void add(const Body& b, const Frame& f) {
    std::visit([&](const auto& s) { scene.add(s); }, shape_of(b, f));
    owners[at(b.kind)].push_back(b.slot);
    bodies[at(b.kind)].push_back(b);
  }
  void add(const AnyShape& s, std::uint32_t slot) {
    std::visit([&](const auto& x) { scene.add(x); }, s);
    owners[s.index()].push_back(slot);
  }
  void remove(ShapeKind k, std::uint32_t i) {
    scene.swap_remove(k, i);
    auto swap_pop = [i](auto& v) {
      if (v.empty()) return;  // (bodies: none for shapes added without one)
      v[i] = v.back();
      v.pop_back();
    };
    swap_pop(owners[at(k)]);
    swap_pop(bodies[at(k)]);
  }
  /// Every shape set to its body's geometry.
  void place_all(const Frame& f) {
    for (ShapeKind k : kinds)
      for (std::uint32_t i = 0; i < bodies[at(k)].size(); ++i)
        std::visit([&](const auto& s) { scene.set(i, s); }, shape_of(bodies[at(k)][i], f));
    scene.recompute_bounds();
  }
  std::size_t size() const { return scene.size(); }
};

double quarter(double v) { return std::round(v * 4.0) / 4.0; }

/// A random body of `kind` at [lo, hi)^2 of size up to `size`: on the quarter lattice half
/// the time (shared endpoints, touching edges and corners); now and then of zero size.
Body random_body(SplitMix64& r, ShapeKind kind, std::uint32_t slot, double lo, double hi, double size) {
  Body b;
  b.slot = slot;
  b.kind = kind;
  const bool lattice = r.u() < 0.5;
  auto q = [&](double v) { return lattice ? quarter(v) : v; };
  b.x = q(lo + r.u() * (hi - lo));
  b.y = q(lo + r.u() * (hi - lo));
  const bool zero = r.u() < 0.06;
  switch (kind) {
    case ShapeKind::segment:
      b.w = zero ? 0.0 : q((2 * r.u() - 1) * size);
      b.h = zero ? 0.0 : q((2 * r.u() - 1) * size);
      break;
    case ShapeKind::circle:
      b.w = zero ? 0.0 : q(r.u() * size / 2);
      break;
    case ShapeKind::box:
      // Zero size: a point, or flat in one axis.
      b.w = zero && r.u() < 0.7 ? 0.0 : q(r.u() * size);
      b.h = zero && r.u() < 0.7 ? 0.0 : q(r.u() * size);
      break;
  }
  return b;
}

/// A moving body: one of the motions, with its step.
Body random_dynamic_body(SplitMix64& r, ShapeKind kind, std::uint32_t slot, double world) {
  Body b = random_body(r, kind, slot, 0, world, 2.0);
  b.motion = static_cast<Motion>(r.next() % static_cast<std::uint64_t>(Motion::count));
  const double angle = 2 * 3.14159265358979 * r.u();
  auto step = [&](double speed) {
    b.vx = speed * std::cos(angle);
    b.vy = speed * std::sin(angle);
  };
  switch (b.motion) {
    case Motion::sliver:
      step(1.0 / 64);
      break;
    case Motion::wander:
      step(0.1 + 0.2 * r.u());
      break;
    case Motion::lattice_drift:
      b.x = quarter(b.x), b.y = quarter(b.y), b.w = quarter(b.w), b.h = quarter(b.h);
      b.vx = 0.25 * static_cast<double>(static_cast<int>(r.next() % 3) - 1);
      b.vy = 0.25 * static_cast<double>(static_cast<int>(r.next() % 3) - 1);
      if (b.vx == 0 && b.vy == 0) b.vx = 0.25;
      break;
    case Motion::fast:
      step(2.5);
      break;
    case Motion::grow:
      // Grows from a small size to many cells across, then stays.
      b.w = b.kind == ShapeKind::circle ? 0.25 : 0.5;
      b.h = 0.5;
      break;
    default:
      break;
  }
  return b;
}

/// One frame of a body's motion.
void advance(Body& b, SplitMix64& r, double world) {
  // Steady motions turn back at the world's edges, so they keep meeting static shapes.
  auto bounce = [&] {
    if ((b.x < -2 && b.vx < 0) || (b.x > world + 2 && b.vx > 0)) b.vx = -b.vx;
    if ((b.y < -2 && b.vy < 0) || (b.y > world + 2 && b.vy > 0)) b.vy = -b.vy;
  };
  switch (b.motion) {
    case Motion::still:
    case Motion::count:
      break;
    case Motion::sliver:
    case Motion::lattice_drift:
    case Motion::fast:
      b.x += b.vx, b.y += b.vy;
      bounce();
      break;
    case Motion::wander:
      if (r.u() < 0.15) b.vx = -b.vx, b.vy = -b.vy;
      b.x += b.vx, b.y += b.vy;
      break;
    case Motion::grow:
      if (std::max(std::abs(b.w), std::abs(b.h)) < 24) b.w *= 1.3, b.h *= 1.3;
      break;
    case Motion::teleport:
      if (r.u() < 0.35) {
        // Far outside the static world a third of the time, then back into it.
        const bool far = r.u() < 0.33;
        b.x = (far ? 1000 : 0) + r.u() * world;
        b.y = (far ? -700 : 0) + r.u() * world;
      }
      break;
  }
}

/// Static bodies: `n` small shapes over the world, and a few large ones (long segments
/// across it, large circles and boxes), so that lists hold shapes of every size.
std::vector<Body> random_statics(SplitMix64& r, Slots& slots, std::size_t n, double world) {
  std::vector<Body> out;
  for (std::size_t i = 0; i < n; ++i) out.push_back(random_body(r, kinds[i % 3], slots.next(), 0, world, 1.5));
  auto add = [&](ShapeKind kind, double x, double y, double w, double h) {
    out.push_back(Body{slots.next(), kind, x, y, w, h});
  };
  add(ShapeKind::segment, 0, 17.25, world, 0);
  add(ShapeKind::segment, 0, 0, world, world);
  add(ShapeKind::segment, 31.5, 0, 0, world);
  add(ShapeKind::circle, 12, 40, 4, 0);
  add(ShapeKind::circle, 45.25, 20.5, 3.5, 0);
  add(ShapeKind::box, 20, 50, 6, 3);
  return out;
}

/// A fresh contacts object for each fixed place and one for the roaming place.
struct ContactsUnderTest {
  std::vector<std::unique_ptr<StaticContacts>> fixed;
  StaticContacts roaming;
  explicit ContactsUnderTest(const Execs& execs) {
    for (std::size_t i = 0; i < execs.fixed.size(); ++i) fixed.push_back(std::make_unique<StaticContacts>());
  }
  template <class F>
  void each(F&& f) {
    for (auto& c : fixed) f(*c);
    f(roaming);
  }
  /// Runs every object's find on its place (the roaming one on its `frame`th place) and
  /// checks the keys against `want`; or with `previous` (the last frame's want), its
  /// find_changes, and the begins and ends against want's differences with `previous`.
  void check(const Execs& execs, int frame, const Side& dynamic, const GridIndex& index, const Side& statics,
             float margin, const std::vector<std::uint64_t>& want,
             const std::vector<std::uint64_t>* previous = nullptr) {
    auto check_one = [&](StaticContacts& c, const Exec& e) {
      if (previous == nullptr) {
        const std::vector<std::uint64_t> got =
            find_keys(c, e, dynamic.scene, dynamic.owners, index, statics.owners, margin);
        CHECK(difference(got, want) == "");
        return;
      }
      REQUIRE(c.changes_known());
      const auto [begins, ends] = find_changes(c, e, dynamic.scene, dynamic.owners, index, statics.owners);
      INFO("begins");
      CHECK(difference(begins, minus(want, *previous)) == "");
      INFO("ends");
      CHECK(difference(ends, minus(*previous, want)) == "");
    };
    for (std::size_t i = 0; i < fixed.size(); ++i) {
      INFO(execs.fixed[i].name);
      check_one(*fixed[i], execs.fixed[i]);
    }
    const Exec& e = execs.roaming[static_cast<std::size_t>(frame) % execs.roaming.size()];
    INFO("roaming, " << e.name);
    check_one(roaming, e);
  }
};

struct History {
  Frame frame;
  std::size_t statics = 600, dynamics_per_kind = 300;
  int frames = 24;
  float margin = 0.0f;
  std::uint64_t seed = 1;
  /// Without a margin: shapes are taken out only every fourth frame (and by the frames
  /// below that take them out or release the lists), and the other frames check
  /// find_changes (with its condition: since the last find, shapes moved in place, were
  /// added, static shapes added and moved).
  bool changes = false;
};

/// What a history's references held, for the checks that the history can fail.
struct HistoryCounts {
  std::size_t pairs = 0;
  /// Pairs, before the static shapes first change, of a dynamic shape with a static shape
  /// far from where the dynamic shape was at frame 0 (bounds further than its size plus
  /// two static cells): no list built at frame 0 holds that static shape (a list holds
  /// only static shapes whose bounds meet its slack box), so only rebuilt lists find them.
  std::size_t far_pairs = 0;
  /// Pairs of dynamic shapes that never move with static shapes added or moved, or pairs
  /// of theirs that changed, when the static shapes change: their lists are only built
  /// again because of invalidate().
  std::size_t still_pairs_changed = 0;
  /// Frames whose reference was empty because there were no static or no dynamic shapes.
  int empty_frames = 0;
  /// With History::changes: frames that checked find_changes, and their begins and ends.
  int change_frames = 0;
  std::size_t begins = 0, ends = 0;
};

constexpr int first_static_change = 6, release_frame = 9, translate_statics = 12, statics_gone = 15, statics_back = 16,
              dynamics_gone = 18, dynamics_back = 19, second_static_change = 20;

/// Runs a history (the frame numbers above) on every place; checks each find against the
/// brute force.
HistoryCounts run_history(const History& o, const Execs& execs) {
  SplitMix64 r(test::test_seed(o.seed));
  const double world = 60;
  Slots static_slots, dynamic_slots;
  Side statics, dynamics;
  for (const Body& b : random_statics(r, static_slots, o.statics, world)) statics.add(b, o.frame);
  auto index = std::make_unique<GridIndex>(statics.scene);
  for (std::size_t i = 0; i < 3 * o.dynamics_per_kind; ++i)
    dynamics.add(random_dynamic_body(r, kinds[i % 3], dynamic_slots.next(), world), o.frame);

  ContactsUnderTest contacts(execs);
  HistoryCounts counts;
  std::set<std::uint32_t> still;  // slots of dynamic shapes that have not moved since frame 0
  for (const auto& v : dynamics.bodies)
    for (const Body& b : v)
      if (b.motion == Motion::still) still.insert(b.slot);
  std::unordered_map<std::uint32_t, Aabb> reach;  // dynamic slot -> the far pairs' limit
  const double cell = index->cell_size();
  for (const auto& v : dynamics.bodies)
    for (const Body& b : v) {
      const Aabb box = bounds_of(shape_of(b, o.frame));
      const double d = std::max(double{box.max.x} - box.min.x, double{box.max.y} - box.min.y) + 2 * cell + o.margin;
      reach[b.slot] = {{static_cast<float>(box.min.x - d), static_cast<float>(box.min.y - d)},
                       {static_cast<float>(box.max.x + d), static_cast<float>(box.max.y + d)}};
    }
  auto remove_dynamic = [&](ShapeKind k, std::uint32_t i) {
    still.erase(dynamics.bodies[at(k)][i].slot);
    dynamics.remove(k, i);
  };
  auto random_place = [&](const Side& side, ShapeKind& k, std::uint32_t& i) {
    do k = kinds[r.next() % 3];
    while (side.bodies[at(k)].empty());
    i = static_cast<std::uint32_t>(r.next() % side.bodies[at(k)].size());
  };
  // The static shapes changed: a new index, and every list stale.
  auto statics_changed = [&] {
    statics.place_all(o.frame);
    index = std::make_unique<GridIndex>(statics.scene);
    contacts.each([](StaticContacts& c) { c.invalidate(); });
  };
  std::set<std::uint32_t> changed_statics;  // slots added or moved by the last change
  // Moves some static shapes, removes some and adds some, among them boxes over dynamic
  // shapes that never move (at their anchor point, which every kind contains).
  auto change_statics = [&] {
    changed_statics.clear();
    for (int j = 0; j < 30; ++j) {
      ShapeKind k;
      std::uint32_t i;
      random_place(statics, k, i);
      Body& b = statics.bodies[at(k)][i];
      b.x += 0.25 * static_cast<double>(r.next() % 5), b.y -= 0.25 * static_cast<double>(r.next() % 3);
      changed_statics.insert(b.slot);
    }
    for (int j = 0; j < 15; ++j) {
      ShapeKind k;
      std::uint32_t i;
      random_place(statics, k, i);
      changed_statics.erase(statics.bodies[at(k)][i].slot);
      statics.remove(k, i);
    }
    std::vector<std::uint32_t> still_slots(still.begin(), still.end());
    for (int j = 0; j < 20; ++j) {
      Body b = random_body(r, kinds[r.next() % 3], static_slots.next(), 0, world, 1.5);
      if (j < 10 && !still_slots.empty()) {
        const std::uint32_t slot = still_slots[r.next() % still_slots.size()];
        for (const auto& v : dynamics.bodies)
          for (const Body& d : v)
            if (d.slot == slot) b.kind = ShapeKind::box, b.x = d.x - 0.5, b.y = d.y - 0.5, b.w = 1, b.h = 1;
      }
      changed_statics.insert(b.slot);
      statics.add(b, o.frame);
    }
    statics_changed();
  };

  Side saved_statics;
  std::vector<std::uint64_t> previous;
  for (int f = 0; f < o.frames; ++f) {
    const bool taking_out = !o.changes || f % 4 == 1;
    // The frames that take shapes out (or drop the lists) whatever taking_out says.
    const bool changes = o.changes && f > 0 && !taking_out && f != first_static_change && f != release_frame &&
                         f != statics_gone && f != dynamics_gone && f != second_static_change;
    if (f > 0) {
      for (auto& v : dynamics.bodies)
        for (Body& b : v) advance(b, r, world);
      if (f != dynamics_gone && f != dynamics_back) {
        // Shapes destroyed (another takes the place), created, and changing kind (the
        // same slot, at the end of another kind's places).
        for (int j = 0; j < 4 && taking_out; ++j) {
          ShapeKind k;
          std::uint32_t i;
          random_place(dynamics, k, i);
          remove_dynamic(k, i);
        }
        for (int j = 0; j < 4; ++j)
          dynamics.add(random_dynamic_body(r, kinds[r.next() % 3], dynamic_slots.next(), world), o.frame);
        for (int j = 0; j < 2 && taking_out; ++j) {
          ShapeKind k;
          std::uint32_t i;
          random_place(dynamics, k, i);
          const std::uint32_t slot = dynamics.bodies[at(k)][i].slot;
          remove_dynamic(k, i);
          reach.erase(slot);  // a new shape: its far pairs say nothing of rebuilt lists
          dynamics.add(random_dynamic_body(r, kinds[(at(k) + 1 + r.next() % 2) % 3], slot, world), o.frame);
        }
      }
    }
    if (f == dynamics_gone)
      while (dynamics.size() != 0) {
        ShapeKind k;
        std::uint32_t i;
        random_place(dynamics, k, i);
        remove_dynamic(k, i);
      }
    if (f == dynamics_back)
      for (std::size_t i = 0; i < 3 * o.dynamics_per_kind; ++i)
        dynamics.add(random_dynamic_body(r, kinds[i % 3], dynamic_slots.next(), world), o.frame);
    dynamics.place_all(o.frame);

    if (f == first_static_change) change_statics();
    if (f == translate_statics) {
      for (auto& v : statics.bodies)
        for (Body& b : v) b.x += 0.25;
      statics_changed();
    }
    if (f == statics_gone) {
      saved_statics = statics;
      statics = Side{};
      statics_changed();
    }
    if (f == statics_back) {
      statics = saved_statics;
      statics_changed();
    }
    if (f == release_frame || f == second_static_change) contacts.each([](StaticContacts& c) { c.release_memory(); });
    if (f == second_static_change) change_statics();

    INFO("frame " << f << ", " << dynamics.size() << " dynamic and " << statics.size() << " static shapes");
    const std::vector<std::uint64_t> want =
        brute_force(dynamics.scene, dynamics.owners, statics.scene, statics.owners, o.margin);
    counts.pairs += want.size();
    if (want.empty() && (statics.size() == 0 || dynamics.size() == 0)) ++counts.empty_frames;
    if (f < first_static_change) {
      std::unordered_map<std::uint32_t, Aabb> static_bounds;
      for (ShapeKind k : kinds)
        for (const Body& b : statics.bodies[at(k)]) static_bounds[b.slot] = bounds_of(shape_of(b, o.frame));
      for (std::uint64_t key : want) {
        const auto limit = reach.find(dynamic_slot_of(key));
        if (limit != reach.end() && !overlaps(limit->second, static_bounds.at(static_slot_of(key)))) ++counts.far_pairs;
      }
    }
    if (f == first_static_change || f == second_static_change)
      for (std::uint64_t key : want)
        counts.still_pairs_changed += still.count(dynamic_slot_of(key)) && changed_statics.count(static_slot_of(key));
    if (f == translate_statics) {
      std::vector<std::uint64_t> changed;
      std::set_symmetric_difference(want.begin(), want.end(), previous.begin(), previous.end(),
                                    std::back_inserter(changed));
      for (std::uint64_t key : changed) counts.still_pairs_changed += still.count(dynamic_slot_of(key));
    }
    if (changes) {
      ++counts.change_frames;
      counts.begins += minus(want, previous).size();
      counts.ends += minus(previous, want).size();
    }
    contacts.check(execs, f, dynamics, *index, statics, o.margin, want, changes ? &previous : nullptr);
    previous = want;
  }
  return counts;
}

void check_counts(const HistoryCounts& c, const History& o) {
  INFO(c.pairs << " pairs, " << c.far_pairs << " far, " << c.still_pairs_changed << " changed for still shapes");
  CHECK(c.pairs > 100 * static_cast<std::size_t>(o.frames));
  CHECK(c.far_pairs > 50);
  CHECK(c.still_pairs_changed > 10);
  CHECK(c.empty_frames == 2);  // no static shapes, then no dynamic shapes
  if (o.changes) {
    INFO(c.change_frames << " frames of changes: " << c.begins << " begins, " << c.ends << " ends");
    CHECK(c.change_frames >= o.frames / 2);
    CHECK(c.begins > 20 * static_cast<std::size_t>(c.change_frames));
    CHECK(c.ends > 20 * static_cast<std::size_t>(c.change_frames));
  }
}

}  // namespace

TEST_CASE("static contacts equal the brute force through a history of moves, new lists, static changes and releases",
          "[world][static_contacts]") {
  const Execs execs;
  for (float margin : {0.0f, 0.25f}) {
    INFO("margin " << margin);
    History o;
    o.margin = margin;
    o.seed = 41;
    check_counts(run_history(o, execs), o);
  }
}

TEST_CASE("static contacts' changes equal the differences of the brute force's pair sets through a history",
          "[world][static_contacts]") {
  // The history above without a margin, shapes taken out only every fourth frame; the
  // frames between report the pairs that began and ended (find_changes), through lists
  // kept, rebuilt (their touched marks carried by slot), new shapes, static shapes moved
  // and added, and finds without static or dynamic shapes before.
  const Execs execs;
  for (const Frame frame : {Frame{}, Frame{1e6, 1.0}}) {
    INFO("offset " << frame.offset);
    History o;
    o.frame = frame;
    o.changes = true;
    o.seed = 47;
    check_counts(run_history(o, execs), o);
  }
}

TEST_CASE("static contacts equal the brute force through a history near 1e6 and near 1e30",
          "[world][static_contacts]") {
  // The same histories with every coordinate moved to about 1e6 (the quarter lattice still
  // exact: the float step there is 1/16) and to about 1e30 (unit 2^80, the lattice's
  // quarter 2^78 a multiple of the float step 2^76 there), the margin scaled alike.
  const Execs execs;
  for (const Frame frame : {Frame{1e6, 1.0}, Frame{double{1e30f}, 0x1p80}})
    for (double margin : {0.0, 0.25}) {
      INFO("offset " << frame.offset << ", scale " << frame.scale << ", margin " << margin);
      History o;
      o.frame = frame;
      o.margin = static_cast<float>(margin * frame.scale);
      o.statics = 300;
      o.dynamics_per_kind = 270;
      o.seed = 43;
      check_counts(run_history(o, execs), o);
    }
}

using test::nudged;

TEST_CASE("static contacts of the adversarial families equal the brute force, and after one-ulp moves",
          "[world][static_contacts]") {
  // Each family's pairs (exact contacts, tangents, shared endpoints, zero sizes, one-ulp
  // misses, 1e7, 1e-7, subnormals, up to FLT_MAX), one shape of each pair static and the
  // other dynamic, either way round. Frame 1 moves every dynamic coordinate by at most one
  // ulp (contacts become misses and the reverse, within the slack boxes), frame 2 puts the
  // shapes back, frame 3 removes forty dynamic shapes (others take their places).
  const Execs execs;
  std::size_t pairs = 0;
  for (test::Family family : test::all_families) {
    test::Generator g(family, test::test_seed(300 + static_cast<std::uint64_t>(family)));
    SplitMix64 r(test::test_seed(400 + static_cast<std::uint64_t>(family)));
    Side statics, dynamics;
    Slots static_slots, dynamic_slots;
    auto place = [&](const AnyShape& a, const AnyShape& b) {
      const bool swap = r.u() < 0.5;
      statics.add(swap ? b : a, static_slots.next());
      dynamics.add(swap ? a : b, dynamic_slots.next());
    };
    test::place_pairs(g, 36, place);
    const GridIndex index(statics.scene);
    for (float margin : {0.0f, 0.25f}) {
      INFO(test::family_name(family) << ", margin " << margin);
      ContactsUnderTest contacts(execs);
      Side moving = dynamics;
      for (int f = 0; f < 4; ++f) {
        INFO("frame " << f);
        if (f == 1) {
          moving = Side{};
          for_each_shape(dynamics.scene, [&](ShapeKind k, std::uint32_t i, const auto& s) {
            moving.add(nudged(AnyShape{s}, r), dynamics.owners[at(k)][i]);
          });
        }
        if (f == 2) moving = dynamics;
        if (f == 3)
          for (int j = 0; j < 40; ++j) {
            const ShapeKind k = kinds[r.next() % 3];
            if (moving.scene.count(k) == 0) continue;
            moving.remove(k, static_cast<std::uint32_t>(r.next() % moving.scene.count(k)));
          }
        const std::vector<std::uint64_t> want =
            brute_force(moving.scene, moving.owners, statics.scene, statics.owners, margin);
        pairs += want.size();
        contacts.check(execs, 4 * static_cast<int>(family) + f, moving, index, statics, margin, want);
      }
    }
  }
  CHECK(pairs > 5000);
}

namespace {

float up(float v) { return std::nextafter(v, std::numeric_limits<float>::infinity()); }
float down(float v) { return std::nextafter(v, -std::numeric_limits<float>::infinity()); }

/// The independent GMP reference (support/exact_reference.hpp), for either order of kinds.
template <class A, class B>
bool exact_touch(const A& a, const B& b) {
  if constexpr (std::is_same_v<A, Box> || (std::is_same_v<A, Circle> && std::is_same_v<B, Segment>))
    return reference::intersects(b, a);
  else
    return reference::intersects(a, b);
}

}  // namespace

TEST_CASE("static contacts find exact contacts and miss their one-ulp neighbours, from 1e-30 to 1e30",
          "[world][static_contacts]") {
  // Hand-built contacts, each dynamic shape touching exactly one static shape: a shared
  // endpoint, collinear segments end to end, tangent circles (a 6-8-10 triangle), a box
  // corner on a segment, boxes corner to corner, a circle tangent to a box's edge, and
  // zero-size shapes (a point segment, a zero radius, a point box) on others. Each has a
  // copy one ulp away that touches nothing. In every frame (an offset and a power-of-two
  // scale keep the contacts exact) find() reports exactly the contacts, on its first call
  // and from its kept lists; with a margin of one unit the copies too. The library's
  // predicates and the GMP reference agree on every pair.
  const Execs execs;
  std::size_t found = 0;
  for (const Frame fr :
       {Frame{0, 1}, Frame{1e6, 1}, Frame{0, 0x1p-100}, Frame{0, 0x1p100}, Frame{double{1e30f}, 0x1p77}}) {
    auto p = [&](double x, double y) { return Vec2{fr.map(x), fr.map(y)}; };
    auto len = [&](double v) { return static_cast<float>(fr.scale * v); };
    Side statics, dynamics;
    Slots static_slots, dynamic_slots;
    const std::vector<AnyShape> static_shapes{
        Segment{p(0, 0), p(4, 0)},   Circle{p(10, 0), len(3)},    Box{p(20, 0), p(22, 2)},
        Segment{p(30, 0), p(34, 4)}, Segment{p(40, 0), p(40, 0)}, Circle{p(50, 0), 0.0f},
        Box{p(60, 0), p(60, 0)},     Box{p(70, 0), p(72, 2)},     Segment{p(84, 0), p(88, 0)}};
    std::vector<std::uint32_t> static_slot;  // by position in static_shapes
    for (const AnyShape& s : static_shapes) {
      static_slot.push_back(static_slots.next());
      statics.add(s, static_slot.back());
    }
    // (dynamic shape, the static shape it touches, or -1)
    std::vector<std::pair<AnyShape, int>> cases{
        {Segment{p(4, 0), p(6, 2)}, 0},    {Segment{{up(p(4, 0).x), p(4, 0).y}, p(6, 2)}, -1},
        {Circle{p(16, 8), len(7)}, 1},     {Circle{p(16, 8), down(len(7))}, -1},
        {Box{p(31, 2), p(32, 3)}, 3},      {Box{p(31, 2), {down(p(32, 3).x), p(32, 3).y}}, -1},
        {Box{p(22, 2), p(23, 3)}, 2},      {Box{{up(p(22, 2).x), p(22, 2).y}, p(23, 3)}, -1},
        {Circle{p(71, 5), len(3)}, 7},     {Circle{{p(71, 5).x, up(p(71, 5).y)}, len(3)}, -1},
        {Segment{p(2, 0), p(2, 0)}, 0},    {Segment{{p(2, 0).x, up(p(2, 0).y)}, {p(2, 0).x, up(p(2, 0).y)}}, -1},
        {Circle{p(40, 0), 0.0f}, 4},       {Circle{{up(p(40, 0).x), p(40, 0).y}, 0.0f}, -1},
        {Box{p(50, 0), p(50, 0)}, 5},      {Box{{p(50, 0).x, down(p(50, 0).y)}, {p(50, 0).x, down(p(50, 0).y)}}, -1},
        {Segment{p(59, -1), p(61, 1)}, 6}, {Segment{{p(59, -1).x, up(p(59, -1).y)}, p(61, 1)}, -1},
        {Segment{p(80, 0), p(84, 0)}, 8},  {Segment{p(80, 0), {down(p(84, 0).x), p(84, 0).y}}, -1},
    };
    std::vector<std::uint64_t> expected, near_misses;
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const std::uint32_t slot = dynamic_slots.next();
      dynamics.add(cases[i].first, slot);
      // A copy one ulp away misses the contact of the case before it.
      const int touched = cases[i].second >= 0 ? cases[i].second : cases[i - 1].second;
      (cases[i].second >= 0 ? expected : near_misses)
          .push_back(key_of(slot, static_slot[static_cast<std::size_t>(touched)]));
    }
    std::sort(expected.begin(), expected.end());
    std::sort(near_misses.begin(), near_misses.end());
    const std::vector<std::uint64_t> want =
        brute_force(dynamics.scene, dynamics.owners, statics.scene, statics.owners, 0);
    INFO("offset " << fr.offset << ", scale " << fr.scale);
    CHECK(difference(want, expected) == "");
    std::vector<std::uint64_t> gmp;
    for_each_shape(dynamics.scene, [&](ShapeKind dk, std::uint32_t i, const auto& a) {
      for_each_shape(statics.scene, [&](ShapeKind sk, std::uint32_t j, const auto& b) {
        if (exact_touch(a, b)) gmp.push_back(key_of(dynamics.owners[at(dk)][i], statics.owners[at(sk)][j]));
      });
    });
    std::sort(gmp.begin(), gmp.end());
    CHECK(difference(gmp, expected) == "");
    const GridIndex index(statics.scene);
    ContactsUnderTest contacts(execs), with_margin(execs);
    const float margin = len(1);  // more than one ulp in every frame (2^76 = half a unit near 1e30)
    const std::vector<std::uint64_t> want_margin =
        brute_force(dynamics.scene, dynamics.owners, statics.scene, statics.owners, margin);
    CHECK(std::includes(want_margin.begin(), want_margin.end(), near_misses.begin(), near_misses.end()));
    CHECK(std::includes(want_margin.begin(), want_margin.end(), expected.begin(), expected.end()));
    for (int f = 0; f < 2; ++f) {
      contacts.check(execs, f, dynamics, index, statics, 0.0f, expected);
      with_margin.check(execs, f, dynamics, index, statics, margin, want_margin);
    }
    found += expected.size();
  }
  CHECK(found == 5 * 10);
}

TEST_CASE("dynamic shapes over hundreds of static cells have all their static contacts, as the margin changes",
          "[world][static_contacts]") {
  // A lattice of 1600 small static boxes, 400 small circles and 400 short segments, and
  // dynamic shapes from a point to 30 units across (a box, a circle, a long segment): the
  // large ones' lists hold hundreds of static shapes (far more than a list's few cache
  // lines, and more than one batch of exact tests, 512 pairs). They move two units a
  // frame, so their lists are built again and again, and the margin changes between
  // frames (the same contacts objects): pairs against the brute force, on the grid's own
  // cell size and on cells of one unit.
  const Execs execs;
  Side statics;
  Slots static_slots, dynamic_slots;
  for (int i = 0; i < 40; ++i)
    for (int j = 0; j < 40; ++j) {
      const auto x = static_cast<float>(i), y = static_cast<float>(j);
      statics.add(Box{{x, y}, {x + 0.5f, y + 0.5f}}, static_slots.next());
      if (i % 2 == 0 && j % 2 == 0) statics.add(Circle{{x + 0.75f, y + 0.75f}, 0.25f}, static_slots.next());
      if (i % 2 == 1 && j % 2 == 1)
        statics.add(Segment{{x + 0.5f, y + 0.75f}, {x + 1.0f, y + 0.75f}}, static_slots.next());
    }
  std::vector<Body> bodies;
  auto body = [&](ShapeKind kind, double x, double y, double w, double h) {
    bodies.push_back(Body{dynamic_slots.next(), kind, x, y, w, h});
  };
  body(ShapeKind::box, 2, 2, 30, 30);
  body(ShapeKind::circle, 20, 20, 14, 0);
  body(ShapeKind::segment, 0.25, 0.125, 39.5, 37.75);
  body(ShapeKind::box, 7, 7, 0, 0);
  body(ShapeKind::segment, 9.5, 9.5, 0, 0);
  SplitMix64 r(test::test_seed(51));
  for (int i = 0; i < 40; ++i) bodies.push_back(random_body(r, kinds[i % 3], dynamic_slots.next(), 0, 40, 3));
  for (float cell : {0.0f, 1.0f}) {
    INFO("cell " << cell);
    FindPairsOptions fo;
    fo.cell_size = cell;
    const GridIndex index(statics.scene, fo);
    ContactsUnderTest contacts(execs);
    for (int f = 0; f < 6; ++f) {
      const float margin = std::array{0.0f, 0.5f, 0.0f, 0.0f, 0.125f, 0.0f}[static_cast<std::size_t>(f)];
      INFO("frame " << f << ", margin " << margin);
      Side dynamics;
      for (Body b : bodies) {
        b.x += (f % 3) * 2.0 - 1.0, b.y += f * 1.5 - 4.0;  // back and forth in x, on in y
        dynamics.add(b, Frame{});
      }
      const std::vector<std::uint64_t> want =
          brute_force(dynamics.scene, dynamics.owners, statics.scene, statics.owners, margin);
      const auto big_box = static_cast<std::size_t>(std::count_if(
          want.begin(), want.end(), [&](std::uint64_t k) { return dynamic_slot_of(k) == bodies[0].slot; }));
      CHECK(big_box > 600);
      contacts.check(execs, f, dynamics, index, statics, margin, want);
    }
  }
}

TEST_CASE("static contacts find nothing without static or dynamic shapes, and every pair once there are some",
          "[world][static_contacts]") {
  // find() appends nothing (the marker find_keys puts first stays alone) with a default
  // index, an index of no shapes and an empty dynamic scene; statics that appear later
  // (invalidate) and dynamic shapes that come back are found; statics that go away again
  // leave nothing.
  const Execs execs;
  SplitMix64 r(test::test_seed(61));
  Slots static_slots, dynamic_slots;
  Side statics, dynamics, none;
  for (std::size_t i = 0; i < 400; ++i) statics.add(random_body(r, kinds[i % 3], static_slots.next(), 0, 30, 2), {});
  for (std::size_t i = 0; i < 300; ++i)
    dynamics.add(random_dynamic_body(r, kinds[i % 3], dynamic_slots.next(), 30), {});
  const GridIndex default_index, empty_index{Scene{}}, index(statics.scene);
  for (float margin : {0.0f, 0.25f}) {
    INFO("margin " << margin);
    ContactsUnderTest contacts(execs);
    const std::vector<std::uint64_t> all =
        brute_force(dynamics.scene, dynamics.owners, statics.scene, statics.owners, margin);
    CHECK(all.size() > 100);
    const std::vector<std::uint64_t> nothing;
    contacts.check(execs, 0, dynamics, default_index, none, margin, nothing);
    contacts.check(execs, 1, dynamics, empty_index, none, margin, nothing);
    contacts.each([](StaticContacts& c) { c.invalidate(); });
    contacts.check(execs, 2, dynamics, index, statics, margin, all);
    contacts.check(execs, 3, none, index, statics, margin, nothing);
    contacts.check(execs, 4, dynamics, index, statics, margin, all);
    contacts.each([](StaticContacts& c) { c.invalidate(); });
    contacts.check(execs, 5, dynamics, default_index, none, margin, nothing);
    contacts.each([](StaticContacts& c) { c.invalidate(); });
    contacts.check(execs, 6, dynamics, index, statics, margin, all);
    contacts.each([](StaticContacts& c) { c.release_memory(); });
    contacts.check(execs, 7, none, default_index, none, margin, nothing);
    contacts.check(execs, 8, dynamics, index, statics, margin, all);
  }
}

TEST_CASE("lists follow how each shape moves, jittering, wandering, going on, stopping, with exact keys every frame",
          "[world][static_contacts]") {
  // 600 frames of 120 dynamic shapes over 600 static ones: a third jitter in place (a
  // step and back), a third wander (a random step on each axis), a third go on steadily
  // for 200 frames, turn, and stop at frame 300. Their lists' slack and reach ahead follow
  // (static_contacts.cpp, next_list); whatever they do, every frame's keys are the brute
  // force's. The counts show the lists did adapt: built again while shapes went on, reaching
  // ahead, given more slack when they did not last, and built again when lists grown for a
  // shape that since stopped got old.
  SplitMix64 r(test::test_seed(71));
  const double world = 40;
  Slots static_slots, dynamic_slots;
  Side statics, dynamics;
  for (const Body& b : random_statics(r, static_slots, 600, world)) statics.add(b, {});
  const GridIndex index(statics.scene);
  std::vector<Body> bodies;
  for (int i = 0; i < 120; ++i) {
    Body b = random_body(r, kinds[i % 3], dynamic_slots.next(), 4, world - 4, 1.0);
    b.vx = 0.04 * (r.u() < 0.5 ? -1 : 1), b.vy = 0.03 * (r.u() < 0.5 ? -1 : 1);
    bodies.push_back(b);
  }
  for (const Body& b : bodies) dynamics.add(b, {});
  StaticContacts contacts;
  tbb::task_arena two(2);
  std::vector<std::uint64_t> previous;
  std::size_t changes = 0;
  for (int f = 0; f < 600; ++f) {
    for (std::size_t i = 0; i < bodies.size(); ++i) {
      Body& b = bodies[i];
      switch (i % 3) {
        case 0:
          b.x += f % 2 == 0 ? 0.05 : -0.05;
          break;
        case 1:
          b.x += 0.05 * (2 * r.u() - 1), b.y += 0.05 * (2 * r.u() - 1);
          break;
        default:
          if (f == 200) b.vx = -b.vx, b.vy = -b.vy;
          if (f < 300) b.x += b.vx, b.y += b.vy;
          break;
      }
      dynamics.bodies[at(b.kind)][static_cast<std::size_t>(std::find_if(dynamics.owners[at(b.kind)].begin(),
                                                                        dynamics.owners[at(b.kind)].end(),
                                                                        [&](std::uint32_t s) { return s == b.slot; }) -
                                                           dynamics.owners[at(b.kind)].begin())] = b;
    }
    dynamics.place_all({});
    const Exec exec{f % 2 == 0 ? best_isa() : Isa::scalar, &two, {}, ""};
    INFO("frame " << f);
    const std::vector<std::uint64_t> want =
        brute_force(dynamics.scene, dynamics.owners, statics.scene, statics.owners, 0.0f);
    // Two frames in three report the changes since the last (whichever form it was).
    if (f % 3 == 0) {
      const std::vector<std::uint64_t> got =
          find_keys(contacts, exec, dynamics.scene, dynamics.owners, index, statics.owners, 0.0f);
      REQUIRE(difference(got, want) == "");
    } else {
      const auto [begins, ends] = find_changes(contacts, exec, dynamics.scene, dynamics.owners, index, statics.owners);
      REQUIRE(difference(begins, minus(want, previous)) == "");
      REQUIRE(difference(ends, minus(previous, want)) == "");
      changes += begins.size() + ends.size();
    }
    previous = want;
  }
  const StaticContacts::Counts& c = contacts.counts();
  CHECK(c.change_finds == 400);
  CHECK(changes > 2000);
  INFO(c.lists_built << " lists built, " << c.lists_ahead << " ahead, " << c.lists_built_aged << " aged, "
                     << c.lists_wider << " wider");
  CHECK(c.finds == 600);
  CHECK(c.lists_built > 400);       // 120 at first, then the wandering and going shapes'
  CHECK(c.lists_ahead > 200);       // the going shapes', most times they left their box
  CHECK(c.lists_built_aged >= 30);  // the stopped shapes' lists, 256 frames after built
  // The wandering shapes' lists, that did not last, got more slack (without the learning,
  // none: 0 of 1,083 lists built, against 733 of 895 with it).
  CHECK(c.lists_wider > 300);
  CHECK(c.listed > 0);
}

TEST_CASE("a shape that jumps keeps the speed its list planned for", "[world][static_contacts]") {
  // 90 dynamic shapes go on steadily to the right and jump back every 100 frames (a
  // teleport). The lists built at a jump reach ahead as far as the shapes went per frame
  // before it (next_list), so the shapes go on in them for the next 15 frames; planning
  // for the jump's speed instead (a list reaching back the way they jumped) or for none
  // (the least slack) builds every list again within a few frames. The keys are the brute
  // force's every frame.
  SplitMix64 r(test::test_seed(73));
  const double world = 40;
  Slots static_slots, dynamic_slots;
  Side statics, dynamics;
  for (const Body& b : random_statics(r, static_slots, 600, world)) statics.add(b, {});
  const GridIndex index(statics.scene);
  for (int i = 0; i < 90; ++i) dynamics.add(random_body(r, kinds[i % 3], dynamic_slots.next(), 4, 20, 1.0), {});
  StaticContacts contacts;
  tbb::task_arena two(2);
  const Exec exec{best_isa(), &two, {}, ""};
  std::uint64_t built_at_jump = 0;
  for (int f = 1; f <= 300; ++f) {
    for (auto& kind_bodies : dynamics.bodies)
      for (Body& b : kind_bodies) b.x += f % 100 == 0 ? -5.0 : 0.05;
    dynamics.place_all({});
    INFO("frame " << f);
    const std::vector<std::uint64_t> got =
        find_keys(contacts, exec, dynamics.scene, dynamics.owners, index, statics.owners, 0.0f);
    REQUIRE(difference(got, brute_force(dynamics.scene, dynamics.owners, statics.scene, statics.owners, 0.0f)) == "");
    if (f % 100 == 0) built_at_jump = contacts.counts().lists_built;
    if (f > 100 && f % 100 == 15) CHECK(contacts.counts().lists_built - built_at_jump == 0);
  }
}
