#!/usr/bin/env bash
# The CI templates' steps in the Debian 13 root, as its user `builder` (no root, no sudo): run
# there by tests/release/roots_test.sh, which copies in what this needs.
#
#   roots_ci.sh SOURCE_DIR CI_LOCAL ARCHIVE_STORE WORK_DIR
#
# SOURCE_DIR holds the project's CMakeLists.txt, templates/, tests/templates/local/ and
# examples/sort_gate; CI_LOCAL is tests/templates/ci_local.cpp built static (the root has no
# yaml-cpp 0.7); ARCHIVE_STORE the release archive, perfduel-<version>-linux-x86_64.tar.gz.
#
# ci_local runs the jobs as run_templates.sh does (the templates' own shell steps, read from the
# YAML), with the same local stand-ins: the download of the release archive serves the archive
# in ARCHIVE_STORE (local/download-perfduel-archive.sh, local/gitlab-perfduel-archive.sh), the
# caches are directories kept between the runs, the checkout a clone of a local origin, and
# "install the dependencies" checks that the root has them (cmake, g++, git, ninja, ccache,
# valgrind; nothing is installed, there is no sudo).
#
#   GitHub   templates/github-gate.yml (the composite action templates/gate, where its
#            `uses: ./.github/actions/perfduel` finds the copy), the shard that runs
#            perf.sort_instructions, pull request #7:
#   GitLab   templates/gitlab-gate.yml with the include file templates/gitlab-perfduel.yml (its
#            `include: local: .gitlab/perfduel.yml`):
#            perfduel-package, then the parallel perf job with perf.sort_instructions, merge
#            request !7:
#     cold   empty caches, first push (the insertion-sort cutoff raised to 1024): the archive
#            downloaded and unpacked, `perfduel --version` from it, the example configured with
#            the archive's CMake package; the gate FAILS (perf.sort_instructions: regression);
#     warm   what the cold run saved, second push (the cutoff back, a comment reworded): no
#            download (the archive from the cache), the same CMake package; every gate of the
#            shard passes after 0 rounds (identical programs), the baseline's build restored.
#   Neither run compiles any of perfduel.
#
# Not a matter of timing (tests/README.md): the FAIL is counted instructions (Valgrind, +630 %
# on every run); the pass needs no measurement at all (the two sides are the same program).
set -uo pipefail
src=$(cd "$1" && pwd) ci_local=$2 store=$3 work=$4
local_dir=$src/tests/templates/local
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
say() { printf '\n==> %s\n' "$*"; }

rm -rf "$work"
mkdir -p "$work/home"
work=$(cd "$work" && pwd)
export HOME=$work/home   # the action's `git config --global` writes here
archive=$(ls "$store"/perfduel-*-linux-x86_64.tar.gz) || { echo "roots_ci.sh: no archive in $store"; exit 2; }
name=$(basename "$archive" .tar.gz)
version=${name#perfduel-}
version=${version%-linux-x86_64}
export PERFDUEL_TEST_ARCHIVE_STORE=$store         # what the stand-in download serves
export PERFDUEL_TEST_TOOLS="git cmake ninja g++ ccache valgrind"   # local/install-dependencies.sh
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-2}
echo "as $(id -un) (uid $(id -u)) on $(. /etc/os-release && echo "$PRETTY_NAME"), $(getconf GNU_LIBC_VERSION)"

# --- the example project as a repository: main, and pull request #7's two pushes --------------
project=$work/project
cp -R "$src/examples/sort_gate" "$project"
rm -rf "$project/build"
cd "$project" || exit 2
# shellcheck source=../templates/pull_request_history.sh
. "$src/tests/templates/pull_request_history.sh"
pull_request_history roots_ci.sh || exit 2
origin=$work/origin.git
git clone -q --bare "$project" "$origin"
export FAKE_ORIGIN=$origin

# The shard of 2 that runs perf.sort_instructions (its FAIL is the counted one), as
# `perfduel shard` splits the gates CTest lists.
mkdir -p "$work/listing-perfduel"
tar -xzf "$archive" -C "$work/listing-perfduel"
listing_perfduel=$work/listing-perfduel/$name/bin/perfduel
cmake -S "$project" -B "$work/listing" -G Ninja -DCMAKE_PREFIX_PATH="$work/listing-perfduel/$name" \
  >"$work/listing.log" 2>&1 || { cat "$work/listing.log"; exit 2; }
gates=$(ctest --test-dir "$work/listing" -N -L perf | sed -n 's/^ *Test *#[0-9]*: \(perf\.[a-z_]*\)$/\1/p' | tr '\n' ' ')
shard=""
for k in 1 2; do
  regex=$(ctest --test-dir "$work/listing" -N -L perf --show-only=json-v1 | "$listing_perfduel" shard "$k/2")
  printf 'perf.sort_instructions\n' | grep -Eqx -- "$regex" && shard=$k && shard_regex=$regex
