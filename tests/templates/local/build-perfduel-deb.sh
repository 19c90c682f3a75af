#!/usr/bin/env bash
# Stands in for the templates' "build the perfduel package" (clone, build, cpack): packages the
# perfduel under test, already built in $PERFDUEL_TEST_BUILD, with cpack into the directory the
# template caches ($PERFDUEL_DEB_DIR, relative to the working directory).
set -euo pipefail
dir=${PERFDUEL_DEB_DIR:-.perfduel-cache/deb}
mkdir -p "$dir"
cpack -G DEB -B "$PWD/$dir" --config "$PERFDUEL_TEST_BUILD/CPackConfig.cmake" >/dev/null
rm -rf "$dir/_CPack_Packages"
echo "packaged the perfduel under test: $(cd "$dir" && ls perfduel_*.deb)"
