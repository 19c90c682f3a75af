#!/usr/bin/env bash
# Driver overhead benchmark (results in docs/performance.md).
#
# Measures the per-run cost of `perfduel compare` on `true` vs `true` against
#   (a) bare_spawn_loop: fork + execvp + wait4, nothing else (the floor), and
#   (c) hyperfine -N (no shell),
# with (b) perfduel forced to a fixed number of rounds, so all three make the same number
# of runs. The three are interleaved REPEATS times and the medians reported, so that drift
# in the machine's load hits all of them alike. Not a CTest test: the numbers depend on the
# machine.
#
# Usage: tools/bench/overhead.sh [BUILD_DIR]        (default BUILD_DIR: build)
# Environment: ROUNDS (500), WARMUP (5), REPEATS (3), HYPERFINE_RUNS (1000),
#              CPU (unset; a CPU number to run all three under `taskset -c CPU`)
set -euo pipefail

build=${1:-build}
rounds=${ROUNDS:-500}
warmup=${WARMUP:-5}
repeats=${REPEATS:-3}
hyperfine_runs=${HYPERFINE_RUNS:-1000}
perfduel=$build/tools/perfduel/perfduel
bare=$build/tools/bench/bare_spawn_loop
runs=$((2 * (rounds + warmup)))  # perfduel's runs, warm-up included; the bare loop makes as many

for program in "$perfduel" "$bare"; do
  [[ -x $program ]] || { echo "overhead.sh: $program not built (cmake --build $build --target perfduel bare_spawn_loop)" >&2; exit 2; }
done
for tool in hyperfine jq awk /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "overhead.sh: $tool not found (apt-get install -y $tool)" >&2; exit 2; }
done
pin=()
if [[ -n ${CPU:-} ]]; then
  pin=(taskset -c "$CPU")
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/overhead.yaml" <<EOF
# A fixed number of rounds: with min_rounds = max_rounds the stopping rule cannot end early.
# true against true: measured all the same (identical programs would be no change at once).
identical_programs: measure
warmup: $warmup
min_rounds: $rounds
max_rounds: $rounds
max_seconds: 3600
metrics:
  wall_time: {gate: true}
EOF

# Runs "$@" (pinned if asked) under /usr/bin/time, stdout to $tmp/out; prints
# "elapsed_seconds cpu_seconds" where CPU is user + system of the whole tree (children
# included; 10 ms resolution, hence the many runs). Returns the command's exit status.
measure() {
  local status=0
  /usr/bin/time -f '%e %U %S' -o "$tmp/time" "${pin[@]}" "$@" >"$tmp/out" 2>"$tmp/err" || status=$?
  awk '{ printf "%s %.3f\n", $1, $2 + $3 }' "$tmp/time" | tail -1
  return $status
}

run_bare() {
  read -r bare_total bare_cpu < <(measure "$bare" "$runs" true)
  bare_mean=$(sed -n 's/.*mean_seconds=\([0-9.e+-]*\).*/\1/p' "$tmp/out")
}

run_spawn() {
  read -r spawn_total spawn_cpu < <(measure "$bare" --posix-spawn "$runs" true)
  spawn_mean=$(sed -n 's/.*mean_seconds=\([0-9.e+-]*\).*/\1/p' "$tmp/out")
}

run_perfduel() {
  local status=0
  # Any verdict is fine (exit 0, 1 or 77); an error is not.
  measure "$perfduel" compare --config "$tmp/overhead.yaml" --baseline true --candidate true \
    --json "$tmp/perfduel.json" --quiet >"$tmp/measured" || status=$?
  if [[ $status -ne 0 && $status -ne 1 && $status -ne 77 ]]; then
    cat "$tmp/out" "$tmp/err" >&2
    exit 1
  fi
  read -r pd_total pd_cpu <"$tmp/measured"
  read -r pd_elapsed pd_count pd_wall_sum < <(jq -r '[.elapsed_seconds, (.runs | length), ([.runs[].values.wall_time] | add)] | @tsv' "$tmp/perfduel.json")
  [[ $pd_count -eq $runs ]] || { echo "overhead.sh: perfduel made $pd_count runs, expected $runs" >&2; exit 1; }
}

