#!/usr/bin/env bash
# Runs a shipped CI template, job by job, the way its CI system would, on the example project:
#
#   run_templates.sh github|gitlab SOURCE_DIR PERFDUEL_BUILD_DIR CI_LOCAL WORK_DIR
#
# under tests/history/with_postgres.sh (PERFDUEL_TEST_PG_URI names a throw-away PostgreSQL
# database, the shared history). ci_local (ci_local.cpp) reads the template with a YAML parser
# and runs each job's own shell steps; what needs the network is replaced by local equivalents:
# the checkout by a clone of a local origin repository (local/checkout.sh; GitLab: the same,
# done here as the runner does), artifacts by directories (local/*-artifact.sh; GitLab:
# ci_local), caches by a directory of tars per key (local/cache-*.sh; GitLab: ci_local
# --cache-dir), apt-get by this machine's packages, "build perfduel's package" by cpack of the
# perfduel under test (local/build-perfduel-deb.sh) and its install by dpkg-deb -x into a
# scratch root (local/install-perfduel-deb.sh), the REST API by a stub `curl` (local/fake_curl.sh).
#
# The cases, one pipeline each, in the order a project lives them:
#   pr-slower   a pull request (merge request) whose commit raises the sort's insertion-sort
#               cutoff from 16 to 1024: the shard with perf.sort_instructions fails, the summary
#               job fails and names it, and one comment is added with it under "Regressed";
#   pr-same     a second push to that pull request puts the cutoff back (and rewords a
#               comment): every job passes, and the same comment is updated, not a second added;
#   main        a push to main (a comment reworded), dueled against the commit it replaced:
#               passes, and every gate's report is recorded in the PostgreSQL history once;
#   action /    (after pr-same, the same push) the short workflow: GitHub's templates/github-gate.yml
#   include     with the composite action templates/gate, GitLab's templates/gitlab-gate.yml with
#               the include file templates/gitlab-perfduel.yml: both shards pass, perfduel taken
#               from its release archive (cpack -G TGZ of the build under test stands in for the
#               download: local/download-perfduel-archive.sh, local/gitlab-perfduel-archive.sh);
#               the README's quick-start workflow, as written, refuses a tampered archive and
#               says how to set a missing PERFDUEL_REPOSITORY;
#   undecided   (after pr-same) a pull request whose perf/sort.yaml cannot decide within its
#               budget (undecided_branch, below): the action's job warns (an annotation, a line
#               in the job summary) and passes, and fails with fail-on-inconclusive: true; the
#               include's job ends "passed with warnings" (exit 77, allow_failure); both on the
#               caches the push to main left (warm: no download, compiler-cache hits);
#   cache-*     (after main) the pull request's shard 1 cold, warm and after main moved, caches
#               kept between the runs (cold_warm, below);
#   nightly     the schedule: only the trend job runs, over that history.
# In each of the first three, every gate runs in exactly one shard (its JUnit testcase and its
# report in one shard's artifact, not in two, not in none), and every shard runs a gate.
#
# Not a matter of luck (tests/README.md): the verdicts asserted are perf.sort_instructions',
# which counts instructions with Valgrind (exact: +630 % for the slower sort, +0.00 % for an
# unchanged binary). The other gates run on the example's benchmarks with configurations made
# for this test (below) to settle in a few rounds: wall and CPU time gated with a 1000 %
# threshold (the most a configuration allows) and a 100 % tolerance. An unchanged benchmark is
# called a regression only if its interval lies wholly above +100 %: the mean log-ratio of its
# rounds above ln 2 = 0.69, and above it by the interval's half-width. Over the 6 rounds or more
# a duel takes, with a log-ratio noise of 10 % a round (30 % on a starved machine), the mean
# alone is 17 (5.6) standard errors short of that, before the half-width is added: far below
# 1e-4 a run, at the 99 % confidence the configurations use (one stalled round moves the mean
# by ln 10 / 6 = 0.38 and widens the interval).
# They may be no-change or, on a starved machine, inconclusive (a pass); the test asserts only
# that they never fail a pipeline that changes nothing.
set -uo pipefail

kind=$1 source_dir=$(cd "$2" && pwd) build_dir=$(cd "$3" && pwd) ci_local=$4 work=$5
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
local_dir=$here/local
case "$kind" in
  github) template=$source_dir/templates/github-actions.yml ;;
  gitlab) template=$source_dir/templates/gitlab-ci.yml ;;
  *) echo "usage: run_templates.sh github|gitlab SOURCE_DIR BUILD_DIR CI_LOCAL WORK_DIR" >&2; exit 2 ;;
esac
# TEMPLATE=FILE runs another version of the template: how to see that a broken one fails here.
template=${TEMPLATE:-$template}
[ -n "${PERFDUEL_TEST_PG_URI:-}" ] || { echo "run_templates.sh: run it under tests/history/with_postgres.sh" >&2; exit 2; }
for tool in git cmake ninja jq valgrind ccache dpkg-deb; do
  command -v "$tool" >/dev/null || { echo "SKIP: $tool is not installed"; exit 77; }
done

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# shellcheck source=check_pages.sh
. "$here/check_pages.sh"   # check_run_page, check_dashboard: the HTML pages the jobs write
say() { printf '\n==> %s\n' "$*"; }

rm -rf "$work"
mkdir -p "$work/home" "$work/bin" "$work/api"
work=$(cd "$work" && pwd)
export HOME=$work/home   # the templates' `git config --global` writes here, not to yours
export PERFDUEL_TEST_BUILD=$build_dir
export PERFDUEL_TEST_DEB_STORE=$work/deb-store  # one cpack per test run (local/build-perfduel-deb.sh)
export PERFDUEL_TEST_ARCHIVE_STORE=$work/archive-store  # the release archive's, likewise (local/*-archive.sh)
export FAKE_API=$work/api
: >"$FAKE_API/log"
ln -s "$local_dir/fake_curl.sh" "$work/bin/curl"
export PATH=$work/bin:$PATH
export CMAKE_BUILD_PARALLEL_LEVEL=2
# Every job's compiles of the example go through one compiler cache besides the job's own, as
# an organisation's shared cache would (ccache's remote storage): each pipeline here builds the
# same few sources at a handful of commits, cold in every job otherwise, and those builds were
# most of this test's time. The jobs' own caches (the template's ccache directory, saved and
# restored by key) are unchanged; cold_warm leaves the shared one out, since its runs show what
# the template's caching does from nothing.
export CCACHE_REMOTE_STORAGE="file:$work/shared-ccache"
perfduel=$build_dir/tools/perfduel/perfduel
token=test-token-$$
releases=releases/perfduel   # the repository variable PERFDUEL_REPOSITORY (fake_curl.sh serves any)

# --- the example project as a repository ------------------------------------------------------
project=$work/project
cp -R "$source_dir/examples/sort_gate" "$project"
rm -rf "$project/build"
cd "$project" || exit 1
# The Catch2 benchmark alone takes 35 s to build, twice per job (candidate and baseline): the
# test keeps the other four gates (two shards of two), which exercise the same paths.
sed -i '1i set(CMAKE_DISABLE_FIND_PACKAGE_Catch2 ON)  # tests/templates: four gates build in seconds' CMakeLists.txt
# Configurations that decide fast on any machine; perf/sort_instructions.yaml stays the example's.
cat >perf/sort.yaml <<'YAML'
confidence: 0.99
warmup: 1
min_rounds: 6
max_seconds: 60
metrics:
  wall_time: {threshold: 1000%, tolerance: 100%}
  user_time: {gate: false}
  max_rss: {gate: false}
YAML
cat >perf/sort_gbench.yaml <<'YAML'
confidence: 0.99
warmup: 1
min_rounds: 6
max_seconds: 60
metrics:
  sort_cpu_time: {google_benchmark: BM_HybridSort/100000, field: cpu_time, threshold: 1000%, tolerance: 100%}
  wall_time: {gate: false}
