#!/bin/sh
# Credentials for a PostgreSQL history come only from where libpq reads them, and are never
# printed: run under `PERFDUEL_TEST_PG_AUTH=password with_postgres.sh`, against a server that
# asks every connection for a password.
#   password_test.sh PERFDUEL WORK_DIR
set -u
perfduel=$1
work=$2
uri=${PERFDUEL_TEST_PG_URI:?run under with_postgres.sh}
secret=${PERFDUEL_TEST_PG_PASSWORD:?run with PERFDUEL_TEST_PG_AUTH=password}
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
host_dir=${uri#*host=}
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
unset PGPASSWORD PGPASSFILE

# run EXPECTED-EXIT ARGS...: perfduel with ARGS, output in out.txt / err.txt.
run() {
  want=$1; shift
  "$perfduel" "$@" >out.txt 2>err.txt
  code=$?
  [ "$code" = "$want" ] || { fail "perfduel $*: exit $code, expected $want"; cat out.txt err.txt; }
  if grep -q -- "$secret" out.txt err.txt; then fail "perfduel $*: the password was printed"; fi
}

# No password anywhere: the server refuses, and the message says so.
run 2 record --db "$uri" --metric x --value 1 --run-id none
grep -q "^perfduel: error: $uri: cannot connect to the history database: .*password" err.txt ||
  fail "no password: $(cat err.txt)"

# In the URI.
run 0 record --db "postgresql://perfduel:$secret@/postgres?host=$host_dir" --metric x --value 1 --run-id in-uri
grep -q '^recorded #1 in postgresql://perfduel:\*\*\*@/postgres' out.txt || fail "password in the URI: $(cat out.txt)"

# In PGPASSWORD, through PERFDUEL_HISTORY instead of --db.
export PGPASSWORD="$secret" PERFDUEL_HISTORY="$uri"
run 0 record --metric x --value 1 --run-id pgpassword
unset PGPASSWORD PERFDUEL_HISTORY

# In a password file (PGPASSFILE; ~/.pgpass is the same file by default), which libpq reads
# only when no other group or world may read it.
printf '*:*:*:perfduel:%s\n' "$secret" >pgpass
chmod 600 pgpass
export PGPASSFILE="$work/pgpass"
run 0 record --db "$uri" --metric x --value 1 --run-id pgpassfile
run 0 trend --db "$uri" --metric x --json trend.json
unset PGPASSFILE
[ "$(jq '.runs' trend.json)" = 3 ] || fail "records: $(jq '.runs' trend.json), expected 3, one per way"

# A wrong password: refused, and neither it nor the right one is shown.
run 2 record --db "postgresql://perfduel:wrong-$secret@/postgres?host=$host_dir" --metric x --value 1
grep -q '^perfduel: error: postgresql://perfduel:\*\*\*@/postgres?host=.*: cannot connect to the history database: .*password authentication failed' err.txt ||
  fail "wrong password: $(cat err.txt)"
if grep -q -- "wrong-" err.txt; then fail "the wrong password was printed"; fi

[ "$failures" = 0 ] || exit 1
echo "ok: the password from the URI, PGPASSWORD and a password file; never printed"
