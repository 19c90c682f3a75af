#!/usr/bin/env bash
# Runs the timing-sensitive tests (CTest label `timing`) many times, idle and under a competing
# CPU load, and counts the failures of each test. Run by hand, not by CI: a test that fails here
# breaks the rule of tests/README.md (failure probability ≤ 10⁻⁴ per run), and a retry is not a fix.
#
# Usage: tests/stress.sh [-b BUILD_DIR] [-n RUNS] [-m idle|load|both] [-R REGEX] [-E REGEX] [-L LABEL]
#   -b  the build tree (default: build)
#   -n  runs of every selected test in each mode (default: 20)
#   -m  idle, load (a `gzip -9` loop on every CPU but one) or both (default: both)
#   -R  run only the tests matching REGEX (ctest -R), within the label
#   -E  leave out the tests matching REGEX (ctest -E)
#   -L  the CTest label to select (default: timing)
# Prints one line per test and mode: runs, failures, and the seconds of the slowest run; exits 1
# when any run failed. The log of every failed run is kept under BUILD_DIR/stress/.
set -euo pipefail

build=build
runs=20
modes=both
regex=
exclude=
label=timing
while getopts "b:n:m:R:E:L:h" option; do
  case $option in
    b) build=$OPTARG ;;
    n) runs=$OPTARG ;;
    m) modes=$OPTARG ;;
    R) regex=$OPTARG ;;
    E) exclude=$OPTARG ;;
    L) label=$OPTARG ;;
    *) sed -n '2,14p' "$0" >&2; exit 2 ;;
  esac
done
case $modes in
  idle | load) ;;
  both) modes="idle load" ;;
  *) echo "stress.sh: -m takes idle, load or both, not \"$modes\"" >&2; exit 2 ;;
esac
[[ -f $build/CTestTestfile.cmake ]] || { echo "stress.sh: $build is not a configured build tree (-b)" >&2; exit 2; }

select=(-L "$label")
[[ -n $regex ]] && select+=(-R "$regex")
[[ -n $exclude ]] && select+=(-E "$exclude")
mapfile -t tests < <(ctest --test-dir "$build" -N "${select[@]}" | sed -n 's/^ *Test *#[0-9]*: *//p')
(( ${#tests[@]} > 0 )) || { echo "stress.sh: no test has label \"$label\"${regex:+ and matches \"$regex\"}" >&2; exit 2; }

logs=$build/stress
mkdir -p "$logs"
load_pids=()
stop_load() {
  # Each loop leads a process group of its own (setsid): killing the group takes the running
  # gzip too, which killing the loop alone would leave behind.
  for pid in "${load_pids[@]}"; do kill -- "-$pid" 2>/dev/null || true; done
  wait "${load_pids[@]}" 2>/dev/null || true
  load_pids=()
}
trap stop_load EXIT
start_load() {
  # One gzip -9 loop per CPU but one: the tests keep one CPU, as a CI runner shared with
  # another job would.
  local cpus
  cpus=$(nproc)
  for ((i = 1; i < (cpus > 1 ? cpus : 2); ++i)); do
    setsid bash -c 'while :; do gzip -9 -c /usr/bin/* >/dev/null 2>&1 || true; done' &
    load_pids+=($!)
  done
}

failed_any=0
printf '%-60s %-5s %5s %8s %9s\n' test mode runs failures "max s"
for mode in $modes; do
  [[ $mode == load ]] && start_load
  for test in "${tests[@]}"; do
    failures=0
    slowest=0
    for ((run = 1; run <= runs; ++run)); do
      log=$logs/$test.$mode.$run.log
      start=$(date +%s.%N)
      if ctest --test-dir "$build" -R "^${test//./\\.}\$" --output-on-failure >"$log" 2>&1; then
        rm -f "$log"
      else
        failures=$((failures + 1))
        failed_any=1
      fi
      slowest=$(awk -v a="$slowest" -v b="$(date +%s.%N)" -v s="$start" 'BEGIN { d = b - s; print (d > a ? d : a) }')
    done
    printf '%-60s %-5s %5d %8d %9.1f\n' "$test" "$mode" "$runs" "$failures" "$slowest"
  done
  stop_load
done
exit $failed_any
