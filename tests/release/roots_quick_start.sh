#!/usr/bin/env bash
# The README's quick start, as written, in the Debian 13 root as its user `builder` (no root, no
# sudo), with nothing on PATH that GitHub's ubuntu-latest image lacks: run there by
# tests/release/roots_test.sh, which copies in what this needs.
#
#   roots_quick_start.sh SOURCE_DIR CI_LOCAL ARCHIVE_STORE WORK_DIR
#
# SOURCE_DIR holds README.md, templates/, tests/templates/ (local/ and pull_request_history.sh)
# and examples/sort_gate; CI_LOCAL is tests/templates/ci_local.cpp built static; ARCHIVE_STORE
# the release archive perfduel-<version>-linux-x86_64.tar.gz.
#
# No ninja, no ccache: the root has both (tests/release/roots_ci.sh runs the forms with them),
# so PATH here is a directory of links to every program of the root's /usr/bin but ninja and
# ccache; the jobs say "no ninja: CMake's default generator" and "no ccache", and build with
# make. `curl` on it is tests/templates/local/fake_curl.sh, which serves ARCHIVE_STORE and its
# SHA256SUMS as a release does (each call logged in WORK_DIR/curl.log): the download and the
# checksum are the action's and the include's own steps.
#
# The project is the README's: examples/sort_gate's sort library and its bench_sort, the
# README's CMake lines (after <!-- quick-start-cmake -->) and perf/sort.yaml (after
# <!-- quick-start-config -->), its .github/workflows/perf.yml (after
# <!-- quick-start-workflow -->), each taken from README.md by its marker as .ci/run takes the
# test command; the action and the GitLab include copied from the archive's
# share/perfduel/templates/ where the docs say, with docs/ci.md's short .gitlab-ci.yml
# (templates/gitlab-gate.yml, its before_script's opt-in apt-get replaced by a check that the
# root has git, cmake, make and g++, each of which its apt-get list must name) and
# .github/workflows/gate.yml (templates/github-gate.yml, likewise its "Install dependencies").
# Each job on a fresh runner at the same workspace path, nothing kept but the CI system's cache
# (a directory). The scenarios, by the README's workflow (github) and the short .gitlab-ci.yml
# (gitlab), in this order:
#   pr-slower  cold (empty caches): a pull request into main whose commit raises the sort's
#              insertion-sort cutoff to 1024 (about twice the wall time): the archive
#              downloaded and its SHA-256 checked; the job FAILS, perf.sort_speed a regression
#   pr-same    warm: its second push (the cutoff back, a comment reworded): nothing downloaded
#              (no curl at all), the baseline's build restored and not rebuilt (its fixture
#              says "cached, not rebuilt"), every gate passes after 0 rounds
#   push       a push to main carrying the regression (origin's main moved to it): compared
#              with the commit it replaced, the job FAILS; github-gate.yml's two shards likewise (the one with the gate
#              fails, the other has none and passes)
#   release    a pull request into the branch `release`: compared with its merge-base with
#              release (not main), by the job's line that names the baseline and the gate's
#   undecided  a pull request whose perf/sort.yaml cannot decide (3 rounds, a 0.01 % threshold)
#              and whose gate writes its report to custom-reports/ (JSON_REPORT): github: a
#              `::warning` annotation and a line in the job summary, the job passes; gitlab:
#              "passed with warnings" (exit 77, allow_failure)
#   tampered   an empty cache and the archive with one byte changed, SHA256SUMS the release's:
#              refused by the checksum, with a message saying so, nothing unpacked or run
#
# Not a matter of timing (tests/README.md): the regressions are the README's wall-time gate (a
# 2 % threshold, a 1 % tolerance) against a sort about twice as slow (+92 % measured here under
# load): a round escapes the sign sequence only when the baseline's run is stalled by about as
# much as the candidate's whole extra time, and the budget (5 minutes) leaves hundreds of rounds
# for the rest; the passes measure nothing (identical programs: 0 rounds); the undecided gate
# cannot decide in 3 rounds (tests/templates/run_templates.sh, undecided_branch, says why).
set -uo pipefail
src=$(cd "$1" && pwd) ci_local=$2 store=$3 work=$4
local_dir=$src/tests/templates/local
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
say() { printf '\n==> %s\n' "$*"; }

