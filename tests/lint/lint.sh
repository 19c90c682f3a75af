#!/usr/bin/env bash
# Usage: lint.sh SOURCE_DIR BUILD_DIR CLANG_FORMAT CLANG_TIDY
# Fails on any clang-format difference in the C++ sources and on any clang-tidy finding in
# tools/perfduel/src, using BUILD_DIR/compile_commands.json.
set -euo pipefail
source_dir=$1 build_dir=$2 clang_format=$3 clang_tidy=$4
cd "$source_dir"

# Tracked files in a checkout; every file in an unpacked source tree.
list() {
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files -- "$@"
  else
    local names=()
    for pattern in "$@"; do names+=(-o -path "./$pattern"); done
    find . -type f \( "${names[@]:1}" \) -not -path './build*' | sed 's|^\./||'
  fi
}

status=0
echo "clang-format: $(list '*.cpp' '*.hpp' | wc -l) files"
list '*.cpp' '*.hpp' | xargs "$clang_format" --dry-run --Werror || status=1

if [[ ! -f $build_dir/compile_commands.json ]]; then
  echo "lint.sh: $build_dir/compile_commands.json is missing (CMAKE_EXPORT_COMPILE_COMMANDS)" >&2
  exit 1
fi
echo "clang-tidy: $(list 'tools/perfduel/src/*.cpp' | wc -l) files"
list 'tools/perfduel/src/*.cpp' |
  xargs -P2 -n4 "$clang_tidy" -p "$build_dir" --quiet --warnings-as-errors='*' \
    2> >(grep -v 'warnings generated\.$' >&2) || status=1
exit $status
