#!/usr/bin/env bash
# Timing: a test whose outcome depends on timing asserts only what holds with probability
# ≥ 1 − 10⁻⁴ per run, derived in a comment from the α and the effect size it uses, or takes
# timing out of the question (counted metrics, printed scores, a fake executor, seeded
# simulation); see tests/README.md. Here verdicts are rarely the point: where both sides run
# the same program any exit code but an error (0 or 1) is accepted and `inconclusive: pass`;
# where a fault must show in the measurements, CPU time or the printed score carries it, or a
# ratio that load cannot undo; waits are on events (the run counter file, the end of a
# process) with a deadline far beyond the normal time; every timeout and budget is ten times or
# more what its case takes on a loaded machine (figures at each case, measured on the 2-CPU VM
# at load 3).
#
# Fault injection and security: the real driver against fake_bench failing in every way a
# benchmark fails (tests/programs/fake_bench.cpp, --fault), against signals, and against
# configuration that tries to reach beyond what it may. Each case checks the exit code, the
# one-line cause naming the run, the JSON report (parsed with jq) and that no process is
# left behind (each case tags its processes with a marker unique to it).
# Usage: fault_test.sh CASE   (PERFDUEL and FAKE_BENCH name the binaries under test)
# docs/reliability.md lists the cases with what each shows.
set -u
: "${PERFDUEL:?set PERFDUEL to the perfduel binary}"
: "${FAKE_BENCH:?set FAKE_BENCH to the fake_bench binary}"

work=$(mktemp -d)
tag="fault-$1-$$"
# Whatever happens, nothing tagged may outlive the test (the check below fails first).
trap 'pkill -KILL -f -- "--tag $tag" 2>/dev/null; rm -rf "$work"' EXIT
cd "$work" || exit 1

# Milliseconds since an arbitrary point (for durations; `date +%s` counts whole seconds).
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

fail() { echo "FAIL: $*" >&2; echo "--- stdout" >&2; head -c 20000 out.txt >&2 2>/dev/null; echo "--- stderr" >&2; cat err.txt >&2 2>/dev/null; echo "FAIL (repeated after the output): $*" >&2; exit 1; }

# run EXPECTED_EXIT... -- ARGS...: runs perfduel (stdout/stderr in out.txt/err.txt) and
# accepts any of the exit codes before "--".
run() {
  local expected=()
  while [ "$1" != "--" ]; do expected+=("$1"); shift; done
  shift
  "$PERFDUEL" "$@" >out.txt 2>err.txt
  code=$?
  local ok
  for ok in "${expected[@]}"; do [ "$code" -eq "$ok" ] && return 0; done
  fail "exit code $code, expected ${expected[*]}: perfduel $*"
}
expect_err() { grep -qE -- "$1" err.txt || fail "stderr lacks /$1/"; }
json() { jq -r "$1" "${2:-report.json}" || fail "report.json is not valid JSON"; }
# The cause is one line: "perfduel: error: <side> run in round <n>...: <what>".
expect_cause() {
  [ "$(grep -c '^perfduel: error:' err.txt)" -eq 1 ] || fail "expected one error line"
  expect_err "^perfduel: error: $1\$"
  [ "$(json .error)" = "$(sed -n 's/^perfduel: error: //p' err.txt)" ] || fail "the report's error differs from stderr"
}
# The partial report: verdict error, exit code 3, and every run before the failure kept, each
# with its values (rounds counted from 0 in the report, warm-up included).
expect_partial_report() {
  local min_runs=$1
  [ "$(json .verdict)" = "error" ] || fail "report verdict $(json .verdict)"
  [ "$(json .exit_code)" = "3" ] || fail "report exit code $(json .exit_code)"
  [ "$(json '.runs | length')" -ge "$min_runs" ] || fail "report keeps $(json '.runs | length') runs, expected $min_runs or more"
  [ "$(json '[.runs[] | select(.values.wall_time > 0)] | length')" = "$(json '.runs | length')" ] ||
    fail "a kept run lacks its wall time"
}
# No process carrying this case's tag may be running (fake_bench and anything it forked).
# A process the driver killed may take a moment to go (a SIGKILL is acted on when the process
# next runs, later on a busy machine), one left behind never goes (it waits in pause()): so
# wait for the table to clear, up to 20 s, where dying takes milliseconds.
expect_no_leftovers() {
  for _ in $(seq 200); do
    pgrep -f -- "--tag $tag" >/dev/null || return 0
    sleep 0.1
  done
  if pgrep -f -- "--tag $tag" >/dev/null; then
    ps -o pid,ppid,pgid,stat,args -p "$(pgrep -d, -f -- "--tag $tag")" >&2
    fail "a benchmark process was left behind"
  fi
}

