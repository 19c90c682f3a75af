#!/usr/bin/env bash
# Usage: browser_test.sh PERFDUEL FAKE_BENCH WHERE_BENCH OUT_DIR
# Opens perfduel's HTML pages in headless Chromium (Debian's chromium) and checks what a person
# would see: the run page of four real gates (summary --html), where the counted one's regression
# happened (its icicle and functions, also on a narrow window), and the dashboard of a history of
# 3 metrics × 50 runs (trend --html). Fails on any script error or refused resource (the
# page's own recorder, report/html_page.cpp, and the browser's console log), and leaves a
# screenshot of each page in OUT_DIR. Exit 77 (skipped) when chromium is not installed.
set -Eeuo pipefail
# A step that stops the script says which, with the end of the browser's logs.
trap 'rc=$?; echo "FAIL: line $LINENO: $BASH_COMMAND (exit $rc)"; tail -n 20 ./*.log 2>/dev/null; exit "$rc"' ERR
perfduel=$1 fake_bench=$2 where_bench=$3 out=$4
chromium=$(command -v chromium || command -v chromium-browser || true)
if [[ -z $chromium ]]; then
  echo "browser_test.sh: chromium is not installed (apt-get install chromium): skipped"
  exit 77
fi
rm -rf "$out" && mkdir -p "$out" && cd "$out"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# browse LOG ARGS...: Chromium's stdout to stdout, its log appended to LOG. A fresh profile each
# time (a browser still closing holds its profile), no first-run work; a window as tall as two
# screens so that the lazily drawn charts near the top are drawn before the DOM is read. When
# Chromium itself exits non-zero it is tried once more, saying so with the end of its log; a
# second exit stops the test.
browse() {
  local log=$1 attempt rc
  shift
  for attempt in 1 2; do
    rc=0
    timeout 60 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run --disable-extensions \
      --user-data-dir="$(mktemp -d "$out/profile.XXXXXX")" --enable-logging=stderr --v=0 \
      --virtual-time-budget=10000 --window-size=1280,2000 "$@" 2>>"$log" || rc=$?
    ((rc != 0)) || return 0
    {
      echo "note: chromium exited with $rc (attempt $attempt of 2: $*); the end of $log:"
      tail -n 15 "$log"
    } >&2
  done
  return "$rc"
}

# open PAGE NAME: the DOM after the page's script ran (NAME.dom.html), the console (NAME.log),
# a screenshot (NAME.png); checks that the page reached "ready" with no error recorded.
open_page() {
  local page=$1 name=$2
  : >"$name.log"
  browse "$name.log" --dump-dom "file://$page" >"$name.dom.html"
  browse "$name.log" --screenshot="$out/$name.png" --window-size=1280,2400 "file://$page" >/dev/null
  grep -q 'data-state="ready"' "$name.dom.html" || fail "$name: the page's script did not finish"
  grep -q 'id="perfduel-status"[^>]*data-errors="0"' "$name.dom.html" ||
    fail "$name: the page recorded errors: $(grep -o 'This page failed[^<]*' "$name.dom.html")"
  if grep -E 'CONSOLE.*(Uncaught|Refused|violates|Failed to load|ERR_)' "$name.log"; then
    fail "$name: script error or failed resource in the console"
  fi
  [[ -s $name.png ]] || fail "$name: no screenshot"
}

count() { { grep -o "$1" "$2" || true; } | wc -l; }

# --- The run page: four gates (a regression, a no change, a crash, a counted regression that
# says where it happened), as a CI run leaves them.
mkdir reports
cat >loose.yaml <<'YAML'
metrics:
  wall_time: {threshold: 30%, tolerance: 15%}
YAML
"$perfduel" compare --seed 1 -b "$fake_bench --work 2" -n "$fake_bench --work 4" \
  --json reports/sort_speed.json >compare.log 2>&1 || true
"$perfduel" compare --seed 2 --config loose.yaml -b "$fake_bench --work 2" -n "$fake_bench --work 2 --noise 0" \
  --json reports/parse_speed.json >>compare.log 2>&1 || true
"$perfduel" compare --seed 3 -b "$fake_bench --work 1" -n "$fake_bench --work 1 --crash" \
  --json reports/crash_gate.json >>compare.log 2>&1 || true
# Instructions counted by Valgrind: 3 rounds decide, and the counted runs say which functions
# grew (where_bench --slow: insertion_sort, and check_sorted that the baseline never calls).
cat >counted.yaml <<'YAML'
metrics:
  instructions: {valgrind: instructions, threshold: 1%, tolerance: 0.5%}
YAML
"$perfduel" compare --seed 4 --config counted.yaml -b "$where_bench" -n "$where_bench --slow" \
  --json reports/where_counted.json >>compare.log 2>&1 || true
rc=0
"$perfduel" summary reports --html "$out/run.html" >summary.log 2>&1 || rc=$?
[[ $rc == 1 ]] || fail "summary --html: exit code $rc, expected 1 (a regression): $(cat summary.log)"
open_page "$out/run.html" run
gates=$(grep -o 'id="gates"[^>]*data-gates="[0-9]*"' run.dom.html | grep -o '[0-9]*"$' | tr -d '"' || true)
[[ $gates == 4 ]] || fail "run: the table has ${gates:-no} gates, expected 4"
grep -q '<tr class="row-regression first" data-gate="sort_speed"' run.dom.html ||
  fail "run: the regression's row is not highlighted"
