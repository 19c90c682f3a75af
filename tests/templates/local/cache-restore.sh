#!/usr/bin/env bash
# Local actions/cache/restore@v4: the entry saved under `key:` (cache-hit=true), else the newest
# whose key starts with one of `restore-keys:` (a partial hit), unpacked into the workspace at
# the `path:`s it was saved from; outputs cache-hit and cache-matched-key as the action does.
# The store is a directory the test keeps between jobs and pipelines ($FAKE_CACHE), one tar per
# key, as GitHub keeps a repository's caches between runs.
set -euo pipefail
store=$FAKE_CACHE
mkdir -p "$store"
key=$INPUT_KEY
matched=''
if [ -f "$store/$key.tar" ]; then
  matched=$key
else
  while IFS= read -r prefix; do
    prefix=$(printf '%s' "$prefix" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//')
    [ -n "$prefix" ] || continue
    # The newest entry with this prefix, as GitHub picks among partial matches.
    candidate=$(cd "$store" && ls -t -- "$prefix"*.tar 2>/dev/null | head -1 || true)
    if [ -n "$candidate" ]; then matched=${candidate%.tar}; break; fi
  done <<<"${INPUT_RESTORE_KEYS:-}"
fi
if [ -z "$matched" ]; then
  echo "cache-restore: no cache for $key"
  echo "cache-hit=false" >>"$GITHUB_OUTPUT"
  exit 0
fi
tar -C "$GITHUB_WORKSPACE" -xf "$store/$matched.tar"
echo "cache-restore: restored $matched ($(du -sh "$store/$matched.tar" | cut -f1))"
[ "$matched" = "$key" ] && echo "cache-hit=true" >>"$GITHUB_OUTPUT" || echo "cache-hit=false" >>"$GITHUB_OUTPUT"
echo "cache-matched-key=$matched" >>"$GITHUB_OUTPUT"
