#!/usr/bin/env bash
# Stands in for the templates' "build and install perfduel from git": installs the perfduel
# under test ($PERFDUEL_TEST_BUILD, already built) into $PERFDUEL_PREFIX, as the template's
# last command, `cmake --install`, does with the one it cloned and built.
set -euo pipefail
cmake --install "$PERFDUEL_TEST_BUILD" --prefix "$PERFDUEL_PREFIX" >/dev/null
echo "installed the perfduel under test into $PERFDUEL_PREFIX"
