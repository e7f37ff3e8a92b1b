// World (world.hpp): slots and handles, the shapes in two scenes (static and dynamic)
// changed in place, and the frame: the dynamic shapes' pairs among themselves (the grid
// broad phase), their pairs with the static shapes (a GridIndex kept while the static
// shapes do not change), the filters, and the events as the difference of two sorted
// pair lists.
//
// Invariants between calls:
//   - a live slot's shape is at scenes[body][kind] position `dense`, and
//     owners[body][kind][dense] is that slot;
//   - index[b] holds exactly scenes[b] unless index_stale[b] (the dynamic shapes' index
//     is the grid the PairFinder built for their pairs, kept; with a margin it is built
//     for the pairs instead; after a change it is built again only when a query needs it);
//   - current holds the pairs of the last step, sorted by slot pair (within one list a
//     slot has one generation, so this is handle order).

#include "hitgrid/world/world.hpp"

#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cmath>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "hitgrid/broadphase/detail/parallel.hpp"
#include "hitgrid/broadphase/find_pairs.hpp"
#include "hitgrid/broadphase/grid_index.hpp"
#include "hitgrid/broadphase/sort_keys.hpp"
#include "hitgrid/core/float_steps.hpp"
#include "hitgrid/core/predicates.hpp"
#include "hitgrid/core/ray_box.hpp"
#include "hitgrid/core/ray_circle.hpp"
#include "hitgrid/core/ray_segment.hpp"
#include "hitgrid/core/scene.hpp"
#include "hitgrid/core/swept_circle.hpp"
#include "hitgrid/core/time_of_impact.hpp"
#include "hitgrid/core/within_distance.hpp"
#include "dynamic_contacts.hpp"
#include "static_contacts.hpp"
#include "packed_shape.hpp"

namespace hitgrid {
namespace {

constexpr std::size_t static_scene = 0, dynamic_scene = 1;
/// Generations run from 1 (0 is the null handle); a slot whose generation would wrap is
/// retired, never reused.
constexpr std::uint32_t last_generation = ~std::uint32_t{0};

std::size_t scene_of(BodyType body) { return body == BodyType::static_body ? static_scene : dynamic_scene; }
ShapeKind kind_of(const Shape& shape) { return static_cast<ShapeKind>(shape.index()); }

std::string handle_text(ShapeHandle h) {
  return "shape (slot " + std::to_string(h.index) + ", generation " + std::to_string(h.generation) + ")";
}

/// Why a shape is invalid, or nothing; the common valid case in a few comparisons.
std::optional<std::string> invalid_shape(const Shape& shape) {
  return std::visit(
      [](const auto& g) -> std::optional<std::string> {
        using S = std::decay_t<decltype(g)>;
        bool valid;
        if constexpr (std::is_same_v<S, Segment>)
          valid = std::isfinite(g.a.x) && std::isfinite(g.a.y) && std::isfinite(g.b.x) && std::isfinite(g.b.y);
        else if constexpr (std::is_same_v<S, Circle>)
          valid = std::isfinite(g.c.x) && std::isfinite(g.c.y) && std::isfinite(g.r) && g.r >= 0.0f;
        else
          valid = std::isfinite(g.min.x) && std::isfinite(g.min.y) && std::isfinite(g.max.x) &&
                  std::isfinite(g.max.y) && g.min.x <= g.max.x && g.min.y <= g.max.y;
        return valid ? std::nullopt : invalid_reason(g);
      },
      shape);
}

/// Why a definition is refused, or nothing.
std::optional<std::string> invalid_def(const ShapeDef& def) {
  if (def.body != BodyType::static_body && def.body != BodyType::dynamic_body)
    return "unknown body type " + std::to_string(static_cast<int>(def.body));
  return invalid_shape(def.shape);
}

/// (lower slot, higher slot) as one key: the sort order of pairs and events.
std::uint64_t slot_key(const HandlePair& p) { return std::uint64_t{p.a.index} << 32 | p.b.index; }

/// The step's per-pair loops (slot keys, handles, events) run in parallel over pieces of
/// this many pairs, fixed by the count alone: a piece's work is a few microseconds, more
/// than a task's cost, and a frame of 100,000 shapes has dozens of them.
constexpr std::size_t pairs_per_piece = 4096;

}  // namespace

Shape translated(const Shape& shape, Vec2 d) {
  auto plus = [&](Vec2 p) { return Vec2{p.x + d.x, p.y + d.y}; };
  return std::visit(
      [&](auto g) -> Shape {
        using S = decltype(g);
        if constexpr (std::is_same_v<S, Segment>) {
          g.a = plus(g.a);
          g.b = plus(g.b);
        } else if constexpr (std::is_same_v<S, Circle>) {
          g.c = plus(g.c);
        } else {
          g.min = plus(g.min);
          g.max = plus(g.max);
        }
        return g;
      },
      shape);
}

InvalidHandleError::InvalidHandleError(ShapeHandle handle, const std::string& what)
    : Error(what + ": " + handle_text(handle) + " is not a live shape"), handle_(handle) {}

struct World::State {
  struct Slot {
    std::uint32_t generation = 1;
    bool alive = false;
    BodyType body = BodyType::dynamic_body;
    ShapeKind kind = ShapeKind::segment;
    std::uint32_t dense = 0;
    ShapeFilter filter;
    std::uint64_t user = 0;
    Vec2 displacement{0.0f, 0.0f};  // a dynamic circle's, for continuous collision
  };

  explicit State(const WorldOptions& o)
      : options(checked(o)),
        find_options(find_options_of(o)),
        finder(find_options),
        serial_finder(serial_options(find_options)) {}

  static FindPairsOptions serial_options(FindPairsOptions f) {
    f.threads = 1;
    f.tasks = {};
    return f;
  }

  /// A small frame (few dynamic shapes) runs on the calling thread alone: waking workers
  /// would cost more than they save.
  bool small_frame() const { return scenes[dynamic_scene].size() < options.small_frame_shapes; }
  /// A small world (few shapes in all, static or dynamic): its casts and queries too are
  /// cheaper than waking workers.
  bool small_world() const {
    return scenes[static_scene].size() + scenes[dynamic_scene].size() < options.small_frame_shapes;
  }
  PairFinder& work_finder() { return small_frame() ? serial_finder : finder; }
  /// f() with the frame's parallel loops on the world's threads (the finder's arena, or
  /// the program's task hook), or on the calling thread alone when `serial`; either way
  /// with the finder's kept scratch, so that a frame allocates nothing once grown.
  template <class F>
  void run(bool serial, const F& f) {
    (serial ? serial_finder : finder).execute(f);
  }
  template <class F>
  void run_frame(const F& f) {
    run(small_frame(), f);
  }

  static const WorldOptions& checked(const WorldOptions& o) {
    if (!valid_margin(o.margin)) throw Error("the world's margin must be finite and >= 0");
    return o;
  }

  static FindPairsOptions find_options_of(const WorldOptions& o) {
    FindPairsOptions f;
    f.threads = o.threads;
    f.isa = o.isa;
    f.cell_size = o.cell_size;
    f.large_cell_size = o.large_cell_size;
    f.tasks = o.tasks;
    return f;
  }

  bool is_live(ShapeHandle h) const {
    return h.index < slots.size() && slots[h.index].alive && slots[h.index].generation == h.generation;
  }
  const Slot& live(ShapeHandle h, const char* what) const {
    if (!is_live(h)) throw InvalidHandleError(h, what);
    return slots[h.index];
  }
  ShapeHandle handle_of(std::uint32_t slot) const { return {slot, generations[slot]}; }

  /// Throws unless every handle is live and appears once: for the first dead handle in
  /// order, else for the first repeat in order (each slot stamped with this call's number:
  /// a slot already stamped is a repeat), on this thread. For destroy, and for a move that
  /// check_moves found wrong (it checks the handles in pieces, but only says whether).
  void check_distinct_live(std::span<const ShapeHandle> handles, const char* what) {
    for (ShapeHandle h : handles) live(h, what);
    if (stamps.size() < slots.size()) stamps.resize(slots.size(), 0);
    if (++stamp == 0) {  // wrapped: old stamps could match
      std::fill(stamps.begin(), stamps.end(), 0u);
      stamp = 1;
    }
    for (ShapeHandle h : handles) {
      if (stamps[h.index] == stamp) throw InvalidHandleError(h, std::string(what) + ": handle given twice");
      stamps[h.index] = stamp;
    }
  }

  /// Puts a validated shape into the scene of `body` for `slot`.
  void insert(std::uint32_t slot, const Shape& shape, BodyType body) {
    const std::size_t b = scene_of(body);
    const ShapeId id = std::visit([&](const auto& g) { return scenes[b].add(g); }, shape);
    owners[b][static_cast<std::size_t>(id.kind())].push_back(slot);
    Slot& s = slots[slot];
    s.body = body;
    s.kind = id.kind();
    s.dense = id.index();
    if (body != BodyType::dynamic_body || s.kind != ShapeKind::circle) s.displacement = {0.0f, 0.0f};
    index_stale[b] = true;
    if (body == BodyType::dynamic_body) log_change({s.kind, true, s.dense, slot});
  }

