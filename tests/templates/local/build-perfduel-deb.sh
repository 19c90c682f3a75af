#!/usr/bin/env bash
# Stands in for the templates' "build the perfduel package" (clone, build, cpack): packages the
# perfduel under test, already built in $PERFDUEL_TEST_BUILD, with cpack into the directory the
# template caches ($PERFDUEL_DEB_DIR, relative to the working directory).
# The same tree gives the same package: with $PERFDUEL_TEST_DEB_STORE set (run_templates.sh sets
# it), the first job's cpack output is kept there and later jobs copy it, as if they had packaged
# it themselves (cpack takes 2-4 s a job, a tenth of a pipeline's time here). What the templates
# are tested for is unchanged: whether they call this step at all, which the message below shows.
set -euo pipefail
dir=${PERFDUEL_DEB_DIR:-.perfduel-cache/deb}
mkdir -p "$dir"
store=${PERFDUEL_TEST_DEB_STORE:-}
if [ -n "$store" ] && ls "$store"/perfduel_*.deb >/dev/null 2>&1; then
  cp "$store"/perfduel_*.deb "$dir/"
else
  cpack -G DEB -B "$PWD/$dir" --config "$PERFDUEL_TEST_BUILD/CPackConfig.cmake" >/dev/null
  rm -rf "$dir/_CPack_Packages"
  if [ -n "$store" ]; then
    mkdir -p "$store"
    cp "$dir"/perfduel_*.deb "$store/"
  fi
fi
echo "packaged the perfduel under test: $(cd "$dir" && ls perfduel_*.deb)"
