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
# The functions below take keywords that may be empty (no ref in commit mode, no generator
# platform); under the 3.25 policies CMake 3.31 would warn about each one (CMP0174).
if(POLICY CMP0174)
  cmake_policy(SET CMP0174 NEW)
endif()

# --- The inputs ------------------------------------------------------------------------------

# Read here and nowhere else: -DPERFDUEL_GATE_FILE, -DPERFDUEL_BASELINE_LINK and
# -DPERFDUEL_BUILD_CONFIG (see above), -DPERFDUEL_ERROR_EXIT (see perfduel_run_worker),
# -DPERFDUEL_COMMIT with -DPERFDUEL_WORK_DIR (commit mode); the worker's
# -DPERFDUEL_BASELINE_WORKER and -DPERFDUEL_ERROR_FILE; and the settings in the gate file, which
# add_perf_gate() writes (PERFDUEL_GIT_EXECUTABLE is replaced by the git the worker finds).
foreach(required PERFDUEL_GATE_FILE PERFDUEL_BASELINE_LINK)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "PerfDuelBaseline.cmake: -D${required}=... is required")
  endif()
endforeach()
if(NOT EXISTS "${PERFDUEL_GATE_FILE}")
  message(FATAL_ERROR "PerfDuelBaseline.cmake: the gate file \"${PERFDUEL_GATE_FILE}\" "
    "(-DPERFDUEL_GATE_FILE) does not exist; expected one written by add_perf_gate() (configure "
    "the project again)")
endif()
include("${PERFDUEL_GATE_FILE}")
foreach(required PERFDUEL_GATE_NAME PERFDUEL_TARGET PERFDUEL_SOURCE_DIR PERFDUEL_BASELINE_REF
    PERFDUEL_BASELINE_DIR PERFDUEL_BASELINE_KEEP PERFDUEL_GENERATOR)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "PerfDuelBaseline.cmake: the gate file ${PERFDUEL_GATE_FILE} does not "
      "set ${required}; expected one written by add_perf_gate() (configure the project again)")
  endif()
endforeach()
if(NOT DEFINED PERFDUEL_NEW_TARGET)
  set(PERFDUEL_NEW_TARGET FAIL)  # a gate file written before NEW_TARGET existed
endif()
set(test_name "perf.${PERFDUEL_GATE_NAME}")
# What the messages call the commit being built, and where it is built: the gate's baseline,
# or a bisection's probe (commit mode).
set(commit_mode FALSE)
set(built "the baseline")
set(built_commit "the baseline commit")
set(baseline_dir "${PERFDUEL_BASELINE_DIR}")
if(DEFINED PERFDUEL_COMMIT)
  if(NOT DEFINED PERFDUEL_WORK_DIR)
    message(FATAL_ERROR "PerfDuelBaseline.cmake: -DPERFDUEL_COMMIT needs -DPERFDUEL_WORK_DIR=...")
  endif()
  set(commit_mode TRUE)
  set(built "the commit")
  set(built_commit "the commit")
  set(baseline_dir "${PERFDUEL_WORK_DIR}")
endif()

# The functions take what they use as arguments and set their results in the variables named
# by their first arguments (`*_var`). Two values or fewer are positional, more are keywords,
# except the benchmark's target name: positional, since a target named like a keyword would be
# taken for one. The exceptions are perfduel_fail and perfduel_git, which
# every step calls: they read the inputs PERFDUEL_ERROR_FILE and PERFDUEL_GATE_NAME, and
# PERFDUEL_GIT_EXECUTABLE as the main block sets it (the gate's git, or the one found).

# --- Helpers ---------------------------------------------------------------------------------

# Hands the arguments, concatenated, to the parent as the cause (see perfduel_run_worker) and
# stops: writes them to PERFDUEL_ERROR_FILE; the worker's own last words name the gate,
# PERFDUEL_GATE_NAME. ARGV<i> rather than ARGN, so semicolons in the message survive.
function(perfduel_fail)
  set(text "")
  math(EXPR last "${ARGC} - 1")
  foreach(i RANGE ${last})
    string(APPEND text "${ARGV${i}}")
  endforeach()
  file(WRITE "${PERFDUEL_ERROR_FILE}" "${text}")
  message(FATAL_ERROR "perfduel: the baseline of perf.${PERFDUEL_GATE_NAME} is not available")
endfunction()

# Prints `perfduel: ` and the arguments, concatenated (ARGV<i>, as perfduel_fail).
function(perfduel_note)
  set(text "")
  math(EXPR last "${ARGC} - 1")
  foreach(i RANGE ${last})
    string(APPEND text "${ARGV${i}}")
  endforeach()
  message(STATUS "perfduel: ${text}")
endfunction()

# Runs git (PERFDUEL_GIT_EXECUTABLE) in `dir`; sets <prefix>_rc, <prefix>_out and <prefix>_err.
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

# Records that the build in `work_dir` was used now (<work_dir>/last-used), for pruning.
function(perfduel_mark_used work_dir)
  string(TIMESTAMP now "%Y%m%d%H%M%S" UTC)
  file(WRITE "${work_dir}/last-used" "${now}\n")
endfunction()

# --- The parent: one line per error ----------------------------------------------------------