rm -rf "$work"
mkdir -p "$work/home" "$work/bin" "$work/api"
work=$(cd "$work" && pwd)
export HOME=$work/home
archive=$(ls "$store"/perfduel-*-linux-x86_64.tar.gz) || { echo "roots_quick_start.sh: no archive in $store"; exit 2; }
name=$(basename "$archive" .tar.gz)
version=${name#perfduel-}
version=${version%-linux-x86_64}
templates=$work/archive/$name/share/perfduel/templates
mkdir -p "$work/archive"
tar -xzf "$archive" -C "$work/archive"

# --- PATH: the root's programs but ninja and ccache; curl the release's stand-in --------------
for program in /usr/bin/*; do
  case "${program##*/}" in ninja | ccache | curl) continue ;; esac
  ln -s "$program" "$work/bin/"
done
cat >"$work/bin/curl" <<SCRIPT
#!/bin/bash
echo "curl \$*" >>"$work/curl.log"
exec bash "$local_dir/fake_curl.sh" "\$@"
SCRIPT
chmod +x "$work/bin/curl"
export PATH=$work/bin FAKE_API=$work/api PERFDUEL_TEST_ARCHIVE_STORE=$store
export PERFDUEL_TEST_TOOLS="git cmake make g++"   # local/install-dependencies.sh
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-2}
: >"$work/curl.log"
echo "as $(id -un) (uid $(id -u)) on $(. /etc/os-release && echo "$PRETTY_NAME"), $(getconf GNU_LIBC_VERSION)"
if command -v ninja >/dev/null || command -v ccache >/dev/null; then
  echo "roots_quick_start.sh: ninja or ccache is still on PATH ($PATH)"
  exit 2
fi
echo "PATH=$PATH: the root's /usr/bin without ninja and ccache ($(ls "$work/bin" | wc -l) programs)"

# --- the README's project, and its history -------------------------------------------------------
# readme_block MARKER: the fenced block after <!-- MARKER --> in README.md.
readme_block() {
  awk -v marker="<!-- $1 -->" '$0 == marker { getline; found = 1; next } found && /^```/ { exit } found' "$src/README.md"
}
project=$work/project
mkdir -p "$project/perf" "$project/.github/workflows" "$project/.github/actions/perfduel" "$project/.gitlab"
cp -R "$src/examples/sort_gate/src" "$src/examples/sort_gate/include" "$project/"
mkdir -p "$project/bench"
cp "$src/examples/sort_gate/bench/bench_sort.cpp" "$project/bench/"
{
  cat <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(quick_start LANGUAGES CXX)
set(CMAKE_CXX_STANDARD 20)
add_library(sortlib src/sort.cpp)
target_include_directories(sortlib PUBLIC include)
add_executable(bench_sort bench/bench_sort.cpp)
target_link_libraries(bench_sort PRIVATE sortlib)
CMAKE
  readme_block quick-start-cmake
} >"$project/CMakeLists.txt"
readme_block quick-start-config >"$project/perf/sort.yaml"
readme_block quick-start-workflow >"$project/.github/workflows/perf.yml"
cp "$templates/gate/action.yml" "$project/.github/actions/perfduel/action.yml"
cp "$templates/gitlab-perfduel.yml" "$project/.gitlab/perfduel.yml"
cp "$templates/gitlab-gate.yml" "$project/.gitlab-ci.yml"
cp "$templates/github-gate.yml" "$project/.github/workflows/gate.yml"
for file in CMakeLists.txt perf/sort.yaml .github/workflows/perf.yml; do
  grep -q . "$project/$file" || { echo "roots_quick_start.sh: README.md has no block for $file"; exit 2; }
