// The five predicates of core/predicates.hpp, filtered and always-exact, against the
// independent GMP reference (tests/support/exact_reference) on the adversarial families
// (tests/support/adversarial): docs/contracts.md, contract 1.
//
// Each predicate gets scaled_count(1,000,000) cases, split evenly over the families.
// Mismatches are counted, not asserted one by one, and the first few are printed as hex
// floats so that a failure can be pasted into a test. For the families built to be
// degenerate, the test also asserts that the library's exact cold path ran
// (predicate_counters().exact_calls grew): otherwise the family would not test it.
//
// Environment knobs (tests/support/adversarial.hpp): HITGRID_TEST_SCALE multiplies the case
// counts (default 1: short enough in Release and under ASan+UBSan that the default needs
// no reduction), HITGRID_TEST_SEED explores other inputs for soak runs, and
// HITGRID_TEST_VERBOSE prints per-family answers and cold-path counts.
#include <gmpxx.h>

#include <bit>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "hitgrid/core/detail/exact_predicates.hpp"
#include "hitgrid/core/detail/predicate_counters.hpp"
#include "hitgrid/core/predicates.hpp"
#include "support/adversarial.hpp"
#include "support/exact_reference.hpp"

using namespace hitgrid;
using test::Family;

namespace {

constexpr std::size_t cases_per_predicate = 1'000'000;

struct Outcome {
  int filtered, exact, reference;
};

/// Runs one predicate over every family; `draw` makes a case from a generator, `eval`
/// evaluates it three ways, `show` prints it.
template <class Draw, class Eval, class Show>
void check_predicate(const char* name, std::uint64_t seed, Draw draw, Eval eval, Show show) {
  const std::size_t total = test::scaled_count(cases_per_predicate);
  const std::size_t per_family = (total + test::all_families.size() - 1) / test::all_families.size();
  std::size_t checked = 0;
  for (const Family family : test::all_families) {
    test::Generator gen(family, test::test_seed(seed));
    std::size_t mismatches = 0;
    std::vector<std::string> first;
    std::size_t signs[3] = {0, 0, 0};
    const std::uint64_t cold_before = predicate_counters().exact_calls;
    std::size_t cold_nonzero = 0;  // cold-path calls whose exact sign was not 0
    for (std::size_t i = 0; i < per_family; ++i) {
      const auto c = draw(gen);
      const std::uint64_t calls = predicate_counters().exact_calls;
      const Outcome o = eval(c);
      ++signs[o.reference + 1];
      if (predicate_counters().exact_calls != calls && o.reference != 0) ++cold_nonzero;
      if (o.filtered != o.reference || o.exact != o.reference) {
        ++mismatches;
        if (first.size() < 5) {
          char buf[64];
          std::snprintf(buf, sizeof buf, " -> filtered %d, exact %d, reference %d", o.filtered, o.exact, o.reference);
          first.push_back(show(c) + buf);
        }
      }
    }
    const std::uint64_t cold = predicate_counters().exact_calls - cold_before;
    checked += per_family;
    if (test::verbose()) {
      std::printf("%-24s %-16s cases %8zu  signs -/0/+ %7zu %7zu %7zu  cold path %8llu (nonzero %zu)\n", name,
                  std::string(test::family_name(family)).c_str(), per_family, signs[0], signs[1], signs[2],
                  static_cast<unsigned long long>(cold), cold_nonzero);
    }
    INFO(name << ", family " << test::family_name(family) << ": " << mismatches << " mismatches in " << per_family
              << " cases");
    std::string examples;  // one INFO: a scoped INFO inside a loop would vanish with its iteration
    for (const std::string& m : first) examples.append("\n  ").append(m);
    INFO("first mismatches:" << examples);
    CHECK(mismatches == 0);
    // Both answers occur (a family that always says the same thing tests little).
    CHECK((signs[0] > 0) + (signs[1] > 0) + (signs[2] > 0) >= 2);
    if (test::family_is_degenerate(family)) CHECK(cold > 0);
    // Near-degenerate inputs of mixed magnitude defeat the filter without being exactly
    // degenerate: the cold path must also decide nonzero signs, not only zeros.
    if (family == Family::mixed_scale) CHECK(cold_nonzero > 0);
  }
  CHECK(checked >= total);
}

std::string show(Vec2 v) { return test::describe(v); }

}  // namespace