# wait_for_count N PID: waits until the run counter file reads N (a faulty run has started
# and counted itself), up to 60 s, failing early if PID (the driver) ended first.
wait_for_count() {
  for _ in $(seq 600); do
    [ "$(cat count 2>/dev/null)" = "$1" ] && return 0
    kill -0 "$2" 2>/dev/null || fail "the driver ended before run $1 started"
    sleep 0.1
  done
  fail "run $1 did not start within 60 s (the counter reads $(cat count 2>/dev/null))"
}

# Every case here is about what runs do, so the sides are measured even when they run
# identical programs (which would otherwise be no change at once).
config() {
  cat >gate.yaml <<YAML
identical_programs: measure
min_rounds: ${min_rounds:-5}
max_rounds: ${max_rounds:-12}
max_seconds: ${max_seconds:-60}
warmup: ${warmup:-1}
timeout: ${timeout:-10s}
retries: ${retries:-0}
inconclusive: pass
metrics:
  wall_time: {threshold: 50%, tolerance: 20%}
${extra_metric:-}
YAML
}
score_metric="  score: {regex: 'score: (\\S+)', gate: true, threshold: 50%}"

fb="$FAKE_BENCH"
base="$fb --work 1 --tag $tag"
# The candidate fails with fault $1 on its k-th run ($2), counted in a file. Where both sides
# run the same program and the verdict is not the point, any exit code but an error (0 or 1)
# is accepted: a false alarm is rare with the 20 % tolerance, not impossible on a busy machine.
faulty() { echo "$fb --work 1 --tag $tag --fault $1 --counter count --on $2 ${3:-}"; }

