#!/usr/bin/env bash
# Checks the CI templates without running them:
#
#   validate_templates.sh structure SOURCE_DIR CI_LOCAL WORK_DIR
#     each file against its CI system's schema: templates/github-actions.yml with
#     action-validator (npm @action-validator/cli: the SchemaStore workflow schema, and the
#     globs of its paths), templates/gitlab-ci.yml with gitlab-ci-local (npm gitlab-ci-local,
#     whose --list validates against GitLab's own CI schema and resolves every job). Both are
#     npm packages, which .ci/packages (Debian's) cannot install: found on PATH or in
#     $PERFDUEL_NPM_TOOLS/node_modules/.bin, else installed with the machine's npm from the npm
#     registry into <build>/tests/templates/npm-tools (kept for the next run); without npm or
#     the registry the test is skipped (77) and says how to get them:
#       npm install --prefix DIR @action-validator/cli@0.6.0 gitlab-ci-local@4.64.1
#     (gitlab-ci-local 4.65 and later need Node 22; Debian bookworm has Node 18.)
#
#   validate_templates.sh packages SOURCE_DIR CI_LOCAL WORK_DIR
#     the packages the templates' apt-get lines install: each one Debian has (apt-cache), and
#     every build dependency of perfduel that .ci/packages lists among them, in every script
#     that builds perfduel's package (the test suite cannot run the apt-get steps themselves);
#     the other jobs install that package, which brings what it needs.
set -uo pipefail
mode=$1 source_dir=$2 ci_local=$3 work=$4
rm -rf "$work"
mkdir -p "$work"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

find_tool() {
  local name=$1
  if [ -n "${PERFDUEL_NPM_TOOLS:-}" ] && [ -x "$PERFDUEL_NPM_TOOLS/node_modules/.bin/$name" ]; then
    echo "$PERFDUEL_NPM_TOOLS/node_modules/.bin/$name"
  else
    command -v "$name" || true
  fi
}

# The checkers' pinned versions; installed into the build tree when npm is there and they are not.
npm_tools="@action-validator/cli@0.6.0 gitlab-ci-local@4.64.1"
install_npm_tools() {
  local dir=$work/../npm-tools
  if [ -x "$dir/node_modules/.bin/action-validator" ] && [ -x "$dir/node_modules/.bin/gitlab-ci-local" ]; then
    PERFDUEL_NPM_TOOLS=$(cd "$dir" && pwd)
    return
  fi
  command -v npm >/dev/null || return 0
  # shellcheck disable=SC2086  # the list is words
  if npm install --no-audit --no-fund --fetch-timeout=30000 --fetch-retries=1 --prefix "$dir" $npm_tools >"$work/npm-install.txt" 2>&1; then
    PERFDUEL_NPM_TOOLS=$(cd "$dir" && pwd)
    echo "installed $npm_tools into $PERFDUEL_NPM_TOOLS"
  else
    echo "note: npm install $npm_tools failed (no registry?): $(tail -3 "$work/npm-install.txt")"
  fi
}