done
grep -q '^ *add_perf_gate(NAME sort_speed TARGET bench_sort .*CONFIG perf/sort.yaml)$' "$project/CMakeLists.txt" ||
  { echo "roots_quick_start.sh: the README's CMake lines no longer gate bench_sort: $(cat "$project/CMakeLists.txt")"; exit 2; }
# The short .gitlab-ci.yml's image (debian:bookworm) has none of the tools the job finds here:
# its apt-get list must name each (make too: cmake only recommends it, and the list is installed
# with --no-install-recommends).
packages=$(sed -n 's/^ *PERFDUEL_APT_PACKAGES: *\([^#]*\).*/\1/p' "$project/.gitlab-ci.yml")
for tool in $PERFDUEL_TEST_TOOLS; do
  [[ " $packages " == *" $tool "* ]] || fail "gitlab-gate.yml: PERFDUEL_APT_PACKAGES ($packages) installs no $tool"
done
echo "the README's CMake lines:"
readme_block quick-start-cmake | sed 's/^/  /'

cd "$project" || exit 2
# shellcheck source=../templates/pull_request_history.sh
. "$src/tests/templates/pull_request_history.sh"
pull_request_history roots_quick_start.sh || exit 2   # c_main, c_slower, c_same, m_slower, m_same
# release: a branch from main with a commit of its own; fix: a pull request into it (a comment
# reworded: the same programs), m_fix its merge into release.
git_ checkout -q -b release "$c_main"
sed -i 's|^// Ranges up to this size|// Ranges (release) up to this size|' src/sort.cpp
git_ commit -q -am "sort: a comment reworded on the release branch"
c_release=$(git rev-parse HEAD)
git_ checkout -q -b fix
sed -i 's|^// Ranges (release) up to this size|// Ranges (release, fixed) up to this size|' src/sort.cpp
git_ commit -q -am "sort: a comment reworded for the release"
c_fix=$(git rev-parse HEAD)
git_ checkout -q --detach release
git_ merge -q --no-ff -m "Merge fix into release" "$c_fix"
m_fix=$(git rev-parse HEAD)
# undecided: from main, a budget too small to decide and the report in a folder of its own.
git_ checkout -q -b undecided "$c_main"
cat >perf/sort.yaml <<'YAML'
confidence: 0.9999
warmup: 0
min_rounds: 3
max_rounds: 3
identical_programs: measure
metrics:
  wall_time: {threshold: 0.01%, tolerance: 50%}
  max_rss: {gate: false}
YAML
sed -i 's|^\( *add_perf_gate(NAME sort_speed .*\))$|\1 JSON_REPORT custom-reports/sort_speed.json)|' CMakeLists.txt
grep -q 'JSON_REPORT custom-reports/sort_speed.json)$' CMakeLists.txt || { echo "roots_quick_start.sh: no JSON_REPORT added"; exit 2; }
git_ commit -q -am "perf: a budget too small to decide; the report in custom-reports/"
c_undecided=$(git rev-parse HEAD)
git_ checkout -q main
origin=$work/origin.git
git clone -q --bare "$project" "$origin"
git -C "$origin" update-ref refs/pull/7/merge "$m_slower"
git -C "$origin" update-ref refs/pull/8/merge "$m_fix"
export FAKE_ORIGIN=$origin

# --- checks shared by both forms ---------------------------------------------------------------
runner=$work/runner   # every job's workspace: a runner's path is the same from job to job

# keep WORKSPACE KEPT: what the checks read, before the next job takes the runner's directory.
keep() {
  mkdir -p "$2"
  cp -R "$1/build/perfduel/reports" "$1/build/custom-reports" "$2/" 2>/dev/null
  cp "$1"/build/perf-junit-*.xml "$1/build/CMakeCache.txt" "$2/" 2>/dev/null
  ls -d "$1"/.perfduel-cache/perfduel-*/ >"$2/unpacked" 2>/dev/null
}

# report_field RUN FIELD: the report's "verdict" or "measured_rounds" (RUN/reports/sort_speed.json).
report_field() {
  sed -n "s/^ *\"$2\": *\"\{0,1\}\([a-z0-9-]*\)\"\{0,1\},\{0,1\}\$/\1/p" "$work/$1/reports/sort_speed.json" 2>/dev/null | head -1
}

