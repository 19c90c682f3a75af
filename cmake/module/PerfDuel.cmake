# perfduel: CMake integration. Loaded by find_package(PerfDuel) (install or build tree) and by
# perfduel's own top-level CMakeLists (add_subdirectory / FetchContent).

#[=======================================================================[.rst:
PerfDuel
--------

A performance regression gate for CTest. ``add_perf_gate()`` registers a test that builds the
benchmark at the merge-base commit (the *baseline*) and duels it against the working tree's
build (the *candidate*) with ``perfduel compare``, alternately and pinned, until the
confidence interval of their ratio decides. ``ctest -L perf`` is the whole interface in CI.

.. code-block:: cmake

  find_package(PerfDuel REQUIRED)
  enable_testing()
  add_perf_gate(NAME sort_speed TARGET bench_sort CONFIG perf/sort.yaml)

Testing must be enabled (``enable_testing()`` or ``include(CTest)``) in the top-level directory
and in every directory with a gate: at the end of the top-level directory this is checked, and
the configure stops otherwise, since ``ctest -L perf`` would find no test and pass. (With
``include(CTest)`` and ``BUILD_TESTING`` off it only says so.)

Imported targets
^^^^^^^^^^^^^^^^

``PerfDuel::perfduel``
  The driver executable (an imported target from an install or build tree, an ALIAS of the
  ``perfduel`` target when perfduel is a sub-project via ``add_subdirectory``/FetchContent).

Commands
^^^^^^^^

