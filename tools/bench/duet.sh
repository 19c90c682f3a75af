#!/usr/bin/env bash
# Order duet against the default sequential interleaving (order: random), side by side in one
# run on this machine (results in docs/performance.md, "Duet"):
#   gzip_aa   gzip -6 against itself on 2 MB of text: A/A
#   gzip_3x   gzip -1 against gzip -9: about 3x
#   suite_aa  the 20-benchmark Google Benchmark suite (tests/programs/gbench_suite) against
#             itself, one pattern `{google_benchmark: "*", field: real_time, threshold: 5%,
#             tolerance: 3%}`, max_seconds MAX_SUITE_SECONDS
#   cpu_10    fake_bench --work 6 against --work 6.6: CPU-bound, +10 % of the loop
#   mem_10    stream_bench --passes 400 against 440 over 64 MiB: memory-bound, +10 % of the passes
# each idle and under a competing load (one `gzip -9` loop, not pinned). Per duel: verdict,
# rounds, seconds, the change, and σ of the per-round log-ratio of wall time, for a duet with
# the CPUs' difference taken out as the analysis takes it out (for the suite the median over
# its benchmarks). The true ratios of cpu_10 and mem_10 are measured first,
# sequentially (order: random), over TRUE_ROUNDS rounds each, idle. Then duet-fixed on gzip_aa
# shows the bias that the balanced assignment removes, and AA_SEEDS A/A duets with three gated
# metrics (three suite benchmarks) count duet's false alarms.
# Not a CTest test: the numbers depend on the machine.
#
# Usage: tools/bench/duet.sh [BUILD_DIR]       (default BUILD_DIR: build)
# Environment: CASES ("gzip_aa gzip_3x suite_aa cpu_10 mem_10"), LOADS ("idle load"),
# ORDERS ("random duet"), TRUE_ROUNDS (100), AA_SEEDS (40; 0 skips), MAX_SUITE_SECONDS (180)
set -euo pipefail

build=${1:-build}
cases=${CASES:-gzip_aa gzip_3x suite_aa cpu_10 mem_10}
loads=${LOADS:-idle load}
orders=${ORDERS:-random duet}
true_rounds=${TRUE_ROUNDS:-100}
aa_seeds=${AA_SEEDS:-40}
suite_seconds=${MAX_SUITE_SECONDS:-180}
perfduel=$build/tools/perfduel/perfduel
fake=$build/tests/programs/fake_bench
suite=$build/tests/programs/gbench_suite
stream=$build/tests/programs/stream_bench

for program in "$perfduel" "$fake" "$suite" "$stream"; do
  [[ -x $program ]] || { echo "duet.sh: $program not built (cmake --build $build)" >&2; exit 2; }
done
for tool in gzip jq awk; do
  command -v "$tool" >/dev/null || { echo "duet.sh: $tool not found (apt-get install -y $tool)" >&2; exit 2; }
done

tmp=$(mktemp -d)
load_pid=
stop_load() {
  if [[ -n $load_pid ]]; then
    kill "$load_pid" 2>/dev/null || true
    wait "$load_pid" 2>/dev/null || true
    load_pid=
  fi
}
trap 'stop_load; rm -rf "$tmp"' EXIT
seq 1 300000 >"$tmp/seq.txt"
head -c 30000000 /dev/zero | tr '\0' 'a' | fold -w 64 | nl >"$tmp/load.txt"

declare -A base cand yaml
base[gzip_aa]="gzip -6 -c $tmp/seq.txt";  cand[gzip_aa]=${base[gzip_aa]}
base[gzip_3x]="gzip -1 -c $tmp/seq.txt";  cand[gzip_3x]="gzip -9 -c $tmp/seq.txt"
base[suite_aa]="$suite --benchmark_format=json --benchmark_min_time=0.05"; cand[suite_aa]=${base[suite_aa]}
base[cpu_10]="$fake --work 6";            cand[cpu_10]="$fake --work 6.6"
base[mem_10]="$stream --mib 64 --passes 400"; cand[mem_10]="$stream --mib 64 --passes 440"
# The A/A cases are measured: identical programs would otherwise be no change at once.
for c in gzip_aa gzip_3x cpu_10 mem_10; do yaml[$c]=$'identical_programs: measure\nmax_seconds: 180'; done
yaml[suite_aa]=$'identical_programs: measure\nmax_seconds: '"$suite_seconds"$'\nmetrics:\n  wall_time: {gate: false}\n  bench: {google_benchmark: "*", field: real_time, threshold: 5%, tolerance: 3%}'

# sigma REPORT METRIC: σ of the per-round log-ratio of METRIC over the measured rounds.
sigma() {
  jq -r --arg m "$2" '
    [.runs[] | select(.warmup | not)] | group_by(.round) | map(select(length == 2))
    | map((map(select(.side == "candidate"))[0].values[$m] / map(select(.side == "baseline"))[0].values[$m]) | log)
    | (add / length) as $mu | (map((. - $mu) * (. - $mu)) | add / (length - 1)) | sqrt' "$1"
}
# corrected_sigma REPORT METRIC: for a duet, σ of the log-ratios of METRIC once the CPUs'
# difference is taken out (the residuals of their regression on the assignment, as the
# analysis does); for the other orders the same as sigma.
corrected_sigma() {
  jq -r --arg m "$2" '
    [.runs[] | select(.warmup | not)] | group_by(.round) | map(select(length == 2))
    | map({b: map(select(.side == "baseline"))[0], c: map(select(.side == "candidate"))[0]})
    | map({d: ((.c.values[$m] / .b.values[$m]) | log), s: (if .c.cpu == null then 0 elif .c.cpu > .b.cpu then 1 else -1 end)})
    | length as $n | (map(.d) | add / $n) as $md | (map(.s) | add / $n) as $ms
    | (map((.s - $ms) * (.s - $ms)) | add) as $sxx
    | (if $sxx > 0 then (map((.s - $ms) * (.d - $md)) | add) / $sxx else 0 end) as $e
    | (map((.d - $md - $e * (.s - $ms)) | . * .) | add / ($n - (if $sxx > 0 then 2 else 1 end))) | sqrt' "$1"
}
# suite_sigma REPORT: the median σ over the suite's benchmarks.
suite_sigma() {
  local m
  for m in $(jq -r '.metrics[].name | select(startswith("bench/"))' "$1"); do corrected_sigma "$1" "$m"; done |
    sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}

