#!/usr/bin/env bash
# Usage: lint.sh SOURCE_DIR BUILD_DIR CLANG_FORMAT CLANG_TIDY [JOBS]
# Fails on any clang-format difference in the C++ sources and on any clang-tidy finding in
# tools/perfduel/src, using BUILD_DIR/compile_commands.json.
#
# clang-tidy's cost is not our code: its checks walk the whole syntax tree of every translation
# unit, the thousands of declarations of fmt, nlohmann/json, CLI11 and Boost included, before
# the header filter drops their findings. A build with PERFDUEL_UNITY_BUILD=ON compiles the
# core library in batches (tools/perfduel/CMakeLists.txt); tidied batch by batch, those headers
# are walked once a batch instead of once a file (about 6 times less work for the same
# findings: the header filter takes in the sources a batch includes). Without it, each source
# is tidied on its own. Either way every tracked source under tools/perfduel/src is checked:
# the script fails when one is in neither the compile database nor a batch.
set -euo pipefail
source_dir=$1 build_dir=$2 clang_format=$3 clang_tidy=$4 jobs=${5:-2}
cd "$source_dir"

# Tracked files in a checkout; every file in an unpacked source tree.
list() {
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files -- "$@"
  else
    local names=()
    for pattern in "$@"; do names+=(-o -path "./$pattern"); done
    find . -type f \( "${names[@]:1}" \) -not -path './build*' | sed 's|^\./||'
  fi
}

status=0
echo "clang-format: $(list '*.cpp' '*.hpp' | wc -l) files"
list '*.cpp' '*.hpp' | xargs "$clang_format" --dry-run --Werror || status=1

database=$build_dir/compile_commands.json
if [[ ! -f $database ]]; then
  echo "lint.sh: $database is missing (CMAKE_EXPORT_COMPILE_COMMANDS)" >&2
  exit 1
fi

# The compile database without GCC's precompiled header, which clang cannot read: each source
# includes what it uses, so it parses without it (and a missing include fails here).
lint_dir=$build_dir/lint
mkdir -p "$lint_dir"
jq 'map(.command |= gsub(" -Winvalid-pch -include [^ ]*cmake_pch\\.hxx"; ""))' "$database" \
  >"$lint_dir/compile_commands.json"

# What to tidy: the core library's batches, if the build made them, and every source of
# tools/perfduel/src that no batch includes.
mapfile -t batches < <(jq -r '.[].file | select(test("/perfduel_core\\.dir/Unity/unity_[0-9]+_cxx\\.cxx$"))' "$database")
batched=""
if ((${#batches[@]} > 0)); then
  batched=$(sed -n 's|^#include "\(.*\)"$|\1|p' "${batches[@]}")
fi
singles=()
for source in $(list 'tools/perfduel/src/*.cpp'); do
  if ! grep -qxF "$source_dir/$source" <<<"$batched"; then
    singles+=("$source")
  fi
done
echo "clang-tidy: $(list 'tools/perfduel/src/*.cpp' | wc -l) files, ${#batches[@]} batches of the core library and ${#singles[@]} sources on their own"

missing=$(jq -r --arg root "$source_dir/" '.[].file | select(startswith($root)) | ltrimstr($root)' "$database")
for source in "${singles[@]}"; do
  if ! grep -qxF "$source" <<<"$missing"; then
    echo "lint.sh: $source is neither in $database nor in a batch of the core library" >&2
    status=1
  fi
done

# -Wno-deprecated-declarations: libstdc++ 12's std::stable_sort calls its own deprecated
# get_temporary_buffer, which clang 22 reports at every use; GCC's -Werror build still fails on
# a deprecated call of ours. -Wno-unknown-warning-option: the database is GCC's, whose
# -Wcast-align=strict clang spells -Wcast-align (cmake/Warnings.cmake).
# The configuration is the source tree's: a batch lives in the build tree, where clang-tidy's
# own search for .clang-tidy would not find it. A batch includes .cpp files by design, so
# bugprone-suspicious-include is off for the batches (and on for every other source).
export PERFDUEL_TIDY=$clang_tidy PERFDUEL_TIDY_DB=$lint_dir PERFDUEL_TIDY_CONFIG=$source_dir/.clang-tidy
tidy_one='
  checks=()
  [[ $1 == */Unity/unity_* ]] && checks=(--checks=-bugprone-suspicious-include)
  exec "$PERFDUEL_TIDY" -p "$PERFDUEL_TIDY_DB" --config-file="$PERFDUEL_TIDY_CONFIG" --quiet \
    --warnings-as-errors="*" --extra-arg=-Wno-deprecated-declarations \
    --extra-arg=-Wno-unknown-warning-option "${checks[@]}" "$1"'
# The way a batch is tidied must still see a finding in a source it includes: a seeded one.
seeded=$lint_dir/seeded
mkdir -p "$seeded/tools/perfduel/src" "$seeded/Unity"
printf 'namespace perfduel {\nint SeededFinding() { return 1; }\n}  // namespace perfduel\n' \
  >"$seeded/tools/perfduel/src/seeded.cpp"
printf '#include "%s"\n' "$seeded/tools/perfduel/src/seeded.cpp" >"$seeded/Unity/unity_0_cxx.cxx"
if seeded_out=$(bash -c "$tidy_one" tidy "$seeded/Unity/unity_0_cxx.cxx" 2>&1) ||
  ! grep -q "SeededFinding.*readability-identifier-naming" <<<"$seeded_out"; then
  echo "lint.sh: clang-tidy missed the finding seeded in $seeded/tools/perfduel/src/seeded.cpp:" >&2
  echo "$seeded_out" >&2
  status=1
fi
# The batches first: they are the longest, so parallel runs keep their CPUs busy to the end.
printf '%s\n' "${batches[@]}" "${singles[@]}" | sed '/^$/d' |
  xargs -P"$jobs" -n1 bash -c "$tidy_one" tidy \
    2> >(grep -v 'warnings generated\.$' >&2) || status=1
exit $status