YAML
cat >perf/sort_suite.yaml <<'YAML'
confidence: 0.99
warmup: 1
min_rounds: 6
max_seconds: 60
metrics:
  wall_time: {gate: false}
  sorts: {google_benchmark: "BM_*", field: cpu_time, threshold: 1000%, tolerance: 100%}
YAML
grep -q 'valgrind: instructions' perf/sort_instructions.yaml ||
  { echo "run_templates.sh: examples/sort_gate/perf/sort_instructions.yaml no longer counts instructions"; exit 1; }
# The pushes below that reword a comment change no program: measured all the same, so that the
# pipelines run their duels and main's push has results to record and trend. A timed gate that
# fails is not explained (explain: off; the default profiles each side once under Valgrind):
# the slower sort fails the timed gates too, and what the test asserts of a failure is the
# counted gate's verdict, not an explanation (tests/cli tests those).
for config in perf/sort.yaml perf/sort_gbench.yaml perf/sort_suite.yaml perf/sort_instructions.yaml; do
  printf 'identical_programs: measure\nexplain: off\n' >>"$config"
done
# shellcheck source=pull_request_history.sh
. "$here/pull_request_history.sh"
pull_request_history run_templates.sh || exit 1
origin=$work/origin.git
git clone -q --bare "$project" "$origin"
git -C "$origin" update-ref refs/pull/7/merge "$m_slower"
export FAKE_ORIGIN=$origin
all_gates=$(cd "$work" && cmake -S "$project" -B "$work/listing" -G Ninja -DPerfDuel_DIR="$build_dir" >/dev/null &&
  ctest --test-dir "$work/listing" -N -L perf --show-only=json-v1 |
  jq -r '.tests[] | select(any(.properties[]?; .name == "FIXTURES_SETUP") | not) | .name' | sort)
gate_count=$(printf '%s\n' "$all_gates" | grep -c .)
echo "gates: $(echo $all_gates)"
[ "$gate_count" -ge 2 ] || { echo "run_templates.sh: the example has $gate_count gates, need 2 or more"; exit 1; }

# push_main: main moves on by a comment-only commit, as after a merge (for the `main` case).
push_main() {
  cd "$project" || exit 1
  git_ checkout -q main
  sed -i 's|^// Ranges up to this size|// Ranges of up to this size|' src/sort.cpp
  git_ commit -q -am "sort: a comment reworded on main"
  c_main_before=$c_main
  c_main=$(git rev-parse HEAD)
  git push -q "$origin" main
  git -C "$origin" update-ref refs/pull/7/merge "$m_same"
}

# moved_branch: a branch on main as push_main left it, one comment reworded (c_moved): a pull
# request whose merge-base is newer than the one the caches hold (for cold_warm's third run).
moved_branch() {
  cd "$project" || exit 1
  git_ checkout -q -b moved main
  sed -i 's|^// Ranges of up to this size|// Ranges of at most this size|' src/sort.cpp
  git_ commit -q -am "sort: a comment reworded on a branch from the new main"
  c_moved=$(git rev-parse HEAD)
  git_ checkout -q main
  git push -q "$origin" moved
}

# release_branch: a branch `release` from c_main with a commit of its own (c_release, a comment
# reworded), not on main: a pull request into it must be compared with it, not with main.
release_branch() {
  cd "$project" || exit 1
  git_ checkout -q -b release "$c_main"
  sed -i 's|^// Ranges up to this size|// Ranges (release) up to this size|' src/sort.cpp
  git_ commit -q -am "sort: a comment reworded on the release branch"
  c_release=$(git rev-parse HEAD)
  git_ checkout -q main
  git push -q "$origin" release
}

# undecided_branch: a branch from c_release (c_undecided) whose perf.sort_speed cannot decide: 3 rounds of
# wall time against a 0.01 % threshold, as tests/cmake's `inconclusive` scenario. Inconclusive
# whatever the machine's load: a verdict needs the 99.99 % interval (2 degrees of freedom: t is
# about 100) narrower than 0.01 %, or wholly outside the ±50 % band, which for two programs that
# differ by a comment needs all three rounds 50 % apart in the same direction and within
# hundredths of a per cent of each other: far below 1e-4 a run. Sets sort_shard to the shard
# K/2 that runs perf.sort_speed.
undecided_branch() {
  cd "$project" || exit 1
  release_branch
  git_ checkout -q -b undecided "$c_release"
  cat >perf/sort.yaml <<'YAML'
confidence: 0.9999
warmup: 0
min_rounds: 3
max_rounds: 3
identical_programs: measure
metrics:
  wall_time: {threshold: 0.01%, tolerance: 50%}
  user_time: {gate: false}
  max_rss: {gate: false}
YAML
  git_ commit -q -am "perf/sort.yaml: a budget too small to decide"
  c_undecided=$(git rev-parse HEAD)
  git_ checkout -q main
  git push -q "$origin" undecided
  local k regex
  sort_shard=""
  for k in 1 2; do
    regex=$(ctest --test-dir "$work/listing" -N -L perf --show-only=json-v1 | "$perfduel" shard "$k/2")
    printf 'perf.sort_speed\n' | grep -Eqx -- "$regex" && sort_shard=$k
  done
  [ -n "$sort_shard" ] || fail "undecided: no shard of 2 runs perf.sort_speed"
}

# tampered_store: a copy of the release store whose archive has one byte changed in its middle
# (the same size), the release's SHA256SUMS unchanged; prints its path.
tampered_store() {
  local tampered=$work/tampered-store archive size
  rm -rf "$tampered"
  cp -R "$PERFDUEL_TEST_ARCHIVE_STORE" "$tampered"
  archive=$(ls "$tampered"/perfduel-*-linux-x86_64.tar.gz)
  size=$(stat -c %s "$archive")
  printf '\x5a' | dd of="$archive" bs=1 seek=$((size / 2)) conv=notrunc status=none
  cmp -s "$archive" "$PERFDUEL_TEST_ARCHIVE_STORE/${archive##*/}" && printf '\x5b' |
    dd of="$archive" bs=1 seek=$((size / 2)) conv=notrunc status=none
  echo "$tampered"
}

# check_shards CASE JUNIT...: every gate ran in exactly one shard, by CTest's JUnit file of each
# shard and by the reports beside it (perfduel/reports/, as both templates' artifacts keep
# them); every shard ran one at least.
check_shards() {
  local case=$1 dir gate count shard_gates
  shift
  for gate in $all_gates; do
    count=$(cat "$@" 2>/dev/null | grep -c "<testcase name=\"$gate\"")
    # shellcheck disable=SC2046
    [ "$count" = 1 ] || fail "$case: $gate ran in $count shards (JUnit), expected exactly 1"
    count=0
    for dir in "${@%/*}"; do
      [ -f "$dir/perfduel/reports/${gate#perf.}.json" ] && count=$((count + 1))
    done
    [ "$count" = 1 ] || fail "$case: the report of $gate is in $count shards' artifacts, expected exactly 1"
  done
  for junit in "$@"; do
    shard_gates=$(grep -o '<testcase name="perf\.[^"]*"' "$junit" 2>/dev/null | grep -vc '\.baseline"')
    [ "${shard_gates:-0}" -ge 1 ] || fail "$case: a shard ran no gate ($junit)"
  done
}