# duel CASE ORDER SEED EXTRA_YAML: runs one duel; prints "verdict rounds seconds change sigma".
duel() {
  local c=$1 order=$2 seed=$3 extra=${4:-}
  printf '%s\n%s\n' "${yaml[$c]}" "$extra" >"$tmp/gate.yaml"
  "$perfduel" compare -q --config "$tmp/gate.yaml" --order "$order" --seed "$seed" --json "$tmp/r.json" \
    -b "${base[$c]}" -n "${cand[$c]}" >/dev/null 2>"$tmp/err.txt" || true
  local s change
  if [[ $c == suite_aa ]]; then
    s=$(suite_sigma "$tmp/r.json")
    change=$(jq -r '[.metrics[] | select(.name | startswith("bench/")) | .change | fabs] | max' "$tmp/r.json")
  else
    s=$(corrected_sigma "$tmp/r.json" wall_time)
    change=$(jq -r '.metrics[] | select(.name == "wall_time") | .change' "$tmp/r.json")
  fi
  jq -r --arg s "$s" --arg c "$change" \
    '"\(.verdict) \(.measured_rounds) \(.elapsed_seconds * 10 | round / 10) \($c | tonumber * 10000 | round / 100) \($s | tonumber * 10000 | round / 100)"' \
    "$tmp/r.json"
}

start_load() {
  ( while :; do gzip -9 -c "$tmp/load.txt" >/dev/null; done ) &
  load_pid=$!
  sleep 2
}

declare -A truth
echo "## True ratios (sequential, order: random, $true_rounds rounds, idle)"
for c in cpu_10 mem_10; do
  [[ " $cases " == *" $c "* ]] || continue
  result=$(duel "$c" random 1 $'stopping: width\nmin_rounds: '"$true_rounds"$'\nmax_rounds: '"$true_rounds"$'\nmetrics:\n  wall_time: {threshold: 0.01%}')
  truth[$c]=$(awk '{ print $4 }' <<<"$result")
  echo "$c: $result   (verdict rounds seconds change% sigma%)"
done

echo
echo "| case | load | order | verdict | rounds | seconds | change | σ of the log-ratio | error vs true |"
echo "|---|---|---|---|---:|---:|---:|---:|---:|"
for load in $loads; do
  [[ $load == load ]] && start_load
  for c in $cases; do
    for order in $orders; do
      read -r verdict rounds seconds change s < <(duel "$c" "$order" 1)
      error=
      [[ -n ${truth[$c]:-} ]] && error=$(awk -v a="$change" -v b="${truth[$c]}" 'BEGIN { printf "%+.2f pp", a - b }')
      echo "| $c | $load | $order | $verdict | $rounds | $seconds | ${change} % | ${s} % | $error |"
    done
  done
  stop_load
done

echo
echo "## Does the assignment matter? gzip_aa, idle"
for order in duet duet-fixed; do
  read -r verdict rounds seconds change s < <(duel gzip_aa "$order" 1)
  effect=$(jq -r '.metrics[] | select(.name == "wall_time") | .cpu_effect // empty | "\(.change * 10000 | round / 100) % [\(.ci[0] * 10000 | round / 100), \(.ci[1] * 10000 | round / 100)]"' "$tmp/r.json")
  echo "$order: $verdict after $rounds rounds, change $change %, CPU effect ${effect:-n/a}"
done

if ((aa_seeds > 0)); then
  echo
  echo "## A/A false alarms, order: duet, three gated suite benchmarks, $aa_seeds seeds"
  base[three]="$suite --benchmark_format=json --benchmark_min_time=0.01 --benchmark_filter=BM_(Sort/64|Hash/256|Copy/4096)\$"
  cand[three]=${base[three]}
  yaml[three]=$'identical_programs: measure\nmax_seconds: 120\nmetrics:\n  wall_time: {gate: false}\n  bench: {google_benchmark: "*", field: real_time, threshold: 5%, tolerance: 3%}'
  declare -A verdicts
  rounds_total=0
  for ((seed = 1; seed <= aa_seeds; ++seed)); do
    printf '%s\n' "${yaml[three]}" >"$tmp/gate.yaml"
    "$perfduel" compare -q --config "$tmp/gate.yaml" --order duet --seed "$seed" --json "$tmp/r.json" \
      -b "${base[three]}" -n "${cand[three]}" >/dev/null 2>&1 || true
    v=$(jq -r .verdict "$tmp/r.json")
    verdicts[$v]=$((${verdicts[$v]:-0} + 1))
    rounds_total=$((rounds_total + $(jq -r .measured_rounds "$tmp/r.json")))
  done
  for v in "${!verdicts[@]}"; do echo "$v: ${verdicts[$v]} of $aa_seeds"; done
  echo "mean rounds: $(awk -v t="$rounds_total" -v n="$aa_seeds" 'BEGIN { printf "%.1f", t / n }')"
fi
