#!/usr/bin/env bash
# Builds the roots the release archive is tried in (tests/release/roots_test.sh), from Debian's
# own packages, once per machine (about 10 minutes and 1 GB; as root):
#
#   tests/release/make_roots.sh [ROOTS_DIR]       # default: $PERFDUEL_ROOTS or /var/cache/perfduel-roots
#
#   ROOTS_DIR/bullseye  Debian 11 (glibc 2.31: Ubuntu 20.04's generation), debootstrap minbase
#   ROOTS_DIR/trixie    Debian 13 (glibc 2.41, Boost 1.83, yaml-cpp 0.8: Ubuntu 24.04's), minbase
#                       with cmake, g++, git, ninja-build, libbenchmark-dev and valgrind (the
#                       example project's needs) and ccache (the GitHub action's), and a user
#                       `builder` (uid 1000) to run them
#   ROOTS_DIR/bare      nothing but the C library: the files of bullseye's libc6 package
#
# An existing root is kept (delete it to rebuild it); a package added to trixie's list since it
# was made is installed into it with its own apt-get. MIRROR names the Debian mirror (default:
# the first of this machine's apt sources, else http://deb.debian.org/debian).
set -euo pipefail
roots=${1:-${PERFDUEL_ROOTS:-/var/cache/perfduel-roots}}
[ "$(id -u)" = 0 ] || { echo "make_roots.sh: debootstrap needs root" >&2; exit 2; }
command -v debootstrap >/dev/null || { echo "make_roots.sh: apt-get install debootstrap" >&2; exit 2; }
mirror=${MIRROR:-$(sed -n 's/^URIs: *\(http[^ ]*\/debian\)$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -1)}
mirror=${mirror:-http://deb.debian.org/debian}
mkdir -p "$roots"

make_root() {  # make_root SUITE [PACKAGES]
  local suite=$1 include=${2:-}
  [ -x "$roots/$suite/bin/sh" ] && { echo "$roots/$suite: kept"; return; }
  rm -rf "$roots/$suite.tmp"
  echo "debootstrap $suite into $roots/$suite from $mirror"
  debootstrap --variant=minbase ${include:+--include="$include"} "$suite" "$roots/$suite.tmp" "$mirror" \
    >"$roots/$suite.log" 2>&1 || { tail -20 "$roots/$suite.log"; exit 1; }
  rm -rf "$roots/$suite.tmp/var/cache/apt/archives/"*.deb
  mv "$roots/$suite.tmp" "$roots/$suite"
}

make_root bullseye
trixie_packages=cmake,g++,git,ninja-build,libbenchmark-dev,valgrind,make,ccache
make_root trixie "$trixie_packages"
missing=()
for package in ${trixie_packages//,/ }; do
  chroot "$roots/trixie" dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'ok installed' ||
    missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "$roots/trixie: installing ${missing[*]}"
  [ -s "$roots/trixie/etc/resolv.conf" ] || cp /etc/resolv.conf "$roots/trixie/etc/resolv.conf"
  chroot "$roots/trixie" apt-get update -q >"$roots/trixie-apt.log" 2>&1 &&
    chroot "$roots/trixie" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
      "${missing[@]}" >>"$roots/trixie-apt.log" 2>&1 || { tail -20 "$roots/trixie-apt.log"; exit 1; }
  chroot "$roots/trixie" apt-get clean
fi
if ! chroot "$roots/trixie" id builder >/dev/null 2>&1; then
  chroot "$roots/trixie" useradd --create-home --uid 1000 --shell /bin/bash builder
fi

# The bare root: bullseye's C library (libc6's files, not its documentation), /tmp, and the
# mount points of /proc, /sys and /dev, which the test binds while it runs.
if [ ! -e "$roots/bare/lib64/ld-linux-x86-64.so.2" ]; then
  rm -rf "$roots/bare"
  mkdir -p "$roots/bare"/{tmp,proc,sys,dev,opt}
  chmod 1777 "$roots/bare/tmp"
  # The merged /usr's links (lib -> usr/lib, ...) first, and what they point to.
  for link in "$roots/bullseye"/*; do
    [ -L "$link" ] || continue
    cp -a "$link" "$roots/bare/"
    mkdir -p "$roots/bare/$(readlink "$link")"
  done
  (cd "$roots/bullseye" &&
    grep -v '^/usr/share\|^/\.$' var/lib/dpkg/info/libc6:amd64.list |
    while IFS= read -r path; do
      [ -d "./$path" ] && continue   # directories come with their files; the links above
      cp -a --parents ".$path" "$roots/bare/"
    done)
fi
for root in bullseye trixie bare; do
  printf '%-9s %s\n' "$root" "$(du -sh "$roots/$root" | cut -f1)"
done
