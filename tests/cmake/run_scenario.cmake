# Timing: a test whose outcome depends on timing asserts only what holds with probability
# ≥ 1 − 10⁻⁴ per run, derived in a comment from the α and the effect size it uses, or takes
# timing out of the question (counted metrics, printed scores, a fake executor, seeded
# simulation); see tests/README.md. Here every duel's verdict is taken out of it: the gates
# decide on the step count spin prints (quick_config), `inconclusive` can reach neither its
# threshold nor its tolerance, and `parallel_gates` synchronises on files.
#
# CMake-module tests: each scenario copies consumer/ into a throw-away git repository, runs the
# real cmake and ctest there, and checks what a user would see.
#
#   cmake -DSCENARIO=<name> -DPERFDUEL_BUILD_DIR=<perfduel build tree>
#         -DPERFDUEL_SOURCE_DIR=<perfduel source tree> -DWORK_ROOT=<scratch directory>
#         -DGENERATOR=<generator> -P run_scenario.cmake
#
# The consumer is built and tested in the Release configuration. SCENARIO multi_config_<name>
# runs scenario <name> with a multi-config GENERATOR: no CMAKE_BUILD_TYPE, but
# `cmake --build --config Release` and `ctest -C Release`.
cmake_minimum_required(VERSION 3.25)

foreach(required SCENARIO PERFDUEL_BUILD_DIR PERFDUEL_SOURCE_DIR WORK_ROOT GENERATOR)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "run_scenario.cmake: -D${required}=... is required")
  endif()
endforeach()
set(consumer_template "${CMAKE_CURRENT_LIST_DIR}/consumer")
set(work "${WORK_ROOT}/${SCENARIO}")
# multi_config_<name>: scenario <name> with a multi-config generator.
set(scenario "${SCENARIO}")
set(multi_config FALSE)
if(SCENARIO MATCHES "^multi_config_(.+)$")
  set(scenario "${CMAKE_MATCH_1}")
  set(multi_config TRUE)
endif()
# The configuration the consumer is built and tested in, and the `cmake --build` arguments that
# build it (a single-config generator gets it as CMAKE_BUILD_TYPE instead).
set(build_config Release)
set(build_config_args "")
if(multi_config)
  set(build_config_args --config "${build_config}")
endif()
file(REMOVE_RECURSE "${work}")
file(MAKE_DIRECTORY "${work}")

# Reproducible git, whatever the machine's configuration: no user or system config (a fresh CI
# runner has no user.name), a fixed identity, and no walking up into an enclosing repository
# (the scratch directory usually lives inside perfduel's own clone).
set(ENV{GIT_CONFIG_NOSYSTEM} 1)
set(ENV{GIT_CONFIG_GLOBAL} /dev/null)
set(ENV{GIT_AUTHOR_NAME} "perfduel test")
set(ENV{GIT_AUTHOR_EMAIL} "test@perfduel.invalid")
set(ENV{GIT_COMMITTER_NAME} "perfduel test")
set(ENV{GIT_COMMITTER_EMAIL} "test@perfduel.invalid")
set(ENV{GIT_CEILING_DIRECTORIES} "${WORK_ROOT}")
unset(ENV{GIT_DIR})
unset(ENV{GIT_WORK_TREE})
# One compiler at a time: a scenario may run beside a timed test (tests/README.md).
set(ENV{CMAKE_BUILD_PARALLEL_LEVEL} 1)
find_program(GIT git REQUIRED)

# --- helpers ---------------------------------------------------------------------------------

set(failures "")
function(fail what)
  set(failures "${failures}\n  - ${what}" PARENT_SCOPE)
endfunction()

# expect_equal(<what> <actual> <expected>): string equality (lists compare as ;-joined text).
function(expect_equal what actual expected)
  if(NOT actual STREQUAL expected)
    set(failures "${failures}\n  - ${what}: got \"${actual}\", expected \"${expected}\""
      PARENT_SCOPE)
  endif()
endfunction()

# expect_rc(<what> <rc> 0|NONZERO): the exit status of a step, with its output on failure.
function(expect_rc what rc expected output)
  if(expected STREQUAL "NONZERO")
    if(rc EQUAL 0)
      set(failures "${failures}\n  - ${what}: succeeded, expected a failure. Output:\n${output}"
        PARENT_SCOPE)
    endif()
  elseif(NOT rc EQUAL expected)
    set(failures "${failures}\n  - ${what}: exit status ${rc}, expected ${expected}. Output:\n${output}"
      PARENT_SCOPE)
  endif()
endfunction()

function(expect_exists path)
  if(NOT EXISTS "${path}")
    set(failures "${failures}\n  - ${path} does not exist" PARENT_SCOPE)
  endif()
endfunction()

function(expect_not_exists path)
  if(EXISTS "${path}" OR IS_SYMLINK "${path}")
    set(failures "${failures}\n  - ${path} exists, expected it not to" PARENT_SCOPE)
  endif()
endfunction()

function(finish)
  if(failures)
    message(FATAL_ERROR "scenario ${SCENARIO} failed:${failures}")
  endif()
  message(STATUS "scenario ${SCENARIO}: ok")
endfunction()

