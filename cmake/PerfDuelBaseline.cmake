# perfduel: builds the baseline of one perf gate. Run by the CTest fixture perf.<NAME>.baseline
# and the target perfduel_baseline_<NAME> as
#
#   cmake -DPERFDUEL_GATE_FILE=<gates/NAME.cmake> -DPERFDUEL_BUILD_CONFIG=<config>
#         -DPERFDUEL_BASELINE_LINK=<path> -P PerfDuelBaseline.cmake
#
# Steps: find the merge-base of HEAD and the gate's ref; check it out with
# `git worktree add --detach` under the build tree; configure it like the current build;
# build only the benchmark target; point PERFDUEL_BASELINE_LINK at the executable. Everything
# is cached by commit id (and a hash of the configure arguments), so a second run builds
# nothing and a new merge-base builds afresh. A script, not a shell, so it runs wherever
# CMake does.
#
# When the baseline commit has no such target (the branch adds the benchmark), the gate's
# NEW_TARGET decides: FAIL stops with an error; SKIP prints `perfduel: skipped: <why>` (the
# test's SKIP_REGULAR_EXPRESSION), removes PERFDUEL_BASELINE_LINK and writes <why> to the
# marker file PERFDUEL_BASELINE_LINK.no-baseline, which the gate's `perfduel compare
# --skip-if <marker>` turns into a skip (exit 77). CTest (3.25) still runs a test whose
# fixture setup was skipped, hence the marker.
#
# Commit mode, for `perfduel bisect --gate <NAME>` (docs/bisect.md): with
# -DPERFDUEL_COMMIT=<commit id> -DPERFDUEL_WORK_DIR=<dir> the script builds that commit instead
# of the merge-base, in <dir> (kept apart from the gates' baselines, whose pruning would remove a
# bisection's builds), with the same worktree, configure, build and cache by commit. A commit
# without the target is an error whatever NEW_TARGET says, nothing is pruned, and an error's
# cause is left in PERFDUEL_BASELINE_LINK.error for the caller to read.
cmake_minimum_required(VERSION 3.25)

foreach(required PERFDUEL_GATE_FILE PERFDUEL_BASELINE_LINK)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "PerfDuelBaseline.cmake: -D${required}=... is required")
  endif()
endforeach()
include("${PERFDUEL_GATE_FILE}")
set(test_name "perf.${PERFDUEL_GATE_NAME}")
# What the messages call the commit being built: the gate's baseline, or a bisection's probe.
set(built "the baseline")
set(built_commit "the baseline commit")
set(commit_mode FALSE)
if(DEFINED PERFDUEL_COMMIT)
  if(NOT DEFINED PERFDUEL_WORK_DIR)
    message(FATAL_ERROR "PerfDuelBaseline.cmake: -DPERFDUEL_COMMIT needs -DPERFDUEL_WORK_DIR=...")
  endif()
  set(commit_mode TRUE)
  set(built "the commit")
  set(built_commit "the commit")
  set(PERFDUEL_BASELINE_DIR "${PERFDUEL_WORK_DIR}")
endif()

