#!/usr/bin/env bash
# Time to a verdict on real programs (results in docs/performance.md).
#
# Runs `perfduel compare` with no config but the stopping rule (wall time gated at 2 %, the
# defaults) on four real program pairs, under each stopping rule, and tabulates verdict,
# rounds and seconds:
#   (a) gzip -1 against gzip -9 on 2 MB of text: a large regression (about 3x)
#   (b) gzip -6 against itself: A/A
#   (c) fake_bench doing 5 % more work: a small real regression
#   (d) fake_bench doing 20 % more work
#   (e) a Google Benchmark suite against itself (tests/programs/gbench_suite: 20 benchmarks, one
#       YAML entry `{google_benchmark: "*", field: real_time, threshold: 5%, tolerance: 3%}`,
#       max_seconds 180; --benchmark_min_time=0.05, about 2 s a run): A/A of a suite
#   (f) the same suite with BM_Hash/256 10 % slower (11 units of work instead of 10)
#   (g) a Catch2 binary (tests/programs/catch2_bench with Catch2's default benchmark settings:
#       about 4 s a run here) with "sort 512" 30 % slower, gated `{catch2: "sort*", threshold: 5%}`
# Case (c) runs SEEDS seeds under the default rule (is it found every time?); the rest one seed.
# Side by side, in the same run on the same machine, what a user would otherwise do:
# hyperfine with its defaults on both commands (time taken; whether mean ± σ separate),
# and A-then-B: N runs of A, then N of B, Welch's interval on the logs.
# The true ratio of (c) and (d) is measured first with interleaved runs (TRUE_RUNS each).
# Not a CTest test: the numbers depend on the machine.
#
# Usage: tools/bench/time_to_verdict.sh [BUILD_DIR]       (default BUILD_DIR: build)
# Environment: SEEDS (10), TRUE_RUNS (300), AB_RUNS (30), RULES ("hybrid width anytime"),
# CASES ("a b c d e f g"; the true ratios and the hyperfine / A-then-B part are for a–d)
set -euo pipefail

build=${1:-build}
seeds=${SEEDS:-10}
true_runs=${TRUE_RUNS:-300}
ab_runs=${AB_RUNS:-30}
rules=${RULES:-hybrid width anytime}
cases=${CASES:-a b c d e f g}
perfduel=$build/tools/perfduel/perfduel
fake=$build/tests/programs/fake_bench
suite=$build/tests/programs/gbench_suite
catch2=$build/tests/programs/catch2_bench

for program in "$perfduel" "$fake" "$suite" "$catch2"; do
  [[ -x $program ]] || { echo "time_to_verdict.sh: $program not built (cmake --build $build)" >&2; exit 2; }
done
for tool in gzip hyperfine jq awk; do
  command -v "$tool" >/dev/null || { echo "time_to_verdict.sh: $tool not found (apt-get install -y $tool)" >&2; exit 2; }
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
seq 1 300000 >"$tmp/seq.txt"

# fake_bench --work W burns W million loop iterations; ~10 ms per run here.
work=${WORK:-6}
work5=$(awk -v w="$work" 'BEGIN { printf "%.4g", w * 1.05 }')
work20=$(awk -v w="$work" 'BEGIN { printf "%.4g", w * 1.20 }')

declare -A base cand
base[a]="gzip -1 -c $tmp/seq.txt";  cand[a]="gzip -9 -c $tmp/seq.txt"
base[b]="gzip -6 -c $tmp/seq.txt";  cand[b]="gzip -6 -c $tmp/seq.txt"
base[c]="$fake --work $work";       cand[c]="$fake --work $work5"
base[d]="$fake --work $work";       cand[d]="$fake --work $work20"
base[e]="$suite --benchmark_format=json --benchmark_min_time=0.05"; cand[e]="${base[e]}"
base[f]="${base[e]}";                cand[f]="${base[e]} --slow=BM_Hash/256"
base[g]="$catch2 -r xml [!benchmark]"
cand[g]="${base[g]} '--slow=sort 512' --slow-units=13"
declare -A title=([a]="(a) gzip -1 vs gzip -9" [b]="(b) A/A gzip -6" [c]="(c) +5 % work" [d]="(d) +20 % work"
  [e]="(e) A/A suite" [f]="(f) suite, one benchmark +10 %" [g]="(g) Catch2, sort 512 +30 %")