# The script runs itself as a child (the worker) so that an error is one line,
# `perfduel: error: <why>`, not CMake's "CMake Error at ..." and call stack: the worker writes
# the cause to a file and stops; this parent prints it and exits. ERROR_EXIT ctest (the CTest
# fixture, whose FAIL_REGULAR_EXPRESSION matches the line) then exits 0, since CMake before
# 3.29 cannot exit a script non-zero without its own error lines; status (the
# perfduel_baseline_<name> target) ends with a FATAL_ERROR, whose exit status fails the build.
# GATE_FILE, BUILD_CONFIG and LINK are the script's inputs, handed on; with COMMIT_MODE TRUE
# so are COMMIT and WORK_DIR. TEST_NAME is for the messages. Sets `stop_var` to what the
# script must stop with (a FATAL_ERROR in the main block, without a call stack), or "".
function(perfduel_run_worker stop_var)
  set(${stop_var} "" PARENT_SCOPE)
  cmake_parse_arguments(PARSE_ARGV 1 _worker ""
    "GATE_FILE;BUILD_CONFIG;LINK;COMMIT_MODE;COMMIT;WORK_DIR;ERROR_EXIT;TEST_NAME" "")
  set(error_file "${_worker_GATE_FILE}.error")
  set(mode_args "")
  if(_worker_COMMIT_MODE)
    # One error file per commit: a bisection reads it, and gates may build at the same time.
    set(error_file "${_worker_LINK}.error")
    set(mode_args "-DPERFDUEL_COMMIT=${_worker_COMMIT}" "-DPERFDUEL_WORK_DIR=${_worker_WORK_DIR}")
  endif()
  file(REMOVE "${error_file}")
  execute_process(COMMAND "${CMAKE_COMMAND}" -DPERFDUEL_BASELINE_WORKER=ON
      "-DPERFDUEL_ERROR_FILE=${error_file}" "-DPERFDUEL_GATE_FILE=${_worker_GATE_FILE}"
      "-DPERFDUEL_BUILD_CONFIG=${_worker_BUILD_CONFIG}"
      "-DPERFDUEL_BASELINE_LINK=${_worker_LINK}" ${mode_args}
      -P "${CMAKE_CURRENT_FUNCTION_LIST_FILE}"
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
    set(cause "the baseline step of ${_worker_TEST_NAME} stopped unexpectedly (${worker_rc}):\n${worker_err}")
  endif()
  message(NOTICE "perfduel: error: ${cause}")
  if(_worker_COMMIT_MODE)
    set(${stop_var} "perfduel: ${_worker_COMMIT} is not available" PARENT_SCOPE)
  elseif(NOT "${_worker_ERROR_EXIT}" STREQUAL "ctest")
    set(${stop_var} "perfduel: the baseline of ${_worker_TEST_NAME} is not available" PARENT_SCOPE)
  endif()
endfunction()

# --- 1. The repository, its history and the commit to build ---------------------------------

# Sets `out_var` to git: `given` (the gate's PERFDUEL_GIT_EXECUTABLE) when it exists, else the
# one on the PATH; none stops the baseline step of `test_name`.
function(perfduel_find_git out_var given test_name)
  set(git "${given}")
  if(NOT git OR NOT EXISTS "${git}")
    find_program(git git NO_CACHE)
    if(NOT git)
      perfduel_fail("git is not installed; the baseline of ${test_name} is built from the "
        "merge-base commit, which needs git (or use add_perf_gate(... BASELINE_EXECUTABLE ...))")
    endif()
  endif()
  set(${out_var} "${git}" PARENT_SCOPE)
endfunction()

# The repository of SOURCE_DIR (the gate's project): `repo_dir_var` is its top-level
# directory, `subdir_var` the project's directory inside it ("" at the top). It must have a
# commit; TEST_NAME and REF (the gate's ref) are for the messages.
function(perfduel_find_repository repo_dir_var subdir_var)
  cmake_parse_arguments(PARSE_ARGV 2 _repo "" "SOURCE_DIR;TEST_NAME;REF" "")
  file(REAL_PATH "${_repo_SOURCE_DIR}" source_dir)
  perfduel_git(top "${source_dir}" rev-parse --show-toplevel)
  if(NOT top_rc EQUAL 0)
    perfduel_fail("${source_dir} is not inside a git repository. ${_repo_TEST_NAME} compares "
      "against the merge-base commit, so it needs the project's git history: run it in a git "
      "clone, or give add_perf_gate() a prebuilt BASELINE_EXECUTABLE.")
  endif()
  file(REAL_PATH "${top_out}" repo_dir)
  file(RELATIVE_PATH project_subdir "${repo_dir}" "${source_dir}")

  perfduel_git(head "${repo_dir}" rev-parse --verify --quiet "HEAD^{commit}")
  if(NOT head_rc EQUAL 0)
    perfduel_fail("${repo_dir} has no commit yet; commit first, the baseline is the merge-base "
      "of HEAD and ${_repo_REF}.")
  endif()
  set(${repo_dir_var} "${repo_dir}" PARENT_SCOPE)
  set(${subdir_var} "${project_subdir}" PARENT_SCOPE)
endfunction()

# The commit to build in REPO_DIR: with COMMIT_MODE TRUE, COMMIT (a bisection's probe); else
# the merge-base of HEAD and REF, where a missing origin/main falls back to main. Sets
# `commit_var` to its id and `ref_var` to the ref actually used ("" in commit mode).
function(perfduel_resolve_commit commit_var ref_var)
  cmake_parse_arguments(PARSE_ARGV 2 _resolve "" "REPO_DIR;COMMIT_MODE;COMMIT;REF" "")
  set(repo_dir "${_resolve_REPO_DIR}")
  if(_resolve_COMMIT_MODE)
    perfduel_git(given "${repo_dir}" rev-parse --verify --quiet "${_resolve_COMMIT}^{commit}")
    if(NOT given_rc EQUAL 0)
      perfduel_fail("${_resolve_COMMIT} is not a commit in ${repo_dir}")
    endif()
    set(${commit_var} "${given_out}" PARENT_SCOPE)
    set(${ref_var} "" PARENT_SCOPE)
    return()
  endif()
  set(ref "${_resolve_REF}")
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
    perfduel_fail("unknown git ref \"${_resolve_REF}\"${also} in ${repo_dir}. Fetch it "
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
  set(${commit_var} "${merge_base_out}" PARENT_SCOPE)
  set(${ref_var} "${ref}" PARENT_SCOPE)
endfunction()

# How the messages name `commit` of REPO_DIR: `commit_text_var` is `<short id> "<subject>"`,
# `found_text_var` how it was found (the merge-base of HEAD and REF, or with COMMIT_MODE TRUE
# the commit alone).
function(perfduel_describe_commit commit_text_var found_text_var)
  cmake_parse_arguments(PARSE_ARGV 2 _describe "" "REPO_DIR;COMMIT;COMMIT_MODE;REF" "")
  perfduel_git_checked(describe "${_describe_REPO_DIR}" log -1 "--format=%h \"%s\""
    "${_describe_COMMIT}")
  set(${commit_text_var} "${describe_out}" PARENT_SCOPE)
  if(_describe_COMMIT_MODE)
    set(${found_text_var} "${describe_out}" PARENT_SCOPE)
  else()
    set(${found_text_var} "merge-base of HEAD and ${_describe_REF} is ${describe_out}"
      PARENT_SCOPE)
  endif()
endfunction()

# --- 2. The cache: one directory per (commit, configure arguments) ---------------------------

# Sets `out_var` to the build directory of COMMIT under BASELINE_DIR: <commit>-<hash>, where the
# hash covers the configure arguments (GENERATOR, PLATFORM, TOOLSET and the lists CMAKE_ARGS,
# PROJECT_ARGS and EXTRA_ARGS, as the gate file has them).
function(perfduel_work_dir out_var)
  cmake_parse_arguments(PARSE_ARGV 1 _key ""
    "BASELINE_DIR;COMMIT;GENERATOR;PLATFORM;TOOLSET;CMAKE_ARGS;PROJECT_ARGS;EXTRA_ARGS" "")
  string(SHA1 args_hash "${_key_GENERATOR}|${_key_PLATFORM}|${_key_TOOLSET}|\
${_key_CMAKE_ARGS}|${_key_PROJECT_ARGS}|${_key_EXTRA_ARGS}")
  string(SUBSTRING "${_key_COMMIT}" 0 12 short_commit)
  string(SUBSTRING "${args_hash}" 0 8 short_hash)
  set(${out_var} "${_key_BASELINE_DIR}/${short_commit}-${short_hash}" PARENT_SCOPE)
endfunction()

# Takes the lock of `baseline_dir` for the rest of the script. Gates share baseline builds;
# the lock keeps two builds (e.g. `make -j perfduel_baselines`) from configuring one tree at
# once.
function(perfduel_lock baseline_dir)
  file(MAKE_DIRECTORY "${baseline_dir}")
  file(LOCK "${baseline_dir}/.lock" GUARD PROCESS TIMEOUT 7200 RESULT_VARIABLE lock_rc)
  if(NOT lock_rc STREQUAL "0")
    perfduel_fail("cannot lock ${baseline_dir}/.lock: ${lock_rc}")
  endif()
endfunction()

# What an earlier run left for this build: `executable_var` is the executable recorded in
# STAMP when both exist; else, when there is no STAMP, `kind_var` and `names_var` are what
# MISSING_STAMP recorded of a commit without the target (see perfduel_no_target), or empty.
function(perfduel_read_cache executable_var kind_var names_var)
  cmake_parse_arguments(PARSE_ARGV 3 _cache "" "STAMP;MISSING_STAMP" "")
  set(executable "")
  set(missing_kind "")
  set(missing_names "")
  if(EXISTS "${_cache_STAMP}")
    file(READ "${_cache_STAMP}" cached_executable)
    string(STRIP "${cached_executable}" cached_executable)
    if(EXISTS "${cached_executable}")
      set(executable "${cached_executable}")
    endif()
  elseif(EXISTS "${_cache_MISSING_STAMP}")
    include("${_cache_MISSING_STAMP}")  # sets missing_kind and missing_names
  endif()
  set(${executable_var} "${executable}" PARENT_SCOPE)
  set(${kind_var} "${missing_kind}" PARENT_SCOPE)
  set(${names_var} "${missing_names}" PARENT_SCOPE)
endfunction()

# --- 3. The worktree -------------------------------------------------------------------------

# Checks COMMIT of REPO_DIR out in WORKTREE (its submodules too), reusing the worktree an
# earlier run left there when it really is one of this repository at this commit.
function(perfduel_checkout)
  cmake_parse_arguments(PARSE_ARGV 0 _checkout "" "WORKTREE;REPO_DIR;COMMIT" "")
  set(worktree "${_checkout_WORKTREE}")
  set(repo_dir "${_checkout_REPO_DIR}")
  set(commit "${_checkout_COMMIT}")
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
    perfduel_submodules(WORKTREE "${worktree}" REPO_DIR "${repo_dir}")
  endif()
endfunction()

# Initialises in WORKTREE (a checkout of the baseline commit) the submodules that REPO_DIR (the
# working tree the gate runs in) has checked out, and no others, each at the revision WORKTREE's
# commit records, then theirs the same way. A project that registers a submodule it does not use
# (a vendored library it replaces with the system's package) has it uninitialised: its host
# may be out of reach (an offline runner), and the baseline's build does not need it either.
#
# Each is cloned from REPO_DIR's own checkout of it (its objects are already on this machine;
# `submodule.<name>.url` on the command line, so the repository's configuration is left alone),
# and only when the recorded revision is not among those objects from the URL it names.
function(perfduel_submodules)
  cmake_parse_arguments(PARSE_ARGV 0 _sub "" "WORKTREE;REPO_DIR" "")
  set(worktree "${_sub_WORKTREE}")
  if(NOT EXISTS "${worktree}/.gitmodules")
    return()
  endif()
  perfduel_git(paths "${worktree}" config --file .gitmodules --get-regexp "^submodule\\..*\\.path$")
  string(REGEX MATCHALL "[^\n]+" entries "${paths_out}")
  foreach(entry IN LISTS entries)
    if(NOT entry MATCHES "^submodule\\.(.+)\\.path (.+)$")
      continue()
    endif()
    set(name "${CMAKE_MATCH_1}")
    set(path "${CMAKE_MATCH_2}")
    set(local "${_sub_REPO_DIR}/${path}")
    # Checked out in the working tree: a repository of its own there (else git walks up to the
    # superproject, or the directory is empty or missing).
    set(checked_out FALSE)
    if(IS_DIRECTORY "${local}")
      perfduel_git(top "${local}" rev-parse --show-toplevel)
      if(top_rc EQUAL 0)
        file(REAL_PATH "${top_out}" top_real)
        file(REAL_PATH "${local}" local_real)
        if(top_real STREQUAL local_real)
          set(checked_out TRUE)
        endif()
      endif()
    endif()
    # A gitlink at the baseline commit (.gitmodules may name a path the commit no longer has).
    perfduel_git(link "${worktree}" ls-files --stage -- "${path}")
    if(NOT checked_out OR NOT link_out MATCHES "^160000 ")
      if(NOT checked_out AND link_out MATCHES "^160000 ")
        perfduel_note("submodule ${path} is not checked out in ${_sub_REPO_DIR}: left out of the baseline too")
      endif()
      continue()
    endif()
    perfduel_git(update "${worktree}" -c protocol.file.allow=always -c "submodule.${name}.url=${local_real}"
      submodule update --init -- "${path}")
    if(NOT update_rc EQUAL 0)
      perfduel_note("submodule ${path}: the baseline's revision is not in ${local_real}, fetching it from its URL")
      perfduel_git_checked(update "${worktree}" submodule update --init -- "${path}")
    endif()
    perfduel_submodules(WORKTREE "${worktree}/${path}" REPO_DIR "${local_real}")
  endforeach()
endfunction()

# --- 4. Configure like the current build, then find the target ------------------------------

# Configures SOURCE in BUILD_DIR (log: LOG) with the gate's GENERATOR (PLATFORM, TOOLSET) and
# configure arguments (the lists CMAKE_ARGS, PROJECT_ARGS and EXTRA_ARGS), asking the CMake
# file API for the code model. BUILT and COMMIT_TEXT name the commit in the messages;
# FORWARDED_TEXT says what it gets besides the toolchain.
function(perfduel_configure)
  cmake_parse_arguments(PARSE_ARGV 0 _configure "" "SOURCE;BUILD_DIR;LOG;GENERATOR;PLATFORM;\
TOOLSET;CMAKE_ARGS;PROJECT_ARGS;EXTRA_ARGS;BUILT;COMMIT_TEXT;FORWARDED_TEXT" "")
  # The CMake file API tells where the target's executable is, whatever the project's layout.
  file(WRITE "${_configure_BUILD_DIR}/.cmake/api/v1/query/client-perfduel/codemodel-v2" "")
  set(generator_args -G "${_configure_GENERATOR}")
  if(NOT "${_configure_PLATFORM}" STREQUAL "")
    list(APPEND generator_args -A "${_configure_PLATFORM}")
  endif()
  if(NOT "${_configure_TOOLSET}" STREQUAL "")
    list(APPEND generator_args -T "${_configure_TOOLSET}")
  endif()
  perfduel_note("configuring ${_configure_BUILT} with ${_configure_FORWARDED_TEXT}")
  perfduel_run_logged("configuring ${_configure_BUILT} ${_configure_COMMIT_TEXT}" "${_configure_LOG}"
    "${CMAKE_COMMAND}" -S "${_configure_SOURCE}" -B "${_configure_BUILD_DIR}" ${generator_args}
    ${_configure_CMAKE_ARGS} ${_configure_PROJECT_ARGS} ${_configure_EXTRA_ARGS}
    -DPERFDUEL_IS_BASELINE_BUILD=ON)
endfunction()

# Sets `out_var` to "add_executable in <file>" when a CMake file under `source` defines
# `target`, else "". Tells a benchmark that is not enabled from one that is new.
function(perfduel_find_definition out_var source target)
  string(REGEX REPLACE "([][+.*?()^$|\\\\])" "\\\\\\1" target_regex "${target}")
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

# `target` in the code model that the file API wrote into BUILD_DIR, in the configuration
# BUILD_CONFIG (else the first): `artifact_var` is its executable, or "" when the commit has
# no such target, and `names_var` the configuration's targets (without CMake's own). A target
# the commit defines (in SOURCE) but did not enable, or one that is not an executable, stops
# the script; BUILT, BUILT_COMMIT, COMMIT_TEXT, FORWARDED_TEXT and LOG (the configure log) are
# for those messages.
function(perfduel_find_artifact artifact_var names_var target)
  cmake_parse_arguments(PARSE_ARGV 3 _find "" "BUILD_DIR;BUILD_CONFIG;SOURCE;BUILT;BUILT_COMMIT;\
COMMIT_TEXT;FORWARDED_TEXT;LOG" "")
  set(build_dir "${_find_BUILD_DIR}")
  set(build_config "${_find_BUILD_CONFIG}")
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
    if(config_name STREQUAL build_config)
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
      if(name STREQUAL target)
        string(JSON target_file GET "${codemodel}" configurations ${config_index} targets ${i}
          jsonFile)
      endif()
    endforeach()
  endif()
  if(target_file STREQUAL "")
    list(FILTER target_names EXCLUDE REGEX "^(perfduel_baseline|ALL_BUILD|ZERO_CHECK|RUN_TESTS)")
    perfduel_find_definition(definition "${_find_SOURCE}" "${target}")
    if(NOT definition STREQUAL "")
      # Not a new benchmark: the commit has it, but the options did not enable it.
      string(REPLACE ";" ", " names "${target_names}")
      perfduel_fail("${_find_BUILT_COMMIT} ${_find_COMMIT_TEXT} defines \"${target}\" "
        "(${definition}), but its configure did not enable it (its targets: ${names}). It was "
        "configured with ${_find_FORWARDED_TEXT}. Give ${_find_BUILT} the option that enables "
        "the benchmark: configure this build with it (-D<OPTION>=ON is forwarded) or add it to "
        "PERFDUEL_BASELINE_CMAKE_ARGS. Log: ${_find_LOG}")
    endif()
    set(${artifact_var} "" PARENT_SCOPE)
    set(${names_var} "${target_names}" PARENT_SCOPE)
    return()
  endif()
  file(READ "${reply_dir}/${target_file}" target_json)
  string(JSON target_type GET "${target_json}" type)
  if(NOT target_type STREQUAL "EXECUTABLE")
    perfduel_fail("in ${_find_BUILT_COMMIT} ${_find_COMMIT_TEXT}, \"${target}\" is a "
      "${target_type}, not an executable.")
  endif()
  string(JSON artifact GET "${target_json}" artifacts 0 path)
  if(NOT IS_ABSOLUTE "${artifact}")
    set(artifact "${build_dir}/${artifact}")
  endif()
  set(${artifact_var} "${artifact}" PARENT_SCOPE)
  set(${names_var} "${target_names}" PARENT_SCOPE)
endfunction()

# --- 5. Build only the benchmark target ------------------------------------------------------

# Builds only `target` in BUILD_DIR (in BUILD_CONFIG, if any; log: LOG) and checks that its
# executable ARTIFACT exists. BUILT and COMMIT_TEXT name the commit in the messages.
function(perfduel_build target)
  cmake_parse_arguments(PARSE_ARGV 1 _build "" "BUILD_DIR;BUILD_CONFIG;LOG;ARTIFACT;BUILT;\
COMMIT_TEXT" "")
  set(build_args --build "${_build_BUILD_DIR}" --target "${target}")
  if(NOT "${_build_BUILD_CONFIG}" STREQUAL "")
    list(APPEND build_args --config "${_build_BUILD_CONFIG}")
  endif()
  perfduel_run_logged("building ${target} at ${_build_BUILT} ${_build_COMMIT_TEXT}"
    "${_build_LOG}" "${CMAKE_COMMAND}" ${build_args})
  if(NOT EXISTS "${_build_ARTIFACT}")
    perfduel_fail("${_build_BUILT} build succeeded but ${_build_ARTIFACT} does not exist. "
      "Full log: ${_build_LOG}")
  endif()
endfunction()

# --- The outcome: a baseline, or none to compare against -------------------------------------

# Points LINK, the gate's stable path, at EXECUTABLE, records the use of WORK_DIR and says so:
# `<LABEL>: <EXECUTABLE>`.
function(perfduel_link)
  cmake_parse_arguments(PARSE_ARGV 0 _link "" "LINK;EXECUTABLE;WORK_DIR;LABEL" "")
  cmake_path(GET _link_LINK PARENT_PATH link_dir)
  file(MAKE_DIRECTORY "${link_dir}")
  file(REMOVE "${_link_LINK}")
  file(CREATE_LINK "${_link_EXECUTABLE}" "${_link_LINK}" SYMBOLIC COPY_ON_ERROR)
  perfduel_mark_used("${_link_WORK_DIR}")
  perfduel_note("${_link_LABEL}: ${_link_EXECUTABLE}")
endfunction()

# The commit COMMIT_TEXT has no target `target`: KIND is TARGET (the project has other targets,
# NAMES, a list) or PROJECT (no CMakeLists.txt in PROJECT_SUBDIR). Recorded in MISSING_STAMP,
# so that the next run does not configure it again. There is nothing to compare against yet:
# with COMMIT_MODE TRUE that is an error (a bisection skips such a commit); NEW_TARGET FAIL
# stops; NEW_TARGET SKIP reports the fixture of TEST_NAME skipped, removes LINK and leaves the
# marker LINK.no-baseline for the perf test. REF is the gate's ref; WORK_DIR is marked used.
# The caller ends the script.
function(perfduel_no_target target)
  cmake_parse_arguments(PARSE_ARGV 1 _missing "" "KIND;NAMES;MISSING_STAMP;PROJECT_SUBDIR;\
COMMIT_MODE;COMMIT_TEXT;REF;TEST_NAME;NEW_TARGET;LINK;WORK_DIR" "")
  set(kind "${_missing_KIND}")
  set(names "${_missing_NAMES}")
  set(commit_text "${_missing_COMMIT_TEXT}")
  set(ref "${_missing_REF}")
  file(WRITE "${_missing_MISSING_STAMP}"
    "set(missing_kind [==[${kind}]==])\nset(missing_names [==[${names}]==])\n")
  if("${_missing_PROJECT_SUBDIR}" STREQUAL "")
    set(lists_file "CMakeLists.txt")
  else()
    set(lists_file "${_missing_PROJECT_SUBDIR}/CMakeLists.txt")
  endif()
  if(_missing_COMMIT_MODE)
    # A bisection skips such a commit: there is nothing to duel.
    if(kind STREQUAL "PROJECT")
      perfduel_fail("${commit_text} has no ${lists_file}, so it has no target \"${target}\"")
    endif()
    string(REPLACE ";" ", " names "${names}")
    perfduel_fail("${commit_text} has no target \"${target}\" (its targets: ${names})")
  endif()
  if(kind STREQUAL "PROJECT")
    string(CONCAT why "the baseline commit ${commit_text} has no ${lists_file}, so it has no "
      "target \"${target}\" to compare against.")
    set(fail_hint "")
    set(skip_hint " The project probably does not build with CMake on ${ref} yet:")
  else()
    string(REPLACE ";" ", " names "${names}")
    string(CONCAT why "the baseline commit ${commit_text} has no target "
      "\"${target}\" (its targets: ${names}).")
    string(CONCAT fail_hint " The benchmark probably does not exist on ${ref} yet: "
      "${_missing_TEST_NAME} can gate once it is merged. Until then exclude it (ctest -LE perf) "
      "or give add_perf_gate() a prebuilt BASELINE_EXECUTABLE.")
    string(CONCAT skip_hint " The benchmark probably does not exist on ${ref} yet, so there is "
      "nothing to compare against:")
  endif()
  if(NOT _missing_NEW_TARGET STREQUAL "SKIP")
    perfduel_fail("${why}${fail_hint}")
  endif()
  string(APPEND why "${skip_hint} ${_missing_TEST_NAME} is skipped (NEW_TARGET SKIP) and gates "
    "once the benchmark is merged.")
  file(REMOVE "${_missing_LINK}")
  set(marker "${_missing_LINK}.no-baseline")
  cmake_path(GET marker PARENT_PATH marker_dir)
  file(MAKE_DIRECTORY "${marker_dir}")
  file(WRITE "${marker}" "${why}\n")
  perfduel_mark_used("${_missing_WORK_DIR}")
  message(NOTICE "perfduel: skipped: ${why}")
endfunction()

# --- 6. Keep the most recently used baselines ------------------------------------------------

# Keeps the `keep` most recently used builds in BASELINE_DIR (by their last-used) and always
# CURRENT, this run's; removes the others and their worktrees of REPO_DIR.
function(perfduel_prune)
  cmake_parse_arguments(PARSE_ARGV 0 _prune "" "BASELINE_DIR;KEEP;CURRENT;REPO_DIR" "")
  set(keep "${_prune_KEEP}")
  file(GLOB work_dirs LIST_DIRECTORIES true "${_prune_BASELINE_DIR}/*")
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
  if(NOT count GREATER keep)
    return()
  endif()
  list(SUBLIST entries ${keep} -1 old_entries)
  foreach(entry IN LISTS old_entries)
    string(REGEX REPLACE "^[^|]*\\|" "" dir "${entry}")
    if(NOT dir STREQUAL _prune_CURRENT)
      perfduel_note("removing the old baseline ${dir}")
      perfduel_git(remove "${_prune_REPO_DIR}" worktree remove --force "${dir}/src")
      file(REMOVE_RECURSE "${dir}")
    endif()
  endforeach()
  perfduel_git(prune "${_prune_REPO_DIR}" worktree prune)
endfunction()

# --- The same program as the candidate's, at another path ------------------------------------

# Sets `out_var` to CMAKE_ARGS (the gate's toolchain arguments) with -fmacro-prefix-map options
# appended to CMAKE_<LANG>_FLAGS of each of LANGUAGES (the gate's PERFDUEL_MACRO_MAP_LANGUAGES:
# GCC 8 and newer, Clang 10 and newer) that name the checked-out project WORK_DIR/src/SUBDIR as
# the candidate's source directory SOURCE_DIR, and the build WORK_DIR/build as its build
# directory BINARY_DIR. Why: code that names its own source file (assert, __FILE__,
# std::source_location) keeps the path in its data, so identical code built here would be a
# different program from the candidate's, and the duel (which first compares what both sides
# run: README, "Identical programs") would measure what does not differ. Only the macros are
# mapped: debug information keeps the true paths, so a debugger or `perf annotate` of the
# baseline finds the baseline's sources (it is never loaded, and the fingerprints leave it and
# the build-id out). A path that a compile command would need quoted is not mapped (the duel then
# measures such code). The cache key (perfduel_work_dir) is computed without these options.
function(perfduel_same_paths_args out_var)
  cmake_parse_arguments(PARSE_ARGV 1 _same "" "CMAKE_ARGS;LANGUAGES;WORK_DIR;SUBDIR;SOURCE_DIR;\
BINARY_DIR" "")
  set(args "${_same_CMAKE_ARGS}")
  set(from_source "${_same_WORK_DIR}/src/")
  if(NOT "${_same_SUBDIR}" STREQUAL "")
    string(APPEND from_source "${_same_SUBDIR}/")
  endif()
  # A trailing slash on both sides: the compiler maps by string prefix, not by path component.
  set(maps "-fmacro-prefix-map=${from_source}=${_same_SOURCE_DIR}/"
    "-fmacro-prefix-map=${_same_WORK_DIR}/build/=${_same_BINARY_DIR}/")
  if("${_same_LANGUAGES}" STREQUAL "" OR "${maps}" MATCHES "[] \t\n\"'\\$`&|<>()*?[#~]")
    set(${out_var} "${args}" PARENT_SCOPE)
    return()
  endif()
  list(JOIN maps " " maps)
  foreach(lang IN LISTS _same_LANGUAGES)
    set(found FALSE)
    set(mapped "")
    foreach(arg IN LISTS args)
      if(arg MATCHES "^-DCMAKE_${lang}_FLAGS(:[A-Za-z]+)?=")
        string(STRIP "${arg} ${maps}" arg)
        set(found TRUE)
      endif()
      string(REPLACE ";" "\\;" arg "${arg}")  # a value's own semicolons stay in it (a;b)
      list(APPEND mapped "${arg}")
    endforeach()
    if(NOT found)
      list(APPEND mapped "-DCMAKE_${lang}_FLAGS:STRING=${maps}")
    endif()
    set(args "${mapped}")
  endforeach()
  set(${out_var} "${args}" PARENT_SCOPE)
endfunction()

# --- 3.-5. A build of the commit -------------------------------------------------------------

# What the baseline's configure gets besides the toolchain, for the log and messages:
# `project_args` (the project's cache options) and `extra_args` (PERFDUEL_BASELINE_CMAKE_ARGS).
function(perfduel_forwarded_text out_var project_args extra_args)
  if(project_args)
    list(JOIN project_args " " text)
    set(text "the project's cache options ${text}")
  else()
    set(text "no cache options of the project")
  endif()
  if(extra_args)
    list(JOIN extra_args " " extra_text)
    string(APPEND text " and PERFDUEL_BASELINE_CMAKE_ARGS ${extra_text}")
  else()
    string(APPEND text " (PERFDUEL_BASELINE_CMAKE_ARGS: none)")
  endif()
  set(${out_var} "${text}" PARENT_SCOPE)
endfunction()

# Builds `target` of COMMIT in WORK_DIR: checks the commit of REPO_DIR out (src), configures the
# project in PROJECT_SUBDIR of it like the current build (build: GENERATOR, PLATFORM, TOOLSET
# and the lists CMAKE_ARGS, PROJECT_ARGS and EXTRA_ARGS) and builds only `target`, in
# BUILD_CONFIG; its executable is recorded in STAMP. Sets `executable_var` to it, or, when the
# commit has no such target, `kind_var` to PROJECT (no CMakeLists.txt) or TARGET, and
# `names_var` to the targets it has. BUILT, BUILT_COMMIT, COMMIT_TEXT and FOUND_TEXT name the
# commit in the messages.
function(perfduel_build_commit executable_var kind_var names_var target)
  cmake_parse_arguments(PARSE_ARGV 4 _commit "" "WORK_DIR;REPO_DIR;COMMIT;PROJECT_SUBDIR;\
BUILD_CONFIG;STAMP;GENERATOR;PLATFORM;TOOLSET;CMAKE_ARGS;PROJECT_ARGS;EXTRA_ARGS;BUILT;\
BUILT_COMMIT;COMMIT_TEXT;FOUND_TEXT" "")
  set(work_dir "${_commit_WORK_DIR}")
  set(${executable_var} "" PARENT_SCOPE)
  set(${kind_var} "" PARENT_SCOPE)
  set(${names_var} "" PARENT_SCOPE)
  perfduel_note("${_commit_FOUND_TEXT}; building ${target} in ${work_dir}")
  # Marked as used now, not only on success: a baseline that fails to configure or build is
  # then pruned like any other once newer ones exist.
  file(MAKE_DIRECTORY "${work_dir}")
  perfduel_mark_used("${work_dir}")

  perfduel_checkout(WORKTREE "${work_dir}/src" REPO_DIR "${_commit_REPO_DIR}"
    COMMIT "${_commit_COMMIT}")
  set(source "${work_dir}/src")
  if(NOT "${_commit_PROJECT_SUBDIR}" STREQUAL "")
    string(APPEND source "/${_commit_PROJECT_SUBDIR}")
  endif()
  if(NOT EXISTS "${source}/CMakeLists.txt")
    set(${kind_var} PROJECT PARENT_SCOPE)
    return()
  endif()

  perfduel_forwarded_text(forwarded_text "${_commit_PROJECT_ARGS}" "${_commit_EXTRA_ARGS}")
  perfduel_configure(SOURCE "${source}" BUILD_DIR "${work_dir}/build"
    LOG "${work_dir}/configure.log" GENERATOR "${_commit_GENERATOR}"
    PLATFORM "${_commit_PLATFORM}" TOOLSET "${_commit_TOOLSET}"
    CMAKE_ARGS "${_commit_CMAKE_ARGS}" PROJECT_ARGS "${_commit_PROJECT_ARGS}"
    EXTRA_ARGS "${_commit_EXTRA_ARGS}" BUILT "${_commit_BUILT}"
    COMMIT_TEXT "${_commit_COMMIT_TEXT}" FORWARDED_TEXT "${forwarded_text}")
  perfduel_find_artifact(artifact target_names "${target}" BUILD_DIR "${work_dir}/build"
    BUILD_CONFIG "${_commit_BUILD_CONFIG}" SOURCE "${source}"
    BUILT "${_commit_BUILT}" BUILT_COMMIT "${_commit_BUILT_COMMIT}"
    COMMIT_TEXT "${_commit_COMMIT_TEXT}" FORWARDED_TEXT "${forwarded_text}"
    LOG "${work_dir}/configure.log")
  if(artifact STREQUAL "")
    set(${kind_var} TARGET PARENT_SCOPE)
    set(${names_var} "${target_names}" PARENT_SCOPE)
    return()
  endif()

  perfduel_build("${target}" BUILD_DIR "${work_dir}/build"
    BUILD_CONFIG "${_commit_BUILD_CONFIG}" LOG "${work_dir}/build.log" ARTIFACT "${artifact}"
    BUILT "${_commit_BUILT}" COMMIT_TEXT "${_commit_COMMIT_TEXT}")
  file(WRITE "${_commit_STAMP}" "${artifact}\n")
  set(${executable_var} "${artifact}" PARENT_SCOPE)
endfunction()

# --- Main ------------------------------------------------------------------------------------

if(NOT PERFDUEL_BASELINE_WORKER)
  perfduel_run_worker(stop GATE_FILE "${PERFDUEL_GATE_FILE}"
    BUILD_CONFIG "${PERFDUEL_BUILD_CONFIG}" LINK "${PERFDUEL_BASELINE_LINK}"
    COMMIT_MODE ${commit_mode} COMMIT "${PERFDUEL_COMMIT}" WORK_DIR "${PERFDUEL_WORK_DIR}"
    ERROR_EXIT "${PERFDUEL_ERROR_EXIT}" TEST_NAME "${test_name}")
  if(NOT stop STREQUAL "")
    message(FATAL_ERROR "${stop}")
  endif()
  return()
endif()

# The worker: the commit, then its build (cached by commit and configure arguments), then
# the gate's stable path pointed at it, or the report that there is no target to compare.
file(REMOVE "${PERFDUEL_BASELINE_LINK}.no-baseline")  # rewritten when there is still no target
perfduel_find_git(PERFDUEL_GIT_EXECUTABLE "${PERFDUEL_GIT_EXECUTABLE}" "${test_name}")
perfduel_find_repository(repo_dir project_subdir SOURCE_DIR "${PERFDUEL_SOURCE_DIR}"
  TEST_NAME "${test_name}" REF "${PERFDUEL_BASELINE_REF}")
perfduel_resolve_commit(commit ref REPO_DIR "${repo_dir}" COMMIT_MODE ${commit_mode}
  COMMIT "${PERFDUEL_COMMIT}" REF "${PERFDUEL_BASELINE_REF}")
perfduel_describe_commit(commit_text found_text REPO_DIR "${repo_dir}" COMMIT "${commit}"
  COMMIT_MODE ${commit_mode} REF "${ref}")

perfduel_work_dir(work_dir BASELINE_DIR "${baseline_dir}" COMMIT "${commit}"
  GENERATOR "${PERFDUEL_GENERATOR}" PLATFORM "${PERFDUEL_GENERATOR_PLATFORM}"
  TOOLSET "${PERFDUEL_GENERATOR_TOOLSET}" CMAKE_ARGS "${PERFDUEL_CMAKE_ARGS}"
  PROJECT_ARGS "${PERFDUEL_PROJECT_ARGS}" EXTRA_ARGS "${PERFDUEL_EXTRA_ARGS}")
set(config_dir_name "${PERFDUEL_BUILD_CONFIG}")
if(config_dir_name STREQUAL "")
  set(config_dir_name "default")
endif()
set(stamp "${work_dir}/targets/${config_dir_name}/${PERFDUEL_TARGET}.path")
# Written instead of `stamp` when the commit has no such target: no configure next time.
set(missing_stamp "${work_dir}/targets/${config_dir_name}/${PERFDUEL_TARGET}.missing.cmake")
perfduel_lock("${baseline_dir}")
perfduel_read_cache(executable missing_kind missing_names STAMP "${stamp}"
  MISSING_STAMP "${missing_stamp}")
set(built_now FALSE)
if(NOT executable STREQUAL "")
  perfduel_note("${found_text}; cached, not rebuilt")
elseif(NOT missing_kind STREQUAL "")
  perfduel_note("${found_text}; cached, not configured again")
else()
  set(built_now TRUE)
  # Gate files written before PERFDUEL_BINARY_DIR existed map nothing.
  perfduel_same_paths_args(cmake_args CMAKE_ARGS "${PERFDUEL_CMAKE_ARGS}"
    LANGUAGES "${PERFDUEL_MACRO_MAP_LANGUAGES}" WORK_DIR "${work_dir}" SUBDIR "${project_subdir}"
    SOURCE_DIR "${PERFDUEL_SOURCE_DIR}" BINARY_DIR "${PERFDUEL_BINARY_DIR}")
  perfduel_build_commit(executable missing_kind missing_names "${PERFDUEL_TARGET}"
    WORK_DIR "${work_dir}" REPO_DIR "${repo_dir}" COMMIT "${commit}"
    PROJECT_SUBDIR "${project_subdir}" BUILD_CONFIG "${PERFDUEL_BUILD_CONFIG}" STAMP "${stamp}"
    GENERATOR "${PERFDUEL_GENERATOR}" PLATFORM "${PERFDUEL_GENERATOR_PLATFORM}"
    TOOLSET "${PERFDUEL_GENERATOR_TOOLSET}" CMAKE_ARGS "${cmake_args}"
    PROJECT_ARGS "${PERFDUEL_PROJECT_ARGS}" EXTRA_ARGS "${PERFDUEL_EXTRA_ARGS}"
    BUILT "${built}" BUILT_COMMIT "${built_commit}" COMMIT_TEXT "${commit_text}"
    FOUND_TEXT "${found_text}")
endif()

if(NOT missing_kind STREQUAL "")
  perfduel_no_target("${PERFDUEL_TARGET}" KIND "${missing_kind}" NAMES "${missing_names}"
    MISSING_STAMP "${missing_stamp}" PROJECT_SUBDIR "${project_subdir}"
    COMMIT_MODE ${commit_mode} COMMIT_TEXT "${commit_text}" REF "${ref}"
    TEST_NAME "${test_name}" NEW_TARGET "${PERFDUEL_NEW_TARGET}"
    LINK "${PERFDUEL_BASELINE_LINK}" WORK_DIR "${work_dir}")
  return()
endif()
set(link_label "baseline of ${test_name}")
if(commit_mode)
  set(link_label "${commit_text}")
endif()
perfduel_link(LINK "${PERFDUEL_BASELINE_LINK}" EXECUTABLE "${executable}"
  WORK_DIR "${work_dir}" LABEL "${link_label}")
# A bisection's builds stay until it is done (docs/bisect.md says how to remove them).
if(built_now AND NOT commit_mode)
  perfduel_prune(BASELINE_DIR "${baseline_dir}" KEEP "${PERFDUEL_BASELINE_KEEP}"
    CURRENT "${work_dir}" REPO_DIR "${repo_dir}")
endif()
