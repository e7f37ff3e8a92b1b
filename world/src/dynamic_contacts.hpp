// DynamicContacts: the pairs of a world's dynamic shapes among themselves, carried from
// frame to frame while every shape stays inside a slack box around where it was.
//
// The grid broad phase builds its grid from scratch every frame, which is most of a frame
// where shapes rest or jitter (an engine's usual frame: most contacts persist). Here each
// dynamic shape gets a slack box at build(), its bounds grown on every side (slack_of),
// and the candidates are the pairs of shapes whose slack boxes meet (the grid broad phase
// on the slack boxes, kept if the filters accept them). Shapes that touch have bounds that
// meet, so while every shape's bounds stay inside its slack box every touching pair is a
// candidate, and carry() only runs the exact tests on the candidates (the SIMD kernels,
// simd/pair_kernels.hpp: intersects() bit for bit on every ISA), reporting the pairs whose
// answer changed since the last test. The answer is the exact test of a set that holds
// every touching pair, so it depends only on the shapes, not on the slack boxes or on
// which frame built them: exact and deterministic (docs/contracts.md).
//
// The candidates are kept by pair kind (simd::PairKind), each kind's sorted by slot key
// (lower slot << 32 | higher), with the two shapes' stable ids (below; first the pair
// kind's first shape kind's) and whether they touched at the last test: a list's changes
// come out sorted, and the lists' are merged.
//
// Shapes taken out and added between frames (patch()) keep the rest carried: each shape
// has a stable id from the build on (its place then, or after the build's for a shape
// added since), which the candidates, slack boxes and packed geometry are kept by, so
// that a shape moved to another place (Scene::swap_remove) changes nothing there. A
// shape taken out leaves its candidates in the lists, masked off: the next test finds
// them apart, so the pairs it had end as any other pair does. A shape added gets a slack
// box, and its candidates (the build's slack boxes it meets, from their grid, and the
// shapes added since) go into lists of their own beside the build's. Past a budget of
// shapes taken out and added, patch() refuses and the world builds again.
//
// A world whose shapes leave their slack boxes frame after frame would build them every
// frame for nothing: wants_build() waits longer and longer (up to max_wait frames) before
// building again after builds that were carried less than pays_after frames, and the
// world finds those frames' pairs with the grid instead.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <utility>
#include <vector>

#include "hitgrid/broadphase/find_pairs.hpp"
#include "hitgrid/broadphase/grid_index.hpp"
#include "hitgrid/core/aabb.hpp"
#include "hitgrid/core/scene.hpp"
#include "hitgrid/simd/isa.hpp"
#include "place_change.hpp"

namespace hitgrid {

class DynamicContacts {
 public:
  /// owners[kind][dense] -> slot, for the shapes of a scene.
  using Owners = std::array<std::vector<std::uint32_t>, 3>;
  /// Whether the filters accept a pair of slots.
  using Accepts = std::function<bool(std::uint32_t, std::uint32_t)>;

  /// The marks are stale: the next carry is refused (the world builds, or uses the grid).
  void invalidate() { current_ = false; }
  /// Whether the last build() or carry() completed with no invalidate() since: the marks
  /// are the touching pairs of the shapes as they were then.
  bool current() const { return current_; }

  /// The scene's changes since the last build() or carry(), in order, applied: `dynamic`
  /// and `owners` are the scene after them; the shapes added get slack boxes and their
  /// candidates (`accepts` as build's; `options`: the grid's cell sizes and ISA, for the
  /// grid of the build's slack boxes, built at the first patch after a build), and those
  /// taken out are masked off. Call only while the marks are the last step's (current()
  /// then) and only with every change since; the caller vouches that every other shape
  /// kept its slot. False when the changes since the build passed the budget (too many
  /// taken out, or too many added for their candidates to cost less than a build):
  /// nothing may be carried then, build() instead. In parallel on the calling arena.
  bool patch(std::span<const PlaceChange> changes, const Scene& dynamic, const Owners& owners,
             const Accepts* accepts, const FindPairsOptions& options);
  /// Whether carry() may run on `dynamic`: it holds as many shapes of each kind as at the
  /// last build() or patch() and each one lies within its slack box (a circle's disk, not
  /// its bounds rounded outward: only the disk can touch). The caller vouches that since
  /// then the shapes were only moved in place (Scene::replace) and every slot names the
  /// shape it named (the world's places_kept). In parallel on the calling arena.
  bool can_carry(const Scene& dynamic);
  /// The candidates tested on the shapes as can_carry saw them (right after it said yes):
  /// into `begins` the pairs that touch now and did not at the last test, into `ends` those
  /// that touched then and no longer do, as sorted slot keys (contents replaced). In
  /// parallel.
  void carry(Isa isa, std::vector<std::uint64_t>& begins, std::vector<std::uint64_t>& ends);
  /// Whether to build() this frame, which carry() cannot take: not while waiting after
  /// builds that did not last (each build that was carried less than pays_after frames
  /// doubles the wait, up to max_wait frames; one that was, ends it).
  bool wants_build();
  /// New slack boxes for the shapes of `dynamic` and the candidates among them (`finder`
  /// on the slack boxes; pairs `accepts` refuses left out, null: none is), all tested: the
  /// touching pairs into `pairs` as sorted slot keys. `slot_count` bounds the slots in
  /// `owners`. In parallel on the calling arena, `finder`'s inside it.
  void build(const Scene& dynamic, const Owners& owners, std::size_t slot_count, const Accepts* accepts,
             PairFinder& finder, Isa isa, std::vector<std::uint64_t>& pairs);