case "$mode" in
  structure)
    if [ -z "${PERFDUEL_NPM_TOOLS:-}" ] && ! command -v action-validator >/dev/null; then
      install_npm_tools
    fi
    missing=()
    validator=$(find_tool action-validator)
    if [ -n "$validator" ]; then
      before=$failures
      "$validator" "$source_dir/templates/github-actions.yml" >"$work/github.txt" 2>&1 ||
        fail "templates/github-actions.yml does not validate: $(head -c 3000 "$work/github.txt")"
      # The checker must see a broken workflow, or its silence proves nothing.
      sed 's/^    runs-on:/    runs_on:/' "$source_dir/templates/github-actions.yml" >"$work/broken.yml"
      "$validator" "$work/broken.yml" >/dev/null 2>&1 && fail "action-validator accepts a job without runs-on"
      # The short workflow and the composite action it uses (action-validator knows action.yml).
      for file in github-gate.yml gate/action.yml github-release.yml; do
        "$validator" "$source_dir/templates/$file" >"$work/github-short.txt" 2>&1 ||
          fail "templates/$file does not validate: $(head -c 3000 "$work/github-short.txt")"
      done
      # The README's quick-start workflow, as written (the block after its marker).
      awk '/<!-- quick-start-workflow -->/ { getline; found = 1; next } found && /^```/ { exit } found' \
        "$source_dir/README.md" >"$work/quick-start.yml"
      grep -q '^jobs:' "$work/quick-start.yml" || fail "README.md: no workflow after <!-- quick-start-workflow -->"
      "$validator" "$work/quick-start.yml" >"$work/github-short.txt" 2>&1 ||
        fail "README.md's quick-start workflow does not validate: $(head -c 3000 "$work/github-short.txt")"
      [ "$failures" != "$before" ] ||
        echo "github-actions.yml, github-gate.yml, gate/action.yml, github-release.yml, README.md's quick start: valid (action-validator)"
    else
      missing+=("action-validator (npm @action-validator/cli)")
    fi
    gitlab=$(find_tool gitlab-ci-local)
    if [ -n "$gitlab" ] && ! "$gitlab" --version >/dev/null 2>&1; then
      echo "note: $gitlab does not run here (4.65 and later need Node 22): $("$gitlab" --version 2>&1 | tail -1)"
      gitlab=""
    fi
    if [ -n "$gitlab" ]; then
      before=$failures
      # gitlab-ci-local reads .gitlab-ci.yml in a git repository and writes beside it.
      for variant in real broken; do
        dir=$work/gitlab-$variant
        mkdir -p "$dir"
        cp "$source_dir/templates/gitlab-ci.yml" "$dir/.gitlab-ci.yml"
        [ "$variant" = real ] || sed -i 's/exit_codes: \[77\]/exit_code: [77]/' "$dir/.gitlab-ci.yml"
        git -C "$dir" init -q -b main
        (cd "$dir" && "$gitlab" --list >"$dir/out.txt" 2>&1)
        echo $? >"$dir/rc"
      done
      [ "$(cat "$work/gitlab-real/rc")" = 0 ] && grep -q 'json schema validated' "$work/gitlab-real/out.txt" ||
        fail "templates/gitlab-ci.yml does not validate: $(grep -v 'remote\|origin\|fallback' "$work/gitlab-real/out.txt" | tail -20)"
      for job in 'perf: \[1/2\]' 'perf: \[2/2\]' 'perf-summary'; do
        grep -q "^$job " "$work/gitlab-real/out.txt" || fail "gitlab-ci-local does not list the job $job"
      done
      [ "$(cat "$work/gitlab-broken/rc")" != 0 ] || fail "gitlab-ci-local accepts allow_failure: {exit_code: ...}"
      # The short .gitlab-ci.yml with the include file where it says to copy it.
      dir=$work/gitlab-short
      mkdir -p "$dir"
      mkdir -p "$dir/.gitlab"
      cp "$source_dir/templates/gitlab-perfduel.yml" "$dir/.gitlab/perfduel.yml"  # as copied from the archive
      cp "$source_dir/templates/gitlab-gate.yml" "$dir/.gitlab-ci.yml"
      grep -q '^  - local: .gitlab/perfduel.yml$' "$dir/.gitlab-ci.yml" || fail "gitlab-gate.yml: no include of .gitlab/perfduel.yml"
      git -C "$dir" init -q -b main  # gitlab-ci-local finds a local include in the repository's HEAD
      git -C "$dir" add -A && git -C "$dir" -c user.name=test -c user.email=test@perfduel.invalid commit -q -m include
      (cd "$dir" && "$gitlab" --list >"$dir/out.txt" 2>&1) && grep -q 'json schema validated' "$dir/out.txt" ||
        fail "templates/gitlab-gate.yml with gitlab-perfduel.yml does not validate: $(tail -20 "$dir/out.txt")"
      for job in 'perf: \[1/2\]' 'perf: \[2/2\]' 'perfduel-package'; do
        grep -q "^$job " "$dir/out.txt" || fail "gitlab-ci-local does not list the job $job of gitlab-gate.yml"
      done
      [ "$failures" != "$before" ] || echo "gitlab-ci.yml: valid (gitlab-ci-local, GitLab's CI schema)"
    else
      missing+=("gitlab-ci-local (npm gitlab-ci-local@4.64.1)")
    fi
    if [ "${#missing[@]}" -gt 0 ]; then
      [ "$failures" = 0 ] || exit 1
      echo "SKIP: not installed: ${missing[*]}; install with" \
        "npm install --prefix DIR $npm_tools and set PERFDUEL_NPM_TOOLS=DIR"
      exit 77
    fi
    ;;
  packages)
    # perfduel's build dependencies by .ci/packages; not the ones only its tests, lint or
    # sanitizers or the Debian package (dpkg-dev) need, nor the example project's.
    required=$(grep -- '-dev$' "$source_dir/.ci/packages" | grep -vx 'libbenchmark-dev\|libclang-rt-[0-9]*-dev\|dpkg-dev')
    required="$required cmake ninja-build g++ git"
    # Every package name apt knows (one call: each apt-cache takes seconds).
    apt-cache pkgnames >"$work/debian-packages" 2>/dev/null
    grep -qx coreutils "$work/debian-packages" ||
      { echo "note: apt knows no package (run apt-get update): package names not checked"; : >"$work/debian-packages"; }
    # The long templates build perfduel's package when it is not cached, the release workflow
    # builds the release; the composite action and the GitLab include file download the release
    # archive, and the short workflows leave that to them.
    for file in github-actions.yml gitlab-ci.yml gate/action.yml gitlab-perfduel.yml github-gate.yml gitlab-gate.yml \
                github-release.yml; do
      name=${file//\//_} short=false builder=true
      case "$file" in github-gate.yml|gitlab-gate.yml) short=true builder=false ;; esac
      # The action and the include file download the release archive: they build nothing.
      case "$file" in gate/action.yml|gitlab-perfduel.yml) builder=false ;; esac
      "$ci_local" scripts "$source_dir/templates/$file" >"$work/$name.sh" || { fail "$file: ci_local cannot read it"; continue; }
      # Each script apart (ci_local ends each with "#--"), continuation lines joined.
      rm -rf "$work/$name.d" && mkdir -p "$work/$name.d"
      sed -e ':a' -e '/\\$/{N;s/\\\n//;ba' -e '}' "$work/$name.sh" |
        awk -v dir="$work/$name.d" '/^#--$/ { n++; next } { print > (dir "/" n + 0) }'
      grep -h 'apt-get install' "$work/$name.d"/* >"$work/$name.installs"
      [ -s "$work/$name.installs" ] || $short || fail "$file: no apt-get install"
      builds=0 installs=$(grep -c . "$work/$name.installs")
      for script in "$work/$name.d"/*; do
        # A script that builds perfduel (its package) installs perfduel's build dependencies.
        grep -q 'cmake --build /tmp/perfduel/build\|tools/release/build-release.sh' "$script" || continue
        builds=$((builds + 1))
        packages=$(grep 'apt-get install' "$script" | sed 's/.*apt-get install//' | tr ' ' '\n' | grep -v '^-' | grep .)
        for package in $required; do
          # A here-string, not a pipe: under pipefail, grep -q leaving at the first line would
          # fail the pipeline when printf's later lines meet the closed pipe.
          grep -qx -- "$package" <<<"$packages" ||
            fail "$file: a script that builds perfduel does not install $package, which it needs (.ci/packages): $(head -c 300 "$script")"
        done
      done
      [ "$builds" -ge 1 ] || ! $builder || fail "$file: no script builds perfduel's package"
      [ "$builds" = 0 ] || $builder || fail "$file: a script builds perfduel; it should download its release archive"
      while IFS= read -r line; do
        packages=$(printf '%s\n' "${line#*apt-get install}" | tr ' ' '\n' | grep -v '^-' | grep .)
        if [ -s "$work/debian-packages" ]; then
          for package in $packages; do
            # A package file (perfduel's own), or the user's list in a variable.
            case "$package" in ./*.deb|\$*) continue ;; esac
            grep -qx -- "$package" "$work/debian-packages" || fail "$file: Debian has no package $package"
          done
        fi
      done <"$work/$name.installs"
      echo "$file: $installs apt-get install commands checked"
    done
    ;;
  *)
    echo "usage: validate_templates.sh structure|packages SOURCE_DIR CI_LOCAL WORK_DIR" >&2
    exit 2
    ;;
esac
[ "$failures" = 0 ] || { echo "$failures checks failed"; exit 1; }
echo "all checks passed"
