// Isa (hitgrid/simd/isa.hpp): names and parsing round trip and reject anything else;
// isa_supported agrees with the CPU's own answer (GCC's __builtin_cpu_supports, for the
// features each ISA's kernels are built with); best_isa is the best supported one and
// Isa::automatic resolves to it; a supported ISA resolves to itself and anything else
// throws hitgrid::Error; require_concrete_isa refuses automatic and unsupported ISAs,
// naming its caller; supported_isas lists the supported concrete ISAs, scalar first.
#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hitgrid/core/error.hpp"
#include "hitgrid/simd/isa.hpp"

using namespace hitgrid;

namespace {

constexpr Isa every_isa[] = {Isa::automatic, Isa::scalar, Isa::sse2, Isa::avx2, Isa::avx512};
constexpr Isa concrete[] = {Isa::scalar, Isa::sse2, Isa::avx2, Isa::avx512};

/// The CPU's own answer, feature by feature (isa.cpp: what each ISA's kernels use).
bool cpu_runs(Isa isa) {
  switch (isa) {
    case Isa::automatic:
    case Isa::scalar:
      return true;
#if defined(__x86_64__)
    case Isa::sse2:
      return __builtin_cpu_supports("sse2");
    case Isa::avx2:
      return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("bmi2") &&
             __builtin_cpu_supports("popcnt");
    case Isa::avx512:
      return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
             __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
             __builtin_cpu_supports("popcnt");
#else
    default:
      return false;
#endif
  }
  return false;
}

/// An Isa value outside the enumeration (an unchecked cast from a caller's integer).
const Isa bogus = static_cast<Isa>(77);

}  // namespace

TEST_CASE("ISA names round trip through parse_isa, and nothing else parses", "[isa]") {
  CHECK(isa_name(Isa::automatic) == "auto");
  CHECK(isa_name(Isa::scalar) == "scalar");
  CHECK(isa_name(Isa::sse2) == "sse2");
  CHECK(isa_name(Isa::avx2) == "avx2");
  CHECK(isa_name(Isa::avx512) == "avx512");
  for (Isa isa : every_isa) {
    INFO(isa_name(isa));
    CHECK(parse_isa(isa_name(isa)) == isa);
  }
  for (std::string_view name : {"", "automatic", "AVX2", "Avx512", "avx", "avx-512", "avx512f", "sse", "sse4.2",
                                " avx2", "avx2 ", "scalar\n", "neon"}) {
    INFO("'" << std::string(name) << "'");
    CHECK(parse_isa(name) == std::nullopt);
  }
  CHECK(isa_name(bogus) == "?");
  CHECK(parse_isa("?") == std::nullopt);
}

TEST_CASE("isa_supported agrees with the CPU, and best_isa is the best supported ISA", "[isa]") {
  CHECK(isa_supported(Isa::automatic));
  CHECK(isa_supported(Isa::scalar));
#if defined(__x86_64__)
  CHECK(isa_supported(Isa::sse2));  // x86-64's baseline
#endif
  for (Isa isa : concrete) {
    INFO(isa_name(isa));
    CHECK(isa_supported(isa) == cpu_runs(isa));
  }
  CHECK(!isa_supported(bogus));

  const Isa best = best_isa();
  INFO("best " << isa_name(best));
  CHECK(best != Isa::automatic);
  CHECK(isa_supported(best));
  // Nothing better is supported: avx512 > avx2 > sse2 > scalar.
  const Isa order[] = {Isa::avx512, Isa::avx2, Isa::sse2, Isa::scalar};
  Isa want = Isa::scalar;
  for (Isa isa : order)
    if (cpu_runs(isa)) {
      want = isa;
      break;
    }
  CHECK(best == want);
#if defined(__x86_64__)
  CHECK(best != Isa::scalar);
#endif
}

TEST_CASE("resolve_isa: automatic to the best ISA, a supported one to itself, anything else an Error", "[isa]") {
  CHECK(resolve_isa(Isa::automatic) == best_isa());
  CHECK(resolve_isa(Isa::automatic) != Isa::automatic);
  for (Isa isa : concrete) {
    INFO(isa_name(isa));
    if (isa_supported(isa)) {
      CHECK(resolve_isa(isa) == isa);
    } else {
      CHECK_THROWS_AS(resolve_isa(isa), Error);
      CHECK_THROWS_WITH(resolve_isa(isa),
                        "ISA " + std::string(isa_name(isa)) + " is not supported by this CPU and operating system");
    }
  }
  CHECK_THROWS_AS(resolve_isa(bogus), Error);
  CHECK_THROWS_WITH(resolve_isa(bogus), Catch::Contains("is not supported"));
}

TEST_CASE("require_concrete_isa refuses automatic and unsupported ISAs, naming its caller", "[isa]") {
  for (Isa isa : supported_isas()) {
    INFO(isa_name(isa));
    CHECK_NOTHROW(require_concrete_isa(isa, "test"));
  }
  CHECK_THROWS_AS(require_concrete_isa(Isa::automatic, "grid_kernels"), Error);
  CHECK_THROWS_WITH(require_concrete_isa(Isa::automatic, "grid_kernels"),
                    "grid_kernels: ISA auto is not a concrete ISA supported here (resolve it with resolve_isa)");
  CHECK_THROWS_WITH(require_concrete_isa(bogus, "pair_kernels"), Catch::StartsWith("pair_kernels: ISA ? "));
  for (Isa isa : concrete)
    if (!isa_supported(isa)) {
      INFO(isa_name(isa));
      CHECK_THROWS_AS(require_concrete_isa(isa, "x"), Error);
    }
  // What resolve_isa returns always passes.
  CHECK_NOTHROW(require_concrete_isa(resolve_isa(Isa::automatic), "after resolve_isa"));
}

TEST_CASE("supported_isas lists the supported concrete ISAs, scalar first", "[isa]") {
  const std::vector<Isa> isas = supported_isas();
  std::vector<Isa> want;
  for (Isa isa : concrete)
    if (cpu_runs(isa)) want.push_back(isa);
  CHECK(isas == want);
  REQUIRE(!isas.empty());
  CHECK(isas.front() == Isa::scalar);
  CHECK(isas.back() == best_isa());
}