# check_baseline RUN EVENT COMMIT REF: the job's line that names the baseline, and the gate's own
# (its baseline fixture's output, in the JUnit file): the gate compared with what the job chose.
check_baseline() {
  grep -q "^perfduel: $2: the baseline is $3 (the merge-base of HEAD and $4)$" "$work/$1.log" ||
    fail "$1: the baseline is not $3 (the merge-base of HEAD and $4): $(grep -m1 'the baseline is' "$work/$1.log")"
  grep -q "perfduel: merge-base of HEAD and $4 is ${3:0:7}" "$work/$1"/perf-junit-*.xml 2>/dev/null ||
    fail "$1: the gate's baseline is not ${3:0:7}: $(grep -h -m1 -o 'perfduel: merge-base of HEAD[^;]*' "$work/$1"/perf-junit-*.xml 2>/dev/null)"
}

# check_regression RUN RC: the job failed on perf.sort_speed, a regression, and says so.
check_regression() {
  [ "$2" = 1 ] || fail "$1: the job exited $2, expected 1 (a regression)"
  grep -Eq 'perf\.sort_speed .*\*\*\*Failed' "$work/$1.log" || fail "$1: ctest did not fail perf.sort_speed"
  grep -q '^verdict: REGRESSION ' "$work/$1.log" || fail "$1: the output names no regression: $(grep -m2 '^verdict' "$work/$1.log")"
  [ "$(report_field "$1" verdict)" = regression ] || fail "$1: the report's verdict is \"$(report_field "$1" verdict)\""
}

# check_pass RUN RC: the job passed, perf.sort_speed no change after 0 rounds (the same programs).
check_pass() {
  [ "$2" = 0 ] || { fail "$1: the job exited $2, expected 0"; tail -30 "$work/$1.log"; }
  [ "$(report_field "$1" verdict)/$(report_field "$1" measured_rounds)" = no-change/0 ] ||
    fail "$1: perf.sort_speed is $(report_field "$1" verdict) after $(report_field "$1" measured_rounds) rounds, expected no-change after 0"
}

# check_build RUN: perfduel the archive's, the project built with make and no compiler cache,
# which the job says.
check_build() {
  local log=$work/$1.log cache=$work/$1/CMakeCache.txt
  grep -q "^PerfDuel_DIR:PATH=$runner/workspace/.perfduel-cache/$name/lib/cmake/PerfDuel$" "$cache" 2>/dev/null ||
    fail "$1: the project did not find the archive's CMake package: $(grep '^PerfDuel_DIR' "$cache" 2>/dev/null)"
  grep -q "^perfduel: no ninja: CMake's default generator$" "$log" || fail "$1: the job does not say it has no ninja"
  grep -q '^perfduel: no ccache: no compiler cache' "$log" || fail "$1: the job does not say it has no ccache"
  grep -q '^CMAKE_GENERATOR:INTERNAL=Unix Makefiles$' "$cache" 2>/dev/null ||
    fail "$1: the generator is not CMake's default: $(grep '^CMAKE_GENERATOR:' "$cache" 2>/dev/null)"
  grep -q '^CMAKE_CXX_COMPILER_LAUNCHER' "$cache" && fail "$1: a compiler launcher is set: $(grep '^CMAKE_CXX_COMPILER_LAUNCHER' "$cache")"
}

# check_downloaded RUN: the archive and SHA256SUMS downloaded (curl), the archive checked.
check_downloaded() {
  local calls
  calls=$(tail -n +"$((curl_calls + 1))" "$work/curl.log")
  [[ $calls == *"/releases/download/v$version/$name.tar.gz"* && $calls == *"/releases/download/v$version/SHA256SUMS"* ]] ||
    fail "$1: the archive and SHA256SUMS were not downloaded: $calls"
  grep -q "^$name.tar.gz: OK$" "$work/$1.log" "$work/$1-package.log" 2>/dev/null || fail "$1: the archive's SHA-256 was not checked"
}

