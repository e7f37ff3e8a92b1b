# Run by CTest (cmake -P): the one-definition-rule guard of the per-ISA translation units
# (docs/simd.md). A function compiled into pair_kernels_avx512.cpp.o with -mavx512f that
# the linker may also pick for baseline code (an inline function or template instance the
# baseline translation units use too) would crash CPUs without AVX-512. So every weak code
# symbol (nm type W) that a per-ISA object file defines must carry its ISA in its name: a
# template instantiated on the xsimd arch or on the grid's per-ISA box filter.
#   -DARCHIVES="lib1.a;lib2.a"
foreach(archive ${ARCHIVES})
  execute_process(COMMAND nm -A -C --defined-only ${archive} OUTPUT_VARIABLE listing RESULT_VARIABLE rc)
  if(rc)
    message(FATAL_ERROR "nm failed on ${archive}")
  endif()
  string(REPLACE "\n" ";" lines "${listing}")
  set(kernel_objects 0)
  foreach(line ${lines})
    if(line MATCHES ":[a-z]+_kernels_(sse2|avx2|avx512)\\.cpp\\.o:")
      math(EXPR kernel_objects "${kernel_objects} + 1")
      if(line MATCHES "^[^ ]+ W (.*)$")
        set(symbol "${CMAKE_MATCH_1}")
        if(NOT symbol MATCHES "xsimd::|BoxFilter(Sse2|Avx2|Avx512)")
          message(SEND_ERROR "a per-ISA object defines a weak function not tied to its ISA: ${line}")
        endif()
      endif()
    endif()
  endforeach()
  if(kernel_objects EQUAL 0)
    message(FATAL_ERROR "no per-ISA kernel objects found in ${archive}: the check would prove nothing")
  endif()
endforeach()
