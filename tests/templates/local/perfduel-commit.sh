#!/usr/bin/env bash
# Stands in for the templates' `git ls-remote` of PERFDUEL_VERSION: the perfduel under test is
# named by its build tree's version and a hash of its driver, so a rebuilt driver is another key.
set -euo pipefail
driver=$PERFDUEL_TEST_BUILD/tools/perfduel/perfduel
echo "commit=test-$(sha1sum "$driver" | cut -c1-12)" >>"$GITHUB_OUTPUT"