case "$1" in
  # --- crashes on the k-th run -------------------------------------------------------------
  crash_segv_on_kth_run | crash_kill_on_kth_run | crash_abort_on_kth_run)
    mode=${1#crash_}; mode=${mode%_on_kth_run}
    case $mode in segv) what="signal 11 \\(Segmentation fault\\)" ;; kill) what="signal 9 \\(Killed\\)" ;; abort) what="signal 6 \\(Aborted\\)" ;; esac
    config
    run 3 -- compare --config gate.yaml -q --json report.json -b "$base" -n "$(faulty "$mode" 4)"
    # Warm-up is round 1, so the candidate's 4th run is in round 4.
    expect_cause "candidate run in round 4: was killed by $what"
    expect_partial_report 6
    expect_no_leftovers
    ;;
  # --- non-zero exit, intermittent ----------------------------------------------------------
  intermittent_exit_fails_without_retries)
    config
    run 3 -- compare --config gate.yaml -q --json report.json -b "$base" -n "$fb --work 1 --tag $tag --fault exit --fault-code 7 --counter count --every 3"
    expect_cause "candidate run in round 3: exited with code 7"
    expect_partial_report 4
    [ "$(json '.retried | length')" = "0" ] || fail "retried without retries"
    ;;
  intermittent_exit_is_retried)
    retries=2 config
    run 0 1 -- compare --config gate.yaml -q --json report.json -b "$base" -n "$(faulty exit 3 '--fault-code 7')"
    expect_err "^perfduel: warning: retry 1 of 2: candidate run in round 3: exited with code 7; the round was played again\$"
    [ "$(json '.retried | length')" = "1" ] || fail "report lists $(json '.retried | length') retries"
    [ "$(json '.retried[0]')" = "candidate run in round 3: exited with code 7" ] || fail "retried: $(json '.retried[0]')"
    # The failed round was played again whole: every round has exactly one run per side.
    [ "$(jq -c '[.runs | group_by(.round)[] | length] | unique' report.json)" = "[2]" ] ||
      fail "a round has not two runs: $(jq -c '[.runs | group_by(.round)[] | length]' report.json)"
    [ "$(json .verdict)" != "error" ] || fail "verdict error"
    ;;
  retries_exhausted_is_a_failure)
    retries=2 config
    run 3 -- compare --config gate.yaml -q --json report.json -b "$base" -n "$fb --work 1 --tag $tag --fault exit --fault-code 5 --counter count --every 2"
    # Runs 2 and 4 were retried (rounds 2 and 3), run 6 (round 4) is one too many.
    expect_cause "candidate run in round 4: exited with code 5"
    [ "$(json '.retried | length')" = "2" ] || fail "report lists $(json '.retried | length') retries"
    expect_partial_report 6
    ;;
  retries_are_capped)
    printf 'retries: 11\n' >gate.yaml
    run 2 -- compare --config gate.yaml -b "$base" -n "$base"
    expect_err '^perfduel: error: gate.yaml:1: "retries" must be at most 10 \(a benchmark that fails more often is broken, not flaky\), not 11$'
    printf 'retries: -1\n' >gate.yaml
    run 2 -- compare --config gate.yaml -b "$base" -n "$base"
    expect_err '^perfduel: error: gate.yaml:1: "retries" must be'
    ;;
  # --- hangs, children that outlive the run -------------------------------------------------
  hang_on_kth_run_times_out)
    # Margins: a run that does not hang takes 5-30 ms (idle to load 5; a sanitized driver and
    # fake_bench, as sanitize.cli runs them, add some milliseconds), so the 2 s timeout is 60
    # times or more what it needs; the duel takes about 2.2 s in all (the timeout, a few rounds
    # and the kill), and 30 s is 13 times that, yet short of the 60 s default timeout that a
    # driver ignoring the configured one would wait.
    timeout=2s config
    start=$(now_ms)
    run 3 -- compare --config gate.yaml -q --json report.json -b "$base" -n "$(faulty hang 3)"
    expect_cause "candidate run in round 3: timed out after 2.000 s and was killed \\(raise \"timeout\" in the config\\?\\)"
    [ $(( $(now_ms) - start )) -lt 30000 ] || fail "the timeout took $(( $(now_ms) - start )) ms"
    expect_partial_report 4
    expect_no_leftovers
    ;;
  child_outliving_the_run_is_killed | daemon_outside_the_group_is_killed)
    # Every run forks a child that sleeps forever: in the run's process group (orphan), or
    # in a session of its own (daemon), holding the run's stderr open either way.
    mode=orphan
    [ "$1" = daemon_outside_the_group_is_killed ] && mode=daemon
    min_rounds=10 max_rounds=10 config
    start=$(now_ms)
    # The verdict is not the point (forking costs the candidate a little): any but an error.
    run 0 1 -- compare --config gate.yaml -q --json report.json -b "$base" -n "$fb --work 1 --tag $tag --fault $mode"
    expect_err '^perfduel: warning: candidate run in round 1 \(warm-up\) left a process running after it ended; killed \(11 such process\(es\) in all\)$'
    [ "$(json .left_behind)" = "11" ] || fail "report counts $(json .left_behind) processes left behind"
    # The runs were not each held up by the child keeping stderr open (a run held up until its
    # 10 s timeout would make it 100 s or an error). The 22 runs take 0.3-0.8 s in all (idle to
    # load 3): 20 s is 25 times that.
    [ $(( $(now_ms) - start )) -lt 20000 ] || fail "the duel took $(( $(now_ms) - start )) ms"
    expect_no_leftovers
    ;;
  # --- output --------------------------------------------------------------------------------
  megabytes_of_output)
    # 100 MiB of output per run: read and dropped beyond 64 MiB (the metric comes after it),
    # without the driver's memory following it. Reading it took the driver 3.5-3.9 s at load 3:
    # a run timeout of 60 s is 15 times that (the 10 s of the other cases was not 3 times).
    timeout=60s extra_metric=$score_metric config
    run 3 -- compare --config gate.yaml -q --json report.json -b "$base" -n "$fb --work 1 --tag $tag --fault flood --flood-mib 100"
    expect_cause 'candidate run in round 1 \(warm-up\): metric "score": no match for regex "score: \(\\S\+\)" in the output \(stdout was cut at 64 MiB\)'
    rss=$(json .environment.driver_peak_rss_bytes)
    awk -v r="$rss" 'BEGIN { exit !(r < 200 * 1048576) }' || fail "driver peak RSS $rss"
    # Without a metric to read, the same flood is just a slow run (on both sides here: one
    # side's flood alone may rightly be a regression). All 5 rounds must be played: 4 MiB a run
    # keeps the 12 runs at 1.0-1.4 s (load 5), a fortieth of the 60 s budget (20 MiB took 7.5 s).
    max_rounds=5 config
    flood="$fb --work 1 --tag $tag --fault flood --flood-mib 4"
    run 0 1 -- compare --config gate.yaml -q --json report.json -b "$flood" -n "$flood"
    [ "$(json '.runs | length')" = "12" ] || fail "runs $(json '.runs | length')"
    ;;
  no_output)
    extra_metric=$score_metric config
    run 3 -- compare --config gate.yaml -q --json report.json -b "$base" -n "$(faulty silent 3)"
    expect_cause 'candidate run in round 3: metric "score": the run printed nothing on stdout, where the metric is read'
    expect_partial_report 4
    ;;
  malformed_json)
    extra_metric="  score: {json_pointer: /result/score, gate: true, threshold: 50%}" config
    run 3 -- compare --config gate.yaml -q --json report.json -b "$base --format json" -n "$(faulty malformed 2 '--format json')"
    expect_cause 'candidate run in round 2: metric "score": .*JSON.*'
    expect_partial_report 2
    ;;
  non_number | nan_value | inf_value)
    value=fast; [ "$1" = nan_value ] && value=nan; [ "$1" = inf_value ] && value=inf
    mode=text; [ "$1" != non_number ] && mode=$value
    extra_metric=$score_metric config
    run 3 -- compare --config gate.yaml -q --json report.json -b "$base" -n "$(faulty "$mode" 2)"
    expect_cause "candidate run in round 2: metric \"score\": regex \"score: \\(\\\\S\\+\\)\" captured \"$value\", which is not a number"
    expect_partial_report 2
    ;;
  zero_value | negative_value)
    # A value read from the output that cannot be a measurement of a ratio metric.
    mode=zero; [ "$1" = negative_value ] && mode=negative
    warmup=0 extra_metric=$score_metric config
    run 3 -- compare --config gate.yaml -q --json report.json -b "$base" -n "$(faulty "$mode" 2)"
    expect_err '^perfduel: error: .*metric "score".*round 2'
    [ "$(grep -c '^perfduel: error:' err.txt)" -eq 1 ] || fail "expected one error line"
    [ "$(json .verdict)" = "error" ] || fail "report verdict $(json .verdict)"
    [ "$(json '.runs | length')" -ge 2 ] || fail "finished runs not kept"
    ;;
  # --- timing faults ---------------------------------------------------------------------------
  hundred_times_slower_once)
    # One run 100x slower is an outlier, not a failure and not a regression.
    # - That the slow run happened, in its place, and was kept: timing-free, from the score each
    #   run prints (the work it did: 3, and 300 in the slow run).
    # - That it reads slow, in CPU time (user + system), which neither load nor the driver's own
    #   cost of starting a run adds to (a sanitized driver's fork takes milliseconds, and
    #   sanitize.cli runs these cases too): 300 M iterations took 0.59-0.68 s of CPU time at
    #   load 4, the fastest baseline run 14-15 ms (most of it process start-up), 43-47 times
    #   less; the check fails only if every one of the 11 baseline runs, spread over the whole
    #   duel, took 4 times its CPU time or more. And its wall time covers that CPU time (a
    #   single-threaded process cannot use more CPU time than it lives; 5 % for accounting).
    # - Not a regression (exit 0): the interval (95 % or wider) of the mean log-ratio of 10 rounds,
    #   one of them ln 15 = 2.7 or more (the slow run's wall time is 40-60 times a typical run's
    #   here, 15 times even if starting a run cost 20 ms more), reaches below +20 % unless the 9
    #   other rounds average +62 % or more (with all 9 equal, the least spread: mean 0.27 + 0.9c,
    #   standard error 0.1·(2.7 − c), lower bound 0.27 + 0.9c − 2.26·0.1·(2.7 − c) > 0.2 needs
    #   c > 0.48; a larger outlier needs more). For identical programs run in a random order that
    #   takes a slow-down of the candidate alone in every round: far below 10⁻⁴.
    # - The slow run takes 0.6-0.7 s of CPU, 0.9-1.4 s of wall time at load 4: a 60 s run timeout
    #   is 40 times that.
    min_rounds=10 max_rounds=10 timeout=60s extra_metric="  score: {regex: 'score: (\\S+)', gate: false}" config
    run 0 -- compare --config gate.yaml -q --json report.json -b "$fb --work 3 --tag $tag" \
      -n "$fb --work 3 --tag $tag --fault slow --counter count --on 4"
    [ "$(json '.runs | length')" = "22" ] || fail "runs $(json '.runs | length')"
    # Warm-up is round 0 in the report: the candidate's 4th run is in round 3.
    [ "$(jq -c '[.runs[] | select(.values.score != 3) | [.round, .side, .values.score]]' report.json)" = '[[3,"candidate",300]]' ] ||
      fail "scores: $(jq -c '[.runs[] | [.round, .side, .values.score]]' report.json)"
    slow_cpu=$(json '.runs[] | select(.side == "candidate" and .round == 3) | .values.user_time + .values.system_time')
    slow_wall=$(json '.runs[] | select(.side == "candidate" and .round == 3) | .values.wall_time')
    fastest_cpu=$(json '[.runs[] | select(.side == "baseline") | .values.user_time + .values.system_time] | min')
    awk -v s="$slow_cpu" -v t="$fastest_cpu" 'BEGIN { exit !(s > 10 * t) }' ||
      fail "the slow run took $slow_cpu s of CPU time, the fastest baseline run $fastest_cpu s"
    awk -v w="$slow_wall" -v c="$slow_cpu" 'BEGIN { exit !(w >= 0.95 * c) }' ||
      fail "the slow run's wall time $slow_wall s is shorter than its CPU time $slow_cpu s"
    [ "$(json .verdict)" != "regression" ] || fail "one slow run made a regression"
    ;;
  stdout_closed_early)
    # The candidate prints its score, closes stdout and works as long again: the run ends
    # when the process exits, not when its output does. Checked without comparing wall times
    # across runs (load stretches them unevenly: at load 4.7 a run waited half as long again as
    # it computed):
    # - the candidate ran to its end: in each round its CPU time (user + system, which waiting
    #   for a CPU does not add to) is about twice the baseline's (work 20 is 43 ms a pass, plus a
    #   few ms of start-up on both sides): the median over the rounds was 1.78-1.85 at load 4.7,
    #   and a run cut short at the close would read about 1.0 (a sanitized build's heavier
    #   start-up, 40 ms of CPU on both sides, would still leave 1.5). Failing `> 1.4` takes the
    #   baseline's CPU time inflated a quarter more than the candidate's in most of the
    #   interleaved rounds;
    # - its wall time covers it to its end: a single-threaded process cannot use more CPU time
    #   than the wall time it lives, so a correct clock reads wall / CPU ≥ 1 whatever the load
    #   (median 1.50-1.52 at load 4.7); one stopped at the close reads about a half idle. The
    #   median must be at least 0.95 (5 % for the accounting of start-up).
    max_rounds=20 extra_metric=$score_metric config
    run 0 1 -- compare --config gate.yaml -q --json report.json -b "$fb --work 20 --tag $tag" -n "$fb --work 20 --tag $tag --fault close-stdout"
    cpu_ratio=$(json '[.runs | map(select(.warmup | not)) | group_by(.round)[] | select(length == 2)
                       | (map(select(.side == "candidate"))[0].values | .user_time + .system_time)
                         / (map(select(.side == "baseline"))[0].values | .user_time + .system_time)]
                      | sort | .[length / 2 | floor]')
    awk -v r="$cpu_ratio" 'BEGIN { exit !(r > 1.4) }' ||
      fail "the candidate's CPU time is $cpu_ratio times the baseline's in the median round, not about twice"
    wall_over_cpu=$(json '[.runs[] | select(.side == "candidate" and (.warmup | not))
                           | .values.wall_time / (.values.user_time + .values.system_time)] | sort | .[length / 2 | floor]')
    awk -v r="$wall_over_cpu" 'BEGIN { exit !(r >= 0.95) }' ||
      fail "the candidate's wall time is $wall_over_cpu times its CPU time in the median run: the clock stopped early"
    [ "$(json '.metrics[] | select(.name == "score") | .verdict')" = "no-change" ] || fail "score read wrongly"
    ;;
  affinity_changed_by_the_benchmark)
    # The benchmark widens its own CPU affinity after the start; the runs are measured as
    # they ran, and the next run is pinned again.
    cpu=$(( $(nproc) - 1 ))
    config
    # Unpinned, the candidate may land on a busier CPU: any verdict but an error.
    run 0 1 -- compare --config gate.yaml -q --json report.json --cpus "$cpu" -b "$base" -n "$fb --work 1 --tag $tag --fault affinity"
    [ "$(json '.pinning.cpus | join(",")')" = "$cpu" ] || fail "pinning $(json '.pinning.cpus')"
    ;;
  # --- signals to the driver -------------------------------------------------------------------
  sigterm_kills_children_and_writes_partial_report | sighup_kills_children_and_writes_partial_report)
    signal=TERM; number=15
    [ "$1" = sighup_kills_children_and_writes_partial_report ] && { signal=HUP; number=1; }
    # Every run leaves a child behind in its group, and the 6th candidate run hangs.
    # Synchronised on events: the signal goes once the candidate's 6th run has counted itself
    # (it hangs from then on, so at least 5 rounds are complete whenever the signal lands);
    # the wait for that is up to 60 s where it takes 0.1-0.3 s. The driver handles a signal at
    # any moment (a self-pipe), so nothing needs to settle after the event. Stopping takes
    # 20-60 ms (kill the children, write the report); 10 s is far beyond that and far below the
    # 60 s run timeout a driver that ignored the signal would wait.
    min_rounds=1000 max_rounds=1000 timeout=60s config
    "$PERFDUEL" compare --config gate.yaml -q --json report.json -b "$base --fault orphan" -n "$(faulty hang 6)" >out.txt 2>err.txt &
    pid=$!
    wait_for_count 6 "$pid"
    kill -"$signal" "$pid"
    start=$(now_ms)
    wait "$pid"
    code=$?
    stopped_ms=$(( $(now_ms) - start ))
    [ "$code" -eq 130 ] || fail "exit code $code after SIG$signal, expected 130"
    [ "$stopped_ms" -lt 10000 ] || fail "took $stopped_ms ms to stop"
    expect_err "^perfduel: error: interrupted by signal $number; children killed, partial report written to report.json\$"
    [ "$(json .verdict)" = "interrupted" ] || fail "report verdict $(json .verdict)"
    [ "$(json .exit_code)" = "130" ] || fail "report exit code $(json .exit_code)"
    [ "$(json '.runs | length')" -ge 10 ] || fail "partial report has $(json '.runs | length') runs"
    expect_no_leftovers
    ;;
  sigkill_leaves_nothing_in_the_way)
    # SIGKILL cannot be handled: the run in progress dies with the driver (parent-death
    # signal), and the next duel in the same place is unaffected by what the first left.
    # Synchronised on the event (the candidate's 4th run has counted itself and hangs), as above.
    min_rounds=1000 max_rounds=1000 timeout=60s config
    "$PERFDUEL" compare --config gate.yaml -q --json report.json --markdown report.md --svg report.svg \
      -b "$base" -n "$(faulty hang 4)" >out.txt 2>err.txt &
    pid=$!
    wait_for_count 4 "$pid"
    kill -KILL "$pid"
    wait "$pid" 2>/dev/null
    expect_no_leftovers
    [ ! -e report.json ] || fail "a report was written"
    rm -f count
    max_rounds=6 config
    run 0 1 -- compare --config gate.yaml -q --json report.json --markdown report.md --svg report.svg -b "$base" -n "$base"
    [ "$(json .verdict)" != "error" ] || fail "the second duel failed"
    ls | grep -q '\.tmp\.' && fail "temporary files left: $(ls)"
    expect_no_leftovers
    ;;
  # --- security ---------------------------------------------------------------------------------
  commands_are_not_passed_to_a_shell)
    # Split into words like a shell would, but nothing is expanded: the program sees the
    # characters as written. The same command through a shell (shell: true) fails the check.
    cat >gate.yaml <<'YAML'
