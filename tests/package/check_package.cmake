# Run by CTest (cmake -P): builds and runs a program against hitgrid: tests/package/consumer,
# or the project in CONSUMER_DIR (relative to the source tree) whose executable is
# CONSUMER_EXE, run with the arguments in CONSUMER_ARGS.
#   MODE=find_package:     install the built tree into WORK_DIR/prefix, find_package it.
#   MODE=add_subdirectory: add the source tree as a subdirectory.
#   MODE=pkg_config:       install the built tree into WORK_DIR/prefix and compile
#                          CONSUMER_DIR/main.c with the C compiler and pkg-config alone
#                          (PKG_CONFIG_PATH=<prefix>/<libdir>/pkgconfig), no CMake.
file(REMOVE_RECURSE ${WORK_DIR})
if(NOT CONSUMER_DIR)
  set(CONSUMER_DIR tests/package/consumer)
  set(CONSUMER_EXE consumer)
endif()
set(consumer_src ${HITGRID_SOURCE_DIR}/${CONSUMER_DIR})
if(MODE STREQUAL "pkg_config")
  execute_process(COMMAND ${CMAKE_COMMAND} --install ${HITGRID_BUILD_DIR} --prefix ${WORK_DIR}/prefix RESULT_VARIABLE rc)
  if(rc)
    message(FATAL_ERROR "install failed: ${rc}")
  endif()
  file(GLOB_RECURSE pc_file ${WORK_DIR}/prefix/*/hitgrid.pc)
  if(NOT pc_file)
    message(FATAL_ERROR "no hitgrid.pc installed under ${WORK_DIR}/prefix")
  endif()
  get_filename_component(pc_dir ${pc_file} DIRECTORY)
  set(ENV{PKG_CONFIG_PATH} ${pc_dir})
  execute_process(COMMAND pkg-config --cflags --libs hitgrid OUTPUT_VARIABLE flags RESULT_VARIABLE rc
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(rc)
    message(FATAL_ERROR "pkg-config --cflags --libs hitgrid failed: ${rc}")
  endif()
  execute_process(COMMAND pkg-config --variable=libdir hitgrid OUTPUT_VARIABLE libdir OUTPUT_STRIP_TRAILING_WHITESPACE)
  separate_arguments(flags UNIX_COMMAND "${flags}")
  separate_arguments(consumer_flags UNIX_COMMAND "${CONSUMER_FLAGS}")
  file(MAKE_DIRECTORY ${WORK_DIR}/build)
  execute_process(COMMAND ${C_COMPILER} -std=c99 -Wall -Wextra -Werror -pedantic ${consumer_flags}
                          ${consumer_src}/main.c -o ${WORK_DIR}/build/${CONSUMER_EXE} ${flags} -Wl,-rpath,${libdir}
                  RESULT_VARIABLE rc)
  if(rc)
    message(FATAL_ERROR "consumer build (pkg_config: ${flags}) failed: ${rc}")
  endif()
  execute_process(COMMAND ${WORK_DIR}/build/${CONSUMER_EXE} RESULT_VARIABLE rc)
  if(rc)
    message(FATAL_ERROR "consumer run (pkg_config) failed: ${rc}")
  endif()
  return()
endif()
# find_package consumes the build under test as installed. add_subdirectory compiles the
# whole library again, as an engine's Debug build would: unoptimized with asserts on (faster
# to compile than Release, and a configuration no other build checks).
set(build_type Release)
if(MODE STREQUAL "add_subdirectory")
  set(build_type Debug)
endif()
set(args -S ${consumer_src} -B ${WORK_DIR}/build -G Ninja -DCMAKE_BUILD_TYPE=${build_type} -DHITGRID_MODE=${MODE}
         "-DCMAKE_CXX_FLAGS=${CONSUMER_FLAGS}" "-DCMAKE_C_FLAGS=${CONSUMER_FLAGS}"
         "-DCMAKE_EXE_LINKER_FLAGS=${CONSUMER_FLAGS}")
if(MODE STREQUAL "find_package")
  execute_process(COMMAND ${CMAKE_COMMAND} --install ${HITGRID_BUILD_DIR} --prefix ${WORK_DIR}/prefix
                  RESULT_VARIABLE rc)
  if(rc)
    message(FATAL_ERROR "install failed: ${rc}")
  endif()
  list(APPEND args -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix)
else()
  list(APPEND args -DHITGRID_SOURCE_DIR=${HITGRID_SOURCE_DIR})
endif()
foreach(step configure build run)
  if(step STREQUAL "configure")
    execute_process(COMMAND ${CMAKE_COMMAND} ${args} RESULT_VARIABLE rc)
  elseif(step STREQUAL "build")
    execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/build RESULT_VARIABLE rc)
  else()
    separate_arguments(run_args UNIX_COMMAND "${CONSUMER_ARGS}")
    execute_process(COMMAND ${WORK_DIR}/build/${CONSUMER_EXE} ${run_args} RESULT_VARIABLE rc)
  endif()
  if(rc)
    message(FATAL_ERROR "consumer ${step} (${MODE}) failed: ${rc}")
  endif()
endforeach()
