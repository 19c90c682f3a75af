#!/usr/bin/env bash
# Stands in for the GitLab template's perfduel-package script (ls-remote, then the cached
# package or a new one): the perfduel under test's "commit" as perfduel-commit.sh names it; the
# package in the job's cache (.perfduel-cache/deb/) when built from it, else a new one, packaged
# with cpack from the build tree under test (build-perfduel-deb.sh).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
GITHUB_OUTPUT=$(mktemp)
export GITHUB_OUTPUT
bash -e "$here/perfduel-commit.sh"
commit=$(sed -n 's/^commit=//p' "$GITHUB_OUTPUT")
rm -f "$GITHUB_OUTPUT"
if [ "$(cat .perfduel-cache/deb/commit 2>/dev/null)" = "$commit" ] && ls .perfduel-cache/deb/perfduel_*.deb >/dev/null 2>&1; then
  echo "perfduel ($commit): the cached package"
  exit 0
fi
rm -rf .perfduel-cache/deb
bash -e "$here/build-perfduel-deb.sh"
echo "$commit" >.perfduel-cache/deb/commit
