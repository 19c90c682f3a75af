# Sanitizers and fuzzing (docs/fuzzing.md). The sanitizers apply to every target of this tree,
# so that the core library, the tests and the programs they run are all checked.
#   -DPERFDUEL_SANITIZE=address,undefined   any -fsanitize= list; every finding is fatal
#   -DPERFDUEL_SANITIZE_EXCLUDE=null,...    checks of that list left out (-fno-sanitize=)
#   -DPERFDUEL_FUZZ=ON                      the libFuzzer targets in tests/fuzz (clang only)
# A plain build's test suite builds such a tree of its own (tests/sanitize), so CI runs both.
set(PERFDUEL_SANITIZE "" CACHE STRING
  "Sanitizers to build with, as for -fsanitize= (e.g. address,undefined); empty: none")
set(PERFDUEL_SANITIZE_EXCLUDE "" CACHE STRING
  "Checks left out of PERFDUEL_SANITIZE, as for -fno-sanitize= (e.g. null,alignment); empty: none")
option(PERFDUEL_FUZZ "Build the libFuzzer targets in tests/fuzz (needs clang)" OFF)

if(NOT PERFDUEL_SANITIZE STREQUAL "")
  # -fno-sanitize-recover: UBSan stops at its first finding, so a test with one fails.
  add_compile_options(-fsanitize=${PERFDUEL_SANITIZE} -fno-sanitize-recover=all
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=${PERFDUEL_SANITIZE})
  if(NOT PERFDUEL_SANITIZE_EXCLUDE STREQUAL "")
    # After the list, which would otherwise turn them back on.
    add_compile_options(-fno-sanitize=${PERFDUEL_SANITIZE_EXCLUDE})
  endif()
endif()

if(PERFDUEL_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "PERFDUEL_FUZZ=ON needs clang (libFuzzer), not ${CMAKE_CXX_COMPILER_ID}: "
      "configure with -DCMAKE_CXX_COMPILER=clang++ (Debian: apt-get install clang libclang-rt-14-dev)")
  endif()
  # Coverage feedback from the core library (tools/perfduel/CMakeLists.txt) and the fuzz
  # targets, which link libFuzzer's main: the code the fuzzer explores. The rest of the tree
  # (the unit tests, the programs) is not fuzzed, and its coverage hooks (a call at every
  # comparison) only made it slower to compile and run.
endif()
