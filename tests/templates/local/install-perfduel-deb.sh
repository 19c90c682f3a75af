#!/usr/bin/env bash
# Stands in for the templates' `apt-get install ./perfduel_*.deb`: unpacks the package with
# dpkg-deb into a scratch root whose usr/ is $PERFDUEL_PREFIX (never into this machine's /usr).
set -euo pipefail
dir=${PERFDUEL_DEB_DIR:-.perfduel-cache/deb}
deb=$(ls "$dir"/perfduel_*.deb)
root=$(dirname "$PERFDUEL_PREFIX")
[ "$(basename "$PERFDUEL_PREFIX")" = usr ] || { echo "install-perfduel-deb: PERFDUEL_PREFIX must end in /usr" >&2; exit 2; }
mkdir -p "$root"
dpkg-deb -x "$deb" "$root"
echo "installed $(basename "$deb") into $root"
