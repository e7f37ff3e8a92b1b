# Run by CTest (cmake -P): builds and runs a program against hitgrid: tests/package/consumer,
# or the project in CONSUMER_DIR (relative to the source tree) whose executable is
# CONSUMER_EXE, run with the arguments in CONSUMER_ARGS.
#   MODE=find_package:     install the built tree into WORK_DIR/prefix, find_package it.
#   MODE=add_subdirectory: add the source tree as a subdirectory.
file(REMOVE_RECURSE ${WORK_DIR})
if(NOT CONSUMER_DIR)
  set(CONSUMER_DIR tests/package/consumer)
  set(CONSUMER_EXE consumer)
endif()
set(consumer_src ${HITGRID_SOURCE_DIR}/${CONSUMER_DIR})
set(args -S ${consumer_src} -B ${WORK_DIR}/build -G Ninja -DCMAKE_BUILD_TYPE=Release -DHITGRID_MODE=${MODE}
         "-DCMAKE_CXX_FLAGS=${CONSUMER_FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${CONSUMER_FLAGS}")
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
