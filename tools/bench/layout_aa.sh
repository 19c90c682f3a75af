#!/usr/bin/env bash
# A/A duels of two byte-identical programs that differ only in where they live: one at a
# short path, one at a path 200 characters longer. The path is in argv[0] and in the
# auxiliary vector, so it shifts the initial stack like an environment of another size
# would. Every regression or improvement verdict is a false alarm. Counted for the mean and
# the median estimator, with PERFDUEL_PAD (env_padding) on and off. Run by hand, not by CTest:
#
#   tools/bench/layout_aa.sh [build/tools/perfduel/perfduel]
#
# Environment: SEEDS (default 20), MAX_SECONDS per duel (default 10), PROGRAM (default
# /bin/gzip, run as `gzip -6 -c <data>`), WORK (scratch directory, default a new one in /tmp).
set -euo pipefail
perfduel=$(realpath "${1:-build/tools/perfduel/perfduel}")
seeds=${SEEDS:-20}
max_seconds=${MAX_SECONDS:-10}
program=${PROGRAM:-/bin/gzip}
work=${WORK:-$(mktemp -d /tmp/layout-aa.XXXXXX)}
mkdir -p "$work"
cd "$work"

# The two copies.
long_dir=$work/$(printf 'd%.0s' $(seq 200))
mkdir -p short "$long_dir"
cp "$program" short/x
cp "$program" "$long_dir/x"
cmp -s short/x "$long_dir/x"
# Input: 1.2 MB of text that compresses somewhat (a few tens of ms per run).
seq 1 200000 >data.txt

printf '%-8s %-8s %5s %5s %5s %5s\n' estimator padding regr impr same inconcl
for estimator in mean median; do
  for padding in true false; do
    regressions=0 improvements=0 same=0 inconclusive=0
    for seed in $(seq 1 "$seeds"); do
      cat >gate.yaml <<YAML
identical_programs: measure  # the same program at two paths: an A/A duel is the point
warmup: 1
min_rounds: 20
max_seconds: $max_seconds
env_padding: $padding
metrics:
  wall_time: {threshold: 2%, estimator: $estimator}
YAML
      "$perfduel" compare --config gate.yaml --seed "$seed" -q --json report.json \
        -b "short/x -6 -c data.txt" -n "$long_dir/x -6 -c data.txt" >/dev/null 2>&1 || true
      case $(jq -r .verdict report.json) in
        regression) regressions=$((regressions + 1)) ;;
        improvement) improvements=$((improvements + 1)) ;;
        no-change) same=$((same + 1)) ;;
        *) inconclusive=$((inconclusive + 1)) ;;
      esac
    done
    printf '%-8s %-8s %5d %5d %5d %5d\n' "$estimator" "$padding" "$regressions" "$improvements" "$same" "$inconclusive"
  done
done
