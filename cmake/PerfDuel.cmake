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
    ``PERFDUEL_*``, ``FETCHCONTENT_*`` nor paths inside this build tree), and builds only
    ``<target>`` (in the configuration of ``ctest -C`` with a multi-config generator). A
    ``<target>`` that the commit defines but its configure did not enable is an error naming
    the forwarded options. The result is cached by commit id: a second run does not rebuild,
    a new merge-base does. Not registered when ``BASELINE_EXECUTABLE`` is given. An error is
    the line ``perfduel: error: <why>`` (``FAIL_REGULAR_EXPRESSION``). With
    ``NEW_TARGET SKIP`` it also has ``SKIP_REGULAR_EXPRESSION "perfduel: skipped: "``.

  ``perf.<name>``
    Runs ``perfduel compare --baseline '<baseline> ARGS...' --candidate '<target> ARGS...'``
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

# --- Project-wide variables ------------------------------------------------------------------

# Sets `out_var` to the whole-number variable `variable` (or `default` when it is not set);
# anything else stops with a message naming the variable.
function(_perfduel_whole_number out_var variable default minimum what)
  if(NOT DEFINED ${variable})
    set(${out_var} "${default}" PARENT_SCOPE)
    return()
  endif()
  set(value "${${variable}}")
  if(NOT value MATCHES "^[0-9]+$" OR value LESS minimum)
    message(FATAL_ERROR "perfduel: ${variable} \"${value}\" is not valid; expected ${what}")
  endif()
  set(${out_var} "${value}" PARENT_SCOPE)
endfunction()

# Checks the PERFDUEL_* variables that every gate reads, each named in its own message.
function(_perfduel_check_project_variables)
  _perfduel_whole_number(ignored PERFDUEL_TIMEOUT 1500 10
    "a whole number of seconds, at least 10 (the default TIMEOUT of every gate)")
  _perfduel_whole_number(ignored PERFDUEL_BASELINE_TIMEOUT 3600 1
    "a whole number of seconds, at least 1 (the CTest timeout of each baseline build)")
  _perfduel_whole_number(ignored PERFDUEL_BASELINE_KEEP 3 1
    "a whole number, at least 1 (how many baseline builds to keep)")
  _perfduel_whole_number(ignored PERFDUEL_SUITE_SECONDS 0 10
    "a whole number of seconds, at least 10 (the duel time all gates share)")
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
# These read the caller's `_arg_*` variables (cmake_parse_arguments in add_perf_gate) and set
# their results in the caller's scope.

function(_perfduel_check_keywords one_value_keywords multi_value_keywords)
  string(REPLACE ";" " " expected_keywords "${one_value_keywords};${multi_value_keywords}")
  if(_arg_UNPARSED_ARGUMENTS)
    list(JOIN _arg_UNPARSED_ARGUMENTS " " unknown)
    message(FATAL_ERROR "add_perf_gate: unknown argument(s) \"${unknown}\"; "
      "expected keywords: ${expected_keywords}")
  endif()
  foreach(keyword IN LISTS _arg_KEYWORDS_MISSING_VALUES)
    message(FATAL_ERROR "add_perf_gate: ${keyword} needs a value")
  endforeach()
endfunction()

# NAME: present, well-formed, unique.
function(_perfduel_check_name)
  if(NOT DEFINED _arg_NAME)
    message(FATAL_ERROR "add_perf_gate: NAME is required (the test is called perf.<NAME>)")
  endif()
  if(NOT _arg_NAME MATCHES "^[A-Za-z0-9_+-][A-Za-z0-9_.+-]*$")
    message(FATAL_ERROR "add_perf_gate: NAME \"${_arg_NAME}\" is not valid; "
      "expected letters, digits and _.+- only")
  endif()
  get_property(gates GLOBAL PROPERTY PERFDUEL_GATES)
  if(_arg_NAME IN_LIST gates)
    message(FATAL_ERROR "add_perf_gate: a perf gate named \"${_arg_NAME}\" already exists; "
      "expected a unique NAME")
  endif()
endfunction()

