#!/usr/bin/env bash
# Black-box tests of the perfduel command line. Each test runs the real driver on
# fake_bench (tests/programs) and checks the exit code, the output and the JSON report.
# Usage: cli_test.sh TEST_NAME   (PERFDUEL and FAKE_BENCH name the binaries under test)
set -u
: "${PERFDUEL:?set PERFDUEL to the perfduel binary}"
: "${FAKE_BENCH:?set FAKE_BENCH to the fake_bench binary}"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1

# Timing: a test whose outcome depends on timing asserts only what holds with probability
# ≥ 1 − 10⁻⁴ per run, derived in a comment from the α and the effect size it uses, or takes
# timing out of the question (counted metrics, printed scores, a fake executor, seeded
# simulation); see tests/README.md. The derivations below use three facts: (1) an A/A duel
# at confidence 1 − α calls a regression or an improvement with probability at most α
# (docs/validation.md measures 2.3–4.5 % at α = 5 % on seven noise models), so the A/A duels
# here run at 99.99 %; (2) twice the work is a change of +60 % or more in wall time even with
# process start-up counted, dozens of standard errors beyond an 8 % threshold after 10 rounds,
# so a detection fails only if the budget cannot hold 10 rounds; (3) budgets are at least ten
# times what the case takes on an idle 2-CPU VM.
fail() { echo "FAIL: $*" >&2; echo "--- stdout" >&2; cat out.txt >&2 2>/dev/null; echo "--- stderr" >&2; cat err.txt >&2 2>/dev/null; echo "FAIL (repeated after the output): $*" >&2; exit 1; }

# run EXPECTED_EXIT ARGS...: runs perfduel, keeps stdout/stderr in out.txt/err.txt.
run() {
  local expected=$1
  shift
  "$PERFDUEL" "$@" >out.txt 2>err.txt
  local code=$?
  [ "$code" -eq "$expected" ] || fail "exit code $code, expected $expected: perfduel $*"
}
# run_either CODE1 CODE2 ARGS...: like run, accepting either exit code (for duels whose
# verdict may honestly be "inconclusive" on a loaded machine, but must never be a regression).
run_either() {
  local first=$1 second=$2
  shift 2
  "$PERFDUEL" "$@" >out.txt 2>err.txt
  local code=$?
  [ "$code" -eq "$first" ] || [ "$code" -eq "$second" ] || fail "exit code $code, expected $first or $second: perfduel $*"
}
expect_out() { grep -qE -- "$1" out.txt || fail "stdout lacks /$1/"; }
expect_err() { grep -qE -- "$1" err.txt || fail "stderr lacks /$1/"; }
json() { jq -r "$1" "${2:-report.json}"; }

# A small, fast configuration: the fake benchmark's noise is far below these thresholds. At
# 99.99 % an A/A duel is called a regression with probability ≤ 10⁻⁴ (fact 1); a 2× change is
# still decided in 10-20 rounds (fact 2): idle, 10 rounds in 0.3-0.6 s against 200 rounds / 60 s.
# The A/A duels that use it are about the statistics, so identical programs are measured
# (identical_programs_skip_the_duel shows the default).
quick_config() {
  cat >gate.yaml <<YAML
identical_programs: measure
confidence: 99.99%
min_rounds: 10
max_rounds: ${1:-200}
max_seconds: 60
warmup: 1
timeout: ${2:-10s}
metrics:
  wall_time: {threshold: 8%, tolerance: 3%}
YAML
}

fb="$FAKE_BENCH"

case "$1" in
  identical_programs_pass)
    # A/A: the same program on both sides must not be called a regression: at 99.99 % and a
    # 3 % tolerance, a chance below 10⁻⁴ (fact 1).
    quick_config
    # On a loaded machine the budget may run out first (77); a regression (1) is a failure.
    run_either 0 77 compare --config gate.yaml --seed 1 --json report.json -b "$fb --work 4" -n "$fb --work 4"
    expect_out 'verdict: (NO-CHANGE|INCONCLUSIVE)'
    case "$(json .verdict)" in no-change|inconclusive) ;; *) fail "report verdict $(json .verdict)" ;; esac
    ;;
  identical_programs_skip_the_duel)
    # The same fake_bench at two paths with the same arguments: no change at once, nothing runs
    # (its run counter stays unwritten), exit 0, and every report says so, naming what was
    # compared and the fingerprint. No timing: nothing is measured.
    mkdir a b
    cp "$fb" a/fake_bench && cp "$fb" b/fake_bench
    cat >gate.yaml <<YAML
min_rounds: 10
metrics:
  wall_time: {threshold: 8%, tolerance: 3%}
YAML
    run 0 compare --config gate.yaml --json report.json --markdown report.md --svg report.svg \
      -b "a/fake_bench --work 1 --counter runs.count" -n "$PWD/b/fake_bench --work 1 --counter runs.count"
    [ ! -e runs.count ] || fail "the programs ran $(cat runs.count) times"
    sha=$(json .programs.baseline.sha256)
    [[ $sha =~ ^[0-9a-f]{64}$ ]] || fail "fingerprint \"$sha\""
    expect_out '^identical programs: nothing to measure, every metric is no change$'
    expect_out '^  compared: +the same executable and [0-9]+ shared libraries, with the same arguments, environment settings and working directory$'
    expect_out "^  fingerprint: sha256 $sha\$"
    expect_out '^verdict: NO-CHANGE after 0 rounds in .* \(the baseline and the candidate are identical programs \(the same executable, shared libraries and files named by their arguments\): nothing to measure, no change\); exit code 0$'
    [ "$(json .end)" = identical-programs ] || fail "end $(json .end)"
    [ "$(json .verdict)" = no-change ] || fail "verdict $(json .verdict)"
    [ "$(json .measured_rounds)" = 0 ] || fail "measured rounds $(json .measured_rounds)"
    [ "$(json '.runs | length')" = 0 ] || fail "runs in the report"
    [ "$(json .programs.compared)" = identical ] || fail "programs $(json .programs)"
    [ "$(json .programs.candidate.sha256)" = "$sha" ] || fail "the candidate's fingerprint differs"
    [ "$(json .programs.baseline.files[0].path)" = "$PWD/a/fake_bench" ] || fail "baseline path $(json .programs.baseline.files[0].path)"
    [ "$(json .programs.candidate.files[0].path)" = "$PWD/b/fake_bench" ] || fail "candidate path"
    [ "$(json '[.programs.baseline.files[] | select(.role == "library") | .name] | index("libc.so.6") != null')" = true ] ||
      fail "libc is not among the libraries: $(json '[.programs.baseline.files[].name]')"
    [ "$(json '[.metrics[] | select(.verdict != "no-change" or .settled_by != "identical-programs")] | length')" = 0 ] ||
      fail "a metric is not no change by identical programs: $(json .metrics)"
    grep -q '^### perfduel: no-change$' report.md || fail "Markdown heading"
    grep -q "^\*\*Identical programs: nothing to measure.\*\* Both sides run the same executable and [0-9]* shared libraries, with the same arguments, environment settings and working directory (fingerprint SHA-256 \`$sha\`)" report.md ||
      fail "Markdown does not say so: $(cat report.md)"
    grep -q 'identical programs: nothing to measure' report.svg || fail "the plot does not say so"
    cp out.txt compare.txt
    # perfduel summary: the gate's row, and a line saying why it measured nothing.
    run 0 summary report.json --comment comment.md
    expect_out '^report +no-change +wall_time +- +identical programs, not measured +0 '
    expect_out "^report: no-change: the baseline and the candidate are identical programs .*: nothing to measure, no change \(fingerprint sha256 $sha\)\$"
    grep -q '^### perfduel: no regression in 1 gate (1 ran identical programs, nothing measured)$' comment.md ||
      fail "comment heading: $(head -3 comment.md)"
    # analyze reproduces the verdict, and the words (saying it is a re-analysis).
    run 0 analyze report.json --json again.json
    [ "$(json .end again.json)" = identical-programs ] || fail "analyze end $(json .end again.json)"
    [ "$(json .verdict again.json)" = no-change ] || fail "analyze verdict"
    [ "$(json .programs.baseline.sha256 again.json)" = "$sha" ] || fail "analyze lost the fingerprint"
    expect_out '^note: re-analysis of report.json with the report.s settings$'
    diff <(grep -v '^verdict:' compare.txt) <(grep -v '^verdict:\|^note: re-analysis' out.txt) || fail "analyze shows another text"
    # Nothing was measured, so nothing is recorded (not an error: CI records every gate).
    run 0 record --db history.sqlite --commit c1 --branch main report.json
    expect_out '^nothing recorded from report.json: the baseline and the candidate are identical programs'
    [ ! -e history.sqlite ] || fail "a history was created"
    ;;
  one_byte_different_program_is_measured)
    # A copy of fake_bench with one byte changed (in its usage text, which these runs never
    # print) is another program: measured, and the report says why. So is the same program run
    # through --shell (never fingerprinted) or with identical_programs: measure. Each duel is an
    # A/A pair in all that it runs: at 99.99 % a regression has chance ≤ 10⁻⁴ (fact 1), and on a
    # loaded machine the budget may honestly end it inconclusive (77).
    mkdir a b
    cp "$fb" a/fake_bench && cp "$fb" b/fake_bench
    offset=$(grep -obUa -- 'usage: fake_bench' b/fake_bench | head -1 | cut -d: -f1)
    printf 'U' | dd of=b/fake_bench bs=1 seek="$offset" conv=notrunc status=none
    cmp -s a/fake_bench b/fake_bench && fail "the copy was not changed"
    cat >gate.yaml <<YAML
confidence: 99.99%
min_rounds: 10
max_rounds: 200
max_seconds: 60
metrics:
  wall_time: {threshold: 8%, tolerance: 3%}
YAML
    run_either 0 77 compare --config gate.yaml --seed 1 --json report.json --verbose \
      -b "a/fake_bench --work 1" -n "b/fake_bench --work 1"
    [ "$(json .measured_rounds)" -gt 0 ] || fail "not measured"
    [ "$(json .programs.compared)" = different ] || fail "programs $(json .programs.compared)"
    [ "$(json .programs.reason)" = "the executable differs" ] || fail "reason $(json .programs.reason)"
    expect_out '^note: programs measured: the executable differs \(fingerprints [0-9a-f]{12} and [0-9a-f]{12}\)$'
    run_either 0 77 compare --config gate.yaml --seed 2 --json shell.json --shell -q \
      -b "a/fake_bench --work 1" -n "a/fake_bench --work 1"
    [ "$(json .measured_rounds shell.json)" -gt 0 ] || fail "--shell: not measured"
    [ "$(json .programs.compared shell.json)" = not-fingerprinted ] || fail "--shell: $(json .programs shell.json)"
    echo 'identical_programs: measure' >>gate.yaml
    run_either 0 77 compare --config gate.yaml --seed 3 --json measure.json -q \
      -b "a/fake_bench --work 1" -n "a/fake_bench --work 1"
    [ "$(json .measured_rounds measure.json)" -gt 0 ] || fail "identical_programs: measure: not measured"
    [ "$(json .programs.reason measure.json)" = "identical_programs: measure" ] || fail "reason $(json .programs measure.json)"
    ;;
  identical_programs_must_pass)
    # A/A with a generous budget and a 5 % tolerance must end in a pass: a driver that could
    # only ever end inconclusive (77) fails here. The confidence sequence settles no-change
    # once it lies inside ±5 %, the width rule once the interval is narrower than 10 %.
    # At 99.99 % a false alarm has a chance below 10⁻⁴ (fact 1); idle it settles in 20-60
    # rounds (0.3-1 s), far inside 5,000 rounds / 90 s, which futility cannot cut short either.
    cat >gate.yaml <<YAML
identical_programs: measure
confidence: 99.99%
min_rounds: 10
max_rounds: 5000
max_seconds: 90
warmup: 1
metrics:
  wall_time: {threshold: 10%, tolerance: 5%}
