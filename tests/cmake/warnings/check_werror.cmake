# Usage: cmake -DPERFDUEL_SOURCE_DIR=... -DWORK_DIR=... -DGENERATOR=... -P check_werror.cmake
# Builds the probe (one unused variable) with PERFDUEL_WERROR=ON, which must fail on the
# warning, and OFF, which must build and still print the warning: the CI build, which passes
# -DPERFDUEL_WERROR=ON, then fails on any new warning.
foreach(var PERFDUEL_SOURCE_DIR WORK_DIR GENERATOR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_werror.cmake: set ${var}")
  endif()
endforeach()
file(REMOVE_RECURSE "${WORK_DIR}")
foreach(werror ON OFF)
  set(build "${WORK_DIR}/${werror}")
  execute_process(
    COMMAND ${CMAKE_COMMAND} -S ${CMAKE_CURRENT_LIST_DIR} -B ${build} -G ${GENERATOR}
            -DPERFDUEL_SOURCE_DIR=${PERFDUEL_SOURCE_DIR} -DPERFDUEL_WERROR=${werror}
    RESULT_VARIABLE configured OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT configured EQUAL 0)
    message(FATAL_ERROR "configuring the probe failed:\n${out}")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${build}
    RESULT_VARIABLE built OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT out MATCHES "unused variable")
    message(FATAL_ERROR "PERFDUEL_WERROR=${werror}: the probe's warning was not printed:\n${out}")
  endif()
  if(werror AND built EQUAL 0)
    message(FATAL_ERROR "PERFDUEL_WERROR=ON built the probe despite its warning:\n${out}")
  endif()
  if(NOT werror AND NOT built EQUAL 0)
    message(FATAL_ERROR "PERFDUEL_WERROR=OFF failed on a warning:\n${out}")
  endif()
endforeach()
message(STATUS "PERFDUEL_WERROR=ON fails on a warning; OFF only prints it")