min_rounds: 2
max_rounds: 2
warmup: 0
inconclusive: pass
metrics: {wall_time: {threshold: 500%, tolerance: 100%}}
baseline:
  command: /usr/bin/test $HOME*~`id`$(id);x|y = '$HOME*~`id`$(id);x|y'
candidate:
  command: [/usr/bin/test, '$HOME', '=', '$HOME']
YAML
    # Both sides run the same tiny program: the verdict is noise; any but an error (3) will do.
    run 0 1 -- compare --config gate.yaml -q
    sed -i 's|^baseline:|baseline:\n  shell: true|' gate.yaml
    run 3 -- compare --config gate.yaml -q
    expect_err '^perfduel: error: baseline run in round 1: exited with code'
    # Nor from the command line, without --shell.
    run 0 1 -- compare --config gate.yaml -q -b "/usr/bin/test \$HOME = '\$HOME'" -n "/usr/bin/test '*' = *"
    ;;
  environment_and_paths_are_literal)
    cat >gate.yaml <<'YAML'
min_rounds: 2
max_rounds: 2
warmup: 0
inconclusive: pass
metrics: {wall_time: {threshold: 500%, tolerance: 100%}}
baseline:
  command: [/bin/sh, -c, 'test "$FROM_CONFIG" = "\$HOME/\$(id)"']
  env: {FROM_CONFIG: '$HOME/$(id)'}