# The script runs itself as a child (the worker) so that an error is one line,
# `perfduel: error: <why>`, not CMake's "CMake Error at ..." and call stack: the worker writes
# the cause to a file and stops; this parent prints it and exits. PERFDUEL_ERROR_EXIT=ctest
# (the CTest fixture, whose FAIL_REGULAR_EXPRESSION matches the line) then exits 0, since
# CMake before 3.29 cannot exit a script non-zero without its own error lines; =status (the
# perfduel_baseline_<name> target) ends with a FATAL_ERROR, whose exit status fails the build.
if(NOT PERFDUEL_BASELINE_WORKER)
  set(error_file "${PERFDUEL_GATE_FILE}.error")
  set(mode_args "")
  if(commit_mode)
    # One error file per commit: a bisection reads it, and gates may build at the same time.
    set(error_file "${PERFDUEL_BASELINE_LINK}.error")
    set(mode_args "-DPERFDUEL_COMMIT=${PERFDUEL_COMMIT}" "-DPERFDUEL_WORK_DIR=${PERFDUEL_WORK_DIR}")
  endif()
  file(REMOVE "${error_file}")
  execute_process(COMMAND "${CMAKE_COMMAND}" -DPERFDUEL_BASELINE_WORKER=ON
      "-DPERFDUEL_ERROR_FILE=${error_file}" "-DPERFDUEL_GATE_FILE=${PERFDUEL_GATE_FILE}"
      "-DPERFDUEL_BUILD_CONFIG=${PERFDUEL_BUILD_CONFIG}"
      "-DPERFDUEL_BASELINE_LINK=${PERFDUEL_BASELINE_LINK}" ${mode_args} -P "${CMAKE_CURRENT_LIST_FILE}"
    RESULT_VARIABLE worker_rc ERROR_VARIABLE worker_err)
  string(STRIP "${worker_err}" worker_err)
  if(worker_rc EQUAL 0)
    if(NOT worker_err STREQUAL "")
      message(NOTICE "${worker_err}")  # `perfduel: skipped: ...`
    endif()
    return()
  endif()
  if(EXISTS "${error_file}")
    file(READ "${error_file}" cause)
    string(STRIP "${cause}" cause)
  else()
    set(cause "the baseline step of ${test_name} stopped unexpectedly (${worker_rc}):\n${worker_err}")
  endif()
  message(NOTICE "perfduel: error: ${cause}")
  if(commit_mode)
    message(FATAL_ERROR "perfduel: ${PERFDUEL_COMMIT} is not available")
  elseif(NOT PERFDUEL_ERROR_EXIT STREQUAL "ctest")
    message(FATAL_ERROR "perfduel: the baseline of ${test_name} is not available")
  endif()
  return()
endif()

if(NOT DEFINED PERFDUEL_NEW_TARGET)
  set(PERFDUEL_NEW_TARGET FAIL)  # a gate file written before NEW_TARGET existed
endif()
set(no_baseline_marker "${PERFDUEL_BASELINE_LINK}.no-baseline")

# Hands the arguments, concatenated, to the parent as the cause (see above) and stops. ARGV<i> rather than ARGN, so semicolons in the message survive.
function(perfduel_fail)
  set(text "")
  math(EXPR last "${ARGC} - 1")
  foreach(i RANGE ${last})
    string(APPEND text "${ARGV${i}}")
  endforeach()
  file(WRITE "${PERFDUEL_ERROR_FILE}" "${text}")
  message(FATAL_ERROR "perfduel: the baseline of ${test_name} is not available")
endfunction()

function(perfduel_note)
  set(text "")
  math(EXPR last "${ARGC} - 1")
  foreach(i RANGE ${last})
    string(APPEND text "${ARGV${i}}")
  endforeach()
  message(STATUS "perfduel: ${text}")
endfunction()