TEST_CASE("reference: floats decompose exactly into m * 2^e", "[predicates]") {
  // The reference's integer scaling rests on this decomposition; check it against GMP's
  // own exact conversion of the (exactly widened) double, over every exponent.
  test::CaseRng rng(42);
  std::size_t bad = 0;
  for (int i = 0; i < 200000; ++i) {
    const auto bits = static_cast<std::uint32_t>(rng.next());
    if (((bits >> 23) & 0xffu) == 0xffu) continue;
    const float f = std::bit_cast<float>(bits);
    const reference::Dyadic d = reference::decompose(f);
    mpq_class v(d.m);
    if (d.e >= 0) {
      mpq_mul_2exp(v.get_mpq_t(), v.get_mpq_t(), static_cast<mp_bitcnt_t>(d.e));
    } else {
      mpq_div_2exp(v.get_mpq_t(), v.get_mpq_t(), static_cast<mp_bitcnt_t>(-d.e));
    }
    if (v != mpq_class(static_cast<double>(f)) || (d.m != 0 && d.m % 2 == 0)) ++bad;
  }
  CHECK(bad == 0);
  CHECK(reference::decompose(0.0f).m == 0);
  CHECK(reference::decompose(-0.0f).m == 0);
  CHECK(reference::decompose(std::numeric_limits<float>::denorm_min()).e == -149);
  CHECK(reference::decompose(std::numeric_limits<float>::max()).e == 104);
  CHECK(reference::decompose(-3.0f).m == -3);
}