candidate:
  command: [/bin/sh, -c, 'test "$FROM_CONFIG" = "~"']
  env: {FROM_CONFIG: '~'}
YAML
    run 0 1 -- compare --config gate.yaml -q
    # A working directory is a path as written: "$HOME" is not the home directory.
    sed -i "s|^  env: {FROM_CONFIG: '~'}|  env: {FROM_CONFIG: '~'}\n  working_directory: \$HOME|" gate.yaml
    run 2 -- compare --config gate.yaml -q
    expect_err '^perfduel: error: candidate \(gate.yaml\): working directory "\$HOME" does not exist$'
    ;;
  report_files_follow_the_umask)
    config
    for mask in 022 077 000; do
      rm -f report.json report.md report.svg history.sqlite
      (umask $mask && "$PERFDUEL" compare --config gate.yaml -q --json report.json --markdown report.md --svg report.svg \
        -b "$base" -n "$base" >out.txt 2>err.txt)
      [ $? -le 1 ] || fail "compare under umask $mask"
      (umask $mask && "$PERFDUEL" record report.json --db history.sqlite --commit c1 --branch main >>out.txt 2>>err.txt) ||
        fail "record under umask $mask"
      case $mask in 022) want=644 ;; 077) want=600 ;; 000) want=664 ;; esac
      for file in report.json report.md report.svg; do
        [ "$(stat -c %a "$file")" = "$want" ] || fail "$file has mode $(stat -c %a "$file") under umask $mask, expected $want"
      done
      # SQLite creates its file 0644 before the umask, never group- or world-writable.
      case $mask in 077) want=600 ;; *) want=644 ;; esac
      [ "$(stat -c %a history.sqlite)" = "$want" ] || fail "history.sqlite has mode $(stat -c %a history.sqlite) under umask $mask"
    done
    ;;
  config_cannot_name_files_to_write)
    # The driver writes only files named on its command line: a configuration (from a pull
    # request) has no key for one, and a link planted where a report goes is replaced, not
    # written through.
    printf 'json: /tmp/evil.json\n' >gate.yaml
    run 2 -- compare --config gate.yaml -b "$base" -n "$base"
    expect_err '^perfduel: error: gate.yaml:1: unknown key "json"'
    config
    outside=$(mktemp -u "${TMPDIR:-/tmp}/perfduel-outside.XXXXXX")
    ln -s "$outside" report.json
    run 0 1 -- compare --config gate.yaml -q --json report.json -b "$base" -n "$base"
    [ ! -e "$outside" ] || { rm -f "$outside"; fail "the report was written through a planted link"; }
    [ -f report.json ] && [ ! -L report.json ] || fail "report.json is not a plain file"
    ;;
  database_names_cannot_escape_the_directory)
    # A history database (from a pull request) names metrics; trend's per-metric plots take
    # the name into a file name only with every character but [A-Za-z0-9._-] replaced.
    mkdir out
    for i in 1 2 3 4 5 6; do
      for metric in '../../escape/x' /tmp/escape ok; do
        run 0 -- record --db history.sqlite --commit "c$i" --branch main --metric "$metric" --value "$i"
      done
    done
    run 0 1 -- trend --db history.sqlite --svg out/trend.svg
    [ "$(find . -name '*.svg' | sort | tr '\n' ' ')" = "./out/trend-.._.._escape_x.svg ./out/trend-_tmp_escape.svg ./out/trend-ok.svg " ] ||
      fail "plots written: $(find . -name '*.svg' | tr '\n' ' ')"
    ;;
  *)
    echo "fault_test.sh: unknown case $1" >&2
    exit 2
    ;;
esac
echo "PASS: $1"
