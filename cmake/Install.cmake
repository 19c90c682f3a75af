# Packaging: install rules and the PerfDuel CMake package, usable three ways:
#   - install tree:  cmake --install build --prefix P;  find_package(PerfDuel) with P in
#                    CMAKE_PREFIX_PATH (P/lib/cmake/PerfDuel)
#   - build tree:    find_package(PerfDuel) with PerfDuel_DIR=<this build directory>
#   - sub-project:   add_subdirectory()/FetchContent; find_package(PerfDuel) then finds the
#                    package through CMAKE_FIND_PACKAGE_REDIRECTS_DIR.
# All three provide the executable target PerfDuel::perfduel and add_perf_gate().
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(PERFDUEL_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/PerfDuel" CACHE STRING
  "Where the PerfDuel CMake package is installed, relative to the prefix")
set(PERFDUEL_INSTALL_TEMPLATESDIR "${CMAKE_INSTALL_DATADIR}/perfduel/templates" CACHE STRING
  "Where perfduel's templates (perfduel.yaml, CI pipelines) are installed")
# Named after the Debian package (GNUInstallDirs' DOCDIR would be share/doc/PerfDuel).
set(PERFDUEL_INSTALL_DOCDIR "${CMAKE_INSTALL_DATADIR}/doc/perfduel" CACHE STRING
  "Where perfduel's documentation (the README, docs/) is installed")
mark_as_advanced(PERFDUEL_INSTALL_CMAKEDIR PERFDUEL_INSTALL_TEMPLATESDIR PERFDUEL_INSTALL_DOCDIR)

# What the package ships lives in cmake/module/ (add_perf_gate() and the baseline's build
# script, the package's configuration file); the rest of cmake/ builds perfduel itself.
set(_perfduel_module_dir "${CMAKE_CURRENT_LIST_DIR}/module")
set(_perfduel_package_files
  "${_perfduel_module_dir}/PerfDuel.cmake"
  "${_perfduel_module_dir}/PerfDuelBaseline.cmake")

# The same target name in every mode; the ALIAS serves this build and its sub-project users.
add_executable(PerfDuel::perfduel ALIAS perfduel)
include("${_perfduel_module_dir}/PerfDuel.cmake")

write_basic_package_version_file("${PROJECT_BINARY_DIR}/PerfDuelConfigVersion.cmake"
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion  # 0.x: a minor release may change add_perf_gate()
  ARCH_INDEPENDENT)               # a tool, not a library: any consumer architecture

# --- install tree ---
install(TARGETS perfduel EXPORT PerfDuelTargets
  RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
# Found by the driver as ../libexec/perfduel/perfduel-exec relative to itself.
install(TARGETS perfduel_exec RUNTIME DESTINATION "${CMAKE_INSTALL_LIBEXECDIR}/perfduel")
# Found by the driver as ../libexec/perfduel/libperfduel-alloc.so: preloaded into counted runs
# that count allocations (run/allocation_counts.hpp), not a library to link.
install(TARGETS perfduel_alloc LIBRARY DESTINATION "${CMAKE_INSTALL_LIBEXECDIR}/perfduel")
install(EXPORT PerfDuelTargets
  NAMESPACE PerfDuel::
  DESTINATION "${PERFDUEL_INSTALL_CMAKEDIR}")
set(PERFDUEL_CONFIG_MODULE_DIR "${PERFDUEL_INSTALL_CMAKEDIR}")
set(PERFDUEL_CONFIG_TEMPLATES_DIR "${PERFDUEL_INSTALL_TEMPLATESDIR}")
configure_package_config_file("${_perfduel_module_dir}/PerfDuelConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/install-package/PerfDuelConfig.cmake"
  INSTALL_DESTINATION "${PERFDUEL_INSTALL_CMAKEDIR}"
  PATH_VARS PERFDUEL_CONFIG_MODULE_DIR PERFDUEL_CONFIG_TEMPLATES_DIR)
install(FILES
  "${PROJECT_BINARY_DIR}/install-package/PerfDuelConfig.cmake"
  "${PROJECT_BINARY_DIR}/PerfDuelConfigVersion.cmake"
  ${_perfduel_package_files}
  DESTINATION "${PERFDUEL_INSTALL_CMAKEDIR}")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/templates/"
  DESTINATION "${PERFDUEL_INSTALL_TEMPLATESDIR}")
# The README beside docs/, so that its links to docs/*.md hold in the installed copy.
install(FILES "${PROJECT_SOURCE_DIR}/README.md" DESTINATION "${PERFDUEL_INSTALL_DOCDIR}")
# The licence: its full text, and the Debian package's copyright file (machine-readable format).
install(FILES "${PROJECT_SOURCE_DIR}/LICENSE" "${PROJECT_SOURCE_DIR}/CHANGELOG.md"
              "${PROJECT_SOURCE_DIR}/packaging/copyright"
  DESTINATION "${PERFDUEL_INSTALL_DOCDIR}")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/docs/" DESTINATION "${PERFDUEL_INSTALL_DOCDIR}/docs")

# --- build tree: the module is read from the source tree, so edits need no re-export ---
export(EXPORT PerfDuelTargets
  NAMESPACE PerfDuel::
  FILE "${PROJECT_BINARY_DIR}/PerfDuelTargets.cmake")
set(PERFDUEL_CONFIG_MODULE_DIR "${_perfduel_module_dir}")
set(PERFDUEL_CONFIG_TEMPLATES_DIR "${PROJECT_SOURCE_DIR}/templates")
configure_package_config_file("${_perfduel_module_dir}/PerfDuelConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/PerfDuelConfig.cmake"
  INSTALL_DESTINATION "${PROJECT_BINARY_DIR}"
  INSTALL_PREFIX "${PROJECT_BINARY_DIR}"
  PATH_VARS PERFDUEL_CONFIG_MODULE_DIR PERFDUEL_CONFIG_TEMPLATES_DIR)

# --- sub-project: the targets already exist, so the package only needs the module ---
if(NOT PerfDuel_IS_TOP_LEVEL)
  file(WRITE "${CMAKE_FIND_PACKAGE_REDIRECTS_DIR}/perfduel-config.cmake"
    "# Written by perfduel's cmake/Install.cmake: perfduel is a sub-project of this build.\n"
    "set(PERFDUEL_TEMPLATES_DIR \"${PROJECT_SOURCE_DIR}/templates\")\n"
    "include(\"${_perfduel_module_dir}/PerfDuel.cmake\")\n")
  file(COPY_FILE "${PROJECT_BINARY_DIR}/PerfDuelConfigVersion.cmake"
    "${CMAKE_FIND_PACKAGE_REDIRECTS_DIR}/perfduel-config-version.cmake" ONLY_IF_DIFFERENT)
endif()
unset(_perfduel_package_files)
unset(_perfduel_module_dir)