# TARGET: an executable built here; `out_var` is the real target behind an alias.
function(_perfduel_resolve_target out_var name)
  if(NOT DEFINED _arg_TARGET)
    message(FATAL_ERROR "add_perf_gate(NAME ${name}): TARGET is required "
      "(the benchmark executable target to compare)")
  endif()
  set(target "${_arg_TARGET}")
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

# BASELINE_REF / BASELINE_EXECUTABLE / NEW_TARGET: sets `ref_var` (empty with a prebuilt
# baseline), `executable_var` (empty when built from git) and `new_target_var`.
function(_perfduel_resolve_baseline ref_var executable_var new_target_var name)
  if(DEFINED _arg_BASELINE_REF AND DEFINED _arg_BASELINE_EXECUTABLE)
    message(FATAL_ERROR "add_perf_gate(NAME ${name}): BASELINE_REF and BASELINE_EXECUTABLE "
      "exclude each other; expected one of them (or neither)")
  endif()
  set(ref "")
  set(executable "")
  if(DEFINED _arg_BASELINE_EXECUTABLE)
    _perfduel_absolute(executable "${_arg_BASELINE_EXECUTABLE}" "${CMAKE_CURRENT_SOURCE_DIR}")
  else()
    if(DEFINED _arg_BASELINE_REF)
      set(ref "${_arg_BASELINE_REF}")
    else()
      set(ref "${PERFDUEL_BASELINE_REF}")
    endif()
    if(ref STREQUAL "" OR ref MATCHES "^-|[ \t\n]")
      message(FATAL_ERROR "add_perf_gate(NAME ${name}): BASELINE_REF \"${ref}\" is "
        "not valid; expected a git ref such as origin/main (see PERFDUEL_BASELINE_REF)")
    endif()
  endif()
  set(new_target SKIP)
  if(DEFINED _arg_NEW_TARGET)
    if(DEFINED _arg_BASELINE_EXECUTABLE)
      message(FATAL_ERROR "add_perf_gate(NAME ${name}): NEW_TARGET and BASELINE_EXECUTABLE "
        "exclude each other; expected NEW_TARGET only with a baseline built from git")
    endif()
    if(NOT _arg_NEW_TARGET MATCHES "^(SKIP|FAIL)$")
      message(FATAL_ERROR "add_perf_gate(NAME ${name}): NEW_TARGET \"${_arg_NEW_TARGET}\" is not "
        "valid; expected SKIP or FAIL (what to do when the baseline commit has no target "
        "\"${_arg_TARGET}\")")
    endif()
    set(new_target "${_arg_NEW_TARGET}")
  endif()
  set(${ref_var} "${ref}" PARENT_SCOPE)
  set(${executable_var} "${executable}" PARENT_SCOPE)
  set(${new_target_var} "${new_target}" PARENT_SCOPE)
endfunction()

# CONFIG (or PERFDUEL_CONFIG): an existing file, or "" for the driver's defaults.
function(_perfduel_resolve_config out_var name)
  set(config "")
  if(DEFINED _arg_CONFIG)
    set(config "${_arg_CONFIG}")
  elseif(DEFINED PERFDUEL_CONFIG)
    set(config "${PERFDUEL_CONFIG}")
  endif()
  if(NOT config STREQUAL "")
    _perfduel_absolute(config "${config}" "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${config}" OR IS_DIRECTORY "${config}")
      message(FATAL_ERROR "add_perf_gate(NAME ${name}): CONFIG file \"${config}\" does not "
        "exist; expected a perfduel.yaml (see templates/perfduel.yaml)")
    endif()
  endif()
  set(${out_var} "${config}" PARENT_SCOPE)
endfunction()

# TIMEOUT (or PERFDUEL_TIMEOUT) and the driver's budget inside it: TIMEOUT minus a margin of
# 10 %, at least 5 s and at most 60 s, so the duel ends inconclusive before CTest kills it.
function(_perfduel_resolve_timeout timeout_var max_seconds_var name)
  if(DEFINED _arg_TIMEOUT)
    set(timeout "${_arg_TIMEOUT}")
  elseif(DEFINED PERFDUEL_TIMEOUT)
    set(timeout "${PERFDUEL_TIMEOUT}")
  else()
    set(timeout 1500)
  endif()
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
  set(${timeout_var} "${timeout}" PARENT_SCOPE)
  set(${max_seconds_var} "${max_seconds}" PARENT_SCOPE)
