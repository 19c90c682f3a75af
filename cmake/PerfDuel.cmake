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
  add_perf_gate(NAME sort_speed TARGET bench_sort CONFIG perf/sort.yaml)

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
    flags, and builds only ``<target>`` (in the configuration of ``ctest -C`` with a
    multi-config generator). The result is cached by commit id: a second run does not rebuild,
    a new merge-base does. Not registered when ``BASELINE_EXECUTABLE`` is given. With
    ``NEW_TARGET SKIP`` it also has ``SKIP_REGULAR_EXPRESSION "perfduel: skipped: "``.

  ``perf.<name>``
    Runs ``perfduel compare --baseline '<baseline> ARGS...' --candidate '<target> ARGS...'``
    with ``--ctest-measurements`` (prints ``<CTestMeasurement>`` tags and
    ``CTEST_FULL_OUTPUT``), ``--json``, ``--markdown`` and ``--max-seconds`` (``TIMEOUT`` minus
    a margin, so the driver ends with an inconclusive verdict before CTest would kill it).
    Properties: ``LABELS perf;<LABELS>``, ``RUN_SERIAL``, ``TIMEOUT``,
    ``SKIP_RETURN_CODE 77`` (inconclusive is reported as skipped), ``FIXTURES_REQUIRED``
    ``perf.<name>.baseline``, ``ATTACHED_FILES <JSON_REPORT>;<SVG_REPORT>``.
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
``PERFDUEL_BASELINE_DIR``
  Where baseline worktrees and builds live. Default ``${CMAKE_BINARY_DIR}/perfduel/baselines``.
``PERFDUEL_BASELINE_CMAKE_ARGS``
  Extra arguments for configuring the baseline (e.g. ``-DMY_OPTION=ON``). Default: none.
``PERFDUEL_BASELINE_TIMEOUT``
  CTest timeout of ``perf.<name>.baseline`` in seconds. Default 3600.
``PERFDUEL_BASELINE_KEEP``
  How many baseline builds (commits) to keep; older ones are removed. Default 3.
``PERFDUEL_IS_BASELINE_BUILD``
  Set by the baseline build itself; ``add_perf_gate()`` then does nothing.

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
  foreach(arg IN LISTS PERFDUEL_BASELINE_CMAKE_ARGS)
    string(REPLACE ";" "\\;" arg "${arg}")
    list(APPEND args "${arg}")
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