# --- GitHub Actions -------------------------------------------------------------------------------
gh_job() {  # gh_job CASE JOB [ci_local options...]: runs one job, its log in CASE/JOB.log; prints its exit code
  local case=$1 job=$2 tag=$2
  shift 2
  case " $* " in *" --matrix "*) tag=$job-$(printf '%s' "$*" | sed -n 's/.*--matrix [a-z]*=\([^ ]*\).*/\1/p') ;; esac
  local dir=$work/$case/$tag
  mkdir -p "$dir/workspace" "$dir/temp"
  # The caches (actions/cache) of this case's jobs, or the store CACHE names; perfduel's package
  # is unpacked into a scratch root (install-perfduel-deb.sh), its usr/ the PERFDUEL_PREFIX.
  FAKE_ARTIFACTS=$work/$case/artifacts FAKE_CACHE=${CACHE:-$work/$case/cache} \
    "$ci_local" github "$template" "$job" \
    --workspace "$dir/workspace" --temp "$dir/temp" \
    --env PERFDUEL_PREFIX="$dir/root/usr" \
    --secret GITHUB_TOKEN="$token" --secret PERFDUEL_HISTORY="$PERFDUEL_TEST_PG_URI" \
    --action actions/checkout="$local_dir/checkout.sh" \
    --action actions/upload-artifact="$local_dir/upload-artifact.sh" \
    --action actions/download-artifact="$local_dir/download-artifact.sh" \
    --action actions/cache/restore="$local_dir/cache-restore.sh" \
    --action actions/cache/save="$local_dir/cache-save.sh" \
    --replace "Install dependencies=$local_dir/install-dependencies.sh" \
    --replace "Which perfduel=$local_dir/perfduel-commit.sh" \
    --replace "Build the perfduel package=$local_dir/build-perfduel-deb.sh" \
    --replace "Install perfduel=$local_dir/install-perfduel-deb.sh" \
    --ctx vars.perfduel_repository="$releases" \
    "$@" >"$work/$case/$tag.log" 2>&1
  local rc=$?
  rm -rf "$dir/root"
  echo "$rc"
}

gh_pipeline() {  # gh_pipeline CASE [ci_local options...]: perf (every shard), perf-summary, trend
  local case=$1 shard rc failed=false start=$SECONDS
  shift
  mkdir -p "$work/$case/artifacts"
  shards=$("$ci_local" github-matrix "$template" perf | sed 's/^shard=//')
  [ "$(echo $shards)" = "1 2" ] || fail "$case: the perf matrix is \"$(echo $shards)\", expected shards 1 and 2"
  perf_rc=""
  for shard in $shards; do
    rc=$(gh_job "$case" perf --matrix shard="$shard" "$@")
    perf_rc="$perf_rc $rc"
    [ "$rc" = 0 ] || [ "$rc" = 99 ] || failed=true
    [ "$rc" -le 1 ] || [ "$rc" = 99 ] || { fail "$case: perf shard $shard: ci_local exit $rc"; tail -20 "$work/$case/perf-$shard.log"; }
  done
  summary_rc=$(gh_job "$case" perf-summary --needs "$($failed && echo failure || echo success)" "$@")
  trend_rc=$(gh_job "$case" trend "$@")
  say "$case: perf exit codes:$perf_rc; perf-summary $summary_rc; trend $trend_rc ($((SECONDS - start)) s)"
}

# gh_action_case [ci_local options...]: both shards of templates/github-gate.yml, whose one
# step is the composite action templates/gate (the `uses: ./.github/actions/perfduel` of a
# project that copied it), on a push to main that carries the regression (the options): the
# baseline is the commit the push replaced, the shard with perf.sort_instructions fails, the
# other passes; every gate runs in exactly one shard; each shard saves its build cache under the
# commit pushed, which the next pull request's merge-base is. perfduel comes from the release
# archive, downloaded and checked against SHA256SUMS by the action's own step (fake_curl.sh
# serves the release). Then, cheaply (each stops before any build): an archive that does not
# match SHA256SUMS is refused, and without the repository variable the job says how to set it.
gh_action_case() {
  local case=action shard rc
  mkdir -p "$work/$case/artifacts"
  perf_rc=""
  for shard in 1 2; do
    rc=$(template=$source_dir/templates/github-gate.yml CACHE=$work/action-cache gh_job "$case" perf --matrix shard="$shard" \
      --action ./.github/actions/perfduel="$source_dir/templates/gate" "$@")
    perf_rc="$perf_rc $rc"
  done
  say "action: perf exit codes:$perf_rc"
  # The shard with perf.sort_instructions fails (counted: exact); the other's timed gates may
  # fail too, since the cutoff of 1024 really makes the sort slower (about +100 % wall time, at a
  # tolerance of 100 %): 0 or 1, nothing else.
  check_push_regression "$case" "0 1|1 0|1 1"
  for shard in 1 2; do
    grep -q "cache-save: saved perfduel-build-$shard-$c_slower " "$work/$case/perf-$shard.log" ||
      fail "action: shard $shard did not save its build cache under the commit pushed ($c_slower)"
  done
  grep -q 'the composite action in' "$work/$case/perf-1.log" || fail "action: the composite action's steps did not run"
  grep -q 'downloaded the perfduel under test: perfduel-[0-9.]*-linux-x86_64.tar.gz' "$work/$case/perf-1.log" ||
    fail "action: shard 1 did not download perfduel's release archive: $(grep -m3 -i perfduel "$work/$case/perf-1.log")"
  grep -q 'perfduel-[0-9.]*-linux-x86_64.tar.gz: OK' "$work/$case/perf-1.log" ||
    fail "action: shard 1 did not check the archive against SHA256SUMS"
  grep -q 'downloaded the perfduel under test' "$work/$case/perf-2.log" &&
    fail "action: shard 2 downloaded perfduel again, not from the cache"
  grep -q 'packaged the perfduel under test\|perfduel_core' "$work/$case/perf-1.log" "$work/$case/perf-2.log" &&
    fail "action: perfduel was built, not installed from its archive"
  grep -q "PerfDuel_DIR:PATH=.*/.perfduel-cache/perfduel-[0-9.]*-linux-x86_64/lib/cmake/PerfDuel" \
    "$work/$case/perf-2/workspace/build/CMakeCache.txt" || fail "action: the project did not find the archive's CMake package"
  # A failing gate's output: its CTest measurements on one line, the next one CTEST_FULL_OUTPUT.
  awk '/<CTestMeasurement/ { if (tags) bad = 1; tags = 1; next } tags && !/^CTEST_FULL_OUTPUT$/ { bad = 1 } { tags = 0 }
       END { exit !bad }' "$work/$case"/perf-*.log &&
    fail "action: a failing gate's CTest measurements are not one line before CTEST_FULL_OUTPUT"
  grep -q '<CTestMeasurement' "$work/$case"/perf-*.log || fail "action: no failing gate printed its CTest measurements"
  check_shards action $(gh_junits action)

  # The README's quick-start workflow, as written (the block after its marker, taken as .ci/run
  # takes the test command): the two checks below run it, up to where each stops.
  local quick_start=$work/quick-start.yml
  awk '/<!-- quick-start-workflow -->/ { getline; found = 1; next } found && /^```/ { exit } found' \
    "$source_dir/README.md" >"$quick_start"
  grep -q '^      - uses: ./.github/actions/perfduel' "$quick_start" ||
    fail "README.md: the quick-start workflow does not use ./.github/actions/perfduel: $(cat "$quick_start")"
  [ "$("$ci_local" github-matrix "$quick_start" perf)" = "" ] ||
    fail "README.md: the quick-start workflow's job perf has a matrix"

  # A tampered archive (tampered_store): refused by its checksum before anything is unpacked.
  local tampered
  tampered=$(tampered_store)
  rc=$(PERFDUEL_TEST_ARCHIVE_STORE=$tampered template=$quick_start gh_job tampered perf \
    --action ./.github/actions/perfduel="$source_dir/templates/gate" "$@")
  log=$work/tampered/perf.log
  [ "$rc" = 1 ] || fail "tampered: the job exited $rc, expected 1"
  grep -q '^::error title=perfduel archive refused::perfduel-[0-9.]*-linux-x86_64.tar.gz does not match the SHA-256' "$log" ||
    fail "tampered: the archive was not refused by its checksum: $(grep -m3 -i 'sha\|error' "$log")"
  grep -q 'Configuring done\|Build files have been written' "$log" && fail "tampered: the job went on past the refused download"

  # No repository variable: the job stops at once and says how to set it.
  rc=$(template=$quick_start gh_job no-repository perf \
    --action ./.github/actions/perfduel="$source_dir/templates/gate" --ctx vars.perfduel_repository= "$@")
  [ "$rc" = 1 ] && grep -q "^::error title=where are perfduel's releases?::set the repository variable PERFDUEL_REPOSITORY" \
    "$work/no-repository/perf.log" || fail "no-repository: exit $rc, no message naming PERFDUEL_REPOSITORY"
  grep -qF 'pass it as `repository: ${{ vars.PERFDUEL_REPOSITORY }}`;' "$work/no-repository/perf.log" ||
    fail "no-repository: the message does not show the line to add: $(grep -m1 'PERFDUEL_REPOSITORY' "$work/no-repository/perf.log")"
}

