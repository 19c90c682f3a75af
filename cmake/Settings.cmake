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