  /// Takes `slot`'s shape out of its scene; the kind's last shape moves into its place.
  /// `destroyed`: the slot is released next (World::destroy), so that a dynamic shape's
  /// pairs may end by the log (log_change); otherwise the slot lives on with another body
  /// or kind, and the places are forgotten.
  void take_out(std::uint32_t slot, bool destroyed = false) {
    const Slot& s = slots[slot];
    if (destroyed && s.body == BodyType::dynamic_body) {
      log_change({s.kind, false, s.dense, slot});
      if (places_kept) destroyed_filters.emplace_back(slot, s.filter);
    } else {
      forget_places();
    }
    const std::size_t b = scene_of(s.body);
    std::vector<std::uint32_t>& own = owners[b][static_cast<std::size_t>(s.kind)];
    const std::uint32_t moved = own.back();
    scenes[b].swap_remove(s.kind, s.dense);
    own[s.dense] = moved;
    slots[moved].dense = s.dense;
    own.pop_back();
    bounds_stale[b] = true;
    index_stale[b] = true;
  }

  /// The dynamic scene's places changed (change), kept in the log while places_kept, so
  /// that the next step can patch what it carries (DynamicContacts::patch); a log longer
  /// than a quarter of the shapes (and a thousand) is forgotten instead: building costs
  /// less then.
  void log_change(PlaceChange change) {
    if (!places_kept) return;
    if (place_log.size() >= scenes[dynamic_scene].size() / 4 + 1024) return forget_places();
    place_log.push_back(change);
  }
  /// The places no longer name the shapes they named at the last step, and no log says how.
  void forget_places() {
    places_kept = false;
    place_log.clear();
    destroyed_filters.clear();
  }

  /// A free slot (the lowest freed one first: the same calls give the same handles).
  std::uint32_t take_slot() {
    if (free.empty()) {
      slots.emplace_back();
      generations.push_back(slots.back().generation);
      return static_cast<std::uint32_t>(slots.size() - 1);
    }
    std::pop_heap(free.begin(), free.end(), std::greater<>());
    const std::uint32_t slot = free.back();
    free.pop_back();
    return slot;
  }

  void release_slot(std::uint32_t slot) {
    Slot& s = slots[slot];
    s.alive = false;
    if (!(s.filter == ShapeFilter{})) --filtered;
    if (s.generation == last_generation) return;  // retired
    generations[slot] = ++s.generation;
    slots_released = true;
    free.push_back(slot);
    std::push_heap(free.begin(), free.end(), std::greater<>());
  }

  /// Room for `adding` more shapes of each kind in the scenes they go to.
  void check_room(const std::array<std::array<std::size_t, 3>, 2>& adding) const {
    for (std::size_t b = 0; b < 2; ++b)
      for (std::size_t k = 0; k < 3; ++k)
        if (scenes[b].count(static_cast<ShapeKind>(k)) + adding[b][k] > ShapeId::max_count)
          throw Error("a world holds at most " + std::to_string(ShapeId::max_count) + " " +
                      std::string(kind_name(static_cast<ShapeKind>(k))) + "s of one body type");
  }

  bool accepts(std::uint32_t a, std::uint32_t b) const {
    if (filtered == 0) return true;  // every filter the default: accept, without the loads
    const ShapeFilter &fa = slots[a].filter, &fb = slots[b].filter;
    return (fa.category & fb.mask) != 0 && (fb.category & fa.mask) != 0;
  }

  /// The key of a pair the filters refuse: 2^(2 slot_bits) - 1, above every pair's key
  /// (a lower slot is at most 2^slot_bits - 2), so that refused pairs sort last.
  std::uint64_t refused_key() const { return ~std::uint64_t{0} >> (64 - 2 * slot_bits); }

  /// (lower slot, higher slot) as lower << slot_bits | higher, or refused_key().
  std::uint64_t key_of(std::uint32_t a, std::uint32_t b) const {
    if (!accepts(a, b)) return refused_key();
    if (b < a) std::swap(a, b);
    return std::uint64_t{a} << slot_bits | b;
  }

  /// Exact bounds for scene b (Scene::bounds, which the grids and casts read).
  void refresh_bounds(std::size_t b) {
    if (bounds_stale[b]) {
      scenes[b].recompute_bounds();
      bounds_stale[b] = false;
    }
  }
  /// Exact bounds and up-to-date indexes for `which` scenes (a frame that carries its
  /// dynamic pairs reads neither the dynamic scene's bounds nor its index). In the world's
  /// arena.
  void refresh(std::initializer_list<std::size_t> which) {
    for (std::size_t b : which) refresh_bounds(b);
    for (std::size_t b : which)
      if (index_stale[b]) {
        index[b] = GridIndex(scenes[b], find_options);
        index_stale[b] = false;
        if (b == static_scene) static_contacts.invalidate();
      }
  }

  /// The step's pairs: the dynamic shapes' pairs with the static ones (StaticContacts),
  /// and among themselves: carried over their slack boxes (DynamicContacts: their changes
  /// into own_came and own_gone, own_changes), or tested on candidates built this frame
  /// (DynamicContacts::build), or the grid broad phase, or with a margin the dynamic
  /// shapes' index against themselves (each pair found from both sides, kept once). As
  /// sorted keys in pair_keys; or, while the pairs can be carried from the last step
  /// (by_changes), the dynamic shapes' own in own_keys (or their changes) and the static
  /// pairs' changes in static_keys (begins) and static_ends.
  void find_pairs() {
    // A step that throws leaves the next one nothing to carry over.
    const bool kept = places_kept;
    place_changes.swap(place_log);
    place_log.clear();
    step_destroyed.swap(destroyed_filters);
    destroyed_filters.clear();
    // Dynamic shapes were destroyed since the last step: their pairs end by the changes
    // DynamicContacts carries (its patch), or the whole lists are compared (merge_pairs).
    const bool removed = std::any_of(place_changes.begin(), place_changes.end(),
                                     [](const PlaceChange& c) { return !c.added; });
    const bool carry = kept && own_keys_known && !removed;
    dynamic_keys_known = own_keys_known;
    const bool contacts_current = dynamic_contacts.current();
    places_kept = false;
    own_keys_known = false;
    dynamic_contacts.invalidate();
    // All of it on the frame's threads and scratch, the sort too (outside, sort_keys
    // would run on TBB's default arena, whatever the world's threads or task hook).
    run_frame([&] {
      const float margin = options.margin;
      refresh(margin == 0.0f ? std::initializer_list<std::size_t>{static_scene}
                             : std::initializer_list<std::size_t>{static_scene, dynamic_scene});
      static_keys.clear();
      static_ends.clear();
      const bool statics = index[static_scene].size() != 0, dynamics = !scenes[dynamic_scene].empty();
      // Without a margin, with static and dynamic shapes, the dynamic shapes' own pairs
      // are kept apart (own_keys): the next step may carry the static pairs over.
      tracking = margin == 0.0f && statics && dynamics;
      const DynamicContacts::Accepts accept = [this](std::uint32_t a, std::uint32_t b) { return accepts(a, b); };
      own_changes = margin == 0.0f && kept && contacts_current && (!statics || static_contacts.changes_known()) &&
                    dynamic_contacts.patch(place_changes, scenes[dynamic_scene], owners[dynamic_scene],
                                           filtered == 0 ? nullptr : &accept, find_options) &&
                    dynamic_contacts.can_carry(scenes[dynamic_scene]);
      by_changes = own_changes || (tracking && carry && static_contacts.changes_known());
      const Isa isa = resolve_isa(options.isa);
      if (by_changes && statics) {
        // Places the log changed (shapes destroyed) first: their pairs end, and the shapes
        // moved into their places bring their lists.
        destroyed_ends.clear();
        if (!place_changes.empty()) static_contacts.patch(place_changes, scenes[dynamic_scene], destroyed_ends);
        static_contacts.find_changes(scenes[dynamic_scene], owners[dynamic_scene], index[static_scene],
                                     owners[static_scene], isa, static_keys, static_ends);
      } else {
        static_contacts.find(scenes[dynamic_scene], owners[dynamic_scene], index[static_scene], owners[static_scene],
                             margin, isa, static_keys);
      }
      slot_bits = static_cast<int>(std::bit_width(slots.size()));
      bool own_sorted = false;  // own_keys holds the dynamic shapes' own pairs, sorted
      if (margin != 0.0f) {
        index[dynamic_scene].pairs_with(scenes[dynamic_scene], self_pairs, margin);
      } else if (own_changes || (dynamics && dynamic_contacts.wants_build())) {
        // The grid is not built: queries and continuous collision build the index if
        // they need it (the last one's blocks go back to the finder meanwhile).
        index[dynamic_scene] = GridIndex();
        index_stale[dynamic_scene] = true;
        if (own_changes) {
          dynamic_contacts.carry(isa, own_came, own_gone);
          if (statics) {
            keys_of_pairs(static_keys, 0, false, static_keys);
            sorted(static_keys);
            static_ends_as_keys();
          }
          return;
        }
        dynamic_contacts.build(scenes[dynamic_scene], owners[dynamic_scene], slots.size(),
                               filtered == 0 ? nullptr : &accept, work_finder(), isa, own_keys);
        // Slot keys as pair keys: the order stays.
        for (std::uint64_t& k : own_keys) k = (k >> 32) << slot_bits | (k & 0xffffffffu);
        own_sorted = true;
      } else {
        // The grid this builds is kept as the dynamic shapes' index: queries and
        // continuous collision on this frame read it rather than build it again.
        // In any order: they are sorted below, by slot.
        refresh_bounds(dynamic_scene);
        work_finder().find_pairs(scenes[dynamic_scene], dynamic_pairs, index[dynamic_scene], PairOrder::any);
        index_stale[dynamic_scene] = false;
      }
      const std::size_t own = margin == 0.0f ? dynamic_pairs.size() : self_pairs.size();
      if (!tracking) {
        if (own_sorted) {
          // No static pairs (tracking would be on with static and dynamic shapes).
          pair_keys.swap(own_keys);
          return;
        }
        pair_keys.resize(own + static_keys.size());
        keys_of_pairs(pair_keys, own, margin != 0.0f, static_keys);
        sorted(pair_keys);
        return;
      }
      if (!own_sorted) {
        own_keys.resize(own);
        keys_of_pairs(own_keys, own, false, {});
        sorted(own_keys);
      }
      keys_of_pairs(static_keys, 0, false, static_keys);
      sorted(static_keys);
      if (by_changes) {
        static_ends_as_keys();
      } else {
        pair_keys.resize(own_keys.size() + static_keys.size());
        std::merge(own_keys.begin(), own_keys.end(), static_keys.begin(), static_keys.end(), pair_keys.begin());
      }
    });
  }

