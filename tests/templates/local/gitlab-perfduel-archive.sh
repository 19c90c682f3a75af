#!/usr/bin/env bash
# Stands in for the include file's perfduel-package script (the cached archive, or a curl of the
# release's): the archive in the job's cache (.perfduel-cache/archive/) when there, else the
# perfduel under test packed by `cpack -G TGZ` as the release archive would be (kept in
# $PERFDUEL_TEST_ARCHIVE_STORE for the later jobs, as download-perfduel-archive.sh does).
set -euo pipefail
if ls .perfduel-cache/archive/perfduel-*-linux-x86_64.tar.gz >/dev/null 2>&1; then
  echo "perfduel: the cached archive $(cd .perfduel-cache/archive && ls perfduel-*.tar.gz)"
  exit 0
fi
store=${PERFDUEL_TEST_ARCHIVE_STORE:-$PWD/.perfduel-archive}
if ! ls "$store"/perfduel-*-linux-x86_64.tar.gz >/dev/null 2>&1; then
  mkdir -p "$store"
  cpack -G TGZ -B "$store" --config "$PERFDUEL_TEST_BUILD/CPackConfig.cmake" >/dev/null
  rm -rf "$store/_CPack_Packages"
fi
mkdir -p .perfduel-cache/archive
cp "$store"/perfduel-*-linux-x86_64.tar.gz .perfduel-cache/archive/
echo "downloaded the perfduel under test: $(cd .perfduel-cache/archive && ls perfduel-*.tar.gz)"
