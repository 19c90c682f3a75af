# The Debian package, end to end and without installing it: cpack builds it from a perfduel build
# tree into a scratch directory, dpkg-deb shows its fields and unpacks it into a scratch root,
# and a consumer project's perf gates run the unpacked driver (the installed_package scenario of
# tests/cmake/run_scenario.cmake, whose gates decide on a printed count, not on timing).
#
#   cmake -DCPACK_COMMAND=<cpack> -DDPKG_DEB=<dpkg-deb> -DPERFDUEL_BUILD_DIR=<build tree>
#         -DPERFDUEL_SOURCE_DIR=<source tree> -DPERFDUEL_VERSION=<x.y.z>
#         -DWORK_DIR=<scratch directory> -DGENERATOR=<generator> -P check_deb.cmake
cmake_minimum_required(VERSION 3.25)

foreach(required CPACK_COMMAND DPKG_DEB PERFDUEL_BUILD_DIR PERFDUEL_SOURCE_DIR PERFDUEL_VERSION
                 WORK_DIR GENERATOR)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "check_deb.cmake: -D${required}=... is required")
  endif()
endforeach()
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(root "${WORK_DIR}/root")

set(failures "")
function(fail what)
  set(failures "${failures}\n  - ${what}" PARENT_SCOPE)
endfunction()

# run_checked(<out_var> COMMAND...): the command's stdout; stops the test when it fails.
function(run_checked out_var)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " printable "${ARGN}")
    message(FATAL_ERROR "check_deb.cmake: ${printable} failed (${rc}):\n${out}${err}")
  endif()
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()

# --- the package -----------------------------------------------------------------------------
string(TIMESTAMP started "%s")
run_checked(cpack_out "${CPACK_COMMAND}" -G DEB -B "${WORK_DIR}/out"
  --config "${PERFDUEL_BUILD_DIR}/CPackConfig.cmake")
string(TIMESTAMP finished "%s")
math(EXPR seconds "${finished} - ${started}")
message(STATUS "cpack -G DEB: ${seconds} s")
run_checked(arch dpkg --print-architecture)
string(STRIP "${arch}" arch)
set(deb "${WORK_DIR}/out/perfduel_${PERFDUEL_VERSION}_${arch}.deb")
if(NOT EXISTS "${deb}")
  file(GLOB written "${WORK_DIR}/out/*.deb")
  message(FATAL_ERROR "check_deb.cmake: cpack did not write ${deb} (it wrote: ${written})\n${cpack_out}")
endif()

# expect_field(<field> <regex>...): the control field matches every regex.
function(expect_field field)
  run_checked(value "${DPKG_DEB}" --field "${deb}" ${field})
  string(STRIP "${value}" value)
  message(STATUS "${field}: ${value}")
  foreach(regex IN LISTS ARGN)
    if(NOT value MATCHES "${regex}")
      set(failures "${failures}\n  - ${field} is \"${value}\", expected a match of ${regex}")
    endif()
  endforeach()
  set(failures "${failures}" PARENT_SCOPE)
endfunction()
expect_field(Package "^perfduel$")
expect_field(Version "^${PERFDUEL_VERSION}$")
expect_field(Architecture "^${arch}$")
expect_field(Section "^devel$")
expect_field(Maintainer ".")
expect_field(Description "^performance regression gate for C\\+\\+ projects on CMake and CTest\n .*add_perf_gate")
# Computed by dpkg-shlibdeps (versions from the symbols the executables use), beside the commands
# the gate runs.
expect_field(Depends
  "(^|, )libc6 \\(>= [^)]+\\)"
  "(^|, )libstdc\\+\\+6 \\(>= [^)]+\\)"
  "(^|, )libyaml-cpp[^ ,]* \\(>= [^)]+\\)"
  "(^|, )cmake \\(>= 3\\.25\\)(,|$)"
  "(^|, )git(,|$)")

# Everything under /usr, nothing under /usr/local.
run_checked(listing "${DPKG_DEB}" --contents "${deb}")
string(REGEX MATCHALL "[^\n]+" entries "${listing}")
foreach(entry IN LISTS entries)
  if(NOT entry MATCHES " \\./usr/" OR entry MATCHES " \\./usr/local/")
    fail("outside /usr, or under /usr/local: ${entry}")
  endif()
endforeach()

# --- its files, unpacked ---------------------------------------------------------------------
run_checked(ignored "${DPKG_DEB}" --extract "${deb}" "${root}")
foreach(file
    usr/bin/perfduel
    usr/libexec/perfduel/perfduel-exec
    usr/libexec/perfduel/libperfduel-alloc.so
    usr/lib/cmake/PerfDuel/PerfDuelConfig.cmake
    usr/lib/cmake/PerfDuel/PerfDuelConfigVersion.cmake
    usr/lib/cmake/PerfDuel/PerfDuelTargets.cmake
    usr/lib/cmake/PerfDuel/PerfDuel.cmake
    usr/lib/cmake/PerfDuel/PerfDuelBaseline.cmake
    usr/share/perfduel/templates/perfduel.yaml
    usr/share/perfduel/templates/github-actions.yml
    usr/share/perfduel/templates/gitlab-ci.yml
    usr/share/doc/perfduel/README.md
    usr/share/doc/perfduel/copyright
    usr/share/doc/perfduel/LICENSE
    usr/share/doc/perfduel/CHANGELOG.md
    usr/share/doc/perfduel/docs/install.md
    usr/share/doc/perfduel/docs/cmake.md)
  if(NOT EXISTS "${root}/${file}")
    fail("the package has no /${file}")
  endif()
endforeach()
file(READ "${root}/usr/share/doc/perfduel/copyright" copyright)
if(NOT copyright MATCHES "^Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"
   OR NOT copyright MATCHES "\nLicense: Apache-2.0\n")
  fail("/usr/share/doc/perfduel/copyright is not a machine-readable copyright file naming Apache-2.0")
endif()
# The CMake package names no path of the tree it was built from: it works wherever it is unpacked.
file(GLOB package_files "${root}/usr/lib/cmake/PerfDuel/*.cmake")
foreach(file IN LISTS package_files)
  file(READ "${file}" content)
  foreach(tree "${PERFDUEL_BUILD_DIR}" "${PERFDUEL_SOURCE_DIR}")
    string(FIND "${content}" "${tree}" at)
    if(NOT at EQUAL -1)
      fail("${file} names ${tree}")
    endif()
  endforeach()
endforeach()
run_checked(version "${root}/usr/bin/perfduel" --version)
if(NOT version MATCHES "${PERFDUEL_VERSION}")
  fail("${root}/usr/bin/perfduel --version printed \"${version}\"")
endif()
if(failures)
  message(FATAL_ERROR "the package ${deb} failed its checks:${failures}")
endif()

# --- a consumer's perf gates on it -----------------------------------------------------------
execute_process(COMMAND "${CMAKE_COMMAND}"
    -DSCENARIO=installed_package
    "-DPERFDUEL_PREFIX=${root}/usr"
    "-DPERFDUEL_BUILD_DIR=${PERFDUEL_BUILD_DIR}"
    "-DPERFDUEL_SOURCE_DIR=${PERFDUEL_SOURCE_DIR}"
    "-DWORK_ROOT=${WORK_DIR}/consumer"
    "-DGENERATOR=${GENERATOR}"
    -P "${PERFDUEL_SOURCE_DIR}/tests/cmake/run_scenario.cmake"
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the consumer's perf gates on the unpacked package failed (${rc})")
endif()
message(STATUS "package ${deb}: ok")