TEST_CASE("predicates: hand-worked signs", "[predicates]") {
  const float up1 = std::nextafter(1.0f, 2.0f);  // 1 + 2^-23
  const float tiny = std::numeric_limits<float>::denorm_min();
  const float big = 0x1p100f;
  const float small = 0x1p-100f;
  const float fmax = std::numeric_limits<float>::max();

  struct O {
    Vec2 a, b, c;
    int want;
  };
  const O orient[] = {
      {{0, 0}, {1, 0}, {0, 1}, 1},
      {{0, 0}, {0, 1}, {1, 0}, -1},
      {{0, 0}, {1, 1}, {2, 2}, 0},
      {{3, 7}, {3, 7}, {-5, 2}, 0},                              // a == b
      {{0, 0}, {1, 1}, {up1, 1}, -1},                            // one ulp right of the diagonal
      {{0, 0}, {1, 1}, {1, up1}, 1},                             // one ulp left
      {{-3e38f, -3e38f}, {3e38f, 3e38f}, {tiny, 0}, -1},         // 6e38 * 2^-149 to the right
      {{-fmax, -fmax}, {fmax, fmax}, {0, 0}, 0},                 // through the origin at FLT_MAX
      {{3 * small, 5 * small}, {3 * big, 5 * big}, {6, 10}, 0},  // 2^-100 .. 2^100 on one line
      {{3 * small, 5 * small}, {3 * big, 5 * big}, {6, 10.000001f}, 1},
      {{0, 0}, {tiny, 2 * tiny}, {2 * tiny, 4 * tiny}, 0},  // subnormals, collinear
      {{0, 0}, {tiny, 2 * tiny}, {2 * tiny, 2 * tiny}, -1},
      {{1e7f, 1e7f}, {1e7f + 4, 1e7f + 2}, {1e7f + 2, 1e7f + 1}, 0},  // near 1e7, midpoint
      {{1e7f, 1e7f}, {1e7f + 4, 1e7f + 2}, {1e7f + 2, 1e7f + 2}, 1},
      // On y = x from 1e-7 to 1e7: b - a is not exact in double, so only the cold path can
      // certify the zero.
      {{1e-7f, 1e-7f}, {1e7f, 1e7f}, {2e-7f, 2e-7f}, 0},
      {{1e-7f, 1e-7f}, {1e7f, 1e7f}, {2e-7f, std::nextafter(2e-7f, 1.0f)}, 1},
  };
  for (const O& o : orient) {
    INFO("orient2d " << show(o.a) << " " << show(o.b) << " " << show(o.c));
    CHECK(orient2d(o.a, o.b, o.c) == o.want);
    CHECK(exact::orient2d(o.a, o.b, o.c) == o.want);
    CHECK(reference::orient2d(o.a, o.b, o.c) == o.want);
    // Swapping two points flips the sign.
    CHECK(orient2d(o.b, o.a, o.c) == -o.want);
  }

  const O dot[] = {
      {{0, 0}, {1, 0}, {0, 5}, 0},       {{0, 0}, {1, 0}, {-1, 5}, -1},
      {{0, 0}, {1, 0}, {up1 - 1, 5}, 1}, {{1, 1}, {2, 2}, {0, 2}, 0},
      {{1, 1}, {1, 1}, {7, -3}, 0},      {{0, 0}, {3 * big, 4 * big}, {-4 * small, 3 * small}, 0},
      {{0, 0}, {tiny, 0}, {0, 1}, 0},    {{0, 0}, {tiny, 0}, {tiny, 1}, 1},
  };
  for (const O& o : dot) {
    INFO("dot_sign " << show(o.a) << " " << show(o.b) << " " << show(o.c));
    CHECK(dot_sign(o.a, o.b, o.c) == o.want);
    CHECK(exact::dot_sign(o.a, o.b, o.c) == o.want);
    CHECK(reference::dot_sign(o.a, o.b, o.c) == o.want);
  }

  struct D {
    Vec2 p, q;
    float r;
    int want;
  };
  const D dist[] = {
      {{0, 0}, {3, 4}, 5, 0},
      {{0, 0}, {3, 4}, std::nextafter(5.0f, 0.0f), 1},
      {{0, 0}, {3, 4}, std::nextafter(5.0f, 9.0f), -1},
      {{0, 0}, {3, 4}, -5, 0},  // |r|
      {{0, 0}, {3 * big, 4 * big}, 5 * big, 0},
      {{0, 0}, {3 * tiny, 4 * tiny}, 5 * tiny, 0},
      {{0, 0}, {3 * tiny, 4 * tiny}, 4 * tiny, 1},
      {{1e7f, -1e7f}, {1e7f + 3, -1e7f + 4}, 5, 0},
      {{2, 2}, {2, 2}, 0, 0},
  };
  for (const D& d : dist) {
    INFO("compare_distance " << show(d.p) << " " << show(d.q) << " " << test::hex(d.r));
    CHECK(compare_distance(d.p, d.q, d.r) == d.want);
    CHECK(exact::compare_distance(d.p, d.q, d.r) == d.want);
    CHECK(reference::compare_distance(d.p, d.q, d.r) == d.want);
  }

  struct C {
    Vec2 p, q;
    float r1, r2;
    int want;
  };
  const C center[] = {
      {{0, 0}, {3, 4}, 2, 3, 0},
      {{0, 0}, {6, 8}, 5, 5, 0},
      {{0, 0}, {6, 8}, 5, std::nextafter(5.0f, 0.0f), 1},
      {{0, 0}, {6, 8}, 5, std::nextafter(5.0f, 9.0f), -1},
      {{1e7f, 0}, {1e7f, 1}, 0.5f, 0.5f, 0},
      {{0, 0}, {6 * big, 8 * big}, 10 * big, 0, 0},
      {{0, 0}, {6 * tiny, 8 * tiny}, 3 * tiny, 7 * tiny, 0},
      // r1 + r2 is not a float (2^100 + 2^-100), yet it must be taken exactly.
      {{0, 0}, {big, 0}, big, small, -1},
      {{0, 0}, {big, small}, big, 0, 1},
  };
  for (const C& c : center) {
    INFO("compare_center_distance " << show(c.p) << " " << show(c.q) << " " << test::hex(c.r1) << " "
                                    << test::hex(c.r2));
    CHECK(compare_center_distance(c.p, c.q, c.r1, c.r2) == c.want);
    CHECK(exact::compare_center_distance(c.p, c.q, c.r1, c.r2) == c.want);
    CHECK(reference::compare_center_distance(c.p, c.q, c.r1, c.r2) == c.want);
  }

  struct L {
    Vec2 a, b, p;
    float r;
    int want;
  };
  const L line[] = {
      {{0, 0}, {4, 0}, {1, 2}, 2, 0},
      {{0, 0}, {4, 0}, {1, 2}, std::nextafter(2.0f, 0.0f), 1},
      {{0, 0}, {4, 0}, {1, 2}, std::nextafter(2.0f, 3.0f), -1},
      {{0, 0}, {3, 4}, {4, -3}, 5, 0},
      {{0, 0}, {3, 4}, {4, -3}, -5, 0},
      {{0, 0}, {0, 0}, {1, 1}, 0, 0},  // a == b: 0 - 0
      {{0, 0}, {0, 0}, {1, 1}, 7, 0},
      {{-3 * big, -4 * big}, {3 * big, 4 * big}, {4 * small, -3 * small}, 5 * small, 0},
      {{-3 * big, -4 * big}, {3 * big, 4 * big}, {4 * small, -3 * small}, 4 * small, 1},
  };
  for (const L& l : line) {
    INFO("compare_line_distance " << show(l.a) << " " << show(l.b) << " " << show(l.p) << " " << test::hex(l.r));
    CHECK(compare_line_distance(l.a, l.b, l.p, l.r) == l.want);
    CHECK(exact::compare_line_distance(l.a, l.b, l.p, l.r) == l.want);
    CHECK(reference::compare_line_distance(l.a, l.b, l.p, l.r) == l.want);
  }
}

TEST_CASE("predicates: degenerate inputs take the exact cold path", "[predicates]") {
  // A collinear triple has a zero determinant, which no filter can certify.
  const std::uint64_t before = predicate_counters().exact_calls;
  CHECK(orient2d({0, 0}, {1, 1}, {2, 2}) == 0);
  CHECK(predicate_counters().exact_calls == before + 1);
  // A clear case does not.
  CHECK(orient2d({0, 0}, {1, 0}, {0, 1}) == 1);
  CHECK(predicate_counters().exact_calls == before + 1);
}

