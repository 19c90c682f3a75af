#!/usr/bin/env bash
# Tests of `perfduel bisect` (docs/bisect.md) on a generated git repository of 32 commits
# (make_repository below): unrelated edits, one commit +1 % (below the 5 % cut), one +15 %.
# The benchmark prints a deterministic score that the gate reads with a regex, so every duel
# is exact and decided in 3 rounds: no outcome here depends on timing (tests/README.md).
# Usage: bisect_test.sh TEST_NAME   (PERFDUEL and PERFDUEL_BUILD_DIR name the driver and its
# build tree, whose PerfDuelConfig.cmake the generated project finds)
set -u
: "${PERFDUEL:?set PERFDUEL to the perfduel binary}"
: "${PERFDUEL_BUILD_DIR:?set PERFDUEL_BUILD_DIR to the perfduel build tree}"
GENERATOR=${GENERATOR:-Ninja}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1

# Reproducible git whatever the machine's configuration, and no walking up into an enclosing
# repository.
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_CEILING_DIRECTORIES=$work
export GIT_AUTHOR_NAME="perfduel test" GIT_AUTHOR_EMAIL=test@perfduel.invalid
export GIT_COMMITTER_NAME="perfduel test" GIT_COMMITTER_EMAIL=test@perfduel.invalid
export CMAKE_BUILD_PARALLEL_LEVEL=2
unset GIT_DIR GIT_WORK_TREE

fail() { echo "FAIL: $*" >&2; echo "--- stdout" >&2; cat "$work/out.txt" >&2 2>/dev/null; echo "--- stderr" >&2; cat "$work/err.txt" >&2 2>/dev/null; echo "FAIL (repeated after the output): $*" >&2; exit 1; }
# run EXPECTED_EXIT ARGS...: runs perfduel, stdout and stderr in out.txt and err.txt.
run() {
  local expected=$1
  shift
  "$PERFDUEL" "$@" >"$work/out.txt" 2>"$work/err.txt"
  local code=$?
  [ "$code" -eq "$expected" ] || fail "exit code $code, expected $expected: perfduel $*"
}
expect_out() { grep -qE -- "$1" "$work/out.txt" || fail "stdout lacks /$1/"; }
expect_err() { grep -qE -- "$1" "$work/err.txt" || fail "stderr lacks /$1/"; }
json() { jq -r "$1" "${2:-$work/report.json}"; }

# The score a commit's benchmark prints: 1000000 up to the small change, +1 % from it, +15 %
# more from the big one.
SMALL=8 BIG=20

# make_repository [BROKEN NOISY]: repo/ with commits 0..31 on main, tag v1 on commit 0.
# Commit BROKEN does not compile (BROKEN+1 fixes it); commit NOISY prints a score with random
# noise, which no duel of fewer than 20 rounds can settle (the confidence sequence waits for
# 20 rounds of a value that is not deterministic).
make_repository() {
  local broken=${1:--1} noisy=${2:--1}
  mkdir repo && cd repo || exit 1
  git init -q -b main .
  mkdir perf
  cat >CMakeLists.txt <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(bisect_demo LANGUAGES CXX)
find_package(PerfDuel REQUIRED)
enable_testing()
add_executable(bench bench.cpp)
add_perf_gate(NAME score TARGET bench CONFIG perf/score.yaml ARGS --label demo)
CMAKE
  # A deterministic metric: each duel is exact (3 rounds), the search cannot take a wrong step.
  cat >perf/score.yaml <<'YAML'
metrics:
  wall_time: {gate: false}
  score: {regex: "score: ([0-9]+)", threshold: 5%}
min_rounds: 5
max_rounds: 6
YAML
  cat >bench.cpp <<'CPP'
#include <cstdio>
#include <cstring>
#include <random>

#include "work.hpp"

int main(int argc, char** argv) {
  if (argc != 3 || std::strcmp(argv[1], "--label") != 0) {
    std::fprintf(stderr, "usage: bench --label NAME\n");
    return 2;
  }
  long score = k_work;
  if (k_noisy) {
    score += static_cast<long>(std::random_device{}() % 100000);
  }
  std::printf("%s score: %ld\n", argv[2], score);
  return 0;
}
CPP
  write_work 1000000 0 0
  echo "notes 0" >notes.txt
  git add -A && git commit -qm "commit 0: the benchmark" && git tag v1
  local work_units=1000000
  for i in $(seq 1 31); do
    local subject="commit $i: notes"
    if [ "$i" -eq "$SMALL" ]; then work_units=1010000; subject="commit $i: +1 % (below the cut)"; fi
    if [ "$i" -eq "$BIG" ]; then work_units=1161500; subject="commit $i: +15 %"; fi
    write_work "$work_units" "$([ "$i" -eq "$broken" ] && echo 1 || echo 0)" "$([ "$i" -eq "$noisy" ] && echo 1 || echo 0)"
    [ "$i" -eq "$broken" ] && subject="commit $i: does not compile"
    [ "$i" -eq "$noisy" ] && subject="commit $i: noisy"
    echo "notes $i" >notes.txt
    git add -A && git commit -qm "$subject"
  done
  cd "$work" || exit 1
}
# write_work UNITS BROKEN NOISY: work.hpp of one commit.
write_work() {
  {
    echo "#pragma once"
    echo "constexpr long k_work = $1;"
    echo "constexpr bool k_noisy = $([ "$3" -eq 1 ] && echo true || echo false);"
    [ "$2" -eq 1 ] && echo "this does not compile;"
  } >work.hpp
}
commit() { git -C "$work/repo" rev-parse "main~$((31 - $1))"; }