done
[ -n "$shard" ] || { echo "roots_ci.sh: no shard of 2 runs perf.sort_instructions (gates: $gates)"; exit 2; }
shard_gates=$(for gate in $gates; do printf '%s\n' "$gate" | grep -Eqx -- "$shard_regex" && printf '%s ' "${gate#perf.}"; done)
echo "gates: $gates; shard $shard/2 runs: $shard_gates"

# --- checks shared by both forms ---------------------------------------------------------------
# check_common FORM RUN LOG KEPT WORKSPACE: perfduel from the archive, never built.
check_common() {
  local form=$1 run=$2 log=$3 kept=$4 workspace=$5
  grep -q "^PerfDuel_DIR:PATH=$workspace/.perfduel-cache/$name/lib/cmake/PerfDuel$" "$kept/CMakeCache.txt" 2>/dev/null ||
    fail "$form, $run: the project did not find the archive's CMake package: $(grep '^PerfDuel_DIR' "$kept/CMakeCache.txt" 2>/dev/null)"
  grep -q 'packaged the perfduel under test\|perfduel_core' "$log" && fail "$form, $run: perfduel was built: $(grep -m2 'perfduel_core\|packaged' "$log")"
  [ -s "$kept/perfduel-objects" ] && fail "$form, $run: perfduel source was compiled: $(head -3 "$kept/perfduel-objects")"
  echo "$form, $run: perfduel $(sed -n 's/^PerfDuel_DIR:PATH=//p' "$kept/CMakeCache.txt" 2>/dev/null)"
}

# check_verdict FORM RUN RC KEPT: cold, the gate FAILS on counted instructions; warm, every gate of
# the shard passes after 0 rounds.
check_verdict() {
  local form=$1 run=$2 rc=$3 kept=$4 gate report verdict rounds
  for gate in $shard_gates; do
    report=$kept/reports/$gate.json
    verdict=$(sed -n 's/^ *"verdict": *"\([a-z-]*\)".*/\1/p' "$report" 2>/dev/null | head -1)
    rounds=$(sed -n 's/^ *"measured_rounds": *\([0-9]*\).*/\1/p' "$report" 2>/dev/null | head -1)
    echo "$form, $run: perf.$gate ${verdict:-no report} after ${rounds:-?} rounds"
    case "$run,$gate" in
      cold,sort_instructions) [ "$verdict" = regression ] || fail "$form, cold: perf.sort_instructions is \"$verdict\", expected regression" ;;
      warm,*) [ "$verdict" = no-change ] && [ "$rounds" = 0 ] ||
                fail "$form, warm: perf.$gate is \"$verdict\" after $rounds rounds, expected no-change after 0" ;;
    esac
  done
  case "$run" in
    cold) [ "$rc" = 1 ] || fail "$form, cold: the job exited $rc, expected 1 (the gate failed)" ;;
    warm) [ "$rc" = 0 ] || fail "$form, warm: the job exited $rc, expected 0 (the gate passed)" ;;
  esac
}