# run(<prefix> [DIR <dir>] COMMAND...): sets <prefix>_rc and <prefix>_out (stdout + stderr).
function(run prefix)
  cmake_parse_arguments(PARSE_ARGV 1 _run "" "DIR" "")
  if(NOT _run_DIR)
    set(_run_DIR "${work}")
  endif()
  execute_process(COMMAND ${_run_UNPARSED_ARGUMENTS} WORKING_DIRECTORY "${_run_DIR}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  string(REPLACE ";" "," printable "${_run_UNPARSED_ARGUMENTS}")
  message(STATUS "[${SCENARIO}] ${printable} -> ${rc}")
  set(${prefix}_rc "${rc}" PARENT_SCOPE)
  set(${prefix}_out "${out}" PARENT_SCOPE)
endfunction()

# Stops the scenario when a setup step fails: nothing after it would mean anything.
function(run_checked prefix)
  run(result ${ARGN})
  if(NOT result_rc EQUAL 0)
    message(FATAL_ERROR "scenario ${SCENARIO}: setup step failed:\n${result_out}")
  endif()
  set(${prefix}_out "${result_out}" PARENT_SCOPE)
endfunction()

function(git repo)
  run_checked(git DIR "${repo}" "${GIT}" ${ARGN})
  set(git_out "${git_out}" PARENT_SCOPE)
endfunction()

function(commit repo message)
  git("${repo}" add -A)
  git("${repo}" -c commit.gpgsign=false commit -q -m "${message}")
endfunction()

# Collapses whitespace so pinned messages survive CMake's re-flowing of FATAL_ERROR text.
function(normalize out_var text)
  string(REGEX REPLACE "[ \t\r\n]+" " " text "${text}")
  set(${out_var} "${text}" PARENT_SCOPE)
endfunction()

# expect_text(<text> <expected>...): every expected string occurs in text (whitespace-blind).
function(expect_text text)
  normalize(text "${text}")
  math(EXPR last "${ARGC} - 1")
  foreach(i RANGE 1 ${last})
    normalize(expected "${ARGV${i}}")  # ARGV<i>, not ARGN: keeps semicolons in the message
    string(FIND "${text}" "${expected}" at)
    if(at EQUAL -1)
      set(failures "${failures}\n  - expected the output to contain \"${expected}\"; output:\n${text}")
    endif()
  endforeach()
  set(failures "${failures}" PARENT_SCOPE)
endfunction()

# A consumer project at `dir`; optional `gate` is the content of gate.cmake.
function(make_consumer dir gate)
  file(COPY "${consumer_template}/" DESTINATION "${dir}")
  file(WRITE "${dir}/gate.cmake" "${gate}")
endfunction()

function(make_repo dir gate)
  make_consumer("${dir}" "${gate}")
  git("${work}" init -q -b main "${dir}")
  commit("${dir}" "commit 1: the consumer")
endfunction()

function(replace_in_file file from to)
  file(READ "${file}" content)
  string(REPLACE "${from}" "${to}" new_content "${content}")
  if(new_content STREQUAL content)
    message(FATAL_ERROR "scenario ${SCENARIO}: \"${from}\" not found in ${file}")
  endif()
  file(WRITE "${file}" "${new_content}")
endfunction()

# configure(<prefix> <source> <build> [cmake args]): sets <prefix>_rc and <prefix>_out.
function(configure prefix source build)
  set(build_type_arg "")
  if(NOT multi_config)
    set(build_type_arg "-DCMAKE_BUILD_TYPE=${build_config}")
  endif()
  run(result cmake -S "${source}" -B "${build}" -G "${GENERATOR}" ${build_type_arg}
    "-DPerfDuel_DIR=${PERFDUEL_BUILD_DIR}" ${ARGN})
  set(${prefix}_rc "${result_rc}" PARENT_SCOPE)
  set(${prefix}_out "${result_out}" PARENT_SCOPE)
endfunction()

function(configure_and_build source build)
  configure(result "${source}" "${build}" ${ARGN})
  if(NOT result_rc EQUAL 0)
    message(FATAL_ERROR "scenario ${SCENARIO}: configuring the consumer failed:\n${result_out}")
  endif()
  run_checked(result cmake --build "${build}" ${build_config_args})
endfunction()

# ctest_perf(<prefix> <build> [CONFIG <config>] [ctest args]): `ctest -L perf`, with
# `-C <config>` (default: build_config) for a multi-config generator.
function(ctest_perf prefix build)
  cmake_parse_arguments(PARSE_ARGV 2 _ctest "" "CONFIG" "")
  set(config_args "")
  if(multi_config)
    if(NOT _ctest_CONFIG)
      set(_ctest_CONFIG "${build_config}")
    endif()
    set(config_args -C "${_ctest_CONFIG}")
  endif()
  run(result DIR "${build}" ctest ${config_args} -L perf --output-on-failure
    ${_ctest_UNPARSED_ARGUMENTS})
  set(${prefix}_rc "${result_rc}" PARENT_SCOPE)
  set(${prefix}_out "${result_out}" PARENT_SCOPE)
endfunction()

# show_tests(<build>): sets `tests_json` to ctest --show-only=json-v1's "tests" array.
function(show_tests build)
  run_checked(show DIR "${build}" ctest --show-only=json-v1)
  string(JSON tests GET "${show_out}" tests)
  set(tests_json "${tests}" PARENT_SCOPE)
endfunction()

# test_property(<out_var> <test name> <property>): value, or NOTFOUND (arrays as ;-lists).
function(test_property out_var test property)
  set(${out_var} NOTFOUND PARENT_SCOPE)
  string(JSON count LENGTH "${tests_json}")
  math(EXPR last "${count} - 1")
  foreach(i RANGE ${last})
    string(JSON name GET "${tests_json}" ${i} name)
    if(NOT name STREQUAL test)
      continue()
    endif()
    if(property STREQUAL "COMMAND")
      # ctest omits the command when the executable does not exist (yet).
      string(JSON length ERROR_VARIABLE error LENGTH "${tests_json}" ${i} command)
      if(error)
        return()
      endif()
      set(words "")
      math(EXPR last_word "${length} - 1")
      foreach(w RANGE ${last_word})
        string(JSON word GET "${tests_json}" ${i} command ${w})
        list(APPEND words "${word}")
      endforeach()
      set(${out_var} "${words}" PARENT_SCOPE)
      return()
    endif()
    string(JSON nprops ERROR_VARIABLE error LENGTH "${tests_json}" ${i} properties)
    if(error)
      return()
    endif()
    math(EXPR last_prop "${nprops} - 1")
    foreach(p RANGE ${last_prop})
      string(JSON pname GET "${tests_json}" ${i} properties ${p} name)
      if(pname STREQUAL property)
        string(JSON type TYPE "${tests_json}" ${i} properties ${p} value)
        if(type STREQUAL "ARRAY")
          string(JSON n LENGTH "${tests_json}" ${i} properties ${p} value)
          set(values "")
          math(EXPR last_value "${n} - 1")
          foreach(v RANGE ${last_value})
            string(JSON value GET "${tests_json}" ${i} properties ${p} value ${v})
            list(APPEND values "${value}")
          endforeach()
          set(${out_var} "${values}" PARENT_SCOPE)
        else()
          string(JSON value GET "${tests_json}" ${i} properties ${p} value)
          set(${out_var} "${value}" PARENT_SCOPE)
        endif()
        return()
      endif()
    endforeach()
  endforeach()
endfunction()

function(test_names out_var)
  set(names "")
  string(JSON count LENGTH "${tests_json}")
  if(count GREATER 0)
    math(EXPR last "${count} - 1")
    foreach(i RANGE ${last})
      string(JSON name GET "${tests_json}" ${i} name)
      list(APPEND names "${name}")
    endforeach()
  endif()
  set(${out_var} "${names}" PARENT_SCOPE)
endfunction()

# baseline_link(<out_var> <build> <config>): the executable that the gate spin's baseline path
# points at ("" and a failure when it is not a symbolic link).
function(baseline_link out_var build config)
  set(link "${build}/perfduel/bin/spin")
  if(multi_config)
    string(APPEND link "/${config}")
  endif()
  string(APPEND link "/spin")
  set(target "")
  if(IS_SYMLINK "${link}")
    file(READ_SYMLINK "${link}" target)
  else()
    set(failures "${failures}\n  - ${link} is not a symbolic link" PARENT_SCOPE)
  endif()
  set(${out_var} "${target}" PARENT_SCOPE)
endfunction()

# expect_identical_programs(<report>): the gate's report says the baseline and the candidate were
# identical programs, with 0 measured rounds, and among the files compared is the project's
# library libspin_where.so, each side's from its own build tree.
function(expect_identical_programs report_file)
  file(READ "${report_file}" report)
  string(JSON end GET "${report}" end)
  string(JSON rounds GET "${report}" measured_rounds)
  string(JSON compared GET "${report}" programs compared)
  string(JSON reason GET "${report}" programs reason)
  expect_equal("the gate's end" "${end}" "identical-programs")
  expect_equal("measured rounds of the gate" "${rounds}" "0")
  expect_equal("the programs compared (${reason})" "${compared}" "identical")
  if(NOT compared STREQUAL "identical")
    set(failures "${failures}" PARENT_SCOPE)
    return()
  endif()
  set(libraries "")
  foreach(side baseline candidate)
    string(JSON count LENGTH "${report}" programs ${side} files)
    math(EXPR last "${count} - 1")
    foreach(i RANGE ${last})
      string(JSON name GET "${report}" programs ${side} files ${i} name)
      string(JSON path GET "${report}" programs ${side} files ${i} path)
      if(name STREQUAL "libspin_where.so")
        list(APPEND libraries "${side}:${path}")
      endif()
    endforeach()
  endforeach()
  if(NOT libraries MATCHES "^baseline:[^;]*/perfduel/baselines/[^;]*;candidate:")
    set(failures "${failures}\n  - libspin_where.so is not compared, each side's its own: ${libraries}")
  endif()
  set(failures "${failures}" PARENT_SCOPE)
endfunction()

# The perf config of the duel scenarios. They are about the CMake module (which commits are
# built, with which options, how a verdict reaches CTest), not about timing, so the gate is on a
# count that no load can change: the steps spin prints ("work: 12000000" at k_work = 1). Each
# side prints one value every run, so the duel settles after 3 rounds (a value that is not a
# time and identical to the bit in every run of a side needs no more): no change where the
# source is unchanged, +200 % and a regression where a commit triples k_work, with certainty.
# The times are measured and reported, not gated. A small budget and a fixed seed all the same.
set(quick_config [=[
warmup: 1
min_rounds: 8
max_rounds: 60
max_seconds: 40
seed: 1
metrics:
  work: {regex: 'work: ([0-9]+)', threshold: 25%, tolerance: 5%, gate: true}
  user_time: {gate: false}
  wall_time: {gate: false}
  system_time: {gate: false}
  max_rss: {gate: false}
]=])
set(standard_gate [=[
add_perf_gate(NAME spin TARGET spin CONFIG perf.yaml TIMEOUT 120)
]=])

# --- scenarios -------------------------------------------------------------------------------

if(scenario STREQUAL "registration")
  make_consumer("${work}/project" [=[
add_perf_gate(NAME spin TARGET spin ARGS --size "a b" "it's" CONFIG perf.yaml
              LABELS smoke nightly TIMEOUT 120)
add_perf_gate(NAME prebuilt TARGET spin BASELINE_EXECUTABLE /opt/old/spin
              WORKING_DIRECTORY data JSON_REPORT reports/prebuilt.json)
add_perf_gate(NAME defaults TARGET spin BASELINE_REF release)
add_perf_gate(NAME strict TARGET spin NEW_TARGET FAIL CPUS 2)
]=])
  file(WRITE "${work}/project/perf.yaml" "${quick_config}")
  configure(cfg "${work}/project" "${work}/project/build")
  expect_rc("configure succeeds" "${cfg_rc}" 0 "${cfg_out}")
  show_tests("${work}/project/build")
  test_names(names)
  expect_equal("tests registered" "${names}" "perf.spin;perf.spin.baseline;perf.prebuilt;perf.defaults;perf.defaults.baseline;perf.strict;perf.strict.baseline")

  test_property(labels perf.spin LABELS)
  expect_equal("perf.spin LABELS" "${labels}" "nightly;perf;smoke")
  test_property(value perf.spin RUN_SERIAL)
  expect_equal("perf.spin RUN_SERIAL" "${value}" "ON")
  test_property(value perf.spin SKIP_RETURN_CODE)
  expect_equal("perf.spin SKIP_RETURN_CODE" "${value}" "77")
  test_property(value perf.spin TIMEOUT)
  expect_equal("perf.spin TIMEOUT" "${value}" "120.0")
  test_property(value perf.spin FIXTURES_REQUIRED)
  expect_equal("perf.spin FIXTURES_REQUIRED" "${value}" "perf.spin.baseline")
  test_property(value perf.spin ATTACHED_FILES)
  expect_equal("perf.spin ATTACHED_FILES" "${value}" "${work}/project/build/perfduel/reports/spin.json;${work}/project/build/perfduel/reports/spin.svg")
  test_property(value perf.spin WORKING_DIRECTORY)
  expect_equal("perf.spin WORKING_DIRECTORY" "${value}" "${work}/project/build")
  test_property(command perf.spin COMMAND)
  set(b "${work}/project/build")
  list(GET command 0 driver)
  expect_equal("perf.spin runs the driver from the build tree" "${driver}" "${PERFDUEL_BUILD_DIR}/tools/perfduel/perfduel")
  list(SUBLIST command 1 -1 args)
  # NEW_TARGET SKIP (the default): the marker of a baseline without the target skips the duel.
  set(expected_args compare --skip-if "${b}/perfduel/bin/spin/spin.no-baseline"
    --config "${work}/project/perf.yaml"
    --json "${b}/perfduel/reports/spin.json" --markdown "${b}/perfduel/reports/spin.md"
    --svg "${b}/perfduel/reports/spin.svg"
    --max-seconds 108 --ctest-measurements
    --baseline "'${b}/perfduel/bin/spin/spin' '--size' 'a b' 'it'\\''s'"
    --candidate "'${b}/spin' '--size' 'a b' 'it'\\''s'")
  expect_equal("perf.spin command" "${args}" "${expected_args}")

  test_property(value perf.spin.baseline FIXTURES_SETUP)
  expect_equal("perf.spin.baseline FIXTURES_SETUP" "${value}" "perf.spin.baseline")
  test_property(value perf.spin.baseline RUN_SERIAL)
  expect_equal("perf.spin.baseline RUN_SERIAL" "${value}" "ON")
  # CPUS without a resource spec file: resource groups for CTest, but still one gate at a time.
  test_property(value perf.strict RUN_SERIAL)
  expect_equal("perf.strict (CPUS 2, no spec file) RUN_SERIAL" "${value}" "ON")
  test_property(value perf.strict RESOURCE_GROUPS)
  list(LENGTH value groups)
  expect_equal("perf.strict RESOURCE_GROUPS: one group per CPU" "${groups}" "2")
  list(GET value 0 group)
  string(JSON type ERROR_VARIABLE error GET "${group}" requirements 0 .type)
  string(JSON slots ERROR_VARIABLE error GET "${group}" requirements 0 slots)
  expect_equal("perf.strict RESOURCE_GROUPS: one slot of cpus each" "${type}:${slots}" "cpus:1")
  test_property(labels perf.spin.baseline LABELS)
  expect_equal("perf.spin.baseline LABELS" "${labels}" "nightly;perf;perf-baseline;smoke")
  test_property(value perf.spin.baseline SKIP_REGULAR_EXPRESSION)
  expect_equal("perf.spin.baseline SKIP_REGULAR_EXPRESSION" "${value}" "perfduel: skipped: ")
  test_property(command perf.spin.baseline COMMAND)
  expect_text("${command}" "PerfDuelBaseline.cmake")

  test_property(value perf.prebuilt FIXTURES_REQUIRED)
  expect_equal("perf.prebuilt FIXTURES_REQUIRED" "${value}" "NOTFOUND")
  test_property(command perf.prebuilt COMMAND)
  if(command MATCHES "--skip-if")
    fail("perf.prebuilt (BASELINE_EXECUTABLE) has no baseline step, so no --skip-if: ${command}")
  endif()
  expect_text("${command}" "--baseline;'/opt/old/spin'"
    "--json;${b}/reports/prebuilt.json;--markdown;${b}/reports/prebuilt.md;--svg;${b}/reports/prebuilt.svg"
    "--max-seconds;1440")
  test_property(value perf.prebuilt WORKING_DIRECTORY)
  expect_equal("perf.prebuilt WORKING_DIRECTORY" "${value}" "${b}/data")
  test_property(value perf.defaults TIMEOUT)
  expect_equal("perf.defaults TIMEOUT" "${value}" "1500.0")
  test_property(command perf.defaults COMMAND)
  if("${command}" MATCHES "--config")
    fail("perf.defaults has no --config: ${command}")
  endif()
  file(READ "${b}/perfduel/gates/defaults.cmake" gate_file)
  expect_text("${gate_file}" "set(PERFDUEL_BASELINE_REF [==[release]==])"
    "-DCMAKE_BUILD_TYPE:STRING=Release" "-DCMAKE_CXX_COMPILER:")
  file(READ "${b}/perfduel/gates/spin.cmake" gate_file)
  expect_text("${gate_file}" "set(PERFDUEL_BASELINE_REF [==[origin/main]==])"
    "set(PERFDUEL_NEW_TARGET [==[SKIP]==])")
  # CI passes the baseline it chose for the event: the gate with its own BASELINE_REF says
  # that it compares with something else (the gates without one take CI's).
  if(cfg_out MATCHES "CMake Warning")
    fail("configuring with the default PERFDUEL_BASELINE_REF warns:\n${cfg_out}")
  endif()
  configure(ci "${work}/project" "${b}" -DPERFDUEL_BASELINE_REF=0123abc)
  expect_rc("configure with -DPERFDUEL_BASELINE_REF" "${ci_rc}" 0 "${ci_out}")
  expect_text("${ci_out}" [=[add_perf_gate(NAME defaults): BASELINE_REF "release" overrides PERFDUEL_BASELINE_REF "0123abc", which CI sets per event; drop BASELINE_REF to compare with what CI chose]=])
  file(READ "${b}/perfduel/gates/spin.cmake" gate_file)
  expect_text("${gate_file}" "set(PERFDUEL_BASELINE_REF [==[0123abc]==])")

  # NEW_TARGET FAIL: no --skip-if; the baseline fixture fails on a new target.
  test_property(command perf.strict COMMAND)
  if(command MATCHES "--skip-if")
    fail("perf.strict (NEW_TARGET FAIL) must not skip: ${command}")
  endif()
  test_property(value perf.strict.baseline SKIP_REGULAR_EXPRESSION)
  expect_equal("perf.strict.baseline SKIP_REGULAR_EXPRESSION" "${value}" "NOTFOUND")
  test_property(value perf.strict SKIP_RETURN_CODE)
  expect_equal("perf.strict SKIP_RETURN_CODE" "${value}" "77")
  file(READ "${b}/perfduel/gates/strict.cmake" gate_file)
  expect_text("${gate_file}" "set(PERFDUEL_NEW_TARGET [==[FAIL]==])")

  run(target DIR "${b}" cmake --build . --target help)
  if(GENERATOR MATCHES "Ninja|Makefiles")
    expect_text("${target_out}" "perfduel_baselines" "perfduel_baseline_spin")
  endif()

elseif(scenario STREQUAL "argument_errors")
  make_consumer("${work}/project" "")
  file(WRITE "${work}/project/perf.yaml" "${quick_config}")
  configure(cfg "${work}/project" "${work}/build")
  if(NOT cfg_rc EQUAL 0)
    message(FATAL_ERROR "the consumer without a gate does not configure:\n${cfg_out}")
  endif()
  # error_case(<gate.cmake content> <pinned message>): configure fails with that message.
  function(error_case call expected)
    string(REPLACE "@work@" "${work}" expected "${expected}")
    file(WRITE "${work}/project/gate.cmake" "${call}\n")
    configure(cfg "${work}/project" "${work}/build")
    expect_rc("configure fails for ${call}" "${cfg_rc}" NONZERO "${cfg_out}")
    expect_text("${cfg_out}" "${expected}")
    set(failures "${failures}" PARENT_SCOPE)
  endfunction()
  error_case([=[add_perf_gate(TARGET spin)]=]
    [=[add_perf_gate: NAME is required (the test is called perf.<NAME>)]=])
  error_case([=[add_perf_gate(NAME x)]=]
    [=[add_perf_gate(NAME x): TARGET is required (the benchmark executable target to compare)]=])
  error_case([=[add_perf_gate(NAME x TARGET spin BOGUS 1)]=]
    [=[add_perf_gate: unknown argument(s) "BOGUS 1"; expected keywords: NAME TARGET CONFIG BASELINE_REF BASELINE_EXECUTABLE NEW_TARGET WORKING_DIRECTORY TIMEOUT CPUS JSON_REPORT MARKDOWN_REPORT SVG_REPORT FRAMEWORK ARGS LABELS]=])
  error_case([=[add_perf_gate(NAME x TARGET spin TIMEOUT)]=]
    [=[add_perf_gate: TIMEOUT needs a value]=])
  error_case([=[add_perf_gate(NAME "a b" TARGET spin)]=]
    [=[add_perf_gate: NAME "a b" is not valid; expected letters, digits and _.+- only]=])
  error_case([=[add_perf_gate(NAME x TARGET spin)
add_perf_gate(NAME x TARGET spin)]=]
    [=[add_perf_gate: a perf gate named "x" already exists; expected a unique NAME]=])
  error_case([=[add_perf_gate(NAME x TARGET nosuch)]=]
    [=[add_perf_gate(NAME x): TARGET "nosuch" is not a target; expected an executable target defined before add_perf_gate()]=])
  error_case([=[add_perf_gate(NAME x TARGET spin_options)]=]
    [=[add_perf_gate(NAME x): TARGET "spin_options" is not an executable built by this project; expected a target from add_executable() (the baseline is built from source)]=])
  error_case([=[add_perf_gate(NAME x TARGET spin BASELINE_REF main BASELINE_EXECUTABLE /bin/true)]=]
    [=[add_perf_gate(NAME x): BASELINE_REF and BASELINE_EXECUTABLE exclude each other; expected one of them (or neither)]=])
  error_case([=[set(PERFDUEL_BASELINE_REF "")
add_perf_gate(NAME x TARGET spin)]=]
    [=[add_perf_gate(NAME x): BASELINE_REF "" is not valid; expected a git ref such as origin/main (see PERFDUEL_BASELINE_REF)]=])
  error_case([=[add_perf_gate(NAME x TARGET spin NEW_TARGET IGNORE)]=]
    [=[add_perf_gate(NAME x): NEW_TARGET "IGNORE" is not valid; expected SKIP or FAIL (what to do when the baseline commit has no target "spin")]=])
  error_case([=[add_perf_gate(NAME x TARGET spin NEW_TARGET skip)]=]
    [=[add_perf_gate(NAME x): NEW_TARGET "skip" is not valid; expected SKIP or FAIL (what to do when the baseline commit has no target "spin")]=])
  error_case([=[add_perf_gate(NAME x TARGET spin BASELINE_EXECUTABLE /bin/true NEW_TARGET FAIL)]=]
    [=[add_perf_gate(NAME x): NEW_TARGET and BASELINE_EXECUTABLE exclude each other; expected NEW_TARGET only with a baseline built from git]=])
  error_case([=[add_perf_gate(NAME x TARGET spin CONFIG missing.yaml)]=]
    [=[add_perf_gate(NAME x): CONFIG file "@work@/project/missing.yaml" does not exist; expected a perfduel.yaml (see templates/perfduel.yaml)]=])
  error_case([=[add_perf_gate(NAME x TARGET spin TIMEOUT 1m)]=]
    [=[add_perf_gate(NAME x): TIMEOUT "1m" is not valid; expected a whole number of seconds, at least 10]=])
  error_case([=[set(PERFDUEL_TIMEOUT 5)
add_perf_gate(NAME x TARGET spin)]=]
    [=[add_perf_gate(NAME x): TIMEOUT "5" is not valid; expected a whole number of seconds, at least 10]=])
  error_case([=[add_perf_gate(NAME x TARGET spin CPUS 0)]=]
    [=[add_perf_gate(NAME x): CPUS "0" is not valid; expected a whole number of CPUs >= 1]=])
  error_case([=[set(PERFDUEL_BASELINE_KEEP none)
add_perf_gate(NAME x TARGET spin)]=]
    [=[perfduel: PERFDUEL_BASELINE_KEEP "none" is not valid; expected a whole number, at least 1 (how many baseline builds to keep)]=])
  error_case([=[set(PERFDUEL_BASELINE_TIMEOUT 1h)
add_perf_gate(NAME x TARGET spin)]=]
    [=[perfduel: PERFDUEL_BASELINE_TIMEOUT "1h" is not valid; expected a whole number of seconds, at least 1 (the CTest timeout of each baseline build)]=])
  error_case([=[set(PERFDUEL_SUITE_SECONDS 5)
add_perf_gate(NAME x TARGET spin)]=]
    [=[perfduel: PERFDUEL_SUITE_SECONDS "5" is not valid; expected a whole number of seconds, at least 10 (the duel time all gates share)]=])
  error_case([=[set(PERFDUEL_CONFIG nothere.yaml)
add_perf_gate(NAME x TARGET spin CONFIG perf.yaml)]=]
    [=[perfduel: PERFDUEL_CONFIG "@work@/project/nothere.yaml" does not exist; expected a perfduel.yaml (see templates/perfduel.yaml)]=])

elseif(scenario STREQUAL "testing_not_enabled")
  # add_perf_gate() without enable_testing(): CTest would find no tests and pass. Caught when
  # configuring, in the top-level directory and in a sub-directory with gates.
  make_consumer("${work}/project" "${standard_gate}")
  file(WRITE "${work}/project/perf.yaml" "${quick_config}")
  replace_in_file("${work}/project/CMakeLists.txt" "enable_testing()" "")
  configure(cfg "${work}/project" "${work}/project/build")
  expect_rc("configure fails without enable_testing()" "${cfg_rc}" NONZERO "${cfg_out}")
  expect_text("${cfg_out}" "perfduel: testing is not enabled in ${work}/project, so CTest would find none of the perf gates (spin): `ctest -L perf` would print \"No tests were found!!!\" and pass. Expected enable_testing() (or include(CTest))")
  # Enabled after the gate, in the same directory: fine.
  file(APPEND "${work}/project/CMakeLists.txt" "enable_testing()\n")
  configure(cfg "${work}/project" "${work}/project/build")
  expect_rc("configure succeeds with enable_testing() after the gate" "${cfg_rc}" 0 "${cfg_out}")
  # include(CTest) with BUILD_TESTING=OFF: the user turned tests off; no error.
  make_consumer("${work}/ctest_off" "${standard_gate}")
  file(WRITE "${work}/ctest_off/perf.yaml" "${quick_config}")
  replace_in_file("${work}/ctest_off/CMakeLists.txt" "enable_testing()" "include(CTest)")
  configure(cfg "${work}/ctest_off" "${work}/ctest_off/build" -DBUILD_TESTING=OFF)
  expect_rc("configure succeeds with BUILD_TESTING=OFF" "${cfg_rc}" 0 "${cfg_out}")
  expect_text("${cfg_out}" "perfduel: BUILD_TESTING is off")

elseif(scenario STREQUAL "suite_budget")
  # PERFDUEL_SUITE_SECONDS: the gates share one duel budget, each at most its own.
  make_consumer("${work}/project" [=[
set(PERFDUEL_SUITE_SECONDS 150)
add_perf_gate(NAME a TARGET spin CONFIG perf.yaml TIMEOUT 120)
add_perf_gate(NAME b TARGET spin CONFIG perf.yaml TIMEOUT 120)
add_perf_gate(NAME c TARGET spin CONFIG perf.yaml TIMEOUT 40)
]=])
  file(WRITE "${work}/project/perf.yaml" "${quick_config}")
  configure(cfg "${work}/project" "${work}/project/build")
  expect_rc("configure succeeds" "${cfg_rc}" 0 "${cfg_out}")
  expect_text("${cfg_out}" "perfduel: PERFDUEL_SUITE_SECONDS=150 shared by 3 gates: at most 50 s of duel each")
  show_tests("${work}/project/build")
  foreach(gate_and_budget a:50 b:50 c:35)
    string(REPLACE ":" ";" pair "${gate_and_budget}")
    list(GET pair 0 gate)
    list(GET pair 1 budget)
    test_property(command perf.${gate} COMMAND)
    expect_text("${command}" "--max-seconds;${budget};")
  endforeach()
  file(WRITE "${work}/project/gate.cmake" [=[
set(PERFDUEL_SUITE_SECONDS 20)
add_perf_gate(NAME a TARGET spin CONFIG perf.yaml)
add_perf_gate(NAME b TARGET spin CONFIG perf.yaml)
add_perf_gate(NAME c TARGET spin CONFIG perf.yaml)
]=])
  configure(cfg "${work}/project" "${work}/project/build2")
  expect_rc("configure fails with too small a suite budget" "${cfg_rc}" NONZERO "${cfg_out}")
  expect_text("${cfg_out}" "perfduel: PERFDUEL_SUITE_SECONDS \"20\" gives each of the 3 perf gates 6 s; expected at least 10 s per gate (PERFDUEL_SUITE_SECONDS >= 30)")

elseif(scenario STREQUAL "project_options")
  # The benchmark exists only with -DSPIN_BUILD_BENCH=ON, as in many real projects. The
  # baseline gets the project's cache options, so it has the benchmark too and the gate
  # really duels: the slower branch fails, with no extra argument.
  make_consumer("${work}/repo" [=[
if(SPIN_BUILD_BENCH)
  add_perf_gate(NAME spin TARGET spin CONFIG perf.yaml TIMEOUT 120)
endif()
]=])
  replace_in_file("${work}/repo/CMakeLists.txt" "add_executable(spin spin.cpp)" [=[
option(SPIN_BUILD_BENCH "Build the benchmark" OFF)
set(SPIN_GREETING "hello world" CACHE STRING "A project setting")
set(SPIN_OUTPUT "${CMAKE_BINARY_DIR}/out" CACHE PATH "Inside the build tree")
find_program(SPIN_SH sh)
if(SPIN_BUILD_BENCH)
  add_executable(spin spin.cpp)
else()
  add_executable(other spin.cpp)
endif()]=])
  file(WRITE "${work}/repo/perf.yaml" "${quick_config}")
  git("${work}" init -q -b main repo)
  commit("${work}/repo" "commit 1: an option-guarded benchmark")
  git("${work}/repo" checkout -q -b slower)
  replace_in_file("${work}/repo/spin.cpp" "k_work = 1;" "k_work = 3;")
  commit("${work}/repo" "commit 2: three times the work")
  set(b "${work}/repo/build")
  configure_and_build("${work}/repo" "${b}" -DSPIN_BUILD_BENCH=ON -DSPIN_EXTRA=42)
  file(READ "${b}/perfduel/gates/spin.cmake" gate_file)
  expect_text("${gate_file}" "set(PERFDUEL_PROJECT_ARGS [==[-DSPIN_BUILD_BENCH:BOOL=ON;-DSPIN_EXTRA=42;-DSPIN_GREETING:STRING=hello world]==])")
  ctest_perf(ct "${b}" -V)
  expect_rc("ctest -L perf fails on the slower branch" "${ct_rc}" NONZERO "${ct_out}")
  expect_text("${ct_out}" "configuring the baseline with the project's cache options -DSPIN_BUILD_BENCH:BOOL=ON -DSPIN_EXTRA=42 -DSPIN_GREETING:STRING=hello world (PERFDUEL_BASELINE_CMAKE_ARGS: none)"
    "verdict: REGRESSION")
  file(READ "${b}/perfduel/reports/spin.json" report)
  string(JSON verdict ERROR_VARIABLE error GET "${report}" verdict)
  expect_equal("the report's verdict is regression" "${verdict}" "regression")
  baseline_link(baseline "${b}" ${build_config})
  if(baseline MATCHES "^(.*)/spin$")
    set(baseline_build "${CMAKE_MATCH_1}")
    if(multi_config)
      cmake_path(GET baseline_build PARENT_PATH baseline_build)
    endif()
    file(READ "${baseline_build}/CMakeCache.txt" cache)
    expect_text("${cache}" "SPIN_BUILD_BENCH:BOOL=ON" "SPIN_OUTPUT:PATH=${baseline_build}/out")
  endif()

  # The baseline told otherwise: the target is defined there but not enabled. That is an
  # error naming what was forwarded, not "the benchmark does not exist yet".
  configure_and_build("${work}/repo" "${b}" "-DPERFDUEL_BASELINE_CMAKE_ARGS=-DSPIN_BUILD_BENCH=OFF")
  ctest_perf(ct "${b}")
  expect_rc("ctest -L perf fails when the baseline does not enable the benchmark" "${ct_rc}"
    NONZERO "${ct_out}")
  expect_text("${ct_out}" "perfduel: error: the baseline commit"
    "\"commit 1: an option-guarded benchmark\" defines \"spin\" (add_executable in CMakeLists.txt), but its configure did not enable it (its targets: other)."
    "It was configured with the project's cache options -DSPIN_BUILD_BENCH:BOOL=ON -DSPIN_EXTRA=42 -DSPIN_GREETING:STRING=hello world and PERFDUEL_BASELINE_CMAKE_ARGS -DSPIN_BUILD_BENCH=OFF."
    "perf.spin (Not Run)")
  if(ct_out MATCHES "probably does not exist")
    fail("a benchmark that is only disabled is called new:\n${ct_out}")
  endif()

elseif(scenario STREQUAL "not_git_repository")
  make_consumer("${work}/project" "${standard_gate}")
  file(WRITE "${work}/project/perf.yaml" "${quick_config}")
  configure_and_build("${work}/project" "${work}/project/build")
  ctest_perf(ct "${work}/project/build")
  expect_rc("ctest -L perf fails" "${ct_rc}" NONZERO "${ct_out}")
  expect_text("${ct_out}" "perfduel: error: ${work}/project is not inside a git repository."
    "give add_perf_gate() a prebuilt BASELINE_EXECUTABLE"
    "perf.spin (Not Run)")

elseif(scenario STREQUAL "shallow_clone")
  make_repo("${work}/origin" "${standard_gate}")
  file(WRITE "${work}/origin/perf.yaml" "${quick_config}")
  commit("${work}/origin" "commit 2: config")
  git("${work}" clone -q --depth 1 "file://${work}/origin" clone)
  configure_and_build("${work}/clone" "${work}/clone/build")
  ctest_perf(ct "${work}/clone/build")
  expect_rc("ctest -L perf fails" "${ct_rc}" NONZERO "${ct_out}")
  expect_text("${ct_out}" "is a shallow clone, so the merge-base with origin/main may be missing"
    "`git fetch --unshallow` (GitHub Actions: actions/checkout with `fetch-depth: 0`; GitLab CI: `GIT_DEPTH: 0`)")
  # Without a remote the default ref falls back to main: the message names the ref used, and
  # the error is one line, without CMake's own error lines or call stack.
  git("${work}/clone" remote remove origin)
  ctest_perf(ct "${work}/clone/build")
  expect_rc("ctest -L perf fails without a remote" "${ct_rc}" NONZERO "${ct_out}")
  expect_text("${ct_out}" "origin/main does not exist; using main"
    "is a shallow clone, so the merge-base with main may be missing")
  if(ct_out MATCHES "CMake Error|Call Stack|origin/main may be")
    fail("the shallow-clone error is not one clean line naming main:\n${ct_out}")
  endif()
  # The build target fails too (its exit status), with the same line.
  run(target cmake --build "${work}/clone/build" ${build_config_args} --target perfduel_baseline_spin)
  expect_rc("the perfduel_baseline_spin target fails" "${target_rc}" NONZERO "${target_out}")
  expect_text("${target_out}" "perfduel: error:" "is a shallow clone, so the merge-base with main")

elseif(scenario STREQUAL "unknown_ref")
  make_repo("${work}/repo" [=[
add_perf_gate(NAME spin TARGET spin CONFIG perf.yaml BASELINE_REF no-such-branch)
]=])
  file(WRITE "${work}/repo/perf.yaml" "${quick_config}")
  configure_and_build("${work}/repo" "${work}/repo/build")
  ctest_perf(ct "${work}/repo/build")
  expect_rc("ctest -L perf fails" "${ct_rc}" NONZERO "${ct_out}")
  expect_text("${ct_out}" "perfduel: error: unknown git ref \"no-such-branch\" in"
    "-DPERFDUEL_BASELINE_REF=<ref>")

elseif(scenario STREQUAL "missing_target")
  # The branch adds the benchmark: at the baseline commit it does not exist (it is spin_v1).
  make_consumer("${work}/repo" "${standard_gate}")
  file(WRITE "${work}/repo/perf.yaml" "${quick_config}")
  replace_in_file("${work}/repo/CMakeLists.txt" "add_executable(spin " "add_executable(spin_v1 ")
  git("${work}" init -q -b main repo)
  commit("${work}/repo" "commit 1: the benchmark is called spin_v1")
  git("${work}/repo" checkout -q -b feature)
  replace_in_file("${work}/repo/CMakeLists.txt" "add_executable(spin_v1 " "add_executable(spin ")
  commit("${work}/repo" "commit 2: renamed to spin")
  configure_and_build("${work}/repo" "${work}/repo/build")
  set(b "${work}/repo/build")

  # NEW_TARGET SKIP (the default): both tests are skipped, ctest passes, the reason is in the
  # output of both tests and in the Markdown report.
  string(CONCAT why "\"commit 1: the benchmark is called spin_v1\" has no target \"spin\" "
    "(its targets: spin_v1). The benchmark probably does not exist on main yet, so there is "
    "nothing to compare against: perf.spin is skipped (NEW_TARGET SKIP) and gates once the "
    "benchmark is merged.")
  ctest_perf(ct "${b}")
  expect_rc("ctest -L perf passes when the baseline has no target spin" "${ct_rc}" 0 "${ct_out}")
  expect_text("${ct_out}" "- perf.spin.baseline (Skipped)" "- perf.spin (Skipped)")
  expect_not_exists("${b}/perfduel/bin/spin/spin")
  file(READ "${b}/perfduel/reports/spin.md" report)
  expect_text("${report}" "### perfduel: skipped" "${why}")
  # Again, verbose: the result is cached (no second configure of the baseline).
  ctest_perf(ct "${b}" -V)
  expect_rc("ctest -L perf -V passes" "${ct_rc}" 0 "${ct_out}")
  expect_text("${ct_out}" "cached, not configured again" "perfduel: skipped: the baseline commit"
    "${why}" "- perf.spin.baseline (Skipped)" "- perf.spin (Skipped)")
  string(REGEX MATCHALL "perfduel: skipped: the baseline commit" skips "${ct_out}")
  list(LENGTH skips skip_count)
  expect_equal("both tests print why they are skipped" "${skip_count}" "2")

  # NEW_TARGET FAIL: today's error, from the cached result and from a fresh configure.
  file(WRITE "${work}/repo/gate.cmake" [=[
add_perf_gate(NAME spin TARGET spin CONFIG perf.yaml TIMEOUT 120 NEW_TARGET FAIL)
]=])
  configure_and_build("${work}/repo" "${b}")
  foreach(round cached fresh)
    if(round STREQUAL "fresh")
      file(REMOVE_RECURSE "${b}/perfduel/baselines")
    endif()
    ctest_perf(ct "${b}")
    expect_rc("ctest -L perf fails with NEW_TARGET FAIL (${round})" "${ct_rc}" NONZERO "${ct_out}")
    expect_text("${ct_out}" "perfduel: error: the baseline commit"
      "\"commit 1: the benchmark is called spin_v1\" has no target \"spin\" (its targets: spin_v1)."
      "The benchmark probably does not exist on main yet: perf.spin can gate once it is merged. Until then exclude it (ctest -LE perf) or give add_perf_gate() a prebuilt BASELINE_EXECUTABLE."
      "perf.spin (Not Run)")
    if(ct_out MATCHES "perfduel: skipped")
      fail("NEW_TARGET FAIL (${round}) does not skip:\n${ct_out}")
    endif()
  endforeach()

  # The baseline commit predates the CMake project: the same, per NEW_TARGET.
  file(MAKE_DIRECTORY "${work}/young")
  file(WRITE "${work}/young/README" "No build yet.\n")
  git("${work}" init -q -b main young)
  commit("${work}/young" "commit 1: no CMake project yet")
  git("${work}/young" checkout -q -b feature)
  make_consumer("${work}/young" "${standard_gate}")
  file(WRITE "${work}/young/perf.yaml" "${quick_config}")
  commit("${work}/young" "commit 2: the CMake project")
  configure_and_build("${work}/young" "${work}/young/build")
  ctest_perf(ct "${work}/young/build" -V)
  expect_rc("ctest -L perf passes when the baseline has no CMakeLists.txt" "${ct_rc}" 0 "${ct_out}")
  expect_text("${ct_out}" "perfduel: skipped: the baseline commit"
    "\"commit 1: no CMake project yet\" has no CMakeLists.txt, so it has no target \"spin\" to compare against. The project probably does not build with CMake on main yet: perf.spin is skipped (NEW_TARGET SKIP)"
    "- perf.spin.baseline (Skipped)" "- perf.spin (Skipped)")
  file(WRITE "${work}/young/gate.cmake" [=[
add_perf_gate(NAME spin TARGET spin CONFIG perf.yaml TIMEOUT 120 NEW_TARGET FAIL)
]=])
  configure_and_build("${work}/young" "${work}/young/build")
  ctest_perf(ct "${work}/young/build")
  expect_rc("ctest -L perf fails with NEW_TARGET FAIL" "${ct_rc}" NONZERO "${ct_out}")
  expect_text("${ct_out}" "perfduel: error: the baseline commit"
    "\"commit 1: no CMake project yet\" has no CMakeLists.txt, so it has no target \"spin\" to compare against."
    "perf.spin (Not Run)")

elseif(scenario STREQUAL "baseline_build_failure")
  make_consumer("${work}/repo" "${standard_gate}")
  file(WRITE "${work}/repo/perf.yaml" "${quick_config}")
  replace_in_file("${work}/repo/spin.cpp" "int main() {" "#error broken at the baseline\nint main() {")
  git("${work}" init -q -b main repo)
  commit("${work}/repo" "commit 1: broken")
  git("${work}/repo" checkout -q -b feature)
  replace_in_file("${work}/repo/spin.cpp" "#error broken at the baseline\n" "")
  commit("${work}/repo" "commit 2: fixed")
  configure_and_build("${work}/repo" "${work}/repo/build")
  ctest_perf(ct "${work}/repo/build")
  expect_rc("ctest -L perf fails" "${ct_rc}" NONZERO "${ct_out}")
  expect_text("${ct_out}" "perfduel: error: building spin at the baseline"
    "\"commit 1: broken\" failed (1). Last lines of the log:" "broken at the baseline"
    "Full log: ${work}/repo/build/perfduel/baselines/")
  # A failed baseline is marked as used, so that pruning can remove it later.
  file(GLOB used "${work}/repo/build/perfduel/baselines/*/last-used")
  list(LENGTH used used_count)
  expect_equal("the failed baseline has a last-used mark" "${used_count}" "1")

elseif(scenario STREQUAL "readme_quick_start")
  # The README's quick start as written: its CMake lines (the block after the marker
  # quick-start-cmake) and perf/sort.yaml (after quick-start-config), taken from README.md as
  # .ci/run takes the test command, in a repository whose benchmark target is bench_sort. With
  # perfduel and the baseline CI passes per event (-DPERFDUEL_BASELINE_REF, a commit): the gate
  # is registered with the README's arguments and configuration, no warning; it builds its
  # baseline at that commit, reads the configuration and passes at once (the same program, 0
  # rounds). Without perfduel the same lines configure, with no gate.
  function(readme_block out_var marker)
    file(READ "${PERFDUEL_SOURCE_DIR}/README.md" readme)
    string(FIND "${readme}" "<!-- ${marker} -->\n```" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "scenario ${SCENARIO}: README.md has no code block after <!-- ${marker} -->")
    endif()
    string(SUBSTRING "${readme}" ${at} -1 rest)
    string(FIND "${rest}" "\n" eol)            # the marker's line
    math(EXPR eol "${eol} + 1")
    string(SUBSTRING "${rest}" ${eol} -1 rest)
    string(FIND "${rest}" "\n" eol)            # the fence's line
    math(EXPR eol "${eol} + 1")
    string(SUBSTRING "${rest}" ${eol} -1 rest)
    string(FIND "${rest}" "\n```" end)
    string(SUBSTRING "${rest}" 0 ${end} block)
    set(${out_var} "${block}\n" PARENT_SCOPE)
  endfunction()
  readme_block(cmake_lines quick-start-cmake)
  readme_block(config quick-start-config)
  set(repo "${work}/repo")
  file(MAKE_DIRECTORY "${repo}/perf")
  file(COPY "${consumer_template}/spin.cpp" DESTINATION "${repo}")
  file(WRITE "${repo}/CMakeLists.txt" "cmake_minimum_required(VERSION 3.25)
project(quick_start LANGUAGES CXX)
add_executable(bench_sort spin.cpp)
${cmake_lines}")
  file(WRITE "${repo}/perf/sort.yaml" "${config}")
  git("${work}" init -q -b main "${repo}")
  commit("${repo}" "the README's quick start")
  git("${repo}" rev-parse HEAD)
  string(STRIP "${git_out}" head)

  configure(cfg "${repo}" "${repo}/build" "-DPERFDUEL_BASELINE_REF=${head}")
  expect_rc("configure with perfduel" "${cfg_rc}" 0 "${cfg_out}")
  if(cfg_out MATCHES "CMake Warning")
    fail("configuring the README's lines warns:\n${cfg_out}")
  endif()
  show_tests("${repo}/build")
  test_names(names)
  expect_equal("tests registered" "${names}" "perf.sort_speed;perf.sort_speed.baseline")
  test_property(command perf.sort_speed COMMAND)
  list(FIND command "${repo}/perf/sort.yaml" at)
  if(at EQUAL -1)
    fail("perf.sort_speed does not read ${repo}/perf/sort.yaml: ${command}")
  endif()
  list(FIND command "'${repo}/build/bench_sort' '--size' '100000'" at)
  if(at EQUAL -1)
    fail("perf.sort_speed does not run bench_sort --size 100000: ${command}")
  endif()
  run_checked(build cmake --build "${repo}/build" ${build_config_args})
  ctest_perf(perf "${repo}/build")
  expect_rc("ctest -L perf" "${perf_rc}" 0 "${perf_out}")
  file(READ "${repo}/build/perfduel/reports/sort_speed.json" report)
  string(JSON end GET "${report}" end)
  expect_equal("the gate's end" "${end}" "identical-programs")
  string(SUBSTRING "${head}" 0 12 short_head)
  file(GLOB baselines RELATIVE "${repo}/build/perfduel/baselines" "${repo}/build/perfduel/baselines/*-*")
  if(NOT baselines MATCHES "^${short_head}-[^;]*$")
    fail("the baseline was not built at ${short_head} (-DPERFDUEL_BASELINE_REF): ${baselines}")
  endif()

  configure(without "${repo}" "${work}/without" -DCMAKE_DISABLE_FIND_PACKAGE_PerfDuel=ON)
  expect_rc("configure without perfduel" "${without_rc}" 0 "${without_out}")
  show_tests("${work}/without")
  test_names(names)
  expect_equal("tests registered without perfduel" "${names}" "")

elseif(scenario STREQUAL "identical")
  # Commit 3 changes a comment only: the baseline, built in a worktree under the build tree, is
  # the same program as the candidate, so the gate passes at once with 0 measured rounds. The
  # project makes that hard on purpose: spin loads a shared library of the project (a build-tree
  # RUNPATH), that library names its own source file (__FILE__, a path in its data), and both
  # carry debug information (paths in DWARF, and a build-id over them). Also: the explicit
  # target builds the baseline, ctest then finds it cached, a deleted baseline tree is rebuilt
  # after pruning its stale worktree registration, and list values reach the baseline's
  # configure whole.
  make_repo("${work}/repo" "${standard_gate}")
  file(WRITE "${work}/repo/perf.yaml" "${quick_config}")
  file(WRITE "${work}/repo/where.cpp" [=[
// Where this library was built from: a path in the program's data.
const char* spin_where() {
  return __FILE__;
}
]=])
  file(WRITE "${work}/repo/gate.cmake" [=[
add_library(spin_where SHARED where.cpp)
target_link_libraries(spin PRIVATE spin_where)
target_compile_options(spin PRIVATE -g)
target_compile_options(spin_where PRIVATE -g)
add_perf_gate(NAME spin TARGET spin CONFIG perf.yaml TIMEOUT 120)
]=])
  replace_in_file("${work}/repo/spin.cpp" "int main() {" "const char* spin_where();\n\nint main() {")
  replace_in_file("${work}/repo/spin.cpp" "  return 0;"
    "  std::printf(\"built from %s\\n\", spin_where());\n  return 0;")
  commit("${work}/repo" "commit 2: config, a shared library, debug information")
  git("${work}/repo" checkout -q -b feature)
  replace_in_file("${work}/repo/spin.cpp" "(~15 ms)" "(about 15 ms)")
  commit("${work}/repo" "commit 3: comment only")
  set(b "${work}/repo/build")
  file(WRITE "${work}/initial-cache.cmake" [=[
set(CMAKE_PREFIX_PATH "/opt/perfduel-test/a;/opt/perfduel-test/b" CACHE STRING "")
]=])
  if(multi_config)
    # Besides Release and Debug, a configuration the generator does not have by default, with
    # flags of its own.
    file(APPEND "${work}/initial-cache.cmake" [=[
set(CMAKE_CONFIGURATION_TYPES "Release;Debug;Profile" CACHE STRING "")
set(CMAKE_CXX_FLAGS_PROFILE "-O2 -DSPIN_PROFILE" CACHE STRING "")
]=])
  endif()
  configure_and_build("${work}/repo" "${b}" -C "${work}/initial-cache.cmake")
  run(baselines cmake --build "${b}" ${build_config_args} --target perfduel_baselines)
  expect_rc("the perfduel_baselines target succeeds" "${baselines_rc}" 0 "${baselines_out}")
  expect_text("${baselines_out}" "building spin in")
  ctest_perf(ct "${b}" -V)
  expect_rc("ctest -L perf passes" "${ct_rc}" 0 "${ct_out}")
  expect_text("${ct_out}" "cached, not rebuilt" "<CTestMeasurement" "100% tests passed"
    "identical programs: nothing to measure, every metric is no change"
    "verdict: NO-CHANGE after 0 rounds")
  expect_identical_programs("${b}/perfduel/reports/spin.json")
  expect_exists("${b}/perfduel/reports/spin.json")
  expect_exists("${b}/perfduel/reports/spin.md")
  expect_exists("${b}/perfduel/reports/spin.svg")

  file(REMOVE_RECURSE "${b}/perfduel/baselines")
  ctest_perf(ct "${b}" -R "baseline")
  expect_rc("the baseline is rebuilt after its tree was deleted" "${ct_rc}" 0 "${ct_out}")
  git("${work}/repo" worktree list --porcelain)
  string(REGEX MATCHALL "worktree [^\n]+" worktrees "${git_out}")
  list(LENGTH worktrees worktree_count)
  expect_equal("exactly one baseline worktree is registered" "${worktree_count}" "2")

  # main moves on and the branch merges it: a new merge-base, so a new baseline build.
  git("${work}/repo" checkout -q main)
  replace_in_file("${work}/repo/spin.cpp" "  return 0;" "  return 0;  // main moved on")
  commit("${work}/repo" "commit 4: main moves on")
  git("${work}/repo" log -1 --format=%h main)
  set(new_base "${git_out}")
  string(STRIP "${new_base}" new_base)
  git("${work}/repo" checkout -q feature)
  git("${work}/repo" -c commit.gpgsign=false merge -q --no-edit main)
  ctest_perf(ct "${b}" -R "baseline" -V)
  expect_rc("the baseline of the new merge-base builds" "${ct_rc}" 0 "${ct_out}")
  set(building "merge-base of HEAD and main is ${new_base} \"commit 4: main moves on\"; building spin in")
  expect_text("${ct_out}" "${building}")

  # The baseline is configured with the same list values, not just their first entries.
  baseline_link(baseline "${b}" ${build_config})
  if(baseline MATCHES "^(.*)/spin$")
    set(baseline_build "${CMAKE_MATCH_1}")
    if(multi_config)
      cmake_path(GET baseline_build PARENT_PATH baseline_build)
    endif()
    file(READ "${baseline_build}/CMakeCache.txt" cache)
    expect_text("${cache}" "CMAKE_PREFIX_PATH:STRING=/opt/perfduel-test/a;/opt/perfduel-test/b\n")
    if(multi_config)
      expect_text("${cache}" "CMAKE_CONFIGURATION_TYPES:STRING=Release;Debug;Profile\n"
        "CMAKE_CXX_FLAGS_PROFILE:STRING=-O2 -DSPIN_PROFILE\n")
    endif()
  endif()

  if(multi_config)
    # Each configuration has a baseline of its own, built at the same merge-base in the same
    # baseline tree. Debug: the Debug candidate duels the Debug baseline (against the Release
    # one it would be a regression).
    run_checked(result cmake --build "${b}" --config Debug)
    ctest_perf(ct "${b}" CONFIG Debug -V)
    expect_rc("ctest -C Debug -L perf passes" "${ct_rc}" 0 "${ct_out}")
    expect_text("${ct_out}" "${building}" "100% tests passed")
    expect_identical_programs("${b}/perfduel/reports/spin.json")
    # Building the Debug baseline left the Release one cached.
    ctest_perf(ct "${b}" -R "baseline" -V)
    expect_rc("ctest -C Release -L perf -R baseline passes" "${ct_rc}" 0 "${ct_out}")
    expect_text("${ct_out}" "cached, not rebuilt" "baseline of perf.spin: ${baseline}")
    # Profile, which the baseline has only if it gets the same CMAKE_CONFIGURATION_TYPES.
    ctest_perf(ct "${b}" CONFIG Profile -R "baseline" -V)
    expect_rc("ctest -C Profile -L perf -R baseline builds the Profile baseline" "${ct_rc}" 0
      "${ct_out}")
    foreach(config Release Debug Profile)
      baseline_link(link "${b}" ${config})
      expect_equal("the ${config} baseline" "${link}" "${baseline_build}/${config}/spin")
    endforeach()
  endif()

elseif(scenario STREQUAL "parallel_gates")
  # Two gates with CPUS 1 and a resource spec file of CPUs 0 and 1: `ctest -j2` runs them at
  # the same time, and every run of each gate sees exactly the CPU CTest allocated to it.
  make_repo("${work}/repo" [=[
add_executable(affinity affinity.cpp)
add_perf_gate(NAME a TARGET affinity ARGS a.log CONFIG perf.yaml TIMEOUT 120 CPUS 1)
add_perf_gate(NAME b TARGET affinity ARGS b.log CONFIG perf.yaml TIMEOUT 120 CPUS 1)
]=])
  # Busy for ~20 ms, then appends its allowed CPUs and the start and end times (ns) to argv[1],
  # and prints the steps it took, the count the gates decide on (as in quick_config). The first
  # run of each gate first says it has started (<log>.started) and waits until the other gate
  # has too: run together, as CTest must run them, that is at once, and then the two gates'
  # spans of runs overlap whatever the load (each first run ends after the other gate's first
  # run began). Run one after the other, the first gate waits 20 s in vain and the spans do not
  # overlap.
  file(WRITE "${work}/repo/affinity.cpp" [=[
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

static long long now() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char** argv) {
  const long long start = now();
  const std::string log = argc > 1 ? argv[1] : "affinity.log";
  if (!std::filesystem::exists(log)) {
    std::ofstream(log + ".started") << start << '\n';
    const std::string other = log == "a.log" ? "b.log.started" : "a.log.started";
    for (int i = 0; i < 2000 && !std::filesystem::exists(other); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  std::uint64_t state = 0x9E3779B97F4A7C15ULL;
  for (std::uint64_t i = 0; i < 16'000'000ULL; ++i) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
  }
  std::ifstream status("/proc/self/status");
  std::string line, allowed;
  while (std::getline(status, line)) {
    if (line.rfind("Cpus_allowed_list:", 0) == 0) {
      allowed = line.substr(line.find_first_not_of(" \t", 18));
    }
  }
  std::ofstream(log, std::ios::app) << allowed << ' ' << start << ' ' << now() << '\n';
  std::printf("%llu\nwork: 16000000\n", static_cast<unsigned long long>(state));
  return 0;
}
]=])
  # The gates decide on the printed count (no change after 3 rounds, whatever the load): the
  # point here is where the runs ran and when, which the log answers. Each duels the commit
  # against itself, so identical programs are measured all the same.
  file(WRITE "${work}/repo/perf.yaml" [=[
identical_programs: measure
warmup: 1
min_rounds: 8
max_rounds: 12
max_seconds: 30
seed: 1
metrics:
  work: {regex: 'work: ([0-9]+)', threshold: 50%, tolerance: 50%, gate: true}
  user_time: {gate: false}
  wall_time: {gate: false}
]=])
  file(WRITE "${work}/spec.json" [=[
{"version": {"major": 1, "minor": 0},
 "local": [{"cpus": [{"id": "0", "slots": 1}, {"id": "1", "slots": 1}]}]}
]=])
  commit("${work}/repo" "commit 2: the affinity benchmark")
  set(b "${work}/repo/build")
  configure_and_build("${work}/repo" "${b}" "-DPERFDUEL_RESOURCE_SPEC_FILE=${work}/spec.json")
  show_tests("${b}")
  test_property(serial perf.a RUN_SERIAL)
  expect_equal("a gate with CPUS and a spec file is not RUN_SERIAL" "${serial}" "NOTFOUND")
  test_property(serial perf.a.baseline RUN_SERIAL)
  expect_equal("its baseline build still is" "${serial}" "ON")
  ctest_perf(ct "${b}" -j2 --resource-spec-file "${work}/spec.json")
  expect_rc("ctest -L perf -j2 with a resource spec passes" "${ct_rc}" 0 "${ct_out}")
  foreach(gate a b)
    file(STRINGS "${b}/${gate}.log" lines)
    list(LENGTH lines runs_${gate})
    set(cpus_${gate} "")
    set(first_${gate} "")
    set(last_${gate} 0)
    foreach(line IN LISTS lines)
      string(REPLACE " " ";" fields "${line}")
      list(GET fields 0 cpu)
      list(GET fields 1 start)
      list(GET fields 2 end)
      list(APPEND cpus_${gate} "${cpu}")
      if(first_${gate} STREQUAL "" OR start LESS first_${gate})
        set(first_${gate} "${start}")
      endif()
      if(end GREATER last_${gate})
        set(last_${gate} "${end}")
      endif()
    endforeach()
    list(REMOVE_DUPLICATES cpus_${gate})
    file(READ "${b}/perfduel/reports/${gate}.json" report)
    string(JSON source GET "${report}" pinning source)
    string(JSON pinned GET "${report}" pinning cpus 0)
    expect_equal("gate ${gate} is pinned by CTest's allocation" "${source}" "ctest")
    expect_equal("every run of gate ${gate} saw only its CPU" "${cpus_${gate}}" "${pinned}")
    message(STATUS "gate ${gate}: ${runs_${gate}} runs, allowed CPUs ${cpus_${gate}}, "
      "report pinning.cpus [${pinned}] (${source})")
  endforeach()
  list(SORT cpus_a)
  set(both "${cpus_a};${cpus_b}")
  list(SORT both)
  expect_equal("the two gates got different CPUs" "${both}" "0;1")
  # Overlapping spans of runs: the gates ran at the same time.
  if(first_a GREATER last_b OR first_b GREATER last_a)
    fail("the gates did not overlap in time: a ${first_a}..${last_a}, b ${first_b}..${last_b}")
  endif()

elseif(scenario STREQUAL "submodules")
  # A project with two submodules, on a runner that reaches neither host (their URLs lead
  # nowhere, and the repositories they were added from are deleted): vendor/used is checked out
  # (the build includes it), vendor/unused is registered but not checked out (a vendored library
  # the project does without). The baseline initialises vendor/used from the working tree's own
  # objects, at the revision the baseline commit records (r1; the candidate has r2), and leaves
  # vendor/unused alone: the gate passes with 0 rounds (a comment changed) and never reaches for
  # the network.
  foreach(sub used unused)
    set(origin "${work}/${sub}-origin")
    git("${work}" init -q -b main "${origin}")
    file(WRITE "${origin}/${sub}.cmake" "set(PERFDUEL_${sub}_REVISION 1)\n")
    commit("${origin}" "${sub}: r1")
  endforeach()
  git("${work}/used-origin" rev-parse HEAD)
  string(STRIP "${git_out}" used_r1)
  file(WRITE "${work}/used-origin/used.cmake" "set(PERFDUEL_used_REVISION 2)\n")
  commit("${work}/used-origin" "used: r2")
  git("${work}/used-origin" rev-parse HEAD)
  string(STRIP "${git_out}" used_r2)

  make_repo("${work}/repo" [=[
include(${CMAKE_CURRENT_SOURCE_DIR}/vendor/used/used.cmake)  # fails when it is not checked out
if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/vendor/unused/unused.cmake)
  message(FATAL_ERROR "vendor/unused is checked out")
endif()
file(WRITE ${CMAKE_BINARY_DIR}/used-revision.txt "${PERFDUEL_used_REVISION}")
add_perf_gate(NAME spin TARGET spin CONFIG perf.yaml TIMEOUT 120)
]=])
  file(WRITE "${work}/repo/perf.yaml" "${quick_config}")
  set(file_allowed -c protocol.file.allow=always)
  git("${work}/repo" ${file_allowed} submodule add -q "${work}/used-origin" vendor/used)
  git("${work}/repo" ${file_allowed} submodule add -q "${work}/unused-origin" vendor/unused)
  git("${work}/repo/vendor/used" checkout -q "${used_r1}")
  git("${work}/repo" config --file .gitmodules submodule.vendor/used.url file:///nonexistent/used.git)
  git("${work}/repo" config --file .gitmodules submodule.vendor/unused.url file:///nonexistent/unused.git)
  commit("${work}/repo" "commit 2: config, two submodules (vendor/used at r1)")
  git("${work}/repo" submodule deinit -q -f vendor/unused)
  file(REMOVE_RECURSE "${work}/repo/.git/modules/vendor/unused" "${work}/used-origin" "${work}/unused-origin")
  git("${work}/repo" checkout -q -b feature)
  git("${work}/repo/vendor/used" checkout -q "${used_r2}")
  replace_in_file("${work}/repo/spin.cpp" "(~15 ms)" "(about 15 ms)")
  commit("${work}/repo" "commit 3: vendor/used at r2, a comment")

  set(b "${work}/repo/build")
  configure_and_build("${work}/repo" "${b}")
  ctest_perf(ct "${b}" -V)
  expect_rc("ctest -L perf passes offline with an unused submodule" "${ct_rc}" 0 "${ct_out}")
  expect_text("${ct_out}" "submodule vendor/unused is not checked out" "verdict: NO-CHANGE after 0 rounds")
  file(READ "${b}/used-revision.txt" candidate_revision)
  expect_equal("the candidate's vendor/used" "${candidate_revision}" "2")
  file(GLOB baseline_revision_files "${b}/perfduel/baselines/*/*/used-revision.txt")
  set(baseline_revision "")
  foreach(file IN LISTS baseline_revision_files)
    file(READ "${file}" baseline_revision)
  endforeach()
  expect_equal("the baseline's vendor/used (its build)" "${baseline_revision}" "1")
  file(GLOB baseline_used LIST_DIRECTORIES true "${b}/perfduel/baselines/*/src/vendor/used")
  if(baseline_used)
    git("${baseline_used}" rev-parse HEAD)
    string(STRIP "${git_out}" baseline_head)
    expect_equal("the baseline's vendor/used (its checkout)" "${baseline_head}" "${used_r1}")
  else()
    fail("the baseline has no vendor/used")
  endif()
  file(GLOB baseline_unused "${b}/perfduel/baselines/*/src/vendor/unused/*")
  expect_equal("the baseline's vendor/unused (left out)" "${baseline_unused}" "")

elseif(scenario STREQUAL "regression")
  make_repo("${work}/repo" "${standard_gate}")
  file(WRITE "${work}/repo/perf.yaml" "${quick_config}")
  commit("${work}/repo" "commit 2: config")
  git("${work}/repo" checkout -q -b slower)
  replace_in_file("${work}/repo/spin.cpp" "k_work = 1;" "k_work = 3;")
  commit("${work}/repo" "commit 3: three times the work")
  configure_and_build("${work}/repo" "${work}/repo/build")
  ctest_perf(ct "${work}/repo/build")
  expect_rc("ctest -L perf fails on the slower commit" "${ct_rc}" NONZERO "${ct_out}")
  expect_text("${ct_out}" "perf.spin ..." "***Failed" "regression")
  file(READ "${work}/repo/build/perfduel/reports/spin.json" report)
  string(JSON verdict ERROR_VARIABLE error GET "${report}" verdict)
  expect_equal("the report's verdict is regression" "${verdict}" "regression")

elseif(scenario STREQUAL "inconclusive")
  make_repo("${work}/repo" "${standard_gate}")
  # 3 rounds of wall time (never taken for a count) cannot bring a 99.99 % interval to 0.01 %,
  # and the confidence sequence waits 20 rounds: no no-change. The final interval still judges
  # the band, so an identical pair is called a regression only if that interval lies above
  # +50 %: all three rounds at +50 % or more and within hundredths of a per cent of each other
  # (t at 2 degrees of freedom and 99.99 % is about 100, and the interval is widened for
  # autocorrelation besides), which identical programs in a random order do not give (at a 0 %
  # tolerance and 95 % it would be about once in 20 runs).
  # The gate duels the commit against itself: measured all the same (identical programs would be
  # no change at once), so that its budget can run out.
  file(WRITE "${work}/repo/perf.yaml" [=[
identical_programs: measure
confidence: 0.9999
warmup: 0
min_rounds: 3
max_rounds: 3
seed: 1
metrics:
  wall_time: {threshold: 0.01%, tolerance: 50%, gate: true}
]=])
  commit("${work}/repo" "commit 2: a budget too small to decide")
  configure_and_build("${work}/repo" "${work}/repo/build")
  ctest_perf(ct "${work}/repo/build")
  expect_rc("ctest -L perf does not fail when inconclusive" "${ct_rc}" 0 "${ct_out}")
  expect_text("${ct_out}" "perf.spin ..." "Skipped")

elseif(scenario STREQUAL "install_tree")
  run_checked(install cmake --install "${PERFDUEL_BUILD_DIR}" --prefix "${work}/prefix")
  expect_exists("${work}/prefix/bin/perfduel")
  expect_exists("${work}/prefix/share/perfduel/templates")
  make_consumer("${work}/project" "${standard_gate}")
  file(WRITE "${work}/project/perf.yaml" "${quick_config}")
  run(cfg cmake -S "${work}/project" -B "${work}/project/build" -G "${GENERATOR}"
    "-DCMAKE_PREFIX_PATH=${work}/prefix")
  expect_rc("configure with CMAKE_PREFIX_PATH=<prefix> succeeds" "${cfg_rc}" 0 "${cfg_out}")
  show_tests("${work}/project/build")
  test_property(command perf.spin COMMAND)
  list(GET command 0 driver)
  expect_equal("the installed driver runs the gate" "${driver}" "${work}/prefix/bin/perfduel")
  test_property(command perf.spin.baseline COMMAND)
  expect_text("${command}" "${work}/prefix/lib/cmake/PerfDuel/PerfDuelBaseline.cmake")

elseif(scenario STREQUAL "installed_package")
  # perfduel as a package installs it, not this build tree: PERFDUEL_PREFIX is the /usr of the
  # Debian package unpacked by tests/package/check_deb.cmake (not registered with the others).
  # find_package(PerfDuel) finds it through CMAKE_PREFIX_PATH; its driver runs the gate and finds
  # perfduel-exec beside itself (max_rss is gated, which needs it); its verdicts reach CTest: no
  # change on a comment-only commit, then a regression on three times the work. The count
  # decides, as in quick_config: spin's peak RSS, a few per cent apart from run to run whatever
  # the load, can neither lie above the +50 % band nor keep its interval wider than 50 %.
  if(NOT PERFDUEL_PREFIX)
    message(FATAL_ERROR "run_scenario.cmake: SCENARIO installed_package needs -DPERFDUEL_PREFIX=...")
  endif()
  make_repo("${work}/repo" "${standard_gate}")
  file(WRITE "${work}/repo/perf.yaml" "${quick_config}")
  replace_in_file("${work}/repo/perf.yaml" "max_rss: {gate: false}"
    "max_rss: {threshold: 50%, tolerance: 50%, gate: true}")
  commit("${work}/repo" "commit 2: config")
  git("${work}/repo" checkout -q -b feature)
  replace_in_file("${work}/repo/spin.cpp" "(~15 ms)" "(about 15 ms)")
  commit("${work}/repo" "commit 3: comment only")
  set(b "${work}/repo/build")
  run(cfg cmake -S "${work}/repo" -B "${b}" -G "${GENERATOR}" -DCMAKE_BUILD_TYPE=${build_config}
    "-DCMAKE_PREFIX_PATH=${PERFDUEL_PREFIX}")
  expect_rc("configure with CMAKE_PREFIX_PATH=<package>/usr succeeds" "${cfg_rc}" 0 "${cfg_out}")
  file(STRINGS "${b}/CMakeCache.txt" package_dir REGEX "^PerfDuel_DIR:")
  expect_equal("the package found" "${package_dir}"
    "PerfDuel_DIR:PATH=${PERFDUEL_PREFIX}/lib/cmake/PerfDuel")
  show_tests("${b}")
  test_property(command perf.spin COMMAND)
  list(GET command 0 driver)
  expect_equal("the package's driver runs the gate" "${driver}" "${PERFDUEL_PREFIX}/bin/perfduel")
  run_checked(result cmake --build "${b}")
  ctest_perf(ct "${b}" -V)
  expect_rc("ctest -L perf passes on the comment-only commit" "${ct_rc}" 0 "${ct_out}")
  expect_text("${ct_out}" "Test command: ${PERFDUEL_PREFIX}/bin/perfduel" "100% tests passed")
  expect_exists("${b}/perfduel/reports/spin.json")
  if(EXISTS "${b}/perfduel/reports/spin.json")
    file(READ "${b}/perfduel/reports/spin.json" report)
    string(JSON verdict ERROR_VARIABLE error GET "${report}" verdict)
    expect_equal("the report's verdict on the comment-only commit" "${verdict}" "no-change")
    # The driver's own peak is reported only when the runs start without perfduel-exec.
    string(JSON driver_rss ERROR_VARIABLE error GET "${report}" environment driver_peak_rss_bytes)
    if(NOT driver_rss MATCHES "^0(\\.0*)?$")
      fail("the runs did not start through perfduel-exec (driver_peak_rss_bytes ${driver_rss})")
    endif()
  endif()

  replace_in_file("${work}/repo/spin.cpp" "k_work = 1;" "k_work = 3;")
  commit("${work}/repo" "commit 4: three times the work")
  run_checked(result cmake --build "${b}")
  ctest_perf(ct "${b}")
  expect_rc("ctest -L perf fails on the slower commit" "${ct_rc}" NONZERO "${ct_out}")
  expect_text("${ct_out}" "perf.spin ..." "***Failed" "regression")
  if(EXISTS "${b}/perfduel/reports/spin.json")
    file(READ "${b}/perfduel/reports/spin.json" report)
    string(JSON verdict ERROR_VARIABLE error GET "${report}" verdict)
    expect_equal("the report's verdict on the slower commit" "${verdict}" "regression")
  endif()

elseif(scenario STREQUAL "sub_project")
  # add_subdirectory() and FetchContent: find_package(PerfDuel) is answered by the sub-project.
  foreach(mode add_subdirectory fetchcontent)
    if(mode STREQUAL "add_subdirectory")
      set(package "add_subdirectory(\"${PERFDUEL_SOURCE_DIR}\" perfduel EXCLUDE_FROM_ALL)\n")
      set(sub_build perfduel)
    else()
      set(package "include(FetchContent)\nFetchContent_Declare(perfduel SOURCE_DIR \"${PERFDUEL_SOURCE_DIR}\")\nFetchContent_MakeAvailable(perfduel)\n")
      set(sub_build _deps/perfduel-build)
    endif()
    make_consumer("${work}/${mode}" "${standard_gate}")
    file(WRITE "${work}/${mode}/perf.yaml" "${quick_config}")
    file(WRITE "${work}/${mode}/package.cmake" "${package}")
    run(cfg cmake -S "${work}/${mode}" -B "${work}/${mode}/build" -G "${GENERATOR}")
    expect_rc("configure with ${mode} succeeds" "${cfg_rc}" 0 "${cfg_out}")
    show_tests("${work}/${mode}/build")
    test_names(names)
    expect_equal("${mode}: only the consumer's tests" "${names}" "perf.spin;perf.spin.baseline")
    # The driver is not built here, so ctest does not show the command: read the test file.
    file(READ "${work}/${mode}/build/CTestTestfile.cmake" testfile)
    expect_text("${testfile}"
      "add_test([=[perf.spin]=] \"${work}/${mode}/build/${sub_build}/tools/perfduel/perfduel\"")
    # perfduel's Debian package is its own build's: the consumer's CPack stays the consumer's.
    expect_not_exists("${work}/${mode}/build/CPackConfig.cmake")
    # Building the benchmark builds the driver too (it is EXCLUDE_FROM_ALL here).
    run(build cmake --build "${work}/${mode}/build" --target spin -- -n)
    expect_text("${build_out}" "tools/perfduel/perfduel")
  endforeach()

else()
  message(FATAL_ERROR "run_scenario.cmake: unknown SCENARIO \"${SCENARIO}\"")
endif()

finish()