YAML
    run 0 compare --config gate.yaml --seed 11 --json report.json -b "$fb --work 2" -n "$fb --work 2"
    expect_out 'verdict: NO-CHANGE'
    [ "$(json .end)" = "decided" ] || fail "end $(json .end)"
    case "$(json '.metrics[0].settled_by')" in width|sequence) ;; *) fail "settled_by $(json '.metrics[0].settled_by')" ;; esac
    ;;
  double_work_is_a_regression)
    quick_config
    run 1 compare --config gate.yaml --seed 2 --json report.json -b "$fb --work 4" -n "$fb --work 8"
    expect_out '^wall_time .* regression$'
    expect_out 'verdict: REGRESSION'
    [ "$(json '.metrics[0].verdict')" = "regression" ] || fail "metric verdict"
    # The wall time of twice the work is not twice the wall time: starting a process costs a
    # few milliseconds on both sides (12 ms against 19 ms read +60 % once, under load). What
    # must hold is a change far beyond the 3 % tolerance and below +150 %; below +25 % would
    # need the start-up cost to exceed 21 ms, three times what it is on a loaded 2-CPU VM.
    change=$(json '.metrics[0].change')
    awk -v c="$change" 'BEGIN { exit !(c > 0.25 && c < 1.5) }' || fail "change $change is not a clear increase"
    ;;
  timed_regression_is_explained)
    # A timed regression is profiled afterwards by one counted run of each side (explain:
    # failures, the default), and the where block says what the counts show. Each case is a
    # large effect (+50 % to +600 % against a 10 % tolerance at 99.99 %), as certain a regression as
    # double_work_is_a_regression; what the counts say of it does not depend on timing.
    command -v valgrind >/dev/null || fail "valgrind is not installed (.ci/packages lists it)"
    quick_config
    # Twice the work: the instructions explain it, in the one function that does the work.
    run 1 compare --config gate.yaml --seed 2 --json report.json -b "$fb --work 2" -n "$fb --work 4"
    expect_out '^where: wall_time \+[0-9.]+ %: one counted run a side: \+9[0-9.]+ % instructions'
    expect_out '^ +100 %  \(anonymous namespace\)::burn\(double\)'
    [ "$(json '.explanations[0].basis')" = profiled ] || fail "basis $(json '.explanations[0].basis')"
    json '.notes[]' | grep -q '^explain: 1 timed metric profiled by one counted run of each side' ||
      fail "no note of the profiling: $(json '.notes')"
    # The same loads over 64 MiB instead of 2: the same instructions, the misses in the estimated
    # cycles, all in the one function that walks.
    : "${STREAM_BENCH:?set STREAM_BENCH}"
    sb="$STREAM_BENCH --mib 64 --passes 20"
    run 1 compare --config gate.yaml --seed 2 --json report.json -b "$sb --span-mib 2" -n "$sb --span-mib 64"
    expect_out '^where: wall_time \+[0-9.]+ %: one counted run a side: [-+]0\.0[0-9] % instructions, \+[0-9.]+ % estimated cycles'
    expect_out '^  the same work, more cache misses'
    expect_out '^ +100 %  walk_span\('
    [ "$(json '.explanations[0].event')" = cycles ] || fail "explained by $(json '.explanations[0].event')"
    # Waiting: a sleep before the same work. No count moved with the time, and no function is named.
    run 1 compare --config gate.yaml --seed 2 --json report.json --shell -b "$fb --work 1" -n "sleep 0.05; $fb --work 1"
    expect_out '^  neither instructions nor estimated cycles explain it'
    [ "$(json '.explanations[0].reading')" = not-by-counts ] || fail "reading $(json '.explanations[0].reading')"
    [ "$(json '.explanations[0].functions | length')" = 0 ] || fail "named $(json '.explanations[0].functions')"
    # explain: off profiles nothing.
    echo "explain: off" >>gate.yaml
    run 1 compare --config gate.yaml --seed 2 --json report.json -b "$fb --work 2" -n "$fb --work 4"
    [ "$(json '.explanations | length')" = 0 ] || fail "explain: off explained $(json '.explanations')"
    ;;
  half_work_is_an_improvement)
    quick_config
    run 0 compare --config gate.yaml --seed 3 -b "$fb --work 8" -n "$fb --work 4"
    expect_out 'verdict: IMPROVEMENT'
    ;;
  analyze_reproduces_the_verdict)
    quick_config
    run 1 compare --config gate.yaml --seed 4 --json report.json -b "$fb --work 3" -n "$fb --work 6"
    cp out.txt compare.txt
    run 1 analyze report.json --json again.json
    [ "$(json .verdict again.json)" = "$(json .verdict)" ] || fail "analyze verdict differs"
    [ "$(json '.metrics[0].ci' again.json)" = "$(json '.metrics[0].ci')" ] || fail "analyze interval differs"
    # The same table, and a note that says what it is.
    expect_out '^note: re-analysis of report.json with the report.s settings$'
    [ "$(json .reanalysis.of again.json)" = "report.json" ] || fail "reanalysis.of $(json .reanalysis.of again.json)"
    # The machine's load is read live by compare only, and with it the count of the other notes.
    diff <(grep -v '^verdict:\|^note: machine load\|^note: [0-9]* more notes' compare.txt) \
      <(grep -v '^verdict:\|^note: re-analysis\|^note: machine load\|^note: [0-9]* more notes' out.txt) ||
      fail "analyze table differs"
    ;;
  analyze_redecides_with_other_settings)
    # A duel with a real +10 % difference (a score with 2 % noise per run, so that the machine's
    # load cannot move it), re-decided from its runs: at a tolerance above the change it passes,
    # below it fails; a threshold the interval cannot reach leaves it undecided. 200 rounds
    # (about 1.5 s): at 80, a lag-1 autocorrelation estimate above 0.2 by chance (3 duels in 150)
    # asked for batches that 80 rounds cannot fill, and the no-change stayed undecided.
    cat >gate.yaml <<'YAML'
min_rounds: 200
max_rounds: 200
stopping: width
metrics:
  wall_time: {gate: false}
  score: {regex: 'score: ([0-9.]+)', threshold: 20%, tolerance: 0}
YAML
    run 1 compare --config gate.yaml -q --seed 9 --json report.json \
      -b "$fb --work 0.2 --noise 0.02" -n "$fb --work 0.22 --noise 0.02"
    printf 'metrics:\n  score: {tolerance: 20%%}\n' >pass.yaml
    run 0 analyze report.json --config pass.yaml --json pass.json
    expect_out '^score .* no-change$'
    expect_out '^note: re-analysis of report.json with settings from pass.yaml: score: tolerance 20 % \(was 0 %\)$'
    expect_out '^verdict: NO-CHANGE after 200 rounds'
    [ "$(json .verdict pass.json)" = "no-change" ] || fail "pass.json verdict $(json .verdict pass.json)"
    [ "$(json .reanalysis.of pass.json)" = "report.json" ] || fail "pass.json reanalysis.of"
    [ "$(json '.reanalysis.settings_from | join(",")' pass.json)" = "pass.yaml" ] || fail "pass.json settings_from"
    [ "$(json '.config.metrics.score.tolerance' pass.json)" = "0.2" ] || fail "pass.json config tolerance"
    [ "$(json '.metrics[] | select(.name == "score") | .ci' pass.json)" = "$(json '.metrics[] | select(.name == "score") | .ci')" ] ||
      fail "the interval changed with the settings"
    # The options override the file; below the change the verdict is a regression again. (An
    # option takes one value: the report may come after it.)
    run 1 analyze --config pass.yaml --tolerance score=5% report.json
    expect_out '^score .* regression$'
    expect_out 'settings from pass.yaml, --tolerance: score: tolerance 5 % \(was 0 %\)$'
    # A threshold the interval cannot reach, from a file or an option: undecided.
    printf 'metrics:\n  score: {tolerance: 20%%, threshold: 0.5%%}\n' >narrow.yaml
    run 77 analyze report.json --config narrow.yaml
    expect_out '^score .* inconclusive$'
    expect_out "the report's runs ended before every gated metric settled with these settings"
    run 77 analyze report.json --config pass.yaml --threshold 0.5%
    # What made the runs cannot change: an error naming the key, nothing written.
    printf 'metrics:\n  score: {regex: "time: ([0-9.]+)"}\n' >bad.yaml
    run 2 analyze report.json --config bad.yaml --json bad.json
    expect_err '^perfduel: error: bad.yaml:2: the source of metric "score" cannot change in a re-analysis'
    [ ! -e bad.json ] || fail "bad.json written"
    run 2 analyze report.json --tolerance wall=1%
    expect_err '^perfduel: error: --tolerance: metric "wall" is not in the report \(did you mean "wall_time"\?\)'
    # The duel's own configuration decides as the duel did.
    run 1 analyze report.json --config gate.yaml
    expect_out "settings from gate.yaml: none differs from the report's$"
    ;;
  svg_plot_of_compare_and_analyze)
    # --svg draws the duel; analyze redraws it from the saved report, the same plot.
    quick_config
    run 1 compare --config gate.yaml --seed 6 --json report.json --svg duel.svg -b "$fb --work 3" -n "$fb --work 6"
    run 1 analyze report.json --svg again.svg
    for plot in duel.svg again.svg; do
      [ -s "$plot" ] || fail "$plot was not written"
      [ "$(head -c 4 "$plot")" = "<svg" ] || fail "$plot does not start with <svg"
      # The interval as printed: under load a regression the sign sequence decided can have a
      # wide interval, below zero or at +1e5 % and beyond (printed +1.23e+05 %).
      grep -q '>wall_time: +[0-9.]* % \[[-+][0-9.e+]* %, [-+][0-9.e+]* %\] <tspan[^>]*>regression</tspan>' "$plot" ||
        fail "$plot lacks the wall_time title with its verdict"
      grep -q '</svg>' "$plot" || fail "$plot is not closed"
    done
    cmp -s duel.svg again.svg || fail "analyze drew a different plot"
    # An unwritable file is a usage error naming it, found before anything is written.
    run 2 analyze report.json --json again.json --svg no-such-dir/plot.svg
    expect_err '^perfduel: error: --svg no-such-dir/plot.svg: the directory no-such-dir does not exist$'
    [ ! -e again.json ] || fail "again.json written despite the bad --svg"
    run 2 analyze report.json --markdown no-such-dir/summary.md
    expect_err '^perfduel: error: --markdown no-such-dir/summary.md: the directory no-such-dir does not exist$'
    # compare checks its report paths before the duel: nothing runs (the program would fail).
    run 2 compare --json no-such-dir/r.json -b /no/such/program -n /no/such/program
    expect_err '^perfduel: error: --json no-such-dir/r.json: the directory no-such-dir does not exist$'
    mkdir adir
    run 2 compare --svg adir -b /no/such/program -n /no/such/program
    expect_err '^perfduel: error: --svg adir: is a directory, expected a file name$'
    ;;
  report_has_raw_samples_and_environment)
    quick_config
    run_either 0 77 compare --config gate.yaml --seed 5 --json report.json --markdown summary.md -b "$fb --work 2" -n "$fb --work 2"
    rounds=$(json .measured_rounds)
    [ "$(json '[.runs[] | select(.warmup == false)] | length')" -eq $((2 * rounds)) ] || fail "raw runs missing"
    [ "$(json '[.runs[] | select(.warmup == true)] | length')" -eq 2 ] || fail "warm-up runs not recorded"
    [ -n "$(json .environment.kernel)" ] || fail "no kernel in environment"
    [ "$(json .config.metrics.wall_time.threshold)" = "0.08" ] || fail "config not recorded"
    grep -q '| wall_time |' summary.md || fail "markdown table missing"
    ;;
  regex_json_and_google_benchmark_metrics)
    cat >gate.yaml <<YAML
min_rounds: 5
max_rounds: 50
metrics:
  wall_time: {gate: false}
  score: {regex: 'score: ([0-9.]+)', threshold: 5%}
YAML
    run 1 compare --config gate.yaml -q -b "$fb --work 1" -n "$fb --work 1 --score 2"
    expect_out '^score .* regression$'
    cat >gate.yaml <<YAML
min_rounds: 5
metrics:
  wall_time: {gate: false}
  score: {json_pointer: /result/score, direction: higher, threshold: 5%}
YAML
    run 1 compare --config gate.yaml -q -b "$fb --work 1 --format json --score 2" -n "$fb --work 1 --format json --score 1"
    expect_out '^score .* regression$'
    cat >gate.yaml <<YAML
identical_programs: measure
min_rounds: 5
metrics:
  wall_time: {gate: false}
  bm: {google_benchmark: BM_Work, field: cpu_time, threshold: 5%}
YAML
    run 0 compare --config gate.yaml -q --json report.json -b "$fb --work 1 --format gbench --score 2" -n "$fb --work 1 --format gbench --score 2"
    # 2 ms in Google Benchmark's own unit is read as seconds.
    [ "$(json '.metrics[] | select(.name == "bm") | .baseline_median')" = "0.002" ] || fail "gbench value not converted"
    ;;
  max_rss_of_100_mib)
    # The wall times are an A/A pair (the same work): at 99.99 % a regression of theirs, which
    # would fail `run 0`, has probability <= 10^-4 (tests/README.md); at 95 % it was seen.
    cat >gate.yaml <<YAML