# The metrics of each case beyond the defaults (wall time gated at 2 %).
declare -A metrics=(
  [e]=$'max_seconds: 180\nmetrics:\n  wall_time: {gate: false}\n  bench: {google_benchmark: "*", field: real_time, threshold: 5%, tolerance: 3%}'
  [g]=$'metrics:\n  wall_time: {gate: false}\n  sorts: {catch2: "sort*", threshold: 5%}')
metrics[f]=${metrics[e]}
# is_case X: whether case X was asked for (CASES).
is_case() { [[ " $cases " == *" $1 "* ]]; }

# now: seconds since the epoch with fractions.
now() { date +%s.%N; }

# One run's wall seconds (the program's output discarded).
time_once() {
  local start end
  start=$(now)
  $1 >/dev/null
  end=$(now)
  awk -v s="$start" -v e="$end" 'BEGIN { printf "%.6f\n", e - s }'
}

# Welch's 95 % interval of mean(ln b) − mean(ln a) from two files of run times, as a ratio:
# prints "ratio lo hi".
welch_ratio() {
  awk 'FNR == 1 { f++ } { x = log($1); n[f]++; s[f] += x; q[f] += x * x }
       END {
         for (i = 1; i <= 2; i++) { m[i] = s[i] / n[i]; v[i] = (q[i] - n[i] * m[i] * m[i]) / (n[i] - 1) }
         d = m[2] - m[1]; se = sqrt(v[1] / n[1] + v[2] / n[2])
         printf "%.4f %.4f %.4f\n", exp(d) - 1, exp(d - 1.96 * se) - 1, exp(d + 1.96 * se) - 1
       }' "$1" "$2"
}

echo "# Time to a verdict, $(date -u +%Y-%m-%d), $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg)"
echo
echo "## True ratios of (c) and (d): $true_runs interleaved runs per side"
echo
echo "| pair | mean ratio | 95 % interval |"
echo "|---|---|---|"
for c in c d; do
  is_case "$c" || continue
  : >"$tmp/ta" && : >"$tmp/tb"
  for ((i = 0; i < true_runs; i++)); do
    time_once "${base[$c]}" >>"$tmp/ta"
    time_once "${cand[$c]}" >>"$tmp/tb"
  done
  read -r ratio lo hi < <(welch_ratio "$tmp/ta" "$tmp/tb")
  awk -v t="${title[$c]}" -v r="$ratio" -v l="$lo" -v h="$hi" \
    'BEGIN { printf "| %s | %+.2f %% | [%+.2f %%, %+.2f %%] |\n", t, 100 * r, 100 * l, 100 * h }'
done

