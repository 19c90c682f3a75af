#!/usr/bin/env bash
# The real-library target of docs/bisect.md, by hand (not a CTest test: it needs a clone of
# tinyxml2 and takes minutes of real timing):
#
#   tests/bisect/real_library.sh TINYXML2_CLONE WORK_DIR [wall|instructions]
#
# Rewrites the last 24 first-parent commits of TINYXML2_CLONE's HEAD into a linear branch
# `slowed` in WORK_DIR/tinyxml2 (each commit's tree as it was, merges flattened, messages kept),
# with a slowdown inserted in StrPair::ParseText (a chain of ten multiplications of a volatile
# per character of text) from commit SLOW (default 13) on, then runs `perfduel bisect --build --run` over it with the
# benchmark below: parsing a 2 MiB document 5 times. The duels gate wall time at 5 %
# (`wall`, the default) or Valgrind-counted instructions at 5 % (`instructions`, parsing once).
set -eu
clone=$(realpath "$1") work=$(realpath -m "$2") mode=${3:-wall}
: "${PERFDUEL:=perfduel}"
SLOW=${SLOW:-13}
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_COMMITTER_NAME="perfduel test" GIT_COMMITTER_EMAIL=test@perfduel.invalid

mkdir -p "$work"
if [ ! -d "$work/tinyxml2" ]; then
  git clone -q "$clone" "$work/tinyxml2"
  cd "$work/tinyxml2"
  base=$(git rev-parse HEAD~24)
  mapfile -t commits < <(git rev-list --first-parent --reverse "$base..HEAD")
  git checkout -q -b slowed "$base"
  i=0
  for c in "${commits[@]}"; do
    i=$((i + 1))
    git read-tree -u --reset "$c"
    if [ "$i" -ge "$SLOW" ]; then
      # After "++p;" in the inner loop of text parsing: one more store per character of text.
      python3 - <<'PY'
import re
s = open("tinyxml2.cpp", newline="").read()
at = s.index("// Inner loop of text parsing.")
step = s.index("++p;", at) + len("++p;")
eol = "\r\n" if "\r\n" in s else "\n"
s = s[:step] + eol + "        { static volatile unsigned slowdown = 0; for (int k = 0; k < 10; ++k) { slowdown = slowdown * 3 + 1; } }" + s[step:]
open("tinyxml2.cpp", "w", newline="").write(s)
PY
    fi
    git add -A
    git commit -q --allow-empty -C "$c"
    [ "$i" -eq "$SLOW" ] && git tag slowdown
  done
  git tag good "$base"
fi

cat >"$work/bench.cpp" <<'CPP'
// Parses a generated 2 MiB XML document (elements with attributes and text) N times (argument,
// default 5).
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tinyxml2.h"

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 5;
  std::string xml = "<root>";
  for (int i = 0; i < 20000; ++i) {
    xml += "<item id=\"" + std::to_string(i) + "\" kind=\"k\">some text of an item, number " + std::to_string(i) +
           ", with more words to parse</item>";
  }
  xml += "</root>";
  long count = 0;
  for (int round = 0; round < rounds; ++round) {
    tinyxml2::XMLDocument doc;
    if (doc.Parse(xml.c_str(), xml.size()) != tinyxml2::XML_SUCCESS) {
      std::fprintf(stderr, "parse error\n");
      return 1;
    }
    for (auto* e = doc.RootElement()->FirstChildElement(); e != nullptr; e = e->NextSiblingElement()) {
      ++count;
    }
  }
  std::printf("items: %ld\n", count);
  return 0;
}
CPP
rounds=5
if [ "$mode" = instructions ]; then
  rounds=1  # Valgrind runs it some 30 times slower
  cat >"$work/perf.yaml" <<'YAML'
metrics:
  instructions: {valgrind: instructions, threshold: 5%}
YAML
else
  cat >"$work/perf.yaml" <<'YAML'
metrics:
  wall_time: {threshold: 5%}
max_seconds: 240
YAML
fi
cd "$work/tinyxml2"
exec "$PERFDUEL" bisect --good good --bad slowed --config "$work/perf.yaml" --work-dir "$work/bisect" \
  --json "$work/bisect-$mode.json" \
  --build "c++ -O2 -std=c++17 -I{dir} {dir}/tinyxml2.cpp $work/bench.cpp -o {dir}/bench" --run "{dir}/bench $rounds"