identical_programs: measure
confidence: 99.99%
min_rounds: 5
max_rounds: 5
inconclusive: pass
YAML
    # 40 MiB, not 10: a 10 MiB program peaks at about 12.6 MiB, within reach of the driver's own
    # peak (12.3-12.7 MiB), and the floor note was then rightly printed.
    run 0 compare --config gate.yaml -q --json report.json -b "$fb --work 0.1 --alloc-mib 100" -n "$fb --work 0.1 --alloc-mib 40"
    rss=$(json '.metrics[] | select(.name == "max_rss") | .baseline_median')
    awk -v r="$rss" 'BEGIN { m = r / 1048576; exit !(m >= 100 && m < 110) }' || fail "max RSS $rss is not about 100 MiB"
    rss=$(json '.metrics[] | select(.name == "max_rss") | .candidate_median')
    awk -v r="$rss" 'BEGIN { m = r / 1048576; exit !(m >= 40 && m < 50) }' || fail "max RSS $rss is not about 40 MiB"
    # Both well above perfduel's own peak: real measurements, no floor note.
    if grep -q "below what perfduel itself uses" out.txt; then fail "floor note for programs above the floor"; fi
    [ "$(json '.environment.driver_peak_rss_bytes')" != "0" ] || fail "the report lacks the driver's peak RSS"
    # A tiny program's max RSS is the kernel's floor (the driver's own peak): said so.
    run 0 compare --config gate.yaml -q -b "$fb --work 0.1" -n "$fb --work 0.1"
    expect_out "^note: max_rss: the programs' peak memory is below what perfduel itself uses \([0-9.]+ MiB,"
    # ... and is a note, not a row of +0.00 % in [+0.00 %, +0.00 %].
    if grep -q '^max_rss ' out.txt; then fail "a row for max_rss below the floor: $(grep '^max_rss ' out.txt)"; fi
    ;;
  budget_too_small_is_inconclusive)
    # 3 rounds cannot reach 0.01 %; the interval at the end still judges the band, so an A/A
    # pair could be called a regression with chance α: at 99.99 %, ≤ 10⁻⁴ (fact 1).
    cat >gate.yaml <<YAML
identical_programs: measure
confidence: 99.99%
min_rounds: 3
max_rounds: 3
metrics:
  wall_time: {threshold: 0.01%}
YAML
    run 77 compare --config gate.yaml -q --json report.json -b "$fb --work 1 --noise 0.2" -n "$fb --work 1 --noise 0.2"
    expect_out 'verdict: INCONCLUSIVE .*round budget'
    sed -i 's/^min_rounds: 3/inconclusive: fail\nmin_rounds: 3/' gate.yaml
    run 1 compare --config gate.yaml -q -b "$fb --work 1 --noise 0.2" -n "$fb --work 1 --noise 0.2"
    ;;
  missing_command)
    run 2 compare -b "no-such-benchmark --x" -n "$fb"
    expect_err "^perfduel: error: baseline \(--baseline\): 'no-such-benchmark': command not found on PATH$"
    touch not-executable
    run 2 compare -b "$fb" -n "./not-executable"
    expect_err "'./not-executable' is not executable"
    run 2 compare -b "$fb 'unterminated" -n "$fb"
    expect_err "^perfduel: error: --baseline: unterminated single quote"
    run 2 compare -b "$fb"
    expect_err "no candidate command"
    ;;
  crash_is_reported_and_report_kept)
    quick_config
    # The candidate crashes at once; the baseline's run of the same round may already be in.
    run 3 compare --config gate.yaml --json report.json -b "$fb --work 1" -n "$fb --crash --stderr 'about to crash'"
    expect_err "^perfduel: error: candidate run in round 1 \(warm-up\): was killed by signal 11 \(Segmentation fault\)$"
    expect_out '  \| about to crash'
    [ "$(json .verdict)" = "error" ] || fail "report verdict $(json .verdict)"
    [ "$(json .exit_code)" = "3" ] || fail "report exit code"
    ;;
  nonzero_exit_is_reported)
    quick_config
    run 3 compare --config gate.yaml -b "$fb --work 1 --exit 4 --stderr 'disk full'" -n "$fb --work 1"
    expect_err "baseline run in round 1 \(warm-up\): exited with code 4"
    expect_out 'disk full'
    ;;
  hang_times_out)
    quick_config 200 1s
    start=$(date +%s)
    run 3 compare --config gate.yaml -b "$fb --work 1" -n "$fb --hang --tag hang-$$"
    expect_err "timed out after 1.000 s and was killed"
    [ $(( $(date +%s) - start )) -lt 10 ] || fail "timeout took too long"
    pgrep -f "hang-$$" >/dev/null && fail "the hanging benchmark is still running"
    ;;
  missing_metric_is_reported)
    cat >gate.yaml <<YAML
metrics:
  score: {regex: 'points: ([0-9]+)'}
YAML
    run 3 compare --config gate.yaml --json report.json -b "$fb --work 1 --stderr 'a line on stderr'" -n "$fb --work 1"
    expect_err "run in round 1 \(warm-up\): metric \"score\": no match for regex \"points: \(\[0-9\]\+\)\" in the output"
    # The output the regex was applied to, stdout, is shown; not the stderr, and no table of
    # empty results, since no round produced a value.
    expect_out '^stdout of the failing run, which the metrics are read from:$'
    expect_out '^  \| score: 1\.0+$'
    if grep -q 'a line on stderr' out.txt; then fail "stderr shown instead of stdout"; fi
    if grep -qE '^(metric|wall_time|score) ' out.txt; then fail "a table of empty results"; fi
    if grep -q 'needs at least' out.txt; then fail "notes of empty results"; fi
    expect_out '^verdict: ERROR after 0 rounds'
    [ "$(json .error_stdout | grep -c '^score: ')" = "1" ] || fail "JSON error_stdout: $(json .error_stdout)"
    # A JSON pointer that finds nothing shows the JSON it searched (both sides run the same
    # program: measured all the same, or it would be no change without a run).
    cat >gate.yaml <<YAML
identical_programs: measure
min_rounds: 3
warmup: 0
metrics:
  score: {json_pointer: /result/points}
YAML
    run 3 compare --config gate.yaml -b "$fb --work 1 --format json" -n "$fb --work 1 --format json"
    expect_err 'metric "score": the JSON output has nothing at /result/points'
    expect_out '^  \| \{"checksum": [0-9]+, "result": \{"score": 1\.0+\}\}$'
    # Output that is not UTF-8 (a Latin-1 program) reaches the report through the error: the
    # report is still written, the bytes replaced.
    cat >gate.yaml <<'YAML'
warmup: 0
baseline: {command: 'printf "score: 1\351t\351\n"', shell: true}
candidate: {command: 'printf "score: 1\351t\351\n"', shell: true}
metrics:
  score: {regex: 'score: (\S+)'}
YAML
    run 3 compare --config gate.yaml --json report.json
    expect_err 'metric "score": regex "score: \(\\S\+\)" captured "1'
    [ "$(json .verdict)" = "error" ] || fail "no report of a run with non-UTF-8 output"
    [ "$(json .error | sed 's/^baseline run/candidate run/')" = 'candidate run in round 1: metric "score": regex "score: (\S+)" captured "1�t�", which is not a number' ] ||
      fail "report error $(json .error)"
    ;;
  zero_value_is_reported)
    cat >gate.yaml <<YAML
min_rounds: 3
warmup: 0
metrics:
  score: {regex: 'score: ([0-9.]+)'}
YAML
    run 3 compare --config gate.yaml --json report.json -b "$fb --work 1 --score 0" -n "$fb --work 1"
    expect_err 'metric "score": baseline value 0 in round 1; a ratio needs positive values'
    [ "$(json '.runs | length')" -ge 2 ] || fail "finished runs not kept"
    ;;
  zero_readings_use_ratio_of_means)
    # A metric allowed to read 0 (here a parsed score with "zeros: allowed"; built in for
    # user_time) that reads 0 in about one run in ten is estimated as the ratio of means, and
    # every output says so, instead of failing the duel.
    cat >gate.yaml <<YAML
identical_programs: measure
confidence: 99.99%
min_rounds: 10
max_rounds: 400
max_seconds: 60
warmup: 1
metrics:
  score: {regex: 'score: ([0-9.]+)', zeros: allowed, threshold: 40%, tolerance: 20%}
YAML
    args=(compare --config gate.yaml --seed 5 --json report.json -b "$fb --work 0.2 --noise 0.02 --zero-chance 0.1"
          -n "$fb --work 0.2 --noise 0.02 --zero-chance 0.1")
    # No verdict is promised (the budget may run out: 77); a failure (3) or refusal (2) is wrong.
    run_either 0 77 "${args[@]}"
    [ "$(json '.metrics[] | select(.name == "score") | .estimator.name')" = "ratio" ] || fail "estimator not ratio"
    # The counts are a detail (the legend names the estimator): in the JSON and with --verbose.
    json '.notes[]' | grep -qE '^score: [0-9]+ of [0-9]+ baseline and [0-9]+ of [0-9]+ candidate runs read 0, at its resolution: change estimated as the ratio of means' ||
      fail "JSON notes lack the zero counts: $(json '.notes')"
    expect_out '^change, interval: .*\(estimator ratio\) for [^;]*score'
    ;;
  mostly_zero_readings_are_refused)
    # Most runs at 0: the metric is measured below its resolution. Refused (exit 2) within about
    # 20 rounds with a message naming the metric, the counts and the resolution; the report keeps
    # the runs and says exit code 2.
    cat >gate.yaml <<YAML
identical_programs: measure
min_rounds: 10
max_rounds: 400
warmup: 1
metrics:
  score: {regex: 'score: ([0-9.]+)', zeros: allowed, threshold: 40%}
YAML
    run 2 compare --config gate.yaml --seed 6 --json report.json -b "$fb --work 0.2 --zero-chance 0.9" \
        -n "$fb --work 0.2 --zero-chance 0.9"
    expect_err '^perfduel: error: metric "score": [0-9]+ of [0-9]+ baseline and [0-9]+ of [0-9]+ candidate runs read 0: most runs are below its resolution \(a value the program reports'
    [ "$(json .exit_code)" = 2 ] || fail "report exit code $(json .exit_code)"
    [ "$(json .measured_rounds)" -le 40 ] || fail "refused only after $(json .measured_rounds) rounds"
    ;;
  config_errors_name_file_and_line)
    printf 'min_rounds: 10\nwarmup_runs: 3\n' >gate.yaml
    run 2 compare --config gate.yaml -b "$fb" -n "$fb"
    expect_err '^perfduel: error: gate.yaml:2: unknown key "warmup_runs" \(did you mean "warmup"\?\)$'
    printf 'min_rounds: 10\nmetrics: [a, b\n' >gate.yaml
    run 2 compare --config gate.yaml -b "$fb" -n "$fb"
    expect_err '^perfduel: error: gate.yaml:[23]: malformed YAML'
    printf 'order: sideways\n' >gate.yaml
    run 2 compare --config gate.yaml -b "$fb" -n "$fb"
    expect_err '^perfduel: error: gate.yaml:1: "order" must be one of random, abba, duet, duet-fixed, not "sideways"$'
    run 2 compare --config missing.yaml -b "$fb" -n "$fb"
    # A value YAML reads as an indicator: the error says to quote it, where it is.
    printf 'metrics:\n  wall_time: {unit: %%}\n' >gate.yaml
    run 2 compare --config gate.yaml -b "$fb" -n "$fb"
    expect_err '^perfduel: error: gate.yaml:2:21: value starting with "%" must be quoted \(write unit: "%"; YAML reads an unquoted "%" as a directive\)$'
    ;;
  interrupt_kills_children_and_writes_partial_report)
    cat >gate.yaml <<YAML
identical_programs: measure
min_rounds: 100000
max_rounds: 100000
warmup: 0
YAML
    "$PERFDUEL" compare --config gate.yaml --json report.json -b "$fb --work 2 --tag int-$$" -n "$fb --work 2 --tag int-$$" >out.txt 2>err.txt &
    pid=$!
    sleep 3
    kill -INT "$pid"
    wait "$pid"
    code=$?
    [ "$code" -eq 130 ] || fail "exit code $code after SIGINT, expected 130"
    expect_err "interrupted by signal 2; children killed, partial report written to report.json"
    [ "$(json .verdict)" = "interrupted" ] || fail "report verdict $(json .verdict)"
    [ "$(json '.runs | length')" -gt 10 ] || fail "partial report has too few runs"
    sleep 0.2
    pgrep -f "int-$$" >/dev/null && fail "a benchmark process survived"
    ;;
  shell_mode)
    quick_config
    run_either 0 77 compare --config gate.yaml --shell -q -b "$fb --work 1 | cat >/dev/null" -n "$fb --work 1 | cat >/dev/null"
    ;;
  environment_directory_and_pinning)
    # Each side's command fails (exit 3) unless it sees its environment, its working
    # directory and its CPU affinity; the last CPU available is used so the test also
    # shows the pinning is not just the inherited mask.
    mkdir -p side && touch side/marker
    last_cpu=$(( $(nproc) - 1 ))
    cat >gate.yaml <<YAML
