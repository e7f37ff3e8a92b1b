#include "dynamic_contacts.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "hitgrid/broadphase/detail/parallel.hpp"
#include "hitgrid/broadphase/sort_keys.hpp"
#include "hitgrid/core/shape_id.hpp"
#include "hitgrid/simd/pair_kernels.hpp"
#include "packed_shape.hpp"

namespace hitgrid {

namespace {

constexpr std::size_t at(ShapeKind k) { return static_cast<std::size_t>(k); }

/// The shape kinds of each simd::PairKind, first and second (s <= c <= b).
constexpr std::array<ShapeKind, 6> first_kind = {ShapeKind::segment, ShapeKind::segment, ShapeKind::segment,
                                                 ShapeKind::circle,  ShapeKind::circle,  ShapeKind::box};
constexpr std::array<ShapeKind, 6> second_kind = {ShapeKind::segment, ShapeKind::circle, ShapeKind::box,
                                                  ShapeKind::circle,  ShapeKind::box,    ShapeKind::box};

/// Shape i of `kind` in `scene`: its packed geometry into g, and its bounds.
Aabb pack_at(const Scene& scene, ShapeKind kind, std::uint32_t i, std::array<float, 4>& g) {
  pack_shape(scene, kind, i, g.data());
  return packed_bounds(kind, g.data());
}

/// Whether the bounds (min x, min y, max x, max y) lie within `slack`, without a branch.
bool bounds_in(const Aabb& slack, float minx, float miny, float maxx, float maxy) {
  return (static_cast<int>(slack.min.x <= minx) & static_cast<int>(slack.min.y <= miny) &
          static_cast<int>(maxx <= slack.max.x) & static_cast<int>(maxy <= slack.max.y)) != 0;
}

/// Whether the shape of `kind` packed in g lies within `slack`: its bounds do, or for a
/// circle its disk does (only the disk can touch; its bounds are rounded outward).
bool lies_in(ShapeKind kind, const float* g, const Aabb& slack) {
  return (kind == ShapeKind::circle && disk_surely_in(slack, g)) || contains(slack, packed_bounds(kind, g));
}

}  // namespace

void DynamicContacts::Candidates::clear() {
  keys.clear();
  first.clear();
  second.clear();
  touched.clear();
  next.clear();
}

bool DynamicContacts::can_carry(const Scene& dynamic) {
  bool same = true;
  for (std::size_t k = 0; k < 3; ++k) same = same && dynamic.count(static_cast<ShapeKind>(k)) == counts_built_[k];
  if (!same) {
    ++counts_.escapes;
    return false;
  }
  std::atomic<bool> escaped{false};
  for (std::size_t k = 0; k < 3; ++k) {
    const auto kind = static_cast<ShapeKind>(k);
    const std::size_t n = counts_built_[k], blocks = (n + piece_size - 1) / piece_size;
    detail::parallel_for(std::size_t{0}, blocks, [&](std::size_t b) {
      const std::size_t first = b * piece_size, last = std::min(n, first + piece_size);
      const bool in = mapped_ ? pack_inside<true>(dynamic, kind, first, last)
                              : pack_inside<false>(dynamic, kind, first, last);
      if (!in) escaped.store(true, std::memory_order_relaxed);
    });
  }
  if (escaped.load(std::memory_order_relaxed)) {
    ++counts_.escapes;
    return false;
  }
  return true;
}

template <bool mapped>
bool DynamicContacts::pack_inside(const Scene& dynamic, ShapeKind kind, std::size_t first, std::size_t last) {
  // Every shape is packed and tested, without a branch on the outcome (they are almost all
  // in): the loops run straight from the scene's columns.
  const Aabb* slack = slack_[at(kind)].data();
  std::array<float, 4>* packed = packed_[at(kind)].data();
  const std::uint32_t* stable = stable_[at(kind)].data();
  auto id = [stable](std::size_t i) -> std::size_t { return mapped ? stable[i] : i; };
  bool in = true;
  switch (kind) {
    case ShapeKind::segment: {
      const SegmentArrays& s = dynamic.segments();
      for (std::size_t i = first; i < last; ++i) {
        const float ax = s.ax[i], ay = s.ay[i], bx = s.bx[i], by = s.by[i];
        const std::size_t j = id(i);
        packed[j] = {ax, ay, bx, by};
        in &= bounds_in(slack[j], std::min(ax, bx), std::min(ay, by), std::max(ax, bx), std::max(ay, by));
      }
      return in;
    }
    case ShapeKind::circle: {
      const CircleArrays& c = dynamic.circles();
      for (std::size_t i = first; i < last; ++i) {
        const std::size_t j = id(i);
        packed[j] = {c.cx[i], c.cy[i], c.r[i], 0.0f};
        // lies_in, with its usual answer (the disk surely in) apart.
        if (!disk_surely_in(slack[j], packed[j].data())) [[unlikely]]
          in &= contains(slack[j], packed_bounds(kind, packed[j].data()));
      }
      return in;
    }
    case ShapeKind::box:
      break;
  }
  const BoxArrays& x = dynamic.boxes();
  for (std::size_t i = first; i < last; ++i) {
    const float minx = x.minx[i], miny = x.miny[i], maxx = x.maxx[i], maxy = x.maxy[i];
    const std::size_t j = id(i);
    packed[j] = {minx, miny, maxx, maxy};
    in &= bounds_in(slack[j], minx, miny, maxx, maxy);
  }
  return in;
}

void DynamicContacts::map_places() {
  if (mapped_) return;
  for (std::size_t k = 0; k < 3; ++k) {
    const std::size_t n = slack_[k].size();
    stable_[k].resize(n);
    place_of_[k].resize(n);
    for (std::uint32_t i = 0; i < n; ++i) stable_[k][i] = place_of_[k][i] = i;
    alive_[k].assign(n, 1);
  }
  mapped_ = true;
}

Aabb DynamicContacts::slack_box(const Aabb& b, float reach) const {
  // Rounded to the nearest float, a side moved out stays out (rounding is monotone and the
  // bounds are floats); clamped to the finite floats, where every shape lies.
  static constexpr double most = std::numeric_limits<float>::max();
  auto out = [](double d) { return static_cast<float>(std::clamp(d, -most, most)); };
  const double s = double{std::max(reach, least_)} * std::max(larger_side(b), floor_);
  return {{out(b.min.x - s), out(b.min.y - s)}, {out(b.max.x + s), out(b.max.y + s)}};
}

void DynamicContacts::add_found(ShapeKind ka, std::uint32_t a, ShapeKind kb, std::uint32_t b, const Owners& owners,
                                const Accepts* accepts) {
  std::uint32_t sa = owners[at(ka)][place_of_[at(ka)][a]], sb = owners[at(kb)][place_of_[at(kb)][b]];
  if (accepts && !(*accepts)(sa, sb)) return;
  const auto pk = static_cast<std::size_t>(pair_kind(ka, kb));
  // The first shape of the pair kind's first kind; of one kind, the lower slot's (as
  // make_candidates puts them).
  if (ka != first_kind[pk] || (ka == kb && sb < sa)) {
    std::swap(a, b);
    std::swap(sa, sb);
  }
  found_[pk].push_back({std::uint64_t{std::min(sa, sb)} << 32 | std::max(sa, sb), a, b});
}

bool DynamicContacts::patch(std::span<const PlaceChange> changes, const Scene& dynamic, const Owners& owners,
                            const Accepts* accepts, const FindPairsOptions& options) {
  if (changes.empty()) return true;
  map_places();
  std::array<std::size_t, 3> first_new{};
  for (std::size_t k = 0; k < 3; ++k) first_new[k] = place_of_[k].size();
  const auto [added, taken] = apply_changes(changes, dynamic);
  if (!within_budget(added, dynamic.size())) return false;
  make_added_slack_boxes(dynamic, first_new);
  if (added != 0 && !slack_grid_built_) {
    slack_grid_ = GridIndex(boxes_, options);
    slack_grid_built_ = true;
  }
  find_added_candidates(owners, accepts, first_new);
  merge_found();
  for (std::size_t k = 0; k < 3; ++k) counts_built_[k] = dynamic.count(static_cast<ShapeKind>(k));
  ++counts_.patches;
  counts_.added += added;
  counts_.taken_out += taken;
  return true;
}

std::pair<std::size_t, std::size_t> DynamicContacts::apply_changes(std::span<const PlaceChange> changes,
                                                                   const Scene& dynamic) {
  std::size_t added = 0, taken = 0;
  for (const PlaceChange& c : changes) {
    const std::size_t k = at(c.kind);
    std::vector<std::uint32_t>& stable = stable_[k];
    if (c.added) {
      if (c.place != stable.size()) throw std::logic_error("hitgrid: DynamicContacts::patch: a shape added mid-scene");
      stable.push_back(static_cast<std::uint32_t>(place_of_[k].size()));
      place_of_[k].push_back(c.place);
      alive_[k].push_back(1);
      ++added;
    } else {
      // Scene::swap_remove: the last place's shape moves into the place taken out.
      if (c.place >= stable.size()) throw std::logic_error("hitgrid: DynamicContacts::patch: no shape at the place");
      const std::uint32_t dead = stable[c.place], last = stable.back();
      place_of_[k][dead] = taken_out;
      alive_[k][dead] = 0;
      stable[c.place] = last;
      if (last != dead) place_of_[k][last] = c.place;
      stable.pop_back();
      ++taken;
    }
  }
  for (std::size_t k = 0; k < 3; ++k)
    if (stable_[k].size() != dynamic.count(static_cast<ShapeKind>(k)))
      throw std::logic_error("hitgrid: DynamicContacts::patch: the changes do not lead to the scene");
  dead_ += taken;
  return {added, taken};
}

bool DynamicContacts::within_budget(std::size_t added, std::size_t n) const {
  // Shapes taken out cost the tests of their candidates until the next build, and each
  // shape added is compared with every one added since the build.
  std::size_t fresh = 0;
  for (std::size_t k = 0; k < 3; ++k) fresh += place_of_[k].size() - built_[k];
  return dead_ <= n / 8 + 64 && added * fresh <= 4 * n + 4096;
}

void DynamicContacts::make_added_slack_boxes(const Scene& dynamic, const std::array<std::size_t, 3>& first_new) {
  for (std::size_t k = 0; k < 3; ++k) {
    const auto kind = static_cast<ShapeKind>(k);
    const std::size_t ids = place_of_[k].size();
    slack_[k].resize(ids);
    reach_[k].resize(ids, fresh_reach_);
    packed_[k].resize(ids);
    for (std::size_t id = first_new[k]; id < ids; ++id)
      if (alive_[k][id])
        slack_[k][id] = slack_box(pack_at(dynamic, kind, place_of_[k][id], packed_[k][id]), fresh_reach_);
  }
}

void DynamicContacts::find_added_candidates(const Owners& owners, const Accepts* accepts,
                                            const std::array<std::size_t, 3>& first_new) {
  for (std::vector<Found>& f : found_) f.clear();
  for (std::size_t k = 0; k < 3; ++k) {
    const auto kind = static_cast<ShapeKind>(k);
    for (std::size_t i = first_new[k]; i < place_of_[k].size(); ++i) {
      if (!alive_[k][i]) continue;
      const auto id = static_cast<std::uint32_t>(i);
      const Aabb& box = slack_[k][id];
      // The build's slack boxes (boxes_ holds the segments', then the circles', then the
      // boxes', by stable id).
      slack_grid_.touching(Box{box.min, box.max}, met_);
      for (ShapeId m : met_) {
        std::uint32_t j = m.index();
        std::size_t kj = 0;
        while (kj < 2 && j >= built_[kj]) j -= static_cast<std::uint32_t>(built_[kj++]);
        if (alive_[kj][j]) add_found(kind, id, static_cast<ShapeKind>(kj), j, owners, accepts);
      }
      // The shapes added since the build before it (of a lower kind, or of its kind and
      // a lower id), so that each pair of two added now is found once, from the later.
      for (std::size_t kj = 0; kj < 3; ++kj) {
        const std::size_t end = kj < k ? place_of_[kj].size() : kj == k ? i : first_new[kj];
        for (std::size_t j = built_[kj]; j < end; ++j)
          if (alive_[kj][j] && overlaps(box, slack_[kj][j]))
            add_found(kind, id, static_cast<ShapeKind>(kj), static_cast<std::uint32_t>(j), owners, accepts);
      }
    }
  }
}

void DynamicContacts::merge_found() {
  // Sorted by key and untouched, into the lists of the added shapes' candidates: merged
  // from the back, in place.
  for (std::size_t pk = 0; pk < kinds; ++pk) {
    std::vector<Found>& f = found_[pk];
    if (f.empty()) continue;
    std::sort(f.begin(), f.end(), [](const Found& x, const Found& y) { return x.key < y.key; });
    Candidates& c = candidates_[kinds + pk];
    std::size_t i = c.keys.size(), j = f.size(), to = i + j;
    c.keys.resize(to);
    c.first.resize(to);
    c.second.resize(to);
    c.touched.resize(to);
    c.next.resize(to);
    while (j != 0) {
      --to;
      if (i != 0 && c.keys[i - 1] > f[j - 1].key) {
        --i;
        c.keys[to] = c.keys[i], c.first[to] = c.first[i], c.second[to] = c.second[i], c.touched[to] = c.touched[i];
      } else {
        --j;
        c.keys[to] = f[j].key, c.first[to] = f[j].first, c.second[to] = f[j].second, c.touched[to] = 0;
      }
    }
  }
}

void DynamicContacts::carry(Isa isa, std::vector<std::uint64_t>& begins,
                            std::vector<std::uint64_t>& ends) {
  current_ = false;  // until the marks are all the new ones
  test_all(isa, false);
  merge_pieces(false, begins);
  merge_pieces(true, ends);
  ++carried_;
  ++counts_.carries;
  current_ = true;
}

bool DynamicContacts::wants_build() {
  if (wait_ == 0) return true;
  --wait_;
  ++counts_.waits;
  return false;
}

void DynamicContacts::build(const Scene& dynamic, const Owners& owners, std::size_t slot_count,
                            const Accepts* accepts, PairFinder& finder, Isa isa, std::vector<std::uint64_t>& pairs) {
  current_ = false;
  if (counts_.builds != 0) {
    const bool paid = carried_ >= pays_after;
    next_wait_ = paid ? 0 : std::min(2 * next_wait_ + 1, max_wait);
    unpaid_ = paid ? 0 : unpaid_ + 1;
    // Builds that did not pay twice running: the shapes move further than their places'
    // reaches learn one escape at a time (jitter about a place, every shape a little
    // differently): every reach at least twice as far. One that lasted long: half as far.
    if (unpaid_ >= 2) least_ = std::min(2.0f * least_, most_reach);
    if (carried_ >= long_run) least_ = std::max(0.5f * least_, least_reach);
  }
  wait_ = next_wait_;
  carried_ = 0;
  ++counts_.builds;
  make_slack_boxes(dynamic);
  // Every shape's stable id is its place again, all in the build's slack boxes.
  mapped_ = false;
  dead_ = 0;
  for (std::size_t k = 0; k < 3; ++k) built_[k] = slack_[k].size();
  slack_grid_ = GridIndex();
  slack_grid_built_ = false;
  {
    // Any order (duplicates are dropped below); the index only lends the finder's
    // blocks while it lives.
    GridIndex index;
    finder.find_pairs(boxes_, box_pairs_, index, PairOrder::any);
  }
  make_candidates(owners, slot_count, accepts);
  for (std::size_t k = 0; k < 3; ++k) counts_built_[k] = dynamic.count(static_cast<ShapeKind>(k));
  test_all(isa, true);
  merge_pieces(false, pairs);
  counts_.candidates = 0;
  for (const Candidates& c : candidates_) counts_.candidates += c.keys.size();
  current_ = true;
}

void DynamicContacts::make_slack_boxes(const Scene& dynamic) {
  double sides = 0.0;
  bool fresh_escaped = false;  // a shape added since the last build left its slack box
  for (std::size_t k = 0; k < 3; ++k) {
    const auto kind = static_cast<ShapeKind>(k);
    const std::size_t n = dynamic.count(kind);
    // A place whose shape left its slack box gets twice the reach (a shape moving faster
    // than its slack, or a slanted segment whose bounds are short beside its length). The
    // shape at a place had the slack box of its stable id (patched since the last build)
    // or of the place. A shape new since gets the new shapes' reach (after the first
    // build): it has not shown how far it goes, and one that leaves its slack box the
    // frame after costs a build that did not pay.
    reach_scratch_.assign(n, counts_.builds > 1 ? fresh_reach_ : least_reach);
    for (std::uint32_t i = 0; i < n; ++i) {
      const std::size_t j = !mapped_ ? i : i < stable_[k].size() ? stable_[k][i] : slack_[k].size();
      if (j >= slack_[k].size()) continue;
      std::array<float, 4> g;
      pack_shape(dynamic, kind, i, g.data());
      const bool in = lies_in(kind, g.data(), slack_[k][j]);
      reach_scratch_[i] = in ? reach_[k][j] : std::min(2.0f * reach_[k][j], most_reach);
      fresh_escaped = fresh_escaped || (!in && j >= built_[k]);
    }
    reach_[k].swap(reach_scratch_);
    slack_[k].resize(n);
    packed_[k].resize(n);
    for (std::uint32_t i = 0; i < n; ++i) {
      slack_[k][i] = pack_at(dynamic, kind, i, packed_[k][i]);
      sides += larger_side(slack_[k][i]);
    }
  }
  if (fresh_escaped) fresh_reach_ = std::min(2.0f * fresh_reach_, most_reach);
  floor_ = dynamic.empty() ? 0.0 : slack_floor * sides / static_cast<double>(dynamic.size());
  boxes_.clear();
  boxes_.reserve(0, 0, dynamic.size());
  for (std::size_t k = 0; k < 3; ++k)
    for (std::size_t i = 0; i < slack_[k].size(); ++i) {
      Aabb& b = slack_[k][i];
      b = slack_box(b, reach_[k][i]);
      boxes_.add(Box{b.min, b.max});
    }
}

void DynamicContacts::make_candidates(const Owners& owners, std::size_t slot_count, const Accepts* accepts) {
  // The slack boxes' scene holds the segments', then the circles', then the boxes'.
  const auto circles_from = static_cast<std::uint32_t>(slack_[0].size());
  const auto boxes_from = static_cast<std::uint32_t>(circles_from + slack_[1].size());
  auto id_of = [&](std::uint32_t i) {
    return i < circles_from ? ShapeId(ShapeKind::segment, i)
           : i < boxes_from ? ShapeId(ShapeKind::circle, i - circles_from)
                            : ShapeId(ShapeKind::box, i - boxes_from);
  };
  if (ids_.size() < slot_count) ids_.resize(slot_count);
  for (std::size_t k = 0; k < 3; ++k)
    for (std::uint32_t d = 0; d < owners[k].size(); ++d) ids_[owners[k][d]] = ShapeId(static_cast<ShapeKind>(k), d).bits();
  // Slot pairs as lower << bits | higher, by pair kind, sorted, duplicates dropped.
  const int bits = std::max(1, static_cast<int>(std::bit_width(slot_count)));
  for (Candidates& c : candidates_) c.clear();
  for (const Pair& p : box_pairs_) {
    const ShapeId a = id_of(p.first().index()), b = id_of(p.second().index());
    std::uint32_t sa = owners[at(a.kind())][a.index()], sb = owners[at(b.kind())][b.index()];
    if (accepts && !(*accepts)(sa, sb)) continue;
    if (sb < sa) std::swap(sa, sb);
    candidates_[static_cast<std::size_t>(pair_kind(a.kind(), b.kind()))].keys.push_back(std::uint64_t{sa} << bits | sb);
  }
  const std::uint64_t low = (std::uint64_t{1} << bits) - 1;
  for (std::size_t pk = 0; pk < kinds; ++pk) {
    Candidates& c = candidates_[pk];
    sort_keys(c.keys, 2 * bits, merge_scratch_);  // (merge_pieces' scratch, free until then)
    c.keys.erase(std::unique(c.keys.begin(), c.keys.end()), c.keys.end());
    c.first.resize(c.keys.size());
    c.second.resize(c.keys.size());
    c.touched.assign(c.keys.size(), 0);
    c.next.resize(c.keys.size());
    for (std::size_t i = 0; i < c.keys.size(); ++i) {
      const auto lo = static_cast<std::uint32_t>(c.keys[i] >> bits), hi = static_cast<std::uint32_t>(c.keys[i] & low);
      ShapeId x = ShapeId::from_bits(ids_[lo]), y = ShapeId::from_bits(ids_[hi]);
      if (x.kind() != first_kind[pk]) std::swap(x, y);
      c.first[i] = x.index();
      c.second[i] = y.index();
      c.keys[i] = std::uint64_t{lo} << 32 | hi;
    }
  }
}

void DynamicContacts::test_all(Isa isa, bool all) {
  std::size_t n = 0;
  for (const Candidates& c : candidates_) n += (c.keys.size() + piece_size - 1) / piece_size;
  if (pieces_.size() < n) pieces_.resize(n);
  pieces_used_ = 0;
  for (std::size_t list = 0; list < candidates_.size(); ++list)
    for (std::size_t first = 0; first < candidates_[list].keys.size(); first += piece_size) {
      Piece& p = pieces_[pieces_used_++];
      p.list = list;
      p.first = first;
      p.last = std::min(first + piece_size, candidates_[list].keys.size());
    }
  // Each piece is idempotent (its marks go into `next`, its outputs replaced): a task hook
  // that ran one twice and left another out (which its count cannot see) gets the same
  // answer once the missing pieces run here.
  ran_.assign(pieces_used_, 0);
  detail::parallel_for(std::size_t{0}, pieces_used_, [&](std::size_t k) {
    test_piece(isa, all, pieces_[k]);
    ran_[k] = 1;
  });
  for (std::size_t k = 0; k < pieces_used_; ++k)
    if (!ran_[k]) test_piece(isa, all, pieces_[k]);
  for (Candidates& c : candidates_) c.touched.swap(c.next);
}

void DynamicContacts::test_piece(Isa isa, bool all, Piece& p) {
  p.begins.clear();
  p.ends.clear();
  const std::size_t pk = p.list % kinds;
  const Candidates& c = candidates_[p.list];
  std::uint8_t* next = candidates_[p.list].next.data();
  const std::array<float, 4>*from_a = packed_[at(first_kind[pk])].data(),
                         *from_b = packed_[at(second_kind[pk])].data();
  // Shapes taken out since the build (patch) are masked off: their candidates touch no more.
  const bool masked = dead_ != 0;
  const std::uint8_t *alive_a = alive_[at(first_kind[pk])].data(), *alive_b = alive_[at(second_kind[pk])].data();
  alignas(64) float a[4][window], b[4][window];
  alignas(64) std::uint8_t hits[window];
  auto gather = [](const std::array<float, 4>* from, const std::uint32_t* places, std::size_t m,
                   float (&to)[4][window]) {
    for (std::size_t i = 0; i < m; ++i) {
      const std::array<float, 4>& g = from[places[i]];
      to[0][i] = g[0], to[1][i] = g[1], to[2][i] = g[2], to[3][i] = g[3];
    }
  };
  const simd::ShapeColumns ca{{a[0], a[1], a[2], a[3]}}, cb{{b[0], b[1], b[2], b[3]}};
  for (std::size_t w = p.first; w < p.last; w += window) {
    const std::size_t m = std::min(window, p.last - w);
    gather(from_a, c.first.data() + w, m, a);
    gather(from_b, c.second.data() + w, m, b);
    simd::test_pairs(isa, static_cast<simd::PairKind>(pk), m, ca, cb, hits);
    if (masked)
      for (std::size_t i = 0; i < m; ++i)
        hits[i] = static_cast<std::uint8_t>(hits[i] & alive_a[c.first[w + i]] & alive_b[c.second[w + i]]);
    std::memcpy(next + w, hits, m);
    if (all) {
      for (std::size_t i = 0; i < m; ++i)
        if (hits[i]) p.begins.push_back(c.keys[w + i]);
    } else {
      changes_of(hits, c.touched.data() + w, c.keys.data() + w, m, p);
    }
  }
}

void DynamicContacts::changes_of(const std::uint8_t* hits, const std::uint8_t* touched, const std::uint64_t* keys,
                                 std::size_t m, Piece& p) {
  // A few candidates in ten change: a branch per candidate (changed? begin or end?) is
  // mispredicted at each change. Instead, 64 candidates at a time, a mask of those that
  // changed (8 answers, bytes of 0 or 1, to 8 bits with one multiply), and each changed
  // key written to both outputs, kept by the one its answer names.
  constexpr std::uint64_t low_bits = 0x0101010101010101u, gather_low_bits = 0x0102040810204080u;
  std::uint64_t out[2][64];  // ends, begins
  for (std::size_t first = 0; first < m; first += 64) {
    const std::size_t count = std::min<std::size_t>(64, m - first), words = count / 8;
    std::uint64_t changed = 0;
    for (std::size_t t = 0; t < words; ++t) {
      std::uint64_t x, y;
      std::memcpy(&x, hits + first + 8 * t, 8);
      std::memcpy(&y, touched + first + 8 * t, 8);
      changed |= (((x ^ y) & low_bits) * gather_low_bits >> 56) << (8 * t);
    }
    for (std::size_t j = 8 * words; j < count; ++j)
      changed |= std::uint64_t{static_cast<std::uint8_t>(hits[first + j] ^ touched[first + j])} << j;
    std::size_t counts[2] = {0, 0};
    for (; changed != 0; changed &= changed - 1) {
      const auto j = first + static_cast<std::size_t>(std::countr_zero(changed));
      const std::size_t hit = hits[j];
      out[0][counts[0]] = out[1][counts[1]] = keys[j];
      counts[hit] += 1;
    }
    p.ends.insert(p.ends.end(), out[0], out[0] + counts[0]);
    p.begins.insert(p.begins.end(), out[1], out[1] + counts[1]);
  }
}

void DynamicContacts::merge_pieces(bool ends, std::vector<std::uint64_t>& out) {
  // One sorted run per list (its pieces in order), merged two by two.
  std::array<std::size_t, 2 * kinds + 1> starts{};
  std::size_t runs = 0;
  out.clear();
  for (std::size_t k = 0; k < pieces_used_; ++k) {
    const Piece& p = pieces_[k];
    if (k == 0 || p.list != pieces_[k - 1].list) starts[runs++] = out.size();
    const std::vector<std::uint64_t>& from = ends ? p.ends : p.begins;
    out.insert(out.end(), from.begin(), from.end());
  }
  starts[runs] = out.size();
  while (runs > 1) {
    merge_scratch_.resize(out.size());
    std::array<std::size_t, 2 * kinds + 1> merged{};
    std::size_t m = 0;
    for (std::size_t r = 0; r < runs; r += 2) {
      merged[m++] = starts[r];
      const auto from = out.begin() + static_cast<std::ptrdiff_t>(starts[r]);
      const auto mid = out.begin() + static_cast<std::ptrdiff_t>(starts[std::min(r + 1, runs)]);
      const auto to = out.begin() + static_cast<std::ptrdiff_t>(starts[std::min(r + 2, runs)]);
      std::merge(from, mid, mid, to, merge_scratch_.begin() + static_cast<std::ptrdiff_t>(starts[r]));
    }
    merged[m] = out.size();
    out.swap(merge_scratch_);
    starts = merged;
    runs = m;
  }
}

void DynamicContacts::release_memory() {
  current_ = false;
  for (std::vector<Aabb>& s : slack_) std::vector<Aabb>().swap(s);
  for (auto& p : packed_) std::vector<std::array<float, 4>>().swap(p);
  for (auto& r : reach_) std::vector<float>().swap(r);
  for (Candidates& c : candidates_) c = Candidates{};
  std::vector<Piece>().swap(pieces_);
  pieces_used_ = 0;
  std::vector<char>().swap(ran_);
  boxes_ = Scene{};
  PairList().swap(box_pairs_);
  std::vector<std::uint64_t>().swap(merge_scratch_);
  std::vector<std::uint32_t>().swap(ids_);
  counts_built_ = {};
  mapped_ = false;
  for (std::size_t k = 0; k < 3; ++k) {
    std::vector<std::uint32_t>().swap(stable_[k]);
    std::vector<std::uint32_t>().swap(place_of_[k]);
    std::vector<std::uint8_t>().swap(alive_[k]);
  }
  dead_ = 0;
  built_ = {};
  slack_grid_ = GridIndex();
  slack_grid_built_ = false;
  for (std::vector<Found>& f : found_) std::vector<Found>().swap(f);
  std::vector<ShapeId>().swap(met_);
  std::vector<float>().swap(reach_scratch_);
  least_ = least_reach;
  fresh_reach_ = 2.0f * least_reach;
  unpaid_ = 0;
}

}  // namespace hitgrid
