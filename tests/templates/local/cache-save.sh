#!/usr/bin/env bash
# Local actions/cache/save@v4: packs the `path:`s (relative to the workspace) under `key:` into
# the test's store ($FAKE_CACHE, see cache-restore.sh). A key that exists is left alone with a
# warning, as GitHub's caches are immutable; a path that does not exist is skipped.
set -euo pipefail
store=$FAKE_CACHE
mkdir -p "$store"
key=$INPUT_KEY
if [ -f "$store/$key.tar" ]; then
  echo "cache-save: a cache $key exists already; not saved"
  exit 0
fi
paths=()
while IFS= read -r path; do
  path=$(printf '%s' "$path" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//')
  [ -n "$path" ] || continue
  [ -e "$GITHUB_WORKSPACE/$path" ] && paths+=("$path")
done <<<"$INPUT_PATH"
[ "${#paths[@]}" -gt 0 ] || { echo "cache-save: nothing to save for $key"; exit 0; }
tar -C "$GITHUB_WORKSPACE" -cf "$store/$key.tar.part" "${paths[@]}"
mv "$store/$key.tar.part" "$store/$key.tar"
echo "cache-save: saved $key ($(du -sh "$store/$key.tar" | cut -f1): ${paths[*]})"
