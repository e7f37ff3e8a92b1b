#include "hitgrid/simd/isa.hpp"

#include <string>

#include "hitgrid/core/error.hpp"

namespace hitgrid {

std::string_view isa_name(Isa isa) {
  switch (isa) {
    case Isa::automatic: return "auto";
    case Isa::scalar: return "scalar";
    case Isa::sse2: return "sse2";
    case Isa::avx2: return "avx2";
    case Isa::avx512: return "avx512";
  }
  return "?";
}

std::optional<Isa> parse_isa(std::string_view name) {
  for (Isa isa : {Isa::automatic, Isa::scalar, Isa::sse2, Isa::avx2, Isa::avx512})
    if (name == isa_name(isa)) return isa;
  return std::nullopt;
}

bool isa_supported(Isa isa) {
  switch (isa) {
    case Isa::automatic:
    case Isa::scalar: return true;
#if defined(__x86_64__) || defined(__i386__)
    case Isa::sse2: return __builtin_cpu_supports("sse2");
    // The AVX2 kernels are also built with FMA and BMI2 available to the compiler, and
    // the grid's lane masks (hitgrid/simd/detail/lane_masks.hpp) use POPCNT.
    case Isa::avx2:
      return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("bmi2") &&
             __builtin_cpu_supports("popcnt");
    // AVX-512 kernels use F, BW, DQ and VL (and the grid's lane masks POPCNT).
    case Isa::avx512:
      return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
             __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
             __builtin_cpu_supports("popcnt");
#else
    default: return false;
#endif
  }
  return false;
}

Isa best_isa() {
  for (Isa isa : {Isa::avx512, Isa::avx2, Isa::sse2})
    if (isa_supported(isa)) return isa;
  return Isa::scalar;
}

Isa resolve_isa(Isa requested) {
  if (requested == Isa::automatic) return best_isa();
  if (!isa_supported(requested))
    throw Error("ISA " + std::string(isa_name(requested)) + " is not supported by this CPU and operating system");
  return requested;
}

void require_concrete_isa(Isa isa, std::string_view caller) {
  if (isa == Isa::automatic || !isa_supported(isa))
    throw Error(std::string(caller) + ": ISA " + std::string(isa_name(isa)) +
                " is not a concrete ISA supported here (resolve it with resolve_isa)");
}

std::vector<Isa> supported_isas() {
  std::vector<Isa> out;
  for (Isa isa : {Isa::scalar, Isa::sse2, Isa::avx2, Isa::avx512})
    if (isa_supported(isa)) out.push_back(isa);
  return out;
}

}  // namespace hitgrid
