# Fuzzes one target for a fixed time: cmake -DFUZZER=<exe> -DSEEDS=<dir> -DWORK_DIR=<dir>
# -DSECONDS=<n> -P run_fuzzer.cmake. libFuzzer first runs every seed (the reproducers of past
# findings among them), then mutates; new inputs and any crash-* reproducer go to WORK_DIR,
# which is emptied first, so the source tree is only read. Fails on any finding.
foreach(var IN ITEMS FUZZER SEEDS WORK_DIR SECONDS)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_fuzzer.cmake: -D${var}=... is missing")
  endif()
endforeach()
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}/corpus")
execute_process(
  COMMAND "${FUZZER}" -max_total_time=${SECONDS} -timeout=20 -rss_limit_mb=2560
          -print_final_stats=1 "-artifact_prefix=${WORK_DIR}/" "${WORK_DIR}/corpus" "${SEEDS}"
  RESULT_VARIABLE rc
  OUTPUT_VARIABLE output
  ERROR_VARIABLE output)
# The last lines: libFuzzer's final statistics (executions, coverage), or the finding.
string(REGEX MATCHALL "[^\n]*\n" lines "${output}")
list(LENGTH lines count)
if(rc EQUAL 0 AND count GREATER 20)
  math(EXPR first "${count} - 20")
  list(SUBLIST lines ${first} -1 lines)
  string(JOIN "" output ${lines})
endif()
message("${output}")
if(NOT rc EQUAL 0)
  file(GLOB reproducers "${WORK_DIR}/crash-*" "${WORK_DIR}/leak-*" "${WORK_DIR}/timeout-*" "${WORK_DIR}/oom-*")
  message(FATAL_ERROR "${FUZZER} found a problem (exit ${rc}); reproducer: ${reproducers}\n"
    "Rerun it with: ${FUZZER} <reproducer>; once fixed, add it to ${SEEDS}/")
endif()