endfunction()

# JSON_REPORT, MARKDOWN_REPORT, SVG_REPORT and WORKING_DIRECTORY as absolute paths; the
# reports' directories are created.
function(_perfduel_resolve_paths name)
  if(DEFINED PERFDUEL_REPORT_DIR)
    _perfduel_absolute(report_dir "${PERFDUEL_REPORT_DIR}" "${CMAKE_BINARY_DIR}")
  else()
    set(report_dir "${CMAKE_BINARY_DIR}/perfduel/reports")
  endif()
  if(DEFINED _arg_JSON_REPORT)
    _perfduel_absolute(json "${_arg_JSON_REPORT}" "${CMAKE_CURRENT_BINARY_DIR}")
  else()
    set(json "${report_dir}/${name}.json")
  endif()
  if(DEFINED _arg_MARKDOWN_REPORT)
    _perfduel_absolute(markdown "${_arg_MARKDOWN_REPORT}" "${CMAKE_CURRENT_BINARY_DIR}")
  else()
    cmake_path(REPLACE_EXTENSION json LAST_ONLY ".md" OUTPUT_VARIABLE markdown)
  endif()
  if(DEFINED _arg_SVG_REPORT)
    _perfduel_absolute(svg "${_arg_SVG_REPORT}" "${CMAKE_CURRENT_BINARY_DIR}")
  else()
    cmake_path(REPLACE_EXTENSION json LAST_ONLY ".svg" OUTPUT_VARIABLE svg)
  endif()
  foreach(report IN ITEMS "${json}" "${markdown}" "${svg}")
    if(NOT report MATCHES "\\$<")
      cmake_path(GET report PARENT_PATH report_parent)
      file(MAKE_DIRECTORY "${report_parent}")
    endif()
  endforeach()
  if(DEFINED _arg_WORKING_DIRECTORY)
    _perfduel_absolute(working_directory "${_arg_WORKING_DIRECTORY}"
      "${CMAKE_CURRENT_BINARY_DIR}")
  else()
    set(working_directory "${CMAKE_CURRENT_BINARY_DIR}")
  endif()
  set(json_report "${json}" PARENT_SCOPE)
  set(markdown_report "${markdown}" PARENT_SCOPE)
  set(svg_report "${svg}" PARENT_SCOPE)
  set(working_directory "${working_directory}" PARENT_SCOPE)
endfunction()

# The driver: `out_var` is its generator expression. perfduel as a sub-project
# (add_subdirectory/FetchContent) builds it in this tree, perhaps EXCLUDE_FROM_ALL: building
# the benchmark then builds it, so `ctest` finds it.
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

# The gate's budget for `--max-seconds`: its own, or with PERFDUEL_SUITE_SECONDS a generator
# expression for its share of the suite budget, which _perfduel_finish sets once every gate
# is known.
function(_perfduel_duel_budget out_var name max_seconds)
  if(NOT DEFINED PERFDUEL_SUITE_SECONDS)
    set(${out_var} "${max_seconds}" PARENT_SCOPE)
    return()
  endif()
  if(NOT TARGET perfduel_suite_budget)
    add_library(perfduel_suite_budget INTERFACE)
  endif()
  set_property(TARGET perfduel_suite_budget PROPERTY PERFDUEL_SUITE_SECONDS
    "${PERFDUEL_SUITE_SECONDS}")
  set_property(TARGET perfduel_suite_budget PROPERTY PERFDUEL_OWN_SECONDS_${name}
    "${max_seconds}")
  set_property(GLOBAL APPEND PROPERTY PERFDUEL_SUITE_GATES "${name}")
  set(${out_var} "$<TARGET_PROPERTY:perfduel_suite_budget,PERFDUEL_SECONDS_${name}>"
    PARENT_SCOPE)
endfunction()

# --- The baseline's configure arguments ------------------------------------------------------

# The `-D` arguments that make the baseline build like this one: compilers, flags, build type
# (or a multi-config generator's configurations), toolchain, search paths. Semicolons inside
# values are escaped so the list survives expansion.
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
# same settings even where the branch changed an option's default.
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