echo
echo "## perfduel compare (defaults: wall time gated at 2 %, 2,000 rounds / 9 min budget)"
echo
echo "| case | stopping | seed | verdict | rounds | seconds | change | interval | settled by |"
echo "|---|---|---|---|---:|---:|---:|---|---|"
for c in $cases; do
  for rule in $rules; do
    # identical_programs: measure: its A/A cases time the statistics, not the fingerprints.
    printf 'stopping: %s\nidentical_programs: measure\n%s\n' "$rule" "${metrics[$c]:-}" >"$tmp/gate.yaml"
    n=1
    [[ $c == c && $rule == hybrid ]] && n=$seeds
    for ((seed = 1; seed <= n; seed++)); do
      set +e
      "$perfduel" compare -q --config "$tmp/gate.yaml" --seed "$seed" --json "$tmp/r.json" \
        -b "${base[$c]}" -n "${cand[$c]}" >/dev/null 2>"$tmp/err.txt"
      code=$?
      set -e
      if [[ ! -s $tmp/r.json ]]; then
        echo "| ${title[$c]} | $rule | $seed | exit $code: $(head -c 200 "$tmp/err.txt") | | | | | |"
        continue
      fi
      if [[ -n ${metrics[$c]:-} ]]; then
        # A suite: how many gated benchmarks settled, which regressed, and the widest change.
        jq -r --arg t "${title[$c]}" --arg rule "$rule" --arg seed "$seed" '
          [.metrics[] | select(.gated)] as $g
          | ([$g[] | select(.settled_by != null)] | length) as $settled
          | ([$g[] | select(.verdict == "regression") | .name] | join(", ")) as $regressed
          | "| \($t) | \($rule) | \($seed) | \(.verdict) | \(.measured_rounds) | \(.elapsed_seconds * 10 | round / 10) | "
            + "\($settled) of \($g | length) settled | "
            + (if $regressed == "" then "none regressed" else "regressed: \($regressed)" end) + " | "
            + ([$g[] | .settled_by // empty] | group_by(.) | map("\(length) \(.[0])") | join(", ")) + " |"' "$tmp/r.json"
        rm -f "$tmp/r.json"
        continue
      fi
      jq -r --arg t "${title[$c]}" --arg rule "$rule" --arg seed "$seed" '
        (.metrics[] | select(.name == "wall_time")) as $m
        | "| \($t) | \($rule) | \($seed) | \(.verdict) | \($m.rounds) | \(.elapsed_seconds * 10 | round / 10) | "
          + (if $m.change == null then "n/a" else "\($m.change * 1000 | round / 10) %" end) + " | "
          + (if $m.ci == null then "n/a" else "[\($m.ci[0] * 1000 | round / 10), \($m.ci[1] * 1000 | round / 10)] %" end)
          + " | \($m.settled_by // "-") |"' "$tmp/r.json"
      rm -f "$tmp/r.json"
    done
  done
done

echo
echo "## What a user would otherwise do"
echo
echo "hyperfine with its defaults (at least 10 runs and 3 s per command, no shell); \"separates\" when"
echo "the two means differ by more than the sum of their σ. A-then-B: $ab_runs runs of A, then $ab_runs of"
echo "B, Welch's 95 % interval on the logs."
echo
echo "| case | hyperfine seconds | hyperfine ratio of means | hyperfine separates | A-then-B seconds | A-then-B change | A-then-B interval | A-then-B says |"
echo "|---|---:|---:|---|---:|---:|---|---|"
for c in a b c d; do
  is_case "$c" || continue
  start=$(now)
  hyperfine -N --style none --export-json "$tmp/h.json" "${base[$c]}" "${cand[$c]}" >/dev/null 2>&1
  hseconds=$(awk -v s="$start" -v e="$(now)" 'BEGIN { printf "%.1f", e - s }')
  read -r hratio hsep < <(jq -r '.results as $r
    | "\(($r[1].mean / $r[0].mean - 1) * 1000 | round / 10) \(if (($r[1].mean - $r[0].mean) | fabs) > ($r[0].stddev + $r[1].stddev) then "yes" else "no" end)"' "$tmp/h.json")
  : >"$tmp/ta" && : >"$tmp/tb"
  start=$(now)
  for ((i = 0; i < ab_runs; i++)); do time_once "${base[$c]}" >>"$tmp/ta"; done
  for ((i = 0; i < ab_runs; i++)); do time_once "${cand[$c]}" >>"$tmp/tb"; done
  abseconds=$(awk -v s="$start" -v e="$(now)" 'BEGIN { printf "%.1f", e - s }')
  read -r ratio lo hi < <(welch_ratio "$tmp/ta" "$tmp/tb")
  says=$(awk -v l="$lo" -v h="$hi" 'BEGIN { print (l > 0 ? "slower" : h < 0 ? "faster" : "no difference shown") }')
  awk -v t="${title[$c]}" -v hs="$hseconds" -v hr="$hratio" -v hp="$hsep" -v as="$abseconds" -v r="$ratio" \
    -v l="$lo" -v h="$hi" -v says="$says" \
    'BEGIN { printf "| %s | %s | %+.1f %% | %s | %s | %+.2f %% | [%+.2f %%, %+.2f %%] | %s |\n", t, hs, hr, hp, as, 100 * r, 100 * l, 100 * h, says }'
done