# gh_undecided_case [ci_local options...]: the shard of templates/github-gate.yml that runs
# perf.sort_speed, on undecided_branch's commit: the job passes with a warning annotation and a line in
# its job summary; with `fail-on-inconclusive: true` the same job fails.
gh_undecided_case() {
  local case=undecided rc log summary hits short=$work/undecided-gate.yml
  mkdir -p "$work/$case/artifacts"
  for mode in warn fail; do
    if [ "$mode" = fail ]; then
      sed 's|^\(  *\)shard: \(\${{ matrix.shard }}.*\)$|\1shard: \2\n\1fail-on-inconclusive: true\n\1cmake-args: -DPERFDUEL_REPORT_DIR=custom-reports|' \
        "$source_dir/templates/github-gate.yml" >"$short"
      grep -q 'fail-on-inconclusive: true' "$short" || fail "undecided: github-gate.yml has no shard input to add to"
    else
      sed 's|^\(  *\)shard: \(\${{ matrix.shard }}.*\)$|\1shard: \2\n\1cmake-args: -DPERFDUEL_REPORT_DIR=custom-reports|' \
        "$source_dir/templates/github-gate.yml" >"$short"
    fi
    # On the caches the push (gh_action_case) saved: the short form warm.
    rc=$(CACHE=$work/action-cache template=$short gh_job "$case-$mode" perf --matrix shard="$sort_shard" \
      --action ./.github/actions/perfduel="$source_dir/templates/gate" "$@")
    log=$work/$case-$mode/perf-$sort_shard.log
    summary=$work/$case-$mode/perf-$sort_shard/temp/step_summary.md
    say "undecided ($mode): perf shard $sort_shard exited $rc"
    if [ "$mode" = warn ]; then
      grep -q 'downloaded the perfduel under test' "$log" &&
        fail "undecided (warm): perfduel was downloaded again, not taken from the cache the push saved"
      grep -q "cache-restore: restored perfduel-build-$sort_shard-" "$log" ||
        fail "undecided (warm): the build cache the push saved was not restored: $(grep -m2 'cache-restore' "$log")"
      hits=$(sed -n 's/^ *Hits: *\([0-9][0-9]*\) .*/\1/p' "$log" | head -1)
      [ "${hits:-0}" -gt 0 ] || fail "undecided (warm): no compiler-cache hit: $(grep -A8 'Cacheable calls' "$log")"
    fi
    grep -q '^::warning title=perf gate undecided::1 perf gate(s) of shard' "$log" ||
      fail "undecided ($mode): no warning annotation: $(grep -m3 -i 'undecided\|warning' "$log")"
    grep -q '^\*\*perfduel: 1 gate(s) of shard .* undecided\*\*' "$summary" ||
      fail "undecided ($mode): the job summary has no line for the undecided gate"
    grep -q '| sort_speed | \*\*inconclusive\*\* |' "$summary" ||
      fail "undecided ($mode): the job summary's table has no inconclusive row for sort_speed: $(grep '| sort_speed |' "$summary")"
    [ -f "$work/$case-$mode/perf-$sort_shard/workspace/build/custom-reports/sort_speed.json" ] ||
      fail "undecided ($mode): the report is not in the custom folder build/custom-reports"
    grep -q "perfduel: pull_request: the baseline is $c_release " "$log" ||
      fail "undecided ($mode): a pull request into release is not compared with release: $(grep -m1 'the baseline is' "$log")"
    case "$mode" in
      warn) [ "$rc" = 0 ] || { fail "undecided: the job exited $rc, expected 0 (a warning)"; tail -20 "$log"; } ;;
      fail) [ "$rc" = 1 ] || { fail "undecided: with fail-on-inconclusive the job exited $rc, expected 1"; tail -20 "$log"; } ;;
    esac
  done
}

gh_junits() { ls "$work/$1"/artifacts/perf-reports-*/perf-junit-*.xml 2>/dev/null; }

run_github() {
  local pr=(--event pull_request --ctx github.ref=refs/pull/7/merge --ctx github.base_ref=main
            --ctx github.head_ref=slower --ctx github.event.pull_request.number=7)
  say "GitHub: pull request #7, first push: the insertion-sort cutoff raised to 1024"
  gh_pipeline pr-slower "${pr[@]}" --ctx github.sha="$m_slower" --ctx github.event.pull_request.head.sha="$c_slower"
  case " $perf_rc " in *" 1 "*) ;; *) fail "pr-slower: no perf shard failed (exit codes$perf_rc)" ;; esac
  [ "$summary_rc" = 1 ] || fail "pr-slower: perf-summary exited $summary_rc, expected 1 (a regression)"
  grep -q '^sort_instructions *regression *instructions' "$work/pr-slower/perf-summary.log" ||
    fail "pr-slower: the summary does not name sort_instructions as a regression"
  grep -q '| sort_instructions | \*\*regression\*\* | instructions |' "$work/pr-slower/perf-summary/temp/step_summary.md" ||
    fail "pr-slower: the job summary has no regression row for sort_instructions"
  [ "$trend_rc" = 99 ] || fail "pr-slower: the trend job ran on a pull request (exit $trend_rc)"
  check_shards pr-slower $(gh_junits pr-slower)
  check_baseline pr-slower "$c_main"
  api_calls=$(grep -c . "$FAKE_API/log")
  grep -q '^POST /repos/owner/project/issues/7/comments token='"$token"'$' "$FAKE_API/log" ||
    fail "pr-slower: no comment posted with the GITHUB_TOKEN: $(cat "$FAKE_API/log")"
  jq -r '.[0].body' "$FAKE_API/comments.json" >"$work/pr-slower/comment.md"
  check_regression_comment pr-slower "$work/pr-slower/comment.md" "$c_slower"
  check_run_page pr-slower "$work/pr-slower/artifacts/perf-run-page/perf-run.html" sort_instructions

  say "GitHub: pull request #7, second push: the cutoff back to 16"
  git -C "$origin" update-ref refs/pull/7/merge "$m_same"
  gh_pipeline pr-same "${pr[@]}" --ctx github.sha="$m_same" --ctx github.event.pull_request.head.sha="$c_same"
  [ "$(echo $perf_rc)" = "0 0" ] || fail "pr-same: perf shards exited$perf_rc, expected 0 0"
  [ "$summary_rc" = 0 ] || fail "pr-same: perf-summary exited $summary_rc, expected 0"
  check_shards pr-same $(gh_junits pr-same)
  tail -n +"$((api_calls + 1))" "$FAKE_API/log" | grep -q '^PATCH /repos/owner/project/issues/comments/1001 token=' ||
    fail "pr-same: the comment was not updated in place: $(cat "$FAKE_API/log")"
  check_updated_comment pr-same "$c_same"

  say "GitHub: a push to main carrying the regression, by the short workflow of the composite action (templates/gate)"
  gh_action_case --event push --ctx github.ref=refs/heads/main --ctx github.sha="$c_slower" \
    --ctx github.event.before="$c_main"

  say "GitHub: a pull request whose gate cannot decide, by the composite action"
  undecided_branch
  gh_undecided_case "${pr[@]}" --ctx github.base_ref=release --ctx github.ref=refs/heads/undecided --ctx github.head_ref=undecided \
    --ctx github.sha="$c_undecided" --ctx github.event.pull_request.head.sha="$c_undecided"

  say "GitHub: push to main"
  push_main
  api_calls=$(grep -c . "$FAKE_API/log")
  gh_pipeline main --event push --ctx github.ref=refs/heads/main --ctx github.sha="$c_main" \
    --ctx github.event.before="$c_main_before"
  [ "$(echo $perf_rc)" = "0 0" ] || fail "main: perf shards exited$perf_rc, expected 0 0"
  [ "$summary_rc" = 0 ] || fail "main: perf-summary exited $summary_rc, expected 0"
  check_shards main $(gh_junits main)
  check_baseline main "$c_main_before"
  [ "$(grep -c . "$FAKE_API/log")" = "$api_calls" ] || fail "main: a push to main called the API"
  check_recorded main "$work"/main/perf-*.log

  say "GitHub: the pull request's perf job on one runner: cold, warm, and after main moved"
  moved_branch
  moved_args=(--ctx github.sha="$c_moved")
  cold_warm github gh_job "${pr[@]}" --matrix shard=1 --ctx github.sha="$m_same" \
    --ctx github.event.pull_request.head.sha="$c_same"

  say "GitHub: the nightly schedule"
  gh_pipeline nightly --event schedule --ctx github.ref=refs/heads/main --ctx github.sha="$c_main"
  [ "$(echo $perf_rc)" = "99 99" ] || fail "nightly: the perf jobs ran on the schedule ($perf_rc)"
  [ "$summary_rc" = 99 ] || fail "nightly: perf-summary ran on the schedule ($summary_rc)"
  check_trend nightly "$trend_rc" "$work/nightly/trend.log"
  check_dashboard nightly "$work/nightly/artifacts/perf-trend/trend-site"
}