# The generated project configured in build/ (the gate file bisect reads).
configure() {
  cmake -S repo -B build -G "$GENERATOR" -DCMAKE_BUILD_TYPE=Release "-DPerfDuel_DIR=$PERFDUEL_BUILD_DIR" \
    >configure.log 2>&1 || { cat configure.log >&2; fail "configuring the generated project"; }
}

# The commits a search built: each at most once, none before.
expect_builds() {
  local count
  count=$(json '[.builds[] | select(.cached == false)] | length')
  [ "$count" -eq "$1" ] || fail "$count commits built, expected $1"
  [ "$(json '[.builds[].commit] | length')" -eq "$(json '[.builds[].commit] | unique | length')" ] ||
    fail "a commit was built twice"
}

case "$1" in
  finds_the_regression)
    # The common case, one line in the build directory. 31 commits after v1: the endpoints'
    # duel, ceil(log2 31) = 5 probes and the confirmation are 7 duels; 7 commits built.
    make_repository
    configure
    cd build || exit 1
    run 0 bisect --gate score --good v1 --bad HEAD --json "$work/report.json"
    expect_out "^first bad commit: $(commit $BIG | cut -c1-10) \"commit $BIG: \\+15 %\" \\(commit $BIG of 31 after v1\\)"
    expect_out "against its parent $(commit $((BIG - 1)) | cut -c1-10): score \\+15\\.00 % \\[\\+15\\.00 %, \\+15\\.00 %\\]: confirmed"
    expect_out "against v1 \\($(commit 0 | cut -c1-10)\\): score \\+16\\.15 %"
    expect_out "^claim: $(commit $BIG | cut -c1-10) is the first commit where score is higher than at v1 by more than 5\\.00 %: $(commit $((BIG - 1)) | cut -c1-10) is not"
    expect_out "Each of the 7 duels that decided a step errs with probability at most 0\\.56 % .* at most 7 × 0\\.56 % = 3\\.89 % \\(Bonferroni\\); every deciding interval is a point"
    expect_out "^others may exist: "
    expect_err "a commit is bad when score is higher than at v1 by more than 5\\.00 %"
    expect_err "\\[2/~7\\] probe .* \\(commit 15 of 31\\): 31 candidates left"
    [ "$(json .outcome)" = found ] || fail "outcome $(json .outcome)"
    [ "$(json .first_bad.commit)" = "$(commit $BIG)" ] || fail "first bad $(json .first_bad.commit)"
    [ "$(json '.duels | length')" -le 7 ] || fail "$(json '.duels | length') duels, expected at most 7"
    expect_builds 7
    # The +1 % commit is below the cut: the probe after it reads good, +1.00 %.
    [ "$(json '[.duels[] | select(.candidate == "'"$(commit 15)"'")][0].verdict')" = good ] || fail "commit 15 not good"
    # A second search builds nothing: every commit is cached.
    run 0 bisect --gate score --good v1 --bad HEAD --json "$work/again.json"
    [ "$(json '[.builds[] | select(.cached == false)] | length' "$work/again.json")" -eq 0 ] || fail "rebuilt"
    ;;
  git_bisect_run)
    # The same search with `git bisect run` and `compare --exit-codes git-bisect` (docs/bisect.md):
    # a tolerance of 5 % makes "bad" mean "worse by more than 5 %", as bisect's cut.
    make_repository
    cat >bisect.yaml <<'YAML'