# Writes `set(<name> [==[<value>]==])` lines for the baseline script (values kept verbatim).
function(_perfduel_write_gate_file path)
  set(content "# Generated by add_perf_gate(); read by PerfDuelBaseline.cmake.\n")
  foreach(name IN LISTS ARGN)
    string(APPEND content "set(${name} [==[${${name}}]==])\n")
  endforeach()
  if(EXISTS "${path}")
    file(READ "${path}" old_content)
    if(old_content STREQUAL content)
      return()  # Unchanged: keep the timestamp.
    endif()
  endif()
  file(WRITE "${path}" "${content}")
endfunction()

# FRAMEWORK: the arguments that make the benchmark print what its metrics read; appended to
# the caller's _arg_ARGS.
function(_perfduel_resolve_framework name)
  if(NOT DEFINED _arg_FRAMEWORK)
    return()
  endif()
  set(args ${_arg_ARGS})
  if(_arg_FRAMEWORK STREQUAL "gbench")
    list(APPEND args --benchmark_format=json)
  elseif(_arg_FRAMEWORK STREQUAL "catch2")
    if(NOT args)
      list(APPEND args "[!benchmark]")
    endif()
    list(APPEND args -r xml)
  else()
    message(FATAL_ERROR "add_perf_gate(NAME ${name}): FRAMEWORK \"${_arg_FRAMEWORK}\" is not valid; "
      "expected gbench or catch2")
  endif()
  set(_arg_ARGS ${args} PARENT_SCOPE)
endfunction()

# --- Registration ----------------------------------------------------------------------------

# perf.<name>: `perfduel compare` of the baseline and the candidate.
function(_perfduel_add_duel_test)
  set(quoted_args "")
  foreach(arg IN LISTS _arg_ARGS)
    _perfduel_quote_word(arg "${arg}")
    string(APPEND quoted_args " ${arg}")
  endforeach()
  _perfduel_quote_word(baseline_command "${baseline_executable}")
  _perfduel_quote_word(candidate_command "$<TARGET_FILE:${target}>")

  set(compare_args "")
  if(build_baseline AND new_target STREQUAL "SKIP")
    # The baseline step leaves this marker when the commit has no target to compare against;
    # the driver then reports the gate skipped (77) instead of running.
    list(APPEND compare_args --skip-if "${baseline_executable}.no-baseline")
  endif()
  if(NOT config STREQUAL "")
    list(APPEND compare_args --config "${config}")
  endif()
  list(APPEND compare_args
    --json "${json_report}"
    --markdown "${markdown_report}"
    --svg "${svg_report}"
    --max-seconds ${duel_budget}
    --ctest-measurements
    ${PERFDUEL_COMPARE_ARGS}
    --baseline "${baseline_command}${quoted_args}"
    --candidate "${candidate_command}${quoted_args}")
  add_test(NAME perf.${name}
    COMMAND "${driver}" compare ${compare_args}
    WORKING_DIRECTORY "${working_directory}")
  set_tests_properties(perf.${name} PROPERTIES
    LABELS "${labels}"
    RUN_SERIAL TRUE
    TIMEOUT ${timeout}
    SKIP_RETURN_CODE 77
    ATTACHED_FILES "${json_report};${svg_report}")
  if(CMAKE_VERSION VERSION_GREATER_EQUAL 3.27)
    # SIGTERM first: the driver stops its runs and writes the partial report, then exits 130.
    set_tests_properties(perf.${name} PROPERTIES TIMEOUT_SIGNAL_NAME SIGTERM TIMEOUT_SIGNAL_GRACE_PERIOD 5)
  endif()
endfunction()