run_hyperfine() {
  read -r hf_total hf_cpu < <(measure hyperfine -N --runs "$hyperfine_runs" --export-json "$tmp/hyperfine.json" true)
  hf_mean=$(jq -r '.results[0].mean' "$tmp/hyperfine.json")
}

# One line per repeat, all per run, in seconds:
#   1 bare wall  2 bare cpu  3 posix_spawn wall  4 posix_spawn cpu  5 perfduel measured wall_time
#   6 perfduel loop (elapsed_seconds)  7 perfduel process wall  8 perfduel cpu
#   9 hyperfine reported mean  10 hyperfine process wall  11 hyperfine cpu
# The order of the four is reversed every other repeat, so slow drift in the machine's load
# does not always favour the same one.
: >"$tmp/results"
for ((i = 1; i <= repeats; ++i)); do
  if ((i % 2)); then
    run_bare; run_spawn; run_perfduel; run_hyperfine
  else
    run_hyperfine; run_perfduel; run_spawn; run_bare
  fi
  awk -v n="$runs" -v hn="$hyperfine_runs" -v b="$bare_mean" -v bc="$bare_cpu" -v s="$spawn_mean" \
    -v sc="$spawn_cpu" -v w="$pd_wall_sum" -v e="$pd_elapsed" -v pt="$pd_total" -v pc="$pd_cpu" \
    -v hm="$hf_mean" -v ht="$hf_total" -v hc="$hf_cpu" \
    'BEGIN { printf "%.9f %.9f %.9f %.9f %.9f %.9f %.9f %.9f %.9f %.9f %.9f\n",
             b, bc / n, s, sc / n, w / n, e / n, pt / n, pc / n, hm, ht / hn, hc / hn }' >>"$tmp/results"
  echo "repeat $i/$repeats: $(tail -1 "$tmp/results")" >&2
done

# Medians per column, then the table.
awk -v repeats="$repeats" -v runs="$runs" -v hruns="$hyperfine_runs" '
  function median(col,   n, i, j, t, v) {
    n = 0
    for (i = 1; i <= NR; ++i) v[++n] = value[i, col]
    for (i = 2; i <= n; ++i) for (j = i; j > 1 && v[j - 1] > v[j]; --j) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
  }
  function us(x) { return sprintf("%8.1f us", x * 1e6) }
  function rel(x, base) { return sprintf("%+7.1f %%", (x / base - 1) * 100) }
  function row(name, wall, cpu) {
    printf "%-46s %11s %9s %11s %9s\n", name, us(wall), rel(wall, bare), cpu == "" ? "" : us(cpu), cpu == "" ? "" : rel(cpu, bare_cpu)
  }
  { for (c = 1; c <= NF; ++c) value[NR, c] = $c }
  END {
    bare = median(1); bare_cpu = median(2)
    printf "per-run cost of `true`: median of %d repeats; %d runs each (hyperfine: %d)\n\n", repeats, runs, hruns
    printf "%-46s %11s %9s %11s %9s\n", "", "wall/run", "vs bare", "CPU/run", "vs bare"
    row("bare_spawn_loop (fork+execvp+wait4)", bare, bare_cpu)
    row("bare_spawn_loop --posix-spawn", median(3), median(4))
    row("hyperfine -N: reported mean", median(9), "")
    row("hyperfine -N: whole process / runs", median(10), median(11))
    row("perfduel: measured wall_time, mean", median(5), "")
    row("perfduel: duel loop (elapsed_seconds / runs)", median(6), "")
    row("perfduel: whole process / runs", median(7), median(8))
    for (i = 1; i <= NR; ++i) { d[i] = value[i, 6] - value[i, 5] }
    for (i = 1; i <= NR; ++i) value[i, 12] = d[i]
    loop = median(6)
    printf "\nperfduel time outside the measured runs, (elapsed - sum of wall_time) / runs: %s\n", us(median(12))
    printf "perfduel overhead vs the bare loop: %s wall, %s CPU (goal: within +5 %%): %s\n", rel(loop, bare),
           rel(median(8), bare_cpu), (loop / bare - 1 <= 0.05 ? "met" : "NOT met")
  }' "$tmp/results"