# check_warm RUN LINE...: nothing downloaded (no curl at all), each LINE in the logs (the caches
# restored), and the baseline's build restored, not rebuilt (its fixture's output in the JUnit file).
check_warm() {
  local run=$1 line
  shift
  [ "$(wc -l <"$work/curl.log")" = "$curl_calls" ] ||
    fail "$run: something was downloaded: $(tail -n +"$((curl_calls + 1))" "$work/curl.log")"
  for line in "$@"; do
    grep -q "$line" "$work/$run.log" "$work/$run-package.log" 2>/dev/null || fail "$run: no line \"$line\""
  done
  grep -q 'cached, not rebuilt' "$work/$run"/perf-junit-*.xml 2>/dev/null ||
    fail "$run: the baseline's build was not taken from the cache: $(grep -m2 -o 'perfduel: [^&]*baseline[^&]*' "$work/$run"/perf-junit-*.xml 2>/dev/null)"
}

# check_undecided RUN: the report in custom-reports/ (not in perfduel/reports/), inconclusive.
check_undecided() {
  local verdict
  verdict=$(sed -n 's/^ *"verdict": *"\([a-z-]*\)".*/\1/p' "$work/$1/custom-reports/sort_speed.json" 2>/dev/null | head -1)
  [ "$verdict" = inconclusive ] || fail "$1: custom-reports/sort_speed.json says \"$verdict\", expected inconclusive"
  [ -e "$work/$1/reports/sort_speed.json" ] && fail "$1: the report went to perfduel/reports/, not to custom-reports/"
}

# check_refused RUN RC MESSAGE: the job failed with MESSAGE before anything was unpacked or run.
check_refused() {
  [ "$2" = 1 ] || fail "$1: the job exited $2, expected 1"
  grep -q "$3" "$work/$1.log" "$work/$1-package.log" 2>/dev/null ||
    fail "$1: the archive was not refused by its checksum: $(grep -h -m3 -i 'sha\|error' "$work/$1.log" "$work/$1-package.log" 2>/dev/null)"
  grep -q "^perfduel $version (commit \|Build files have been written" "$work/$1.log" "$work/$1-package.log" 2>/dev/null &&
    fail "$1: perfduel or the build ran after the archive was refused"
  [ -s "$work/$1/unpacked" ] && fail "$1: the refused archive was unpacked: $(cat "$work/$1/unpacked")"
}

# --- GitHub ---------------------------------------------------------------------------------------
# gh_run RUN WORKFLOW CACHE [ci_local options...]: the job perf of the project's WORKFLOW on a
# fresh runner, CACHE the store of actions/cache; its log RUN.log, what the checks read in RUN/,
# its exit code in rc.
gh_run() {
  local run=$1 workflow=$2 cache=$3 start=$SECONDS
  shift 3
  rm -rf "$runner"
  mkdir -p "$runner/workspace" "$runner/temp" "$work/$run/artifacts"
  curl_calls=$(wc -l <"$work/curl.log")
  FAKE_CACHE=$work/$cache FAKE_ARTIFACTS=$work/$run/artifacts \
    "$ci_local" github "$project/.github/workflows/$workflow" perf \
    --workspace "$runner/workspace" --temp "$runner/temp" \
    --ctx vars.perfduel_repository=releases/perfduel \
    --action actions/checkout="$local_dir/checkout.sh" \
    --action actions/upload-artifact="$local_dir/upload-artifact.sh" \
    --action actions/cache/restore="$local_dir/cache-restore.sh" \
    --action actions/cache/save="$local_dir/cache-save.sh" \
    --action ./.github/actions/perfduel="$project/.github/actions/perfduel" \
    --replace "Install dependencies=$local_dir/install-dependencies.sh" \
    "$@" >"$work/$run.log" 2>&1
  rc=$?
  keep "$runner/workspace" "$work/$run"
  cp "$runner/temp/step_summary.md" "$work/$run/" 2>/dev/null
  times+=("$run $((SECONDS - start)) s")
  say "$run: the job exited $rc in $((SECONDS - start)) s"
  grep '^ci_local: step .*: [0-9.]* s$\|^perfduel: no \|the baseline is' "$work/$run.log" | sed 's/^/  /'
}