TEST_CASE("orient2d equals the exact reference", "[predicates]") {
  check_predicate(
      "orient2d", 101, [](test::Generator& g) { return g.orient_case(); },
      [](const test::OrientCase& c) {
        return Outcome{orient2d(c.a, c.b, c.c), exact::orient2d(c.a, c.b, c.c), reference::orient2d(c.a, c.b, c.c)};
      },
      [](const test::OrientCase& c) { return "orient2d(" + show(c.a) + ", " + show(c.b) + ", " + show(c.c) + ")"; });
}

TEST_CASE("dot_sign equals the exact reference", "[predicates]") {
  check_predicate(
      "dot_sign", 102, [](test::Generator& g) { return g.orient_case(); },
      [](const test::OrientCase& c) {
        return Outcome{dot_sign(c.a, c.b, c.c), exact::dot_sign(c.a, c.b, c.c), reference::dot_sign(c.a, c.b, c.c)};
      },
      [](const test::OrientCase& c) { return "dot_sign(" + show(c.a) + ", " + show(c.b) + ", " + show(c.c) + ")"; });
}

TEST_CASE("orient_along equals the exact reference", "[predicates]") {
  // The orient cases with b - a as the direction where that difference is a float (it is
  // in most of the near-degenerate families: the collinear triples stay collinear), b
  // itself otherwise.
  check_predicate(
      "orient_along", 108,
      [](test::Generator& g) {
        test::OrientCase c = g.orient_case();
        const double dx = double{c.b.x} - c.a.x, dy = double{c.b.y} - c.a.y;
        if (static_cast<float>(dx) == dx && static_cast<float>(dy) == dy)
          c.b = {static_cast<float>(dx), static_cast<float>(dy)};
        return c;
      },
      [](const test::OrientCase& c) {
        const int fast = orient_along(c.a, c.b, c.c);
        return Outcome{fast, fast, reference::orient_along(c.a, c.b, c.c)};
      },
      [](const test::OrientCase& c) {
        return "orient_along(" + show(c.a) + ", " + show(c.b) + ", " + show(c.c) + ")";
      });
  CHECK(orient_along({0, 0}, {1, 1}, {2, 2}) == 0);
  CHECK(orient_along({0, 0}, {1, 0}, {0, 1}) == 1);
  CHECK(orient_along({0x1p-100f, 0}, {0x1p31f, 0x1p31f}, {-0x1p30f, -0x1p30f}) == 1);  // 2^-100 off the line
  CHECK(orient_along({5, 5}, {0, 0}, {1, 2}) == 0);
}

TEST_CASE("compare_distance equals the exact reference", "[predicates]") {
  check_predicate(
      "compare_distance", 103, [](test::Generator& g) { return g.distance_case(); },
      [](const test::DistanceCase& c) {
        return Outcome{compare_distance(c.p, c.q, c.r), exact::compare_distance(c.p, c.q, c.r),
                       reference::compare_distance(c.p, c.q, c.r)};
      },
      [](const test::DistanceCase& c) {
        return "compare_distance(" + show(c.p) + ", " + show(c.q) + ", " + test::hex(c.r) + ")";
      });
}

TEST_CASE("compare_center_distance equals the exact reference", "[predicates]") {
  check_predicate(
      "compare_center_distance", 104, [](test::Generator& g) { return g.center_case(); },
      [](const test::CenterCase& c) {
        return Outcome{compare_center_distance(c.p, c.q, c.r1, c.r2),
                       exact::compare_center_distance(c.p, c.q, c.r1, c.r2),
                       reference::compare_center_distance(c.p, c.q, c.r1, c.r2)};
      },
      [](const test::CenterCase& c) {
        return "compare_center_distance(" + show(c.p) + ", " + show(c.q) + ", " + test::hex(c.r1) + ", " +
               test::hex(c.r2) + ")";
      });
}

TEST_CASE("compare_line_distance equals the exact reference", "[predicates]") {
  check_predicate(
      "compare_line_distance", 105, [](test::Generator& g) { return g.line_case(); },
      [](const test::LineCase& c) {
        return Outcome{compare_line_distance(c.a, c.b, c.p, c.r), exact::compare_line_distance(c.a, c.b, c.p, c.r),
                       reference::compare_line_distance(c.a, c.b, c.p, c.r)};
      },
      [](const test::LineCase& c) {
        return "compare_line_distance(" + show(c.a) + ", " + show(c.b) + ", " + show(c.p) + ", " + test::hex(c.r) + ")";
      });
}