.. command:: add_perf_gate

  .. code-block:: cmake

    add_perf_gate(NAME <name>
                  TARGET <target>
                  [ARGS <arg>...]
                  [FRAMEWORK <gbench|catch2>]
                  [CONFIG <file.yaml>]
                  [BASELINE_REF <ref> | BASELINE_EXECUTABLE <path>]
                  [NEW_TARGET <SKIP|FAIL>]
                  [WORKING_DIRECTORY <dir>]
                  [LABELS <label>...]
                  [TIMEOUT <seconds>]
                  [CPUS <n>]
                  [JSON_REPORT <file.json>]
                  [MARKDOWN_REPORT <file.md>]
                  [SVG_REPORT <file.svg>])

  Registers two CTest tests:

  ``perf.<name>.baseline``
    Fixture setup (``FIXTURES_SETUP perf.<name>.baseline``, labels ``perf``,
    ``perf-baseline`` and ``LABELS``, ``RUN_SERIAL``). Runs ``PerfDuelBaseline.cmake``, which
    computes ``git merge-base HEAD <ref>``, checks that commit out with
    ``git worktree add --detach`` under ``${CMAKE_BINARY_DIR}/perfduel/baselines``, configures
    it with the same generator, compiler, build type (or configurations) and compiler/linker
    flags, and the project's own cache options (entries given with ``-D``/``-C``, and options
    the project declared that are not advanced or find results; never ``CMAKE_*``,
    ``PERFDUEL_*``, ``FETCHCONTENT_*`` nor paths inside this build tree), so that the same code
    makes the same program at the other path also with ``-fmacro-prefix-map`` options mapping
    its directories onto this build's (GCC 8+, Clang 10+) and ``CMAKE_BUILD_RPATH_USE_ORIGIN``
    (this build's executables and shared libraries get ``BUILD_RPATH_USE_ORIGIN`` too, unless
    the project sets ``CMAKE_BUILD_RPATH_USE_ORIGIN`` or the target its property), and builds only
    ``<target>`` (in the configuration of ``ctest -C`` with a multi-config generator). A
    ``<target>`` that the commit defines but its configure did not enable is an error naming
    the forwarded options. The result is cached by commit id: a second run does not rebuild,
    a new merge-base does. Not registered when ``BASELINE_EXECUTABLE`` is given. An error is
    the line ``perfduel: error: <why>`` (``FAIL_REGULAR_EXPRESSION``). With
    ``NEW_TARGET SKIP`` it also has ``SKIP_REGULAR_EXPRESSION "perfduel: skipped: "``.

  ``perf.<name>``
    Runs ``perfduel compare --baseline '<baseline> ARGS...' --candidate '<target> ARGS...'``
    (which passes at once, with 0 measured rounds, when the two are identical programs: the
    same loaded executable, shared libraries and argument files; see ``identical_programs``
    in ``templates/perfduel.yaml``)
    with ``--ctest-measurements`` (prints ``<CTestMeasurement>`` tags and
    ``CTEST_FULL_OUTPUT``), ``--json``, ``--markdown`` and ``--max-seconds`` (``TIMEOUT`` minus
    a margin, so the driver ends with an inconclusive verdict before CTest would kill it; with
    ``PERFDUEL_SUITE_SECONDS``, at most the gate's share of it).
    Properties: ``LABELS perf;<LABELS>``, ``RUN_SERIAL``, ``TIMEOUT``,
    ``SKIP_RETURN_CODE 77`` (inconclusive is reported as skipped), ``FIXTURES_REQUIRED``
    ``perf.<name>.baseline``, ``ATTACHED_FILES <JSON_REPORT>;<SVG_REPORT>``; with CMake 3.27
    or newer also ``TIMEOUT_SIGNAL_NAME SIGTERM`` and ``TIMEOUT_SIGNAL_GRACE_PERIOD 5``, so that
    a gate CTest times out kills its runs and writes its partial report (exit 130) before
    CTest's SIGKILL; older CTest kills the driver's whole process tree with SIGKILL at once.
    With ``NEW_TARGET SKIP`` (the default) and a baseline that is built, the driver also gets
    ``--skip-if <baseline>.no-baseline``: the marker the baseline step leaves when the commit
    has no ``<target>``, which makes the test skipped (77) with the reason printed.

  The target ``perfduel_baselines`` (and ``perfduel_baseline_<name>`` per gate) builds the
  baselines explicitly, e.g. ahead of ``ctest``.

  ``NAME <name>``
    Required. The test is called ``perf.<name>``; letters, digits and ``_.+-``.

  ``TARGET <target>``
    Required. An executable target built by this project (not imported): the benchmark.
    The same target name is built at the baseline commit; see ``NEW_TARGET`` for a baseline
    without it.

  ``ARGS <arg>...``
    Arguments passed to both the baseline and the candidate. Default: none.
    Generator expressions are allowed.

  ``FRAMEWORK <gbench|catch2>``
    The benchmark framework of ``TARGET``, whose output the ``google_benchmark:`` or
    ``catch2:`` metrics read: ``gbench`` appends ``--benchmark_format=json`` to the arguments;
    ``catch2`` appends ``-r xml`` (Catch2's XML reporter) and, when ``ARGS`` is not given, the
    test spec ``[!benchmark]`` (run only the test cases tagged as benchmarks). Default: none
    (the arguments are passed as they are).

  ``CONFIG <file.yaml>``
    The ``perfduel.yaml`` with thresholds, metrics and budget; relative to
    ``CMAKE_CURRENT_SOURCE_DIR``, must exist. Default: ``PERFDUEL_CONFIG`` if set, else none
    (the driver's defaults: wall time gated at 2 %).

  ``BASELINE_REF <ref>``
    The baseline is ``git merge-base HEAD <ref>``, evaluated each time the tests run.
    Default: the cache variable ``PERFDUEL_BASELINE_REF`` (default ``origin/main``; when
    ``origin/main`` does not exist, ``main`` is used).

  ``BASELINE_EXECUTABLE <path>``
    Compare against this prebuilt executable instead of building a baseline (no fixture).
    Relative to ``CMAKE_CURRENT_SOURCE_DIR``; may be a generator expression. Exclusive with
    ``BASELINE_REF``. Default: none.

  ``NEW_TARGET <SKIP|FAIL>``
    What the gate does when the baseline commit has no ``<target>`` (the branch adds the
    benchmark) or no ``CMakeLists.txt`` at all (the branch adds the CMake project): there is
    nothing to compare against yet. ``SKIP`` reports both ``perf.<name>.baseline`` and
    ``perf.<name>`` as skipped, each printing ``perfduel: skipped: <why>``; the Markdown report
    says so too. ``FAIL`` makes it an error of the baseline fixture (``perf.<name>`` is then
    not run). Not allowed with ``BASELINE_EXECUTABLE``. Default: ``SKIP``.

  ``WORKING_DIRECTORY <dir>``
    Where both programs run; relative to ``CMAKE_CURRENT_BINARY_DIR``.
    Default: ``CMAKE_CURRENT_BINARY_DIR``.

  ``LABELS <label>...``
    Labels added to ``perf`` (and to ``PERFDUEL_LABELS``). Default: none.

  ``TIMEOUT <seconds>``
    CTest timeout of ``perf.<name>``, a whole number of seconds >= 10. The driver's budget is
    capped at ``TIMEOUT`` minus 10 % (at least 5 s, at most 60 s).
    Default: ``PERFDUEL_TIMEOUT`` if set, else 1500.

  ``CPUS <n>``
    The gate asks CTest for ``<n>`` CPUs of its own: ``RESOURCE_GROUPS "<n>,cpus:1"``
    (``<n>`` groups of one slot on one ``cpus`` resource each). Under CTest's resource
    allocation the driver pins both programs to exactly the CPUs it was given
    (``CTEST_RESOURCE_GROUP_*``). When ``PERFDUEL_RESOURCE_SPEC_FILE`` is set, the gate is not
    ``RUN_SERIAL`` and ``ctest -j`` runs gates side by side, each on its own CPUs; the driver
    then refuses to run without an allocation rather than share CPUs unknowingly. Without a
    spec file the gate stays ``RUN_SERIAL`` and picks its CPUs itself (``cpus: auto``).
    A whole number >= 1. Default: ``PERFDUEL_CPUS`` if set, else none (no resource groups).

  ``JSON_REPORT <file.json>``
    Full report (verdicts, raw samples); relative to ``CMAKE_CURRENT_BINARY_DIR``.
    Default: ``${PERFDUEL_REPORT_DIR}/<name>.json``.

  ``MARKDOWN_REPORT <file.md>``
    Markdown summary for a pull-request comment or job summary; relative to
    ``CMAKE_CURRENT_BINARY_DIR``. Default: ``JSON_REPORT`` with the extension ``.md``.

  ``SVG_REPORT <file.svg>``
    Plot of the duel (every run by round, each round's change with the estimate and its
    interval); relative to ``CMAKE_CURRENT_BINARY_DIR``. Default: ``JSON_REPORT`` with the
    extension ``.svg``.

Variables
^^^^^^^^^

Project-wide defaults, read when ``add_perf_gate()`` is called:

``PERFDUEL_BASELINE_REF``
  Cache variable; default ``BASELINE_REF``. Default ``origin/main`` (falling back to ``main``).
``PERFDUEL_CONFIG``
  Default ``CONFIG``.
``PERFDUEL_TIMEOUT``
  Default ``TIMEOUT`` (1500).
``PERFDUEL_LABELS``
  Labels added to every gate.
``PERFDUEL_REPORT_DIR``
  Directory of the default reports. Default ``${CMAKE_BINARY_DIR}/perfduel/reports``.
``PERFDUEL_COMPARE_ARGS``
  Extra ``perfduel compare`` arguments for every gate, e.g. ``--seed;1``. Default: none.
``PERFDUEL_CPUS``
  Default ``CPUS``.
``PERFDUEL_RESOURCE_SPEC_FILE``
  A CTest resource spec file (``perfduel doctor --resource-spec FILE`` writes one). Gates
  with ``CPUS`` then run in parallel; ``add_perf_gate()`` sets ``CTEST_RESOURCE_SPEC_FILE``
  in the calling directory, so a plain ``ctest`` uses it. Default: none.
``PERFDUEL_BASELINE_DIR``
  Where baseline worktrees and builds live. Default ``${CMAKE_BINARY_DIR}/perfduel/baselines``.
``PERFDUEL_BASELINE_CMAKE_ARGS``
  Extra arguments for configuring the baseline, after the forwarded cache options (so they
  win), e.g. ``-DMY_OPTION=ON``. Default: none.
``PERFDUEL_BASELINE_TIMEOUT``
  CTest timeout of ``perf.<name>.baseline`` in seconds. Default 3600.
``PERFDUEL_BASELINE_KEEP``
  How many baseline builds (commits) to keep; older ones are removed. Default 3.
``PERFDUEL_SUITE_SECONDS``
  A duel budget in seconds that all gates share: each gets this divided by the number of gates
  (at least 10 s), or its own budget when smaller. Default: none (each gate its own budget).
``PERFDUEL_IS_BASELINE_BUILD``
  Set by the baseline build itself; ``add_perf_gate()`` then does nothing.

Each variable is validated under its own name (``perfduel: PERFDUEL_BASELINE_KEEP "x" is not
valid; expected ...``). When git is not found, the configure warns.

#]=======================================================================]

include_guard(GLOBAL)

set(PERFDUEL_BASELINE_REF "origin/main" CACHE STRING
  "The perf gates' baseline is the merge-base of HEAD and this git ref (origin/main falls back to main)")

# Only functions and cache variables below: with include_guard(GLOBAL), a directory variable
# set here would be missing in the consumer's directories when perfduel is a sub-project.
#
# The _perfduel_* helpers take what they use as arguments and set their results in the
# variables named by their first arguments (`*_var`). Two values or fewer are positional, more
# are keywords, except the gate's own words: its name, target and ARGS come first, positional,
# since a gate or target named like a keyword (JSON, CONFIG) would be taken for one. A list is
# one quoted value, which keeps its empty and escaped items (PARSE_ARGV keeps one value
# verbatim, and a list's items would lose the empty ones). Besides
# their arguments they read only what CMake itself provides (CMAKE_*, cache entries, global
# and target properties), named in their comments; the project-wide PERFDUEL_* variables are
# read by add_perf_gate() and by _perfduel_check_project_variables, which checks them.
#
# An empty keyword value means "not given" to the helpers. Under CMake 3.31 or newer, with the
# caller's policies, cmake_parse_arguments(PARSE_ARGV) would warn about each one (CMP0174), so
# the helpers are defined with CMP0174 set; add_perf_gate() keeps the caller's policies.
cmake_policy(PUSH)
if(POLICY CMP0174)
  cmake_policy(SET CMP0174 NEW)
endif()

# --- Generic helpers -------------------------------------------------------------------------

# Quotes `word` for the driver's shell-like word splitting: '...' with ' written as '\''.
function(_perfduel_quote_word out_var word)
  string(REPLACE "'" "'\\''" word "${word}")
  set(${out_var} "'${word}'" PARENT_SCOPE)
endfunction()

# Sets `out_var` to `value` resolved against `base` when relative.
function(_perfduel_absolute out_var value base)
  if(value MATCHES "^\\$<" OR IS_ABSOLUTE "${value}")
    set(${out_var} "${value}" PARENT_SCOPE)
  else()
    cmake_path(ABSOLUTE_PATH value BASE_DIRECTORY "${base}" NORMALIZE OUTPUT_VARIABLE value)
    set(${out_var} "${value}" PARENT_SCOPE)
  endif()
endfunction()

# Sets `out_var` to the value of the first of the variables named VARIABLES that is defined
# (even as ""), else to DEFAULT (default: empty). Reads those variables, in the caller's scope.
function(_perfduel_first_defined out_var)
  cmake_parse_arguments(PARSE_ARGV 1 _first "" "DEFAULT" "VARIABLES")
  foreach(variable IN LISTS _first_VARIABLES)
    if(DEFINED ${variable})
      set(${out_var} "${${variable}}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  set(${out_var} "${_first_DEFAULT}" PARENT_SCOPE)
endfunction()

# Sets `out_var` to `set(<name> [==[<value>]==])` lines, one per name and value that follow it,
# the values verbatim (ARGV<i> rather than ARGN, so that a list value stays one value).
function(_perfduel_settings_text out_var)
  set(text "")
  math(EXPR last "${ARGC} - 1")
  foreach(i RANGE 1 ${last} 2)
    math(EXPR value_index "${i} + 1")
    string(APPEND text "set(${ARGV${i}} [==[${ARGV${value_index}}]==])\n")
  endforeach()
  set(${out_var} "${text}" PARENT_SCOPE)
endfunction()

# --- Project-wide variables ------------------------------------------------------------------

# Stops with a message naming VARIABLE when the variable of that name is set to anything but a
# whole number >= MINIMUM; EXPECTED says what it should be. Reads that variable.
function(_perfduel_check_whole_number)
  cmake_parse_arguments(PARSE_ARGV 0 _number "" "VARIABLE;MINIMUM;EXPECTED" "")
  if(NOT DEFINED ${_number_VARIABLE})
    return()
  endif()
  set(value "${${_number_VARIABLE}}")
  if(NOT value MATCHES "^[0-9]+$" OR value LESS _number_MINIMUM)
    message(FATAL_ERROR "perfduel: ${_number_VARIABLE} \"${value}\" is not valid; "
      "expected ${_number_EXPECTED}")
  endif()
endfunction()

# Checks the project-wide variables that every gate reads, each named in its own message. Reads
# PERFDUEL_TIMEOUT, PERFDUEL_BASELINE_TIMEOUT, PERFDUEL_BASELINE_KEEP, PERFDUEL_SUITE_SECONDS,
# PERFDUEL_CONFIG (relative to CMAKE_CURRENT_SOURCE_DIR), PERFDUEL_REPORT_DIR and
# PERFDUEL_BASELINE_DIR: after this check, each of them is either unset or valid (not empty).
function(_perfduel_check_project_variables)
  _perfduel_check_whole_number(VARIABLE PERFDUEL_TIMEOUT MINIMUM 10
    EXPECTED "a whole number of seconds, at least 10 (the default TIMEOUT of every gate)")
  _perfduel_check_whole_number(VARIABLE PERFDUEL_BASELINE_TIMEOUT MINIMUM 1
    EXPECTED "a whole number of seconds, at least 1 (the CTest timeout of each baseline build)")
  _perfduel_check_whole_number(VARIABLE PERFDUEL_BASELINE_KEEP MINIMUM 1
    EXPECTED "a whole number, at least 1 (how many baseline builds to keep)")
  _perfduel_check_whole_number(VARIABLE PERFDUEL_SUITE_SECONDS MINIMUM 10
    EXPECTED "a whole number of seconds, at least 10 (the duel time all gates share)")
  if(DEFINED PERFDUEL_CONFIG AND NOT PERFDUEL_CONFIG STREQUAL "")
    _perfduel_absolute(config "${PERFDUEL_CONFIG}" "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${config}" OR IS_DIRECTORY "${config}")
      message(FATAL_ERROR "perfduel: PERFDUEL_CONFIG \"${config}\" does not exist; expected a "
        "perfduel.yaml (see templates/perfduel.yaml)")
    endif()
  endif()
  foreach(variable PERFDUEL_REPORT_DIR PERFDUEL_BASELINE_DIR)
    if(DEFINED ${variable} AND "${${variable}}" STREQUAL "")
      message(FATAL_ERROR "perfduel: ${variable} is empty; expected a directory (or leave it unset)")
    endif()
  endforeach()
endfunction()

# --- add_perf_gate's arguments, one check each -----------------------------------------------
# Values as add_perf_gate() was given them; an empty one was not given (CMake < 3.31 does not
# tell a keyword with an empty value from an absent one).

# Stops at an argument add_perf_gate() does not know, or a keyword without a value: `unparsed`
# and `missing_values` are cmake_parse_arguments' lists, `expected` add_perf_gate()'s keywords.
# Positional, since a keyword list could take an unknown argument for one of its keywords.
function(_perfduel_check_keywords unparsed missing_values expected)
  string(REPLACE ";" " " expected_keywords "${expected}")
  if(unparsed)
    list(JOIN unparsed " " unknown)
    message(FATAL_ERROR "add_perf_gate: unknown argument(s) \"${unknown}\"; "
      "expected keywords: ${expected_keywords}")
  endif()
  foreach(keyword IN LISTS missing_values)
    message(FATAL_ERROR "add_perf_gate: ${keyword} needs a value")
  endforeach()
endfunction()

# NAME: present, well-formed, unique among the gates so far (the global property
# PERFDUEL_GATES).
function(_perfduel_check_name name)
  if(name STREQUAL "")
    message(FATAL_ERROR "add_perf_gate: NAME is required (the test is called perf.<NAME>)")
  endif()
  if(NOT name MATCHES "^[A-Za-z0-9_+-][A-Za-z0-9_.+-]*$")
    message(FATAL_ERROR "add_perf_gate: NAME \"${name}\" is not valid; "
      "expected letters, digits and _.+- only")
  endif()
  get_property(gates GLOBAL PROPERTY PERFDUEL_GATES)
  if(name IN_LIST gates)
    message(FATAL_ERROR "add_perf_gate: a perf gate named \"${name}\" already exists; "
      "expected a unique NAME")
  endif()
endfunction()

# TARGET of the gate `name`: an executable built here; `out_var` is the real target behind an
# alias.
function(_perfduel_resolve_target out_var name target)
  if(target STREQUAL "")
    message(FATAL_ERROR "add_perf_gate(NAME ${name}): TARGET is required "
      "(the benchmark executable target to compare)")
  endif()
  if(NOT TARGET "${target}")
    message(FATAL_ERROR "add_perf_gate(NAME ${name}): TARGET \"${target}\" is not a target; "
      "expected an executable target defined before add_perf_gate()")
  endif()
  get_target_property(target_type "${target}" TYPE)
  get_target_property(target_imported "${target}" IMPORTED)
  if(NOT target_type STREQUAL "EXECUTABLE" OR target_imported)
    message(FATAL_ERROR "add_perf_gate(NAME ${name}): TARGET \"${target}\" is not an "
      "executable built by this project; expected a target from add_executable() "
      "(the baseline is built from source)")
  endif()
  get_target_property(aliased "${target}" ALIASED_TARGET)
  if(aliased)
    set(target "${aliased}")
  endif()
  set(${out_var} "${target}" PARENT_SCOPE)
endfunction()

# BASELINE_REF, BASELINE_EXECUTABLE and NEW_TARGET of the gate `name` (for the messages, with
# its `target`); DEFAULT_REF is the ref without BASELINE_REF (PERFDUEL_BASELINE_REF). Sets `ref_var`
# (empty with a prebuilt baseline), `executable_var` (BASELINE_EXECUTABLE relative to
# CMAKE_CURRENT_SOURCE_DIR; empty when built from git) and `new_target_var`.
function(_perfduel_resolve_baseline ref_var executable_var new_target_var name target)
  cmake_parse_arguments(PARSE_ARGV 5 _baseline "" "REF;EXECUTABLE;NEW_TARGET;DEFAULT_REF" "")
  set(given_ref "${_baseline_REF}")
  set(given_executable "${_baseline_EXECUTABLE}")
  set(given_new_target "${_baseline_NEW_TARGET}")
  if(NOT given_ref STREQUAL "" AND NOT given_executable STREQUAL "")
    message(FATAL_ERROR "add_perf_gate(NAME ${name}): BASELINE_REF and BASELINE_EXECUTABLE "
      "exclude each other; expected one of them (or neither)")
  endif()
  set(ref "")
  set(executable "")
  if(NOT given_executable STREQUAL "")
    _perfduel_absolute(executable "${given_executable}" "${CMAKE_CURRENT_SOURCE_DIR}")
  else()
    set(ref "${given_ref}")
    if(ref STREQUAL "")
      set(ref "${_baseline_DEFAULT_REF}")
    elseif(NOT _baseline_DEFAULT_REF STREQUAL "origin/main" AND NOT _baseline_DEFAULT_REF STREQUAL ref)
      # CI chose the baseline for this event (-DPERFDUEL_BASELINE_REF): a pull request's target
      # branch, the commit a push replaced. The gate's own ref would compare with something else.
      message(WARNING "add_perf_gate(NAME ${name}): BASELINE_REF \"${ref}\" overrides "
        "PERFDUEL_BASELINE_REF \"${_baseline_DEFAULT_REF}\", which CI sets per event; drop "
        "BASELINE_REF to compare with what CI chose")
    endif()
    if(ref STREQUAL "" OR ref MATCHES "^-|[ \t\n]")
      message(FATAL_ERROR "add_perf_gate(NAME ${name}): BASELINE_REF \"${ref}\" is "
        "not valid; expected a git ref such as origin/main (see PERFDUEL_BASELINE_REF)")
    endif()
  endif()
  set(new_target SKIP)
  if(NOT given_new_target STREQUAL "")
    if(NOT given_executable STREQUAL "")
      message(FATAL_ERROR "add_perf_gate(NAME ${name}): NEW_TARGET and BASELINE_EXECUTABLE "
        "exclude each other; expected NEW_TARGET only with a baseline built from git")
    endif()
    if(NOT given_new_target MATCHES "^(SKIP|FAIL)$")
      message(FATAL_ERROR "add_perf_gate(NAME ${name}): NEW_TARGET \"${given_new_target}\" is "
        "not valid; expected SKIP or FAIL (what to do when the baseline commit has no target "
        "\"${target}\")")
    endif()
    set(new_target "${given_new_target}")
  endif()
  set(${ref_var} "${ref}" PARENT_SCOPE)
  set(${executable_var} "${executable}" PARENT_SCOPE)
  set(${new_target_var} "${new_target}" PARENT_SCOPE)
endfunction()

# The gate `name`'s CONFIG (or PERFDUEL_CONFIG): `out_var` is `config` relative to
# CMAKE_CURRENT_SOURCE_DIR, an existing file, or "" for the driver's defaults.
function(_perfduel_resolve_config out_var name config)
  if(NOT config STREQUAL "")
    _perfduel_absolute(config "${config}" "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${config}" OR IS_DIRECTORY "${config}")
      message(FATAL_ERROR "add_perf_gate(NAME ${name}): CONFIG file \"${config}\" does not "
        "exist; expected a perfduel.yaml (see templates/perfduel.yaml)")
    endif()
  endif()
  set(${out_var} "${config}" PARENT_SCOPE)
endfunction()

# The gate `name`'s TIMEOUT (or PERFDUEL_TIMEOUT), checked; `max_seconds_var` is the driver's
# budget inside it: TIMEOUT minus a margin of 10 %, at least 5 s and at most 60 s, so the duel
# ends inconclusive before CTest kills it.
function(_perfduel_check_timeout max_seconds_var name timeout)
  if(NOT timeout MATCHES "^[0-9]+$" OR timeout LESS 10)
    message(FATAL_ERROR "add_perf_gate(NAME ${name}): TIMEOUT \"${timeout}\" is not valid; "
      "expected a whole number of seconds, at least 10")
  endif()
  math(EXPR margin "${timeout} / 10")
  if(margin LESS 5)
    set(margin 5)
  elseif(margin GREATER 60)
    set(margin 60)
  endif()
  math(EXPR max_seconds "${timeout} - ${margin}")
  set(${max_seconds_var} "${max_seconds}" PARENT_SCOPE)
endfunction()

# JSON_REPORT, MARKDOWN_REPORT and SVG_REPORT of the gate `name` as absolute paths (relative to
# CMAKE_CURRENT_BINARY_DIR); the reports' directories are created. Without JSON_REPORT it is
# <name>.json in REPORT_DIR (PERFDUEL_REPORT_DIR, relative to CMAKE_BINARY_DIR; default
# ${CMAKE_BINARY_DIR}/perfduel/reports); the others default to its path with their extension.
function(_perfduel_resolve_reports json_var markdown_var svg_var name)
  cmake_parse_arguments(PARSE_ARGV 4 _reports "" "REPORT_DIR;JSON;MARKDOWN;SVG" "")
  if(NOT "${_reports_REPORT_DIR}" STREQUAL "")
    _perfduel_absolute(report_dir "${_reports_REPORT_DIR}" "${CMAKE_BINARY_DIR}")
  else()
    set(report_dir "${CMAKE_BINARY_DIR}/perfduel/reports")
  endif()
  if(NOT "${_reports_JSON}" STREQUAL "")
    _perfduel_absolute(json "${_reports_JSON}" "${CMAKE_CURRENT_BINARY_DIR}")
  else()
    set(json "${report_dir}/${name}.json")
  endif()
  if(NOT "${_reports_MARKDOWN}" STREQUAL "")
    _perfduel_absolute(markdown "${_reports_MARKDOWN}" "${CMAKE_CURRENT_BINARY_DIR}")
  else()
    cmake_path(REPLACE_EXTENSION json LAST_ONLY ".md" OUTPUT_VARIABLE markdown)
  endif()
  if(NOT "${_reports_SVG}" STREQUAL "")
    _perfduel_absolute(svg "${_reports_SVG}" "${CMAKE_CURRENT_BINARY_DIR}")
  else()
    cmake_path(REPLACE_EXTENSION json LAST_ONLY ".svg" OUTPUT_VARIABLE svg)
  endif()
  foreach(report IN ITEMS "${json}" "${markdown}" "${svg}")
    if(NOT report MATCHES "\\$<")
      cmake_path(GET report PARENT_PATH report_parent)
      file(MAKE_DIRECTORY "${report_parent}")
    endif()
  endforeach()
  set(${json_var} "${json}" PARENT_SCOPE)
  set(${markdown_var} "${markdown}" PARENT_SCOPE)
  set(${svg_var} "${svg}" PARENT_SCOPE)
endfunction()

# FRAMEWORK of the gate `name`: `out_var` is `args` (a list) followed by the arguments that make
# the benchmark print what its metrics read; `args` unchanged without a FRAMEWORK.
function(_perfduel_framework_args out_var name args)
  cmake_parse_arguments(PARSE_ARGV 3 _framework "" "FRAMEWORK" "")
  if("${_framework_FRAMEWORK}" STREQUAL "")
    set(${out_var} "${args}" PARENT_SCOPE)
    return()
  endif()
  set(args ${args})
  if(_framework_FRAMEWORK STREQUAL "gbench")
    list(APPEND args --benchmark_format=json)
  elseif(_framework_FRAMEWORK STREQUAL "catch2")
    if(NOT args)
      list(APPEND args "[!benchmark]")
    endif()
    list(APPEND args -r xml)
  else()
    message(FATAL_ERROR "add_perf_gate(NAME ${name}): FRAMEWORK "
      "\"${_framework_FRAMEWORK}\" is not valid; expected gbench or catch2")
  endif()
  set(${out_var} "${args}" PARENT_SCOPE)
endfunction()

# The driver: `out_var` is its generator expression. perfduel as a sub-project
# (add_subdirectory/FetchContent) builds it in this tree, perhaps EXCLUDE_FROM_ALL: building
# the gate `name`'s `target` then builds it, so `ctest` finds it.
function(_perfduel_driver out_var name target)
  if(NOT TARGET PerfDuel::perfduel)
    message(FATAL_ERROR "add_perf_gate(NAME ${name}): the target PerfDuel::perfduel does not "
      "exist; expected find_package(PerfDuel REQUIRED) before add_perf_gate()")
  endif()
  get_target_property(driver_imported PerfDuel::perfduel IMPORTED)
  if(NOT driver_imported)
    get_target_property(driver_target PerfDuel::perfduel ALIASED_TARGET)
    if(NOT driver_target)
      set(driver_target PerfDuel::perfduel)
    endif()
    if(NOT driver_target STREQUAL target)
      add_dependencies("${target}" "${driver_target}")
    endif()
  endif()
  set(${out_var} "$<TARGET_FILE:PerfDuel::perfduel>" PARENT_SCOPE)
endfunction()

# The gate `name`'s budget for `--max-seconds`: its own, MAX_SECONDS, or with SUITE_SECONDS
# (PERFDUEL_SUITE_SECONDS) a generator expression for its share of the suite budget, which
# _perfduel_finish sets once every gate is known (properties of the target
# perfduel_suite_budget, and the global property PERFDUEL_SUITE_GATES).
function(_perfduel_duel_budget out_var name)
  cmake_parse_arguments(PARSE_ARGV 2 _budget "" "MAX_SECONDS;SUITE_SECONDS" "")
  if("${_budget_SUITE_SECONDS}" STREQUAL "")
    set(${out_var} "${_budget_MAX_SECONDS}" PARENT_SCOPE)
    return()
  endif()
  if(NOT TARGET perfduel_suite_budget)
    add_library(perfduel_suite_budget INTERFACE)
  endif()
  set_property(TARGET perfduel_suite_budget PROPERTY PERFDUEL_SUITE_SECONDS
    "${_budget_SUITE_SECONDS}")
  set_property(TARGET perfduel_suite_budget PROPERTY PERFDUEL_OWN_SECONDS_${name}
    "${_budget_MAX_SECONDS}")
  set_property(GLOBAL APPEND PROPERTY PERFDUEL_SUITE_GATES "${name}")
  set(${out_var} "$<TARGET_PROPERTY:perfduel_suite_budget,PERFDUEL_SECONDS_${name}>"
    PARENT_SCOPE)
endfunction()

# The stable path that the baseline fixture of the gate `name` points at the current baseline's
# executable of `target`: ${CMAKE_BINARY_DIR}/perfduel/bin/<name>[/<config>]/<file name>, with
# the configuration when the generator is multi-config (the global property
# GENERATOR_IS_MULTI_CONFIG).
function(_perfduel_baseline_link out_var name target)
  set(link "${CMAKE_BINARY_DIR}/perfduel/bin/${name}")
  get_property(multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  if(multi_config)
    string(APPEND link "/$<CONFIG>")
  endif()
  string(APPEND link "/$<TARGET_FILE_NAME:${target}>")
  set(${out_var} "${link}" PARENT_SCOPE)
endfunction()

# --- The baseline's configure arguments ------------------------------------------------------

# The `-D` arguments that make the baseline build like this one: compilers, flags, build type
# (or a multi-config generator's configurations), toolchain, search paths. Semicolons inside
# values are escaped so the list survives expansion. Reads those cache entries,
# CMAKE_BUILD_TYPE, CMAKE_CONFIGURATION_TYPES and the global property ENABLED_LANGUAGES.
function(_perfduel_baseline_cache_args out_var)
  set(names CMAKE_BUILD_TYPE CMAKE_CONFIGURATION_TYPES CMAKE_TOOLCHAIN_FILE CMAKE_MAKE_PROGRAM
    CMAKE_PREFIX_PATH CMAKE_MODULE_PATH CMAKE_FIND_ROOT_PATH CMAKE_SYSROOT
    CMAKE_INTERPROCEDURAL_OPTIMIZATION CMAKE_POSITION_INDEPENDENT_CODE CMAKE_OSX_ARCHITECTURES
    CMAKE_OSX_DEPLOYMENT_TARGET PerfDuel_DIR)
  set(configs DEBUG RELEASE RELWITHDEBINFO MINSIZEREL)
  foreach(config IN LISTS CMAKE_BUILD_TYPE CMAKE_CONFIGURATION_TYPES)
    string(TOUPPER "${config}" config)
    list(APPEND configs ${config})
  endforeach()
  list(REMOVE_DUPLICATES configs)
  foreach(kind EXE SHARED STATIC MODULE)
    list(APPEND names CMAKE_${kind}_LINKER_FLAGS)
    foreach(config IN LISTS configs)
      list(APPEND names CMAKE_${kind}_LINKER_FLAGS_${config})
    endforeach()
  endforeach()
  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  list(REMOVE_ITEM languages NONE RC)
  foreach(lang IN LISTS languages)
    list(APPEND names CMAKE_${lang}_COMPILER CMAKE_${lang}_COMPILER_LAUNCHER
      CMAKE_${lang}_COMPILER_TARGET CMAKE_${lang}_FLAGS CMAKE_${lang}_STANDARD)
    foreach(config IN LISTS configs)
      list(APPEND names CMAKE_${lang}_FLAGS_${config})
    endforeach()
  endforeach()

  set(args "")
  foreach(name IN LISTS names)
    if(NOT DEFINED CACHE{${name}})
      continue()
    endif()
    get_property(type CACHE ${name} PROPERTY TYPE)
    if(type STREQUAL "INTERNAL" OR type STREQUAL "STATIC")
      continue()
    endif()
    set(value "$CACHE{${name}}")
    string(REPLACE ";" "\\;" value "${value}")
    list(APPEND args "-D${name}:${type}=${value}")
  endforeach()
  set(${out_var} "${args}" PARENT_SCOPE)
endfunction()

# The project's own cache options, so that the baseline is configured like this build (a
# benchmark enabled by -DFOO_BUILD_BENCH=ON exists on both sides). The rule, in order:
#  - never CMake's own entries (CMAKE_*: the toolchain ones are forwarded by
#    _perfduel_baseline_cache_args), perfduel's (PERFDUEL_*, PerfDuel_*), FetchContent's
#    (FETCHCONTENT_*), INTERNAL or STATIC entries, nor a value inside this build tree (the
#    baseline must not write into the candidate's build);
#  - always an entry given on the command line (or with -C) that nothing declared (its help
#    string is CMake's "No help, variable specified on the command line.");
#  - otherwise an entry the project declared, with option() or set(... CACHE ...), unless it
#    is marked advanced or is a find result: find_program/find_library/find_path/find_file
#    ("Path to a ...") or a package location of find_package ("The directory containing a
#    CMake configuration file for ...") - those describe this machine and are found again.
# Forwarding declared options at their current value, changed or not, gives both sides the
# same settings even where the branch changed an option's default. Reads every cache entry
# (the global property CACHE_VARIABLES) and CMAKE_BINARY_DIR.
function(_perfduel_project_cache_args out_var)
  get_property(entries GLOBAL PROPERTY CACHE_VARIABLES)
  list(SORT entries)
  set(args "")
  foreach(name IN LISTS entries)
    if(name MATCHES "^(CMAKE_|PERFDUEL_|PerfDuel_|FETCHCONTENT_)")
      continue()
    endif()
    get_property(type CACHE ${name} PROPERTY TYPE)
    if(type MATCHES "^(INTERNAL|STATIC)$")
      continue()
    endif()
    get_property(help CACHE ${name} PROPERTY HELPSTRING)
    if(NOT help STREQUAL "No help, variable specified on the command line.")
      get_property(advanced CACHE ${name} PROPERTY ADVANCED)
      if(advanced OR help MATCHES "^Path to a (program|library|file)\\.$"
          OR help MATCHES "^The directory containing a CMake configuration file for ")
        continue()
      endif()
    endif()
    set(value "$CACHE{${name}}")
    cmake_path(IS_PREFIX CMAKE_BINARY_DIR "${value}" NORMALIZE inside_build)
    if(IS_ABSOLUTE "${value}" AND inside_build)
      continue()
    endif()
    string(REPLACE ";" "\\;" value "${value}")
    if(type STREQUAL "UNINITIALIZED")
      list(APPEND args "-D${name}=${value}")
    else()
      list(APPEND args "-D${name}:${type}=${value}")
    endif()
  endforeach()
  set(${out_var} "${args}" PARENT_SCOPE)
endfunction()


# --- The same program, built elsewhere ------------------------------------------------------
# Before it measures, the duel compares what both sides would run (the loaded bytes of the
# executable and of every shared library it loads; README, "Identical programs"): the baseline,
# built in a worktree under this build tree, must then be byte for byte what this build makes of
# the same code. Built at another path, two things differ: a build-tree RUNPATH names its own
# directory (below), and code that names its own source file holds that path (the baseline
# script maps it: perfduel_same_paths_args in PerfDuelBaseline.cmake). Debug information and
# the build-id differ too, but they are never loaded and the fingerprints leave them out.

# Sets `out_var` to the targets defined in `directory` and in the directories below it (the
# directory properties BUILDSYSTEM_TARGETS and SUBDIRECTORIES).
function(_perfduel_directory_targets out_var directory)
  get_property(targets DIRECTORY "${directory}" PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirectories DIRECTORY "${directory}" PROPERTY SUBDIRECTORIES)
  foreach(subdirectory IN LISTS subdirectories)
    _perfduel_directory_targets(below "${subdirectory}")
    list(APPEND targets ${below})
  endforeach()
  set(${out_var} "${targets}" PARENT_SCOPE)
endfunction()

# Makes the build-tree RUNPATHs of this project's executables and shared libraries relative to
# $ORIGIN (BUILD_RPATH_USE_ORIGIN), unless the project chose (CMAKE_BUILD_RPATH_USE_ORIGIN, or
# the target's own property): an absolute RUNPATH names this build tree, so the baseline's
# names its own, and the two executables differ in their dynamic section and in the layout
# after it though they load the same bytes. "$ORIGIN/..." is the same string in both trees and
# still finds each tree's own libraries (pointing the baseline at this tree instead would make
# it run the candidate's libraries). The baseline gets CMAKE_BUILD_RPATH_USE_ORIGIN alike
# (_perfduel_write_gate_files). Installed RPATHs (INSTALL_RPATH) are not touched. Reads
# CMAKE_SOURCE_DIR and the targets' properties.
function(_perfduel_use_origin_rpaths)
  if(DEFINED CMAKE_BUILD_RPATH_USE_ORIGIN)
    return()
  endif()
  _perfduel_directory_targets(targets "${CMAKE_SOURCE_DIR}")
  foreach(target IN LISTS targets)
    get_target_property(type "${target}" TYPE)
    get_target_property(imported "${target}" IMPORTED)
    get_target_property(origin "${target}" BUILD_RPATH_USE_ORIGIN)
    if(type MATCHES "^(EXECUTABLE|SHARED_LIBRARY|MODULE_LIBRARY)$" AND NOT imported
        AND origin MATCHES "(^|-)NOTFOUND$")
      set_target_properties("${target}" PROPERTIES BUILD_RPATH_USE_ORIGIN ON)
    endif()
  endforeach()
endfunction()

# Sets `out_var` to the enabled languages whose compiler takes -fmacro-prefix-map (GCC 8 and
# newer, Clang 10 and newer), for the baseline's PerfDuelBaseline.cmake to map its source and
# build trees onto this one's. Reads the global property ENABLED_LANGUAGES and
# CMAKE_<LANG>_COMPILER_ID and _VERSION.
function(_perfduel_macro_map_languages out_var)
  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  set(mapped "")
  foreach(lang IN LISTS languages)
    if(NOT lang MATCHES "^(C|CXX|OBJC|OBJCXX)$")
      continue()
    endif()
    set(id "${CMAKE_${lang}_COMPILER_ID}")
    set(version "${CMAKE_${lang}_COMPILER_VERSION}")
    if((id STREQUAL "GNU" AND version VERSION_GREATER_EQUAL 8)
        OR (id MATCHES "^(Clang|AppleClang)$" AND version VERSION_GREATER_EQUAL 10))
      list(APPEND mapped "${lang}")
    endif()
  endforeach()
  set(${out_var} "${mapped}" PARENT_SCOPE)
endfunction()

# Writes `content` to the gate file `path`, unless it holds that already (keeping its timestamp).
function(_perfduel_write_gate_file path content)
  if(EXISTS "${path}")
    file(READ "${path}" old_content)
    if(old_content STREQUAL content)
      return()
    endif()
  endif()
  file(WRITE "${path}" "${content}")
endfunction()

# --- Registration ----------------------------------------------------------------------------

# perf.<name>: `perfduel compare` (DRIVER, with COMPARE_ARGS, a list: PERFDUEL_COMPARE_ARGS) of
# BASELINE, the baseline's executable, and `target`, both run with `args` (a list) in
# WORKING_DIRECTORY. With BUILD_BASELINE TRUE and NEW_TARGET SKIP the driver skips the gate on
# the baseline step's marker. The rest are the gate's settings (LABELS a list), resolved.
function(_perfduel_add_duel_test name target args)
  cmake_parse_arguments(PARSE_ARGV 3 _duel "" "BASELINE;BUILD_BASELINE;NEW_TARGET;DRIVER;CONFIG;\
JSON;MARKDOWN;SVG;MAX_SECONDS;COMPARE_ARGS;WORKING_DIRECTORY;LABELS;TIMEOUT" "")
  set(quoted_args "")
  foreach(arg IN LISTS args)
    _perfduel_quote_word(arg "${arg}")
    string(APPEND quoted_args " ${arg}")
  endforeach()
  _perfduel_quote_word(baseline_command "${_duel_BASELINE}")
  _perfduel_quote_word(candidate_command "$<TARGET_FILE:${target}>")

  set(compare_args "")
  if(_duel_BUILD_BASELINE AND _duel_NEW_TARGET STREQUAL "SKIP")
    # The baseline step leaves this marker when the commit has no target to compare against;
    # the driver then reports the gate skipped (77) instead of running.
    list(APPEND compare_args --skip-if "${_duel_BASELINE}.no-baseline")
  endif()
  if(NOT "${_duel_CONFIG}" STREQUAL "")
    list(APPEND compare_args --config "${_duel_CONFIG}")
  endif()
  list(APPEND compare_args
    --json "${_duel_JSON}"
    --markdown "${_duel_MARKDOWN}"
    --svg "${_duel_SVG}"
    --max-seconds ${_duel_MAX_SECONDS}
    --ctest-measurements
    ${_duel_COMPARE_ARGS}
    --baseline "${baseline_command}${quoted_args}"
    --candidate "${candidate_command}${quoted_args}")
  set(test perf.${name})
  add_test(NAME ${test}
    COMMAND "${_duel_DRIVER}" compare ${compare_args}
    WORKING_DIRECTORY "${_duel_WORKING_DIRECTORY}")
  set_tests_properties(${test} PROPERTIES
    LABELS "${_duel_LABELS}"
    RUN_SERIAL TRUE
    TIMEOUT ${_duel_TIMEOUT}
    SKIP_RETURN_CODE 77
    ATTACHED_FILES "${_duel_JSON};${_duel_SVG}")
  if(CMAKE_VERSION VERSION_GREATER_EQUAL 3.27)
    # SIGTERM first: the driver stops its runs and writes the partial report, then exits 130.
    set_tests_properties(${test} PROPERTIES TIMEOUT_SIGNAL_NAME SIGTERM TIMEOUT_SIGNAL_GRACE_PERIOD 5)
  endif()
endfunction()

# CPUS of the gate `name` (or PERFDUEL_CPUS; empty: none): the CTest resource groups of its
# test perf.<name>, and with SPEC_FILE (PERFDUEL_RESOURCE_SPEC_FILE, relative to
# CMAKE_SOURCE_DIR) no RUN_SERIAL (CTest ignores RESOURCE_GROUPS without a spec file, so the
# gate must then stay serial). `spec_file_var` is the absolute spec file for
# CTEST_RESOURCE_SPEC_FILE in add_perf_gate()'s caller, or empty when the gate needs none.
function(_perfduel_gate_cpus spec_file_var name)
  cmake_parse_arguments(PARSE_ARGV 2 _cpus "" "CPUS;SPEC_FILE" "")
  set(${spec_file_var} "" PARENT_SCOPE)
  set(test perf.${name})
  set(cpus "${_cpus_CPUS}")
  if(cpus STREQUAL "")
    return()
  endif()
  if(NOT cpus MATCHES "^[1-9][0-9]*$")
    message(FATAL_ERROR "add_perf_gate(NAME ${name}): CPUS \"${cpus}\" is not valid; "
      "expected a whole number of CPUs >= 1")
  endif()
  set_tests_properties(${test} PROPERTIES RESOURCE_GROUPS "${cpus},cpus:1")
  if(_cpus_SPEC_FILE)
    _perfduel_absolute(spec_file "${_cpus_SPEC_FILE}" "${CMAKE_SOURCE_DIR}")
    set(${spec_file_var} "${spec_file}" PARENT_SCOPE)
    set_tests_properties(${test} PROPERTIES RUN_SERIAL FALSE)
    set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT "PERFDUEL_REQUIRE_CTEST_CPUS=${cpus}")
  endif()
endfunction()

# Remembers what the baseline script needs of the gate `name` (the global property
# PERFDUEL_GATE_SETTINGS_<name>) for _perfduel_finish, which writes its gate file when every
# cache option of the project is known: its `target` and REF; DIRECTORY (PERFDUEL_BASELINE_DIR,
# relative to CMAKE_BINARY_DIR; default ${CMAKE_BINARY_DIR}/perfduel/baselines) and KEEP
# (PERFDUEL_BASELINE_KEEP; default 3); NEW_TARGET; CMAKE_ARGS (PERFDUEL_BASELINE_CMAKE_ARGS, a
# list); and what the duel runs, for `perfduel bisect --gate <name>` (docs/bisect.md), which
# builds other commits with this script and duels them the way perf.<name> would: `run_args`
# (a list), RUN_CONFIG, RUN_DIRECTORY and RUN_SECONDS. Reads CMAKE_SOURCE_DIR and CMAKE_COMMAND.
function(_perfduel_remember_gate_settings name target run_args)
  cmake_parse_arguments(PARSE_ARGV 3 _gate "" "REF;DIRECTORY;KEEP;NEW_TARGET;CMAKE_ARGS;\
RUN_CONFIG;RUN_DIRECTORY;RUN_SECONDS" "")
  if(NOT "${_gate_DIRECTORY}" STREQUAL "")
    _perfduel_absolute(baseline_dir "${_gate_DIRECTORY}" "${CMAKE_BINARY_DIR}")
  else()
    set(baseline_dir "${CMAKE_BINARY_DIR}/perfduel/baselines")
  endif()
  set(keep "${_gate_KEEP}")
  if(keep STREQUAL "")
    set(keep 3)
  endif()
  set(extra_args "")
  foreach(arg IN LISTS _gate_CMAKE_ARGS)
    string(REPLACE ";" "\\;" arg "${arg}")
    list(APPEND extra_args "${arg}")
  endforeach()
  # Read back by _perfduel_finish, which adds what is the same for every gate.
  _perfduel_settings_text(settings
    PERFDUEL_GATE_NAME "${name}"
    PERFDUEL_TARGET "${target}"
    PERFDUEL_SOURCE_DIR "${CMAKE_SOURCE_DIR}"
    PERFDUEL_BASELINE_REF "${_gate_REF}"
    PERFDUEL_BASELINE_DIR "${baseline_dir}"
    PERFDUEL_BASELINE_KEEP "${keep}"
    PERFDUEL_NEW_TARGET "${_gate_NEW_TARGET}"
    PERFDUEL_EXTRA_ARGS "${extra_args}"
    PERFDUEL_RUN_ARGS "${run_args}"
    PERFDUEL_RUN_CONFIG "${_gate_RUN_CONFIG}"
    PERFDUEL_RUN_DIRECTORY "${_gate_RUN_DIRECTORY}"
    PERFDUEL_RUN_SECONDS "${_gate_RUN_SECONDS}"
    PERFDUEL_BASELINE_SCRIPT "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/PerfDuelBaseline.cmake"
    PERFDUEL_CMAKE_COMMAND "${CMAKE_COMMAND}")
  set_property(GLOBAL PROPERTY PERFDUEL_GATE_SETTINGS_${name} "${settings}")
  set_property(GLOBAL APPEND PROPERTY PERFDUEL_BASELINE_GATES "${name}")
endfunction()

# perf.<name>.baseline (the fixture that builds the baseline and points LINK at its
# executable) and the targets perfduel_baseline_<name> and perfduel_baselines. TIMEOUT is
# PERFDUEL_BASELINE_TIMEOUT (default 3600); LABELS (a list) and NEW_TARGET are the gate's.
function(_perfduel_add_baseline_test name)
  cmake_parse_arguments(PARSE_ARGV 1 _baseline "" "LINK;NEW_TARGET;LABELS;TIMEOUT" "")
  set(timeout "${_baseline_TIMEOUT}")
  if(timeout STREQUAL "")
    set(timeout 3600)
  endif()
  set(gate_file "${CMAKE_BINARY_DIR}/perfduel/gates/${name}.cmake")
  set(script "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/PerfDuelBaseline.cmake")
  set(script_args "-DPERFDUEL_GATE_FILE=${gate_file}" "-DPERFDUEL_BUILD_CONFIG=$<CONFIG>"
    "-DPERFDUEL_BASELINE_LINK=${_baseline_LINK}")
  # Under CTest an error is the line `perfduel: error: ...` and FAIL_REGULAR_EXPRESSION fails
  # the test (a script cannot fail without CMake's own "CMake Error at" lines before 3.29);
  # from the build, the script's exit status fails the target.
  add_test(NAME perf.${name}.baseline
    COMMAND "${CMAKE_COMMAND}" ${script_args} -DPERFDUEL_ERROR_EXIT=ctest -P "${script}")
  set_tests_properties(perf.${name}.baseline PROPERTIES
    LABELS "${_baseline_LABELS};perf-baseline"
    FIXTURES_SETUP perf.${name}.baseline
    RUN_SERIAL TRUE
    TIMEOUT ${timeout}
    FAIL_REGULAR_EXPRESSION "perfduel: error: ")
  if(_baseline_NEW_TARGET STREQUAL "SKIP")
    # A skipped setup does not stop the tests that require the fixture: perf.<name> then
    # finds the baseline step's marker (--skip-if) and reports itself skipped.
    set_tests_properties(perf.${name}.baseline PROPERTIES
      SKIP_REGULAR_EXPRESSION "perfduel: skipped: ")
  endif()
  set_property(TEST perf.${name} APPEND PROPERTY FIXTURES_REQUIRED perf.${name}.baseline)

  add_custom_target(perfduel_baseline_${name}
    COMMAND "${CMAKE_COMMAND}" ${script_args} -DPERFDUEL_ERROR_EXIT=status -P "${script}"
    COMMENT "perfduel: building the baseline of perf.${name}"
    USES_TERMINAL VERBATIM)
  if(NOT TARGET perfduel_baselines)
    add_custom_target(perfduel_baselines)
  endif()
  add_dependencies(perfduel_baselines perfduel_baseline_${name})
endfunction()

# Git is needed when the tests run, not now; say so early rather than at the first duel. Sets
# `out_var` to git (GIT_EXECUTABLE of find_package(Git)), warning once (the global property
# PERFDUEL_WARNED_NO_GIT) when there is none.
function(_perfduel_find_git out_var)
  find_package(Git QUIET)
  get_property(warned GLOBAL PROPERTY PERFDUEL_WARNED_NO_GIT)
  if(NOT GIT_FOUND AND NOT warned)
    set_property(GLOBAL PROPERTY PERFDUEL_WARNED_NO_GIT TRUE)
    message(WARNING "perfduel: git was not found, but the perf gates build their baseline "
      "from the merge-base commit: perf.<name>.baseline will fail until git is installed "
      "(or give add_perf_gate() a prebuilt BASELINE_EXECUTABLE).")
  endif()
  set(${out_var} "${GIT_EXECUTABLE}" PARENT_SCOPE)
endfunction()

# Defers _perfduel_finish to the end of the top-level directory (CMAKE_SOURCE_DIR), once, and
# remembers the gate `name` and its directory, CMAKE_CURRENT_SOURCE_DIR (its tests are only
# generated where testing is enabled), in the global properties PERFDUEL_GATES and
# PERFDUEL_GATE_DIRECTORIES.
function(_perfduel_register_gate name)
  set_property(GLOBAL APPEND PROPERTY PERFDUEL_GATES "${name}")
  set_property(GLOBAL APPEND PROPERTY PERFDUEL_GATE_DIRECTORIES "${CMAKE_CURRENT_SOURCE_DIR}")
  get_property(scheduled GLOBAL PROPERTY PERFDUEL_FINISH_SCHEDULED)
  if(NOT scheduled)
    set_property(GLOBAL PROPERTY PERFDUEL_FINISH_SCHEDULED TRUE)
    cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL _perfduel_finish)
  endif()
endfunction()

# --- At the end of the top-level directory ---------------------------------------------------

# Stops unless CTest will see the `gates`: testing must be enabled in CMAKE_SOURCE_DIR and in
# each of the gates' `directories`. With BUILD_TESTING (CTest's option) off it only says so.
function(_perfduel_check_testing_enabled gates directories)
  if(DEFINED BUILD_TESTING AND NOT BUILD_TESTING)
    message(STATUS "perfduel: BUILD_TESTING is off, so the perf gates are not registered")
    return()
  endif()
  foreach(directory IN LISTS CMAKE_SOURCE_DIR directories)
    get_directory_property(enabled DIRECTORY "${directory}" DEFINITION CMAKE_TESTING_ENABLED)
    if(NOT enabled)
      list(JOIN gates ", " gate_list)
      message(FATAL_ERROR "perfduel: testing is not enabled in ${directory}, so CTest would "
        "find none of the perf gates (${gate_list}): `ctest -L perf` would print \"No tests "
        "were found!!!\" and pass. Expected enable_testing() (or include(CTest)) in the "
        "top-level CMakeLists.txt, before add_subdirectory() of the directories with gates.")
    endif()
  endforeach()
endfunction()

# Divides PERFDUEL_SUITE_SECONDS (the target property of perfduel_suite_budget) among the
# `gate_count` gates: each of the `suite_gates` gets a share, never more than its own budget
# (the properties PERFDUEL_OWN_SECONDS_<gate> and PERFDUEL_SECONDS_<gate> of that target).
function(_perfduel_share_suite_budget suite_gates gate_count)
  get_target_property(suite_seconds perfduel_suite_budget PERFDUEL_SUITE_SECONDS)
  math(EXPR share "${suite_seconds} / ${gate_count}")
  if(share LESS 10)
    message(FATAL_ERROR "perfduel: PERFDUEL_SUITE_SECONDS \"${suite_seconds}\" gives each of "
      "the ${gate_count} perf gates ${share} s; expected at least 10 s per gate "
      "(PERFDUEL_SUITE_SECONDS >= ${gate_count}0)")
  endif()
  foreach(gate IN LISTS suite_gates)
    get_target_property(own perfduel_suite_budget PERFDUEL_OWN_SECONDS_${gate})
    set(seconds ${share})
    if(own LESS share)
      set(seconds ${own})
    endif()
    set_property(TARGET perfduel_suite_budget PROPERTY PERFDUEL_SECONDS_${gate} ${seconds})
  endforeach()
  message(STATUS "perfduel: PERFDUEL_SUITE_SECONDS=${suite_seconds} shared by ${gate_count} "
    "gates: at most ${share} s of duel each")
endfunction()

# Writes the gate file of each of the `baseline_gates`, ${CMAKE_BINARY_DIR}/perfduel/gates/
# <gate>.cmake, which PerfDuelBaseline.cmake reads: the gate's settings (the global property
# PERFDUEL_GATE_SETTINGS_<gate>) and what is the same for every gate: the generator
# (CMAKE_GENERATOR, _PLATFORM, _TOOLSET), git, the forwarded cache options, and what makes the
# baseline's build the same program as this one's at its other path (CMAKE_BINARY_DIR, the
# languages whose source paths are mapped, $ORIGIN RUNPATHs; see "The same program, built
# elsewhere").
function(_perfduel_write_gate_files baseline_gates)
  _perfduel_find_git(git)
  _perfduel_baseline_cache_args(cmake_args)
  if(NOT DEFINED CMAKE_BUILD_RPATH_USE_ORIGIN)
    list(APPEND cmake_args "-DCMAKE_BUILD_RPATH_USE_ORIGIN:BOOL=ON")  # as _perfduel_use_origin_rpaths
  endif()
  _perfduel_macro_map_languages(macro_map_languages)
  _perfduel_project_cache_args(project_args)
  if(project_args)
    list(JOIN project_args " " shown)
  else()
    set(shown "none")
  endif()
  message(STATUS "perfduel: baselines are configured with the project's cache options: ${shown}")
  foreach(gate IN LISTS baseline_gates)
    get_property(settings GLOBAL PROPERTY PERFDUEL_GATE_SETTINGS_${gate})
    cmake_language(EVAL CODE "${settings}")  # the PERFDUEL_* settings of this gate, here
    _perfduel_settings_text(content
      PERFDUEL_GATE_NAME "${PERFDUEL_GATE_NAME}"
      PERFDUEL_TARGET "${PERFDUEL_TARGET}"
      PERFDUEL_SOURCE_DIR "${PERFDUEL_SOURCE_DIR}"
      PERFDUEL_BINARY_DIR "${CMAKE_BINARY_DIR}"
      PERFDUEL_MACRO_MAP_LANGUAGES "${macro_map_languages}"
      PERFDUEL_BASELINE_REF "${PERFDUEL_BASELINE_REF}"
      PERFDUEL_BASELINE_DIR "${PERFDUEL_BASELINE_DIR}"
      PERFDUEL_GENERATOR "${CMAKE_GENERATOR}"
      PERFDUEL_GENERATOR_PLATFORM "${CMAKE_GENERATOR_PLATFORM}"
      PERFDUEL_GENERATOR_TOOLSET "${CMAKE_GENERATOR_TOOLSET}"
      PERFDUEL_GIT_EXECUTABLE "${git}"
      PERFDUEL_BASELINE_KEEP "${PERFDUEL_BASELINE_KEEP}"
      PERFDUEL_NEW_TARGET "${PERFDUEL_NEW_TARGET}"
      PERFDUEL_CMAKE_ARGS "${cmake_args}"
      PERFDUEL_PROJECT_ARGS "${project_args}"
      PERFDUEL_EXTRA_ARGS "${PERFDUEL_EXTRA_ARGS}"
      PERFDUEL_RUN_ARGS "${PERFDUEL_RUN_ARGS}"
      PERFDUEL_RUN_CONFIG "${PERFDUEL_RUN_CONFIG}"
      PERFDUEL_RUN_DIRECTORY "${PERFDUEL_RUN_DIRECTORY}"
      PERFDUEL_RUN_SECONDS "${PERFDUEL_RUN_SECONDS}"
      PERFDUEL_BASELINE_SCRIPT "${PERFDUEL_BASELINE_SCRIPT}"
      PERFDUEL_CMAKE_COMMAND "${PERFDUEL_CMAKE_COMMAND}")
    _perfduel_write_gate_file("${CMAKE_BINARY_DIR}/perfduel/gates/${gate}.cmake"
      "# Generated by add_perf_gate(); read by PerfDuelBaseline.cmake.\n${content}")
  endforeach()
endfunction()

# Runs once, when every gate, target and cache option of the project is known (deferred by
# _perfduel_register_gate): checks that CTest will see the gates, divides PERFDUEL_SUITE_SECONDS
# among them, and with baselines to build makes the project's RUNPATHs relative and writes each
# baseline's gate file. Reads the global properties the gates left.
function(_perfduel_finish)
  get_property(gates GLOBAL PROPERTY PERFDUEL_GATES)
  get_property(directories GLOBAL PROPERTY PERFDUEL_GATE_DIRECTORIES)
  get_property(suite_gates GLOBAL PROPERTY PERFDUEL_SUITE_GATES)
  get_property(baseline_gates GLOBAL PROPERTY PERFDUEL_BASELINE_GATES)
  _perfduel_check_testing_enabled("${gates}" "${directories}")
  if(suite_gates)
    list(LENGTH gates gate_count)
    _perfduel_share_suite_budget("${suite_gates}" ${gate_count})
  endif()
  if(baseline_gates)
    _perfduel_use_origin_rpaths()
    _perfduel_write_gate_files("${baseline_gates}")
  endif()
endfunction()

cmake_policy(POP)

function(add_perf_gate)
  if(PERFDUEL_IS_BASELINE_BUILD)
    return()  # This is the baseline's own build: it only needs the benchmark target.
  endif()
  set(one_value_keywords NAME TARGET CONFIG BASELINE_REF BASELINE_EXECUTABLE NEW_TARGET
    WORKING_DIRECTORY TIMEOUT CPUS JSON_REPORT MARKDOWN_REPORT SVG_REPORT FRAMEWORK)
  set(multi_value_keywords ARGS LABELS)
  cmake_parse_arguments(PARSE_ARGV 0 _arg "" "${one_value_keywords}" "${multi_value_keywords}")

  # Check everything first, in this order. A keyword falls back to its PERFDUEL_* variable,
  # read here (after _perfduel_check_project_variables, each such variable is unset or valid).
  _perfduel_check_keywords("${_arg_UNPARSED_ARGUMENTS}" "${_arg_KEYWORDS_MISSING_VALUES}"
    "${one_value_keywords};${multi_value_keywords}")
  _perfduel_check_name("${_arg_NAME}")
  set(name "${_arg_NAME}")
  _perfduel_resolve_target(target "${name}" "${_arg_TARGET}")
  _perfduel_resolve_baseline(baseline_ref baseline_executable new_target "${name}" "${_arg_TARGET}"
    REF "${_arg_BASELINE_REF}" EXECUTABLE "${_arg_BASELINE_EXECUTABLE}"
    NEW_TARGET "${_arg_NEW_TARGET}" DEFAULT_REF "${PERFDUEL_BASELINE_REF}")
  _perfduel_first_defined(config VARIABLES _arg_CONFIG PERFDUEL_CONFIG)
  _perfduel_resolve_config(config "${name}" "${config}")
  _perfduel_first_defined(timeout VARIABLES _arg_TIMEOUT PERFDUEL_TIMEOUT DEFAULT 1500)
  _perfduel_check_timeout(max_seconds "${name}" "${timeout}")
  _perfduel_check_project_variables()
  _perfduel_resolve_reports(json_report markdown_report svg_report "${name}"
    REPORT_DIR "${PERFDUEL_REPORT_DIR}" JSON "${_arg_JSON_REPORT}"
    MARKDOWN "${_arg_MARKDOWN_REPORT}" SVG "${_arg_SVG_REPORT}")
  _perfduel_first_defined(working_directory VARIABLES _arg_WORKING_DIRECTORY
    DEFAULT "${CMAKE_CURRENT_BINARY_DIR}")
  _perfduel_absolute(working_directory "${working_directory}" "${CMAKE_CURRENT_BINARY_DIR}")
  _perfduel_framework_args(args "${name}" "${_arg_ARGS}" FRAMEWORK "${_arg_FRAMEWORK}")
  _perfduel_driver(driver "${name}" "${target}")
  set(labels perf ${PERFDUEL_LABELS} ${_arg_LABELS})
  list(REMOVE_DUPLICATES labels)

  # Register.
  _perfduel_register_gate("${name}")
  _perfduel_duel_budget(duel_budget "${name}" MAX_SECONDS "${max_seconds}"
    SUITE_SECONDS "${PERFDUEL_SUITE_SECONDS}")
  set(build_baseline FALSE)
  if(baseline_executable STREQUAL "")
    set(build_baseline TRUE)
    _perfduel_baseline_link(baseline_executable "${name}" "${target}")
  endif()
  _perfduel_add_duel_test("${name}" "${target}" "${args}"
    BASELINE "${baseline_executable}" BUILD_BASELINE ${build_baseline} NEW_TARGET "${new_target}"
    DRIVER "${driver}" CONFIG "${config}" JSON "${json_report}" MARKDOWN "${markdown_report}"
    SVG "${svg_report}" MAX_SECONDS "${duel_budget}" COMPARE_ARGS "${PERFDUEL_COMPARE_ARGS}"
    WORKING_DIRECTORY "${working_directory}" LABELS "${labels}" TIMEOUT "${timeout}")
  _perfduel_first_defined(cpus VARIABLES _arg_CPUS PERFDUEL_CPUS)
  _perfduel_gate_cpus(spec_file "${name}" CPUS "${cpus}"
    SPEC_FILE "${PERFDUEL_RESOURCE_SPEC_FILE}")
  if(NOT spec_file STREQUAL "")
    set(CTEST_RESOURCE_SPEC_FILE "${spec_file}" PARENT_SCOPE)
  endif()
  if(build_baseline)
    _perfduel_remember_gate_settings("${name}" "${target}" "${args}" REF "${baseline_ref}"
      DIRECTORY "${PERFDUEL_BASELINE_DIR}" KEEP "${PERFDUEL_BASELINE_KEEP}"
      NEW_TARGET "${new_target}" CMAKE_ARGS "${PERFDUEL_BASELINE_CMAKE_ARGS}"
      RUN_CONFIG "${config}" RUN_DIRECTORY "${working_directory}" RUN_SECONDS "${max_seconds}")
    _perfduel_add_baseline_test("${name}" LINK "${baseline_executable}"
      NEW_TARGET "${new_target}" LABELS "${labels}" TIMEOUT "${PERFDUEL_BASELINE_TIMEOUT}")
  endif()
endfunction()
