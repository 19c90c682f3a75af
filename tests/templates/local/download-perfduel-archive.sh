#!/usr/bin/env bash
# Stands in for the composite action's "Download perfduel" (curl of the release archive): packs
# the perfduel under test, built in $PERFDUEL_TEST_BUILD, with `cpack -G TGZ` into the archive
# the release would have, and unpacks it where the action keeps it (.perfduel-cache/, the
# directory of $PERFDUEL_HOME). With $PERFDUEL_TEST_ARCHIVE_STORE set (run_templates.sh sets
# it), the first job's archive is kept there and later jobs unpack the same file.
set -euo pipefail
store=${PERFDUEL_TEST_ARCHIVE_STORE:-$PWD/.perfduel-archive}
if ! ls "$store"/perfduel-*-linux-x86_64.tar.gz >/dev/null 2>&1; then
  mkdir -p "$store"
  cpack -G TGZ -B "$store" --config "$PERFDUEL_TEST_BUILD/CPackConfig.cmake" >/dev/null
  rm -rf "$store/_CPack_Packages"
fi
archive=$(ls "$store"/perfduel-*-linux-x86_64.tar.gz)
[ "$(basename "$archive" .tar.gz)" = "$(basename "$PERFDUEL_HOME")" ] ||
  { echo "download-perfduel-archive: the action wants $PERFDUEL_HOME, the build packs $(basename "$archive")" >&2; exit 1; }
mkdir -p "$(dirname "$PERFDUEL_HOME")"
tar -xzf "$archive" -C "$(dirname "$PERFDUEL_HOME")"
echo "downloaded the perfduel under test: $(basename "$archive")"
"$PERFDUEL_HOME/bin/perfduel" --version
