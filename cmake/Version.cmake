# The version: project()'s, the one place it is written. The commit it is built from is read at
# configure time, so that `perfduel --version` names both; a source tree that is no git checkout
# (a release's source archive) says "unknown", or what -DPERFDUEL_GIT_COMMIT=... gives.
#
# Only main.cpp includes the generated header (version_commit.hpp): a new commit recompiles one
# file, not the library.
set(PERFDUEL_GIT_COMMIT "" CACHE STRING
  "The commit perfduel --version names; empty: read from git at configure time")
mark_as_advanced(PERFDUEL_GIT_COMMIT)

set(_perfduel_commit "${PERFDUEL_GIT_COMMIT}")
if(_perfduel_commit STREQUAL "")
  set(_perfduel_commit unknown)
  find_package(Git QUIET)
  if(GIT_FOUND AND EXISTS "${PROJECT_SOURCE_DIR}/.git")
    execute_process(COMMAND "${GIT_EXECUTABLE}" rev-parse --short=12 HEAD
      WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}"
      RESULT_VARIABLE _perfduel_rc OUTPUT_VARIABLE _perfduel_head ERROR_QUIET
      OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(_perfduel_rc EQUAL 0 AND _perfduel_head MATCHES "^[0-9a-f]+$")
      set(_perfduel_commit "${_perfduel_head}")
      execute_process(COMMAND "${GIT_EXECUTABLE}" status --porcelain --untracked-files=no
        WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}"
        RESULT_VARIABLE _perfduel_rc OUTPUT_VARIABLE _perfduel_dirty ERROR_QUIET)
      if(_perfduel_rc EQUAL 0 AND NOT _perfduel_dirty STREQUAL "")
        string(APPEND _perfduel_commit "-dirty")
      endif()
      # A commit, a checkout or a reset moves HEAD's reflog: configure again, so the commit holds.
      execute_process(COMMAND "${GIT_EXECUTABLE}" rev-parse --path-format=absolute --git-path logs/HEAD
        WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}"
        RESULT_VARIABLE _perfduel_rc OUTPUT_VARIABLE _perfduel_reflog ERROR_QUIET
        OUTPUT_STRIP_TRAILING_WHITESPACE)
      if(_perfduel_rc EQUAL 0 AND EXISTS "${_perfduel_reflog}")
        set_property(DIRECTORY "${PROJECT_SOURCE_DIR}" APPEND PROPERTY
          CMAKE_CONFIGURE_DEPENDS "${_perfduel_reflog}")
      endif()
    endif()
  endif()
endif()
set(PERFDUEL_COMMIT "${_perfduel_commit}")
configure_file("${CMAKE_CURRENT_LIST_DIR}/version_commit.hpp.in"
  "${PROJECT_BINARY_DIR}/generated/version_commit.hpp" @ONLY)
message(STATUS "perfduel ${PROJECT_VERSION} (commit ${PERFDUEL_COMMIT})")
unset(_perfduel_commit)
unset(_perfduel_head)
unset(_perfduel_dirty)
unset(_perfduel_reflog)
unset(_perfduel_rc)
