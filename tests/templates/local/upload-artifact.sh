#!/usr/bin/env bash
# Local actions/upload-artifact@v4: copies the files its `path:` patterns match into
# $FAKE_ARTIFACTS/<name>/, laid out as the action lays them out: relative to the one search
# path (the part of each pattern before its first wildcard; paths inside another dropped) or,
# with several, their least common ancestor (actions/upload-artifact src/shared/search.ts).
set -euo pipefail
shopt -s nullglob globstar
name=$INPUT_NAME
dest=$FAKE_ARTIFACTS/$name
[ ! -e "$dest" ] || { echo "upload-artifact: an artifact named $name exists already" >&2; exit 1; }
search=() files=()
while IFS= read -r pattern; do
  pattern=${pattern%%#*}
  pattern=$(printf '%s' "$pattern" | sed 's/[[:space:]]*$//; s/^[[:space:]]*//')
  [ -n "$pattern" ] || continue
  # The search path: the segments before the first one with a wildcard.
  dir=""
  IFS=/ read -r -a segments <<<"${pattern%/}"
  for segment in "${segments[@]}"; do
    case "$segment" in *[*?[]*) break ;; esac
    dir=${dir:+$dir/}$segment
  done
  search+=("${dir:-.}")  # a pattern without a directory searches the working directory
  for match in $pattern; do
    if [ -d "$match" ]; then
      while IFS= read -r -d '' file; do files+=("$file"); done < <(find "$match" -type f -print0)
    elif [ -f "$match" ]; then
      files+=("$match")
    fi
  done
done <<<"$INPUT_PATH"
# Drop search paths inside another, then the root: the one left, or the common ancestor.
kept=()
for a in "${search[@]}"; do
  inside=false
  for b in "${search[@]}"; do
    [ "$a" != "$b" ] && case "$a/" in "$b"/*) inside=true ;; esac
  done
  $inside || case " ${kept[*]} " in *" $a "*) ;; *) kept+=("$a") ;; esac
done
# The least common ancestor of two relative paths ("." when they share nothing).
ancestor() {
  local a=$1 b=$2
  while :; do
    case "$b/" in "$a"/*) echo "$a"; return ;; esac
    [ "$a" != . ] || { echo .; return; }
    a=$(dirname "$a")
  done
}
root=${kept[0]}
if [ "${#kept[@]}" -eq 1 ]; then
  # One file named without a wildcard: the file alone, without its directories.
  if [ "${#files[@]}" -eq 1 ] && [ "${files[0]}" = "$root" ]; then root=$(dirname "$root"); fi
else
  for p in "${kept[@]}"; do root=$(ancestor "$root" "$p"); done
fi
if [ "${#files[@]}" -eq 0 ]; then
  case "${INPUT_IF_NO_FILES_FOUND:-warn}" in
    error) echo "upload-artifact: no files found for $name" >&2; exit 1 ;;
    *) echo "upload-artifact: no files found for $name; nothing uploaded"; exit 0 ;;
  esac
fi
for file in "${files[@]}"; do
  rel=${file#"$root"/}
  if [ "$root" = . ]; then rel=$file; fi
  mkdir -p "$dest/$(dirname "$rel")"
  cp "$file" "$dest/$rel"
done
echo "uploaded ${#files[@]} files as $name (root $root)"