min_rounds: 3
max_rounds: 3
inconclusive: pass
cpus: [$last_cpu]
baseline:
  command: 'test "\$PERFDUEL_SIDE" = base && test -f marker && test "\$(awk "/Cpus_allowed_list/ {print \\\$2}" /proc/self/status)" = $last_cpu'
  shell: true
  working_directory: side
  env: {PERFDUEL_SIDE: base}
candidate:
  command: ["sh", "-c", 'test "\$PERFDUEL_SIDE" = cand && test -f marker']
  working_directory: side
  env: {PERFDUEL_SIDE: cand}
YAML
    run 0 compare --config gate.yaml -q
    if [ "$last_cpu" -gt 0 ]; then
      # Pinned elsewhere, the baseline's affinity check must fail.
      run 3 compare --config gate.yaml -q --cpus 0
      expect_err "baseline run in round 1 \\(warm-up\\): exited with code 1"
    fi
    sed -i 's/PERFDUEL_SIDE: cand}/PERFDUEL_SIDE: other}/' gate.yaml
    run 3 compare --config gate.yaml -q
    expect_err "candidate run in round 1 \(warm-up\): exited with code 1"
    run 2 compare --config gate.yaml -q --cpus 4096
    expect_err "^perfduel: error: --cpus: CPU 4096 is not available to this process"
    ;;
  help_lists_exit_codes)
    run 0 --help
    expect_out '77 +inconclusive'
    expect_out '130 +interrupted'
    run 0 compare --help
    expect_out '--baseline'
    ;;
  gated_max_rss_is_the_programs_own)
    # Gated max RSS: runs start through perfduel-exec, so a small program's peak is its own
    # (about 3 MiB for fake_bench) and not perfduel's (6 MiB or more), and 2 MiB more is seen.
    cat >gate.yaml <<YAML
min_rounds: 5
max_rounds: 40
timeout: 2s
metrics:
  wall_time: {threshold: 50%}
  max_rss: {threshold: 5%, gate: true}
YAML
    run 1 compare --config gate.yaml -q --seed 6 --json report.json -b "$fb --work 0.1" -n "$fb --work 0.1 --alloc-mib 2"
    expect_out '^max_rss .* regression$'
    rss=$(json '.metrics[] | select(.name == "max_rss") | .baseline_median')
    awk -v r="$rss" 'BEGIN { m = r / 1048576; exit !(m > 0.5 && m < 4.5) }' || fail "baseline max RSS $rss is not the program's own (~3 MiB)"
    change=$(json '.metrics[] | select(.name == "max_rss") | .change')
    awk -v c="$change" 'BEGIN { exit !(c > 0.4 && c < 1.2) }' || fail "max RSS change $change is not about +2 MiB on ~3 MiB"
    if grep -q "own peak RSS" out.txt; then fail "floor note although runs went through perfduel-exec"; fi
    # A hung run through the stub is killed with its process group, and nothing is left.
    run 3 compare --config gate.yaml -q -b "$fb --work 0.1" -n "$fb --hang --tag stub-hang-$$"
    expect_err 'timed out after 2.000 s and was killed'
    sleep 0.2
    if pgrep -f "stub-hang-$$" >/dev/null; then fail "the hung run survived"; fi
    ;;
  duet_runs_both_sides_together)
    # order: duet releases both runs of a round by one barrier, each pinned to its own CPU of
    # the pair. Each run logs its start (with the CPUs it may use) and, 0.3 s later, its end:
    # every round must log both starts before either end (a start after the other's end would
    # need a 0.3 s stall between two releases of one barrier). After the warm-up round each side
    # runs once alone (the interference check). The gated metric is printed, 1000 and 1001 in
    # turn on each side (not "deterministic", so min_rounds applies; equal on both sides in every
    # round): the verdict, no change after 4 rounds, does not depend on timing.
    [ "$(nproc)" -ge 2 ] || { echo "one CPU: no duet to test"; exit 0; }
    cat >side.sh <<'SH'
cpus=$(awk '/^Cpus_allowed_list/ {print $2}' /proc/self/status)
echo "start $1 $cpus" >>log.txt
sleep 0.3
echo "end $1" >>log.txt
n=$(cat "count.$1" 2>/dev/null || echo 0)
echo $((n + 1)) >"count.$1"
echo "value: $((1000 + n % 2))"
SH
    cat >gate.yaml <<'YAML'
order: duet
min_rounds: 4
max_rounds: 4
metrics:
  wall_time: {gate: false}
  v: {regex: "value: ([0-9]+)", threshold: 5%}
YAML
    run 0 compare --config gate.yaml -q --seed 3 --json report.json -b "sh side.sh b" -n "sh side.sh c"
    [ "$(awk '{printf "%s ", $1}' log.txt)" = "start start end end start end start end $(printf 'start start end end %.0s' 1 2 3 4)" ] ||
      fail "the runs of a round did not overlap: $(cat log.txt)"
    awk '$1 == "start" && $3 !~ /^[0-9]+$/ {exit 1}' log.txt || fail "a run was not pinned to one CPU: $(cat log.txt)"
    grep -v -e '^end' log.txt | sed 3,4d | awk '{n++; cpu[n % 2] = $3; if (n % 2 == 0 && cpu[0] == cpu[1]) exit 1}' ||
      fail "both runs of a round on one CPU: $(cat log.txt)"
    # Four measured rounds: each side had each CPU twice.
    [ "$(json '[.runs[] | select(.warmup | not) | select(.side == "baseline") | .cpu] | group_by(.) | map(length) | join(",")')" = "2,2" ] ||
      fail "assignment not balanced: $(json '[.runs[] | [.round, .side, .cpu]]')"
    json .pinning.reason | grep -q 'one per side (order: duet' || fail "reason: $(json .pinning.reason)"
    run 2 compare --config gate.yaml -q --cpus 0 -b "sh side.sh b" -n "sh side.sh c"
    expect_err 'order: duet needs two CPUs, one per side'
    # A run that hangs is killed at its timeout as in the other orders, and named.
    printf 'order: duet\ntimeout: 1s\n' >hang.yaml
    run 3 compare --config hang.yaml -q --json hang.json -b "$FAKE_BENCH --hang" -n "$FAKE_BENCH"
    expect_err 'baseline run in round 1 \(warm-up\): timed out after 1.000 s'
    [ "$(json .end hang.json)" = "benchmark-failed" ] || fail "end: $(json .end hang.json)"
    ;;
  gbench_counted_per_benchmark)
    # Each benchmark of a real Google Benchmark suite counted under callgrind, per iteration of
    # the framework's first runs of 10^(j-1) and 10^j iterations: the same on every run (a count
    # depends neither on timing nor on the iteration count the framework picks), so that an A/A
    # pair is a certain no-change and 1 % more work in one benchmark a certain regression of that
    # one alone, each after the 3 rounds a deterministic metric needs, whatever the machine's
    # load. BM_Numbered's work per iteration grows with the iteration count: counted the same
    # on every run too. BM_Spin runs two threads: listed as not countable, not gated.
    : "${GBENCH_SUITE:?set GBENCH_SUITE}"
    command -v valgrind >/dev/null || fail "valgrind is not installed (.ci/packages lists it)"
    cat >gate.yaml <<'YAML'
identical_programs: measure
max_seconds: 600
metrics:
  insns: {google_benchmark: "BM_*", valgrind: instructions}
YAML
    # The command's own minimum time (0.01 s) is replaced by the counting one.
    gb="$GBENCH_SUITE --units=100 --threaded --numbered --benchmark_min_time=0.01 --benchmark_filter=^(BM_Hash/(16|256)|BM_Parse/4|BM_Spin.*|BM_Numbered)\$"
    run 0 compare --config gate.yaml --seed 5 --json report.json -b "$gb" -n "$gb"
    [ "$(json '.measured_rounds')" = 3 ] || fail "A/A took $(json '.measured_rounds') rounds, not 3"
    [ "$(json '[.metrics[].name] | sort | join(",")')" = "insns/BM_Hash/16,insns/BM_Hash/256,insns/BM_Numbered,insns/BM_Parse/4" ] ||
      fail "metrics $(json '[.metrics[].name]')"
    [ "$(json '[.metrics[] | select(.verdict != "no-change")] | length')" = 0 ] || fail "A/A verdicts $(json '[.metrics[].verdict]')"
    # Every run's count equal: the same runs of the same program count the same.
    for name in BM_Hash/16 BM_Hash/256 BM_Parse/4 BM_Numbered; do
      spread=$(json "[.runs[] | .values[\"insns/$name\"]] | max / min - 1")
      awk -v s="$spread" 'BEGIN { exit !(s < 1e-12) }' ||
        fail "$name counts differ by $spread: $(json "[.runs[] | .values[\"insns/$name\"]]")"
    done
    json '.benchmarks.uncountable["insns/BM_Spin/threads:2"]' | grep -q '^runs 2 threads, whose timed loops overlap' ||
      fail "BM_Spin not listed as uncountable: $(json '.benchmarks')"
    expect_out 'insns/BM_Spin/threads:2: runs 2 threads, whose timed loops overlap in one count: not countable per iteration: reported, not gated'
    expect_out '^insns/BM_Hash/256 +[0-9.]+ insn/iter +[0-9.]+ insn/iter '
    # 101 units of work instead of 100 in BM_Hash/256 alone: about +1 % of its instructions.
    run 1 compare --config gate.yaml --seed 5 --json report.json -b "$gb" -n "$gb --slow=BM_Hash/256 --slow-units=101"
    [ "$(json '[.metrics[] | select(.verdict == "regression") | .name] | join(",")')" = "insns/BM_Hash/256" ] ||
      fail "regressions $(json '[.metrics[] | select(.verdict == "regression") | .name]')"
    [ "$(json '.measured_rounds')" -le 5 ] || fail "took $(json '.measured_rounds') rounds"
    change=$(json '.metrics[] | select(.name == "insns/BM_Hash/256") | .change')
    awk -v c="$change" 'BEGIN { exit !(c > 0.009 && c < 0.011) }' || fail "BM_Hash/256 change $change"
    # Where: the benchmark's own function does the extra hashing, per iteration of its loop.
    [ "$(json '.explanations[0].functions[0].name')" = "(anonymous namespace)::fnv1a(benchmark::State&, long, int)" ] ||
      fail "explained by $(json '.explanations[0].functions')"
    share=$(json '.explanations[0].functions[0].share')
    awk -v s="$share" 'BEGIN { exit !(s > 0.8) }' || fail "fnv1a's share $share"
    expect_out '^where: insns/BM_Hash/256: \+1\.[0-9]+ % instructions \(\+[0-9,.]+ per iteration\)$'
    ;;
  gbench_threads_get_their_cpus)
    # A suite whose one benchmark runs two threads keeps about one CPU busy over the whole
    # binary; the automatic pinning gives it two CPUs by the benchmark's name (on a machine
    # with two), and an explicit single CPU is reported as starving it. Counts, not times, are
    # asserted: the verdict is left to inconclusive: pass.
    : "${GBENCH_SUITE:?set GBENCH_SUITE}"
    cat >gate.yaml <<'YAML'
identical_programs: measure
min_rounds: 3
max_rounds: 3
inconclusive: pass
metrics:
  wall_time: {gate: false}
  bench: {google_benchmark: "BM_*", threshold: 50%}
YAML
    gb="$GBENCH_SUITE --threaded --benchmark_format=json --benchmark_min_time=0.002 --benchmark_filter=BM_(Spin|Copy/256$)"
    run_either 0 1 compare --config gate.yaml -q --seed 1 --json report.json -b "$gb" -n "$gb"
    [ "$(json '[.metrics[].name] | map(select(startswith("bench/"))) | sort | join(",")')" = \
      "bench/BM_Copy/256,bench/BM_Spin/threads:2" ] || fail "benchmarks: $(json '[.metrics[].name]')"
    if [ "$(nproc)" -ge 2 ]; then
      [ "$(json '.pinning.cpus | length')" = "2" ] || fail "pinned to $(json .pinning.cpus): $(json .pinning.reason)"
      json .pinning.reason | grep -q 'a benchmark runs 2 threads (by its name)' || fail "reason: $(json .pinning.reason)"
    fi
    echo 'cpus: [0]' >>gate.yaml
    run_either 0 1 compare --config gate.yaml -q --seed 1 --verbose -b "$gb" -n "$gb"
    expect_out '^note: bench/BM_Spin/threads:2 runs more threads than the 1 CPU pinned: its times include waiting for a CPU'
    ;;
  gbench_suite_names_the_slower_benchmark)
    # Ten real Google Benchmark benchmarks gated by one pattern; BM_Hash/256 does twice the
    # work on the candidate. The verdict must name it, and only it.
    : "${GBENCH_SUITE:?set GBENCH_SUITE}"
    cat >gate.yaml <<'YAML'
