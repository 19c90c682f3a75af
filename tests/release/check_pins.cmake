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

# Until the release is tagged, its section is where the changes go: [VERSION] without a date
# (Keep a Changelog dates a section when it is released, `## [0.2.0] - 2026-12-01`) is the
# release the pins name, so an entry under [Unreleased] would be shipped by it yet not listed in
# it. Once [VERSION] is dated, new entries go under [Unreleased] until project() names the next.
string(FIND "${changelog}" "\n## [Unreleased]\n" unreleased_at)
if(unreleased_at GREATER -1)
  math(EXPR unreleased_at "${unreleased_at} + 17")
  string(SUBSTRING "${changelog}" ${unreleased_at} -1 unreleased)
  string(FIND "${unreleased}" "\n## [" next_at)
  if(next_at GREATER -1)
    string(SUBSTRING "${unreleased}" 0 ${next_at} unreleased)
  endif()
  if(unreleased MATCHES "(^|\n)(- |### )" AND NOT changelog MATCHES "\n## \\[${VERSION}\\] - [0-9]")
    string(APPEND failures "\n  - CHANGELOG.md: [Unreleased] has entries while [${VERSION}] is not released "
      "(no date): they ship with v${VERSION}, which the pins name; move them into [${VERSION}]")
  endif()
endif()

# The release a pin names ships what the templates use: each input of the composite action and
# each PERFDUEL_* variable of the GitLab include file is named in CHANGELOG.md at or below the
# section [VERSION], not only under [Unreleased].
string(FIND "${changelog}" "\n## [${VERSION}]" released_at)
if(released_at GREATER -1)
  string(SUBSTRING "${changelog}" ${released_at} -1 released)
  file(READ "${SOURCE_DIR}/templates/gate/action.yml" action)
  string(REGEX MATCH "\ninputs:\n.*\noutputs:" inputs_block "${action}")
  string(REGEX MATCHALL "\n  [a-z][a-z-]*:" inputs "${inputs_block}")
  file(READ "${SOURCE_DIR}/templates/gitlab-perfduel.yml" include_file)
  string(REGEX MATCHALL "\n  PERFDUEL_[A-Z_]+:" variables "${include_file}")
  foreach(name IN LISTS inputs variables ITEMS PERFDUEL_REPOSITORY)
    string(REGEX REPLACE "^\n  |:$" "" name "${name}")
    if(NOT released MATCHES "`${name}`")
      string(APPEND failures "\n  - ${name} (templates/) is not in CHANGELOG.md's [${VERSION}] or an older section")
    endif()
  endforeach()
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
                  "releases/download/([^/ ]+)/" "^ *PERFDUEL_VERSION: *([^ #`,;)]+)"
                  "perfduel-([0-9][0-9.]*[0-9])-linux-" "perfduel_([0-9][0-9.]*[0-9])_amd64"
                  "^    default: (v[0-9][^ ]*)$")
      if(line MATCHES "${regex}")
        set(ref "${CMAKE_MATCH_1}")
        if(ref MATCHES "^[0-9]")
          set(ref "v${ref}")   # a file name: perfduel-0.2.0-linux-x86_64.tar.gz
        endif()
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