# perf.<name>.baseline (the fixture that builds the baseline) and the targets
# perfduel_baseline_<name> and perfduel_baselines. The gate file the script reads is written
# by _perfduel_finish, when every cache option of the project is known.
function(_perfduel_add_baseline)
  _perfduel_whole_number(baseline_timeout PERFDUEL_BASELINE_TIMEOUT 3600 1 "")
  _perfduel_whole_number(keep PERFDUEL_BASELINE_KEEP 3 1 "")
  if(DEFINED PERFDUEL_BASELINE_DIR)
    _perfduel_absolute(baseline_dir "${PERFDUEL_BASELINE_DIR}" "${CMAKE_BINARY_DIR}")
  else()
    set(baseline_dir "${CMAKE_BINARY_DIR}/perfduel/baselines")
  endif()
  set(PERFDUEL_GATE_NAME "${name}")
  set(PERFDUEL_TARGET "${target}")
  set(PERFDUEL_SOURCE_DIR "${CMAKE_SOURCE_DIR}")
  set(PERFDUEL_BASELINE_REF "${baseline_ref}")
  set(PERFDUEL_BASELINE_DIR "${baseline_dir}")
  set(PERFDUEL_BASELINE_KEEP "${keep}")
  set(PERFDUEL_NEW_TARGET "${new_target}")
  set(PERFDUEL_EXTRA_ARGS "")
  foreach(arg IN LISTS PERFDUEL_BASELINE_CMAKE_ARGS)
    string(REPLACE ";" "\\;" arg "${arg}")
    list(APPEND PERFDUEL_EXTRA_ARGS "${arg}")
  endforeach()
  set(gate_file "${CMAKE_BINARY_DIR}/perfduel/gates/${name}.cmake")
  set(script "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/PerfDuelBaseline.cmake")
  # What the duel runs, for `perfduel bisect --gate <name>` (docs/bisect.md), which builds other
  # commits with this script and duels them the way perf.<name> would.
  set(PERFDUEL_RUN_ARGS "${_arg_ARGS}")
  set(PERFDUEL_RUN_CONFIG "${config}")
  set(PERFDUEL_RUN_DIRECTORY "${working_directory}")
  set(PERFDUEL_RUN_SECONDS "${max_seconds}")
  set(PERFDUEL_BASELINE_SCRIPT "${script}")
  set(PERFDUEL_CMAKE_COMMAND "${CMAKE_COMMAND}")
  # Read back by _perfduel_finish, which adds what is the same for every gate.
  set(settings "")
  foreach(variable PERFDUEL_GATE_NAME PERFDUEL_TARGET PERFDUEL_SOURCE_DIR PERFDUEL_BASELINE_REF
      PERFDUEL_BASELINE_DIR PERFDUEL_BASELINE_KEEP PERFDUEL_NEW_TARGET PERFDUEL_EXTRA_ARGS
      PERFDUEL_RUN_ARGS PERFDUEL_RUN_CONFIG PERFDUEL_RUN_DIRECTORY PERFDUEL_RUN_SECONDS
      PERFDUEL_BASELINE_SCRIPT PERFDUEL_CMAKE_COMMAND)
    string(APPEND settings "set(${variable} [==[${${variable}}]==])\n")
  endforeach()
  set_property(GLOBAL PROPERTY PERFDUEL_GATE_SETTINGS_${name} "${settings}")
  set_property(GLOBAL APPEND PROPERTY PERFDUEL_BASELINE_GATES "${name}")

  set(script_args "-DPERFDUEL_GATE_FILE=${gate_file}" "-DPERFDUEL_BUILD_CONFIG=$<CONFIG>"
    "-DPERFDUEL_BASELINE_LINK=${baseline_executable}")
  # Under CTest an error is the line `perfduel: error: ...` and FAIL_REGULAR_EXPRESSION fails
  # the test (a script cannot fail without CMake's own "CMake Error at" lines before 3.29);
  # from the build, the script's exit status fails the target.
  add_test(NAME perf.${name}.baseline
    COMMAND "${CMAKE_COMMAND}" ${script_args} -DPERFDUEL_ERROR_EXIT=ctest -P "${script}")
  set_tests_properties(perf.${name}.baseline PROPERTIES
    LABELS "${labels};perf-baseline"
    FIXTURES_SETUP perf.${name}.baseline
    RUN_SERIAL TRUE
    TIMEOUT ${baseline_timeout}
    FAIL_REGULAR_EXPRESSION "perfduel: error: ")
  if(new_target STREQUAL "SKIP")
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