confidence: 99.99%
min_rounds: 8
max_rounds: 150
max_seconds: 90
metrics:
  wall_time: {gate: false}
  bench: {google_benchmark: "BM_*", threshold: 15%, tolerance: 5%}
YAML
    # At 99.99 % family-wise, one of the nine unchanged benchmarks is called a regression
    # with chance ≤ 10⁻⁴ (fact 1); BM_Hash/256 twice as slow is +100 % against a 5 %
    # tolerance (fact 2). Report-only metrics (wall time, user time: the whole binary is
    # really ~2.7 % slower) are information and not asserted on.
    gb="$GBENCH_SUITE --benchmark_format=json --benchmark_min_time=0.002 --benchmark_filter=BM_(Hash|Copy)"
    run 1 compare --config gate.yaml -q --seed 3 --json report.json --markdown report.md --ctest-measurements \
      -b "$gb" -n "$gb --slow=BM_Hash/256 --slow-units=20"
    expect_out 'verdict: REGRESSION .*bench/BM_Hash/256 regressed'
    [ "$(json '[.metrics[] | select(.gated and .verdict == "regression") | .name] | join(",")')" = "bench/BM_Hash/256" ] \
      || fail "gated regressions: $(json '[.metrics[] | select(.gated and .verdict == "regression") | .name]')"
    [ "$(json '[.metrics[] | select(.name | startswith("bench/"))] | length')" = "10" ] || fail "not 10 benchmarks"
    # Changes first in the table, the suite's Markdown folds the rest, CDash names stay plain.
    [ "$(awk '/^metric / { getline; print $1; exit }' out.txt)" = "bench/BM_Hash/256" ] || fail "regression not first"
    grep -q '<details><summary>' report.md || fail "Markdown does not fold unchanged metrics"
    expect_out 'name="bench/BM_Hash/256.change"'
    # The report holds the expanded metrics: analyze re-decides without the pattern's runs.
    run 1 analyze report.json
    expect_out 'bench/BM_Hash/256 +[0-9.]+ µs'
    ;;
  google_benchmark_units_need_no_config)
    # A real Google Benchmark binary, a configuration that names no unit: times print in
    # ns/µs/ms, a user counter as a plain number.
    : "${GBENCH_SAMPLE:?set GBENCH_SAMPLE}"
    cat >gate.yaml <<'YAML'
identical_programs: measure
min_rounds: 3
max_rounds: 4
inconclusive: pass
metrics:
  wall_time: {threshold: 50%, tolerance: 40%}
  bm: {google_benchmark: "BM_*", gate: false}
  widgets: {google_benchmark: BM_sum/1024, field: widgets, gate: false}
YAML
    gb="$GBENCH_SAMPLE --benchmark_format=json --benchmark_min_time=0.001"
    # Time units chosen by magnitude: on a loaded machine a median of 3-4 rounds can reach ms.
    run 0 compare --config gate.yaml -q -b "$gb" -n "$gb"
    expect_out '^bm/BM_sum/1024 +[0-9.]+ (ns|µs|ms) +[0-9.]+ (ns|µs|ms) '
    expect_out '^bm/BM_concat +[0-9.]+ (ns|µs|ms) +[0-9.]+ (ns|µs|ms) '
    expect_out '^widgets +42 +42 '
    if grep -qE '[0-9]e-0[0-9]' out.txt; then fail "raw seconds in the table"; fi
    # Rates as rates (binary prefixes for bytes), counters with decimal prefixes.
    cat >rates.json <<'JSON'
{"benchmarks": [{"name": "BM_io", "run_type": "iteration", "iterations": 1000, "real_time": 38.476,
  "cpu_time": 38.0, "time_unit": "ns", "bytes_per_second": 498500000, "items_per_second": 12345678,
  "pages": 3200000000}]}
JSON
    cat >gate.yaml <<'YAML'
min_rounds: 3
metrics:
  wall_time: {gate: false}
  io: {google_benchmark: BM_io}
  bytes: {google_benchmark: BM_io, field: bytes_per_second, gate: false}
  items: {google_benchmark: BM_io, field: items_per_second, gate: false}
  pages: {google_benchmark: BM_io, field: pages, gate: false}
YAML
    run 0 compare --config gate.yaml -q --shell -b "cat rates.json" -n "cat rates.json"
    expect_out '^io +38\.5 ns +38\.5 ns '
    expect_out '^bytes +475\.4 MiB/s +475\.4 MiB/s '
    expect_out '^items +12\.35 M items/s +12\.35 M items/s '
    expect_out '^pages +3\.2 G +3\.2 G '
    ;;
  gbench_suite_new_and_removed_benchmarks)
    : "${GBENCH_SUITE:?set GBENCH_SUITE}"
    cat >gate.yaml <<'YAML'
confidence: 99.99%
min_rounds: 6
max_rounds: 6
metrics:
  wall_time: {gate: false}
  hash: {google_benchmark: "BM_Hash/*", threshold: 50%}
YAML
    # A/A on the benchmarks both sides run: a regression (exit 1) has chance ≤ 10⁻⁴ (fact 1).
    gb="$GBENCH_SUITE --benchmark_format=json --benchmark_min_time=0.001"
    # --verbose: every note, whatever else a loaded machine adds to the five shown by default.
    run_either 0 77 compare --config gate.yaml -q --verbose --seed 1 --json report.json \
      -b "$gb --benchmark_filter=BM_Hash/(16|64|256)\$" -n "$gb --benchmark_filter=BM_Hash/(64|256|1024)\$"
    expect_out 'note: hash/BM_Hash/1024: new benchmark, only in the candidate \(not compared\)'
    expect_out 'note: hash/BM_Hash/16: removed benchmark, only in the baseline \(not compared\)'
    [ "$(json '.benchmarks.new | join(",")')" = "hash/BM_Hash/1024" ] || fail "JSON new: $(json .benchmarks)"
    [ "$(json '.benchmarks.removed | join(",")')" = "hash/BM_Hash/16" ] || fail "JSON removed: $(json .benchmarks)"
    run_either 0 77 analyze report.json --verbose
    expect_out 'note: hash/BM_Hash/16: removed benchmark'
    # With missing: error the suites must match.
    sed -i 's/threshold: 50%}/threshold: 50%, missing: error}/' gate.yaml
    run 3 compare --config gate.yaml -q --seed 1 \
      -b "$gb --benchmark_filter=BM_Hash/(16|64|256)\$" -n "$gb --benchmark_filter=BM_Hash/(64|256|1024)\$"
    expect_err 'benchmark "BM_Hash/16" runs only in the baseline \(the pattern says missing: error\)'
    ;;
  catch2_benchmarks_are_gated)
    # A real Catch2 v2 test binary, its XML reporter read; "sort 512" twice as slow on the
    # candidate must fail the gate by name, identical binaries must not.
    : "${CATCH2_BENCH:?set CATCH2_BENCH}"
    # order: duet (with two CPUs): the two sides of a round run at once, each on its own CPU,
    # which this test has to itself anyway (RUN_SERIAL): half the time (103 s -> 50 s on the
    # 2-CPU VM), the same verdicts (the duet's interval is corrected for what the sides share,
    # docs/how-it-decides.md).
    order=random  # the default
    [ "$(nproc)" -lt 2 ] || order=duet
    # explain: off: profiling the failing benchmark (one counted run of the binary a side, 8 s
    # of this test's time alone) runs the command whose profiles cli.catch2_counted_per_benchmark
    # asserts, and cli.timed_regression_is_explained asserts the way from a timed failure to it.
    cat >gate.yaml <<YAML
order: $order
confidence: 99.99%
min_rounds: 8
max_rounds: 40
max_seconds: 150
explain: off
metrics:
  wall_time: {gate: false}
  sorts: {catch2: "sort*", threshold: 50%, tolerance: 25%}
YAML
    # The two unchanged benchmarks are called regressions with chance ≤ 10⁻⁴ (fact 1), so
    # the headline names sort 512 alone; twice as slow (+100 %, four times the tolerance), it
    # is decided by round 20, or by the final interval if the budget ends first (fact 2): its
    # sequence's lower bound was +45 % to +78 % at round 20 in three seeds.
    # A 25 % tolerance: the microsecond benchmarks' runs vary by 30-60 % (bimodal, the layout
    # of each process), so at round 20 an unchanged one's mean is off by about 10 % (one
    # standard error): worse than a 5 % tolerance with chance about 0.3 each, and then the duel
    # goes on looking for more regressions (docs/how-it-decides.md; 30 rounds and 72 s instead
    # of 20 and 48 s, seen in a suite run); worse than 25 % with chance about 0.015 each.
    # Each run takes ~1.7 s (Catch2 measures its clock first), and the confidence sequence
    # that ends a duel on one regression needs 20 rounds; on a loaded machine the budget may
    # end the duel first, with the same regression named.
    cb="$CATCH2_BENCH -r xml [!benchmark] --benchmark-samples 5 --benchmark-resamples 10 --benchmark-warmup-time 0"
    run 1 compare --config gate.yaml -q --seed 2 --json report.json -b "$cb" -n "$cb '--slow=sort 512' --slow-units=20"
    expect_out 'verdict: REGRESSION .*(sorts/sort 512 regressed|regressed: sorts/sort 512;)'
    [ "$(json '[.metrics[] | select(.name | startswith("sorts/")) | .name] | sort | join(",")')" = \
      "sorts/sort 512,sorts/sort 64,sorts/sort 64 <advanced>" ] || fail "metrics: $(json '[.metrics[].name]')"
    [ "$(json '.metrics[] | select(.name == "sorts/sort 64") | .unit')" = "s" ] || fail "unit"
    ;;
  catch2_counted_per_benchmark)
    # Each BENCHMARK of a real Catch2 v2 test binary counted per call under callgrind, from one
    # run of the binary: the difference of its last two sizing stretches (K and K/2 calls), in
    # which each stretch's own instructions and the first calls' cold work cancel, so every
    # run gives the same count whatever the timing. 1 % more work in "sort 512" is a certain
    # regression of that one alone, the unchanged three a certain no-change, in 3 rounds.
    : "${CATCH2_BENCH:?set CATCH2_BENCH}"
    command -v valgrind >/dev/null || fail "valgrind is not installed (.ci/packages lists it)"
    # order: duet (with two CPUs): the two sides of a round run at once (a count does not
    # depend on contention), half the time.
    order=random
    [ "$(nproc)" -lt 2 ] || order=duet
    cat >gate.yaml <<YAML
identical_programs: measure
order: $order
max_seconds: 600
metrics:
  wall_time: {gate: false}  # reported: plain runs beside the counted ones
  insns: {catch2: "*", valgrind: instructions}