# --- GitLab CI ----------------------------------------------------------------------------------
gl_job() {  # gl_job CASE JOB [ci_local options...]: runs one job in a fresh clone; prints its exit code
  local case=$1 job=$2 tag=$2 sha
  shift 2
  case " $* " in *" --node-index "*) tag=$job-$(printf '%s' "$*" | sed -n 's/.*--node-index \([0-9]*\).*/\1/p') ;; esac
  sha=$(printf '%s' "$*" | sed -n 's/.*CI_COMMIT_SHA=\([0-9a-f]*\).*/\1/p')
  local dir=$work/$case/$tag
  mkdir -p "$dir"
  # The runner's checkout (GIT_STRATEGY clone, GIT_DEPTH 0): the whole repository, this commit.
  git clone -q "file://$origin" "$dir/workspace" && git -C "$dir/workspace" checkout -q --detach "$sha"
  # GL_ARCHIVE=1: the include file's jobs, which take perfduel's release archive, not its package.
  local install_perfduel="bash -e \"$local_dir/install-perfduel-deb.sh\"" package_script=$local_dir/gitlab-perfduel-package.sh
  if [ -n "${GL_ARCHIVE:-}" ]; then
    install_perfduel="" package_script=""
  fi
  cat >"$dir/before_script.sh" <<SCRIPT
bash -e "$local_dir/install-dependencies.sh"
$install_perfduel
SCRIPT
  local replace=(--replace-before-script "$dir/before_script.sh")
  [ "$job" != perfduel-package ] || replace=(${package_script:+--replace-script "$package_script"})
  # The runner's cache (this case's, or the store CACHE names); perfduel-package's artifact, the
  # package, goes to every later job, unpacked into a scratch root whose usr/ is PERFDUEL_PREFIX.
  "$ci_local" gitlab "$template" "$job" --workspace "$dir/workspace" \
    --cache-dir "${CACHE:-$work/$case/cache}" \
    --project-var PERFDUEL_PREFIX="$dir/root/usr" \
    --project-var PERFDUEL_HISTORY="$PERFDUEL_TEST_PG_URI" \
    --project-var PERFDUEL_GITLAB_TOKEN="$token" --project-var PERFDUEL_REPOSITORY="$releases" \
    "${replace[@]}" \
    --var CI_DEFAULT_BRANCH=main --var CI_PROJECT_ID=42 --var CI_API_V4_URL=https://gitlab.example.com/api/v4 \
    --var CI_PIPELINE_ID=1 --var CI_PIPELINE_URL=https://gitlab.example.com/project/-/pipelines/1 \
    --var CI_JOB_TOKEN=job-token \
    "$@" >"$work/$case/$tag.log" 2>&1
  local rc=$?
  rm -rf "$dir/root"
  echo "$rc"
}

# gl_package CASE [ci_local options...]: the .pre stage's perfduel-package; sets package_in to the
# --artifacts-in option that hands its package to the later jobs.
gl_package() {
  local case=$1 rc
  shift
  rc=$(gl_job "$case" perfduel-package --artifacts-out "$work/$case/artifacts/package" "$@")
  [ "$rc" = 0 ] || { fail "$case: perfduel-package exited $rc"; tail -20 "$work/$case/perfduel-package.log"; }
  package_in=(--artifacts-in "$work/$case/artifacts/package")
}

# gl_cached_perf CASE JOB [ci_local options...]: perfduel-package, then JOB, one log (JOB's);
# prints JOB's exit code. The cold and warm runs' pipeline (cold_warm).
gl_cached_perf() {
  local case=$1 job=$2 rc option package_args=()
  shift 2
  while [ $# -gt 0 ]; do  # perfduel-package is no parallel job: no --node-index
    option=$1
    shift
    case "$option" in --node-index) shift ;; *) package_args+=("$option") ;; esac
  done
  gl_package "$case" "${package_args[@]}"
  rc=$(gl_job "$case" "$job" --node-index 1 "${package_in[@]}" "${package_args[@]}")
  cat "$work/$case/perfduel-package.log" "$work/$case/$job-1.log" >"$work/$case/combined.log"
  mv "$work/$case/combined.log" "$work/$case/$job-1.log"
  echo "$rc"
}

gl_pipeline() {  # gl_pipeline CASE [ci_local options...]: perf (every parallel job), perf-summary, perf-trend
  local case=$1 k rc failed=false start=$SECONDS
  shift
  local count
  count=$("$ci_local" gitlab-parallel "$template" perf)
  [ "$count" = 2 ] || fail "$case: perf has parallel: $count, expected 2"
  perf_rc="" artifacts_in=()
  gl_package "$case" "$@"
  artifacts_in=("${package_in[@]}")
  for ((k = 1; k <= count; ++k)); do
    rc=$(gl_job "$case" perf --node-index "$k" --artifacts-out "$work/$case/artifacts/perf-$k" "${package_in[@]}" "$@")
    perf_rc="$perf_rc $rc"
    [ "$rc" = 0 ] || [ "$rc" = 99 ] || failed=true
    [ "$rc" -le 2 ] || [ "$rc" = 99 ] || { fail "$case: perf job $k: ci_local exit $rc"; tail -20 "$work/$case/perf-$k.log"; }
    [ -d "$work/$case/artifacts/perf-$k" ] && artifacts_in+=(--artifacts-in "$work/$case/artifacts/perf-$k")
  done
  summary_rc=$(gl_job "$case" perf-summary --previous "$($failed && echo failed || echo success)" \
    "${artifacts_in[@]}" "$@")
  trend_rc=$(gl_job "$case" perf-trend "${package_in[@]}" "$@")
  say "$case: perf exit codes:$perf_rc; perf-summary $summary_rc; perf-trend $trend_rc ($((SECONDS - start)) s)"
}