  /// Gives back the candidates and scratch (the next frame builds again).
  void release_memory();

  /// What the calls did since construction (for tests and benchmarks: the answer does not
  /// depend on it).
  struct Counts {
    std::uint64_t builds = 0;
    std::uint64_t carries = 0;
    std::uint64_t escapes = 0;     // can_carry refused: a shape left its slack box, or shapes came
    std::uint64_t waits = 0;       // wants_build said no
    std::uint64_t candidates = 0;  // the last build's
    std::uint64_t patches = 0;     // patch() said yes
    std::uint64_t added = 0;       // shapes added by those
    std::uint64_t taken_out = 0;   // shapes taken out by those
  };
  const Counts& counts() const { return counts_; }

  /// A shape's slack on each side: its place's reach times its bounds' larger side, or
  /// times slack_floor of the mean larger side of the scene if that is more (points and
  /// slivers move too). A reach starts at least_reach and doubles, up to most_reach, each
  /// time the place's shape is found outside its slack box at a build; and every reach is
  /// at least a least reach that doubles after two builds running that did not pay and
  /// halves (down to least_reach) after one that was carried long_run frames. A shape
  /// added since the last build starts at the new shapes' reach instead, twice
  /// least_reach at first, doubling (up to most_reach) at each build that finds a shape
  /// added since the build before outside its slack box.
  static constexpr float least_reach = 0.125f, most_reach = 1.0f;
  static constexpr std::uint32_t long_run = 64;
  static constexpr double slack_floor = 0.5;
  static constexpr std::uint32_t pays_after = 1;  // carries that pay for a build
  static constexpr std::uint32_t max_wait = 64;   // frames

 private:
  /// A pair kind's candidates, sorted by key: slot key, the stable ids of the first and
  /// the second shape (of the pair kind's first and second shape kinds), the last test's
  /// answer.
  struct Candidates {
    std::vector<std::uint64_t> keys;
    std::vector<std::uint32_t> first, second;
    std::vector<std::uint8_t> touched;
    std::vector<std::uint8_t> next;  // the answers of the test running, then swapped in
    void clear();
  };
  /// A candidate patch() found: slot key, stable ids of the first and the second shape.
  struct Found {
    std::uint64_t key;
    std::uint32_t first, second;
  };
  /// The lists: candidates_[pk] the build's of pair kind pk, candidates_[kinds + pk] those
  /// of the shapes added since (patch()).
  static constexpr std::size_t kinds = 6;
  /// The exact tests run on this many candidates at a time (a piece, one task), in windows
  /// of `window`.
  static constexpr std::size_t piece_size = 4096, window = 256;
  struct Piece {
    std::size_t list, first, last;  // candidates_[list]'s [first, last)
    std::vector<std::uint64_t> begins, ends;
  };

