#!/usr/bin/env bash
# Stands in for the templates' apt-get install: this machine has the packages already (the
# validate test checks that the templates name packages Debian has); says which tools are used.
# PERFDUEL_TEST_TOOLS names others (tests/release/roots_ci.sh: what a root without jq has).
set -euo pipefail
for tool in ${PERFDUEL_TEST_TOOLS:-git cmake ninja g++ jq valgrind}; do
  command -v "$tool" >/dev/null || { echo "install-dependencies: $tool is not installed" >&2; exit 1; }
done
echo "using this machine's packages"