# gl_include_case [ci_local options...]: templates/gitlab-gate.yml, which includes
# templates/gitlab-perfduel.yml (its remote URL mapped to the file here): perfduel-package, then
# both parallel perf jobs pass, and every gate runs in exactly one of them.
gl_include_case() {
  local case=include k rc short=$source_dir/templates/gitlab-gate.yml url
  url=$(sed -n 's/^  - local: \(.*perfduel.yml\)$/\1/p' "$short")
  [ -n "$url" ] || { fail "include: gitlab-gate.yml includes no gitlab-perfduel.yml"; return; }
  local include=(--include "$url=$source_dir/templates/gitlab-perfduel.yml")
  mkdir -p "$work/$case/artifacts"
  GL_ARCHIVE=1 template=$short gl_package "$case" "${include[@]}" "$@"
  perf_rc=""
  for k in 1 2; do
    rc=$(GL_ARCHIVE=1 template=$short gl_job "$case" perf --node-index "$k" --artifacts-out "$work/$case/artifacts/perf-$k" \
      "${package_in[@]}" "${include[@]}" "$@")
    perf_rc="$perf_rc $rc"
  done
  # perfduel from the release archive perfduel-package downloaded, checked and handed on.
  grep -q 'downloaded the perfduel under test: perfduel-[0-9.]*-linux-x86_64.tar.gz' "$work/$case/perfduel-package.log" ||
    fail "include: perfduel-package did not fetch the release archive"
  grep -q 'perfduel-[0-9.]*-linux-x86_64.tar.gz: OK' "$work/$case/perfduel-package.log" ||
    fail "include: perfduel-package did not check the archive against SHA256SUMS"
  grep -q '^perfduel [0-9.]* (commit ' "$work/$case/perf-1.log" || fail "include: the perf job did not run the archive's perfduel"
  grep -q 'installed perfduel_' "$work/$case/perf-1.log" && fail "include: the perf job installed the Debian package"
  say "include: perfduel-package, then perf exit codes:$perf_rc"
  # A push carrying the regression: the job with perf.sort_instructions fails, the other passes,
  # or passes with warnings (2: a timed gate inconclusive on a starved machine), or fails too
  # (the slower sort is slower in time as well, as in gh_action_case).
  check_push_regression "$case" "0 1|1 0|2 1|1 2|1 1"

  # A tampered archive (tampered_store): perfduel-package refuses it.
  local tampered
  tampered=$(tampered_store)
  rc=$(PERFDUEL_TEST_ARCHIVE_STORE=$tampered GL_ARCHIVE=1 template=$short gl_job tampered perfduel-package "${include[@]}" "$@")
  [ "$rc" = 1 ] && grep -q 'perfduel: error: perfduel-[0-9.]*-linux-x86_64.tar.gz does not match the SHA-256' \
    "$work/tampered/perfduel-package.log" || fail "tampered: perfduel-package exited $rc and did not refuse the archive"
  gl_check_shards include
}

# gl_undecided_case [ci_local options...]: the include's parallel job that runs perf.sort_speed, on
# undecided_branch's commit, ends "passed with warnings" (exit 77, allowed to fail).
gl_undecided_case() {
  local case=undecided rc short=$source_dir/templates/gitlab-gate.yml url log hits
  url=$(sed -n 's/^  - local: \(.*perfduel.yml\)$/\1/p' "$short")
  local include=(--include "$url=$source_dir/templates/gitlab-perfduel.yml")
  mkdir -p "$work/$case/artifacts"
  # On the runner's cache the push to main (gl_include_case) left: the include warm.
  CACHE=$work/include/cache GL_ARCHIVE=1 template=$short gl_package "$case" "${include[@]}" "$@"
  rc=$(CACHE=$work/include/cache GL_ARCHIVE=1 template=$short gl_job "$case" perf --node-index "$sort_shard" \
    "${package_in[@]}" "${include[@]}" "$@")
  log=$work/$case/perf-$sort_shard.log
  say "undecided: perf job $sort_shard exited $rc"
  grep -q 'downloaded the perfduel under test' "$work/$case/perfduel-package.log" &&
    fail "undecided (warm): perfduel-package downloaded the archive again, not taken from the cache"
  grep -q "^ci_local: cache perfduel-build-perf-$sort_shard-2-main: restored" "$log" ||
    fail "undecided (warm): the new branch's job did not restore the default branch's cache: $(grep '^ci_local: cache' "$log")"
  hits=$(sed -n 's/^ *Hits: *\([0-9][0-9]*\) .*/\1/p' "$log" | head -1)
  [ "${hits:-0}" -gt 0 ] || fail "undecided (warm): no compiler-cache hit: $(grep -A8 'Cacheable calls' "$log")"
  [ "$rc" = 2 ] || { fail "undecided: the include's perf job exited $rc, expected 2 (passed with warnings)"; tail -20 "$log"; }
  grep -q 'passed with warnings (exit code 77)' "$log" || fail "undecided: the job did not pass with warnings"
  grep -q '^sort_speed  *inconclusive' "$log" || fail "undecided: the job's table has no inconclusive sort_speed: $(grep '^sort_speed ' "$log")"
  [ -f "$work/$case/perf-$sort_shard/workspace/build/custom-reports/sort_speed.json" ] ||
    fail "undecided: the report is not in the custom folder build/custom-reports"
  grep -q "perfduel: merge_request_event: the baseline is $c_release " "$log" ||
    fail "undecided: a merge request into release is not compared with release: $(grep -m1 'the baseline is' "$log")"
}

gl_junits() { ls "$work/$1"/artifacts/perf-*/build/perf-junit-*.xml 2>/dev/null; }

gl_check_shards() { check_shards "$1" $(gl_junits "$1"); }

