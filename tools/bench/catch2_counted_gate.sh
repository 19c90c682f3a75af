#!/usr/bin/env bash
# The repository's Catch2 benchmark (examples/sort_gate/bench/bench_sort_catch2.cpp) gated on
# instructions counted per benchmark (docs/metrics.md, "Catch2 benchmarks, counted one by
# one"). Three builds of it: as is; "slower", sortlib's hybrid_sort (which both benchmarks
# call) doing about 1 % more instructions (a pass over a quarter of the values into a volatile);
# "reworded", only the test case's name reworded (the benchmarks never print it; the binary
# differs). Then the duels: slower must fail naming both benchmarks, reworded must pass, and
# SEEDS seeded A/A duels must pass, each in a few rounds, with the default tolerance and no
# calibration. Prints one line per duel (exit code, verdict line, load average after it). Run
# by hand, not by CTest (docs/metrics.md has its figures):
#
#   tools/bench/catch2_counted_gate.sh [build/tools/perfduel/perfduel]
#
# Environment: SEEDS (A/A duels, default 20), WITH_GZIP=1 (a `gzip -9` loop runs beside every
# duel), WORK (scratch directory).
set -euo pipefail
perfduel=$(realpath "${1:-build/tools/perfduel/perfduel}")
example=$(realpath "$(dirname "$0")/../../examples/sort_gate")
work=${WORK:-$(mktemp -d /tmp/catch2-counted.XXXXXX)}
mkdir -p "$work"
cd "$work"

cp "$example/src/sort.cpp" sort_plain.cpp
sed 's|^  quick_sort(values);$|  quick_sort(values);\n  static volatile std::uint32_t sink = 0;\n  for (std::size_t i = 0; i < values.size() / 4; ++i) {\n    sink = sink + values[i];\n  }|' \
  "$example/src/sort.cpp" >sort_slower.cpp
grep -q 'volatile' sort_slower.cpp || { echo "catch2_counted_gate.sh: the slower edit did not apply" >&2; exit 2; }
cp "$example/bench/bench_sort_catch2.cpp" bench_plain.cpp
sed 's|TEST_CASE("hybrid sort", |TEST_CASE("hybrid sort, quicksort then insertion sort", |' \
  "$example/bench/bench_sort_catch2.cpp" >bench_reworded.cpp
cmp -s bench_plain.cpp bench_reworded.cpp && { echo "catch2_counted_gate.sh: the reworded edit did not apply" >&2; exit 2; }
build() {  # name, sort source, bench source
  g++ -O2 -std=c++20 -I"$example/include" -o "$1" "$2" "$3"
}
build plain sort_plain.cpp bench_plain.cpp
build slower sort_slower.cpp bench_plain.cpp
build reworded sort_plain.cpp bench_reworded.cpp
cmp -s plain reworded && { echo "catch2_counted_gate.sh: the reworded binary is the same" >&2; exit 2; }

cat >counted.yaml <<'YAML'
identical_programs: measure
max_seconds: 900
metrics:
  insns: {catch2: "*", valgrind: instructions}
YAML
gzip_pid=
if [[ ${WITH_GZIP:-0} == 1 ]]; then
  seq 1 3000000 >seq.txt
  (while :; do gzip -9 -c seq.txt >/dev/null; done) &
  gzip_pid=$!
  trap 'kill $gzip_pid 2>/dev/null' EXIT
fi
duel() {  # label, seed, candidate
  local code=0
  "$perfduel" compare --config counted.yaml --seed "$2" --json "$1.json" -b "./plain -r xml [!benchmark]" -n "./$3 -r xml [!benchmark]" \
    >"$1.out" 2>&1 || code=$?
  printf '%-10s exit %s  %s  [%s]\n' "$1" "$code" "$(grep '^verdict:' "$1.out" | cut -c1-160)" \
    "$(cut -d' ' -f1-3 /proc/loadavg)"
  jq -r '.metrics[] | "    \(.name) \(.verdict) \(.change)"' "$1.json"
}
duel slower 1 slower
duel reworded 1 reworded
for seed in $(seq 1 "${SEEDS:-20}"); do
  duel "aa-$seed" "$seed" plain
done