metrics:
  wall_time: {gate: false}
  score: {regex: "score: ([0-9]+)", threshold: 5%, tolerance: 5%}
stopping: anytime
min_rounds: 5
max_rounds: 6
YAML
    git -C repo worktree add -q --detach "$work/good" v1
    cmake -S good -B good-build -G "$GENERATOR" -DCMAKE_BUILD_TYPE=Release "-DPerfDuel_DIR=$PERFDUEL_BUILD_DIR" \
      >configure.log 2>&1 && cmake --build good-build --target bench >>configure.log 2>&1 ||
      fail "building v1"
    configure
    cat >step.sh <<SH
#!/bin/sh
cmake --build "$work/build" --target bench >/dev/null 2>&1 || exit 125
exec "$PERFDUEL" compare --exit-codes git-bisect --quiet --config "$work/bisect.yaml" \\
  --baseline "$work/good-build/bench --label demo" --candidate "$work/build/bench --label demo"
SH
    chmod +x step.sh
    cd repo || exit 1
    git bisect start HEAD v1 >/dev/null || fail "git bisect start"
    git bisect run "$work/step.sh" >"$work/out.txt" 2>"$work/err.txt" || fail "git bisect run failed"
    expect_out "^$(commit $BIG) is the first bad commit"
    git bisect reset >/dev/null 2>&1
    # The mapping itself: inconclusive (77) and a failed benchmark (3) skip, a usage error aborts.
    cd "$work" || exit 1
    "$PERFDUEL" compare --exit-codes git-bisect --quiet --config bisect.yaml --baseline "good-build/bench --label x" \
      --candidate "good-build/bench" >out.txt 2>err.txt
    [ $? -eq 125 ] || fail "a failing benchmark should exit 125 (skip)"
    "$PERFDUEL" compare --exit-codes git-bisect --no-such-option >out.txt 2>err.txt
    [ $? -eq 128 ] || fail "a usage error should exit 128 (abort)"
    "$PERFDUEL" compare --exit-codes git-bisect --quiet --config nothere.yaml -b true -n true >out.txt 2>err.txt
    [ $? -eq 128 ] || fail "a configuration error should exit 128 (abort)"
    ;;
  skips_unbuildable_and_inconclusive)
    # Commit 15 does not compile and commit 16 is too noisy for 6 rounds (18 on the second
    # attempt; the sequence needs 20): both are skipped, a neighbour probed, and the answer is
    # still found. The --build/--run form, for projects without add_perf_gate.
    make_repository 15 16
    cd repo || exit 1
    run 0 bisect --good v1 --bad main --config "$work/repo/perf/score.yaml" --json "$work/report.json" \
      --build "cmake -S {dir} -B {dir}/build -G '$GENERATOR' -DCMAKE_BUILD_TYPE=Release -DPerfDuel_DIR=$PERFDUEL_BUILD_DIR && cmake --build {dir}/build --target bench" \
      --run "{dir}/build/bench --label {commit}"
    expect_out "^first bad commit: $(commit $BIG | cut -c1-10) "
    expect_out "^skipped: 2 commits \\(git bisect skip\\):"
    expect_out "$(commit 15 | cut -c1-10) \"commit 15: does not compile\" \\(commit 15 of 31\\): does not build: the build command failed"
    expect_out "$(commit 16 | cut -c1-10) \"commit 16: noisy\" \\(commit 16 of 31\\): inconclusive: the round budget"
    [ "$(json '[.skipped[].index] | join(",")')" = "15,16" ] || fail "skipped $(json '[.skipped[].index]')"
    [ "$(json '[.duels[] | select(.attempt == 1)] | length')" -eq 1 ] || fail "no second attempt at the noisy commit"
    [ -d "$(git rev-parse --git-common-dir)/perfduel-bisect" ] || fail "no work directory in the git directory"
    expect_builds 9
    ;;
  endpoints_do_not_differ)
    # v1 against commit 10 (+1 %): not past the cut, so nothing else is built.
    make_repository
    configure
    cd build || exit 1
    run 1 bisect --gate score --good v1 --bad "$(commit 10)" --json "$work/report.json"
    expect_out "^the endpoints do not differ: .* score \\+1\\.00 % \\[\\+1\\.00 %, \\+1\\.00 %\\]: not worse by more than the cut \\(5\\.00 %\\); nothing to bisect"
    expect_builds 2
    # With a cut of 0.5 % the +1 % commit is the regression.
    run 0 bisect --gate score --good v1 --bad "$(commit 10)" --threshold 0.5% --json "$work/report.json"
    expect_out "^first bad commit: $(commit $SMALL | cut -c1-10) "
    ;;
  errors_name_the_fix)
    make_repository
    configure
    cd build || exit 1
    run 2 bisect --gate score --good v9 --bad HEAD
    expect_err "^perfduel: error: --good v9: not a commit in $work/repo \\(git rev-parse: "
    run 2 bisect --gate score --good HEAD --bad v1
    expect_err "^perfduel: error: --good HEAD \\([0-9a-f]{10}\\) is not an ancestor of --bad v1 .* \\(are they swapped\\?\\)"
    run 2 bisect --gate nosuch --good v1 --bad HEAD
    expect_err "^perfduel: error: --gate nosuch: no gate file .*/perfduel/gates/nosuch.cmake; .*\\(gates here: score\\)"
    run 2 bisect --good v1 --bad HEAD
    expect_err "bisect needs what to build and run"
    run 2 bisect --gate score --good v1 --bad v1
    expect_err "are the same commit"
    run 2 bisect --gate score --good v1 --bad HEAD --threshold 5
    expect_err "^perfduel: error: --threshold 5: expected a percentage above 0"
    ;;
  interrupt_keeps_the_builds)
    # SIGINT while the first probe's duel runs: exit 130, the report so far written, and the
    # next search builds nothing it built already.
    make_repository
    configure
    cd build || exit 1
    "$PERFDUEL" bisect --gate score --good v1 --bad HEAD --json "$work/report.json" >"$work/out.txt" 2>"$work/err.txt" &
    pid=$!
    for _ in $(seq 1 600); do
      grep -q "probe .*commit 15 of 31" "$work/err.txt" 2>/dev/null && break
      sleep 0.1
    done
    grep -q "probe .*commit 15 of 31" "$work/err.txt" || fail "the search never reached its first probe"
    kill -INT "$pid"
    wait "$pid"
    code=$?
    [ "$code" -eq 130 ] || fail "exit code $code after SIGINT, expected 130"
    expect_err "interrupted by signal 2; .* are kept: the same command resumes"
    [ "$(json .outcome)" = interrupted ] || fail "report outcome $(json .outcome)"
    built=$(json '[.builds[] | select(.ok) | .commit] | join(" ")')
    run 0 bisect --gate score --good v1 --bad HEAD --json "$work/again.json"
    for c in $built; do
      [ "$(json '[.builds[] | select(.commit == "'"$c"'")][0].cached' "$work/again.json")" = true ] ||
        fail "commit $c was built again after the interrupt"
    done
    ;;
  trend_hands_over_the_range)
    # perfduel trend names the commits around a regression group and the bisect to run.
    make_repository
    db="$work/history.sqlite"
    for i in $(seq 0 31); do
      value=100
      [ "$i" -ge "$BIG" ] && value=115
      "$PERFDUEL" record --db "$db" --metric score --value $value --value $value --value $value \
        --commit "$(commit "$i")" --branch main --time "2026-01-01T00:$(printf %02d "$i"):00Z" >/dev/null ||
        fail "record $i"
    done
    "$PERFDUEL" trend --db "$db" --metric score >out.txt 2>err.txt
    expect_out "regression +at run $BIG"
    good=$(commit $((BIG - 1)) | cut -c1-10) bad=$(commit $BIG | cut -c1-10)
    # History keeps no gate names: the command says which option to fill, and why.
    expect_out "commits $good\\.\\.$bad: perfduel bisect --gate NAME --good $good --bad $bad\$"
    expect_out "(NAME: the add_perf_gate whose reports were recorded; history keeps no gate names, \`perfduel trend --gate NAME\` writes it in)"
    # Named with trend --gate, it is the command to run.
    "$PERFDUEL" trend --db "$db" --metric score --gate score_gate >out.txt 2>err.txt
    expect_out "commits $good\\.\\.$bad: perfduel bisect --gate score_gate --good $good --bad $bad\$"
    ! grep -q NAME out.txt || fail "trend --gate still says NAME: $(cat out.txt)"
    ;;
  *)
    echo "unknown test $1" >&2
    exit 2
    ;;
esac
echo "ok: $1"