YAML
    # The command's warm-up and samples are replaced by the counted run's own (Catch2 rejects an
    # option given twice).
    cb="$CATCH2_BENCH -r xml [!benchmark] --units=100 --benchmark-warmup-time 10 --benchmark-samples 5"
    # 101 units of work instead of 100 in "sort 512" alone: about +1 % of its instructions. One
    # duel holds both: the other three are the A/A pairs (each run's count the same).
    run 1 compare --config gate.yaml --seed 5 --json report.json -b "$cb" -n "$cb '--slow=sort 512' --slow-units=101"
    [ "$(json '.measured_rounds')" = 3 ] || fail "took $(json '.measured_rounds') rounds, not 3"
    [ "$(json '[.metrics[].name | select(startswith("insns/"))] | sort | join(",")')" = \
      "insns/fnv1a 256,insns/sort 512,insns/sort 64,insns/sort 64 <advanced>" ] || fail "metrics $(json '[.metrics[].name]')"
    [ "$(json '[.metrics[] | select(.verdict == "regression") | .name] | join(",")')" = "insns/sort 512" ] ||
      fail "regressions $(json '[.metrics[] | select(.verdict == "regression") | .name]')"
    [ "$(json '[.metrics[] | select(.name | startswith("insns/")) | select(.verdict == "no-change")] | length')" = 3 ] ||
      fail "verdicts $(json '[.metrics[].verdict]')"
    for name in "sort 64" "sort 64 <advanced>" "fnv1a 256"; do
      [ "$(json "[.runs[] | .values[\"insns/$name\"]] | unique | length")" = 1 ] ||
        fail "$name counts differ: $(json "[.runs[] | .values[\"insns/$name\"]]")"
    done
    expect_out '^insns/sort 512 +[0-9.]+ insn/iter +[0-9.]+ insn/iter '
    change=$(json '.metrics[] | select(.name == "insns/sort 512") | .change')
    awk -v c="$change" 'BEGIN { exit !(c > 0.009 && c < 0.011) }' || fail "sort 512 change $change"
    # Where: one more call of std::sort per call of sort_work, each costing what it did, so the
    # instructions ran in std::sort's parts and sort_work carries the change with what it calls.
    [ "$(json '[.explanations[].metric] | join(",")')" = "insns/sort 512" ] || fail "explained $(json '[.explanations[].metric]')"
    [ "$(json '.explanations[0].culprit.name')" = "(anonymous namespace)::sort_work(std::vector<unsigned int, std::allocator<unsigned int> >&, int)" ] ||
      fail "culprit $(json '.explanations[0].culprit')"
    expect_out '^ +100 %  \(anonymous namespace\)::sort_work\(\.\.\.\) with what it calls$'
    ;;
  catch2_output_must_be_xml)
    : "${CATCH2_BENCH:?set CATCH2_BENCH}"
    cat >gate.yaml <<'YAML'
identical_programs: measure
metrics:
  sorts: {catch2: "*"}
YAML
    # Catch2's console output: each side's warm-up run (about 2 s: Catch2 measures its clock
    # first), then the error.
    cb="$CATCH2_BENCH [!benchmark] --benchmark-samples 2 --benchmark-no-analysis --benchmark-warmup-time 0"
    run 3 compare --config gate.yaml -q -b "$cb" -n "$cb"
    expect_err "the output is not Catch2's XML .*run the test binary with -r xml"
    ;;
  skip_if_marker_exists)
    # --skip-if: with the marker, nothing runs (not even a missing program is noticed), the
    # reason is printed and written to the Markdown report, and an old JSON report goes.
    echo "the baseline commit has no target \"spin\"" >no-baseline
    echo '{"stale": true}' >report.json
    run 77 compare --skip-if no-baseline --json report.json --markdown report.md -b /no/such/program -n "$fb --work 1"
    expect_err '^perfduel: skipped: the baseline commit has no target "spin"$'
    [ ! -e report.json ] || fail "the stale JSON report was kept"
    grep -q '^### perfduel: skipped$' report.md || fail "Markdown report lacks the heading"
    grep -q 'has no target "spin"' report.md || fail "Markdown report lacks the reason"
    # Without the marker the duel runs as usual.
    rm no-baseline
    quick_config
    run_either 0 77 compare --skip-if no-baseline --config gate.yaml --seed 5 -b "$fb --work 2" -n "$fb --work 2"
    expect_out 'verdict: (NO-CHANGE|INCONCLUSIVE)'
    ;;
  env_padding_varies)
    # Every run gets PERFDUEL_PAD of a seeded random length (0..4095) on both sides; the
    # runs report its length + 1 as a metric (a metric must be positive).
    cat >gate.yaml <<YAML
warmup: 0
min_rounds: 15
max_rounds: 15
inconclusive: pass
metrics:
  # Only the number of runs matters here: a tolerance of 1000 % leaves an A/A pair no way to
  # be called a regression (it failed 2 runs in 20 under load at tolerance 0, exit 1).
  wall_time: {threshold: 1000%, tolerance: 1000%}
  pad: {regex: 'pad=([0-9]+)', gate: false}
YAML
    pad_cmd='echo pad=$(( ${#PERFDUEL_PAD} + 1 ))'
    run 0 compare --config gate.yaml --shell -q --seed 7 --json report.json -b "$pad_cmd" -n "$pad_cmd"
    for side in baseline candidate; do
      distinct=$(json "[.runs[] | select(.side == \"$side\") | .values.pad] | unique | length")
      [ "$distinct" -ge 10 ] || fail "$side: only $distinct distinct PERFDUEL_PAD lengths in 15 runs"
    done
    longest=$(json '[.runs[].values.pad] | max')
    [ "$longest" -le 4096 ] || fail "PERFDUEL_PAD is $((longest - 1)) bytes, expected at most 4095"
    [ "$(json .config.env_padding)" = "true" ] || fail "the report does not record env_padding"
    # The same seed, the same lengths.
    json '[.runs[].values.pad]' >first.txt
    run 0 compare --config gate.yaml --shell -q --seed 7 --json report.json -b "$pad_cmd" -n "$pad_cmd"
    json '[.runs[].values.pad]' | diff -q first.txt - >/dev/null || fail "seed 7 gave other PERFDUEL_PAD lengths"
    # An inherited PERFDUEL_PAD is replaced, not doubled.
    PERFDUEL_PAD=inherited run 0 compare --config gate.yaml --shell -q --seed 7 --json report.json -b "$pad_cmd" -n "$pad_cmd"
    json '[.runs[].values.pad]' | diff -q first.txt - >/dev/null || fail "an inherited PERFDUEL_PAD changed the lengths"
    # env_padding: false: no variable (the inherited one, if any, is left alone).
    echo 'env_padding: false' >>gate.yaml
    run 0 compare --config gate.yaml --shell -q --json report.json -b "$pad_cmd" -n "$pad_cmd"
    [ "$(json '[.runs[].values.pad] | unique')" = "$(printf '[\n  1\n]')" ] || fail "PERFDUEL_PAD set although env_padding is false"
    sed -i 's/^env_padding: false/env_padding: maybe/' gate.yaml
    run 2 compare --config gate.yaml --shell -q -b "$pad_cmd" -n "$pad_cmd"
    expect_err 'env_padding'
    ;;
  summary_of_reports)
    # Four gates as add_perf_gate leaves them in one directory: a regression, an improvement,
    # an inconclusive duel and a skip note.
    quick_config
    mkdir reports empty
    run 1 compare --config gate.yaml --seed 2 -q --json reports/a_slower.json -b "$fb --work 4" -n "$fb --work 8"
    run 0 compare --config gate.yaml --seed 3 -q --json reports/b_faster.json -b "$fb --work 8" -n "$fb --work 4"
    cat >tiny.yaml <<YAML
identical_programs: measure
min_rounds: 3
max_rounds: 3
# An A/A pair that must stay undecided in 3 rounds: the width rule at 99.99 % (fact 1; the
# asymptotic confidence sequence is not meant for so few rounds: see min_rounds in
# templates/perfduel.yaml).
stopping: width
confidence: 99.99%
metrics:
  wall_time: {threshold: 0.01%}
YAML
    run 77 compare --config tiny.yaml -q --json reports/c_unsure.json -b "$fb --work 1 --noise 0.2" -n "$fb --work 1 --noise 0.2"
    echo 'the baseline commit has no target "d"' >marker
    run 77 compare --skip-if marker --json reports/d_new.json --markdown reports/d_new.md -b "$fb" -n "$fb"
    printf '# not a skip note\n' >reports/notes.md
    printf 'stale\n' >"summary.md"
    run 1 summary reports --markdown summary.md
    expect_out '^gate +verdict +metric +change +interval +rounds +time$'
    # The interval lies above the tolerance; or, for a regression its sign sequence settled
    # before the interval showed it, the rounds beyond the threshold are shown instead.
    expect_out '^a_slower +regression +wall_time +\+[0-9.]+ % +(\[\+[0-9.]+ %, \+[0-9.]+ %\]|sign test: [0-9]+ of [0-9]+ rounds > \+[0-9.]+ %) +[0-9]+ +[0-9.]+ (ms|s)$'
    expect_out '^b_faster +improvement +wall_time +-[0-9.]+ %'
    expect_out '^c_unsure +inconclusive +wall_time .* 3 +'
    expect_out '^d_new +skipped +- +- +- +- +-$'
    expect_out '^c_unsure: inconclusive: the round budget \(max_rounds\) ran out'
    expect_out '^d_new: skipped: the baseline commit has no target "d"$'
    expect_out '^perf gates: 1 regression, 1 inconclusive, 1 skipped, 1 improvement \(4 in all\)$'
    [ "$(grep -c . out.txt)" -eq 8 ] || fail "expected 8 lines (header, 4 gates, 2 reasons, count)"
    head -1 summary.md | grep -q '^stale$' || fail "--markdown did not append"
    grep -Eq '^\| a_slower \| \*\*regression\*\* \| wall_time \| \+[0-9.]+ % \| (\[\+[0-9.]+ %, \+[0-9.]+ %\]|sign test: [0-9]+ of [0-9]+ rounds &gt; \+[0-9.]+ %) \| [0-9]+ \| ' summary.md || fail "Markdown row of a_slower"
    grep -q '^- d_new: skipped: the baseline commit has no target "d"$' summary.md || fail "Markdown reason of d_new"
    # The worst gate decides: 77 without a failure, 0 when all passed.
    run 77 summary reports/b_faster.json reports/c_unsure.json
    run 77 summary reports/d_new.md
    run 0 summary reports/b_faster.json
    expect_out '^perf gates: 1 improvement \(1 in all\)$'
    # Unreadable input: exit 2, the file named.
    run 2 summary nothere.json
    expect_err '^perfduel: error: nothere.json: no such file or directory$'
    run 2 summary empty
    expect_err '^perfduel: error: empty: no perfduel report in this directory \(did `ctest -L perf` run any gate\?\)$'
    echo '{"verdict": 1}' >reports/broken.json
    run 2 summary reports
    expect_err '^perfduel: error: reports/broken.json: not a perfduel report \(expected the JSON written by compare --json\)$'
    run 2 summary
    ;;
  valgrind_instructions_decide_in_a_few_rounds)
    # Instructions counted by Valgrind are the same on every run, so 1 % more work is a certain
    # regression and an A/A pair a certain no-change, each after the 3 rounds a deterministic
    # metric needs, whatever the machine's load. Wall time is not gated, so no plain runs.
    command -v valgrind >/dev/null || fail "valgrind is not installed (.ci/packages lists it)"
    cat >gate.yaml <<YAML
max_seconds: 100
metrics:
  insns: {valgrind: instructions, threshold: 1%}
  est_cycles: {valgrind: cycles, gate: false}
YAML
    run 1 compare --config gate.yaml --seed 3 --json report.json -b "$fb --work 0.3" -n "$fb --work 0.303"
    expect_out 'verdict: REGRESSION after 3 rounds'
    json '.notes[]' | grep -q 'insns: every run of each side within 0.01 % of the others: deterministic, so 3 rounds sufficed' ||
      fail "JSON notes lack the deterministic shortcut: $(json '.notes')"
    [ "$(json '[.metrics[].name] | join(",")')" = "insns,est_cycles" ] || fail "metrics $(json '[.metrics[].name]')"
    [ "$(json '.metrics[0].verdict')" = "regression" ] || fail "insns verdict $(json '.metrics[0].verdict')"
    change=$(json '.metrics[0].change')
    awk -v c="$change" 'BEGIN { exit !(c > 0.003 && c < 0.01) }' || fail "instructions change $change"
    # Every run of a side counted the same, and the program's own output stayed its own.
    [ "$(json '[.runs[] | select(.side == "baseline") | .values.insns] | unique | length')" = 1 ] ||
      fail "baseline counts differ: $(json '[.runs[] | select(.side == "baseline") | .values.insns]')"
    # Where: the one function whose work grew carries the change, in the table's output, the
    # JSON report, a re-rendering of it by analyze, and its Markdown. Its share is 99.3-99.7 %
    # (shown as 99 % or 100 %): the rest, 100-250 instructions, is the C library's string
    # functions reading "0.303" instead of "0.3" at another alignment, which moves with the
    # length of the checkout's path.
    expect_out '^where: insns: \+0\.[0-9]+ % instructions \(\+[0-9,]+ per run\)$'
    expect_out '^ +(99|100) %  \(anonymous namespace\)::burn\(double\)'
    [ "$(json '.explanations[0].functions[0].name')" = "(anonymous namespace)::burn(double)" ] ||
      fail "explained by $(json '.explanations[0].functions')"
    [ "$(json '.explanations[0].reading')" = explained ] || fail "reading $(json '.explanations[0].reading')"
    share=$(json '.explanations[0].functions[0].share')
    awk -v s="$share" 'BEGIN { exit !(s > 0.99 && s < 1.01) }' || fail "burn's share $share"
    run 1 analyze report.json --markdown where.md
    expect_out '^ +(99|100) %  \(anonymous namespace\)::burn\(double\)'
    grep -q '^<details><summary>Where: 1 regressed metric by function</summary>' where.md || fail "no where in the Markdown"
    grep -Eq '\| (99|100) % \| `\(anonymous namespace\)::burn\(double\)` \|' where.md || fail "burn not in the Markdown's where"
    est=$(json '.metrics[1].baseline_median')
    insns=$(json '.metrics[0].baseline_median')
    awk -v e="$est" -v i="$insns" 'BEGIN { exit !(e > i) }' || fail "estimated cycles $est not above instructions $insns"
    # History takes the new metrics like any other.
    for commit in c1 c2 c3; do
      run 0 record --db h.sqlite --commit $commit --branch main report.json
    done
    expect_out 'recorded #3 in h.sqlite: 2 metrics'
    run 0 trend --db h.sqlite --metric insns --branch main
    expect_out 'insns'
    # A/A, through a shell with a pipe: --trace-children counts every process, the same each time.
    cat >gate.yaml <<YAML