  /// static_ends (StaticContacts' keys) as sorted pair keys, with the pairs of the dynamic
  /// shapes destroyed since the last step (destroyed_ends): those their filters accepted,
  /// as they were when destroyed (a slot used again has another's now).
  void static_ends_as_keys() {
    keys_of_pairs(static_ends, 0, false, static_ends);
    if (!destroyed_ends.empty()) {
      std::stable_sort(step_destroyed.begin(), step_destroyed.end(),
                       [](const auto& x, const auto& y) { return x.first < y.first; });
      for (std::uint64_t k : destroyed_ends) {
        const auto dynamic = static_cast<std::uint32_t>(k >> 32), other = static_cast<std::uint32_t>(k);
        // The first shape destroyed on the slot since the last step: the one that had pairs.
        const auto d = std::lower_bound(step_destroyed.begin(), step_destroyed.end(), dynamic,
                                        [](const auto& x, std::uint32_t slot) { return x.first < slot; });
        const ShapeFilter &fa = d->second, &fb = slots[other].filter;
        if ((fa.category & fb.mask) != 0 && (fb.category & fa.mask) != 0)
          static_ends.push_back(std::uint64_t{std::min(dynamic, other)} << slot_bits | std::max(dynamic, other));
      }
    }
    sorted(static_ends);
  }

  /// Pair keys sorted: (lower slot, higher slot) keys, in handle order (slot_key). A pair
  /// the grid found twice (PairOrder::any) is kept once; the refused ones (last) dropped.
  void sorted(std::vector<std::uint64_t>& keys) {
    sort_keys(keys, 2 * slot_bits, sort_scratch);
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    if (!keys.empty() && keys.back() == refused_key()) keys.pop_back();
  }

  static std::size_t pieces_of(std::size_t pairs, std::size_t per_piece = pairs_per_piece) {
    return (pairs + per_piece - 1) / per_piece;
  }

  /// World::move's shapes per piece, and what a piece's check finds: whether every handle
  /// is live (and, in the second look, given once), the first invalid shape's position (or
  /// the batch's size), the shapes changing kind by body and new kind, and which bodies it
  /// touches.
  static constexpr std::size_t moves_per_piece = 4096;
  struct MovePiece {
    bool handles_fine = true;
    std::size_t first_invalid = 0;
    std::array<std::array<std::size_t, 3>, 2> adding{};
    std::array<bool, 2> touched{};
  };
  std::vector<MovePiece> move_pieces;

  /// f(k, first, last) for the pieces of a move of n shapes: on the world's threads when
  /// there are several, inline for one (a single move costs no arena). Each f must be
  /// idempotent: a piece that a TaskHook left out while running another twice (which
  /// its item count cannot see, run_hooked) runs again here, on this thread.
  template <class F>
  void for_pieces(std::size_t n, const F& f) {
    const std::size_t pieces = pieces_of(n, moves_per_piece);
    auto piece = [&](std::size_t k) { f(k, k * moves_per_piece, std::min(n, (k + 1) * moves_per_piece)); };
    if (pieces <= 1) return pieces == 1 ? piece(0) : void();
    pieces_ran.assign(pieces, 0);
    run(false, [&] {
      detail::parallel_for(std::size_t{0}, pieces, [&](std::size_t k) {
        piece(k);
        pieces_ran[k] = 1;
      });
    });
    for (std::size_t k = 0; k < pieces; ++k)
      if (!pieces_ran[k]) piece(k);
  }
  std::vector<char> pieces_ran;  // for_pieces' marks

  /// World::move's check: the handles and shapes in pieces (in parallel for large
  /// batches), summed. Throws as check_distinct_live does for the handles, then for the
  /// first invalid shape in order, as a loop in order would, or when the kinds changed
  /// need more room than a scene has; changes nothing.
  ///
  /// The handles are checked in the pieces, without a stamp per call: each piece writes
  /// into its slots' `positions` the position of the handle that names it, and a second
  /// look (after every piece's writes) finds each handle's position there unless another
  /// position with the same slot wrote last: a slot given twice leaves at least one of its
  /// handles reading another's position. The writes are relaxed atomics, so that two
  /// pieces writing one slot is no data race. Only a batch found wrong is checked again in
  /// order (check_distinct_live), for the error a loop in order would give.
  MovePiece check_moves(std::span<const ShapeHandle> handles, std::span<const Shape> shapes) {
    const std::size_t n = handles.size();
    if (n > std::numeric_limits<std::uint32_t>::max()) check_distinct_live(handles, "move");
    if (positions.size() < slots.size()) positions.resize(slots.size());
    move_pieces.resize(pieces_of(n, moves_per_piece));
    for_pieces(n, [&](std::size_t k, std::size_t first, std::size_t last) {
      MovePiece& p = move_pieces[k];
      p = {};
      p.first_invalid = n;
      for (std::size_t i = first; i < last; ++i) {
        const ShapeHandle h = handles[i];
        if (!is_live(h)) {
          p.handles_fine = false;
          continue;
        }
        std::atomic_ref<std::uint32_t>(positions[h.index])
            .store(static_cast<std::uint32_t>(i), std::memory_order_relaxed);
        if (p.first_invalid == n && invalid_shape(shapes[i])) p.first_invalid = i;
        const Slot& slot = slots[h.index];
        const std::size_t b = scene_of(slot.body);
        if (kind_of(shapes[i]) != slot.kind) ++p.adding[b][static_cast<std::size_t>(kind_of(shapes[i]))];
        p.touched[b] = true;
      }
    });
    MovePiece all{};
    all.first_invalid = n;
    for (const MovePiece& p : move_pieces) {
      all.handles_fine = all.handles_fine && p.handles_fine;
      all.first_invalid = std::min(all.first_invalid, p.first_invalid);
      for (std::size_t b = 0; b < 2; ++b) {
        all.touched[b] = all.touched[b] || p.touched[b];
        for (std::size_t kind = 0; kind < 3; ++kind) all.adding[b][kind] += p.adding[b][kind];
      }
    }
    if (all.handles_fine)
      for_pieces(n, [&](std::size_t k, std::size_t first, std::size_t last) {
        bool once = true;
        for (std::size_t i = first; i < last; ++i)
          once &= std::atomic_ref<std::uint32_t>(positions[handles[i].index]).load(std::memory_order_relaxed) ==
                  static_cast<std::uint32_t>(i);
        move_pieces[k].handles_fine = once;
      });
    for (const MovePiece& p : move_pieces) all.handles_fine = all.handles_fine && p.handles_fine;
    if (!all.handles_fine) check_distinct_live(handles, "move");
    if (all.first_invalid != n)
      throw Error("move: " + handle_text(handles[all.first_invalid]) + ": " +
                  *invalid_shape(shapes[all.first_invalid]));
    check_room(all.adding);
    return all;
  }

  /// Checked moves that keep every shape's kind: each shape written in its place
  /// (distinct places, so in pieces in parallel), the scenes `touched` marked stale.
  /// The writes allocate nothing and cannot fail; what can is the program's TaskHook,
  /// leaving pieces out (run_hooked throws then). The world then writes every shape on
  /// this thread (writing one twice writes the same) before the error goes on: the batch
  /// is moved, and the scenes' bounds and indexes know it, rather than half of it.
  void replace_in_place(std::span<const ShapeHandle> handles, std::span<const Shape> shapes,
                        std::array<bool, 2> touched) {
    for (std::size_t b = 0; b < 2; ++b)
      if (touched[b]) bounds_stale[b] = index_stale[b] = true;
    auto write = [&](std::size_t first, std::size_t last) {
      for (std::size_t i = first; i < last; ++i) {
        const Slot& slot = slots[handles[i].index];
        std::visit([&](const auto& g) { scenes[scene_of(slot.body)].replace(slot.dense, g); }, shapes[i]);
      }
    };
    try {
      for_pieces(handles.size(), [&](std::size_t, std::size_t first, std::size_t last) { write(first, last); });
    } catch (...) {
      write(0, handles.size());
      throw;
    }
  }

