#!/usr/bin/env bash
# Local actions/download-artifact@v4: `name:` into `path:`; `pattern:` (or nothing) each
# matching artifact into `path/<artifact name>/`, or all into `path` with merge-multiple.
set -euo pipefail
dest=${INPUT_PATH:-.}
mkdir -p "$dest"
count=0
for artifact in "$FAKE_ARTIFACTS"/*/; do
  artifact=${artifact%/}
  name=$(basename "$artifact")
  if [ -n "${INPUT_NAME:-}" ]; then
    [ "$name" = "$INPUT_NAME" ] || continue
    cp -R "$artifact/." "$dest/"
  else
    # shellcheck disable=SC2254 # the pattern is a glob
    case "$name" in ${INPUT_PATTERN:-*}) ;; *) continue ;; esac
    if [ "${INPUT_MERGE_MULTIPLE:-false}" = true ]; then
      cp -R "$artifact/." "$dest/"
    else
      mkdir -p "$dest/$name"
      cp -R "$artifact/." "$dest/$name/"
    fi
  fi
  count=$((count + 1))
done
[ -z "${INPUT_NAME:-}" ] || [ "$count" = 1 ] || { echo "download-artifact: no artifact $INPUT_NAME" >&2; exit 1; }
echo "downloaded $count artifacts into $dest"
