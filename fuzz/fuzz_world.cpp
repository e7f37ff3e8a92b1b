// Fuzz target: a World (world/world.hpp) driven through any sequence of creations,
// destructions, moves in place and to other geometry, filter and body changes, steps and
// release_memory, with coordinates that are small integers times a scale (shared
// endpoints, tangency, collinear chains, shapes touching by one ulp of the scale) or raw
// float bits (NaN and infinities included: refused), finite ones brought within 2^-24 to
// 2^8 of the scale (the grid's cost for shapes 2^250 apart is find_pairs' fuzzer's
// subject; here it would spend the run on a few inputs).
//
// Properties: a refused call throws hitgrid::Error and changes nothing (the next step's
// pairs say so); after every step the pairs are the brute force's over the live shapes
// (exact intersects, or within_distance with a margin; static shapes never pair, filters
// both ways), sorted, and the events are the differences with the last step's pairs. Runs
// of steps with only moves in place and creations between them take the world's carried
// form (static pairs from their changes); any other change, its full form.
//
// Bytes: a scale exponent, an options byte (margin, threads), then per call an op byte and
// its operands.
#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <vector>

#include "fuzz_input.hpp"
#include "hitgrid/core/error.hpp"
#include "hitgrid/core/intersects.hpp"
#include "hitgrid/core/within_distance.hpp"
#include "hitgrid/world/world.hpp"

namespace {

using namespace hitgrid;

struct Live {
  Shape shape;
  BodyType body;
  ShapeFilter filter;
};

std::vector<HandlePair> brute_force(const std::map<ShapeHandle, Live>& live, float margin) {
  std::vector<HandlePair> out;
  for (auto i = live.begin(); i != live.end(); ++i)
    for (auto j = std::next(i); j != live.end(); ++j) {
      const Live &a = i->second, &b = j->second;
      if (a.body == BodyType::static_body && b.body == BodyType::static_body) continue;
      if ((a.filter.category & b.filter.mask) == 0 || (b.filter.category & a.filter.mask) == 0) continue;
      const bool meet = std::visit(
          [margin](const auto& x, const auto& y) {
            return margin == 0.0f ? intersects(x, y) : within_distance(x, y, margin);
          },
          a.shape, b.shape);
      if (meet) out.push_back({i->first, j->first});
    }
  return out;
}

std::vector<HandlePair> minus(const std::vector<HandlePair>& a, const std::vector<HandlePair>& b) {
  std::vector<HandlePair> out;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

std::vector<HandlePair> as_vector(std::span<const HandlePair> s) { return {s.begin(), s.end()}; }

class Reader {
 public:
  Reader(fuzz::Bytes& in, int scale) : in_(in), scale_(scale) {}
  /// A small integer times the scale, or (with `raw`) float bits: NaN and the infinities
  /// as they are, finite values with their exponent brought near the scale's.
  float value(bool raw) {
    if (!raw) return std::ldexp(static_cast<float>(static_cast<int>(in_.u8() % 32) - 16), scale_);
    const float f = in_.raw_float();
    if (!std::isfinite(f) || f == 0.0f) return f;
    int e = 0;
    const float m = std::frexp(f, &e);
    return std::ldexp(m, std::clamp(scale_ + ((e % 33) + 33) % 33 - 24, -149, 127));
  }
  /// A shape of any kind; raw floats make most of them invalid (NaN, a box inside out).
  Shape shape() {
    const std::uint8_t kind = in_.u8();
    const bool raw = (kind & 0x80) != 0;
    float g[4];
    for (float& v : g) v = value(raw);
    switch (kind % 3) {
      case 0:
        return Segment{{g[0], g[1]}, {g[2], g[3]}};
      case 1:
        return Circle{{g[0], g[1]}, raw ? g[2] : std::fabs(g[2])};
      default:
        if (raw) return Box{{g[0], g[1]}, {g[2], g[3]}};
        return Box{{std::fmin(g[0], g[2]), std::fmin(g[1], g[3])}, {std::fmax(g[0], g[2]), std::fmax(g[1], g[3])}};
    }
  }
  ShapeFilter filter() {
    const std::uint8_t b = in_.u8();
    if (b < 128) return {};
    return {std::uint64_t{1} << (b % 3), std::uint64_t{(b >> 2) % 8u}};
  }

 private:
  fuzz::Bytes& in_;
  int scale_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Bytes in(data, size);
  const int scale = static_cast<int>(in.u8() % 255) - 149;
  const std::uint8_t options = in.u8();
  WorldOptions o;
  o.threads = options & 1 ? 2 : 1;
  o.small_frame_shapes = 0;  // every frame on the world's threads
  // A margin now and then: 0 to 3 units of the scale.
  if (options & 2) o.margin = std::ldexp(static_cast<float>((options >> 2) % 4), scale);
  World world(o);
  Reader read(in, scale);
  std::map<ShapeHandle, Live> live;
  std::vector<HandlePair> previous;
  // The live handles in order, for operands that pick one.
  auto pick = [&](std::uint8_t b) { return std::next(live.begin(), b % live.size())->first; };
  int steps = 0;
  for (int calls = 0; in.left() > 0 && calls < 160 && steps < 32; ++calls) {
    const std::uint8_t op = in.u8();
    try {
      switch (op % 8) {
        case 0:
        case 1: {  // create
          if (live.size() >= 64) break;
          const Shape shape = read.shape();
          const BodyType body = (op & 0x10) ? BodyType::static_body : BodyType::dynamic_body;
          const ShapeFilter filter = read.filter();
          const ShapeHandle h = world.create({shape, body, filter});
          live[h] = {shape, body, filter};
          break;
        }
        case 2: {  // destroy
          if (live.empty()) break;
          const ShapeHandle h = pick(in.u8());
          world.destroy(h);
          live.erase(h);
          break;
        }
        case 3:
        case 4: {  // move in place: the same kind, offset on the lattice
          if (live.empty()) break;
          const ShapeHandle h = pick(in.u8());
          const Shape moved = translated(live[h].shape, {read.value(false), read.value(false)});
          world.move(h, moved);
          live[h].shape = moved;
          break;
        }
        case 5: {  // new geometry, perhaps of another kind (or invalid: refused)
          if (live.empty()) break;
          const ShapeHandle h = pick(in.u8());
          const Shape moved = read.shape();
          world.move(h, moved);
          live[h].shape = moved;
          break;
        }
        case 6: {  // a filter or a body
          if (live.empty()) break;
          const ShapeHandle h = pick(in.u8());
          if (op & 0x10) {
            const BodyType body =
                live[h].body == BodyType::static_body ? BodyType::dynamic_body : BodyType::static_body;
            world.set_body(h, body);
            live[h].body = body;
          } else {
            const ShapeFilter filter = read.filter();
            world.set_filter(h, filter);
            live[h].filter = filter;
          }
          break;
        }
        default: {  // step, after release_memory now and then
          if (op & 0x10) world.release_memory();
          ++steps;
          world.step();
          const std::vector<HandlePair> want = brute_force(live, o.margin);
          if (world.size() != live.size()) fuzz::fail("the world's size is not the live shapes'");
          if (as_vector(world.pairs()) != want) fuzz::fail("the pairs are not the brute force's");
          if (as_vector(world.begin_events()) != minus(want, previous))
            fuzz::fail("the begin events are not the new pairs");
          if (as_vector(world.end_events()) != minus(previous, want))
            fuzz::fail("the end events are not the pairs gone");
          previous = want;
          break;
        }
      }
    } catch (const Error&) {
      // Refused (an invalid shape): the model is not updated, and the world must not be.
    }
  }
  return 0;
}