  /// Checked moves, some changing kind: in order, since a shape that changes kind moves
  /// another into its old place (Scene::swap_remove).
  void move_in_order(std::span<const ShapeHandle> handles, std::span<const Shape> shapes) {
    for (std::size_t i = 0; i < handles.size(); ++i) {
      Slot& slot = slots[handles[i].index];
      const std::size_t b = scene_of(slot.body);
      if (kind_of(shapes[i]) == slot.kind) {
        std::visit([&](const auto& g) { scenes[b].replace(slot.dense, g); }, shapes[i]);
        bounds_stale[b] = true;
        index_stale[b] = true;
      } else {
        take_out(handles[i].index);
        insert(handles[i].index, shapes[i], slot.body);
      }
    }
  }

  /// keys[i], in pieces on the frame's threads: the first `own` the dynamic shapes' pairs
  /// among themselves (own_key), the rest StaticContacts' keys statics[i - own] (static_key;
  /// statics may be `keys` itself, then converted in place).
  void keys_of_pairs(std::vector<std::uint64_t>& keys, std::size_t own, bool margin,
                     std::span<const std::uint64_t> statics) {
    detail::parallel_for(std::size_t{0}, pieces_of(keys.size()), [&](std::size_t k) {
      const std::size_t first = k * pairs_per_piece, last = std::min(first + pairs_per_piece, keys.size());
      for (std::size_t i = first; i < std::min(last, own); ++i) keys[i] = own_key(i, margin);
      for (std::size_t i = std::max(first, own); i < last; ++i) keys[i] = static_key(statics[i - own]);
    });
  }
  /// The key of the dynamic shapes' i-th pair among themselves: the grid's, or with a
  /// margin the index's, each found from both sides and kept from the lower id's.
  std::uint64_t own_key(std::size_t i, bool margin) const {
    const auto& dyn = owners[dynamic_scene];
    auto dynamic_slot = [&](ShapeId id) { return dyn[static_cast<std::size_t>(id.kind())][id.index()]; };
    if (!margin) return key_of(dynamic_slot(dynamic_pairs[i].first()), dynamic_slot(dynamic_pairs[i].second()));
    const CrossPair& c = self_pairs[i];
    return c.query.bits() < c.shape.bits() ? key_of(dynamic_slot(c.query), dynamic_slot(c.shape)) : refused_key();
  }
  std::uint64_t static_key(std::uint64_t k) const {
    return key_of(static_cast<std::uint32_t>(k >> 32), static_cast<std::uint32_t>(k));
  }

  /// The swept disk's bounds: they hold the exact path, the disk at c + t v for t in [0,
  /// 1]. Each side, min(c, c + v) - r, is two double operations on floats whose errors are
  /// within 2^-53 of the terms (|c| + |v| + r) each, however much the terms cancel (a
  /// circle of radius 2^58 moving by 5: c + v rounds to c): the side is widened by 2^-50
  /// of them before its outward step to a float (float_below, float_above: docs/
  /// contracts.md, contract 3).
  static Aabb swept_bounds(const Circle& c, Vec2 v) {
    const double x0 = double{c.c.x}, x1 = x0 + double{v.x}, y0 = double{c.c.y}, y1 = y0 + double{v.y};
    const double r = c.r;
    const double ex = (std::fabs(x0) + std::fabs(double{v.x}) + r) * 0x1p-50;
    const double ey = (std::fabs(y0) + std::fabs(double{v.y}) + r) * 0x1p-50;
    return {{float_below(std::min(x0, x1) - r - ex), float_below(std::min(y0, y1) - r - ey)},
            {float_above(std::max(x0, x1) + r + ex), float_above(std::max(y0, y1) + r + ey)}};
  }

  /// Continuous collision (World::impacts): each moving circle's swept bounds against the
  /// shapes that do not move (both indexes), and the moving circles' swept bounds against
  /// each other; the exact time-of-impact test on every candidate.
  void find_impacts() {
    impacts.clear();
    list_moving_circles();
    if (moving.empty()) return;
    swept.clear();
    run_frame([&] {
      refresh({static_scene, dynamic_scene});
      impacts_with_still_shapes();
      // Moving against moving: their swept bounds against each other, each pair once.
      GridIndex(swept, find_options).pairs_with(swept, swept_pairs);
    });
    impacts_among_moving();
    std::sort(impacts.begin(), impacts.end(), [](const Impact& x, const Impact& y) {
      return x.moving < y.moving || (x.moving == y.moving && x.other < y.other);
    });
    swept.clear();
  }

  /// The dynamic circles with a displacement this frame, by slot, into `moving`.
  void list_moving_circles() {
    moving.clear();
    if (!displaced) return;
    for (std::uint32_t slot : owners[dynamic_scene][static_cast<std::size_t>(ShapeKind::circle)])
      if (slots[slot].displacement.x != 0.0f || slots[slot].displacement.y != 0.0f) moving.push_back(slot);
    displaced = !moving.empty();
  }

  Circle circle_at(std::uint32_t slot) const { return scenes[dynamic_scene].circle(slots[slot].dense); }
  bool is_moving(std::uint32_t slot) const {
    const Slot& o = slots[slot];
    return o.body == BodyType::dynamic_body && o.kind == ShapeKind::circle &&
           (o.displacement.x != 0.0f || o.displacement.y != 0.0f);
  }
  void keep_impact(std::uint32_t a, std::uint32_t b, TimeOfImpact toi) {
    if (toi.kind != ToiKind::none) impacts.push_back({handle_of(a), handle_of(b), toi.kind, toi.t});
  }

  /// Each moving circle against the shapes that do not move this frame, from both indexes
  /// (its swept bounds' candidates), each accepted pair through the exact time-of-impact
  /// test; the swept bounds into `swept`, in `moving` order, for impacts_among_moving.
  void impacts_with_still_shapes() {
    for (std::uint32_t m : moving) {
      const Circle c = circle_at(m);
      const Vec2 v = slots[m].displacement;
      const Aabb box = swept_bounds(c, v);
      swept.add(Box{box.min, box.max});
      for (std::size_t b = 0; b < 2; ++b) {
        index[b].touching(Box{box.min, box.max}, found);
        for (ShapeId id : found) {
          const std::uint32_t other = owners[b][static_cast<std::size_t>(id.kind())][id.index()];
          if (other == m || is_moving(other) || !accepts(m, other)) continue;
          const Scene& scene = scenes[b];
          switch (id.kind()) {
            case ShapeKind::segment:
              keep_impact(m, other, time_of_impact(c, v, scene.segment(id.index())));
              break;
            case ShapeKind::circle:
              keep_impact(m, other, time_of_impact(c, v, scene.circle(id.index())));
              break;
            case ShapeKind::box:
              keep_impact(m, other, time_of_impact(c, v, scene.box(id.index())));
              break;
          }
        }
      }
    }
  }

  /// The moving circles against each other: every pair whose swept bounds meet
  /// (swept_pairs, found from both sides: kept once), accepted by the filters, through the
  /// exact time-of-impact test of two moving circles, lower slot first.
  void impacts_among_moving() {
    for (const CrossPair& p : swept_pairs) {
      if (!(p.query.index() < p.shape.index())) continue;
      std::uint32_t a = moving[p.query.index()], b = moving[p.shape.index()];
      if (!accepts(a, b)) continue;
      if (b < a) std::swap(a, b);
      keep_impact(a, b, time_of_impact(circle_at(a), slots[a].displacement, circle_at(b), slots[b].displacement));
    }
  }

  struct Events {
    std::vector<HandlePair> begins, ends;
    std::vector<std::size_t> fresh;  // merge's new pairs, as positions in next
  };
  /// The step's pairs by handle (next, from the sorted pair_keys), and its events:
  /// begins = next \ current and ends = current \ next (both sorted by slot key; a slot pair whose
  /// generations differ is a different pair: a shape destroyed and its slot reused), then
  /// next becomes current. In pieces of pair_keys that run in parallel: piece k merges the
  /// keys from k * pairs_per_piece on with current's pairs from the first whose key is not
  /// below the piece's first key (and before the next piece's). The pieces split the keys
  /// in order, so their events, concatenated, are those of one merge of the two lists,
  /// whatever the threads.
  void find_events() {
    if (by_changes)
      carry_pairs();
    else
      merge_pairs();
    current.swap(next);
    slots_released = false;
    // The next step's dynamic_keys: as slot keys (whatever slot_bits is then); after a
    // step that carried the dynamic shapes' changes, the last list with them applied (if
    // it was known).
    own_keys_known = tracking && (!own_changes || dynamic_keys_known);
    if (tracking && !own_changes) {
      if (!by_changes) to_slot_keys(own_keys);
      dynamic_keys.swap(own_keys);
    } else if (own_keys_known) {
      pair_keys.clear();
      std::set_difference(dynamic_keys.begin(), dynamic_keys.end(), own_gone.begin(), own_gone.end(),
                          std::back_inserter(pair_keys));
      own_keys.resize(pair_keys.size() + own_came.size());
      std::merge(pair_keys.begin(), pair_keys.end(), own_came.begin(), own_came.end(), own_keys.begin());
      dynamic_keys.swap(own_keys);
    }
    places_kept = true;
    place_log.clear();
    destroyed_filters.clear();
  }

