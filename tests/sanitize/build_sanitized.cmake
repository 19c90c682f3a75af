# Configures and builds the sanitized tree of tests/sanitize:
#   cmake -DSOURCE_DIR=<src> -DBUILD_DIR=<dir> -DCXX=<clang++> -DGENERATOR=<g>
#         [-DLAUNCHER=<ccache>] [-DPROGRAMS_DIR=<plain tree>/tests/programs] [-DJOBS=<n>, 2]
#         [-DLLD=<ld.lld>: link with lld]
#         -P build_sanitized.cmake
# -O0: clang's optimizer was most of the cost of this tree (a batch of the core library: 47 s
# of CPU at -O1, 20 s at -O0; the tree 416 s -> 272 s), while the tests it runs take little more
# time (the unit tests 15 -> 31 s of CPU, the CLI tests 30 -> 39 s: the timed programs are not
# sanitized, and only the driver between their runs is slower). Line tables give the stacks file
# and line at a fraction of -g's build time. A second run rebuilds only what changed.
# Without UBSan's null and alignment checks, which instrument every load through a pointer or a
# reference and at -O0 were most of UBSan's cost (a batch of the core library: 50 s of CPU with
# them, 32 s without, ASan alone 30 s; the tree 246 -> 201 s, the unit tests' run 34 -> 25 s, the
# CLI tests' 96 -> 86 s): ASan reports a dereferenced null pointer itself (its SEGV report, with
# the stack), and a cast that raises a pointer's alignment is a warning in both trees, an error
# in CI's plain one (-Wcast-align=strict with -Werror, cmake/Warnings.cmake). The other UBSan
# checks stay.
# The core library and the unit tests compile in batches (PERFDUEL_UNITY_BUILD): a fresh tree
# in about half the time. PROGRAMS_DIR: the test programs of the plain tree, run instead of
# compiled again (they are not sanitized in either tree).
foreach(var IN ITEMS SOURCE_DIR BUILD_DIR CXX GENERATOR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "build_sanitized.cmake: -D${var}=... is missing")
  endif()
endforeach()
set(configure_args
  -S "${SOURCE_DIR}" -B "${BUILD_DIR}" -G "${GENERATOR}"
  "-DCMAKE_CXX_COMPILER=${CXX}"
  -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-O0 -gline-tables-only"
  -DPERFDUEL_SANITIZE=address,undefined -DPERFDUEL_SANITIZE_EXCLUDE=null,alignment
  -DPERFDUEL_FUZZ=ON -DPERFDUEL_BUILD_TESTS=ON
  -DPERFDUEL_UNITY_BUILD=ON
  # sanitize.unit runs the unit tests' binary whole: no listing of its cases after the build.
  -DPERFDUEL_UNIT_TESTS_EACH=OFF
  # Each fuzz target's smoke run: its seed corpus, then 2 s of fuzzing (30 by default; 4 until
  # the suite had to lose another minute: fuzz.all 31 -> 19 s of CPU); the longer runs of
  # docs/fuzzing.md are made by hand.
  -DPERFDUEL_FUZZ_SECONDS=2)
if(NOT JOBS)
  set(JOBS 2)
endif()
if(PROGRAMS_DIR)
  list(APPEND configure_args "-DPERFDUEL_TEST_PROGRAMS_FROM=${PROGRAMS_DIR}")
endif()
if(LLD)
  list(APPEND configure_args "-DCMAKE_EXE_LINKER_FLAGS=--ld-path=${LLD}" "-DCMAKE_SHARED_LINKER_FLAGS=--ld-path=${LLD}")
endif()
if(LAUNCHER)
  list(APPEND configure_args "-DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" ${configure_args} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the sanitized tree ${BUILD_DIR} failed (exit ${rc})")
endif()
execute_process(
  COMMAND "${CMAKE_COMMAND}" --build "${BUILD_DIR}" --target perfduel_sanitized_checks -j ${JOBS}
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building the sanitized tree ${BUILD_DIR} failed (exit ${rc})")
endif()
