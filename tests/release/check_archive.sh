#!/usr/bin/env bash
# The release archive, built by `cpack -G TGZ` from a perfduel build tree:
#
#   check_archive.sh BUILD_DIR WORK_DIR
#
# its name and layout (a prefix of its own: bin/, libexec/, lib/cmake/PerfDuel, share/), and for
# a -DPERFDUEL_PORTABLE=ON build its driver's needs: the libraries of glibc and nothing else, at
# symbol versions glibc 2.31 has (objdump -T), libpq not among them.
set -uo pipefail
build_dir=$1 work=$2
rm -rf "$work"
mkdir -p "$work"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
cpack -G TGZ -B "$work" --config "$build_dir/CPackConfig.cmake" >"$work/cpack.log" 2>&1 || { cat "$work/cpack.log"; exit 1; }
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build_dir/CMakeCache.txt")
name=perfduel-$version-linux-x86_64
[ -f "$work/$name.tar.gz" ] || { echo "FAIL: cpack wrote $(ls "$work"), not $name.tar.gz"; exit 1; }
tar -xzf "$work/$name.tar.gz" -C "$work"
for file in bin/perfduel libexec/perfduel/perfduel-exec libexec/perfduel/libperfduel-alloc.so lib/cmake/PerfDuel/PerfDuelConfig.cmake \
            lib/cmake/PerfDuel/PerfDuelConfigVersion.cmake lib/cmake/PerfDuel/PerfDuelTargets.cmake \
            lib/cmake/PerfDuel/PerfDuel.cmake lib/cmake/PerfDuel/PerfDuelBaseline.cmake \
            share/perfduel/templates/perfduel.yaml share/perfduel/templates/gate/action.yml \
            share/perfduel/templates/gitlab-perfduel.yml share/doc/perfduel/README.md \
            share/doc/perfduel/LICENSE share/doc/perfduel/CHANGELOG.md share/doc/perfduel/docs/install.md; do
  [ -e "$work/$name/$file" ] || fail "the archive has no $name/$file"
done
"$work/$name/bin/perfduel" --version | grep -q "^perfduel $version (commit " || fail "bin/perfduel --version"
echo "$name.tar.gz: $(du -h "$work/$name.tar.gz" | cut -f1), layout as expected"

if grep -q '^PERFDUEL_PORTABLE:BOOL=ON$' "$build_dir/CMakeCache.txt"; then
  for exe in bin/perfduel libexec/perfduel/perfduel-exec; do
    needed=$(objdump -p "$work/$name/$exe" | sed -n 's/^ *NEEDED *//p' | sort | tr '\n' ' ')
    echo "$exe needs: $needed"
    for lib in $needed; do
      case "$lib" in
        libc.so.6|libm.so.6|libdl.so.2|libpthread.so.0|librt.so.1|ld-linux-x86-64.so.2) ;;
        *) fail "$exe needs $lib, which is not glibc's" ;;
      esac
    done
    newest=$(objdump -T "$work/$name/$exe" | grep -o 'GLIBC_[0-9.]*' | sort -u -V | tail -1)
    echo "$exe: newest glibc symbol version $newest"
    [ "$(printf '%s\n' "$newest" GLIBC_2.31 | sort -V | tail -1)" = GLIBC_2.31 ] ||
      fail "$exe needs $newest: $(objdump -T "$work/$name/$exe" | grep -E 'GLIBC_2\.(3[2-9]|[4-9][0-9])' | head -10)"
  done
else
  echo "not a PERFDUEL_PORTABLE build: its driver links Debian 12's shared libraries (the .deb's)"
fi
[ "$failures" = 0 ] || { echo "$failures checks failed"; exit 1; }
echo "all checks passed"