  /// next and the events by a merge of pair_keys with current (below).
  void merge_pairs() {
    next.resize(pair_keys.size());
    const std::size_t pieces = std::max<std::size_t>(1, pieces_of(pair_keys.size()));
    if (event_pieces.size() < pieces) event_pieces.resize(pieces);
    // Where piece k starts in current.
    auto current_at = [&](std::size_t k) -> std::size_t {
      if (k == 0) return 0;
      if (k == pieces) return current.size();
      const std::uint64_t key = as_slot_key(pair_keys[k * pairs_per_piece]);
      return static_cast<std::size_t>(
          std::lower_bound(current.begin(), current.end(), key,
                           [](const HandlePair& p, std::uint64_t first) { return slot_key(p) < first; }) -
          current.begin());
    };
    run_frame([&] {
      detail::parallel_for(std::size_t{0}, pieces, [&](std::size_t k) {
        merge(current_at(k), current_at(k + 1), std::min(k * pairs_per_piece, pair_keys.size()),
              std::min((k + 1) * pairs_per_piece, pair_keys.size()), event_pieces[k]);
      });
    });
    begins.clear();
    ends.clear();
    for (std::size_t k = 0; k < pieces; ++k) {
      begins.insert(begins.end(), event_pieces[k].begins.begin(), event_pieces[k].begins.end());
      ends.insert(ends.end(), event_pieces[k].ends.begin(), event_pieces[k].ends.end());
    }
  }

  /// next and the events with current's pairs carried over (by_changes): the static pairs'
  /// begins (static_keys) and ends (static_ends), and the dynamic shapes' own pairs'
  /// (own_came, own_gone: DynamicContacts' changes, or from dynamic_keys, the last step's,
  /// to own_keys); the same lists as merge_pairs would give.
  /// A slot key names one pair unless its slot was released since the last step (a shape
  /// destroyed: its pairs are in `gone`) and used again (a shape created: its pairs in
  /// `came`): of one key, the end is taken first.
  void carry_pairs() {
    to_slot_keys(static_keys);
    to_slot_keys(static_ends);
    if (!own_changes) {
      to_slot_keys(own_keys);
      own_gone.clear();
      own_came.clear();
      std::set_difference(dynamic_keys.begin(), dynamic_keys.end(), own_keys.begin(), own_keys.end(),
                          std::back_inserter(own_gone));
      std::set_difference(own_keys.begin(), own_keys.end(), dynamic_keys.begin(), dynamic_keys.end(),
                          std::back_inserter(own_came));
    }
    // Both sorted, and disjoint: a static pair changes once, and no pair is both static
    // and the dynamic shapes' own.
    gone.resize(static_ends.size() + own_gone.size());
    std::merge(static_ends.begin(), static_ends.end(), own_gone.begin(), own_gone.end(), gone.begin());
    came.resize(static_keys.size() + own_came.size());
    std::merge(static_keys.begin(), static_keys.end(), own_came.begin(), own_came.end(), came.begin());
    // current with `gone` taken out and `came` put in, into next, which has room for all
    // of current and `came` (kept between steps), cut to size at the end. In pieces of
    // current that run in parallel: piece k takes current's pairs from k * pairs_per_piece
    // on and the changes whose keys lie in their range, and writes where the pieces
    // before it end (the pairs before it, less those that went, and those that came).
    if (gone.size() > current.size()) throw std::logic_error("hitgrid: more pairs ended than the last step had");
    if (next.size() < current.size() + came.size()) next.resize(current.size() + came.size());
    const std::size_t pieces = std::max<std::size_t>(1, pieces_of(current.size()));
    if (event_pieces.size() < pieces) event_pieces.resize(pieces);
    auto first_of = [&](const std::vector<std::uint64_t>& changes, std::size_t k) -> std::size_t {
      if (k == 0) return 0;
      if (k == pieces) return changes.size();
      const std::uint64_t key = slot_key(current[k * pairs_per_piece]);
      return static_cast<std::size_t>(std::lower_bound(changes.begin(), changes.end(), key) - changes.begin());
    };
    run_frame([&] {
      detail::parallel_for(std::size_t{0}, pieces, [&](std::size_t k) {
        const std::size_t i = std::min(k * pairs_per_piece, current.size()),
                          i_end = k + 1 == pieces ? current.size() : (k + 1) * pairs_per_piece;
        carry_piece(i, i_end, first_of(gone, k), first_of(gone, k + 1), first_of(came, k), first_of(came, k + 1),
                    event_pieces[k]);
      });
    });
    begins.clear();
    ends.clear();
    for (std::size_t k = 0; k < pieces; ++k) {
      begins.insert(begins.end(), event_pieces[k].begins.begin(), event_pieces[k].begins.end());
      ends.insert(ends.end(), event_pieces[k].ends.begin(), event_pieces[k].ends.end());
    }
    next.resize(current.size() - gone.size() + came.size());
  }

  /// carry_pairs' piece: current[i, i_end) with gone[g, g_end) taken out and came[c,
  /// c_end) put in, into next from i - g + c; the events into `out`.
  void carry_piece(std::size_t i, std::size_t i_end, std::size_t g, std::size_t g_end, std::size_t c,
                   std::size_t c_end, Events& out_events) {
    out_events.begins.clear();
    out_events.ends.clear();
    if (i + c < g) throw std::logic_error("hitgrid: a pair ended that the last step did not have");
    const HandlePair *in = current.data() + i, *const in_end = current.data() + i_end;
    HandlePair* out = next.data() + (i + c - g);
    HandlePair* const out_end = next.data() + (i_end + c_end - g_end);
    // The pairs before `key` to out: a few changes apart, so rather than a branch per pair
    // (mispredicted where each run ends), a block at a time, copied whole and counted (the
    // pairs are sorted: those below the key come first), while a block fits in the piece;
    // what a block wrote past the count is written again after.
    auto copy_below = [&](std::uint64_t key) {
      constexpr std::size_t block = 8;
      while (in_end - in >= static_cast<std::ptrdiff_t>(block) && out_end - out >= static_cast<std::ptrdiff_t>(block)) {
        std::size_t below = 0;
        for (std::size_t j = 0; j < block; ++j) below += slot_key(in[j]) < key ? 1 : 0;
        std::copy_n(in, block, out);
        in += below;
        out += below;
        if (below != block) return;
      }
      while (in != in_end && slot_key(*in) < key) *out++ = *in++;
    };
    while (g < g_end || c < c_end) {
      const bool goes = c == c_end || (g < g_end && gone[g] <= came[c]);
      const std::uint64_t key = goes ? gone[g++] : came[c++];
      copy_below(key);
      const bool had = in != in_end && slot_key(*in) == key;
      if (goes) {
        if (!had) throw std::logic_error("hitgrid: a pair ended that the last step did not have");
        out_events.ends.push_back(*in++);
      } else {
        if (had) throw std::logic_error("hitgrid: a pair began that the last step had");
        if (c + generations_ahead < c_end) fetch_generations(came[c + generations_ahead]);
        *out = handles_of(key);
        out_events.begins.push_back(*out++);
      }
    }
    std::copy(in, in_end, out);
  }

  /// Pair keys (lower << slot_bits | higher) as slot keys (lower << 32 | higher), in place
  /// (the order stays).
  void to_slot_keys(std::vector<std::uint64_t>& keys) const {
    for (std::uint64_t& k : keys) k = as_slot_key(k);
  }

  /// A pair key (lower slot << slot_bits | higher) as a slot key (lower << 32 | higher).
  std::uint64_t as_slot_key(std::uint64_t key) const {
    return (key >> slot_bits) << 32 | (key & ((std::uint64_t{1} << slot_bits) - 1));
  }

  /// next[j, j_end) from pair_keys, merged with current[i, i_end): the events into `out`.
  /// A pair of slots in both lists is the same pair unless a slot was released since the
  /// last step (and perhaps used again): while none was, its handles are current's, and
  /// only the new pairs read their slots' generations, after the merge (far apart in
  /// memory: fetched a few pairs ahead).
  void merge(std::size_t i, std::size_t i_end, std::size_t j, std::size_t j_end, Events& out) {
    out.begins.clear();
    out.ends.clear();
    if (slots_released) return merge_released(i, i_end, j, j_end, out);
    out.fresh.clear();
    for (; j < j_end; ++j) {
      const std::uint64_t key = as_slot_key(pair_keys[j]);
      while (i < i_end && slot_key(current[i]) < key) out.ends.push_back(current[i++]);
      if (i < i_end && slot_key(current[i]) == key)
        next[j] = current[i++];
      else
        out.fresh.push_back(j);
    }
    while (i < i_end) out.ends.push_back(current[i++]);
    for (std::size_t k = 0; k < out.fresh.size(); ++k) {
      if (k + generations_ahead < out.fresh.size())
        fetch_generations(as_slot_key(pair_keys[out.fresh[k + generations_ahead]]));
      const std::size_t at = out.fresh[k];
      next[at] = handles_of(as_slot_key(pair_keys[at]));
      out.begins.push_back(next[at]);
    }
  }