grep -q 'class="row-failed first" data-gate="crash_gate"' run.dom.html || fail "run: the failed gate's row is not marked"
grep -q 'Failed to run' run.dom.html || fail "run: the failed gate is not said in words"
# The regression's duel: at least its 10 rounds' runs of both sides drawn.
drawn=$(grep -o 'class="chart runs drawn" data-points="[0-9]*"' run.dom.html | grep -o '[0-9]*"$' | tr -d '"' |
  sort -n | tail -1 || true)
((${drawn:-0} >= 20)) || fail "run: no chart draws the runs of the regression's duel (most: ${drawn:-0})"
echo "run page: $gates gates, a chart of ${drawn:-0} runs"

# --- Where the counted regression happened: an icicle of its call tree (the root "all" and the
# functions below it) beside the table that names the function, also on the one duel's own page
# (analyze --html), whose screenshots show it wide and on a narrow window.
check_where() {
  local name=$1 nodes
  # The counted metric's icicle (the timed regression's gate has one of its own, profiled).
  nodes=$(grep -oP 'data-metric="instructions" data-reading="explained">.*?class="icicle"[^>]*data-nodes="\K[0-9]+' \
    "$name.dom.html" | head -1 || true)
  ((${nodes:-0} >= 4)) || fail "$name: no icicle of the call tree (nodes: ${nodes:-none})"
  grep -q '<h3>where: instructions: +[0-9.]* % instructions (+[0-9,]* per run)</h3>' "$name.dom.html" ||
    fail "$name: no head line of where the instructions went"
  grep -q '<tr class="more" data-function="[^"]*insertion_sort' "$name.dom.html" ||
    fail "$name: the table does not name insertion_sort"
  grep -q 'check_sorted[^<]*</code> <span class="tag added">new</span>' "$name.dom.html" ||
    fail "$name: check_sorted is not said to be new"
  grep -q 'where_bench.cpp:[0-9]' "$name.dom.html" || fail "$name: no source line of a function"
  echo "$name: an icicle of ${nodes:-0} nodes"
}
check_where run
rc=0
"$perfduel" analyze reports/where_counted.json --html "$out/where.html" >analyze.log 2>&1 || rc=$?
[[ $rc == 1 ]] || fail "analyze --html: exit code $rc, expected 1 (a regression): $(cat analyze.log)"
open_page "$out/where.html" where
check_where where
: >where_narrow.log
browse where_narrow.log --window-size=640,1600 --screenshot="$out/where_narrow.png" "file://$out/where.html" >/dev/null
[[ -s where_narrow.png ]] || fail "where: no screenshot of a narrow window"

# --- The dashboard: 3 metrics × 50 runs in a SQLite history.
"$(dirname "$0")/make_history.sh" "$perfduel" history.sqlite 50
rc=0
"$perfduel" trend --db history.sqlite --html "$out/dashboard" >trend.log 2>&1 || rc=$?
[[ $rc == 1 ]] || fail "trend --html: exit code $rc, expected 1 (the last group of sort/BM_Sort/4096 regressed)"
open_page "$out/dashboard/index.html" dashboard
series=$(grep -o 'id="series-table"[^>]*data-series="[0-9]*"' dashboard.dom.html | grep -o '[0-9]*"$' | tr -d '"' ||
  true)
[[ $series == 3 ]] || fail "dashboard: the table has ${series:-no} series, expected 3"
grep -q '<tr class="row-regression" data-series="sort/BM_Sort/4096"' dashboard.dom.html ||
  fail "dashboard: the regressed series' row is not highlighted"
points=$(count 'class="chart trend drawn" data-points="50"' dashboard.dom.html)
[[ $points == 3 ]] || fail "dashboard: $points of 3 charts draw their 50 points"
grep -q 'perfduel bisect --gate NAME --good' dashboard.dom.html || fail "dashboard: no bisect command"
grep -q '<th title="changes of group to a worse level[^"]*">regr. groups</th>' dashboard.dom.html ||
  fail "dashboard: the regressions column does not say it counts groups"

# --- The trend plot (trend --svg) in a window 1200 pixels wide: no horizontal scroll bar.
"$perfduel" trend --db history.sqlite --metric sort/BM_Sort/4096 --svg "$out/trend.svg" >/dev/null 2>&1 || true
cat >trend_svg.html <<'HTML'
<!doctype html><html><body><img src="trend.svg" alt="trend">
<script>window.onload = function () {
  document.body.setAttribute('data-overflow', String(document.documentElement.scrollWidth - window.innerWidth));
};</script></body></html>
HTML
browse trend_svg.log --window-size=1200,900 --dump-dom "file://$out/trend_svg.html" >trend_svg.dom.html
browse trend_svg.log --window-size=1200,900 --screenshot="$out/trend_svg.png" "file://$out/trend.svg" >/dev/null
grep -q 'data-overflow="0"' trend_svg.dom.html ||
  fail "trend --svg: wider than a 1200-pixel window ($(grep -o 'data-overflow="[^"]*"' trend_svg.dom.html))"

# --- The checks above can fail: a page that loads from the network is caught.
sed 's|<main id="page"></main>|<main id="page"></main><img src="https://example.com/pixel.png">|' run.html >network.html
browse network.log --dump-dom "file://$out/network.html" >network.dom.html
grep -q 'data-errors="[1-9]' network.dom.html || fail "a page that loads from the network was not caught"

echo "screenshots: $out/run.png $out/where.png $out/where_narrow.png $out/dashboard.png $out/trend_svg.png"
((failures == 0)) || { echo "$failures failures"; exit 1; }
echo "all browser checks passed"