# keep WORKSPACE KEPT: what the checks read, before the next run takes the runner's directory.
keep() {
  mkdir -p "$2/reports"
  cp "$1/build/CMakeCache.txt" "$2/" 2>/dev/null
  cp "$1"/build/perfduel/reports/*.json "$2/reports/" 2>/dev/null
  find "$1" -name '*.o' -path '*perfduel_core*' >"$2/perfduel-objects"
}

times=()

# --- GitHub: templates/github-gate.yml, the composite action -----------------------------------
action_version=$(sed -n 's|^    default: v\([0-9][0-9.]*\)$|\1|p' "$src/templates/gate/action.yml")
[ "$action_version" = "$version" ] ||
  fail "github: the action installs perfduel \"$action_version\", the archive is $version"
# gh_run RUN SHA: shard $shard of the pull request's perf job, on a fresh runner (the same
# workspace path, nothing kept but the cache store); its exit code in rc.
gh_run() {
  local run=$1 sha=$2 runner=$work/runner start=$SECONDS
  local kept=$work/github-$run
  rm -rf "$runner"
  mkdir -p "$runner/workspace" "$runner/temp" "$kept/artifacts"
  git -C "$origin" update-ref refs/pull/7/merge "$sha"
  FAKE_CACHE=$work/github-cache FAKE_ARTIFACTS=$kept/artifacts \
    "$ci_local" github "$src/templates/github-gate.yml" perf --matrix shard="$shard" \
    --event pull_request --ctx github.ref=refs/pull/7/merge --ctx github.base_ref=main \
    --ctx github.head_ref=slower --ctx github.event.pull_request.number=7 --ctx github.sha="$sha" \
    --ctx vars.perfduel_repository=releases/perfduel \
    --workspace "$runner/workspace" --temp "$runner/temp" \
    --action actions/checkout="$local_dir/checkout.sh" \
    --action actions/upload-artifact="$local_dir/upload-artifact.sh" \
    --action actions/cache/restore="$local_dir/cache-restore.sh" \
    --action actions/cache/save="$local_dir/cache-save.sh" \
    --action ./.github/actions/perfduel="$src/templates/gate" \
    --replace "Install dependencies=$local_dir/install-dependencies.sh" \
    --replace "Download perfduel=$local_dir/download-perfduel-archive.sh" \
    >"$work/github-$run.log" 2>&1
  rc=$?
  keep "$runner/workspace" "$kept"
  times+=("github $run: $((SECONDS - start)) s")
  say "github, $run: the job exited $rc in $((SECONDS - start)) s"
  grep '^ci_local: step .*: [0-9.]* s$' "$work/github-$run.log" | sed 's/^ci_local: /  /'
}

say "GitHub: the composite action, pull request #7's first push (cutoff 1024), cold"
gh_run cold "$m_slower"
log=$work/github-cold.log
grep -q "cache-restore: no cache for perfduel-Linux-x86_64-$version$" "$log" ||
  fail "github, cold: no empty cache under perfduel-Linux-x86_64-$version (the key: the OS, the architecture, the version)"
grep -q "downloaded the perfduel under test: $name.tar.gz" "$log" || fail "github, cold: the archive was not downloaded"
grep -q "^perfduel $version (commit " "$log" || fail "github, cold: no \`perfduel --version\` of the unpacked archive"
grep -q "cache-save: saved perfduel-Linux-x86_64-$version " "$log" ||
  fail "github, cold: perfduel was not saved to the cache under perfduel-Linux-x86_64-$version"
grep -E "perf\.sort_instructions .*\*\*\*Failed" "$log" >/dev/null || fail "github, cold: ctest did not fail perf.sort_instructions"
check_common github cold "$log" "$work/github-cold" "$work/runner/workspace"
check_verdict github cold "$rc" "$work/github-cold"

say "GitHub: the composite action, the second push (cutoff 16, a comment reworded), warm"
gh_run warm "$m_same"
log=$work/github-warm.log
grep -q "cache-restore: restored perfduel-Linux-x86_64-$version " "$log" || fail "github, warm: perfduel was not restored from the cache"
grep -q '^ci_local: step "Download perfduel": skipped$' "$log" || fail "github, warm: the download step was not skipped"
grep -q 'downloaded the perfduel under test' "$log" && fail "github, warm: the archive was downloaded again"
grep -q "cache-restore: restored perfduel-build-$shard-$c_main " "$log" || fail "github, warm: the baseline's build was not restored"
grep -q '100% tests passed' "$log" || fail "github, warm: ctest -L perf did not pass: $(grep -m3 'tests passed\|Failed' "$log")"
check_common github warm "$log" "$work/github-warm" "$work/runner/workspace"
check_verdict github warm "$rc" "$work/github-warm"

# --- GitLab: templates/gitlab-gate.yml with the include file ------------------------------------
short=$src/templates/gitlab-gate.yml
url=$(sed -n 's/^  - local: \(.*perfduel.yml\)$/\1/p' "$short")  # .gitlab/perfduel.yml
[ -n "$url" ] || { fail "gitlab: gitlab-gate.yml includes no .gitlab/perfduel.yml"; }
include=(--include "$url=$src/templates/gitlab-perfduel.yml")
mr=(--var CI_PIPELINE_SOURCE=merge_request_event --var CI_MERGE_REQUEST_IID=7
    --var CI_MERGE_REQUEST_TARGET_BRANCH_NAME=main --var CI_MERGE_REQUEST_SOURCE_BRANCH_NAME=slower
    --var CI_COMMIT_REF_NAME=slower --var CI_COMMIT_BEFORE_SHA=0000000000000000000000000000000000000000
    --var CI_MERGE_REQUEST_DIFF_BASE_SHA="$c_main" --var CI_DEFAULT_BRANCH=main --var CI_PROJECT_ID=42
    --var CI_PIPELINE_ID=1 --var CI_JOB_TOKEN=job-token)
# gl_run RUN SHA: the merge request's pipeline on a fresh runner (its cache directory kept):
# perfduel-package (GIT_STRATEGY none: an empty workspace), then the perf job of the parallel
# index $shard in a clone of the commit; the perf job's exit code in rc.
gl_run() {
  local run=$1 sha=$2 runner=$work/runner start=$SECONDS package_rc
  local kept=$work/gitlab-$run
  rm -rf "$runner"
  mkdir -p "$runner/package" "$kept"
  "$ci_local" gitlab "$short" perfduel-package --workspace "$runner/package" --cache-dir "$work/gitlab-cache" \
    "${include[@]}" --replace-script "$local_dir/gitlab-perfduel-archive.sh" \
    --artifacts-out "$kept/package-artifacts" "${mr[@]}" --var CI_COMMIT_SHA="$sha" >"$work/gitlab-$run-package.log" 2>&1
  package_rc=$?
  [ "$package_rc" = 0 ] || { fail "gitlab, $run: perfduel-package exited $package_rc"; tail -20 "$work/gitlab-$run-package.log"; }
  git clone -q "file://$origin" "$runner/workspace" && git -C "$runner/workspace" checkout -q --detach "$sha"
  printf 'bash -e %q\n' "$local_dir/install-dependencies.sh" >"$kept/before_script.sh"
  "$ci_local" gitlab "$short" perf --node-index "$shard" --workspace "$runner/workspace" \
    --cache-dir "$work/gitlab-cache" "${include[@]}" --replace-before-script "$kept/before_script.sh" \
    --artifacts-in "$kept/package-artifacts" --artifacts-out "$kept/perf-artifacts" \
    "${mr[@]}" --var CI_COMMIT_SHA="$sha" >"$work/gitlab-$run.log" 2>&1
  rc=$?
  keep "$runner/workspace" "$kept"
  times+=("gitlab $run: $((SECONDS - start)) s")
  say "gitlab, $run: perfduel-package exited $package_rc, perf $rc, in $((SECONDS - start)) s"
  grep -h '^ci_local: cache\|^perfduel: the cached archive\|^downloaded the perfduel' \
    "$work/gitlab-$run-package.log" "$work/gitlab-$run.log" | sed 's/^/  /'
}

say "GitLab: the include file, merge request !7's first push (cutoff 1024), cold"
gl_run cold "$c_slower"
log=$work/gitlab-cold.log
grep -q "^ci_local: cache perfduel-archive-linux-x86_64-v$version: none yet" "$work/gitlab-cold-package.log" ||
  fail "gitlab, cold: perfduel-package has no empty cache under perfduel-archive-linux-x86_64-v$version"
grep -q "downloaded the perfduel under test: $name.tar.gz" "$work/gitlab-cold-package.log" ||
  fail "gitlab, cold: perfduel-package did not download the archive"
grep -q "^perfduel $version (commit " "$log" || fail "gitlab, cold: no \`perfduel --version\` of the unpacked archive"
grep -E "perf\.sort_instructions .*\*\*\*Failed" "$log" >/dev/null || fail "gitlab, cold: ctest did not fail perf.sort_instructions"
check_common gitlab cold "$log" "$work/gitlab-cold" "$work/runner/workspace"
check_verdict gitlab cold "$rc" "$work/gitlab-cold"

say "GitLab: the include file, the second push (cutoff 16, a comment reworded), warm"
gl_run warm "$c_same"
log=$work/gitlab-warm.log
grep -q "^ci_local: cache perfduel-archive-linux-x86_64-v$version: restored" "$work/gitlab-warm-package.log" ||
  fail "gitlab, warm: perfduel-package's cache was not restored"
grep -q "^perfduel: the cached archive $name.tar.gz" "$work/gitlab-warm-package.log" ||
  fail "gitlab, warm: perfduel-package did not take the cached archive"
grep -q 'downloaded the perfduel under test' "$work/gitlab-warm-package.log" && fail "gitlab, warm: the archive was downloaded again"
grep -q "^perfduel $version (commit " "$log" || fail "gitlab, warm: no \`perfduel --version\` of the unpacked archive"
grep -q "^ci_local: cache perfduel-build-.*: restored" "$log" || fail "gitlab, warm: the baseline's build was not restored"
grep -q '100% tests passed' "$log" || fail "gitlab, warm: ctest -L perf did not pass: $(grep -m3 'tests passed\|Failed' "$log")"
check_common gitlab warm "$log" "$work/gitlab-warm" "$work/runner/workspace"
check_verdict gitlab warm "$rc" "$work/gitlab-warm"

say "Times (each job on a fresh runner, 2 CPUs): ${times[*]/%/;}"
if [ "$failures" -gt 0 ]; then
  echo "roots_ci.sh: $failures checks failed; logs in $work"
  exit 1
fi
echo "roots_ci.sh: all checks passed"
