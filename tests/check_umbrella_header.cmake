# Run by CTest (cmake -P): does the umbrella header include/hitgrid/hitgrid.hpp include
# every public header of every layer (<layer>/include/hitgrid/<layer>/*.hpp)? A header
# added to a layer and forgotten here would be missing from "one include for the whole
# public API". SOURCE_DIR: the repository's root.
file(READ "${SOURCE_DIR}/include/hitgrid/hitgrid.hpp" umbrella)
file(GLOB public RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/*/include/hitgrid/*/*.hpp")
if(NOT public)
  message(FATAL_ERROR "check_umbrella_header: no public headers found under ${SOURCE_DIR}")
endif()
set(missing "")
foreach(path IN LISTS public)
  string(REGEX REPLACE "^[^/]+/include/" "" name "${path}")
  string(FIND "${umbrella}" "#include \"${name}\"" at)
  if(at EQUAL -1)
    list(APPEND missing "${name}")
  endif()
endforeach()
list(LENGTH public count)
if(missing)
  message(FATAL_ERROR "check_umbrella_header: hitgrid/hitgrid.hpp does not include: ${missing}")
endif()
message(STATUS "check_umbrella_header: all ${count} public headers included")