metrics:
  insns: {valgrind: instructions}
YAML
    run 0 compare --config gate.yaml --seed 4 --json report.json --shell -b "$fb --work 0.3 | cat" -n "$fb --work 0.3 | cat"
    expect_out 'verdict: NO-CHANGE after 3 rounds'
    [ "$(json '.metrics[0].change')" = 0 ] || fail "A/A change $(json '.metrics[0].change')"
    ;;
  counted_metric_errors)
    # A hardware counter where there is no PMU is a configuration error before any run, naming
    # the file, the metric and the way out; a machine with a PMU counts for real instead.
    cat >gate.yaml <<YAML
identical_programs: measure
metrics:
  insns: {counter: instructions}
YAML
    "$PERFDUEL" compare --config gate.yaml --seed 1 --json report.json -b "$fb --work 0.2" -n "$fb --work 0.2" >out.txt 2>err.txt
    code=$?
    if [ "$code" -eq 2 ]; then
      grep -qE '^perfduel: error: gate.yaml: metric "insns": hardware counter "instructions" is not available here: perf_event_open: .+; use valgrind: instructions instead$' err.txt ||
        fail "unclear hardware counter error"
      [ ! -e report.json ] || fail "a report was written although nothing ran"
    else
      [ "$code" -eq 0 ] || [ "$code" -eq 77 ] || fail "exit code $code with a working PMU"
      awk -v c="$(json '.metrics[] | select(.name == "insns") | .baseline_median')" 'BEGIN { exit !(c > 1e6) }' ||
        fail "the counter counted too little"
    fi
    # Without valgrind on PATH, a valgrind metric says how to get it.
    cat >gate.yaml <<YAML
metrics:
  insns: {valgrind: instructions}
YAML
    PATH=/nonexistent run 2 compare --config gate.yaml -b "$fb" -n "$fb"
    expect_err '^perfduel: error: gate.yaml: metric "insns": valgrind is not on PATH \(install it: apt-get install valgrind'
    ;;
  usage_on_stdout_is_shown)
    # A benchmark given arguments it does not expect prints its usage on stdout and exits 1,
    # saying nothing on stderr: its words must reach the terminal and the JSON report. No
    # timing: the first run fails.
    quick_config
    usage="sh -c 'echo \"usage: bench [--size N] [--seed S]\"; echo \"unknown argument: --frobnicate\"; exit 1'"
    run 3 compare --config gate.yaml --json report.json -b "$usage" -n "$fb --work 1"
    expect_err 'baseline run in round 1 \(warm-up\): exited with code 1'
    expect_out '^stdout of the failing run \(last lines\):$'
    expect_out '^  \| usage: bench \[--size N\] \[--seed S\]$'
    expect_out '^  \| unknown argument: --frobnicate$'
    json .error_stdout | grep -q 'usage: bench' || fail "JSON error_stdout: $(json .error_stdout)"
    # With both: stderr first, then stdout, each labelled.
    both="sh -c 'echo \"printed on stdout\"; echo \"printed on stderr\" >&2; exit 2'"
    run 3 compare --config gate.yaml -b "$fb --work 1" -n "$both"
    diff <(grep -A3 '^stderr of the failing run' out.txt) - <<'TEXT' || fail "stderr and stdout tails not labelled in order"
stderr of the failing run (last lines):
  | printed on stderr
stdout of the failing run (last lines):
  | printed on stdout
TEXT
    ;;
  suite_output_for_people)
    # 13 gated benchmarks (17 metrics with the built-ins): by default the table, its legend,
    # the verdict line and at most five note lines, whatever the verdict; --verbose shows every
    # note. What is counted here does not depend on timing: any verdict (0, 1 or 77) passes.
    [ -n "${GBENCH_SUITE:-}" ] || { echo "no gbench_suite (libbenchmark-dev)"; exit 0; }
    cat >gate.yaml <<YAML
identical_programs: measure
max_rounds: 25
max_seconds: 60
metrics:
  bench: {google_benchmark: "*", field: real_time, threshold: 10%, tolerance: 5%}
YAML
    suite="$GBENCH_SUITE --benchmark_format=json --benchmark_min_time=0.002 --benchmark_filter=BM_(Sort|Hash|Parse/(4|16|64)\$)"
    "$PERFDUEL" compare --config gate.yaml --seed 5 --json report.json -b "$suite" -n "$suite" >out.txt 2>err.txt
    code=$?
    case $code in 0 | 1 | 77) ;; *) fail "exit code $code" ;; esac
    [ "$(json '.metrics | length')" = 17 ] || fail "$(json '.metrics | length') metrics, expected 17"
    notes=$(grep -c '^note: ' out.txt)
    [ "$notes" -le 5 ] || fail "$notes note lines by default, expected at most 5"
    # Every line is a table row, a legend line, a note or the verdict.
    # (A max_rss below the driver's own peak is a note, not a row.)
    rows=$(( $(json '[.metrics[] | select(.at_driver_floor != true)] | length') + 1 ))
    legend=$(grep -cE '^(baseline, candidate: |change, interval|interval: )' out.txt)
    [ "$(wc -l <out.txt)" -eq $((rows + legend + notes + 1)) ] || fail "lines other than table, legend, notes and verdict"
    # (All 14 may pass at the uncorrected level: then only that level is named.)
    grep -qE '^interval: (99\.[0-9]+ % confidence for each gated metric \(Bonferroni over 14|9[0-9.]+ % for the (14|[0-9]+) (shown inside their band|settled by their confidence sequence))' out.txt ||
      fail "the legend lacks the intervals' level"
    # Nothing is lost: --verbose (here through analyze of the same report) shows every note of the JSON.
    "$PERFDUEL" analyze report.json --verbose >verbose.txt 2>/dev/null
    all=$(json '.notes | length')
    [ "$(grep -c '^note: ' verbose.txt)" -ge "$all" ] || fail "--verbose shows $(grep -c '^note: ' verbose.txt) notes, the JSON has $all"
    ;;
  shard_splits_gates_with_their_fixtures)
    # Five gates registered as add_perf_gate registers them (each followed by its .baseline
    # fixture, so that `ctest -I K,,2` would give one runner every gate and the other only
    # fixtures), run by real CTest: every gate runs in exactly one of 2 and of 3 shards, each
    # with its fixture, and no fixture runs without its gate. No timing.
    mkdir suite
    for gate in alpha beta gamma delta epsilon; do
      cat >>suite/CTestTestfile.cmake <<CMAKE
add_test(perf.$gate sh -c "echo ran perf.$gate >>ran.log")
set_tests_properties(perf.$gate PROPERTIES LABELS "perf" FIXTURES_REQUIRED "perf.$gate.baseline")
add_test(perf.$gate.baseline sh -c "echo ran perf.$gate.baseline >>ran.log")
set_tests_properties(perf.$gate.baseline PROPERTIES LABELS "perf;perf-baseline" FIXTURES_SETUP "perf.$gate.baseline")
CMAKE
    done
    echo 'add_test(unit.other true)' >>suite/CTestTestfile.cmake
    for count in 2 3; do
      rm -f suite/ran.log
      for ((k = 1; k <= count; ++k)); do
        ctest --test-dir suite -N -L perf --show-only=json-v1 | "$PERFDUEL" shard "$k/$count" >regex.txt 2>err.txt ||
          fail "shard $k/$count failed"
        expect_err "^perfduel: shard $k/$count: [0-9] of 5 gates"
        [ -s regex.txt ] || continue
        ctest --test-dir suite -L perf -R "$(cat regex.txt)" >out.txt 2>&1 || fail "ctest of shard $k/$count failed"
      done
      for gate in alpha beta gamma delta epsilon; do
        [ "$(grep -cx "ran perf.$gate" suite/ran.log)" = 1 ] || fail "$count shards ran perf.$gate $(grep -cx "ran perf.$gate" suite/ran.log) times"
        [ "$(grep -cx "ran perf.$gate.baseline" suite/ran.log)" = 1 ] || fail "$count shards ran perf.$gate.baseline other than once"
      done
      [ "$(wc -l <suite/ran.log)" = 10 ] || fail "$count shards ran $(wc -l <suite/ran.log) tests, expected 10"
    done
    # A shard without a gate prints nothing; bad input names what was wrong.
    echo '{"tests": []}' | "$PERFDUEL" shard 1/2 >regex.txt 2>err.txt || fail "an empty suite is an error"
    [ ! -s regex.txt ] || fail "a regex for no gate"
    run 2 shard 3/2 </dev/null
    expect_err '^perfduel: error: shard: "3/2" is not a shard'
    echo 'Test project /x' | "$PERFDUEL" shard 1/2 >out.txt 2>err.txt && fail "text accepted as JSON"
    expect_err 'standard input: the input is not JSON'
    ;;
  calibrate_fits_the_noisy_benchmark)
    # A suite of one noisy benchmark (fake_bench's printed score, log-normal with σ 0.3 per run,
    # so a log-ratio σ of 0.42 per round: no timing in it) and a quiet metric (the iterations
    # it prints, always 1). Calibration loosens the noisy one's 5 % for a budget of 40 rounds,
    # keeps the quiet one, and writes an entry that overrides the pattern; the merged file parses
    # and the A/A duel takes the entry's threshold and settles. Probabilities: at 5 % the noisy
    # metric needs hundreds of rounds, so its 30-round σ would have to be 4× too low (χ²₂₉ < 1.9,
    # p < 10⁻¹²) for calibration to keep it, or its 10-round σ as low (χ²₉ < 0.6, p ≈ 10⁻⁵) for
    # the early note to stay away. The merged duel's budget is 400 rounds, 20 times the rounds
    # the proposed threshold needs at the median, which only a 30-round σ √20 too low
    # (χ²₂₉ < 1.5, p < 10⁻¹²) could exhaust; at 99.99 % it calls a regression or improvement
    # with chance ≤ 10⁻⁴ (fact 1).
    cat >gate.yaml <<YAML
identical_programs: measure
confidence: 99.99%
min_rounds: 10
max_rounds: 40
max_seconds: 60
warmup: 1
metrics:
  wall_time: {gate: false}
  quiet: {regex: '"iterations": ([0-9]+)', threshold: 5%, tolerance: 3%}
  suite: {google_benchmark: "*", field: score, threshold: 5%, tolerance: 3%}
