// DynamicContacts (world/src/dynamic_contacts.hpp), on its own rather than through World:
// through multi-frame histories, every build's pairs must be exactly the brute force's (every
// pair of dynamic shapes the filters accept, intersects), and every carry's begins and ends
// exactly the differences of consecutive brute-force pair sets. What can go wrong is the
// carrying: a pair that comes to touch without being a candidate, or marks that do not
// match the last frame. So the histories jitter shapes inside their slack boxes, drift
// them out slowly, teleport a few, grow one, nudge every coordinate by one ulp (exact
// contacts become misses and back), add shapes (carrying must be refused unless the
// change is told: patch), take shapes out and add others on the slots they freed, and run on
// every ISA, on arenas of one and two threads and on two task hooks, which all must give
// the same keys. The inputs include the adversarial families (exact contacts and their
// one-ulp misses, zero sizes, 1e7, 1e-7, subnormals, up to FLT_MAX). So that the checks can
// fail, the tests check that carries, builds, escapes and waits all happened, and that the
// reference's pairs change from frame to frame.
#include <tbb/global_control.h>

#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "dynamic_contacts.hpp"
#include "hitgrid/broadphase/find_pairs.hpp"
#include "hitgrid/core/intersects.hpp"
#include "hitgrid/core/splitmix64.hpp"
#include "hitgrid/simd/isa.hpp"
#include "support/adversarial.hpp"
#include "support/nudged.hpp"
#include "support/sanitizer_builds.hpp"
#include "support/task_hooks.hpp"

using namespace hitgrid;

namespace {

using AnyShape = std::variant<Segment, Circle, Box>;
using Owners = DynamicContacts::Owners;

constexpr std::size_t at(ShapeKind k) { return static_cast<std::size_t>(k); }

/// A world's dynamic side: its scene, each shape's slot, and each shape as given.
struct Side {
  Scene scene;
  Owners owners;
  std::size_t slot_count = 0;