times=()
pr=(--event pull_request --ctx github.base_ref=main --ctx github.ref=refs/pull/7/merge)

say "GitHub, the README's workflow: pull request #7 into main, the sort made slower; cold"
gh_run github-pr-slower perf.yml github-cache "${pr[@]}" --ctx github.sha="$m_slower"
check_regression github-pr-slower "$rc"
check_baseline github-pr-slower pull_request "$c_main" origin/main
check_build github-pr-slower
check_downloaded github-pr-slower
grep -q '| sort_speed | \*\*regression\*\* |' "$work/github-pr-slower/step_summary.md" 2>/dev/null ||
  fail "github-pr-slower: the job summary has no regression row for sort_speed"
grep -q 'cached, not rebuilt' "$work/github-pr-slower"/perf-junit-*.xml && fail "github-pr-slower: a baseline cached before the first job"
grep -q "cache-save: saved perfduel-build-1-$c_main " "$work/github-pr-slower.log" ||
  fail "github-pr-slower: the baseline's build was not saved under its commit"

say "GitHub, the README's workflow: pull request #7's second push (the cutoff back); warm"
git -C "$origin" update-ref refs/pull/7/merge "$m_same"
gh_run github-pr-same perf.yml github-cache "${pr[@]}" --ctx github.sha="$m_same"
check_pass github-pr-same "$rc"
check_warm github-pr-same "cache-restore: restored perfduel-Linux-x86_64-$version " \
  "cache-restore: restored perfduel-build-1-$c_main " '^ci_local: step "Download perfduel": skipped$'

# The push: origin's main is the commit pushed (as after a real push), the one before it gone
# from the branch; put back after the push's jobs (GitHub's and GitLab's).
push_main() { git -C "$origin" update-ref refs/heads/main "$1"; }

say "GitHub, the README's workflow: a push to main carrying the regression"
push_main "$c_slower"
push=(--event push --ctx github.ref=refs/heads/main --ctx github.sha="$c_slower" --ctx github.event.before="$c_main")
gh_run github-push perf.yml github-cache "${push[@]}"
check_regression github-push "$rc"
check_baseline github-push push "$c_main" "$c_main"

say "GitHub, docs/ci.md's github-gate.yml: the same push, its two shards"
gh_run github-gate-push-1 gate.yml github-cache "${push[@]}" --matrix shard=1
check_regression github-gate-push-1 "$rc"
check_baseline github-gate-push-1 push "$c_main" "$c_main"
gh_run github-gate-push-2 gate.yml github-cache "${push[@]}" --matrix shard=2
[ "$rc" = 0 ] || fail "github-gate-push-2: the shard with no gate exited $rc, expected 0"
grep -q '^ci_local: step "Build": skipped$' "$work/github-gate-push-2.log" || fail "github-gate-push-2: the shard with no gate built"

push_main "$c_main"

say "GitHub, the README's workflow: pull request #8 into the branch release"
gh_run github-release perf.yml github-cache --event pull_request --ctx github.base_ref=release \
  --ctx github.ref=refs/pull/8/merge --ctx github.sha="$m_fix"
check_pass github-release "$rc"
check_baseline github-release pull_request "$c_release" origin/release

say "GitHub, the README's workflow: a pull request whose gate cannot decide, its report in custom-reports/"
gh_run github-undecided perf.yml github-cache "${pr[@]}" --ctx github.ref=refs/heads/undecided --ctx github.sha="$c_undecided"
[ "$rc" = 0 ] || { fail "github-undecided: the job exited $rc, expected 0 (a warning)"; tail -30 "$work/github-undecided.log"; }
check_undecided github-undecided
grep -q '^::warning title=perf gate undecided::1 perf gate(s) of shard 1/1 decided nothing' "$work/github-undecided.log" ||
  fail "github-undecided: no warning annotation: $(grep -m3 -i 'undecided\|warning' "$work/github-undecided.log")"
