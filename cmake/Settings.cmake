set(CMAKE_CXX_STANDARD 20)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)
set(CMAKE_EXPORT_COMPILE_COMMANDS ON)

# Only as the top-level project: a consumer's build type is the consumer's business.
if(PROJECT_IS_TOP_LEVEL AND NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES)
  set(CMAKE_BUILD_TYPE RelWithDebInfo CACHE STRING "Build type" FORCE)
endif()

# Tests are on when perfduel is the top-level project, off when it is pulled in by a consumer.
option(PERFDUEL_BUILD_TESTS "Build the perfduel test suite" ${PROJECT_IS_TOP_LEVEL})

# The build of CI and of the README's test command: the sources of the core library, the unit
# tests, perfduel_validate and ci_local compiled in batches (CMake's unity build), so that the
# headers they share (fmt, nlohmann/json, CLI11, Boost, Catch2) are parsed once a batch instead
# of once a file. A developer's incremental build leaves it off: a change then recompiles one
# file, not its batch.
option(PERFDUEL_UNITY_BUILD
  "Compile the core library, the unit tests and two test tools in batches (faster full builds)" OFF)

# The release archive's driver (cmake/Portable.cmake, tools/release/build-release.sh): libraries
# linked in, libpq loaded on use, glibc 2.31 or newer at run time. Off: Debian's shared libraries.
option(PERFDUEL_PORTABLE "Build the self-contained driver of the portable release archive" OFF)
