#!/usr/bin/env bash
# The release archive where perfduel's build machine is not: unpacked into roots made from
# Debian's packages (tests/release/make_roots.sh), each run with chroot (as root; label roots).
#
#   roots_test.sh BUILD_DIR SOURCE_DIR WORK_DIR [ROOTS_DIR]   # default: $PERFDUEL_ROOTS or /var/cache/perfduel-roots
#
# The archive: `cpack -G TGZ` of BUILD_DIR, a -DPERFDUEL_PORTABLE=ON build (else skipped), or the
# file ARCHIVE names (a release's, from tools/release/build-release.sh).
#
#   bare      nothing but Debian 11's C library (glibc 2.31): --version, compare of two programs
#             to a verdict, summary --html, record and trend with SQLite, doctor; and a
#             postgresql:// history without libpq, whose error names the package to install
#   bullseye  Debian 11 (glibc 2.31, Ubuntu 20.04's generation): the same commands
#   trixie    Debian 13 (glibc 2.41, Boost 1.83, yaml-cpp 0.8: Ubuntu 24.04's), as the user
#             `builder` with that release's cmake, g++, git and ninja: examples/demo.sh gates the
#             example project from the unpacked archive; the slower branch FAILED, the
#             comment-only branch PASSED with 0 rounds. Then the CI templates' own steps, as the
#             template tests run them (tests/templates/ci_local.cpp, built static here, and the
#             stand-ins of tests/templates/local/, the download serving the archive):
#             tests/release/roots_ci.sh runs the composite action (templates/github-gate.yml)
#             and the GitLab include (templates/gitlab-gate.yml) on the example, each cold
#             (the archive downloaded, a FAIL on counted instructions) and warm (the archive
#             from the cache, no download; every gate passes after 0 rounds), perfduel never
#             compiled. Last, tests/release/roots_quick_start.sh: the README's quick start as
#             written (its CMake lines, perf/sort.yaml and workflow, taken by their markers),
#             its workflow and docs/ci.md's short GitLab form on the README's project, with
#             ninja and ccache hidden from PATH (GitHub's image has neither): a regression in a
#             pull request and in a push to main fails, a pull request into a release branch
#             is compared with it, the warm run restores the baseline's build and downloads
#             nothing, an undecided gate with its report in custom-reports/ warns, a tampered
#             archive is refused by its checksum
#
# Skipped (77) when the roots are not there (or trixie predates ccache: make_roots.sh adds it)
# or this is not root: CI's time is not spent on them.
# Not a matter of timing (tests/README.md): the duels here gate the step count `count` prints,
# the demo's and the CI runs' expectations rest on a count too (examples/demo.sh and
# tests/release/roots_ci.sh derive them); the README's gate is wall time, as the README
# configures it, against a sort 2.5 times slower (roots_quick_start.sh says why that holds).
set -uo pipefail
build_dir=$1 source_dir=$(cd "$2" && pwd) work=$3
roots=${4:-${PERFDUEL_ROOTS:-/var/cache/perfduel-roots}}
for root in bare bullseye trixie; do
  [ -d "$roots/$root/usr" ] || { echo "SKIP: no root $roots/$root: make it with tests/release/make_roots.sh"; exit 77; }
done
[ -x "$roots/trixie/usr/bin/ccache" ] ||
  { echo "SKIP: $roots/trixie has no ccache (the action's): rerun tests/release/make_roots.sh"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "SKIP: chroot needs root"; exit 77; }

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
say() { printf '\n==> %s\n' "$*"; }
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
archive=${ARCHIVE:-}
if [ -z "$archive" ]; then
  grep -q '^PERFDUEL_PORTABLE:BOOL=ON$' "$build_dir/CMakeCache.txt" ||
    { echo "SKIP: $build_dir is not a -DPERFDUEL_PORTABLE=ON build (or set ARCHIVE=perfduel-<version>-linux-x86_64.tar.gz)"; exit 77; }
  cpack -G TGZ -B "$work/archive" --config "$build_dir/CPackConfig.cmake" >"$work/cpack.log" 2>&1 ||
    { cat "$work/cpack.log"; exit 2; }
  archive=$(ls "$work"/archive/perfduel-*-linux-x86_64.tar.gz)
