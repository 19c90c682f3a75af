#!/bin/sh
# Runs a command against a throw-away PostgreSQL server:
#   with_postgres.sh COMMAND [ARG...]
# initdb into a fresh temporary directory, a server listening only on a Unix socket in it,
# the command run with PERFDUEL_TEST_PG_URI naming the server's database, then the server
# stopped and the directory removed, whatever happens. initdb refuses to run as root, so as
# root the server runs as the unprivileged user `postgres` (Debian's postgresql package
# creates it). Exit code: the command's, or 77 (CTest's skip code here) when no server
# binaries are installed.
set -u

bindir=${PERFDUEL_PG_BINDIR:-}
if [ -z "$bindir" ]; then
  for candidate in /usr/lib/postgresql/*/bin; do
    [ -x "$candidate/initdb" ] && [ -x "$candidate/pg_ctl" ] && bindir=$candidate
  done
fi
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ] || [ ! -x "$bindir/pg_ctl" ]; then
  echo "SKIP: no PostgreSQL server binaries (initdb, pg_ctl) in /usr/lib/postgresql/*/bin or \$PERFDUEL_PG_BINDIR;" \
    "install Debian's postgresql package to run this test"
  exit 77
fi

as_server() { "$@"; }
if [ "$(id -u)" = 0 ]; then
  if ! id postgres >/dev/null 2>&1; then
    echo "SKIP: running as root, and there is no unprivileged user 'postgres' to run the server as" \
      "(initdb refuses root); install Debian's postgresql package"
    exit 77
  fi
  as_server() { runuser -u postgres -- "$@"; }
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/perfduel-pg.XXXXXX") || exit 1
stop() {
  as_server "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1
  rm -rf "$dir"
}
trap stop EXIT
trap 'exit 130' INT TERM
[ "$(id -u)" = 0 ] && chown postgres "$dir"

# The server's user must be able to enter its working directory.
cd "$dir" || exit 1
# PERFDUEL_TEST_PG_AUTH=password: the server asks for a password (SCRAM), which is then in
# PERFDUEL_TEST_PG_PASSWORD and not in PERFDUEL_TEST_PG_URI; otherwise every connection is trusted.
auth=--auth=trust
if [ "${PERFDUEL_TEST_PG_AUTH:-trust}" = password ]; then
  PERFDUEL_TEST_PG_PASSWORD="pd-$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
  export PERFDUEL_TEST_PG_PASSWORD
  printf '%s\n' "$PERFDUEL_TEST_PG_PASSWORD" >"$dir/pwfile"
  [ "$(id -u)" = 0 ] && chown postgres "$dir/pwfile"
  auth="--auth=scram-sha-256 --pwfile=$dir/pwfile"
fi
# shellcheck disable=SC2086 # $auth is one or two options
if ! as_server "$bindir/initdb" -D "$dir/data" -U perfduel $auth -E UTF8 --locale=C --no-sync \
  >"$dir/initdb.log" 2>&1; then
  echo "initdb failed:"; cat "$dir/initdb.log"; exit 1
fi
if ! as_server "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
  -o "-c listen_addresses= -k $dir -c max_connections=50" start >/dev/null; then
  echo "the PostgreSQL server did not start:"; cat "$dir/server.log"; exit 1
fi
cd "$OLDPWD" || exit 1

PERFDUEL_TEST_PG_URI="postgresql://perfduel@/postgres?host=$dir"
export PERFDUEL_TEST_PG_URI
"$@"