run_gitlab() {
  local mr=(--var CI_PIPELINE_SOURCE=merge_request_event --var CI_MERGE_REQUEST_IID=7
            --var CI_MERGE_REQUEST_TARGET_BRANCH_NAME=main --var CI_MERGE_REQUEST_SOURCE_BRANCH_NAME=slower
            --var CI_COMMIT_REF_NAME=slower --var CI_COMMIT_BEFORE_SHA=0000000000000000000000000000000000000000
            --var CI_MERGE_REQUEST_DIFF_BASE_SHA="$c_main")
  say "GitLab: merge request !7, first push: the insertion-sort cutoff raised to 1024"
  gl_pipeline pr-slower "${mr[@]}" --var CI_COMMIT_SHA="$c_slower"
  case " $perf_rc " in *" 1 "*) ;; *) fail "pr-slower: no perf job failed (exit codes$perf_rc)" ;; esac
  [ "$summary_rc" = 1 ] || fail "pr-slower: perf-summary exited $summary_rc, expected 1 (a regression)"
  grep -q '^sort_instructions *regression *instructions' "$work/pr-slower/perf-summary.log" ||
    fail "pr-slower: the summary does not name sort_instructions as a regression"
  [ "$trend_rc" = 99 ] || fail "pr-slower: perf-trend ran in a merge request pipeline (exit $trend_rc)"
  gl_check_shards pr-slower
  check_baseline pr-slower "$c_main"
  api_calls=$(grep -c . "$FAKE_API/log")
  grep -q '^POST /api/v4/projects/42/merge_requests/7/notes token='"$token"'$' "$FAKE_API/log" ||
    fail "pr-slower: no note posted with PERFDUEL_GITLAB_TOKEN: $(cat "$FAKE_API/log")"
  jq -r '.[0].body' "$FAKE_API/comments.json" >"$work/pr-slower/comment.md"
  check_regression_comment pr-slower "$work/pr-slower/comment.md" "$c_slower"
  check_run_page pr-slower "$work/pr-slower/perf-summary/workspace/perf-run.html" sort_instructions

  say "GitLab: merge request !7, second push: the cutoff back to 16"
  gl_pipeline pr-same "${mr[@]}" --var CI_COMMIT_SHA="$c_same"
  [ "$(echo $perf_rc)" = "0 0" ] || fail "pr-same: perf jobs exited$perf_rc, expected 0 0"
  [ "$summary_rc" = 0 ] || [ "$summary_rc" = 2 ] || fail "pr-same: perf-summary exited $summary_rc, expected to pass"
  gl_check_shards pr-same
  tail -n +"$((api_calls + 1))" "$FAKE_API/log" | grep -q '^PUT /api/v4/projects/42/merge_requests/7/notes/1001 token=' ||
    fail "pr-same: the note was not updated in place: $(cat "$FAKE_API/log")"
  check_updated_comment pr-same "$c_same"

  say "GitLab: a push to main carrying the regression, by the short .gitlab-ci.yml of the include file"
  gl_include_case --var CI_PIPELINE_SOURCE=push --var CI_COMMIT_BRANCH=main --var CI_COMMIT_REF_NAME=main \
    --var CI_COMMIT_SHA="$c_slower" --var CI_COMMIT_BEFORE_SHA="$c_main"

  say "GitLab: a merge request whose gate cannot decide, by the include file"
  undecided_branch
  gl_undecided_case "${mr[@]}" --var CI_COMMIT_REF_NAME=undecided --var CI_MERGE_REQUEST_SOURCE_BRANCH_NAME=undecided \
    --var CI_MERGE_REQUEST_TARGET_BRANCH_NAME=release --project-var PERFDUEL_CMAKE_ARGS=-DPERFDUEL_REPORT_DIR=custom-reports \
    --var CI_COMMIT_SHA="$c_undecided"

  say "GitLab: push to the default branch"
  push_main
  api_calls=$(grep -c . "$FAKE_API/log")
  gl_pipeline main --var CI_PIPELINE_SOURCE=push --var CI_COMMIT_BRANCH=main --var CI_COMMIT_REF_NAME=main \
    --var CI_COMMIT_SHA="$c_main" --var CI_COMMIT_BEFORE_SHA="$c_main_before"
  [ "$(echo $perf_rc)" = "0 0" ] || fail "main: perf jobs exited$perf_rc, expected 0 0"
  [ "$summary_rc" = 0 ] || [ "$summary_rc" = 2 ] || fail "main: perf-summary exited $summary_rc, expected to pass"
  gl_check_shards main
  check_baseline main "$c_main_before"
  [ "$(grep -c . "$FAKE_API/log")" = "$api_calls" ] || fail "main: a push to the default branch called the API"
  check_recorded main "$work"/main/perf-*.log

  say "GitLab: the merge request's perf job on one runner: cold, warm, and after main moved"
  moved_branch
  moved_args=(--var CI_COMMIT_SHA="$c_moved" --var CI_MERGE_REQUEST_DIFF_BASE_SHA="$c_main")
  cold_warm gitlab gl_cached_perf "${mr[@]}" --var CI_COMMIT_SHA="$c_same"

  say "GitLab: the pipeline schedule"
  gl_pipeline nightly --var CI_PIPELINE_SOURCE=schedule --var CI_COMMIT_BRANCH=main --var CI_COMMIT_REF_NAME=main \
    --var CI_COMMIT_SHA="$c_main"
  [ "$(echo $perf_rc)" = "99 99" ] || fail "nightly: the perf jobs ran on the schedule ($perf_rc)"
  [ "$summary_rc" = 99 ] || fail "nightly: perf-summary ran on the schedule ($summary_rc)"
  check_trend nightly "$trend_rc" "$work/nightly/perf-trend.log"
  check_dashboard nightly "$work/nightly/perf-trend/workspace/public"
}

# --- the caches: one job, cold, warm, and after main moved -------------------------------------
# cold_warm KIND JOB_FUNCTION ARGS...: runs shard 1 of the pull request's perf job (ARGS) three
# times, each as on a fresh runner (nothing kept but the CI system's cache, a directory here; the
# workspace at the same path, as a CI runner's is): cold, with an empty cache; warm, with what the
# cold run saved; and moved, a pull request whose merge-base is a newer main (the array
# moved_args: its options, after ARGS), whose baseline is not in the cache. The warm run must
# install perfduel from its cached package (no perfduel source compiled), get compiler-cache hits,
# and take the baseline's build from the cache (not one baseline compile); the moved run must
# build its new baseline through the compiler cache, with hits (ccache's log: each compile's
# working directory and result, by process). The step times go to $work/cache-times.md.
cold_warm() {
  local kind=$1 job_function=$2 run rc log logfile
  shift 2
  rm -rf "$work/cache"
  for run in cold warm moved; do
    rm -rf "$work/cache-run"
    mkdir -p "$work/cache-run"
    case "$kind" in
      github) logfile=(--env CCACHE_LOGFILE="$work/cache-$run.ccache.log") ;;
      gitlab) logfile=(--var CCACHE_LOGFILE="$work/cache-$run.ccache.log") ;;
    esac
    local extra=()
    [ "$run" != moved ] || extra=("${moved_args[@]}")
    rc=$(unset CCACHE_REMOTE_STORAGE; CACHE=$work/cache $job_function cache-run perf "$@" "${extra[@]}" "${logfile[@]}")
    log=$work/cache-$run.log
    cp "$work/cache-run/perf-1.log" "$log"
    [ "$rc" = 0 ] || { fail "cache, $run: the perf job exited $rc"; tail -30 "$log"; }
    find "$work/cache-run" -name '*.o' -path '*perfduel_core*' >"$work/cache-$run.objects"
  done
  local cold=$work/cache-cold.log warm=$work/cache-warm.log moved=$work/cache-moved.log
  grep -q 'packaged the perfduel under test' "$cold" ||
    fail "cache, cold: perfduel's package was not built on a cold cache"
  local hits=() baseline_compiles=() baseline_hits=() i=0
  for run in cold warm moved; do
    log=$work/cache-$run.log
    if [ "$run" != cold ]; then
      grep -q 'packaged the perfduel under test' "$log" &&
        fail "cache, $run: perfduel's package was built again, not taken from the cache"
      grep -q 'installed perfduel_.*\.deb' "$log" || fail "cache, $run: perfduel was not installed from its package"
      if grep -q 'perfduel_core' "$log" || [ -s "$work/cache-$run.objects" ]; then
        fail "cache, $run: perfduel source was compiled: $(grep -m3 perfduel_core "$log") $(head -3 "$work/cache-$run.objects")"
      fi
    fi
    # ccache --show-stats (4.x): "  Hits:   N / M", the job's; the baseline's compiles and hits
    # by ccache's log, which it writes only when the build goes through it.
    [ -s "$work/cache-$run.ccache.log" ] ||
      fail "cache, $run: ccache wrote no log: the build did not go through ccache (CMAKE_CXX_COMPILER_LAUNCHER?)"
    hits[i]=$(sed -n 's/^ *Hits: *\([0-9][0-9]*\) .*/\1/p' "$log" | head -1)
    baseline_compiles[i]=$(awk '/Working directory: .*perfduel\/baselines\// { split($0, f, " "); pid[f[2]] = 1 }
                       /Result: (direct_|preprocessed_)?cache_(hit|miss)$/ { split($0, f, " "); if (f[2] in pid && !(f[2] in seen)) { seen[f[2]] = 1; n++ } }
                       END { print n + 0 }' "$work/cache-$run.ccache.log" 2>/dev/null || echo 0)
    baseline_hits[i]=$(awk '/Working directory: .*perfduel\/baselines\// { split($0, f, " "); pid[f[2]] = 1 }
                       /Result: .*cache_hit/ { split($0, f, " "); if (f[2] in pid) n++ }
                       END { print n + 0 }' "$work/cache-$run.ccache.log" 2>/dev/null || echo 0)
    echo "cache, $run: ${hits[i]:-0} ccache hits; the baseline: ${baseline_compiles[i]} compiles, ${baseline_hits[i]} hits"
    i=$((i + 1))
  done
  [ "${baseline_compiles[0]}" -gt 0 ] || fail "cache, cold: the baseline was not compiled (ccache's log)"
  [ "${hits[1]:-0}" -gt 0 ] || fail "cache, warm: ccache --show-stats shows no hit: $(grep -A8 'Cacheable calls' "$warm")"
  [ "${baseline_compiles[1]}" = 0 ] || fail "cache, warm: the baseline was compiled again (${baseline_compiles[1]} compiles), not taken from the cache"
  [ "${baseline_hits[2]}" -gt 0 ] || fail "cache, moved: the new baseline's build got no compiler-cache hit"
  cache_times "$kind" "$cold" "$warm" "$moved" >"$work/cache-times.md"
  {
    echo
    echo "ccache hits (all compiles of the job / the baseline's): cold ${hits[0]:-0} / ${baseline_hits[0]} of ${baseline_compiles[0]}," \
      "warm ${hits[1]:-0} / ${baseline_hits[1]} of ${baseline_compiles[1]}, moved ${hits[2]:-0} / ${baseline_hits[2]} of ${baseline_compiles[2]}."
  } >>"$work/cache-times.md"
  cat "$work/cache-times.md"
}

cache_times() {
  local kind=$1
  shift
  steps() { sed -n 's/^ci_local: step "\(.*\)": \([0-9.]*\) s$/\1\t\2/p' "$1"; }
  duels() { grep -E 'Test +#[0-9]+: perf\.[^ ]+ \.' "$1" | grep -v '\.baseline ' |
            sed -n 's/.* \([0-9.]*\) sec$/\1/p' | awk '{ s += $1 } END { printf "%.1f", s }'; }
  echo "| step ($kind, shard 1) | cold (s) | warm (s) | main moved (s) |"
  echo "|---|---:|---:|---:|"
  awk -F '\t' -v d1="$(duels "$1")" -v d2="$(duels "$2")" -v d3="$(duels "$3")" '
    FNR == 1 { file++ }
    { if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } t[file, $1] = $2; total[file] += $2 }
    END {
      for (i = 1; i <= n; i++) {
        line = "| " order[i]
        for (f = 1; f <= 3; f++) line = line " | " (((f, order[i]) in t) ? t[f, order[i]] : "skipped")
        print line " |"
      }
      d[1] = d1; d[2] = d2; d[3] = d3
      printf "| **the job** | **%.1f** | **%.1f** | **%.1f** |\n", total[1], total[2], total[3]
      printf "| the duels (the gates'"'"' own CTest times) | %.1f | %.1f | %.1f |\n", d[1], d[2], d[3]
      printf "| **outside the duels** | **%.1f** | **%.1f** (%.0f %%) | **%.1f** (%.0f %%) |\n", total[1] - d[1],
        total[2] - d[2], 100 * (total[2] - d[2]) / (total[1] - d[1]), total[3] - d[3], 100 * (total[3] - d[3]) / (total[1] - d[1])
    }' <(steps "$1") <(steps "$2") <(steps "$3")
}

