#!/usr/bin/env bash
# What code that only moves does to instructions counted per benchmark: two builds of
# tests/programs/gbench_suite.cpp, the second with an unrelated function in front of the
# benchmarks (their code lands 64 bytes further on, the rest of the binary shifts too), dueled
# with every benchmark counted by valgrind. Prints each benchmark's largest relative change
# between any two of the six counts (three rounds, two sides), and the verdict, which must be
# no change. Run by hand, not by CTest (docs/metrics.md has its figures):
#
#   tools/bench/moved_code_counts.sh [build/tools/perfduel/perfduel]
#
# Environment: WORK (scratch directory).
set -euo pipefail
perfduel=$(realpath "${1:-build/tools/perfduel/perfduel}")
source_file=$(realpath "$(dirname "$0")/../../tests/programs/gbench_suite.cpp")
work=${WORK:-$(mktemp -d /tmp/moved-code.XXXXXX)}
mkdir -p "$work"
cd "$work"

cp "$source_file" plain.cpp
awk '/^namespace \{/ && !done {
       print "__attribute__((used, noinline)) unsigned unrelated_padding(unsigned x) {"
       print "  for (int i = 0; i < 37; ++i) { x = x * 2654435761U + static_cast<unsigned>(i); if (x % 7 == 3) x ^= 0x5bd1e995U; }"
       print "  return x;"
       print "}"
       done = 1 }
     { print }' "$source_file" >moved.cpp
for build in plain moved; do
  g++ -O2 -std=c++20 -o "$build" "$build.cpp" -lbenchmark -lpthread
done
cat >counted.yaml <<'YAML'
identical_programs: measure
max_seconds: 900
metrics:
  insns: {google_benchmark: "BM_*", valgrind: instructions}
YAML
"$perfduel" compare --config counted.yaml --seed 3 --json moved.json -b ./plain -n ./moved | tail -1
jq -r '.metrics[].name as $m | [.runs[] | .values[$m]] | "\($m) \(max / min - 1)"' moved.json