grep -q '^\*\*perfduel: 1 gate(s) of shard 1/1 undecided\*\*' "$work/github-undecided/step_summary.md" 2>/dev/null &&
  grep -q '| sort_speed | \*\*inconclusive\*\* |' "$work/github-undecided/step_summary.md" ||
  fail "github-undecided: the job summary has no line and no inconclusive row for sort_speed"

say "GitHub, the README's workflow: an empty cache and a tampered archive"
tampered=$work/tampered-store
cp -R "$store" "$tampered"
(cd "$store" && sha256sum "$name.tar.gz") >"$tampered/SHA256SUMS"
size=$(stat -c %s "$tampered/$name.tar.gz")
printf '\x5a' | dd of="$tampered/$name.tar.gz" bs=1 seek=$((size / 2)) conv=notrunc status=none
cmp -s "$tampered/$name.tar.gz" "$archive" &&
  printf '\x5b' | dd of="$tampered/$name.tar.gz" bs=1 seek=$((size / 2)) conv=notrunc status=none
PERFDUEL_TEST_ARCHIVE_STORE=$tampered gh_run github-tampered perf.yml github-cache-empty "${pr[@]}" --ctx github.sha="$m_same"
check_refused github-tampered "$rc" "^::error title=perfduel archive refused::$name.tar.gz does not match the SHA-256"