YAML
    cmd="$fb --format gbench --noise 0.3 --work 0.05"
    run 0 calibrate --config gate.yaml -n "$cmd" --rounds 30 --out fragment.yaml --seed 1 -q
    expect_out '^calibration from 30 rounds of .* against itself \(.* per round\); budget about 40 rounds, thresholds aimed at 20$'
    expect_out '^suite/BM_Work +[0-9.]+ % +5 % +~[0-9]+ +[0-9.]+ % +[0-9.]+ % +~[0-9]+$'
    expect_out '^quiet +0 % +5 % +~10 +kept +3 % +~10$'
    expect_out '^fragment: fragment.yaml \(paste under "metrics:"\)$'
    grep -qE '^  "suite/BM_Work": \{google_benchmark: "BM_Work", field: score, estimator: trimmed, threshold: [0-9.]+%, tolerance: [0-9.]+%\}  # σ ' fragment.yaml ||
      fail "fragment lacks the override: $(cat fragment.yaml)"
    grep -qE '^  # quiet: kept at 5 %' fragment.yaml || fail "fragment lacks the kept metric: $(cat fragment.yaml)"
    threshold=$(sed -nE 's/^  "suite\/BM_Work".*threshold: ([0-9.]+)%.*/\1/p' fragment.yaml)
    # The configured 5 % cannot settle in 40 rounds: the duel says so early (at min_rounds), not at its end.
    run_either 0 77 compare --config gate.yaml -b "$cmd" -n "$cmd" --json report.json -q
    expect_out '^note: noise: a gated metric cannot settle within the budget \(about [0-9]+ rounds\) at the rate so far: suite/BM_Work \(σ [0-9.]+ % per round\) needs (~[0-9]+|more than a million) rounds at 5 %; [0-9.]+ % would settle it in ~[0-9]+; `perfduel calibrate` writes thresholds that fit$'
    json '.notes[]' | grep -q '^noise: a gated metric cannot settle' || fail "the JSON report lacks the note"
    # The same from the report's rounds, without running anything.
    run 0 calibrate --from-report report.json
    expect_out '^calibration from [0-9]+ rounds of report.json'
    expect_out '^  "suite/BM_Work": \{google_benchmark'
    # From the report's rounds for another gate (--config): its budget and its thresholds, the
    # pattern's by the report's benchmarks.
    sed 's/^max_rounds: 40$/max_rounds: 400/; s/^max_seconds: 60$/max_seconds: 6000/; s/field: score, threshold: 5%/field: score, threshold: 50%/' gate.yaml >wide.yaml
    run 0 calibrate --from-report report.json --config wide.yaml
    expect_out '^calibration from [0-9]+ rounds of report.json .*; budget about 400 rounds'
    expect_out '^suite/BM_Work +[0-9.]+ % +50 % +~[0-9]+ '
    run 2 calibrate --from-report report.json -n "$cmd"
    expect_err 'perfduel: error: --from-report takes the reports. runs: leave out --command'
    # Merged under metrics: (the file's last key), it parses, and the duel takes the entry.
    sed 's/^max_rounds: 40$/max_rounds: 400/' gate.yaml >merged.yaml && cat fragment.yaml >>merged.yaml
    run 0 compare --config merged.yaml -b "$cmd" -n "$cmd" --json merged.json -q
    [ "$(json '.metrics[] | select(.name == "suite/BM_Work") | .threshold * 100 | round' merged.json)" = "$(printf '%.0f' "$threshold")" ] ||
      fail "the duel's threshold is not the fragment's $threshold %"
    [ "$(json '.metrics[] | select(.name == "suite/BM_Work") | .verdict' merged.json)" = no-change ] || fail "not settled"
    # The same from the history: the two duels recorded, their candidate runs side by side (at
    # least 5 pairs each, so ≥ 10 differences of σ 0.42: 4× too low has p < 10⁻⁵ again).
    run 0 record --db h.sqlite report.json
    run 0 record --db h.sqlite merged.json
    run 0 calibrate --config gate.yaml --db h.sqlite
    expect_out "^calibration from [0-9]+ pairs of the candidate's runs in the last 2 records in h.sqlite"
    expect_out '^suite/BM_Work +[0-9.]+ % +5 % +~[0-9]+ +[0-9.]+ % +[0-9.]+ % +~[0-9]+$'
    expect_out '^  "suite/BM_Work": \{google_benchmark: "BM_Work", field: score, estimator: trimmed, threshold'
    run 2 calibrate --config gate.yaml --db h.sqlite --branch nowhere
    expect_err 'h.sqlite: no record of branch nowhere holds runs of a gated metric of gate.yaml'
    run 2 calibrate --db h.sqlite
    expect_err 'give the gate.s --config'
    ;;
  binary_size_names_the_grown_symbol)
    # The program's code and data, read from its file: a 4 KiB table added to the program fails
    # a 1 % gate after the 3 rounds a count needs and names the table, and nothing runs (the
    # size_app programs print a line when run; no run, no output). A copy of the same program
    # reads +0 B. No timing: nothing is measured but the files.
    : "${SIZE_APP:?set SIZE_APP}" "${SIZE_APP_TABLE:?set SIZE_APP_TABLE}"
    cat >gate.yaml <<YAML
metrics:
  binary_size: {threshold: 1%}
YAML
    run 1 compare --config gate.yaml --seed 1 --json report.json -b "$SIZE_APP" -n "$SIZE_APP_TABLE"
    expect_out 'verdict: REGRESSION after 3 rounds'
    expect_out '^note: binary_size: \+[0-9]+ B: grew most: size_app_table \(\+4096 B, new\)'
    [ "$(json '[.metrics[].name] | join(",")')" = binary_size ] || fail "metrics $(json '[.metrics[].name]')"
    [ "$(json '.metrics[0].unit')" = B ] || fail "unit $(json '.metrics[0].unit')"
    [ "$(json '.metrics[0].verdict')" = regression ] || fail "verdict $(json '.metrics[0].verdict')"
    json '.duel_notes[]' | grep -q 'grew most: size_app_table (+4096 B, new)' || fail "JSON: $(json '.duel_notes')"
    growth=$(json '(.runs[] | select(.side == "candidate") | .values.binary_size) - (.runs[] | select(.side == "baseline") | .values.binary_size)' | sort -u)
    [ "$growth" -ge 4096 ] && [ "$growth" -le 4352 ] || fail "grew by $growth bytes"
    mkdir copy && cp "$SIZE_APP" copy/size_app
    echo 'identical_programs: measure' >>gate.yaml
    run 0 compare --config gate.yaml --seed 1 --json same.json -b "$SIZE_APP" -n copy/size_app
    expect_out 'verdict: NO-CHANGE after 3 rounds'
    [ "$(json '.metrics[0].change' same.json)" = 0 ] || fail "a copy changed by $(json '.metrics[0].change' same.json)"
    ;;
  heap_counts_a_whole_program)
    # A whole program's heap, counted natively by the preloaded allocation counter: heap_app
    # (tests/programs/heap_app.cpp, libc only) holds 100 blocks of 120 bytes at once, so its
    # counts are known by hand: 100 allocations, 12000 bytes, a peak heap of 12000 bytes. One
    # allocation more (--extra, +1 %) fails allocs and bytes, not peak, in 3 rounds; the same program
    # with an argument that changes nothing passes in 3. No timing: counts only. Each run spins
    # 50 ms (--work), so that the duel judges every round (duel.cpp analyses a run of a
    # millisecond only while its analysis costs under 2 % of the runs: a few rounds late).
    : "${HEAP_APP:?set HEAP_APP}"
    cat >gate.yaml <<YAML
identical_programs: measure
metrics:
  allocs: {heap: allocations}
  bytes: {heap: allocated_bytes}
  peak: {heap: peak}
YAML
    run 0 compare --config gate.yaml --seed 1 --json same.json -b "$HEAP_APP --blocks 100 --work 50" \
      -n "$HEAP_APP --blocks 100 --work 50 --label reworded"
    expect_out 'verdict: NO-CHANGE after 3 rounds'
    for side in baseline candidate; do
      counts=$(json "[.runs[] | select(.side == \"$side\") | \"\(.values.allocs) \(.values.bytes) \(.values.peak)\"] | unique | join(\",\")" same.json)
      [ "$counts" = "100 12000 12000" ] || fail "$side read $counts, not 100 allocations, 12000 B, peak 12000 B"
    done
    [ "$(json '.metrics[] | select(.name == "allocs") | .unit' same.json)" = allocs ] || fail "unit $(json '.metrics' same.json)"
    run 1 compare --config gate.yaml --seed 1 --json more.json -b "$HEAP_APP --blocks 100 --work 50" \
      -n "$HEAP_APP --blocks 100 --work 50 --extra"
    expect_out 'verdict: REGRESSION after 3 rounds'
    expect_out '^allocs +100 allocs +101 allocs +\+1\.00 % .* regression$'
    [ "$(json '[.metrics[] | select(.verdict == "regression") | .name] | join(",")' more.json)" = allocs,bytes ] ||
      fail "regressed: $(json '[.metrics[] | {name, verdict}]' more.json)"
    [ "$(json '.metrics[] | select(.name == "peak") | .verdict' more.json)" = no-change ] || fail "peak changed"
    ;;
  gbench_allocations_per_benchmark)
    # Allocations and the bytes they ask for, per iteration of each benchmark's timed loop, in
    # the unmodified binary (tests/programs/alloc_bench.cpp): the counts agree with the hand
    # counts of its header; one allocation of 16 bytes more in checksum() fails exactly the two
    # benchmarks that call it, and a reworded message passes, each in 3 rounds. Counted: no
    # timing (the 0.2 s minimum time under callgrind is what a round costs).
    command -v valgrind >/dev/null || fail "valgrind is not installed (.ci/packages lists it)"
    : "${ALLOC_BENCH:?set ALLOC_BENCH}"
    cat >gate.yaml <<YAML
max_seconds: 400
metrics:
  allocs: {google_benchmark: "BM_*", valgrind: allocations}
  bytes: {google_benchmark: "BM_*", valgrind: allocated_bytes}
YAML
    run 0 compare --config gate.yaml --seed 1 --json same.json -b "$ALLOC_BENCH" -n "$ALLOC_BENCH --reworded"
    expect_out 'verdict: NO-CHANGE after 3 rounds'
    value() { json ".metrics[] | select(.name == \"$1\") | .$2" "$3"; }
    for expected in allocs/BM_PushBack=8 bytes/BM_PushBack=1020 allocs/BM_PushBackReserve=1 \
                    bytes/BM_PushBackReserve=400 allocs/BM_String=1 bytes/BM_String=101 allocs/BM_Checksum=1 \
                    bytes/BM_Checksum=64 allocs/BM_Label=1 bytes/BM_Label=41; do
      name=${expected%=*} count=${expected#*=}
      [ "$(value "$name" baseline_median same.json)" = "$count" ] ||
        fail "$name: $(value "$name" baseline_median same.json), counted by hand $count"
      [ "$(value "$name" candidate_median same.json)" = "$count" ] || fail "$name (reworded): $(value "$name" candidate_median same.json)"
    done
    [ "$(value allocs/BM_PushBack unit same.json)" = allocs/iter ] || fail "unit $(value allocs/BM_PushBack unit same.json)"
    [ "$(value bytes/BM_PushBack unit same.json)" = B/iter ] || fail "unit $(value bytes/BM_PushBack unit same.json)"
    # BM_Arithmetic allocates nothing on either side: set aside, not gated, said so.
    json '.benchmarks.uncountable | keys | join(",")' same.json | grep -qx 'allocs/BM_Arithmetic,bytes/BM_Arithmetic' ||
      fail "set aside: $(json '.benchmarks.uncountable' same.json)"
    run 1 compare --config gate.yaml --seed 1 --json extra.json -b "$ALLOC_BENCH" -n "$ALLOC_BENCH --extra"
    expect_out 'verdict: REGRESSION after 3 rounds'
    regressed=$(json '[.metrics[] | select(.verdict == "regression") | .name] | sort | join(",")' extra.json)
    [ "$regressed" = "allocs/BM_Checksum,allocs/BM_Label,bytes/BM_Checksum,bytes/BM_Label" ] || fail "regressed: $regressed"
    [ "$(value allocs/BM_Label candidate_median extra.json)" = 2 ] || fail "BM_Label --extra: $(value allocs/BM_Label candidate_median extra.json)"
    [ "$(value bytes/BM_Label candidate_median extra.json)" = 57 ] || fail "BM_Label --extra: $(value bytes/BM_Label candidate_median extra.json) B"
    ;;
  catch2_allocations_per_benchmark)
    # Allocations per call of each BENCHMARK of the Catch2 v2 binary, from the counted run's
    # sizing stretches (tests/programs/catch2_bench.cpp): with --scratch each unit of work
    # allocates 64 bytes, so a call of 10 units makes 10 allocations of 640 bytes in all; one
    # allocation of 16 bytes more in sort_work's unit (--extra-in=sort) fails exactly the three
    # sort benchmarks, in 3 rounds. Counted: no timing.
    : "${CATCH2_BENCH:?set CATCH2_BENCH}"
    command -v valgrind >/dev/null || fail "valgrind is not installed (.ci/packages lists it)"
    cat >gate.yaml <<YAML
max_seconds: 600
metrics:
  allocs: {catch2: "*", valgrind: allocations}
  bytes: {catch2: "*", valgrind: allocated_bytes}
YAML
    cb="$CATCH2_BENCH -r xml [!benchmark] --scratch"
    run 1 compare --config gate.yaml --seed 5 --json report.json -b "$cb" -n "$cb --extra-in=sort"
    expect_out 'verdict: REGRESSION after 3 rounds'
    value() { json ".metrics[] | select(.name == \"$1\") | .$2"; }
    for name in "sort 64" "sort 512" "sort 64 <advanced>" "fnv1a 256"; do
      [ "$(value "allocs/$name" baseline_median)" = 10 ] || fail "allocs/$name: $(value "allocs/$name" baseline_median), by hand 10"
      [ "$(value "bytes/$name" baseline_median)" = 640 ] || fail "bytes/$name: $(value "bytes/$name" baseline_median), by hand 640"
    done
    [ "$(value "allocs/sort 512" candidate_median)" = 20 ] || fail "sort 512 --extra-in=sort: $(value "allocs/sort 512" candidate_median)"
    [ "$(value "bytes/sort 512" candidate_median)" = 800 ] || fail "sort 512 --extra-in=sort: $(value "bytes/sort 512" candidate_median) B"
    regressed=$(json '[.metrics[] | select(.verdict == "regression") | .name] | sort | join(",")')
    [ "$regressed" = "allocs/sort 512,allocs/sort 64,allocs/sort 64 <advanced>,bytes/sort 512,bytes/sort 64,bytes/sort 64 <advanced>" ] ||
      fail "regressed: $regressed"
    ;;
  *)
    fail "unknown test $1"
    ;;
esac
echo "ok: $1"
