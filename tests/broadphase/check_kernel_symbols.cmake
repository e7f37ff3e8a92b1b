# Run by CTest (cmake -P): the one-definition-rule guard of the per-ISA translation units
# (docs/simd.md). A function compiled into pair_kernels_avx512.cpp.o with -mavx512f that
# the linker may also pick for other code (an inline function or template instance that
# baseline code, or another ISA's unit, uses too) would crash CPUs without AVX-512. So
# every weak code symbol (nm type W) that a per-ISA object file defines must name that
# object's own arch: a template instantiated on it. Any other arch in its place (say
# xsimd::avx2 in the AVX-512 object) is the same name another unit may define.
#   -DARCHIVES="lib1.a;lib2.a"
set(own_arch_sse2 "xsimd::sse2")
set(own_arch_avx2 "xsimd::fma3<xsimd::avx2>")
# The grid's eight-lane batches in the AVX-512 unit have an arch of their own
# (simd/detail/hitgrid/simd/detail/lane_masks.hpp).
set(own_arch_avx512 "xsimd::avx512f|hitgrid::Avx512HalfArch")
foreach(archive ${ARCHIVES})
  execute_process(COMMAND nm -A -C --defined-only ${archive} OUTPUT_VARIABLE listing RESULT_VARIABLE rc)
  if(rc)
    message(FATAL_ERROR "nm failed on ${archive}")
  endif()
  string(REPLACE "\n" ";" lines "${listing}")
  set(kernel_objects 0)
  set(weak_symbols 0)
  foreach(line ${lines})
    if(line MATCHES ":[a-z_]+_kernels_(sse2|avx2|avx512)\\.cpp\\.o:")
      set(isa "${CMAKE_MATCH_1}")
      math(EXPR kernel_objects "${kernel_objects} + 1")
      if(line MATCHES "^[^ ]+ W (.*)$")
        set(symbol "${CMAKE_MATCH_1}")
        math(EXPR weak_symbols "${weak_symbols} + 1")
        if(NOT symbol MATCHES "${own_arch_${isa}}")
          message(SEND_ERROR "the ${isa} object defines a weak function not tied to its own arch: ${line}")
        endif()
      endif()
    endif()
  endforeach()
  if(kernel_objects EQUAL 0)
    message(FATAL_ERROR "no per-ISA kernel objects found in ${archive}: the check would prove nothing")
  endif()
  message(STATUS "${archive}: ${kernel_objects} symbols of per-ISA objects, ${weak_symbols} weak, each on its own arch")
endforeach()
