#!/usr/bin/env bash
# Starts (or stops) a throwaway PostgreSQL cluster from the installed server binaries, for tests
# and CI: `eval "$(bash scripts/pg-test-cluster.sh start)"` exports TEST_DATABASE_URL.
# Root cannot run postgres, so the cluster runs as the `postgres` user.
set -euo pipefail
action=${1:-start}
port=${PG_TEST_PORT:-55432}
dir=${PG_TEST_DIR:-/tmp/cps-pg-$port}
bindir=${PG_BINDIR:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
  echo "PostgreSQL server binaries not found (apt-get install -y postgresql)" >&2
  exit 1
fi
as_postgres() {
  if [ "$(id -u)" = "0" ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
case "$action" in
  start)
    if [ ! -f "$dir/PG_VERSION" ]; then
      mkdir -p "$dir"
      [ "$(id -u)" = "0" ] && chown postgres:postgres "$dir"
      as_postgres "$bindir/initdb" -D "$dir" -A trust -U postgres >/dev/null
    fi
    if ! as_postgres "$bindir/pg_ctl" -D "$dir" status >/dev/null 2>&1; then
      as_postgres "$bindir/pg_ctl" -D "$dir" -l "$dir/server.log" -w \
        -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" start >/dev/null
    fi
    echo "export TEST_DATABASE_URL=postgresql://postgres@127.0.0.1:$port/postgres"
    ;;
  stop)
    as_postgres "$bindir/pg_ctl" -D "$dir" -m fast stop >/dev/null 2>&1 || true
    ;;
  *)
    echo "usage: $0 start|stop" >&2
    exit 2
    ;;
esac
