#!/usr/bin/env bash
# Usage: make_history.sh PERFDUEL DB RUNS
# Records RUNS nightly runs of three metrics into the SQLite history DB with `perfduel record`:
# sort/BM_Sort/4096 (lower is better) 20 % slower from run 2/3·RUNS on, parse/BM_Parse flat, and
# throughput (higher is better) 15 % better from run RUNS/2 on; noise from a fixed seed.
set -euo pipefail
perfduel=$1 db=$2 runs=$3
rm -f "$db"
awk -v runs="$runs" 'BEGIN {
  srand(7)
  for (i = 0; i < runs; i++) {
    commit = sprintf("%08x%032x", (i * 2654435761) % 4294967296, i)
    time = sprintf("2026-03-%02dT%02d:00:00Z", 1 + int(i / 24), i % 24)
    sort = 0.00125 * (i >= int(2 * runs / 3) ? 1.2 : 1.0) * (1 + 0.01 * (rand() - 0.5))
    parse = 0.000480 * (1 + 0.01 * (rand() - 0.5))
    put = 5.2e8 * (i >= int(runs / 2) ? 1.15 : 1.0) * (1 + 0.01 * (rand() - 0.5))
    printf "%s %s %.9g %.9g %.9g\n", commit, time, sort, parse, put
  }
}' | while read -r commit time sort parse put; do
  common=(--db "$db" --commit "$commit" --branch main --time "$time" --machine "ci-runner-1")
  "$perfduel" record "${common[@]}" --metric sort/BM_Sort/4096 --unit s --value "$sort" >/dev/null
  "$perfduel" record "${common[@]}" --metric parse/BM_Parse --unit s --value "$parse" >/dev/null
  "$perfduel" record "${common[@]}" --metric throughput --unit B/s --higher-is-better --value "$put" >/dev/null
done
