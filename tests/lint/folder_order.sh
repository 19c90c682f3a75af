#!/usr/bin/env bash
# Usage: folder_order.sh SOURCE_DIR [FILE...]
#
# The folders of tools/perfduel/src are layered, low to high (tools/perfduel/src/README.md says
# what each holds):
#   util < stats < config < machine < run < count < duel < report_format < history < trend <
#   bisect < calibrate < ctest < report < cli
# A folder includes its own headers and those of lower folders only, so that no two folders
# depend on each other. The root's files (error.hpp, exit_codes.hpp, main.cpp, ...) are outside
# the order: any folder includes the root's headers, and main.cpp wires them all.
# Fails, naming file:line, the two folders and the order, where a folder includes one above it,
# and where a folder is not in the order (a new folder takes its place in the list above, here
# and in the README). A folder of the list that does not exist is fine. The FILEs are checked as
# if they were in the folder named by their parent directory (the test that shows the check
# sees an upward include plants one so).
set -euo pipefail
source_dir=$1
shift
src=$source_dir/tools/perfduel/src
order="util stats config machine run count duel report_format history trend bisect calibrate ctest report cli"

# Each file as "folder<TAB>path": the tree's (in a folder, not at the root), then the FILEs.
{
  (cd "$src" && find . -mindepth 2 \( -name '*.cpp' -o -name '*.hpp' \) | sort) |
    sed -E "s#^\./([^/]+)/.*#\1\t$src/&#; s#\t$src/\./#\t$src/#"
  for file in "$@"; do
    printf '%s\t%s\n' "$(basename "$(dirname "$file")")" "$file"
  done
} | awk -F'\t' -v order="$order" '
  BEGIN {
    n = split(order, names, " ")
    for (i = 1; i <= n; ++i) rank[names[i]] = i
    shown = names[1]
    for (i = 2; i <= n; ++i) shown = shown " < " names[i]
    status = 0
  }
  {
    folder = $1; path = $2; line_number = 0
    if (!(folder in rank)) {
      printf "%s: folder %s/ is not in the order %s: place it there (tests/lint/folder_order.sh, tools/perfduel/src/README.md)\n", path, folder, shown > "/dev/stderr"
      status = 1
      next
    }
    while ((getline line < path) > 0) {
      ++line_number
      if (line !~ /^[ \t]*#[ \t]*include[ \t]*"[A-Za-z0-9_]+\//) continue
      included = line
      sub(/^[ \t]*#[ \t]*include[ \t]*"/, "", included)
      header = included; sub(/".*/, "", header)
      sub(/\/.*/, "", included)
      if (!(included in rank)) {
        printf "%s:%d: includes \"%s\" from folder %s/, which is not in the order %s\n", path, line_number, header, included, shown > "/dev/stderr"
        status = 1
      } else if (rank[included] > rank[folder]) {
        printf "%s:%d: %s/ includes %s/ (\"%s\"), a folder above it in the order %s\n", path, line_number, folder, included, header, shown > "/dev/stderr"
        status = 1
      }
    }
    close(path)
  }
  END { exit status }'