# Git is needed when the tests run, not now; say so early rather than at the first duel.
function(_perfduel_check_git)
  find_package(Git QUIET)
  get_property(warned GLOBAL PROPERTY PERFDUEL_WARNED_NO_GIT)
  if(NOT GIT_FOUND AND NOT warned)
    set_property(GLOBAL PROPERTY PERFDUEL_WARNED_NO_GIT TRUE)
    message(WARNING "perfduel: git was not found, but the perf gates build their baseline "
      "from the merge-base commit: perf.<name>.baseline will fail until git is installed "
      "(or give add_perf_gate() a prebuilt BASELINE_EXECUTABLE).")
  endif()
endfunction()

# --- At the end of the top-level directory ---------------------------------------------------

# Runs once, when every gate and every cache option of the project is known: checks that
# CTest will see the gates, writes each baseline's gate file, and divides
# PERFDUEL_SUITE_SECONDS among the gates.
function(_perfduel_finish)
  get_property(gates GLOBAL PROPERTY PERFDUEL_GATES)
  get_property(directories GLOBAL PROPERTY PERFDUEL_GATE_DIRECTORIES)
  if(DEFINED BUILD_TESTING AND NOT BUILD_TESTING)
    message(STATUS "perfduel: BUILD_TESTING is off, so the perf gates are not registered")
  else()
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
  endif()

  # One share of the suite budget per gate, never more than the gate's own budget.
  get_property(suite_gates GLOBAL PROPERTY PERFDUEL_SUITE_GATES)
  list(LENGTH gates gate_count)
  if(suite_gates)
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
  endif()

  get_property(baseline_gates GLOBAL PROPERTY PERFDUEL_BASELINE_GATES)
  if(NOT baseline_gates)
    return()
  endif()
  _perfduel_check_git()
  set(PERFDUEL_GENERATOR "${CMAKE_GENERATOR}")
  set(PERFDUEL_GENERATOR_PLATFORM "${CMAKE_GENERATOR_PLATFORM}")
  set(PERFDUEL_GENERATOR_TOOLSET "${CMAKE_GENERATOR_TOOLSET}")
  set(PERFDUEL_GIT_EXECUTABLE "${GIT_EXECUTABLE}")
  _perfduel_baseline_cache_args(PERFDUEL_CMAKE_ARGS)
  _perfduel_project_cache_args(PERFDUEL_PROJECT_ARGS)
  if(PERFDUEL_PROJECT_ARGS)
    list(JOIN PERFDUEL_PROJECT_ARGS " " shown)
  else()
    set(shown "none")
  endif()
  message(STATUS "perfduel: baselines are configured with the project's cache options: ${shown}")
  foreach(gate IN LISTS baseline_gates)
    get_property(settings GLOBAL PROPERTY PERFDUEL_GATE_SETTINGS_${gate})
    cmake_language(EVAL CODE "${settings}")
    _perfduel_write_gate_file("${CMAKE_BINARY_DIR}/perfduel/gates/${gate}.cmake"
      PERFDUEL_GATE_NAME PERFDUEL_TARGET PERFDUEL_SOURCE_DIR PERFDUEL_BASELINE_REF
      PERFDUEL_BASELINE_DIR PERFDUEL_GENERATOR PERFDUEL_GENERATOR_PLATFORM
      PERFDUEL_GENERATOR_TOOLSET PERFDUEL_GIT_EXECUTABLE PERFDUEL_BASELINE_KEEP
      PERFDUEL_NEW_TARGET PERFDUEL_CMAKE_ARGS PERFDUEL_PROJECT_ARGS PERFDUEL_EXTRA_ARGS
      PERFDUEL_RUN_ARGS PERFDUEL_RUN_CONFIG PERFDUEL_RUN_DIRECTORY PERFDUEL_RUN_SECONDS
      PERFDUEL_BASELINE_SCRIPT PERFDUEL_CMAKE_COMMAND)
  endforeach()
endfunction()

# Defers _perfduel_finish to the end of the top-level directory, once, and remembers the
# directory of this gate (its tests are only generated where testing is enabled).
function(_perfduel_schedule_finish)
  set_property(GLOBAL APPEND PROPERTY PERFDUEL_GATE_DIRECTORIES "${CMAKE_CURRENT_SOURCE_DIR}")
  get_property(scheduled GLOBAL PROPERTY PERFDUEL_FINISH_SCHEDULED)
  if(NOT scheduled)
    set_property(GLOBAL PROPERTY PERFDUEL_FINISH_SCHEDULED TRUE)
    cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL _perfduel_finish)
  endif()