# Runs git in `dir`; sets <prefix>_rc, <prefix>_out and <prefix>_err.
function(perfduel_git prefix dir)
  execute_process(COMMAND "${PERFDUEL_GIT_EXECUTABLE}" ${ARGN}
    WORKING_DIRECTORY "${dir}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_STRIP_TRAILING_WHITESPACE)
  set(${prefix}_rc "${rc}" PARENT_SCOPE)
  set(${prefix}_out "${out}" PARENT_SCOPE)
  set(${prefix}_err "${err}" PARENT_SCOPE)
endfunction()

# Like perfduel_git, but a failure stops the script with git's own message.
function(perfduel_git_checked prefix dir)
  perfduel_git(git "${dir}" ${ARGN})
  if(NOT git_rc EQUAL 0)
    list(JOIN ARGN " " command)
    perfduel_fail("`git ${command}` failed in ${dir}:\n${git_err}")
  endif()
  set(${prefix}_out "${git_out}" PARENT_SCOPE)
endfunction()

# The last `count` lines of `file`, for error messages.
function(perfduel_tail out_var file count)
  file(STRINGS "${file}" lines)
  list(LENGTH lines length)
  if(length GREATER count)
    math(EXPR first "${length} - ${count}")
    list(SUBLIST lines ${first} ${count} lines)
  endif()
  list(JOIN lines "\n  | " text)
  set(${out_var} "  | ${text}" PARENT_SCOPE)
endfunction()

# Runs a command with its output in `log`; on failure stops with the log's tail. PARSE_ARGV
# keeps an argument with a semicolon (a list value such as -DCMAKE_PREFIX_PATH=a;b) whole,
# where ARGN would split it.
function(perfduel_run_logged what log)
  cmake_parse_arguments(PARSE_ARGV 2 _run "" "" "")
  execute_process(COMMAND ${_run_UNPARSED_ARGUMENTS} RESULT_VARIABLE rc
    OUTPUT_FILE "${log}" ERROR_FILE "${log}")
  if(NOT rc EQUAL 0)
    perfduel_tail(tail "${log}" 40)
    perfduel_fail("${what} failed (${rc}). Last lines of the log:\n${tail}\n"
      "Full log: ${log}")
  endif()
endfunction()

# What the baseline's configure gets besides the toolchain, for the log and messages.
if(PERFDUEL_PROJECT_ARGS)
  list(JOIN PERFDUEL_PROJECT_ARGS " " forwarded_text)
  set(forwarded_text "the project's cache options ${forwarded_text}")
else()
  set(forwarded_text "no cache options of the project")
endif()
if(PERFDUEL_EXTRA_ARGS)
  list(JOIN PERFDUEL_EXTRA_ARGS " " extra_text)
  string(APPEND forwarded_text " and PERFDUEL_BASELINE_CMAKE_ARGS ${extra_text}")
else()
  string(APPEND forwarded_text " (PERFDUEL_BASELINE_CMAKE_ARGS: none)")
endif()

# Sets `out_var` to "add_executable in <file>" when a CMake file under `source` defines
# PERFDUEL_TARGET, else "". Tells a benchmark that is not enabled from one that is new.
function(perfduel_find_definition out_var source)
  string(REGEX REPLACE "([][+.*?()^$|\\\\])" "\\\\\\1" target_regex "${PERFDUEL_TARGET}")
  file(GLOB_RECURSE files LIST_DIRECTORIES false "${source}/CMakeLists.txt" "${source}/*.cmake")
  foreach(file IN LISTS files)
    file(STRINGS "${file}" lines REGEX "add_executable[ \t]*\\([ \t]*\"?${target_regex}[\" \t)]|add_executable[ \t]*\\([ \t]*\"?${target_regex}$")
    if(lines)
      file(RELATIVE_PATH relative "${source}" "${file}")
      set(${out_var} "add_executable in ${relative}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  set(${out_var} "" PARENT_SCOPE)
endfunction()

# --- 1. The repository, its history and the baseline commit ---------------------------------

# The marker of an earlier run that found no target; rewritten below when that is still so.
file(REMOVE "${no_baseline_marker}")

if(NOT PERFDUEL_GIT_EXECUTABLE OR NOT EXISTS "${PERFDUEL_GIT_EXECUTABLE}")
  find_program(PERFDUEL_GIT_EXECUTABLE git)
  if(NOT PERFDUEL_GIT_EXECUTABLE)
    perfduel_fail("git is not installed; the baseline of ${test_name} is built from the "
      "merge-base commit, which needs git (or use add_perf_gate(... BASELINE_EXECUTABLE ...))")
  endif()
endif()

file(REAL_PATH "${PERFDUEL_SOURCE_DIR}" source_dir)
perfduel_git(top "${source_dir}" rev-parse --show-toplevel)
if(NOT top_rc EQUAL 0)
  perfduel_fail("${source_dir} is not inside a git repository. ${test_name} compares against "
    "the merge-base commit, so it needs the project's git history: run it in a git clone, "
    "or give add_perf_gate() a prebuilt BASELINE_EXECUTABLE.")
endif()
file(REAL_PATH "${top_out}" repo_dir)
file(RELATIVE_PATH project_subdir "${repo_dir}" "${source_dir}")

perfduel_git(head "${repo_dir}" rev-parse --verify --quiet "HEAD^{commit}")
if(NOT head_rc EQUAL 0)
  perfduel_fail("${repo_dir} has no commit yet; commit first, the baseline is the merge-base "
    "of HEAD and ${PERFDUEL_BASELINE_REF}.")
endif()

if(commit_mode)
  perfduel_git(given "${repo_dir}" rev-parse --verify --quiet "${PERFDUEL_COMMIT}^{commit}")
  if(NOT given_rc EQUAL 0)
    perfduel_fail("${PERFDUEL_COMMIT} is not a commit in ${repo_dir}")
  endif()
  set(commit "${given_out}")
else()
  set(ref "${PERFDUEL_BASELINE_REF}")
  perfduel_git(ref "${repo_dir}" rev-parse --verify --quiet "${ref}^{commit}")
  if(NOT ref_rc EQUAL 0 AND ref STREQUAL "origin/main")
    # The default ref; a repository without a remote (a local clone, a demo) has main only.
    perfduel_git(ref "${repo_dir}" rev-parse --verify --quiet "main^{commit}")
    if(ref_rc EQUAL 0)
      perfduel_note("origin/main does not exist; using main")
      set(ref "main")
    endif()
  endif()
  if(NOT ref_rc EQUAL 0)
    set(also "")
    if(ref STREQUAL "origin/main")
      set(also " (nor \"main\")")
    endif()
    perfduel_fail("unknown git ref \"${PERFDUEL_BASELINE_REF}\"${also} in ${repo_dir}. Fetch it "
      "(e.g. `git fetch origin main`), or name an existing ref with add_perf_gate(... "
      "BASELINE_REF <ref>) or -DPERFDUEL_BASELINE_REF=<ref>.")
  endif()

  # After resolving the ref, so that the message names the one actually used.
  perfduel_git(shallow "${repo_dir}" rev-parse --is-shallow-repository)
  if(shallow_out STREQUAL "true")
    perfduel_fail("${repo_dir} is a shallow clone, so the merge-base with ${ref} may be missing "
      "or wrong. Fetch the full history: `git fetch --unshallow` (GitHub Actions: "
      "actions/checkout with `fetch-depth: 0`; GitLab CI: `GIT_DEPTH: 0`).")
  endif()

  perfduel_git(merge_base "${repo_dir}" merge-base HEAD "${ref}")
  if(NOT merge_base_rc EQUAL 0)
    perfduel_fail("HEAD and ${ref} have no common ancestor in ${repo_dir}; expected a branch "
      "that forked from ${ref}.")
  endif()
  set(commit "${merge_base_out}")
endif()
perfduel_git_checked(describe "${repo_dir}" log -1 "--format=%h \"%s\"" "${commit}")
set(commit_text "${describe_out}")
if(commit_mode)
  set(found_text "${commit_text}")
else()
  set(found_text "merge-base of HEAD and ${ref} is ${commit_text}")
endif()

# --- 2. The cache: one directory per (commit, configure arguments) ---------------------------

if(PERFDUEL_BUILD_CONFIG STREQUAL "")
  set(config_dir_name "default")
else()
  set(config_dir_name "${PERFDUEL_BUILD_CONFIG}")
endif()
string(SHA1 args_hash "${PERFDUEL_GENERATOR}|${PERFDUEL_GENERATOR_PLATFORM}|\
${PERFDUEL_GENERATOR_TOOLSET}|${PERFDUEL_CMAKE_ARGS}|${PERFDUEL_PROJECT_ARGS}|\
${PERFDUEL_EXTRA_ARGS}")
string(SUBSTRING "${commit}" 0 12 short_commit)
string(SUBSTRING "${args_hash}" 0 8 short_hash)
set(key "${short_commit}-${short_hash}")
set(work_dir "${PERFDUEL_BASELINE_DIR}/${key}")
set(worktree "${work_dir}/src")
set(build_dir "${work_dir}/build")
set(stamp "${work_dir}/targets/${config_dir_name}/${PERFDUEL_TARGET}.path")
# Written instead of `stamp` when the commit has no such target: no configure next time.
set(missing_stamp "${work_dir}/targets/${config_dir_name}/${PERFDUEL_TARGET}.missing.cmake")

file(MAKE_DIRECTORY "${PERFDUEL_BASELINE_DIR}")
# Gates share baseline builds; the lock keeps two builds (e.g. `make -j perfduel_baselines`)
# from configuring one tree at once.
file(LOCK "${PERFDUEL_BASELINE_DIR}/.lock" GUARD PROCESS TIMEOUT 7200 RESULT_VARIABLE lock_rc)
if(NOT lock_rc STREQUAL "0")
  perfduel_fail("cannot lock ${PERFDUEL_BASELINE_DIR}/.lock: ${lock_rc}")
endif()

# Points the gate's stable path at `executable`, records the use and ends the script.
macro(perfduel_done executable)
  cmake_path(GET PERFDUEL_BASELINE_LINK PARENT_PATH link_dir)
  file(MAKE_DIRECTORY "${link_dir}")
  file(REMOVE "${PERFDUEL_BASELINE_LINK}")
  file(CREATE_LINK "${executable}" "${PERFDUEL_BASELINE_LINK}" SYMBOLIC COPY_ON_ERROR)
  string(TIMESTAMP now "%Y%m%d%H%M%S" UTC)
  file(WRITE "${work_dir}/last-used" "${now}\n")
  if(commit_mode)
    perfduel_note("${commit_text}: ${executable}")
  else()
    perfduel_note("baseline of ${test_name}: ${executable}")
  endif()
endmacro()

# The baseline commit has no target PERFDUEL_TARGET: `kind` is TARGET (the project has other
# targets, `names`) or PROJECT (no CMakeLists.txt). There is nothing to compare against yet;
# NEW_TARGET FAIL stops, NEW_TARGET SKIP reports the fixture skipped and leaves the marker for
# the perf test. The caller ends the script.
function(perfduel_no_target kind names)
  file(WRITE "${missing_stamp}"
    "set(missing_kind [==[${kind}]==])\nset(missing_names [==[${names}]==])\n")
  if(project_subdir STREQUAL "")
    set(lists_file "CMakeLists.txt")
  else()
    set(lists_file "${project_subdir}/CMakeLists.txt")
  endif()
  if(commit_mode)
    # A bisection skips such a commit: there is nothing to duel.
    if(kind STREQUAL "PROJECT")
      perfduel_fail("${commit_text} has no ${lists_file}, so it has no target \"${PERFDUEL_TARGET}\"")
    endif()
    string(REPLACE ";" ", " names "${names}")
    perfduel_fail("${commit_text} has no target \"${PERFDUEL_TARGET}\" (its targets: ${names})")
  endif()
  if(kind STREQUAL "PROJECT")
    string(CONCAT why "the baseline commit ${commit_text} has no ${lists_file}, so it has no "
      "target \"${PERFDUEL_TARGET}\" to compare against.")
    set(fail_hint "")
    set(skip_hint " The project probably does not build with CMake on ${ref} yet:")
  else()
    string(REPLACE ";" ", " names "${names}")
    string(CONCAT why "the baseline commit ${commit_text} has no target "
      "\"${PERFDUEL_TARGET}\" (its targets: ${names}).")
    string(CONCAT fail_hint " The benchmark probably does not exist on ${ref} yet: "
      "${test_name} can gate once it is merged. Until then exclude it (ctest -LE perf) or give "
      "add_perf_gate() a prebuilt BASELINE_EXECUTABLE.")
    string(CONCAT skip_hint " The benchmark probably does not exist on ${ref} yet, so there is "
      "nothing to compare against:")
  endif()
  if(NOT PERFDUEL_NEW_TARGET STREQUAL "SKIP")
    perfduel_fail("${why}${fail_hint}")
  endif()
  string(APPEND why "${skip_hint} ${test_name} is skipped (NEW_TARGET SKIP) and gates once the "
    "benchmark is merged.")
  file(REMOVE "${PERFDUEL_BASELINE_LINK}")
  cmake_path(GET no_baseline_marker PARENT_PATH marker_dir)
  file(MAKE_DIRECTORY "${marker_dir}")
  file(WRITE "${no_baseline_marker}" "${why}\n")
  string(TIMESTAMP now "%Y%m%d%H%M%S" UTC)
  file(WRITE "${work_dir}/last-used" "${now}\n")
  message(NOTICE "perfduel: skipped: ${why}")
endfunction()

if(EXISTS "${stamp}")
  file(READ "${stamp}" cached_executable)
  string(STRIP "${cached_executable}" cached_executable)
  if(EXISTS "${cached_executable}")
    perfduel_note("${found_text}; cached, not rebuilt")
    perfduel_done("${cached_executable}")
    return()
  endif()
elseif(EXISTS "${missing_stamp}")
  include("${missing_stamp}")
  perfduel_note("${found_text}; cached, not configured again")
  perfduel_no_target("${missing_kind}" "${missing_names}")
  return()
endif()
perfduel_note("${found_text}; building ${PERFDUEL_TARGET} in ${work_dir}")
# Marked as used now, not only on success: a baseline that fails to configure or build is then
# pruned like any other once newer ones exist.
file(MAKE_DIRECTORY "${work_dir}")
string(TIMESTAMP now "%Y%m%d%H%M%S" UTC)
file(WRITE "${work_dir}/last-used" "${now}\n")

# --- 3. The worktree -------------------------------------------------------------------------

# Registrations whose directory is gone (a deleted build tree) would block `worktree add`.
perfduel_git_checked(prune "${repo_dir}" worktree prune)
if(EXISTS "${worktree}")
  # Reuse it only if it really is a worktree of this repository at this commit; a broken
  # .git file would let git walk up to the enclosing repository.
  perfduel_git(wt_top "${worktree}" rev-parse --show-toplevel)
  perfduel_git(wt_head "${worktree}" rev-parse HEAD)
  set(worktree_ok FALSE)
  if(wt_top_rc EQUAL 0 AND wt_head_out STREQUAL commit)
    file(REAL_PATH "${wt_top_out}" wt_top_real)
    file(REAL_PATH "${worktree}" worktree_real)
    if(wt_top_real STREQUAL worktree_real)
      set(worktree_ok TRUE)
    endif()
  endif()
  if(NOT worktree_ok)
    perfduel_note("repairing the stale worktree ${worktree}")
    perfduel_git(remove "${repo_dir}" worktree remove --force "${worktree}")
    file(REMOVE_RECURSE "${worktree}")
    perfduel_git_checked(prune "${repo_dir}" worktree prune)
  endif()
endif()
if(NOT EXISTS "${worktree}")
  perfduel_git(add "${repo_dir}" worktree add --detach "${worktree}" "${commit}")
  if(NOT add_rc EQUAL 0)
    # E.g. a registration that is locked or whose path was reused: force it once.
    perfduel_git(add "${repo_dir}" worktree add --force --detach "${worktree}" "${commit}")
    if(NOT add_rc EQUAL 0)
      perfduel_fail("`git worktree add --detach ${worktree} ${commit}` failed:\n${add_err}")
    endif()
  endif()
  if(EXISTS "${worktree}/.gitmodules")
    perfduel_git_checked(submodules "${worktree}" submodule update --init --recursive)
  endif()
endif()

set(baseline_source "${worktree}")
if(NOT project_subdir STREQUAL "")
  string(APPEND baseline_source "/${project_subdir}")
endif()
if(NOT EXISTS "${baseline_source}/CMakeLists.txt")
  perfduel_no_target(PROJECT "")
  return()
endif()

# --- 4. Configure like the current build, then find the target ------------------------------

# The CMake file API tells where the target's executable is, whatever the project's layout.
file(WRITE "${build_dir}/.cmake/api/v1/query/client-perfduel/codemodel-v2" "")
set(generator_args -G "${PERFDUEL_GENERATOR}")
if(NOT PERFDUEL_GENERATOR_PLATFORM STREQUAL "")
  list(APPEND generator_args -A "${PERFDUEL_GENERATOR_PLATFORM}")
endif()
if(NOT PERFDUEL_GENERATOR_TOOLSET STREQUAL "")
  list(APPEND generator_args -T "${PERFDUEL_GENERATOR_TOOLSET}")
endif()
perfduel_note("configuring ${built} with ${forwarded_text}")
perfduel_run_logged("configuring ${built} ${commit_text}" "${work_dir}/configure.log"
  "${CMAKE_COMMAND}" -S "${baseline_source}" -B "${build_dir}" ${generator_args}
  ${PERFDUEL_CMAKE_ARGS} ${PERFDUEL_PROJECT_ARGS} ${PERFDUEL_EXTRA_ARGS}
  -DPERFDUEL_IS_BASELINE_BUILD=ON)

file(GLOB indexes "${build_dir}/.cmake/api/v1/reply/index-*.json")
list(SORT indexes)
list(POP_BACK indexes index)
if(NOT index)
  perfduel_fail("the CMake file API wrote no reply in ${build_dir}")
endif()
file(READ "${index}" index_json)
string(JSON codemodel_file GET "${index_json}" reply client-perfduel codemodel-v2 jsonFile)
cmake_path(GET index PARENT_PATH reply_dir)
file(READ "${reply_dir}/${codemodel_file}" codemodel)
string(JSON config_count LENGTH "${codemodel}" configurations)
set(config_index 0)
math(EXPR last_config "${config_count} - 1")
foreach(i RANGE ${last_config})
  string(JSON config_name GET "${codemodel}" configurations ${i} name)
  if(config_name STREQUAL PERFDUEL_BUILD_CONFIG)
    set(config_index ${i})
  endif()
endforeach()
string(JSON target_count LENGTH "${codemodel}" configurations ${config_index} targets)
set(target_names "")
set(target_file "")
if(target_count GREATER 0)
  math(EXPR last_target "${target_count} - 1")
  foreach(i RANGE ${last_target})
    string(JSON name GET "${codemodel}" configurations ${config_index} targets ${i} name)
    list(APPEND target_names "${name}")
    if(name STREQUAL PERFDUEL_TARGET)
      string(JSON target_file GET "${codemodel}" configurations ${config_index} targets ${i}
        jsonFile)
    endif()
  endforeach()
endif()
if(target_file STREQUAL "")
  list(FILTER target_names EXCLUDE REGEX "^(perfduel_baseline|ALL_BUILD|ZERO_CHECK|RUN_TESTS)")
  perfduel_find_definition(definition "${baseline_source}")
  if(NOT definition STREQUAL "")
    # Not a new benchmark: the commit has it, but the options did not enable it.
    string(REPLACE ";" ", " names "${target_names}")
    perfduel_fail("${built_commit} ${commit_text} defines \"${PERFDUEL_TARGET}\" "
      "(${definition}), but its configure did not enable it (its targets: ${names}). It was "
      "configured with ${forwarded_text}. Give ${built} the option that enables the "
      "benchmark: configure this build with it (-D<OPTION>=ON is forwarded) or add it to "
      "PERFDUEL_BASELINE_CMAKE_ARGS. Log: ${work_dir}/configure.log")
  endif()
  perfduel_no_target(TARGET "${target_names}")
  return()
endif()
file(READ "${reply_dir}/${target_file}" target_json)
string(JSON target_type GET "${target_json}" type)
if(NOT target_type STREQUAL "EXECUTABLE")
  perfduel_fail("in ${built_commit} ${commit_text}, \"${PERFDUEL_TARGET}\" is a "
    "${target_type}, not an executable.")
endif()
string(JSON artifact GET "${target_json}" artifacts 0 path)
if(NOT IS_ABSOLUTE "${artifact}")
  set(artifact "${build_dir}/${artifact}")
endif()

# --- 5. Build only the benchmark target ------------------------------------------------------

set(build_args --build "${build_dir}" --target "${PERFDUEL_TARGET}")
if(NOT PERFDUEL_BUILD_CONFIG STREQUAL "")
  list(APPEND build_args --config "${PERFDUEL_BUILD_CONFIG}")
endif()
perfduel_run_logged("building ${PERFDUEL_TARGET} at ${built} ${commit_text}"
  "${work_dir}/build.log" "${CMAKE_COMMAND}" ${build_args})
if(NOT EXISTS "${artifact}")
  perfduel_fail("${built} build succeeded but ${artifact} does not exist. "
    "Full log: ${work_dir}/build.log")
endif()
file(WRITE "${stamp}" "${artifact}\n")
perfduel_done("${artifact}")

# --- 6. Keep the PERFDUEL_BASELINE_KEEP most recently used baselines ------------------------

if(commit_mode)
  return()  # a bisection's builds stay until it is done (docs/bisect.md says how to remove them)
endif()

file(GLOB work_dirs LIST_DIRECTORIES true "${PERFDUEL_BASELINE_DIR}/*")
set(entries "")
foreach(dir IN LISTS work_dirs)
  if(IS_DIRECTORY "${dir}" AND EXISTS "${dir}/last-used")
    file(READ "${dir}/last-used" used)
    string(STRIP "${used}" used)
    list(APPEND entries "${used}|${dir}")
  endif()
endforeach()
list(SORT entries ORDER DESCENDING)
list(LENGTH entries count)
if(count GREATER PERFDUEL_BASELINE_KEEP)
  list(SUBLIST entries ${PERFDUEL_BASELINE_KEEP} -1 old_entries)
  foreach(entry IN LISTS old_entries)
    string(REGEX REPLACE "^[^|]*\\|" "" dir "${entry}")
    if(NOT dir STREQUAL work_dir)
      perfduel_note("removing the old baseline ${dir}")
      perfduel_git(remove "${repo_dir}" worktree remove --force "${dir}/src")
      file(REMOVE_RECURSE "${dir}")
    endif()
  endforeach()
  perfduel_git(prune "${repo_dir}" worktree prune)
endif()
