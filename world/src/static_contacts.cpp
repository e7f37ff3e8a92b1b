#include "static_contacts.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <variant>

#include "hitgrid/broadphase/detail/parallel.hpp"
#include "hitgrid/core/error.hpp"
#include "hitgrid/core/intersects.hpp"
#include "hitgrid/core/within_distance.hpp"
#include "hitgrid/simd/pair_kernels.hpp"
#include "packed_shape.hpp"

namespace hitgrid {
namespace {

/// How far the slack box reaches past a shape's (grown) bounds on every side, at least:
/// min_slack_per_side of their larger side, and at least min_slack_per_cell of a static
/// cell, so that a shape jittering by a fraction of its size stays in its box, while its
/// list, tested every frame, holds only the static shapes within that reach.
constexpr double min_slack_per_side = 0.1;
constexpr double min_slack_per_cell = 0.1;
/// A shape whose list lasted fewer than young_list frames (and did not reach ahead: the
/// shape wanders rather than goes) gets slack_growth times the slack, up to max_slack times
/// the least; one whose list lasted more than old_list frames gets slack_shrink times the
/// slack, down to the least. Each shape's slack settles where its lists last between the
/// two: its list is built again about once every young_list to old_list frames.
constexpr std::uint32_t young_list = 32, old_list = 128;
constexpr double slack_growth = 1.5, slack_shrink = 0.75, max_slack = 4.0;
/// A shape that left its slack box gets, on the sides it went, the distance it went per
/// frame since its list was built times frames_ahead: a shape going on at a steady speed
/// asks the grid again about every frames_ahead frames, for a list that reaches that far
/// ahead and no further. At most max_ahead times the larger of its side and a cell. A shape
/// whose bounds miss its old slack box altogether jumped (a teleport, a respawn, or a new
/// shape in a list's place): how far says nothing of its speed, and it keeps the speed its
/// old list planned for (none, if that list did not reach ahead).
constexpr double frames_ahead = 24.0;
constexpr double max_ahead = 4.0;
/// A list that reaches further than the least slack is built again once it is this old,
/// with what the shape does now: a shape that stopped does not keep testing a long list.
constexpr std::uint32_t max_age_grown = 256;

double min_slack(const Aabb& box, float cell) {
  return std::max(min_slack_per_side * larger_side(box), min_slack_per_cell * double{cell});
}
Vec2d center_of(const Aabb& box) {
  return {0.5 * (double{box.min.x} + box.max.x), 0.5 * (double{box.min.y} + box.max.y)};
}

}  // namespace

void StaticContacts::Run::clear() {
  for (std::vector<float>& column : g) column.clear();
  slots.clear();
  places.clear();
  touched.clear();
  begin.assign(1, 0);
}

void StaticContacts::Run::append(const Run& from, std::uint32_t first, std::uint32_t last) {
  if (first == last) return;
  const std::uint32_t b = from.begin[first], e = from.begin[last];
  const auto at = static_cast<std::uint32_t>(slots.size());
  for (std::size_t j = 0; j < 4; ++j) g[j].insert(g[j].end(), from.g[j].begin() + b, from.g[j].begin() + e);
  slots.insert(slots.end(), from.slots.begin() + b, from.slots.begin() + e);
  places.insert(places.end(), from.places.begin() + b, from.places.begin() + e);
  touched.insert(touched.end(), from.touched.begin() + b, from.touched.begin() + e);
  for (std::uint32_t i = first; i != last; ++i) begin.push_back(from.begin[i + 1] - b + at);
}

void StaticContacts::Run::append(const float* shape, std::uint32_t slot, std::uint32_t i, bool was_touching) {
  for (std::size_t j = 0; j < 4; ++j) g[j].push_back(shape[j]);
  slots.push_back(slot);
  places.push_back(static_cast<std::uint8_t>(i));
  touched.push_back(was_touching ? 1 : 0);
}

void StaticContacts::Run::assign(const Run& from) {
  for (std::size_t j = 0; j < 4; ++j) g[j].assign(from.g[j].begin(), from.g[j].end());
  slots.assign(from.slots.begin(), from.slots.end());
  places.assign(from.places.begin(), from.places.end());
  touched.assign(from.touched.begin(), from.touched.end());
  begin.assign(from.begin.begin(), from.begin.end());
}

void StaticContacts::Run::keep_places(std::uint32_t n) {
  const std::uint32_t end = begin[n];
  for (std::vector<float>& column : g) column.resize(end);
  slots.resize(end);
  places.resize(end);
  touched.resize(end);
  begin.resize(n + 1);
}

void StaticContacts::find_stale(const Scene& dynamic, ShapeKind kind, std::uint32_t first, std::uint32_t places,
                                const Chunk& c, float margin, float cell, Scratch& t) const {
  t.stale.clear();
  t.boxes.resize(places);
  t.packed.resize(places);
  // The lists of places [0, kept) are from the current statics.
  const std::uint32_t kept = c.epoch == epoch_ ? std::min(places, c.places) : 0;
  // A disk in its box needs neither its bounds (no margin: touching() does not read them)
  // nor the exact test.
  const bool disks = kind == ShapeKind::circle && margin == 0.0f;
  for (std::uint32_t i = 0; i != places; ++i) {
    float* g = t.packed[i].data();
    pack_shape(dynamic, kind, first + i, g);
    const bool aged =
        i < kept && c.lists[i].grown && static_cast<std::uint32_t>(frame_) - c.lists[i].built >= max_age_grown;
    if (disks && i < kept && !aged && disk_surely_in(c.lists[i].slack, g)) continue;
    const Aabb box = grown(packed_bounds(kind, g), margin);
    t.boxes[i] = box;
    if (i < kept && contains(c.lists[i].slack, box)) {
      if (!aged) continue;
      ++t.counts.lists_built_aged;
    }
    t.stale.push_back({i, next_list(box, cell, i < kept ? &c.lists[i] : nullptr)});
    t.counts.lists_ahead += t.stale.back().list.ahead;
    t.counts.lists_wider += t.stale.back().list.slack_reach > 1.01 * min_slack(box, cell);
  }
}

StaticContacts::List StaticContacts::next_list(const Aabb& box, float cell, const List* old) const {
  const double least = min_slack(box, cell);
  double slack = least;
  Vec2d v{0.0, 0.0};  // the way it went per frame since the old list was built
  const Vec2d center = center_of(box);
  if (old) {
    const std::uint32_t age = std::max<std::uint32_t>(static_cast<std::uint32_t>(frame_) - old->built, 1);
    slack = old->slack_reach;
    if (age < young_list && !old->ahead) slack *= slack_growth;
    if (age > old_list) slack *= slack_shrink;
    slack = std::clamp(slack, least, max_slack * least);
    if (overlaps(old->slack, box)) {
      v = {(center.x - old->center.x) / age, (center.y - old->center.y) / age};
    } else {
      // The old list reached further ahead on one side than on the other by the speed
      // it planned for times frames_ahead.
      const Aabb& s = old->slack;
      v = {(double{s.max.x} + s.min.x - 2.0 * old->center.x) / frames_ahead,
           (double{s.max.y} + s.min.y - 2.0 * old->center.y) / frames_ahead};
    }
  }
  const auto outward = [](double x) {
    return x <= double{std::numeric_limits<float>::max()} ? static_cast<float>(x) : std::numeric_limits<float>::max();
  };
  List next{grown(box, outward(slack)), center, static_cast<std::uint32_t>(frame_),
            static_cast<float>(slack),  false,  false};
  const double limit = max_ahead * std::max(larger_side(box), double{cell});
  const double reach_x = std::min(std::abs(v.x) * frames_ahead, limit);
  const double reach_y = std::min(std::abs(v.y) * frames_ahead, limit);
  Aabb& s = next.slack;
  if (v.x > 0) s.max.x = finite_float(float_at_least(double{s.max.x} + reach_x));
  if (v.x < 0) s.min.x = finite_float(float_at_most(double{s.min.x} - reach_x));
  if (v.y > 0) s.max.y = finite_float(float_at_least(double{s.max.y} + reach_y));
  if (v.y < 0) s.min.y = finite_float(float_at_most(double{s.min.y} - reach_y));
  next.ahead = std::max(reach_x, reach_y) > slack;
  next.grown = next.ahead || slack > least;
  return next;
}

void StaticContacts::rebuild(Chunk& c, std::uint32_t places, const GridIndex& statics, const Owners& static_owners,
                             const std::uint32_t* slots, bool changes, Scratch& t) const {
  // The places whose touched marks are the last find's; the others' shapes had no static
  // pairs then (marks_current).
  const std::uint32_t marked_places = marks_current(c) ? c.places : 0;
  // Until the new lists are in place the chunk's are none: if anything below throws
  // (memory), the next find() builds them all again rather than trust slack boxes already
  // replaced over lists not yet rebuilt.
  c.epoch = 0;
  for (Run& r : t.runs) r.clear();
  c.lists.resize(places);
  const std::size_t n = t.stale.size();
  // Each list is a grid query whose rows and shapes lie far apart in memory, and then a
  // slot per static shape found, far apart too: the lists are built as a pipeline, whose
  // stages each fetch what a later stage reads. List j's rows are fetched while list
  // j - 3 is built (GridIndex::prefetch_rows), its shapes during list j - 2
  // (prefetch_shapes), it is queried during list j - 1, its slots fetched, then built.
  constexpr std::size_t rows_ahead = 3, shapes_ahead = 2;
  auto query = [&](std::size_t j) {
    std::vector<IndexedShape>& found = t.found[j & 1];
    statics.candidates(t.stale[j].list.slack, found);
    for (const IndexedShape& f : found)
      __builtin_prefetch(&static_owners[static_cast<std::size_t>(f.id.kind())][f.id.index()]);
  };
  for (std::size_t j = 0; j < std::min(n, rows_ahead); ++j) statics.prefetch_rows(t.stale[j].list.slack);
  for (std::size_t j = 0; j < std::min(n, shapes_ahead); ++j) statics.prefetch_shapes(t.stale[j].list.slack);
  if (n != 0) query(0);
  // The places between two stale ones keep their lists: copied a stretch at a time.
  std::uint32_t kept_from = 0;
  for (std::size_t j = 0; j < n; ++j) {
    if (j + rows_ahead < n) statics.prefetch_rows(t.stale[j + rows_ahead].list.slack);
    if (j + shapes_ahead < n) statics.prefetch_shapes(t.stale[j + shapes_ahead].list.slack);
    if (j + 1 < n) query(j + 1);
    const std::uint32_t i = t.stale[j].place;
    for (std::size_t k = 0; k < 3; ++k) {
      t.runs[k].append(c.runs[k], kept_from, i);
      // The old list's touched static shapes (about one or two), by slot.
      std::vector<std::uint32_t>& was = t.was_touching[k];
      was.clear();
      if (i < marked_places) {
        const Run& old = c.runs[k];
        for (std::uint32_t e = old.begin[i]; e != old.begin[i + 1]; ++e)
          if (old.touched[e]) was.push_back(old.slots[e]);
      }
    }
    c.lists[i] = t.stale[j].list;
    // The statics that touch the slack box and maybe a few more (the grid's candidates).
    for (const IndexedShape& f : t.found[j & 1]) {
      const auto k = static_cast<std::size_t>(f.id.kind());
      const std::uint32_t slot = static_owners[k][f.id.index()];
      std::vector<std::uint32_t>& was = t.was_touching[k];
      const auto w = std::find(was.begin(), was.end(), slot);
      const bool touched = w != was.end();
      if (touched) {
        *w = was.back();
        was.pop_back();
      }
      t.runs[k].append(f.g, slot, i, touched);
    }
    if (changes)
      for (const std::vector<std::uint32_t>& was : t.was_touching)
        for (std::uint32_t s : was) t.ends.push_back(std::uint64_t{slots[i]} << 32 | s);
    for (Run& r : t.runs) {
      // A run's positions are 32-bit: a chunk whose lists of one kind reach 2^32 shapes
      // (256 shapes each meeting millions of static shapes) is refused, not wrapped.
      if (r.slots.size() >= std::numeric_limits<std::uint32_t>::max())
        throw Error("a world's dynamic shapes meet too many static shapes: 2^32 in one chunk of 256");
      r.end_place();
    }
    kept_from = i + 1;
  }
  for (std::size_t k = 0; k < 3; ++k) t.runs[k].append(c.runs[k], kept_from, places);
  for (std::size_t k = 0; k < 3; ++k) c.runs[k].assign(t.runs[k]);
  c.places = places;
  c.epoch = epoch_;
}

void StaticContacts::fill_dynamic_side(const std::uint8_t* place, std::size_t m, const std::array<float, 4>* packed,
                                       std::array<std::array<float, window>, 4>& out) {
  // Four listed shapes at a time, their dynamic shapes' geometry all read before any of
  // it is written: the compiler must assume that a float written may be one read (and
  // through the place bytes, any byte), and would otherwise read each again after every
  // store.
  std::size_t i = 0;
  for (; i + 4 <= m; i += 4) {
    std::array<float, 4> g[4];
    for (std::size_t j = 0; j < 4; ++j) g[j] = packed[place[i + j]];
    for (std::size_t col = 0; col < 4; ++col)
      for (std::size_t j = 0; j < 4; ++j) out[col][i + j] = g[j][col];
  }
  for (; i < m; ++i) {
    const std::array<float, 4> g = packed[place[i]];
    for (std::size_t col = 0; col < 4; ++col) out[col][i] = g[col];
  }
}

void StaticContacts::touching(ShapeKind kind, const std::uint32_t* slots, Chunk& c, Isa isa, bool changes,
                              Scratch& t) const {
  for (std::uint32_t p = 0; p < c.places; ++p) t.dynamic_keys[p] = std::uint64_t{slots[p]} << 32;
  const bool marked = marks_current(c);
  for (std::size_t k = 0; k < 3; ++k) {
    Run& run = c.runs[k];
    const std::size_t n = run.begin[c.places];
    if (changes && !marked) std::fill(run.touched.begin(), run.touched.begin() + static_cast<std::ptrdiff_t>(n), 0);
    const bool dynamic_first = kind <= static_cast<ShapeKind>(k);
    const simd::PairKind pairs = pair_kind(kind, static_cast<ShapeKind>(k));
    for (std::size_t w = 0; w < n; w += window) {
      const std::size_t m = std::min(n - w, window);
      const std::uint8_t* place = run.places.data() + w;
      fill_dynamic_side(place, m, t.packed.data(), t.dynamic);
      const simd::ShapeColumns d{{t.dynamic[0].data(), t.dynamic[1].data(), t.dynamic[2].data(), t.dynamic[3].data()}};
      const simd::ShapeColumns s{{run.g[0].data() + w, run.g[1].data() + w, run.g[2].data() + w, run.g[3].data() + w}};
      simd::test_pairs(isa, pairs, m, dynamic_first ? d : s, dynamic_first ? s : d, t.hits.data());
      const std::uint32_t* statics = run.slots.data() + w;
      std::uint8_t* touched = run.touched.data() + w;
      if (changes) {
        // Most answers are the last find's: compared eight at a time, the answers (0 or
        // 1) as the bytes of a word, whose differing bits are the changes. The last few
        // (of a short window) are in a word padded with zeros on both sides.
        for (std::size_t i = 0; i < m; i += 8) {
          std::uint64_t now = 0, then = 0;
          if (i + 8 <= m) {
            std::memcpy(&now, t.hits.data() + i, 8);
            std::memcpy(&then, touched + i, 8);
          } else {
            for (std::size_t j = i; j < m; ++j) {
              now |= std::uint64_t{t.hits[j]} << 8 * (j - i);
              then |= std::uint64_t{touched[j]} << 8 * (j - i);
            }
          }
          for (std::uint64_t changed = now ^ then; changed != 0; changed &= changed - 1) {
            const std::size_t j = i + static_cast<std::size_t>(std::countr_zero(changed)) / 8;
            (t.hits[j] ? t.pairs : t.ends).push_back(t.dynamic_keys[place[j]] | statics[j]);
          }
        }
      } else {
        // The keys of the pairs that touch, gathered without a branch on the answers (a
        // coin toss: a list holds about three shapes for every two that touch).
        std::size_t found = 0;
        for (std::size_t i = 0; i < m; ++i) {
          t.keys[found] = t.dynamic_keys[place[i]] | statics[i];
          found += t.hits[i];
        }
        t.pairs.insert(t.pairs.end(), t.keys.begin(), t.keys.begin() + static_cast<std::ptrdiff_t>(found));
      }
      std::memcpy(touched, t.hits.data(), m);
    }
  }
}

void StaticContacts::within_margin(ShapeKind kind, const std::uint32_t* slots, const Chunk& c, float margin,
                                   Scratch& t) {
  for (std::uint32_t p = 0; p < c.places; ++p) {
    const auto shape = unpack(kind, t.packed[p].data());
    for (std::size_t k = 0; k < 3; ++k) {
      const Run& run = c.runs[k];
      for (std::uint32_t i = run.begin[p]; i < run.begin[p + 1]; ++i) {
        const float g[4] = {run.g[0][i], run.g[1][i], run.g[2][i], run.g[3][i]};
        const auto listed = unpack(static_cast<ShapeKind>(k), g);
        if (std::visit([&](const auto& a,
                           const auto& b) { return overlaps(t.boxes[p], bounds(b)) && within_distance(a, b, margin); },
                       shape, listed))
          t.pairs.push_back(std::uint64_t{slots[p]} << 32 | run.slots[i]);
      }
    }
  }
}

void StaticContacts::find(const Scene& dynamic, const Owners& dynamic_owners, const GridIndex& statics,
                          const Owners& static_owners, float margin, Isa isa, std::vector<std::uint64_t>& out) {
  find_lists(dynamic, dynamic_owners, statics, static_owners, margin, isa, false, out, nullptr);
}

void StaticContacts::find_changes(const Scene& dynamic, const Owners& dynamic_owners, const GridIndex& statics,
                                  const Owners& static_owners, Isa isa, std::vector<std::uint64_t>& begins,
                                  std::vector<std::uint64_t>& ends) {
  if (!complete_) throw std::logic_error("StaticContacts::find_changes without a completed find before it");
  find_lists(dynamic, dynamic_owners, statics, static_owners, 0.0f, isa, true, begins, &ends);
}

void StaticContacts::find_lists(const Scene& dynamic, const Owners& dynamic_owners, const GridIndex& statics,
                                const Owners& static_owners, float margin, Isa isa, bool changes,
                                std::vector<std::uint64_t>& out, std::vector<std::uint64_t>* ends) {
  // Counted before anything can throw: a chunk's marks are the last find's only if that
  // find tested it (Chunk::tested).
  ++frame_;
  complete_ = false;
  if (statics.size() == 0 || dynamic.empty()) {
    complete_ = margin == 0.0f;
    return;
  }
  for (Scratch& t : scratch_) {
    t.pairs.clear();
    t.ends.clear();
    t.counts = {};
  }
  for (std::size_t k = 0; k < 3; ++k) {
    const auto kind = static_cast<ShapeKind>(k);
    const auto count = static_cast<std::uint32_t>(dynamic.count(kind));
    const std::uint32_t chunks = (count + chunk_places - 1) / chunk_places;
    std::vector<Chunk>& kind_chunks = chunks_[k];
    if (kind_chunks.size() < chunks) kind_chunks.resize(chunks);
    detail::parallel_for(
        tbb::blocked_range<std::uint32_t>(0, chunks, 1), [&](const tbb::blocked_range<std::uint32_t>& r) {
          Scratch& t = scratch_.local();
          for (std::uint32_t ch = r.begin(); ch != r.end(); ++ch) {
            const std::uint32_t first = ch * chunk_places, places = std::min(chunk_places, count - first);
            Chunk& c = kind_chunks[ch];
            find_stale(dynamic, kind, first, places, c, margin, statics.cell_size(), t);
            const std::uint32_t* slots = dynamic_owners[k].data() + first;
            if (!t.stale.empty() || c.places != places) rebuild(c, places, statics, static_owners, slots, changes, t);
            t.counts.lists_built += t.stale.size();
            for (const Run& run : c.runs) t.counts.listed += run.begin[places];
            if (margin == 0.0f) {
              touching(kind, slots, c, isa, changes, t);
              c.tested = frame_;
            } else {
              within_margin(kind, slots, c, margin, t);
            }
          }
        });
  }
  ++counts_.finds;
  counts_.change_finds += changes;
  counts_.listed = 0;
  for (const Scratch& t : scratch_) {
    out.insert(out.end(), t.pairs.begin(), t.pairs.end());
    if (ends) ends->insert(ends->end(), t.ends.begin(), t.ends.end());
    counts_.lists_built += t.counts.lists_built;
    counts_.lists_built_aged += t.counts.lists_built_aged;
    counts_.lists_ahead += t.counts.lists_ahead;
    counts_.lists_wider += t.counts.lists_wider;
    counts_.listed += t.counts.listed;
  }
  complete_ = margin == 0.0f;
}

void StaticContacts::patch(std::span<const PlaceChange> changes, const Scene& dynamic,
                           std::vector<std::uint64_t>& ends) {
  if (!complete_) throw std::logic_error("StaticContacts::patch without a completed find before it");
  // Each kind's count at the last find: the scene's now, less what the changes did.
  std::array<std::size_t, 3> count{};
  for (std::size_t k = 0; k < 3; ++k) count[k] = dynamic.count(static_cast<ShapeKind>(k));
  for (const PlaceChange& c : changes) {
    std::size_t& n = count[static_cast<std::size_t>(c.kind)];
    n = c.added ? n - 1 : n + 1;
  }
  for (const PlaceChange& c : changes) {
    std::size_t& n = count[static_cast<std::size_t>(c.kind)];
    if (c.added) {
      ++n;
    } else {
      take_out(static_cast<std::size_t>(c.kind), c.place, static_cast<std::uint32_t>(n - 1), c.slot, ends);
      --n;
    }
  }
}

void StaticContacts::take_out(std::size_t kind, std::uint32_t place, std::uint32_t last, std::uint32_t slot,
                              std::vector<std::uint64_t>& ends) {
  // The places with lists are a prefix of the kind's (every chunk's but the last full, as
  // a find leaves them; shapes are added and taken out at the end): a place whose shape is
  // new since the last find has no list or no marks, and one with a list comes before
  // every place without.
  std::vector<Chunk>& chunks = chunks_[kind];
  auto chunk_of = [&](std::uint32_t p) { return p / chunk_places < chunks.size() ? &chunks[p / chunk_places] : nullptr; };
  Chunk* const to = chunk_of(place);
  Chunk* const from = chunk_of(last);
  const std::uint32_t i = place % chunk_places, j = last % chunk_places;
  const bool listed = to && i < to->places, last_listed = from && j < from->places;
  if (!listed) {
    if (last_listed) throw std::logic_error("StaticContacts::patch: a listed place after one without a list");
    return;
  }
  const bool marked = marks_last(*to), last_marked = last_listed && marks_last(*from);
  // The pairs of the shape taken out end.
  if (marked)
    for (const Run& r : to->runs)
      for (std::uint32_t e = r.begin[i]; e != r.begin[i + 1]; ++e)
        if (r.touched[e]) ends.push_back(std::uint64_t{slot} << 32 | r.slots[e]);
  // While the chunks change they stand for nothing (no lists, no marks): if memory runs
  // out below, the next find builds them again.
  const std::uint64_t epoch = to->epoch, tested = to->tested;
  const std::uint64_t from_epoch = last_listed ? from->epoch : 0;
  if (place != last) {
    to->epoch = 0;
    to->tested = 0;
    if (!last_listed) {
      // The shape moved in is new since the last find: the list stays, without marks.
      for (Run& r : to->runs) std::fill(r.touched.begin() + r.begin[i], r.touched.begin() + r.begin[i + 1], 0);
    } else {
      // The last place's list and marks replace this place's (as rebuild writes a chunk).
      Scratch& t = scratch_.local();
      for (std::size_t k = 0; k < 3; ++k) {
        Run& out = t.runs[k];
        const Run& moved = from->runs[k];
        out.clear();
        out.append(to->runs[k], 0, i);
        for (std::uint32_t e = moved.begin[j]; e != moved.begin[j + 1]; ++e) {
          const float g[4] = {moved.g[0][e], moved.g[1][e], moved.g[2][e], moved.g[3][e]};
          out.append(g, moved.slots[e], i, marked && last_marked && moved.touched[e]);
        }
        out.end_place();
        out.append(to->runs[k], i + 1, to->places);
      }
      for (std::size_t k = 0; k < 3; ++k) to->runs[k].assign(t.runs[k]);
      to->lists[i] = from->lists[j];
    }
    // A list from before the statics changed makes the chunk's stale (marks carried by slot).
    to->epoch = last_listed && from_epoch != epoch ? 0 : epoch;
    to->tested = tested;
  }
  // The last place leaves.
  if (last_listed) {
    for (Run& r : from->runs) r.keep_places(j);
    from->lists.resize(j);
    from->places = j;
  }
}

void StaticContacts::release_memory() {
  for (std::vector<Chunk>& chunks : chunks_) std::vector<Chunk>().swap(chunks);
  scratch_.clear();
  ++epoch_;
  complete_ = false;
}

}  // namespace hitgrid