  void add(const AnyShape& s, std::uint32_t slot) {
    const ShapeId id = std::visit([&](const auto& g) { return scene.add(g); }, s);
    owners[at(id.kind())].push_back(slot);
    slot_count = std::max<std::size_t>(slot_count, slot + 1);
  }
  AnyShape shape(ShapeKind k, std::uint32_t i) const {
    switch (k) {
      case ShapeKind::segment:
        return scene.segment(i);
      case ShapeKind::circle:
        return scene.circle(i);
      case ShapeKind::box:
        break;
    }
    return scene.box(i);
  }
  /// Shape i of kind k taken out, the kind's last moved into its place (as a World does).
  void remove(ShapeKind k, std::uint32_t i) {
    scene.swap_remove(k, i);
    owners[at(k)][i] = owners[at(k)].back();
    owners[at(k)].pop_back();
  }
  /// Shape i of kind k replaced, in place (the same kind).
  void replace(ShapeKind k, std::uint32_t i, const AnyShape& s) {
    std::visit([&](const auto& g) { scene.replace(i, g); }, s);
    (void)k;
  }
  template <class F>
  void for_each(F&& f) const {
    for (std::size_t k = 0; k < 3; ++k)
      for (std::uint32_t i = 0; i < scene.count(static_cast<ShapeKind>(k)); ++i)
        f(static_cast<ShapeKind>(k), i, shape(static_cast<ShapeKind>(k), i));
  }
};

/// The filters of the tests: a pair is refused when its slots sum to a multiple of 7.
bool accepted(std::uint32_t a, std::uint32_t b) { return (a + b) % 7 != 0; }

/// The reference: every pair of shapes, intersects() (core's exact predicate, itself
/// checked against GMP in tests/core), filtered; sorted slot keys.
std::vector<std::uint64_t> brute_force(const Side& side, bool filtered) {
  std::vector<std::pair<std::uint32_t, AnyShape>> all;
  side.for_each([&](ShapeKind k, std::uint32_t i, const AnyShape& s) { all.emplace_back(side.owners[at(k)][i], s); });
  std::vector<std::uint64_t> out;
  for (std::size_t i = 0; i < all.size(); ++i)
    for (std::size_t j = i + 1; j < all.size(); ++j) {
      std::uint32_t a = all[i].first, b = all[j].first;
      if (filtered && !accepted(a, b)) continue;
      if (!std::visit([](const auto& x, const auto& y) { return intersects(x, y); }, all[i].second, all[j].second))
        continue;
      if (b < a) std::swap(a, b);
      out.push_back(std::uint64_t{a} << 32 | b);
    }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::uint64_t> minus(const std::vector<std::uint64_t>& x, const std::vector<std::uint64_t>& y) {
  std::vector<std::uint64_t> out;
  std::set_difference(x.begin(), x.end(), y.begin(), y.end(), std::back_inserter(out));
  return out;
}

/// One DynamicContacts where it runs: an ISA, and a finder on one or two threads or on a
/// task hook (the contacts' loops run inside the finder's execute, as in a World's frame).
struct Runner {
  std::string name;
  Isa isa;
  std::unique_ptr<PairFinder> finder;
  DynamicContacts contacts;
};

class Runners {
 public:
  Runners() {
    for (Isa isa : test::isas_to_test())
      for (unsigned threads : {1u, 2u}) {
        if (test::tsan_build && threads == 1) continue;  // support/sanitizer_builds.hpp
        FindPairsOptions o;
        o.threads = threads;
        o.isa = isa;
        add(std::string(isa_name(isa)) + (threads == 1 ? ", 1 thread" : ", 2 threads"), isa, o);
      }
    FindPairsOptions pool, serial;
    pool.tasks = pool_.hook();
    serial.tasks = serial_.hook();
    add("scalar, thread pool hook", Isa::scalar, pool);
    add(std::string(isa_name(best_isa())) + ", serial hook", best_isa(), serial);
  }
  std::vector<std::unique_ptr<Runner>> all;

 private:
  void add(std::string name, Isa isa, const FindPairsOptions& o) {
    all.push_back(std::make_unique<Runner>(Runner{std::move(name), isa, std::make_unique<PairFinder>(o), {}}));
  }
  tbb::global_control allow_{tbb::global_control::max_allowed_parallelism, 8};
  test::ThreadPoolHook pool_{1};
  test::SerialHook serial_{17};
};

/// What the frames of a history did, summed over the runners.
struct Tally {
  std::size_t carries = 0, builds = 0, waits = 0, changes = 0;
};

/// One frame for every runner, as a World runs it: carry when the places were kept and
/// can_carry says so, else build when wants_build says so (else the world would use the
/// grid: the marks go stale). `want` and `before` are the reference's pair sets now and at
/// the runner's last test (empty before the first).
/// `changes`: the scene's since the last frame (patch); `begun` and `ended`, the events
/// when they are not want \ before and before \ want (a slot freed and used again: its
/// old pair ends and its new one begins, of one key).
void frame(Runners& runners, const Side& side, bool kept, bool filtered, const std::vector<std::uint64_t>& want,
           const std::vector<std::uint64_t>& before, Tally& tally,
           std::span<const PlaceChange> changes = {},
           const std::vector<std::uint64_t>* begun = nullptr, const std::vector<std::uint64_t>* ended = nullptr) {
  const DynamicContacts::Accepts accepts = accepted;
  for (auto& r : runners.all) {
    INFO(r->name);
    r->finder->execute([&] {
      DynamicContacts& c = r->contacts;
      const bool current = c.current();
      c.invalidate();
      if (kept && current &&
          c.patch(changes, side.scene, side.owners, filtered ? &accepts : nullptr, r->finder->options()) &&
          c.can_carry(side.scene)) {
        constexpr std::uint64_t marker = 0x0123456789abcdefull;
        std::vector<std::uint64_t> begins{marker}, ends{marker};
        c.carry(r->isa, begins, ends);
        CHECK(begins == (begun ? *begun : minus(want, before)));
        CHECK(ends == (ended ? *ended : minus(before, want)));
        ++tally.carries;
        tally.changes += begins.size() + ends.size();
      } else if (c.wants_build()) {
        std::vector<std::uint64_t> pairs{1, 2, 3};
        c.build(side.scene, side.owners, side.slot_count, filtered ? &accepts : nullptr, *r->finder, r->isa, pairs);
        CHECK(pairs == want);
        ++tally.builds;
      } else {
        ++tally.waits;
      }
    });
  }
}

/// Random shapes around sizes of one in a square of side `side` (a twentieth of them of
/// zero size: point segments, zero radii, point boxes), on slots 0, 2, 4, ... (a world's
/// slots have gaps where shapes died).
Side random_side(SplitMix64& r, std::size_t n, double square) {
  Side s;
  for (std::size_t i = 0; i < n; ++i) {
    const double size = r.u() < 0.05 ? 0.0 : 0.3 + 1.2 * r.u();
    const auto x = static_cast<float>(r.u() * square), y = static_cast<float>(r.u() * square);
    const auto slot = static_cast<std::uint32_t>(2 * i);
    switch (r.next() % 3) {
      case 0: {
        const double a = r.u() * 6.283185307179586;
        s.add(Segment{{x, y}, {static_cast<float>(x + size * std::cos(a)), static_cast<float>(y + size * std::sin(a))}},
              slot);
        break;
      }
      case 1:
        s.add(Circle{{x, y}, static_cast<float>(size / 2)}, slot);
        break;
      default:
        s.add(Box{{x, y}, {static_cast<float>(x + size * r.u()), static_cast<float>(y + size * r.u())}}, slot);
    }
  }
  return s;
}

AnyShape moved(const AnyShape& s, double dx, double dy) {
  auto p = [&](Vec2 v) { return Vec2{static_cast<float>(v.x + dx), static_cast<float>(v.y + dy)}; };
  if (const auto* g = std::get_if<Segment>(&s)) return Segment{p(g->a), p(g->b)};
  if (const auto* c = std::get_if<Circle>(&s)) return Circle{p(c->c), c->r};
  const Box& b = std::get<Box>(s);
  const Box m{p(b.min), p(b.max)};
  return m.min.x <= m.max.x && m.min.y <= m.max.y ? m : b;
}

using test::nudged;

double size_of(const AnyShape& s) {
  const Aabb b = std::visit([](const auto& g) { return bounds(g); }, s);
  return std::max(double{b.max.x} - b.min.x, double{b.max.y} - b.min.y);
}

}  // namespace

TEST_CASE("dynamic contacts equal the brute force through jitters, drifts, teleports, growth, one-ulp moves and new shapes",
          "[world][dynamic_contacts]") {
  const std::size_t n = test::scaled_count(400);
  for (bool filtered : {false, true}) {
    INFO("filtered " << filtered);
    Runners runners;
    SplitMix64 r(test::test_seed(11 + filtered));
    Side home = random_side(r, n, std::sqrt(static_cast<double>(n)) * 0.9);
    Side now = home;
    std::vector<std::uint64_t> before, want;
    Tally tally;
    std::size_t reference_changes = 0;
    std::vector<std::pair<double, double>> drift(n, {0.0, 0.0});
    for (int f = 0; f < 60; ++f) {
      INFO("frame " << f);
      const int phase = f / 10;  // 0 jitter, 1 drift, 2 teleports, 3 one ulp, 4 jitter and growth, 5 new shapes
      bool kept = true;
      if (phase == 5 && f % 3 == 0) {
        // A shape more (carrying must be refused: it has no candidates yet).
        const std::uint32_t slot = static_cast<std::uint32_t>(now.slot_count + 1);
        const AnyShape s = now.shape(ShapeKind::circle, 0);
        now.add(moved(s, 0.25, 0.0), slot);
        home.add(moved(s, 0.25, 0.0), slot);
        drift.emplace_back(0.0, 0.0);
      }
      std::size_t d = 0;
      for (std::size_t k = 0; k < 3; ++k) {
        const auto kind = static_cast<ShapeKind>(k);
        for (std::uint32_t i = 0; i < now.scene.count(kind); ++i, ++d) {
          const AnyShape h = home.shape(kind, i);
          const double size = std::max(size_of(h), 0.3);
          AnyShape s = h;
          switch (phase) {
            case 0:
            case 4:
            case 5:
              // Jitter about home, within a tenth of the size.
              s = moved(h, (r.u() * 2 - 1) * size / 10, (r.u() * 2 - 1) * size / 10);
              if (phase == 4 && kind == ShapeKind::circle && i == 0)  // growing out of its slack box
                s = Circle{std::get<Circle>(h).c, std::get<Circle>(h).r * static_cast<float>(1 + 0.5 * (f - 39))};
              break;
            case 1:
              // On and on, a twentieth of the size a frame (out of the slack box in a few).
              drift[d].first += size / 20;
              drift[d].second -= size / 40;
              s = moved(h, drift[d].first, drift[d].second);
              break;
            case 2:
              // Still, but a few jump far every other frame.
              s = (f % 2 == 0 && r.u() < 0.02) ? moved(h, 5.0 * size, -3.0 * size) : h;
              break;
            case 3:
              s = nudged(h, r);
              break;
          }
          if (std::holds_alternative<Box>(s) && kind != ShapeKind::box) s = h;
          now.replace(kind, i, s);
        }
      }
      want = brute_force(now, filtered);
      reference_changes += minus(want, before).size() + minus(before, want).size();
      frame(runners, now, kept, filtered, want, before, tally);
      before = want;
    }
    CHECK(reference_changes > n);
    CHECK(tally.changes > n);
    CHECK(tally.carries >= 10 * runners.all.size());
    CHECK(tally.builds > 3 * runners.all.size());
    for (auto& runner : runners.all) {
      INFO(runner->name);
      CHECK(runner->contacts.counts().escapes > 3);
      CHECK(runner->contacts.counts().waits > 0);
      CHECK(runner->contacts.counts().candidates > want.size());
    }
  }
}

TEST_CASE("dynamic contacts of the adversarial families equal the brute force, and after one-ulp moves",
          "[world][dynamic_contacts]") {
  // Each family's pairs (exact contacts, tangents, shared endpoints, zero sizes, one-ulp
  // misses, 1e7, 1e-7, subnormals, up to FLT_MAX), all dynamic. Frame 1 moves every
  // coordinate by at most one ulp (contacts become misses and the reverse), frame 2 puts
  // the shapes back, frame 3 nudges them again: carried where the slack boxes hold them.
  std::size_t pairs = 0, carries = 0;
  for (test::Family family : test::all_families) {
    INFO(test::family_name(family));
    test::Generator g(family, test::test_seed(500 + static_cast<std::uint64_t>(family)));
    SplitMix64 r(test::test_seed(600 + static_cast<std::uint64_t>(family)));
    Side home;
    std::uint32_t slot = 0;
    auto place = [&](const AnyShape& a, const AnyShape& b) {
      home.add(a, slot++);
      home.add(b, slot++);
    };
    test::place_pairs(g, 24, place);
    Runners runners;
    Tally tally;
    Side now = home;
    std::vector<std::uint64_t> before;
    for (int f = 0; f < 4; ++f) {
      INFO("frame " << f);
      if (f != 0)
        home.for_each([&](ShapeKind k, std::uint32_t i, const AnyShape& s) {
          now.replace(k, i, f == 2 ? s : nudged(s, r));
        });
      const std::vector<std::uint64_t> want = brute_force(now, false);
      pairs += want.size();
      frame(runners, now, true, false, want, before, tally);
      before = want;
    }
    carries += tally.carries;
  }
  CHECK(pairs > 2000);
  CHECK(carries > 0);
}

TEST_CASE("dynamic contacts patched through shapes taken out and added, on slots used again, equal the brute force",
          "[world][dynamic_contacts]") {
  // Every frame jitters the shapes and takes a few out (the kind's last moved into the
  // place) and adds a few, on the lowest slots freed (as a World gives them), some on top
  // of the shapes taken out (an old pair ends and a new one begins, of one key) and some
  // on top of others; now and then a shape jumps (a build), and one frame takes out more
  // than the budget (patch refuses, the frame builds). The events are checked by shape
  // (slot and generation), not by key.
  const std::size_t n = test::scaled_count(400);
  for (bool filtered : {false, true}) {
    INFO("filtered " << filtered);
    Runners runners;
    SplitMix64 r(test::test_seed(41 + filtered));
    const double square = std::sqrt(static_cast<double>(n)) * 0.9;
    Side now = random_side(r, n, square);
    std::vector<std::uint32_t> generation(now.slot_count, 0), free;
    for (std::uint32_t slot = 1; slot < now.slot_count; slot += 2) free.push_back(slot);
    // The reference's pairs by shape: its key, and the two generations (their low 16 bits).
    auto by_shape = [&](const std::vector<std::uint64_t>& keys) {
      std::vector<std::pair<std::uint64_t, std::uint32_t>> out;
      for (std::uint64_t k : keys)
        out.emplace_back(k, (generation[k >> 32] & 0xffffu) << 16 | (generation[k & 0xffffffffu] & 0xffffu));
      return out;
    };
    std::vector<std::pair<std::uint64_t, std::uint32_t>> before;
    std::vector<std::uint64_t> before_keys;
    Tally tally;
    std::size_t reused = 0, refused_budget = 0;
    for (int f = 0; f < 40; ++f) {
      INFO("frame " << f);
      std::vector<PlaceChange> changes;
      const std::size_t out_count = f == 23 ? n / 8 + 80 : 1 + r.next() % 6, in_count = 1 + r.next() % 6;
      refused_budget += f == 23;
      std::vector<AnyShape> taken;
      for (std::size_t i = 0; i < out_count && now.scene.size() > 1; ++i) {
        ShapeKind k;
        do k = static_cast<ShapeKind>(r.next() % 3);
        while (now.scene.count(k) == 0);
        const auto place = static_cast<std::uint32_t>(r.next() % now.scene.count(k));
        taken.push_back(now.shape(k, place));
        const std::uint32_t slot = now.owners[at(k)][place];
        ++generation[slot];
        free.push_back(slot);
        now.remove(k, place);
        changes.push_back({k, false, place, slot});
      }
      std::sort(free.begin(), free.end(), std::greater<>());
      for (std::size_t i = 0; i < in_count; ++i) {
        // On a shape taken out (moved a little), on a live one, or anywhere.
        const double where = r.u();
        AnyShape s = Circle{{0.0f, 0.0f}, 0.5f};
        random_side(r, 1, square).for_each([&](ShapeKind, std::uint32_t, const AnyShape& g) { s = g; });
        if (where < 0.4 && !taken.empty()) {
          s = moved(taken[r.next() % taken.size()], 0.01, 0.0);
        } else if (where < 0.7) {
          now.for_each([&](ShapeKind, std::uint32_t, const AnyShape& g) {
            if (r.u() < 0.01) s = moved(g, 0.02, 0.01);
          });
        }
        std::uint32_t slot;
        if (!free.empty()) {
          slot = free.back();
          free.pop_back();
          reused += slot < generation.size() && generation[slot] != 0;
        } else {
          slot = static_cast<std::uint32_t>(now.slot_count);
        }
        if (generation.size() <= slot) generation.resize(slot + 1, 0);
        const ShapeKind k = static_cast<ShapeKind>(s.index());  // AnyShape's order is ShapeKind's
        changes.push_back({k, true, static_cast<std::uint32_t>(now.scene.count(k)), slot});
        now.add(s, slot);
      }
      // Jitter, and a jump now and then.
      for (std::size_t k = 0; k < 3; ++k) {
        const auto kind = static_cast<ShapeKind>(k);
        for (std::uint32_t i = 0; i < now.scene.count(kind); ++i) {
          const AnyShape h = now.shape(kind, i);
          const double size = std::max(size_of(h), 0.3) / 40;
          AnyShape s = f % 9 == 8 && r.u() < 0.01 ? moved(h, 4.0, 3.0)
                                                  : moved(h, (r.u() * 2 - 1) * size, (r.u() * 2 - 1) * size);
          if (std::holds_alternative<Box>(s) && kind != ShapeKind::box) s = h;
          now.replace(kind, i, s);
        }
      }
      const std::vector<std::uint64_t> want_keys = brute_force(now, filtered);
      const auto want = by_shape(want_keys);
      std::vector<std::pair<std::uint64_t, std::uint32_t>> b, e;
      std::set_difference(want.begin(), want.end(), before.begin(), before.end(), std::back_inserter(b));
      std::set_difference(before.begin(), before.end(), want.begin(), want.end(), std::back_inserter(e));
      std::vector<std::uint64_t> begun, ended;
      for (const auto& x : b) begun.push_back(x.first);
      for (const auto& x : e) ended.push_back(x.first);
      frame(runners, now, true, filtered, want_keys, before_keys, tally, changes, &begun, &ended);
      before = want;
      before_keys = want_keys;
    }
    CHECK(reused > 40);
    CHECK(refused_budget == 1);
    CHECK(tally.carries >= 25 * runners.all.size());
    CHECK(tally.changes > n);
    for (auto& runner : runners.all) {
      INFO(runner->name);
      const DynamicContacts::Counts& c = runner->contacts.counts();
      CHECK(c.patches >= 25);
      CHECK(c.added > 80);
      CHECK(c.taken_out > 80);
      CHECK(c.builds >= 2);
    }
  }
}