  /// merge() after a slot was released: every pair's handles from the generations, and a
  /// pair of slots in both lists whose generations differ ends and begins.
  void merge_released(std::size_t i, std::size_t i_end, std::size_t j, std::size_t j_end, Events& out) {
    for (; j < j_end; ++j) {
      if (j + generations_ahead < j_end) fetch_generations(as_slot_key(pair_keys[j + generations_ahead]));
      const std::uint64_t key = as_slot_key(pair_keys[j]);
      while (i < i_end && slot_key(current[i]) < key) out.ends.push_back(current[i++]);
      next[j] = handles_of(as_slot_key(pair_keys[j]));
      if (!(i < i_end && slot_key(current[i]) == key)) {
        out.begins.push_back(next[j]);
      } else if (!(current[i++] == next[j])) {
        out.ends.push_back(current[i - 1]);
        out.begins.push_back(next[j]);
      }
    }
    while (i < i_end) out.ends.push_back(current[i++]);
  }

  /// A slot key's slots as handles, and the prefetch of their generations (a pair key's:
  /// as_slot_key first).
  static constexpr std::size_t generations_ahead = 16;
  HandlePair handles_of(std::uint64_t key) const {
    return {handle_of(static_cast<std::uint32_t>(key >> 32)), handle_of(static_cast<std::uint32_t>(key))};
  }
  void fetch_generations(std::uint64_t key) const {
    __builtin_prefetch(&generations[key >> 32]);
    __builtin_prefetch(&generations[static_cast<std::uint32_t>(key)]);
  }

  WorldOptions options;
  FindPairsOptions find_options;
  PairFinder finder, serial_finder;  // on the world's threads, on the calling thread alone

  std::vector<Slot> slots;
  std::vector<std::uint32_t> generations;  // slots[i].generation, compact: read per pair
  bool slots_released = false;             // a generation changed since the last step
  std::size_t filtered = 0;                // live shapes whose filter is not the default
  std::vector<std::uint32_t> free;         // a min-heap of free slots
  std::size_t live_count = 0;
  std::array<Scene, 2> scenes;                                      // static, dynamic
  std::array<std::array<std::vector<std::uint32_t>, 3>, 2> owners;  // [body][kind][dense] -> slot
  std::array<bool, 2> bounds_stale{};
  std::array<bool, 2> index_stale{true, true};
  std::array<GridIndex, 2> index;
  std::vector<ShapeId> found;

  PairList dynamic_pairs;
  StaticContacts static_contacts;    // the dynamic shapes' pairs with the static ones
  DynamicContacts dynamic_contacts;  // their pairs among themselves, while they stay near
  // The static pairs, or by_changes those that began: dynamic slot << 32 | static slot,
  // then pair keys.
  std::vector<std::uint64_t> static_keys;
  std::vector<std::uint64_t> static_ends;  // by_changes: the static pairs that ended (as static_keys)
  // Whether the step finds its static pairs by their changes since the last step (and the
  // dynamic shapes' own apart, in own_keys), and whether it keeps them apart (tracking):
  // without a margin, with static and dynamic shapes.
  bool by_changes = false, tracking = false;
  bool own_changes = false;  // the dynamic shapes' own pairs carried by DynamicContacts (own_came, own_gone)
  // Since the last step, which completed, shapes were only moved in place, added, or
  // destroyed while dynamic (in place_log): no shape taken out of its scene or place
  // otherwise, no filter changed, no memory released.
  bool places_kept = false;
  std::vector<PlaceChange> place_log;      // since the last step
  std::vector<PlaceChange> place_changes;  // the step's (find_pairs')
  // The slots and filters of the dynamic shapes destroyed since the last step (in order),
  // and the step's; the pairs StaticContacts says they had (StaticContacts::patch).
  std::vector<std::pair<std::uint32_t, ShapeFilter>> destroyed_filters, step_destroyed;
  std::vector<std::uint64_t> destroyed_ends;
  bool own_keys_known = false;                                // dynamic_keys is the last step's
  bool dynamic_keys_known = false;                            // own_keys_known when the step began
  std::vector<std::uint64_t> own_keys;                        // the step's dynamic pairs among themselves, sorted
  std::vector<std::uint64_t> dynamic_keys;                    // the last step's, as slot keys
  std::vector<std::uint64_t> own_gone, own_came, gone, came;  // carry_pairs' scratch
  std::vector<CrossPair> self_pairs;
  std::vector<HandlePair> current, next, begins, ends;
  std::vector<Events> event_pieces;  // find_events' pieces, kept between steps
  std::vector<Impact> impacts;
  std::vector<std::uint32_t> moving;  // slots of the circles with a displacement
  // Some circle may have a displacement: one was set since a step found none (a world
  // without continuous collision does not look at every circle every step).
  bool displaced = false;
  Scene swept;                        // their swept bounds, as boxes
  std::vector<CrossPair> swept_pairs;
  std::vector<std::uint64_t> pair_keys;     // the step's pairs as slot keys, then sorted
  std::vector<std::uint64_t> sort_scratch;  // sort_keys' working room, kept between steps
  int slot_bits = 0;                        // a pair key is lower slot << slot_bits | higher
  std::vector<std::uint32_t> stamps;        // check_distinct_live's marks, per slot
  std::vector<std::uint32_t> positions;     // check_moves' marks, per slot: a position in the batch
  struct CastBlock {
    std::vector<IndexedShape> found;
    std::vector<CastHit> hits;
    std::vector<std::size_t> ends;
  };
  std::vector<CastBlock> cast_blocks;       // a batched cast's blocks (cast_many)
  std::vector<CastHit> single_hits;         // cast_nearest's
  std::vector<std::size_t> single_offsets;  // a single cast's

