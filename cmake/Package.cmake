# The Debian package: `cpack -G DEB` in the build directory (or `cmake --build build --target
# package`) writes perfduel_<version>_<arch>.deb from the install rules of Install.cmake: the
# driver, perfduel-exec, the PerfDuel CMake package, the templates and the documentation, under
# /usr. docs/install.md describes building and installing it.
#
# Only as the top-level project: CPack writes CPackConfig.cmake into the top-level build
# directory, and a consumer that pulls perfduel in as a sub-project packages its own product.
if(NOT PROJECT_IS_TOP_LEVEL)
  return()
endif()

set(PERFDUEL_PACKAGE_MAINTAINER "perfduel maintainers" CACHE STRING
  "The Maintainer field of the Debian package (\"Name <address>\")")
mark_as_advanced(PERFDUEL_PACKAGE_MAINTAINER)

set(CPACK_GENERATOR DEB)  # also what `cpack` and the `package` target build without -G
set(CPACK_PACKAGE_NAME perfduel)
set(CPACK_PACKAGE_CONTACT "${PERFDUEL_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "performance regression gate for C++ projects on CMake and CTest")
# The extended description; Debian's rules for it (a leading space, "." for an empty line) are
# CPack's business.
set(CPACK_PACKAGE_DESCRIPTION "${PROJECT_DESCRIPTION}.
find_package(PerfDuel) gives add_perf_gate(), which builds a benchmark at the
merge-base (in a git worktree) and in the working tree, and registers a CTest
test that runs the perfduel driver on the two: it fails when the candidate is
significantly worse. `ctest -L perf` is the whole interface in CI.

This package holds the perfduel driver (compare, analyze, record, trend,
doctor, bisect), its exec helper, the PerfDuel CMake package, and templates
for perfduel.yaml and CI pipelines.")

# /usr/bin/perfduel, /usr/libexec/perfduel/perfduel-exec, /usr/lib/cmake/PerfDuel, ...
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # perfduel_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# The shared libraries the two executables load are dpkg-shlibdeps' to list, with the versions
# their symbols need (dpkg-dev). What the gate runs as commands is not: add_perf_gate() needs
# CMake (the baseline is configured and built by a CMake script) and git (the baseline's
# worktree); Valgrind only for a metric it counts.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "cmake (>= 3.25), git")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS valgrind)

# `cpack -G TGZ`: the release archive (packaging/CPackOptions.cmake.in; tools/release/build-release.sh
# builds it from a PERFDUEL_PORTABLE build, cmake/Portable.cmake).
configure_file("${PROJECT_SOURCE_DIR}/packaging/CPackOptions.cmake.in"
  "${PROJECT_BINARY_DIR}/CPackOptions.cmake" @ONLY)
set(CPACK_PROJECT_CONFIG_FILE "${PROJECT_BINARY_DIR}/CPackOptions.cmake")
set(CPACK_RESOURCE_FILE_LICENSE "${PROJECT_SOURCE_DIR}/LICENSE")

include(CPack)