  /// The pieces of every kind's candidates, tested in parallel: `all` puts every touching
  /// pair into begins (and sets the marks), else the changes go into begins and ends.
  void test_all(Isa isa, bool all);
  /// Shapes [first, last) of `kind` from `dynamic` (places) packed into packed_; whether
  /// each one lies within its slack box. `mapped`: stable ids are stable_'s, else places.
  template <bool mapped>
  bool pack_inside(const Scene& dynamic, ShapeKind kind, std::size_t first, std::size_t last);
  void test_piece(Isa isa, bool all, Piece& p);
  /// Into p's begins and ends, the keys of the m candidates whose answer `hits` differs
  /// from the last test's (`touched`), in order.
  static void changes_of(const std::uint8_t* hits, const std::uint8_t* touched, const std::uint64_t* keys,
                         std::size_t m, Piece& p);
  /// The pieces' begins (ends: `ends`), sorted within each kind, merged into `out`.
  void merge_pieces(bool ends, std::vector<std::uint64_t>& out);
  /// The slack boxes of `dynamic`'s shapes, by kind and place, and the same as a scene of
  /// boxes (kinds one after another); the reaches grown and the shapes packed.
  void make_slack_boxes(const Scene& dynamic);
  /// The candidates from the pairs of slack boxes, sorted, with their places.
  void make_candidates(const Owners& owners, std::size_t slot_count, const Accepts* accepts);
  /// A shape's slack box: `bounds` grown by its reach (at least least_) times the larger
  /// of their larger side and floor_, rounded outward to finite floats.
  Aabb slack_box(const Aabb& bounds, float reach) const;
  /// stable_, place_of_ and alive_ as the build left them (ids are places), for a patch.
  void map_places();
  // patch()'s stages, first_new[kind] the first stable id added by this patch:
  /// The log applied to stable_, place_of_ and alive_: (shapes added, taken out).
  std::pair<std::size_t, std::size_t> apply_changes(std::span<const PlaceChange> changes, const Scene& dynamic);
  /// Whether carrying on pays, with `added` shapes added now and n in the scene.
  bool within_budget(std::size_t added, std::size_t n) const;
  /// The added shapes' slack boxes (at fresh_reach_) and packed geometry.
  void make_added_slack_boxes(const Scene& dynamic, const std::array<std::size_t, 3>& first_new);
  /// The added shapes' candidates into found_, by pair kind.
  void find_added_candidates(const Owners& owners, const Accepts* accepts, const std::array<std::size_t, 3>& first_new);
  /// found_ merged into the lists of the added shapes' candidates.
  void merge_found();
  /// The candidate (if the filters accept it) of the shapes with stable ids a (of kind
  /// ka) and b (of kind kb) into found_.
  void add_found(ShapeKind ka, std::uint32_t a, ShapeKind kb, std::uint32_t b, const Owners& owners,
                 const Accepts* accepts);

  bool current_ = false;
  std::array<std::size_t, 3> counts_built_{};  // shapes of each kind at the last build
  std::uint32_t carried_ = 0;                  // carries since the last build
  std::uint32_t wait_ = 0, next_wait_ = 0;     // frames wants_build says no, and after the next build
  std::uint32_t unpaid_ = 0;                   // builds running that did not pay
  float least_ = least_reach;                  // every place's reach at least
  float fresh_reach_ = 2.0f * least_reach;     // the reach of a shape added since the last build
  Counts counts_;
  std::array<std::vector<Aabb>, 3> slack_;  // by kind, stable id
  std::array<std::vector<float>, 3> reach_;  // by kind, stable id
  // By kind, stable id: the shapes' packed geometry (pair_kernels.hpp), written by
  // can_carry and build, read by the tests (one load a shape rather than one a column).
  std::array<std::vector<std::array<float, 4>>, 3> packed_;
  std::array<Candidates, 2 * kinds> candidates_;  // by list (kinds)
  // Since the build: whether a patch mapped the places (else a shape's stable id is its
  // place), and by kind, the stable id at each place, the place of each stable id (or
  // taken_out), and whether each stable id's shape is still there (the tests' mask).
  static constexpr std::uint32_t taken_out = 0xffffffffu;
  bool mapped_ = false;
  std::array<std::vector<std::uint32_t>, 3> stable_, place_of_;
  std::array<std::vector<std::uint8_t>, 3> alive_;
  std::size_t dead_ = 0;                 // shapes taken out since the build
  std::array<std::size_t, 3> built_{};   // shapes of each kind at the build: ids below are in slack_grid_
  double floor_ = 0.0;                   // the build's slack floor (slack_of)
  GridIndex slack_grid_;                 // the build's slack boxes (boxes_), for patch()
  bool slack_grid_built_ = false;
  std::array<std::vector<Found>, kinds> found_;  // patch()'s, by pair kind
  std::vector<ShapeId> met_;                     // patch()'s grid queries'
  std::vector<float> reach_scratch_;             // make_slack_boxes'
  std::vector<Piece> pieces_;  // the first pieces_used_ are the last test's
  std::size_t pieces_used_ = 0;
  std::vector<char> ran_;  // test_all's marks
  // build()'s scratch, kept between builds.
  Scene boxes_;
  PairList box_pairs_;
  std::vector<std::uint32_t> ids_;  // by slot: the shape's ShapeId bits
  std::vector<std::uint64_t> merge_scratch_;  // merge_pieces', and the candidates' sort's
};

}  // namespace hitgrid