  template <class Q>
  void hits_into(const Q& q, std::uint64_t mask, const Aabb* window, std::vector<IndexedShape>& candidates,
                 std::vector<CastHit>& out) const;
  template <class Q>
  void cast_into(const Q& q, std::uint64_t mask, CastHits which, std::vector<IndexedShape>& candidates,
                 std::vector<CastHit>& out) const;
  template <class Q>
  void cast_many(std::span<const Q> casts, std::uint64_t mask, CastHits which, std::vector<CastHit>& hits,
                 std::vector<std::size_t>& starts);
  std::uint32_t stamp = 0;
};

World::World(const WorldOptions& options) : s_(std::make_unique<State>(options)) {}
World::~World() = default;
World::World(World&&) noexcept = default;
World& World::operator=(World&&) noexcept = default;

ShapeHandle World::create(const ShapeDef& def) {
  ShapeHandle h;
  create(std::span<const ShapeDef>(&def, 1), std::span<ShapeHandle>(&h, 1));
  return h;
}

void World::create(std::span<const ShapeDef> defs, std::span<ShapeHandle> out) {
  State& s = *s_;
  if (out.size() != defs.size())
    throw Error("create: " + std::to_string(defs.size()) + " definitions but room for " + std::to_string(out.size()) +
                " handles");
  std::array<std::array<std::size_t, 3>, 2> adding{};
  for (std::size_t i = 0; i < defs.size(); ++i) {
    if (auto why = invalid_def(defs[i]))
      throw Error("create: shape " + std::to_string(i) + " of " + std::to_string(defs.size()) + ": " + *why);
    ++adding[scene_of(defs[i].body)][static_cast<std::size_t>(kind_of(defs[i].shape))];
  }
  s.check_room(adding);
  if (s.free.size() < defs.size() && s.slots.size() + (defs.size() - s.free.size()) >= last_generation)
    throw Error("create: a world has at most 2^32 - 1 slots");
  for (std::size_t i = 0; i < defs.size(); ++i) {
    const std::uint32_t slot = s.take_slot();
    State::Slot& slot_state = s.slots[slot];
    slot_state.alive = true;
    slot_state.displacement = {0.0f, 0.0f};
    slot_state.filter = defs[i].filter;
    if (!(defs[i].filter == ShapeFilter{})) ++s.filtered;
    slot_state.user = defs[i].user;
    s.insert(slot, defs[i].shape, defs[i].body);
    ++s.live_count;
    out[i] = s.handle_of(slot);
  }
}

void World::destroy(ShapeHandle handle) { destroy(std::span<const ShapeHandle>(&handle, 1)); }

void World::destroy(std::span<const ShapeHandle> handles) {
  State& s = *s_;
  s.check_distinct_live(handles, "destroy");
  for (ShapeHandle h : handles) {
    s.take_out(h.index, true);
    s.release_slot(h.index);
    --s.live_count;
  }
}

void World::move(ShapeHandle handle, const Shape& shape) {
  move(std::span<const ShapeHandle>(&handle, 1), std::span<const Shape>(&shape, 1));
}

void World::move(std::span<const ShapeHandle> handles, std::span<const Shape> shapes) {
  State& s = *s_;
  if (handles.size() != shapes.size())
    throw Error("move: " + std::to_string(handles.size()) + " handles but " + std::to_string(shapes.size()) +
                " shapes");
  const State::MovePiece all = s.check_moves(handles, shapes);
  if (all.adding == decltype(all.adding){})
    s.replace_in_place(handles, shapes, all.touched);
  else
    s.move_in_order(handles, shapes);
}

void World::set_filter(ShapeHandle handle, ShapeFilter filter) {
  State& s = *s_;
  s.live(handle, "set_filter");
  ShapeFilter& f = s.slots[handle.index].filter;
  if (f == filter) return;
  s.filtered += (filter == ShapeFilter{} ? 0 : 1) - (f == ShapeFilter{} ? 0 : 1);
  f = filter;
  s.forget_places();  // pairs refused or accepted now that were not
}

void World::set_body(ShapeHandle handle, BodyType body) {
  State& s = *s_;
  const State::Slot& slot = s.live(handle, "set_body");
  if (body != BodyType::static_body && body != BodyType::dynamic_body)
    throw Error("set_body: unknown body type " + std::to_string(static_cast<int>(body)));
  if (slot.body == body) return;
  std::array<std::array<std::size_t, 3>, 2> adding{};
  adding[scene_of(body)][static_cast<std::size_t>(slot.kind)] = 1;
  s.check_room(adding);
  const Shape shape = this->shape(handle);
  s.take_out(handle.index);
  s.insert(handle.index, shape, body);
}

void World::set_user(ShapeHandle handle, std::uint64_t user) {
  s_->live(handle, "set_user");
  s_->slots[handle.index].user = user;
}

bool World::contains(ShapeHandle handle) const {
  const State& s = *s_;
  return handle.index < s.slots.size() && s.slots[handle.index].alive &&
         s.slots[handle.index].generation == handle.generation;
}

Shape World::shape(ShapeHandle handle) const {
  const State::Slot& slot = s_->live(handle, "shape");
  const Scene& scene = s_->scenes[scene_of(slot.body)];
  switch (slot.kind) {
    case ShapeKind::segment:
      return scene.segment(slot.dense);
    case ShapeKind::circle:
      return scene.circle(slot.dense);
    case ShapeKind::box:
      break;
  }
  return scene.box(slot.dense);
}

ShapeFilter World::filter(ShapeHandle handle) const { return s_->live(handle, "filter").filter; }
BodyType World::body(ShapeHandle handle) const { return s_->live(handle, "body").body; }
std::uint64_t World::user(ShapeHandle handle) const { return s_->live(handle, "user").user; }
std::size_t World::size() const { return s_->live_count; }

void World::step() {
  s_->find_pairs();
  s_->find_events();
  s_->find_impacts();
}

std::span<const Impact> World::impacts() const { return s_->impacts; }

void World::set_displacement(ShapeHandle circle, Vec2 v) {
  State& s = *s_;
  const State::Slot& slot = s.live(circle, "set_displacement");
  if (slot.kind != ShapeKind::circle || slot.body != BodyType::dynamic_body)
    throw Error("set_displacement: " + handle_text(circle) + " is not a dynamic circle");
  if (!std::isfinite(v.x) || !std::isfinite(v.y))
    throw Error("set_displacement: " + handle_text(circle) + ": the displacement is not finite");
  s.slots[circle.index].displacement = v;
  s.displaced = s.displaced || v.x != 0.0f || v.y != 0.0f;
}

Vec2 World::displacement(ShapeHandle handle) const { return s_->live(handle, "displacement").displacement; }

std::span<const HandlePair> World::pairs() const { return s_->current; }
std::span<const HandlePair> World::begin_events() const { return s_->begins; }
std::span<const HandlePair> World::end_events() const { return s_->ends; }

void World::query(const Shape& shape, std::uint64_t mask, std::vector<ShapeHandle>& out) {
  State& s = *s_;
  if (auto why = invalid_shape(shape)) throw Error("query: " + *why);
  out.clear();
  s.run_frame([&] {
    s.refresh({static_scene, dynamic_scene});
    for (std::size_t b = 0; b < 2; ++b) {
      std::visit([&](const auto& g) { s.index[b].touching(g, s.found); }, shape);
      for (ShapeId id : s.found) {
        const std::uint32_t slot = s.owners[b][static_cast<std::size_t>(id.kind())][id.index()];
        if ((s.slots[slot].filter.category & mask) != 0) out.push_back(s.handle_of(slot));
      }
    }
  });
  std::sort(out.begin(), out.end());
}

namespace {

Vec2d unit(double x, double y) {
  const double n = std::hypot(x, y);
  return n > 0.0 ? Vec2d{x / n, y / n} : Vec2d{};
}

/// A cast as a start, a direction (a segment's b - a: its signs exact, its value rounded
/// once) and the end of its time range (a segment's 1, a ray's infinity).
struct CastLine {
  Vec2 o;
  double dx, dy, t_max;
  int sx, sy;  // the direction's signs, exact
  explicit CastLine(const Segment& s)
      : o(s.a),
        dx(double{s.b.x} - s.a.x),
        dy(double{s.b.y} - s.a.y),
        t_max(1.0),
        sx(sign_of(s.a.x, s.b.x)),
        sy(sign_of(s.a.y, s.b.y)) {}
  explicit CastLine(const Ray& r)
      : o(r.origin),
        dx(r.direction.x),
        dy(r.direction.y),
        t_max(std::numeric_limits<double>::infinity()),
        sx(sign_of(0.0f, r.direction.x)),
        sy(sign_of(0.0f, r.direction.y)) {}
  static int sign_of(float from, float to) { return (from < to) - (to < from); }
};
/// The exact side of a point from a cast's line: + left.
int side_of(const Segment& s, Vec2 p) { return orient2d(s.a, s.b, p); }
int side_of(const Ray& r, Vec2 p) { return orient_along(r.origin, r.direction, p); }

/// The outward normal where a cast first meets a shape (CastHit::normal), for a cast
/// that starts outside it. A box: the face the cast enters through, decided exactly (the
/// slab it enters last; at a corner it enters both slabs at once, the x face). A segment:
/// its side facing the cast's start, exact ((0, 0) when the cast runs along it). A
/// circle: the radius to the hit, (o - c) + t d, rounded (world.hpp states the bound).
template <class Q>
Vec2d normal_at(const Q& q, const RayHit& hit, const Shape& shape) {
  if (hit.starts_inside) return {};
  const CastLine l(q);
  return std::visit(
      [&](const auto& g) -> Vec2d {
        using S = std::decay_t<decltype(g)>;
        if constexpr (std::is_same_v<S, Box>) {
          // Outside a slab at the start, the cast enters it (it meets the box); inside it,
          // it does not enter through that slab's faces.
          const bool enters_x = l.sx != 0 && (l.o.x < g.min.x || g.max.x < l.o.x);
          const bool enters_y = l.sy != 0 && (l.o.y < g.min.y || g.max.y < l.o.y);
          bool x_face = enters_x;
          if (enters_x && enters_y) {
            // The slabs' entry times t_x = (X - o.x) / d.x and t_y = (Y - o.y) / d.y, at
            // the corner (X, Y) it comes to first: t_x - t_y = -cross(d, corner - o) /
            // (d.x d.y), whose sign is exact.
            const Vec2 corner{l.sx > 0 ? g.min.x : g.max.x, l.sy > 0 ? g.min.y : g.max.y};
            x_face = -side_of(q, corner) * l.sx * l.sy >= 0;
          }
          if (x_face) return {l.sx > 0 ? -1.0 : 1.0, 0.0};
          return {0.0, l.sy > 0 ? -1.0 : 1.0};
        } else if constexpr (std::is_same_v<S, Circle>) {
          if (g.r == 0.0f) return {};  // a point has no normal
          return unit((double{l.o.x} - g.c.x) + hit.t_near * l.dx, (double{l.o.y} - g.c.y) + hit.t_near * l.dy);
        } else {
          const int side = orient2d(g.a, g.b, l.o);
          const double dx = double{g.b.x} - g.a.x, dy = double{g.b.y} - g.a.y;
          if (side == 0) return {};
          return side > 0 ? unit(-dy, dx) : unit(dy, -dx);
        }
      },
      shape);
}

bool before(const CastHit& x, const CastHit& y) { return x.t < y.t || (x.t == y.t && x.handle < y.handle); }

}  // namespace

template <class Q>
void World::State::hits_into(const Q& q, std::uint64_t mask, const Aabb* window, std::vector<IndexedShape>& candidates,
                             std::vector<CastHit>& out) const {
  constexpr float inf = std::numeric_limits<float>::infinity();
  const Aabb everywhere{{-inf, -inf}, {inf, inf}};
  for (std::size_t b = 0; b < 2; ++b) {
    // The candidates with their geometry, each through raycast once: its exact hit or
    // miss (touching()'s test) and the hit's time and point.
    index[b].candidates(q, window ? *window : everywhere, candidates);
    for (const IndexedShape& s : candidates) {
      const Shape target = unpack(s.id.kind(), s.g);
      const RayHit hit = std::visit([&](const auto& g) { return raycast(q, g); }, target);
      if (!hit.hit) continue;
      const std::uint32_t slot = owners[b][static_cast<std::size_t>(s.id.kind())][s.id.index()];
      if ((slots[slot].filter.category & mask) == 0) continue;
      out.push_back({handle_of(slot), hit.t_near, hit.p_near, normal_at(q, hit, target)});
    }
  }
}

template <class Q>
void World::State::cast_into(const Q& q, std::uint64_t mask, CastHits which, std::vector<IndexedShape>& candidates,
                             std::vector<CastHit>& out) const {
  const std::size_t first = out.size();
  if (which == CastHits::all) {
    hits_into(q, mask, nullptr, candidates, out);
    std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(), before);
    return;
  }
  // The nearest hit: search a window around the cast's points for t in [0, T], T growing
  // fourfold from a few cells, until the best hit found lies well within it. Any shape the
  // cast meets at some t <= T meets it inside the window, so one not found enters at
  // t* > T; the best found, with t <= T (1 - 2^-40), is then first even with the times
  // rounded (CastHit::t is within 2^-45 of the exact time).
  const CastLine line(q);
  const Vec2 o = line.o;
  const double dx = line.dx, dy = line.dy, t_max = line.t_max;
  const double reach = std::max(std::fabs(dx), std::fabs(dy));
  const double cell = std::max(index[0].cell_size(), index[1].cell_size());
  Aabb shapes = scenes[0].bounds();  // every shape lies within these
  for (const Vec2 v : {scenes[1].bounds().min, scenes[1].bounds().max})
    shapes = {{std::min(shapes.min.x, v.x), std::min(shapes.min.y, v.y)},
              {std::max(shapes.max.x, v.x), std::max(shapes.max.y, v.y)}};
  double t = reach > 0.0 && cell > 0.0 ? 4.0 * cell / reach : t_max;
  for (;;) {
    out.resize(first);
    const bool whole = !(t < t_max);
    if (whole) {
      hits_into(q, mask, nullptr, candidates, out);
    } else {
      // The box of o and o + t d: it holds the exact cast up to t. d's rounding, the
      // product's and the sum's are each within 2^-53 of the terms (|o| + |t d|), however
      // much o and t d cancel: each side is widened by 2^-50 of them (as swept_bounds).
      const double x1 = o.x + t * dx, y1 = o.y + t * dy;
      const double ex = (std::fabs(double{o.x}) + std::fabs(t * dx)) * 0x1p-50;
      const double ey = (std::fabs(double{o.y}) + std::fabs(t * dy)) * 0x1p-50;
      const Aabb window{{float_below(std::min(double{o.x}, x1) - ex), float_below(std::min(double{o.y}, y1) - ey)},
                        {float_above(std::max(double{o.x}, x1) + ex), float_above(std::max(double{o.y}, y1) + ey)}};
      hits_into(q, mask, &window, candidates, out);
      if (hitgrid::contains(window, shapes)) {  // the window held every shape: the whole answer
        t = t_max;
      }
    }
    const auto best = std::min_element(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(), before);
    if (best != out.end() && (whole || !(t < t_max) || best->t <= t * (1.0 - 0x1p-40))) {
      const CastHit h = *best;
      out.resize(first);
      out.push_back(h);
      return;
    }
    if (whole || !(t < t_max)) {
      out.resize(first);
      return;
    }
    t *= 4.0;
  }
}

