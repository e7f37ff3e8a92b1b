// Isa: the instruction sets hitgrid's kernels are compiled for, and the run-time choice.
//
// hitgrid decides the ISA itself from what the CPU *and the operating system* support:
// GCC's __builtin_cpu_supports checks the OS's XSAVE state (XGETBV) before reporting AVX
// or AVX-512, which xsimd 8.1's own detection does not (see docs/simd.md), so a VM that
// hides AVX-512 state gets AVX2 instead of SIGILL. Every ISA gives bit-identical results;
// only speed differs.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace hitgrid {

enum class Isa { automatic, scalar, sse2, avx2, avx512 };

std::string_view isa_name(Isa isa);
/// "auto", "scalar", "sse2", "avx2", "avx512".
std::optional<Isa> parse_isa(std::string_view name);

/// Whether this CPU and OS can run code for the ISA (automatic and scalar: always).
bool isa_supported(Isa isa);
/// The best supported ISA, best first: avx512, avx2, sse2 (always on x86-64).
Isa best_isa();
/// automatic -> best_isa(); otherwise the ISA itself. Throws hitgrid::Error if the ISA is
/// not supported here.
Isa resolve_isa(Isa requested);
/// Throws hitgrid::Error, naming `caller`, unless the ISA is concrete (not automatic) and
/// supported here: the check the kernels make before anything that must not throw runs.
void require_concrete_isa(Isa isa, std::string_view caller);
/// The supported concrete ISAs, scalar first.
std::vector<Isa> supported_isas();

}  // namespace hitgrid
