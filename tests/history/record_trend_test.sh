#!/bin/sh
# `perfduel record` and `perfduel trend` against PostgreSQL and SQLite with the same data:
#   record_trend_test.sh PERFDUEL WORK_DIR      (under with_postgres.sh: PERFDUEL_TEST_PG_URI)
# The trend reports (text and JSON) must be identical, a retried record must add nothing,
# the filters must select the same points, and a password must never be printed.
set -u
perfduel=$1
work=$2
pg=${PERFDUEL_TEST_PG_URI:?run under with_postgres.sh}
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
sqlite=$work/h.sqlite
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# run DB EXPECTED-EXIT ARGS...: perfduel with --db DB, output in out.txt / err.txt.
run() {
  db=$1; want=$2; shift 2
  "$perfduel" "$@" --db "$db" >out.txt 2>err.txt
  code=$?
  [ "$code" = "$want" ] || { fail "perfduel $* --db $db: exit $code, expected $want"; cat out.txt err.txt; }
}

cat >report.json <<'JSON'
{"perfduel_version":"0.1.0","verdict":"no-change","exit_code":0,"started":"2026-11-30T10:00:00Z",
 "metrics":[{"name":"wall_time","unit":"s","direction":"lower","gated":true,"baseline_median":0.0101,
   "candidate_median":0.0130,"change":0.287,"ci":[0.27,0.30],"verdict":"regression","rounds":2}],
 "config":{"candidate":{"command":["/runner/a/build/bench_sort","--size","1000"],"shell":false},
           "confidence":0.95},
 "environment":{"host":"ci-a","cpu_model":"Fast CPU","kernel_release":"6.1"},
 "runs":[{"round":0,"side":"candidate","warmup":false,"values":{"wall_time":0.0130}},
         {"round":1,"side":"candidate","warmup":false,"values":{"wall_time":0.0130}}]}
JSON

# Reading a database without a history creates nothing and says what to do.
run "$pg" 2 trend
grep -q "^perfduel: error: $pg: no perfduel history in this database (record results with \`perfduel record\` first, or pass --db)$" err.txt ||
  fail "trend of an empty database: $(cat err.txt)"

for db in "$pg" "$sqlite"; do
  # Thirty nights on two machines, a step up on the fast one from night 19 (12 nights: a change must hold 12 runs); a feature branch
  # beside them.
  night=1
  while [ $night -le 30 ]; do
    day=$(printf '2026-11-%02dT02:00:00Z' "$night")
    fast=$(awk -v n=$night 'BEGIN { printf "%.6f", (n > 18 ? 0.0130 : 0.0100) * (1 + 0.002 * ((n * 7) % 5 - 2)) }')
    slow=$(awk -v n=$night 'BEGIN { printf "%.6f", 0.0200 * (1 + 0.002 * ((n * 3) % 5 - 2)) }')
    run "$db" 0 record --commit "c$night" --branch main --time "$day" --machine "ci-a | Fast CPU | 6.1" \
      --metric wall_time --value "$fast" --value "$fast"
    run "$db" 0 record --commit "c$night" --branch main --time "$day" --machine "ci-b | Slow CPU | 6.1" \
      --metric wall_time --value "$slow"
    night=$((night + 1))
  done
  run "$db" 0 record --commit f1 --branch feature --time 2026-11-15T12:00:00Z --machine "ci-a | Fast CPU | 6.1" \
    --metric max_rss --value 1000 --unit bytes
  # A report, recorded twice (a retried job): the second time adds nothing, exit 0.
  run "$db" 0 record --commit c30 --branch main report.json
  grep -q '^recorded #[0-9]* in .*, config [0-9a-f]\{12\}$' out.txt || fail "record of a report: $(cat out.txt)"
  config=$(sed -n 's/.*, config \([0-9a-f]*\)$/\1/p' out.txt)
  run "$db" 0 record --commit c30 --branch main report.json
  grep -q '^already recorded as #[0-9]* in .* (run id report-[0-9a-f]*@c30); nothing added$' out.txt ||
    fail "a retried record: $(cat out.txt)"
  run "$db" 0 record --run-id job-17 --commit c31 --branch other --time 2026-12-01 --metric binary_size --value 5
  run "$db" 0 record --run-id job-17 --commit c31 --branch other --time 2026-12-01 --metric binary_size --value 5
  grep -q '^already recorded as #[0-9]* in .* (run id job-17); nothing added$' out.txt ||
    fail "a retried --run-id record: $(cat out.txt)"
done

"$perfduel" record --db "$sqlite" --metric probe --value 1 --machine "ci-a | Fast CPU | 6.1" --branch probe >out.txt
fast_id=$(sed -n 's/.* machine \([0-9a-f]*\) (ci-a.*/\1/p' out.txt)
[ -n "$fast_id" ] || fail "no machine id in: $(cat out.txt)"

