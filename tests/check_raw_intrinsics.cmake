# Run by CTest (cmake -P): is every raw intrinsic of the library in simd/detail/hitgrid/
# simd/detail/ (docs/simd.md: one SIMD idiom, xsimd everywhere, and the few operations
# xsimd 8.1 lacks in one place)? Looks through the library's sources (core, simd,
# broadphase, world, rope, draw, capi, python, apps) for an intrinsic's call, a raw vector
# type or the intrinsics header anywhere else. SOURCE_DIR: the repository's root.
set(allowed "simd/detail/hitgrid/simd/detail/")
set(found "")
set(checked 0)
foreach(layer core simd broadphase world rope draw capi python apps include)
  file(GLOB_RECURSE sources RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/${layer}/*.cpp" "${SOURCE_DIR}/${layer}/*.hpp"
       "${SOURCE_DIR}/${layer}/*.h" "${SOURCE_DIR}/${layer}/*.c")
  foreach(path IN LISTS sources)
    math(EXPR checked "${checked} + 1")
    string(FIND "${path}" "${allowed}" at)
    if(at EQUAL 0)
      continue()
    endif()
    file(STRINGS "${SOURCE_DIR}/${path}" hits REGEX "_mm[0-9]*_[a-z0-9_]+[ ]*\\(|__m(128|256|512)[di]?[^a-z0-9_]|[<\"](imm|x86|[a-z]mm)intrin\\.h")
    foreach(line IN LISTS hits)
      list(APPEND found "${path}: ${line}")
    endforeach()
  endforeach()
endforeach()
if(checked EQUAL 0)
  message(FATAL_ERROR "check_raw_intrinsics: no sources found under ${SOURCE_DIR}")
endif()
if(found)
  list(JOIN found "\n  " text)
  message(FATAL_ERROR "check_raw_intrinsics: raw intrinsics outside ${allowed}:\n  ${text}")
endif()
message(STATUS "check_raw_intrinsics: ${checked} sources, raw intrinsics only in ${allowed}")
