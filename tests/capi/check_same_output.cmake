# Run by CTest (cmake -P): runs FIRST and SECOND (each a ;-list: program and arguments) and
# fails unless both succeed and print the same standard output, which it shows.
execute_process(COMMAND ${FIRST} OUTPUT_VARIABLE first RESULT_VARIABLE rc1)
execute_process(COMMAND ${SECOND} OUTPUT_VARIABLE second RESULT_VARIABLE rc2)
message("${first}")
if(rc1 OR rc2)
  message(FATAL_ERROR "failed: ${rc1} / ${rc2}")
endif()
if(NOT first STREQUAL second)
  message(FATAL_ERROR "the outputs differ; the second printed:\n${second}")
endif()