function(add_perf_gate)
  if(PERFDUEL_IS_BASELINE_BUILD)
    return()  # This is the baseline's own build: it only needs the benchmark target.
  endif()

  set(one_value_keywords NAME TARGET CONFIG BASELINE_REF BASELINE_EXECUTABLE NEW_TARGET
    WORKING_DIRECTORY TIMEOUT JSON_REPORT MARKDOWN_REPORT SVG_REPORT FRAMEWORK)
  set(multi_value_keywords ARGS LABELS)
  cmake_parse_arguments(PARSE_ARGV 0 _arg "" "${one_value_keywords}" "${multi_value_keywords}")
  string(REPLACE ";" " " expected_keywords "${one_value_keywords};${multi_value_keywords}")
  if(_arg_UNPARSED_ARGUMENTS)
    list(JOIN _arg_UNPARSED_ARGUMENTS " " unknown)
    message(FATAL_ERROR "add_perf_gate: unknown argument(s) \"${unknown}\"; "
      "expected keywords: ${expected_keywords}")
  endif()
  foreach(keyword IN LISTS _arg_KEYWORDS_MISSING_VALUES)
    message(FATAL_ERROR "add_perf_gate: ${keyword} needs a value")
  endforeach()

  # NAME
  if(NOT DEFINED _arg_NAME)
    message(FATAL_ERROR "add_perf_gate: NAME is required (the test is called perf.<NAME>)")
  endif()
  if(NOT _arg_NAME MATCHES "^[A-Za-z0-9_+-][A-Za-z0-9_.+-]*$")
    message(FATAL_ERROR "add_perf_gate: NAME \"${_arg_NAME}\" is not valid; "
      "expected letters, digits and _.+- only")
  endif()
  set(name "${_arg_NAME}")
  get_property(gates GLOBAL PROPERTY PERFDUEL_GATES)
  if(name IN_LIST gates)
    message(FATAL_ERROR "add_perf_gate: a perf gate named \"${name}\" already exists; "
      "expected a unique NAME")
  endif()

  # TARGET
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

  # BASELINE_REF / BASELINE_EXECUTABLE
  if(DEFINED _arg_BASELINE_REF AND DEFINED _arg_BASELINE_EXECUTABLE)
    message(FATAL_ERROR "add_perf_gate(NAME ${name}): BASELINE_REF and BASELINE_EXECUTABLE "
      "exclude each other; expected one of them (or neither)")
  endif()
  if(DEFINED _arg_BASELINE_EXECUTABLE)
    _perfduel_absolute(baseline_executable "${_arg_BASELINE_EXECUTABLE}"
      "${CMAKE_CURRENT_SOURCE_DIR}")
  else()
    if(DEFINED _arg_BASELINE_REF)
      set(baseline_ref "${_arg_BASELINE_REF}")
    else()
      set(baseline_ref "${PERFDUEL_BASELINE_REF}")
    endif()
    if(baseline_ref STREQUAL "" OR baseline_ref MATCHES "^-|[ \t\n]")
      message(FATAL_ERROR "add_perf_gate(NAME ${name}): BASELINE_REF \"${baseline_ref}\" is "
        "not valid; expected a git ref such as origin/main (see PERFDUEL_BASELINE_REF)")
    endif()
  endif()

  # NEW_TARGET
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

  # CONFIG
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

  # TIMEOUT and the driver's budget inside it.
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

  # Where things go.
  if(DEFINED PERFDUEL_REPORT_DIR)
    _perfduel_absolute(report_dir "${PERFDUEL_REPORT_DIR}" "${CMAKE_BINARY_DIR}")
  else()
    set(report_dir "${CMAKE_BINARY_DIR}/perfduel/reports")
  endif()
  if(DEFINED _arg_JSON_REPORT)
    _perfduel_absolute(json_report "${_arg_JSON_REPORT}" "${CMAKE_CURRENT_BINARY_DIR}")
  else()
    set(json_report "${report_dir}/${name}.json")
  endif()
  if(DEFINED _arg_MARKDOWN_REPORT)
    _perfduel_absolute(markdown_report "${_arg_MARKDOWN_REPORT}" "${CMAKE_CURRENT_BINARY_DIR}")
  else()
    cmake_path(REPLACE_EXTENSION json_report LAST_ONLY ".md" OUTPUT_VARIABLE markdown_report)
  endif()
  if(DEFINED _arg_SVG_REPORT)
    _perfduel_absolute(svg_report "${_arg_SVG_REPORT}" "${CMAKE_CURRENT_BINARY_DIR}")
  else()
    cmake_path(REPLACE_EXTENSION json_report LAST_ONLY ".svg" OUTPUT_VARIABLE svg_report)
  endif()
  foreach(report IN ITEMS "${json_report}" "${markdown_report}" "${svg_report}")
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
  set(labels perf ${PERFDUEL_LABELS} ${_arg_LABELS})
  list(REMOVE_DUPLICATES labels)

  if(NOT TARGET PerfDuel::perfduel)
    message(FATAL_ERROR "add_perf_gate(NAME ${name}): the target PerfDuel::perfduel does not "
      "exist; expected find_package(PerfDuel REQUIRED) before add_perf_gate()")
  endif()
  set(driver "$<TARGET_FILE:PerfDuel::perfduel>")

  # Everything is checked: register.
  set_property(GLOBAL APPEND PROPERTY PERFDUEL_GATES "${name}")

  # perfduel as a sub-project (add_subdirectory/FetchContent): the driver is built in this tree,
  # perhaps EXCLUDE_FROM_ALL; building the benchmark builds it, so `ctest` finds it.
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

  get_property(multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  if(NOT DEFINED baseline_executable)
    set(baseline_dir "${CMAKE_BINARY_DIR}/perfduel/baselines")
    if(DEFINED PERFDUEL_BASELINE_DIR)
      _perfduel_absolute(baseline_dir "${PERFDUEL_BASELINE_DIR}" "${CMAKE_BINARY_DIR}")
    endif()
    # A stable path that the fixture points at the current baseline's executable.
    set(baseline_executable "${CMAKE_BINARY_DIR}/perfduel/bin/${name}")
    if(multi_config)
      string(APPEND baseline_executable "/$<CONFIG>")
    endif()
    string(APPEND baseline_executable "/$<TARGET_FILE_NAME:${target}>")
    set(build_baseline TRUE)
  else()
    set(build_baseline FALSE)
  endif()

  # FRAMEWORK: the arguments that make the benchmark print what its metrics read.
  if(DEFINED _arg_FRAMEWORK)
    if(_arg_FRAMEWORK STREQUAL "gbench")
      list(APPEND _arg_ARGS --benchmark_format=json)
    elseif(_arg_FRAMEWORK STREQUAL "catch2")
      if(NOT _arg_ARGS)
        list(APPEND _arg_ARGS "[!benchmark]")
      endif()
      list(APPEND _arg_ARGS -r xml)
    else()
      message(FATAL_ERROR "add_perf_gate(NAME ${name}): FRAMEWORK \"${_arg_FRAMEWORK}\" is not valid; "
        "expected gbench or catch2")
    endif()
  endif()
  set(quoted_args "")
  foreach(arg IN LISTS _arg_ARGS)
    _perfduel_quote_word(arg "${arg}")
    string(APPEND quoted_args " ${arg}")
  endforeach()
  _perfduel_quote_word(baseline_command "${baseline_executable}")
  _perfduel_quote_word(candidate_command "$<TARGET_FILE:${target}>")

  set(compare_args "")
  if(NOT config STREQUAL "")
    list(APPEND compare_args --config "${config}")
  endif()
  list(APPEND compare_args
    --json "${json_report}"
    --markdown "${markdown_report}"
    --svg "${svg_report}"
    --max-seconds ${max_seconds}
    --ctest-measurements
    ${PERFDUEL_COMPARE_ARGS}
    --baseline "${baseline_command}${quoted_args}"
    --candidate "${candidate_command}${quoted_args}")
  set(baseline_script "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/PerfDuelBaseline.cmake")
  set(gate_file "${CMAKE_BINARY_DIR}/perfduel/gates/${name}.cmake")
  if(build_baseline AND new_target STREQUAL "SKIP")
    # The baseline step leaves this marker when the commit has no target to compare against;
    # the driver then reports the gate skipped (77) instead of running.
    list(PREPEND compare_args --skip-if "${baseline_executable}.no-baseline")
  endif()
  add_test(NAME perf.${name}
    COMMAND "${driver}" compare ${compare_args}
    WORKING_DIRECTORY "${working_directory}")
  set_tests_properties(perf.${name} PROPERTIES
    LABELS "${labels}"
    RUN_SERIAL TRUE
    TIMEOUT ${timeout}
    SKIP_RETURN_CODE 77
    ATTACHED_FILES "${json_report};${svg_report}")

  if(NOT build_baseline)
    return()
  endif()

  # The baseline: a fixture for `ctest`, a target for the build.
  find_package(Git QUIET)
  set(PERFDUEL_GATE_NAME "${name}")
  set(PERFDUEL_TARGET "${target}")
  set(PERFDUEL_SOURCE_DIR "${CMAKE_SOURCE_DIR}")
  set(PERFDUEL_BASELINE_REF "${baseline_ref}")
  set(PERFDUEL_BASELINE_DIR "${baseline_dir}")
  set(PERFDUEL_GENERATOR "${CMAKE_GENERATOR}")
  set(PERFDUEL_GENERATOR_PLATFORM "${CMAKE_GENERATOR_PLATFORM}")
  set(PERFDUEL_GENERATOR_TOOLSET "${CMAKE_GENERATOR_TOOLSET}")
  set(PERFDUEL_GIT_EXECUTABLE "${GIT_EXECUTABLE}")
  if(NOT DEFINED PERFDUEL_BASELINE_KEEP)
    set(PERFDUEL_BASELINE_KEEP 3)
  endif()
  set(PERFDUEL_NEW_TARGET "${new_target}")
  _perfduel_baseline_cache_args(PERFDUEL_CMAKE_ARGS)
  _perfduel_write_gate_file("${gate_file}"
    PERFDUEL_GATE_NAME PERFDUEL_TARGET PERFDUEL_SOURCE_DIR PERFDUEL_BASELINE_REF
    PERFDUEL_BASELINE_DIR PERFDUEL_GENERATOR PERFDUEL_GENERATOR_PLATFORM
    PERFDUEL_GENERATOR_TOOLSET PERFDUEL_GIT_EXECUTABLE PERFDUEL_BASELINE_KEEP
    PERFDUEL_NEW_TARGET PERFDUEL_CMAKE_ARGS)

  set(script_command "${CMAKE_COMMAND}"
    "-DPERFDUEL_GATE_FILE=${gate_file}"
    "-DPERFDUEL_BUILD_CONFIG=$<CONFIG>"
    "-DPERFDUEL_BASELINE_LINK=${baseline_executable}"
    -P "${baseline_script}")

  if(DEFINED PERFDUEL_BASELINE_TIMEOUT)
    set(baseline_timeout "${PERFDUEL_BASELINE_TIMEOUT}")
  else()
    set(baseline_timeout 3600)
  endif()
  add_test(NAME perf.${name}.baseline COMMAND ${script_command})
  set_tests_properties(perf.${name}.baseline PROPERTIES
    LABELS "${labels};perf-baseline"
    FIXTURES_SETUP perf.${name}.baseline
    RUN_SERIAL TRUE
    TIMEOUT ${baseline_timeout})
  if(new_target STREQUAL "SKIP")
    # A skipped setup does not stop the tests that require the fixture: perf.<name> then
    # finds the baseline step's marker (--skip-if) and reports itself skipped.
    set_tests_properties(perf.${name}.baseline PROPERTIES
      SKIP_REGULAR_EXPRESSION "perfduel: skipped: ")
  endif()
  set_property(TEST perf.${name} APPEND PROPERTY FIXTURES_REQUIRED perf.${name}.baseline)

  add_custom_target(perfduel_baseline_${name}
    COMMAND ${script_command}
    COMMENT "perfduel: building the baseline of perf.${name}"
    USES_TERMINAL VERBATIM)
  if(NOT TARGET perfduel_baselines)
    add_custom_target(perfduel_baselines)
  endif()
  add_dependencies(perfduel_baselines perfduel_baseline_${name})
endfunction()