fi
[ -f "$archive" ] || { echo "roots_test.sh: no archive $archive"; exit 2; }
echo "archive: $archive"
name=$(basename "$archive" .tar.gz)   # perfduel-<version>-linux-x86_64
version=${name#perfduel-}
version=${version%-linux-x86_64}

# The programs the duels run, static: nothing to find in a root.
g++ -O1 -static -o "$work/count" "$source_dir/tests/release/count.cpp" || { echo "cannot build count.cpp"; exit 2; }
# ci_local, which runs the CI templates' steps in trixie (whose yaml-cpp is 0.8, not this
# machine's 0.7): static, yaml-cpp from its archive and fmt header-only, as the portable driver.
g++ -std=c++20 -O1 -static -DFMT_HEADER_ONLY -o "$work/ci_local" "$source_dir/tests/templates/ci_local.cpp" \
  "$source_dir"/tests/templates/ci_local/*.cpp \
  -lyaml-cpp >"$work/ci_local.log" 2>&1 || { cat "$work/ci_local.log"; echo "cannot build ci_local.cpp"; exit 2; }

mounted=()
cleanup() {
  local m
  for m in "${mounted[@]}"; do umount -l "$m" 2>/dev/null; done
}
trap cleanup EXIT
bind() {  # bind ROOT: /proc, /sys and /dev inside it (doctor reads them, runs are pinned)
  local m
  for m in proc sys dev; do
    mkdir -p "$1/$m"
    mountpoint -q "$1/$m" && continue
    mount --bind "/$m" "$1/$m" && mounted+=("$1/$m")
  done
}

# unpack ROOT DIR: the archive into ROOT/DIR (replacing an earlier one).
unpack() {
  rm -rf "${1:?}/$2/$name"
  mkdir -p "$1/$2"
  tar -xzf "$archive" -C "$1/$2"
}

# driver_commands ROOT: the driver's commands in ROOT, the archive unpacked in /opt.
driver_commands() {
  local root=$roots/$1 label=$1 out rc
  say "$label: the driver's commands"
  unpack "$root" opt
  bind "$root"
  rm -rf "$root/tmp/perfduel-test"
  mkdir -p "$root/tmp/perfduel-test"
  cp "$work/count" "$root/tmp/perfduel-test/count"
  cat >"$root/tmp/perfduel-test/gate.yaml" <<'YAML'
warmup: 1
min_rounds: 4
max_rounds: 40
max_seconds: 60
seed: 1
metrics:
  steps: {regex: 'steps: ([0-9]+)', threshold: 25%, tolerance: 5%, gate: true}
  wall_time: {gate: false}
  user_time: {gate: false}
  system_time: {gate: false}
  max_rss: {gate: false}
YAML
  local pd=/opt/$name/bin/perfduel t=/tmp/perfduel-test
  run() { chroot "$root" /usr/bin/env -i PATH=/opt/$name/bin HOME=/tmp "$@"; }
  # chroot needs no shell: env is the root's own (bullseye), or the call goes straight to the driver.
  [ -x "$root/usr/bin/env" ] || run() { chroot "$root" "$@"; }

  out=$(run "$pd" --version 2>&1)
  echo "$label: $out"
  [[ $out == "perfduel $version (commit "*")" ]] || fail "$label: --version printed \"$out\""

  out=$(run "$pd" compare --config $t/gate.yaml --baseline "$t/count 2" --candidate "$t/count 6" \
        --json $t/slower.json --markdown $t/slower.md --quiet 2>&1); rc=$?
  echo "$out" | tail -4
  [ "$rc" = 1 ] || fail "$label: compare of a 3x slower program exited $rc, expected 1 (a regression): $out"
  grep -q '"verdict": *"regression"' "$root$t/slower.json" || fail "$label: the report's verdict is not regression"

  out=$(run "$pd" compare --config $t/gate.yaml --baseline "$t/count 2" --candidate "$t/count 2" \
        --json $t/same.json --quiet 2>&1); rc=$?
  [ "$rc" = 0 ] || fail "$label: compare of one program against itself exited $rc, expected 0: $out"

  out=$(run "$pd" summary $t/slower.json $t/same.json --html $t/run.html 2>&1); rc=$?
  [ "$rc" = 1 ] || fail "$label: summary exited $rc, expected 1 (one regression): $out"
  grep -q '<html' "$root$t/run.html" 2>/dev/null && grep -q 'Chart' "$root$t/run.html" ||
    fail "$label: summary --html wrote no page with its charts"

  for report in same slower; do
    out=$(run "$pd" record --db $t/history.sqlite --branch main $t/$report.json 2>&1) ||
      fail "$label: record $report.json: $out"
  done
  out=$(run "$pd" trend --db $t/history.sqlite --branch main --metric steps 2>&1); rc=$?
  echo "$out" | head -5
  echo "$out" | grep -q '^steps' || fail "$label: trend shows no series of steps (exit $rc): $out"

  out=$(run "$pd" doctor 2>&1); rc=$?
  echo "$out" | head -3
  [ "$rc" -le 1 ] || fail "$label: doctor exited $rc: $out"
  echo "$out" | grep -qi 'governor\|cpu' || fail "$label: doctor printed no check: $out"

  # No libpq in a root: a PostgreSQL history says what to install.
  if ! ls "$root"/usr/lib/x86_64-linux-gnu/libpq.so.5 >/dev/null 2>&1; then
    out=$(run "$pd" trend --db postgresql://perfduel@localhost/perf 2>&1); rc=$?
    echo "$label: $out"
    [ "$rc" != 0 ] && echo "$out" | grep -q 'libpq.so.5.*apt-get install libpq5' ||
      fail "$label: a postgresql:// history without libpq: exit $rc, \"$out\""
  fi
}

driver_commands bare
driver_commands bullseye

say "trixie: examples/demo.sh as the user builder, perfduel from the unpacked archive"
part_start=$SECONDS
root=$roots/trixie
bind "$root"
home=$root/home/builder
rm -rf "$home/perfduel-src" "$home/demo" "$home/$name" "$home/ci"
mkdir -p "$home/perfduel-src/examples"
cp -R "$source_dir/examples/sort_gate" "$source_dir/examples/demo.sh" "$home/perfduel-src/examples/"
rm -rf "$home/perfduel-src/examples/sort_gate/build"
tar -xzf "$archive" -C "$home"
chown -R 1000:1000 "$home"
chroot --userspec=1000:1000 "$root" /usr/bin/env -i HOME=/home/builder PATH=/usr/bin:/bin LANG=C.UTF-8 \
  PERFDUEL_PREFIX=/home/builder/$name DEMO_DIR=/home/builder/demo DEMO_JOBS=2 \
  bash /home/builder/perfduel-src/examples/demo.sh >"$work/trixie-demo.log" 2>&1
rc=$?
sed -n '/==> Summary/,$p' "$work/trixie-demo.log"
[ "$rc" = 0 ] || { fail "trixie: examples/demo.sh exited $rc"; tail -40 "$work/trixie-demo.log"; }
grep -q 'ctest -L perf: FAILED (as expected)' "$work/trixie-demo.log" || fail "trixie: the slower branch did not fail"
grep -q 'ctest -L perf: PASSED (as expected)' "$work/trixie-demo.log" || fail "trixie: the comment-only branch did not pass"
echo "trixie: examples/demo.sh took $((SECONDS - part_start)) s"

say "trixie: the composite action's and the GitLab include's steps as the user builder, cold and warm"
part_start=$SECONDS
ci=$home/ci
rm -rf "$ci"
mkdir -p "$ci/src/tests/templates" "$ci/src/tests/release" "$ci/src/examples" "$ci/archive-store"
cp "$source_dir/CMakeLists.txt" "$source_dir/README.md" "$ci/src/"
cp -R "$source_dir/templates" "$ci/src/"
cp -R "$source_dir/tests/templates/local" "$ci/src/tests/templates/"
cp "$source_dir/tests/templates/pull_request_history.sh" "$ci/src/tests/templates/"
cp "$source_dir/tests/release/roots_ci.sh" "$source_dir/tests/release/roots_quick_start.sh" "$ci/src/tests/release/"
cp -R "$source_dir/examples/sort_gate" "$ci/src/examples/"
rm -rf "$ci/src/examples/sort_gate/build"
cp "$archive" "$ci/archive-store/"
cp "$work/ci_local" "$ci/ci_local"
chown -R 1000:1000 "$ci"
chroot --userspec=1000:1000 "$root" /usr/bin/env -i HOME=/home/builder PATH=/usr/bin:/bin LANG=C.UTF-8 \
  CMAKE_BUILD_PARALLEL_LEVEL=2 bash /home/builder/ci/src/tests/release/roots_ci.sh /home/builder/ci/src \
  /home/builder/ci/ci_local /home/builder/ci/archive-store /home/builder/ci/work >"$work/trixie-ci.log" 2>&1
rc=$?
cat "$work/trixie-ci.log"
[ "$rc" = 0 ] || fail "trixie: tests/release/roots_ci.sh exited $rc (logs in $ci/work)"
echo "trixie: the CI templates' steps took $((SECONDS - part_start)) s"

say "trixie: the README's quick start as written, as the user builder, no ninja, no ccache"
part_start=$SECONDS
chroot --userspec=1000:1000 "$root" /usr/bin/env -i HOME=/home/builder PATH=/usr/bin:/bin LANG=C.UTF-8 \
  CMAKE_BUILD_PARALLEL_LEVEL=2 bash /home/builder/ci/src/tests/release/roots_quick_start.sh /home/builder/ci/src \
  /home/builder/ci/ci_local /home/builder/ci/archive-store /home/builder/ci/quick-start >"$work/trixie-quick-start.log" 2>&1
rc=$?
cat "$work/trixie-quick-start.log"
[ "$rc" = 0 ] || fail "trixie: tests/release/roots_quick_start.sh exited $rc (logs in $ci/quick-start)"
echo "trixie: the README's quick start took $((SECONDS - part_start)) s"

if [ "$failures" -gt 0 ]; then
  echo "$failures checks failed; logs in $work"
  exit 1
fi
echo "all checks passed ($SECONDS s)"
