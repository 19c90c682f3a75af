#!/usr/bin/env bash
# Stands in for the templates' apt-get install: this machine has the packages already (the
# validate test checks that the templates name packages Debian has); says which tools are used.
set -euo pipefail
for tool in git cmake ninja g++ jq valgrind; do
  command -v "$tool" >/dev/null || { echo "install-dependencies: $tool is not installed" >&2; exit 1; }
done
echo "using this machine's packages"
