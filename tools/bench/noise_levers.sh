#!/usr/bin/env bash
# Measures what each noise lever does to a Google Benchmark suite's noise per round, with
# `perfduel calibrate` (an A/A duel of the program against itself), as docs/performance.md
# reports it:
#
#   tools/bench/noise_levers.sh [--rounds N] [--levers "base reps ..."] PERFDUEL BENCHMARK [OUT_DIR]
#
# The levers (each a different way to run the same benchmarks; their σ are comparable):
#   base      the whole binary per run, --benchmark_min_time=0.05 (one measurement per benchmark)
#   duet      as base, the two sides of a round at once, each on a CPU of its own (order: duet)
#   long      the whole binary per run, --benchmark_min_time=0.2 (4x the time per run)
#   reps      the whole binary per run, 3 repetitions of 0.02 s; perfduel takes their median
#   reps-best as reps, and perfduel takes the fastest repetition (`repetitions: best`: noise
#             that only ever slows a run)
#   duet-reps-best  reps-best with order: duet
#   filter    each benchmark's own process (--benchmark_filter=^NAME$), so the two sides of a
#             benchmark run back to back, seconds apart, instead of a whole binary apart
# Each lever runs N rounds (default 20). Prints, per benchmark, σ of one round's log-ratio under
# each lever, each lever's seconds per round (for `filter`: the sum over the benchmarks'
# processes), and each lever's time to settle the suite: the slowest benchmark's rounds to
# settle a ±5 % threshold (tolerance 3 %) times the seconds per round. The calibrations' own
# tables stay in OUT_DIR; a lever whose table is there already is not measured again.
set -euo pipefail
rounds=20
levers="base duet long reps reps-best duet-reps-best filter"
while [[ ${1:-} == --* ]]; do
  case $1 in
    --rounds) rounds=$2; shift 2 ;;
    --levers) levers=$2; shift 2 ;;
    *) echo "noise_levers.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
perfduel=${1:?usage: noise_levers.sh [--rounds N] [--levers LIST] PERFDUEL BENCHMARK [OUT_DIR]}
bench=${2:?usage: noise_levers.sh [--rounds N] [--levers LIST] PERFDUEL BENCHMARK [OUT_DIR]}
out=${3:-$(mktemp -d)}
mkdir -p "$out"
bench=$(realpath "$bench")

gate_config() {  # gate_config FILE [METRIC_KEYS] [TOP_LEVEL_YAML]
  cat >"$1" <<YAML
${3:-}
max_rounds: 200
max_seconds: 3m
metrics:
  wall_time: {gate: false}
  user_time: {gate: false}
  system_time: {gate: false}
  max_rss: {gate: false}
  b: {google_benchmark: "*", field: real_time, threshold: 5%, tolerance: 3%${2:+, $2}}
YAML
}

# calibrate LEVER NAME COMMAND [METRIC_KEYS] [TOP_LEVEL_YAML]: one calibration; its table in
# $out/LEVER[-NAME].txt.
calibrate() {
  local lever=$1 name=$2 command=$3 keys=${4:-} top=${5:-} file
  file=$out/$lever${name:+-$(printf '%s' "$name" | tr -c 'A-Za-z0-9_.-' '_')}
  [ -s "$file.txt" ] && return 0  # measured by an earlier run into the same OUT_DIR
  gate_config "$file.yaml" "$keys" "$top"
  "$perfduel" calibrate --config "$file.yaml" --rounds "$rounds" --seed 1 -n "$command" >"$file.txt" 2>"$file.err" ||
    { echo "noise_levers.sh: calibrate failed for $lever $name: $(tail -1 "$file.err")" >&2; rm -f "$file.txt"; return 1; }
}

names=$("$bench" --benchmark_list_tests=true)
for lever in $levers; do
  case $lever in
    base) calibrate base "" "$bench --benchmark_format=json --benchmark_min_time=0.05" ;;
    duet) calibrate duet "" "$bench --benchmark_format=json --benchmark_min_time=0.05" "" "order: duet" ;;
    duet-reps-best) calibrate duet-reps-best "" "$bench --benchmark_format=json --benchmark_min_time=0.02 --benchmark_repetitions=3" \
      "repetitions: best" "order: duet" ;;
    long) calibrate long "" "$bench --benchmark_format=json --benchmark_min_time=0.2" ;;
    reps) calibrate reps "" "$bench --benchmark_format=json --benchmark_min_time=0.02 --benchmark_repetitions=3" ;;
    reps-best) calibrate reps-best "" "$bench --benchmark_format=json --benchmark_min_time=0.02 --benchmark_repetitions=3" \
      "repetitions: best" ;;
    filter)
      while IFS= read -r name; do
        # The name as a regular expression matching it alone.
        pattern=$(printf '%s' "$name" | sed 's/[][\\.*^$()+?{}|]/\\&/g')
        # A benchmark that measures nothing (its work optimised away) fails alone: skipped.
        calibrate filter "$name" "$bench --benchmark_format=json --benchmark_min_time=0.05 '--benchmark_filter=^$pattern\$'" || true
      done <<<"$names"
      ;;
    *) echo "noise_levers.sh: unknown lever $lever" >&2; exit 2 ;;
  esac
done

# The tables: "b/NAME  σ %  5 %  ~ROUNDS  ..." lines, and "(S s per round)" in the heading.
awk -v levers="$levers" -v out="$out" '
  function read_table(file, lever,    line, fields, n, name, i, k) {
    while ((getline line < file) > 0) {
      if (match(line, /\([0-9.]+ m?s per round\)/)) {
        split(substr(line, RSTART + 1, RLENGTH - 2), t, " ")
        seconds[lever] += t[2] == "ms" ? t[1] / 1000 : t[1]
      }
      if (line !~ /^b\//) continue
      n = split(line, fields, /  +/)
      name = substr(fields[1], 3)
      sub(/ *$/, "", name)
      for (i = 2; i <= n; i++) if (fields[i] ~ /%$/) { sigma[name, lever] = fields[i]; break }
      for (k = i + 1; k <= n; k++) if (fields[k] ~ /^~/) { r = substr(fields[k], 2) + 0; break }
      if (r > worst[lever]) worst[lever] = r
      if (!(name in seen)) { seen[name] = 1; order[++count] = name }
    }
    close(file)
  }
  BEGIN {
    nl = split(levers, list, " ")
    for (l = 1; l <= nl; l++) {
      lever = list[l]
      if (lever == "filter") {
        cmd = "ls " out "/filter-*.txt 2>/dev/null"
        while ((cmd | getline f) > 0) read_table(f, lever)
        close(cmd)
      } else {
        read_table(out "/" lever ".txt", lever)
      }
    }
    printf "%-45s", "σ per round"
    for (l = 1; l <= nl; l++) printf "%16s", list[l]
    printf "\n"
    for (i = 1; i <= count; i++) {
      printf "%-45s", order[i]
      for (l = 1; l <= nl; l++) printf "%16s", ((order[i], list[l]) in sigma) ? sigma[order[i], list[l]] : "-"
      printf "\n"
    }
    printf "%-45s", "seconds per round"
    for (l = 1; l <= nl; l++) printf "%16.2f", seconds[list[l]]
    printf "\n%-45s", "rounds to settle 5 % (slowest benchmark)"
    for (l = 1; l <= nl; l++) printf "%16s", "~" worst[list[l]]
    printf "\n%-45s", "time to settle 5 % (s)"
    for (l = 1; l <= nl; l++) printf "%16.0f", worst[list[l]] * seconds[list[l]]
    printf "\n"
  }' /dev/null
echo "tables: $out"
