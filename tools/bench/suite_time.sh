#!/usr/bin/env bash
# Times the README's test command step by step from a fresh clone of this repository's HEAD
# (apt-get excluded: the packages must be installed already), as docs/performance.md reports it.
#
#   tools/bench/suite_time.sh [--load] [WORK_DIR]
#
# --load runs a `gzip -9` loop on one CPU for the whole time, as on a runner shared with another
# job. Prints the configure, build and ctest times, the ctest result line and the slowest
# tests; the clone and its logs stay in WORK_DIR (default: a new directory under $TMPDIR).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
load=0
if [[ ${1:-} == --load ]]; then
  load=1
  shift
fi
work=${1:-$(mktemp -d)}
mkdir -p "$work"

# The command after the test-command marker, without its apt-get part, split at its " && ".
command=$(awk '/<!-- test-command -->/ { getline; getline; print; exit }' "$root/README.md")
command=${command#*\$(cat .ci/packages) && }
IFS=$'\n' read -r -d '' -a steps < <(sed 's/ && /\n/g' <<<"$command" && printf '\0')

git clone -q "$root" "$work/clone"
cd "$work/clone"
if ((load)); then
  (while :; do head -c 50000000 /dev/urandom | gzip -9 >/dev/null; done) &
  loader=$!
  trap 'kill $loader 2>/dev/null' EXIT
fi
total_start=$(date +%s.%N)
status=0
for i in "${!steps[@]}"; do
  start=$(date +%s.%N)
  if ! bash -c "${steps[$i]}" >"$work/step$i.log" 2>&1; then
    status=1
  fi
  end=$(date +%s.%N)
  printf '%-9s %7.1f s  %s\n' "step $i" "$(echo "$end - $start" | bc)" "${steps[$i]:0:90}"
  ((status == 0)) || break
done
printf '%-9s %7.1f s\n' total "$(echo "$(date +%s.%N) - $total_start" | bc)"
grep -E "tests passed|tests failed" "$work"/step*.log || true
echo "slowest tests:"
# awk keeps the first 15 and reads on: `head` leaving early would fail the pipe (exit 141).
grep -hE "Test +#[0-9]+: " "$work"/step*.log | awk '{print $(NF-1), $4}' | sort -rn | awk 'NR <= 15'
echo "logs: $work"
exit $status
