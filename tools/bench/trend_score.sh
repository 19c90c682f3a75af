#!/usr/bin/env bash
# Scores `perfduel trend` on labelled change-point series: runs it over every series of a
# data folder with one fixed setting, takes the starts of its groups as the predicted
# change points, and prints per series and on average the F1 (margin 5) and cover beside
# the published methods (perfduel_trend_score). docs/history.md "How well it finds changes".
#
#   tools/bench/trend_score.sh [--build DIR] [--data DIR] [--series a,b,...] [--check-reference]
#                              [-- TREND OPTIONS...]
#
#   --build DIR        the build tree with perfduel and perfduel_trend_score (default: build)
#   --data DIR         the series (default: ../shared/data/changepoints beside the repository)
#   --series a,b       only these series (default: all)
#   --check-reference  also score with the data folder's score.py (--ascending) and fail
#                      unless every series' F1 and cover agree to 1e-9
#   -- OPTIONS         passed to `perfduel trend` (default: none, the defaults)
# Exit: 0 scored, 1 a disagreement with score.py, 2 a usage or tool error, 77 no data.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=$root/build
data=$root/../shared/data/changepoints
series=""
check=0
trend_options=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --data) data=$2; shift 2 ;;
    --series) series=$2; shift 2 ;;
    --check-reference) check=1; shift ;;
    --) shift; trend_options=("$@"); break ;;
    *) echo "trend_score.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
perfduel=$build/tools/perfduel/perfduel
scorer=$build/tools/bench/perfduel_trend_score
for tool in "$perfduel" "$scorer"; do
  [[ -x $tool ]] || { echo "trend_score.sh: $tool is not built (cmake --build $build)" >&2; exit 2; }
done
if [[ ! -f $data/reference_scores.json ]]; then
  echo "trend_score.sh: no labelled series in $data (reference_scores.json missing): skipped" >&2
  exit 77
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
files=()
if [[ -n $series ]]; then
  IFS=, read -r -a names <<<"$series"
  for name in "${names[@]}"; do files+=("$data/$name.json"); done
else
  for file in "$data"/*.json; do
    [[ $(basename "$file") == reference_scores.json ]] || files+=("$file")
  done
fi

echo "{}" >"$work/predictions.json"
for file in "${files[@]}"; do
  [[ -f $file ]] || { echo "trend_score.sh: no series file $file" >&2; exit 2; }
  name=$(jq -r .name "$file")
  jq -c .values "$file" >"$work/values.json"
  status=0
  "$perfduel" trend --input "$work/values.json" --json "$work/groups.json" "${trend_options[@]}" \
    >"$work/trend.out" 2>&1 || status=$?
  # 1 means the last group is a regression: a verdict, not a failure.
  if [[ $status -gt 1 ]]; then
    echo "trend_score.sh: perfduel trend failed on $name (exit $status):" >&2
    cat "$work/trend.out" >&2
    exit 2
  fi
  jq --arg name "$name" --slurpfile groups "$work/groups.json" \
    '.[$name] = [$groups[0].groups[1:][] | .start]' "$work/predictions.json" >"$work/next.json"
  mv "$work/next.json" "$work/predictions.json"
done

echo "perfduel trend ${trend_options[*]:-(defaults)} on ${#files[@]} series of $data"
echo
"$scorer" "$work/predictions.json" --data "$data" --json "$work/ours.json"

if [[ $check -eq 1 ]]; then
  python3 "$data/score.py" "$work/predictions.json" --data "$data" --ascending --json "$work/theirs.json" \
    >/dev/null
  differences=$(jq -n --slurpfile ours "$work/ours.json" --slurpfile theirs "$work/theirs.json" '
    [$ours[0] | to_entries[] | . as $e | $theirs[0][$e.key] as $t
     | select($t == null or (($e.value.f1 - $t.f1) | fabs) > 1e-9 or (($e.value.cover - $t.cover) | fabs) > 1e-9)
     | "\($e.key): ours \($e.value) score.py \($t)"] | .[]')
  if [[ -n $differences ]]; then
    echo "trend_score.sh: the scores differ from score.py:" >&2
    echo "$differences" >&2
    exit 1
  fi
  echo "score.py --ascending agrees on all $(jq length "$work/ours.json") series (F1 and cover within 1e-9)"
fi