# --- GitLab: docs/ci.md's .gitlab-ci.yml with the include ------------------------------------------
# gl_run RUN SHA CACHE [ci_local options...]: the pipeline's perfduel-package (an empty
# workspace), then the first perf job (the one with the gate) in a clone of SHA, CACHE the
# runner's cache directory; the logs RUN-package.log and RUN.log, the perf job's exit code in rc
# (perfduel-package's when it failed).
gl_run() {
  local run=$1 sha=$2 cache=$3 start=$SECONDS
  shift 3
  rm -rf "$runner"
  mkdir -p "$runner/package" "$work/$run"
  curl_calls=$(wc -l <"$work/curl.log")
  local common=(--cache-dir "$work/$cache" --project-var PERFDUEL_REPOSITORY=releases/perfduel
                --var CI_DEFAULT_BRANCH=main --var CI_PROJECT_ID=42 --var CI_PIPELINE_ID=1 --var CI_JOB_TOKEN=job-token
                "$@" --var CI_COMMIT_SHA="$sha")
  "$ci_local" gitlab "$project/.gitlab-ci.yml" perfduel-package --workspace "$runner/package" \
    --artifacts-out "$work/$run/package-artifacts" "${common[@]}" >"$work/$run-package.log" 2>&1
  rc=$?
  ls -d "$runner"/package/.perfduel-cache/perfduel-*/ "$runner"/package/.perfduel-cache/archive/*.tar.gz \
    >"$work/$run/unpacked" 2>/dev/null
  if [ "$rc" = 0 ]; then
    git clone -q "file://$origin" "$runner/workspace" && git -C "$runner/workspace" checkout -q --detach "$sha"
    printf 'bash -e %q\n' "$local_dir/install-dependencies.sh" >"$work/$run/before_script.sh"
    "$ci_local" gitlab "$project/.gitlab-ci.yml" perf --node-index 1 --workspace "$runner/workspace" \
      --replace-before-script "$work/$run/before_script.sh" --artifacts-in "$work/$run/package-artifacts" \
      --artifacts-out "$work/$run/perf-artifacts" "${common[@]}" >"$work/$run.log" 2>&1
    rc=$?
    keep "$runner/workspace" "$work/$run"
  fi
  times+=("$run $((SECONDS - start)) s")
  say "$run: exited $rc in $((SECONDS - start)) s"
  grep -h '^ci_local: cache\|^perfduel: \|^downloaded the perfduel' "$work/$run-package.log" "$work/$run.log" 2>/dev/null |
    sed 's/^/  /'
}

mr=(--var CI_PIPELINE_SOURCE=merge_request_event --var CI_MERGE_REQUEST_IID=7
    --var CI_MERGE_REQUEST_TARGET_BRANCH_NAME=main --var CI_MERGE_REQUEST_SOURCE_BRANCH_NAME=slower
    --var CI_COMMIT_REF_NAME=slower --var CI_COMMIT_BEFORE_SHA=0000000000000000000000000000000000000000
    --var CI_MERGE_REQUEST_DIFF_BASE_SHA="$c_main")

say "GitLab, the include: merge request !7 into main, the sort made slower; cold"
gl_run gitlab-pr-slower "$c_slower" gitlab-cache "${mr[@]}"
check_regression gitlab-pr-slower "$rc"
check_baseline gitlab-pr-slower merge_request_event "$c_main" origin/main
check_build gitlab-pr-slower
check_downloaded gitlab-pr-slower
grep -q '^sort_speed  *regression ' "$work/gitlab-pr-slower.log" || fail "gitlab-pr-slower: the job's table has no regression row"

say "GitLab, the include: merge request !7's second push (the cutoff back); warm"
gl_run gitlab-pr-same "$c_same" gitlab-cache "${mr[@]}"
check_pass gitlab-pr-same "$rc"
check_warm gitlab-pr-same "^perfduel $version: the cached archive\|^perfduel v$version: the cached archive" \
  "^ci_local: cache perfduel-build-perf-1-2-slower: restored"

say "GitLab, the include: a push to main carrying the regression"
push_main "$c_slower"
gl_run gitlab-push "$c_slower" gitlab-cache --var CI_PIPELINE_SOURCE=push --var CI_COMMIT_BRANCH=main \
  --var CI_COMMIT_REF_NAME=main --var CI_COMMIT_BEFORE_SHA="$c_main"
check_regression gitlab-push "$rc"
check_baseline gitlab-push push "$c_main" "$c_main"
push_main "$c_main"

say "GitLab, the include: merge request !8 into the branch release"
gl_run gitlab-release "$c_fix" gitlab-cache "${mr[@]}" --var CI_MERGE_REQUEST_IID=8 \
  --var CI_MERGE_REQUEST_TARGET_BRANCH_NAME=release --var CI_MERGE_REQUEST_SOURCE_BRANCH_NAME=fix \
  --var CI_COMMIT_REF_NAME=fix --var CI_MERGE_REQUEST_DIFF_BASE_SHA="$c_release"
check_pass gitlab-release "$rc"
check_baseline gitlab-release merge_request_event "$c_release" origin/release

say "GitLab, the include: a merge request whose gate cannot decide, its report in custom-reports/"
gl_run gitlab-undecided "$c_undecided" gitlab-cache "${mr[@]}" --var CI_MERGE_REQUEST_IID=9 \
  --var CI_MERGE_REQUEST_SOURCE_BRANCH_NAME=undecided --var CI_COMMIT_REF_NAME=undecided
[ "$rc" = 2 ] || { fail "gitlab-undecided: the job exited $rc, expected 2 (passed with warnings)"; tail -30 "$work/gitlab-undecided.log"; }
grep -q 'passed with warnings (exit code 77)' "$work/gitlab-undecided.log" || fail "gitlab-undecided: the job did not pass with warnings"
grep -q '^perfduel: warning: 1 gate(s) of this job decided nothing' "$work/gitlab-undecided.log" ||
  fail "gitlab-undecided: the job does not say a gate decided nothing"
check_undecided gitlab-undecided

say "GitLab, the include: an empty cache and a tampered archive"
PERFDUEL_TEST_ARCHIVE_STORE=$tampered gl_run gitlab-tampered "$c_slower" gitlab-cache-empty "${mr[@]}"
check_refused gitlab-tampered "$rc" "^perfduel: error: $name.tar.gz does not match the SHA-256"

say "Times (each job on a fresh runner, 2 CPUs, no ninja, no ccache): ${times[*]/%/;}"
if [ "$failures" -gt 0 ]; then
  echo "roots_quick_start.sh: $failures checks failed; logs in $work"
  exit 1
fi
echo "roots_quick_start.sh: all checks passed"
