#!/usr/bin/env bash
# Usage: file_size.sh SOURCE_DIR [LIMIT]
# Fails when a tracked C++ source of the repository (the driver, its tests, the measurement
# programs) is longer than LIMIT lines (default 500): a file that long holds more than one
# concept, and is split by concern. Functions have their own limit (60 lines, clang-tidy's
# readability-function-size in .clang-tidy).
set -euo pipefail
cd "$1"
limit=${2:-500}
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files -- '*.cpp' '*.hpp')
else
  mapfile -t files < <(find . -type f \( -name '*.cpp' -o -name '*.hpp' \) -not -path './build*' | sed 's|^\./||')
fi
status=0
for file in "${files[@]}"; do
  [[ -f $file ]] || continue
  lines=$(wc -l <"$file")
  if ((lines > limit)); then
    echo "$file: $lines lines, more than $limit: split it by concern" >&2
    status=1
  fi
done
echo "file_size.sh: ${#files[@]} C++ sources checked, limit $limit lines"
exit $status
