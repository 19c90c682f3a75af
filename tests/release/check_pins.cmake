# One version in one place: project() in the top-level CMakeLists.txt. The templates and docs name
# the release tag that version becomes (v<version>, made by templates/github-release.yml), never
# another: no `@v1`, no moving branch where a user pins perfduel.
#
#   cmake -DSOURCE_DIR=<source tree> -DVERSION=<x.y.z> -P check_pins.cmake
cmake_minimum_required(VERSION 3.25)
set(failures "")
foreach(file LICENSE CHANGELOG.md templates/github-release.yml)
  if(NOT EXISTS "${SOURCE_DIR}/${file}")
    string(APPEND failures "\n  - ${file} is missing")
  endif()
endforeach()
file(READ "${SOURCE_DIR}/LICENSE" license)
if(NOT license MATCHES "Apache License\n +Version 2\\.0")
  string(APPEND failures "\n  - LICENSE is not the Apache License 2.0")
endif()
file(READ "${SOURCE_DIR}/CHANGELOG.md" changelog)
if(NOT changelog MATCHES "\n## \\[?${VERSION}\\]?")
  string(APPEND failures "\n  - CHANGELOG.md has no section for ${VERSION}")
endif()

file(GLOB_RECURSE files RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/templates/*" "${SOURCE_DIR}/docs/*.md")
list(APPEND files README.md)
foreach(file IN LISTS files)
  file(STRINGS "${SOURCE_DIR}/${file}" lines)
  set(n 0)
  foreach(line IN LISTS lines)
    math(EXPR n "${n} + 1")
    # A perfduel reference: the action (perfduel/templates/gate@REF), the include's raw URL
    # (perfduel/REF/templates/), a release's download (download/REF/), PERFDUEL_VERSION: REF.
    foreach(regex "perfduel/templates/gate@([^ #`,;)]+)" "perfduel/(v?[0-9][^/ ]*|main|master)/templates/"
                  "releases/download/([^/ ]+)/" "^ *PERFDUEL_VERSION: *([^ #`,;)]+)")
      if(line MATCHES "${regex}")
        set(ref "${CMAKE_MATCH_1}")
        if(NOT ref STREQUAL "v${VERSION}" AND NOT ref MATCHES "\\$")
          string(APPEND failures "\n  - ${file}:${n}: names perfduel \"${ref}\", expected v${VERSION}")
        endif()
      endif()
    endforeach()
  endforeach()
endforeach()
if(failures)
  message(FATAL_ERROR "the version ${VERSION} (CMakeLists.txt's project()) is not what is pinned:${failures}")
endif()
message(STATUS "v${VERSION}: LICENSE, CHANGELOG.md, and every pin in templates/ and docs/")