# --- checks shared by both ------------------------------------------------------------------------
check_regression_comment() {  # CASE FILE COMMIT
  local case=$1 body=$2 commit=$3
  [ "$(head -1 "$body")" = '<!-- perfduel-summary -->' ] || fail "$case: the comment does not start with its marker"
  grep -q '^### perfduel: regression in [0-9]* of '"$gate_count"' gates' "$body" || fail "$case: comment heading: $(sed -n 2p "$body")"
  local regressed details
  regressed=$(grep -n '^| sort_instructions | instructions | +[0-9.]* % |' "$body" | cut -d: -f1)
  details=$(grep -n '^<details>' "$body" | cut -d: -f1)
  [ -n "$regressed" ] && [ -n "$details" ] && [ "$regressed" -lt "$details" ] ||
    fail "$case: the comment does not list sort_instructions' instructions under Regressed, first"
  grep -q "perfduel on $commit" "$body" || fail "$case: the comment does not name the commit $commit"
}

# check_push_regression CASE CODES: a push to main that carries the regression (gh_action_case,
# gl_include_case): the two jobs' exit codes ($perf_rc) one of CODES ("0 1|1 0|..."),
# perf.sort_instructions failed in one, compared with the commit the push replaced (c_main) and
# its baseline built there only.
check_push_regression() {
  local case=$1 codes=$2
  case "|$codes|" in
    *"|$(echo $perf_rc)|"*) ;;
    *) fail "$case: a push carrying the regression: the jobs exited$perf_rc, expected one of $codes"
       tail -20 "$work/$case/perf-1.log" ;;
  esac
  cat "$work/$case"/perf-*.log | grep -Eq 'perf\.sort_instructions .*\*\*\*Failed' ||
    fail "$case: the push's perf.sort_instructions did not fail"
  grep -q "perfduel: push: the baseline is $c_main " "$work/$case/perf-1.log" ||
    fail "$case: the push's baseline is not the commit it replaced: $(grep -m1 'the baseline is' "$work/$case/perf-1.log")"
  check_baseline "$case" "$c_main"
}

check_baseline() {  # CASE COMMIT: every shard built its gates' baseline at COMMIT, and only there
  local case=$1 commit=$2 dir built
  for dir in "$work/$case"/perf-*/workspace/build/perfduel/baselines; do
    built=$(cd "$dir" && ls -d -- */ | sed 's|-.*||' | sort -u | tr '\n' ' ')
    [ "$built" = "${commit:0:12} " ] || fail "$case: baselines built at $built, expected ${commit:0:12} ($dir)"
  done
}

check_updated_comment() {  # CASE COMMIT
  local case=$1 commit=$2
  [ "$(jq length "$FAKE_API/comments.json")" = 1 ] || fail "$case: $(jq length "$FAKE_API/comments.json") comments, expected 1"
  jq -r '.[0].body' "$FAKE_API/comments.json" >"$work/$case/comment.md"
  local body=$work/$case/comment.md
  [ "$(head -1 "$body")" = '<!-- perfduel-summary -->' ] || fail "$case: the updated comment lost its marker"
  grep -q '^### perfduel: no regression' "$body" || fail "$case: updated comment heading: $(sed -n 2p "$body")"
  grep -q '^\*\*Regressed\*\*' "$body" && fail "$case: the updated comment still lists regressions"
  grep -q "perfduel on $commit" "$body" || fail "$case: the updated comment does not name the commit $commit"
}

check_recorded() {  # CASE LOG...: each gate's report recorded once, into PostgreSQL
  local case=$1
  shift
  local recorded
  recorded=$(cat "$@" | grep -c "^recorded #[0-9]* in postgresql://")
  [ "$recorded" = "$gate_count" ] || fail "$case: $recorded reports recorded, expected $gate_count (one per gate)"
  "$perfduel" trend --db "$PERFDUEL_TEST_PG_URI" --branch main --metric instructions --json "$work/$case/trend.json" \
    >/dev/null 2>&1
  [ "$(jq '.runs' "$work/$case/trend.json" 2>/dev/null)" = 1 ] ||
    fail "$case: the history has $(jq '.runs' "$work/$case/trend.json" 2>/dev/null) runs of instructions on main, expected 1"
}

check_trend() {  # CASE EXIT LOG: the trend job read the shared history
  local case=$1 rc=$2 log=$3
  grep -q '^instructions ' "$log" || fail "$case: the trend job did not trend the recorded history: $(tail -5 "$log")"
  # One push recorded: no series can have a regression group yet. A metric that several gates
  # record (wall_time) is trended one series per gate configuration, so their different levels
  # are not steps; a metric with zeros only (a quick program's system_time) is one group.
  [ "$rc" = 0 ] || fail "$case: the trend job exited $rc: $(tail -5 "$log")"
  grep -q '^wall_time@[0-9a-f]\{12\} ' "$log" || fail "$case: wall_time is not trended per gate: $(tail -5 "$log")"
  # The metrics that several gates record share one note.
  [ "$(grep -c 'measured under several configurations' "$log")" = 1 ] ||
    fail "$case: expected one note on the metrics of several gates: $(grep 'perfduel: note' "$log")"
}

case "$kind" in
  github) run_github ;;
  gitlab) run_gitlab ;;
esac
if [ "$failures" -gt 0 ]; then
  echo "$failures checks failed; the jobs' logs are in $work/<case>/"
  exit 1
fi
echo "all checks passed"