endfunction()

# CPUS <n>: the test's CTest resource groups, and with a resource spec file no RUN_SERIAL
# (CTest ignores RESOURCE_GROUPS without one, so the gate must then stay serial). Reads
# _arg_CPUS of add_perf_gate(); sets CTEST_RESOURCE_SPEC_FILE in add_perf_gate()'s caller.
macro(_perfduel_gate_cpus test)
  if(DEFINED _arg_CPUS)
    set(_perfduel_cpus "${_arg_CPUS}")
  elseif(DEFINED PERFDUEL_CPUS)
    set(_perfduel_cpus "${PERFDUEL_CPUS}")
  else()
    set(_perfduel_cpus "")
  endif()
  if(NOT _perfduel_cpus STREQUAL "")
    if(NOT _perfduel_cpus MATCHES "^[1-9][0-9]*$")
      message(FATAL_ERROR "add_perf_gate(NAME ${name}): CPUS \"${_perfduel_cpus}\" is not valid; "
        "expected a whole number of CPUs >= 1")
    endif()
    set_tests_properties(${test} PROPERTIES RESOURCE_GROUPS "${_perfduel_cpus},cpus:1")
    if(PERFDUEL_RESOURCE_SPEC_FILE)
      _perfduel_absolute(_perfduel_spec "${PERFDUEL_RESOURCE_SPEC_FILE}" "${CMAKE_SOURCE_DIR}")
      set(CTEST_RESOURCE_SPEC_FILE "${_perfduel_spec}" PARENT_SCOPE)
      set_tests_properties(${test} PROPERTIES RUN_SERIAL FALSE)
      set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT "PERFDUEL_REQUIRE_CTEST_CPUS=${_perfduel_cpus}")
    endif()
  endif()
endmacro()

function(add_perf_gate)
  if(PERFDUEL_IS_BASELINE_BUILD)
    return()  # This is the baseline's own build: it only needs the benchmark target.
  endif()
  set(one_value_keywords NAME TARGET CONFIG BASELINE_REF BASELINE_EXECUTABLE NEW_TARGET
    WORKING_DIRECTORY TIMEOUT CPUS JSON_REPORT MARKDOWN_REPORT SVG_REPORT FRAMEWORK)
  set(multi_value_keywords ARGS LABELS)
  cmake_parse_arguments(PARSE_ARGV 0 _arg "" "${one_value_keywords}" "${multi_value_keywords}")

  # Check everything first; the helpers below read these variables from this scope.
  _perfduel_check_keywords("${one_value_keywords}" "${multi_value_keywords}")
  _perfduel_check_name()
  set(name "${_arg_NAME}")
  _perfduel_resolve_target(target "${name}")
  _perfduel_resolve_baseline(baseline_ref baseline_executable new_target "${name}")
  _perfduel_resolve_config(config "${name}")
  _perfduel_resolve_timeout(timeout max_seconds "${name}")
  _perfduel_check_project_variables()
  _perfduel_resolve_paths("${name}")
  _perfduel_resolve_framework("${name}")
  _perfduel_driver(driver "${name}" "${target}")
  set(labels perf ${PERFDUEL_LABELS} ${_arg_LABELS})
  list(REMOVE_DUPLICATES labels)

  # Register.
  set_property(GLOBAL APPEND PROPERTY PERFDUEL_GATES "${name}")
  _perfduel_schedule_finish()
  _perfduel_duel_budget(duel_budget "${name}" "${max_seconds}")
  set(build_baseline FALSE)
  if(baseline_executable STREQUAL "")
    set(build_baseline TRUE)
    # A stable path that the fixture points at the current baseline's executable.
    set(baseline_executable "${CMAKE_BINARY_DIR}/perfduel/bin/${name}")
    get_property(multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
    if(multi_config)
      string(APPEND baseline_executable "/$<CONFIG>")
    endif()
    string(APPEND baseline_executable "/$<TARGET_FILE_NAME:${target}>")
  endif()
  _perfduel_add_duel_test()
  _perfduel_gate_cpus(perf.${name})
  if(build_baseline)
    _perfduel_add_baseline()
  endif()
endfunction()