/// Fewer casts than this in a batch run on the calling thread: waking the workers would
/// cost more than the casts.
constexpr std::size_t serial_casts = 64;

template <class Q>
void World::State::cast_many(std::span<const Q> casts, std::uint64_t mask, CastHits which, std::vector<CastHit>& hits,
                             std::vector<std::size_t>& starts) {
  hits.clear();
  starts.assign(1, 0);
  // A batch's work is its casts into every shape, static or dynamic: on the calling
  // thread when the batch or the whole world is small (a million static walls and no
  // dynamic shape is a small frame, but not a small world to cast into).
  run(casts.size() < serial_casts || small_world(), [&] {
    refresh({static_scene, dynamic_scene});
    // Fixed blocks of casts, each gathering its hits in order; joined in block order, so
    // the answer does not depend on the threads.
    constexpr std::size_t per_block = 32;
    const std::size_t blocks = (casts.size() + per_block - 1) / per_block;
    if (cast_blocks.size() < blocks) cast_blocks.resize(blocks);
    detail::parallel_for(std::size_t{0}, blocks, [&](std::size_t k) {
      CastBlock& block = cast_blocks[k];
      block.hits.clear();
      block.ends.clear();
      for (std::size_t i = k * per_block; i < std::min(casts.size(), (k + 1) * per_block); ++i) {
        cast_into(casts[i], mask, which, block.found, block.hits);
        block.ends.push_back(block.hits.size());
      }
    });
    for (std::size_t k = 0; k < blocks; ++k) {
      const CastBlock& block = cast_blocks[k];
      for (std::size_t end : block.ends) starts.push_back(hits.size() + end);
      hits.insert(hits.end(), block.hits.begin(), block.hits.end());
    }
  });
}

namespace {

template <class Q>
void check_cast(const Q& q, const char* what) {
  if constexpr (std::is_same_v<Q, Segment>) {
    if (auto why = invalid_shape(q)) throw Error(std::string(what) + ": " + *why);
  } else {
    if (!std::isfinite(q.origin.x) || !std::isfinite(q.origin.y) || !std::isfinite(q.direction.x) ||
        !std::isfinite(q.direction.y))
      throw Error(std::string(what) + ": the ray's origin and direction must be finite");
  }
}

}  // namespace

void World::cast(const Segment& c, std::uint64_t mask, std::vector<CastHit>& hits) {
  cast(std::span<const Segment>(&c, 1), mask, CastHits::all, hits, s_->single_offsets);
}
void World::cast(const Ray& r, std::uint64_t mask, std::vector<CastHit>& hits) {
  cast(std::span<const Ray>(&r, 1), mask, CastHits::all, hits, s_->single_offsets);
}

std::optional<CastHit> World::cast_nearest(const Segment& c, std::uint64_t mask) {
  std::vector<CastHit>& hits = s_->single_hits;
  cast(std::span<const Segment>(&c, 1), mask, CastHits::nearest, hits, s_->single_offsets);
  return hits.empty() ? std::nullopt : std::optional<CastHit>(hits.front());
}
std::optional<CastHit> World::cast_nearest(const Ray& r, std::uint64_t mask) {
  std::vector<CastHit>& hits = s_->single_hits;
  cast(std::span<const Ray>(&r, 1), mask, CastHits::nearest, hits, s_->single_offsets);
  return hits.empty() ? std::nullopt : std::optional<CastHit>(hits.front());
}

void World::cast(std::span<const Segment> casts, std::uint64_t mask, CastHits which, std::vector<CastHit>& hits,
                 std::vector<std::size_t>& offsets) {
  for (const Segment& c : casts) check_cast(c, "cast");
  s_->cast_many(casts, mask, which, hits, offsets);
}
void World::cast(std::span<const Ray> rays, std::uint64_t mask, CastHits which, std::vector<CastHit>& hits,
                 std::vector<std::size_t>& offsets) {
  for (const Ray& r : rays) check_cast(r, "cast");
  s_->cast_many(rays, mask, which, hits, offsets);
}

void World::release_memory() {
  State& s = *s_;
  // The dynamic shapes' index (the last step's grid, kept for queries) first, so that its
  // blocks go back to the finders before they give theirs away; the next step or query
  // builds it again. The static shapes' index stays: it is built once.
  s.index[dynamic_scene] = GridIndex();
  s.index_stale[dynamic_scene] = true;
  s.finder.release_memory();
  s.serial_finder.release_memory();
  PairList().swap(s.dynamic_pairs);
  s.static_contacts.release_memory();
  s.dynamic_contacts.release_memory();
  s.forget_places();
  std::vector<PlaceChange>().swap(s.place_log);
  std::vector<PlaceChange>().swap(s.place_changes);
  s.destroyed_filters = {};
  s.step_destroyed = {};
  std::vector<std::uint64_t>().swap(s.destroyed_ends);
  s.own_keys_known = false;
  std::vector<std::uint64_t>().swap(s.static_keys);
  std::vector<std::uint64_t>().swap(s.static_ends);
  std::vector<std::uint64_t>().swap(s.own_keys);
  std::vector<std::uint64_t>().swap(s.dynamic_keys);
  for (auto* v : {&s.own_gone, &s.own_came, &s.gone, &s.came}) std::vector<std::uint64_t>().swap(*v);
  std::vector<CrossPair>().swap(s.self_pairs);
  std::vector<HandlePair>().swap(s.next);
  std::vector<State::MovePiece>().swap(s.move_pieces);
  std::vector<State::Events>().swap(s.event_pieces);
  std::vector<std::uint64_t>().swap(s.pair_keys);
  std::vector<std::uint64_t>().swap(s.sort_scratch);
  std::vector<std::uint32_t>().swap(s.stamps);
  std::vector<std::uint32_t>().swap(s.positions);
  std::vector<State::CastBlock>().swap(s.cast_blocks);
#if defined(__GLIBC__)
  // The blocks went back to the C library, which keeps freed memory for later requests;
  // hand its free pages to the system now, as the caller asked.
  malloc_trim(0);
#endif
}

}  // namespace hitgrid