# The same questions to both databases, the same answers.
# Messages name the database; the rest must match.
compare() {
  want=$1; shift
  rm -f pg.json sqlite.json
  run "$pg" "$want" trend "$@" --json pg.json
  cp out.txt pg.out; sed "s|$pg|DATABASE|g" err.txt >pg.err
  run "$sqlite" "$want" trend "$@" --json sqlite.json
  sed "s|$sqlite|DATABASE|g" err.txt >sqlite.err
  cmp -s pg.out out.txt || { fail "trend $*: text differs"; diff pg.out out.txt; }
  cmp -s pg.err sqlite.err || { fail "trend $*: notes differ"; diff pg.err sqlite.err; }
  if [ -f pg.json ] || [ -f sqlite.json ]; then
    cmp -s pg.json sqlite.json || { fail "trend $*: JSON differs"; diff pg.json sqlite.json; }
  fi
}
compare 1 --metric wall_time --branch main --machine "$fast_id"
grep -q 'regression' pg.out || fail "the step on the fast machine is not a regression: $(cat pg.out)"
runs=$(jq '.runs' pg.json)
[ "$runs" = 31 ] || fail "fast machine on main: $runs runs, expected 31 (30 nights and the report)"
compare 1 --metric wall_time --branch main --machine "$fast_id" --config none --samples
[ "$(jq '.runs' pg.json)" = 30 ] || fail "--config none: $(jq '.runs' pg.json) runs"
compare 0 --metric wall_time --config "$config" --branch main
[ "$(jq '.runs' pg.json)" = 1 ] || fail "--config $config: $(jq '.runs' pg.json) runs, expected the report's 1"
compare 0 --metric wall_time
grep -q 'measured on several machines' pg.err || fail "mixed machines are not flagged: $(cat pg.err)"
# Records without a configuration hash do not make a series mixed; two hashes do.
grep -q 'several configurations' pg.err && fail "a series of one configuration is flagged: $(cat pg.err)"
for db in "$pg" "$sqlite"; do
  sed 's/"confidence":0.95/"confidence":0.99/' report.json >report99.json
  run "$db" 0 record --commit c32 --branch main --time 2026-12-02T00:00:00Z report99.json
done
compare 1 --metric wall_time --branch main --machine "$fast_id"
grep -q 'measured under several configurations: none (30 records), [0-9a-f]* (1 record), [0-9a-f]* (1 record); trended one series each (--config HASH trends one)' pg.err ||
  fail "mixed configurations are not flagged: $(cat pg.err)"
# Each configuration is its own series: the plain records' step is the regression, the two
# gate configurations' single records are not steps against them.
[ "$(jq -c '[.metrics[] | [.config, .runs, .compliance.last_class]]' pg.json)" = \
  "[[\"none\",30,\"regression\"],[\"$config\",1,\"normal\"],[\"$(jq -r '.metrics[2].config' pg.json)\",1,\"normal\"]]" ] ||
  fail "mixed configurations are not trended apart: $(jq -c '[.metrics[] | [.config, .runs]]' pg.json)"
grep -q "^wall_time@$config " pg.out || fail "the series of configuration $config is not named: $(cat pg.out)"
compare 0 --branch feature
compare 0 --metric binary_size --branch other
compare 2 --metric wall_tim
grep -q 'no metric "wall_tim" (did you mean "wall_time"?)' pg.err || fail "unknown metric: $(cat pg.err)"

# A password is never printed: not in the confirmation, not in an error.
secret=s3cret-Pw
host_dir=${pg#*host=}
run "postgresql://perfduel:$secret@/postgres?host=$host_dir" 0 record --metric x --value 1 --run-id secret-1
grep -q "postgresql://perfduel:\*\*\*@/postgres" out.txt || fail "the URI is not shown redacted: $(cat out.txt)"
run "postgresql://perfduel:$secret@127.0.0.1:1/postgres?connect_timeout=5" 2 record --metric x --value 1
grep -q '^perfduel: error: postgresql://perfduel:\*\*\*@127.0.0.1:1/postgres?connect_timeout=5: cannot connect to the history database: ' err.txt ||
  fail "unreachable server: $(cat err.txt)"
run "postgresql:///postgres?host=$host_dir&password=$secret&user=nobody_here" 2 trend
grep -q "password=\*\*\*&user=nobody_here: cannot connect" err.txt || fail "password parameter: $(cat err.txt)"
if grep -r -- "$secret" out.txt err.txt; then fail "a password was printed"; fi

[ "$failures" = 0 ] || exit 1
echo "ok: record and trend agree on PostgreSQL and SQLite"
